// SPDX-License-Identifier: MIT
// Version negotiation, GetCaps, format support, table completeness and the DDI-level
// behaviours the API cannot express (handles reused after destroy, errors through
// pfnSetErrorCb for what is not implemented).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "driver_test_support.h"

namespace triton::test {
namespace {

D3D_FEATURE_LEVEL referenceFeatureLevel() {
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  D3D_FEATURE_LEVEL level{};
  EXPECT_EQ(createReferenceDevice(device, context, &level), S_OK);
  return level;
}

int highestPipelineLevel(D3D_FEATURE_LEVEL level) {
  if (level >= D3D_FEATURE_LEVEL_11_1) return ddi::D3D11_1DDI_3DPIPELINELEVEL_11_1;
  if (level >= D3D_FEATURE_LEVEL_11_0) return ddi::D3D11DDI_3DPIPELINELEVEL_11_0;
  if (level >= D3D_FEATURE_LEVEL_10_1) return ddi::D3D11DDI_3DPIPELINELEVEL_10_1;
  return ddi::D3D11DDI_3DPIPELINELEVEL_10_0;
}

using DriverVersions = DriverTest;

TEST_F(DriverVersions, ListsTheD3D11InterfacesNewestFirst) {
  const std::vector<UINT64> versions = adapter.supportedVersions();
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  ASSERT_EQ(createReferenceDevice(device, context), S_OK);
  ComPtr<ID3D11Device1> device1;
  std::vector<UINT64> expected;
  if (SUCCEEDED(device.As(&device1))) {
    expected.push_back(ddi::D3DWDDM2_1_DDI_SUPPORTED);
    expected.push_back(ddi::D3DWDDM2_0_DDI_SUPPORTED);
    expected.push_back(ddi::D3DWDDM1_3_DDI_SUPPORTED);
    expected.push_back(ddi::D3D11_1_DDI_SUPPORTED);
  }
  expected.push_back(ddi::D3D11_0_7_DDI_SUPPORTED);
  expected.push_back(ddi::D3D11_0_DDI_SUPPORTED);
  EXPECT_EQ(versions, expected);
}

TEST_F(DriverVersions, RefusesATooSmallArray) {
  UINT32 count = 0;
  ASSERT_EQ(adapter.funcs.pfnGetSupportedVersions(adapter.handle, &count, nullptr), S_OK);
  ASSERT_GE(count, 2u);
  std::vector<UINT64> versions(count, 0);
  UINT32 tooFew = count - 1;
  EXPECT_EQ(adapter.funcs.pfnGetSupportedVersions(adapter.handle, &tooFew, versions.data()),
            HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER));
  EXPECT_EQ(versions[0], 0u);
}

// The runtime's DXGI level for an interface Triton lists: the Windows 7 D3D11.0 runtime
// passes the resolve level, the D3D11.1 and WDDM 1.3 runtimes offer/reclaim.
UINT runtimeVersionFor(UINT64 supported) {
  const UINT interfaceVersion = UINT(supported >> 32);
  return harness::runtimeVersion(ddi::ddiBuild(UINT(supported)), interfaceVersion >= ddi::D3D11_1_DDI_INTERFACE_VERSION
                                                                     ? ddi::DXGI_OFFER_RECLAIM
                                                                     : ddi::DXGI_RESOLVE_SHARED_RESOURCE);
}

std::vector<bool> filled(const std::vector<const void*>& entries) {
  std::vector<bool> out;
  for (const void* e : entries)
    out.push_back(e != nullptr);
  return out;
}

// Every listed version creates a device whose tables have no empty slot; every other
// interface is refused by CalcPrivateDeviceSize and CreateDevice alike.
TEST_F(DriverVersions, EveryListedVersionCreatesACompleteDevice) {
  for (UINT64 supported : adapter.supportedVersions()) {
    const UINT interfaceVersion = UINT(supported >> 32);
    SCOPED_TRACE(interfaceVersion);
    harness::Device device;
    ASSERT_EQ(device.create(adapter, interfaceVersion, runtimeVersionFor(supported), ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
    std::vector<const void*> entries = device.isWddm2_1()   ? harness::tableEntries(device.funcsWddm2_1)
                                       : device.isWddm2_0() ? harness::tableEntries(device.funcsWddm2_0)
                                       : device.isWddm1_3() ? harness::tableEntries(device.funcsWddm1_3)
                                       : device.is11_1()    ? harness::tableEntries(device.funcs11_1)
                                                            : harness::tableEntries(device.funcs11);
    EXPECT_EQ(entries.size(), device.isWddm2_1()   ? 170u
                              : device.isWddm2_0() ? 168u
                              : device.isWddm1_3() ? 164u
                              : device.is11_1()    ? 155u
                                                   : 150u);
    for (size_t i = 0; i < entries.size(); ++i)
      EXPECT_NE(entries[i], nullptr) << "device table slot " << i;
    // WDDM 2.0 / 2.1: the DXGI 1.4 (21) / 1.5 (22) table but its two reserved members.
    if (device.isWddm2_x()) {
      const std::vector<const void*> dxgi = device.isWddm2_1() ? harness::tableEntries(device.dxgi1_5)
                                                               : harness::tableEntries(device.dxgi1_4);
      std::vector<bool> expected(device.isWddm2_1() ? 22 : 21, true);
      expected[13] = expected[15] = false;   // pfnReserved1, pfnReserved2
      EXPECT_EQ(filled(dxgi), expected);
      EXPECT_EQ(filled(harness::tableEntries(device.dxgi1_3)), std::vector<bool>(18, false));
      continue;
    }
    // The DXGI table of the interface: 1.1 (8 members), the whole 1.2 table (15, the
    // four multiplane-overlay members included: IS_DXGI_MULTIPLANE_OVERLAY_FUNCTIONS
    // holds for the 11.1 interface), or the 1.3 table (18) but its two reserved members.
    if (device.isWddm1_3()) {
      std::vector<bool> expected(18, true);
      expected[13] = expected[15] = false;   // pfnReserved1, pfnReserved2
      EXPECT_EQ(filled(harness::tableEntries(device.dxgi1_3)), expected);
      EXPECT_EQ(filled(harness::tableEntries(device.dxgi1_2)), std::vector<bool>(15, false));
      continue;
    }
    const std::vector<const void*> dxgi = device.is11_1() ? harness::tableEntries(device.dxgi1_2)
                                                          : harness::tableEntries(device.dxgi1_1);
    EXPECT_EQ(filled(dxgi), std::vector<bool>(dxgi.size(), true));
    EXPECT_EQ(dxgi.size(), device.is11_1() ? 15u : 8u);
  }
}

// The DXGI table follows the low word of Version for the D3D11.0 interfaces (the
// WDK's IS_DXGI1_1_BASE_FUNCTIONS), and the interface alone for 11.1: a runtime without
// the resolve level hands over the seven-member table, and the driver writes nothing
// past it.
TEST_F(DriverVersions, TheDxgiTableFollowsTheRuntimesLevel) {
  for (const InterfaceVersion* v : {&kD3D11_0, &kD3D11_0_7}) {
    SCOPED_TRACE(v->name);
    harness::Device base;
    ASSERT_EQ(base.create(adapter, v->interfaceVersion, v->version & 0xffff0000u, ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
    EXPECT_EQ(filled(harness::tableEntries(base.dxgi1_0)), std::vector<bool>(7, true));
    EXPECT_EQ(filled(harness::tableEntries(base.dxgi1_1)), std::vector<bool>(8, false));
    harness::Device resolve;
    ASSERT_EQ(resolve.create(adapter, v->interfaceVersion, v->version, ddi::D3D11DDI_3DPIPELINELEVEL_10_0), S_OK);
    EXPECT_EQ(filled(harness::tableEntries(resolve.dxgi1_1)), std::vector<bool>(8, true));
    EXPECT_EQ(filled(harness::tableEntries(resolve.dxgi1_0)), std::vector<bool>(7, false));
  }
  const std::vector<UINT64> versions = adapter.supportedVersions();
  // The 11.1 interface is listed (after the WDDM 2.1, 2.0 and 1.3 ones) when the target has 11.1.
  if (!versions.empty() && versions.front() >> 32 == ddi::D3DWDDM2_1_DDI_INTERFACE_VERSION) {
    harness::Device device;
    ASSERT_EQ(device.create(adapter, kD3D11_1.interfaceVersion, kD3D11_1.version & 0xffff0000u,
                            ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
    EXPECT_EQ(filled(harness::tableEntries(device.dxgi1_2)), std::vector<bool>(15, true));
  }
}

TEST_F(DriverVersions, RefusesInterfacesItDoesNotList) {
  // D3D10, D3D10 on 9, the Vista platform update's D3D11.0 (build 0: the deprecated
  // COMMANDLISTS semantics), 11.1's release candidate, WDDM 2.0's preview interface
  // (minor 17: a 175-member table Triton does not implement) and an unknown minor.
  for (UINT interfaceVersion :
       {ddi::D3D10_0_DDI_INTERFACE_VERSION, ddi::D3D10_1_DDI_INTERFACE_VERSION, ddi::D3D10_1_7_DDI_INTERFACE_VERSION,
        ddi::D3D10on9_DDI_INTERFACE_VERSION, ddi::D3D11_0_vista_DDI_INTERFACE_VERSION,
        ddi::D3D11_1_DDI_INTERFACE_VERSION_RC, ddi::D3DWDDM2_0_DDI_INTERFACE_VERSION_PREVIEW, ddi::makeDdiInterface(11, 200)}) {
    SCOPED_TRACE(interfaceVersion);
    const UINT version = harness::runtimeVersion(5, ddi::DXGI_OFFER_RECLAIM);
    const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE args{interfaceVersion, version, 0};
    EXPECT_EQ(adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &args), 0u);
    harness::Device device;
    EXPECT_NE(device.create(adapter, interfaceVersion, version, ddi::D3D11DDI_3DPIPELINELEVEL_10_0), S_OK);
  }
  // A runtime build older than the listed one (D3D11.0 is listed at build 2); a newer
  // build is accepted (non-breaking changes only).
  for (UINT build : {0u, 1u, 2u, 3u}) {
    const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE args{
        ddi::D3D11_0_DDI_INTERFACE_VERSION, harness::runtimeVersion(build, ddi::DXGI_RESOLVE_SHARED_RESOURCE), 0};
    EXPECT_EQ(adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &args) != 0, build >= 2) << build;
  }
  // WDDM 1.3 is listed at build 1: a build-0 runtime is refused.
  if (!adapter.supportedVersions().empty() &&
      adapter.supportedVersions().front() >> 32 == ddi::D3DWDDM2_1_DDI_INTERFACE_VERSION)
    for (UINT build : {0u, 1u}) {
      const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE args{ddi::D3DWDDM1_3_DDI_INTERFACE_VERSION,
                                                        harness::runtimeVersion(build, ddi::DXGI_OFFER_RECLAIM), 0};
      EXPECT_EQ(adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &args) != 0, build >= 1) << build;
    }
  // WDDM 2.0 is listed at build 9: builds 6-8 of interface minor 32 pass shorter tables
  // (167 members) and are refused; WDDM 2.1 is listed at build 2.
  if (!adapter.supportedVersions().empty() &&
      adapter.supportedVersions().front() >> 32 == ddi::D3DWDDM2_1_DDI_INTERFACE_VERSION) {
    for (UINT build : {6u, 8u, 9u, 10u}) {
      const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE args{ddi::D3DWDDM2_0_DDI_INTERFACE_VERSION,
                                                        harness::runtimeVersion(build, ddi::DXGI_OFFER_RECLAIM), 0};
      EXPECT_EQ(adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &args) != 0, build >= 9) << build;
    }
    for (UINT build : {1u, 2u}) {
      const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE args{ddi::D3DWDDM2_1_DDI_INTERFACE_VERSION,
                                                        harness::runtimeVersion(build, ddi::DXGI_OFFER_RECLAIM), 0};
      EXPECT_EQ(adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &args) != 0, build >= 2) << build;
    }
  }
}

TEST_F(DriverVersions, PipelineLevelsFollowTheTarget) {
  const int highest = highestPipelineLevel(referenceFeatureLevel());
  ddi::D3D11DDI_3DPIPELINESUPPORT_CAPS caps{};
  ASSERT_EQ(adapter.getCaps(ddi::D3D11DDICAPS_3DPIPELINESUPPORT, &caps, sizeof(caps)), S_OK);
  UINT expected = 0;
  for (int level = 0; level <= highest; ++level)
    expected |= 1u << level;
  EXPECT_EQ(caps.Caps, expected);
  for (int level = 0; level <= ddi::D3D11_1DDI_3DPIPELINELEVEL_9_3; ++level) {
    const UINT flags = UINT(level) << ddi::D3D11DDI_CREATEDEVICE_FLAG_3DPIPELINESUPPORT_SHIFT;
    const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE args{kD3D11_0.interfaceVersion, kD3D11_0.version, flags};
    EXPECT_EQ(adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &args) != 0, level <= highest) << level;
  }
}

// OpenAdapter10_2 ignores the runtime's interface (the reference says a driver may);
// a D3D10 runtime then finds no version it can use.
TEST_F(DriverVersions, D3D10RuntimeFindsNoVersion) {
  ddi::D3D10_2DDI_ADAPTERFUNCS funcs{};
  ddi::D3DDDI_ADAPTERCALLBACKS callbacks{};
  ddi::D3D10DDIARG_OPENADAPTER args{};
  args.Interface = ddi::D3D10_1_DDI_INTERFACE_VERSION;
  args.Version = harness::runtimeVersion(ddi::D3D10_1_DDI_BUILD_VERSION,
                                         ddi::VISTA_GOLD_PRODUCT_VER | ddi::DXGI_RESOLVE_SHARED_RESOURCE);
  args.pAdapterCallbacks = &callbacks;
  args.pAdapterFuncs_2 = &funcs;
  ASSERT_EQ(driver->openAdapter10_2(&args), S_OK);
  UINT32 count = 0;
  ASSERT_EQ(funcs.pfnGetSupportedVersions(args.hAdapter, &count, nullptr), S_OK);
  std::vector<UINT64> versions(count);
  ASSERT_EQ(funcs.pfnGetSupportedVersions(args.hAdapter, &count, versions.data()), S_OK);
  for (UINT64 v : versions)
    EXPECT_EQ(ddi::ddiMajor(UINT(v >> 32)), ddi::D3D11_DDI_MAJOR_VERSION);
  const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE size{args.Interface, args.Version, 0};
  EXPECT_EQ(funcs.pfnCalcPrivateDeviceSize(args.hAdapter, &size), 0u);
  EXPECT_EQ(funcs.pfnCloseAdapter(args.hAdapter), S_OK);
  EXPECT_EQ(driver->openAdapter10_2(nullptr), E_INVALIDARG);
}

// GetCaps ----------------------------------------------------------------------------

class DriverCaps : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_EQ(createReferenceDevice(reference, referenceContext), S_OK);
  }
  template <class Data>
  Data feature(D3D11_FEATURE id) {
    Data data{};
    if (FAILED(reference->CheckFeatureSupport(id, &data, sizeof(data))))
      data = Data{};
    return data;
  }
  ComPtr<ID3D11Device> reference;
  ComPtr<ID3D11DeviceContext> referenceContext;
};

TEST_F(DriverCaps, Threading) {
  ddi::D3D11DDI_THREADING_CAPS caps{~0u};
  ASSERT_EQ(adapter.getCaps(ddi::D3D11DDICAPS_THREADING, &caps, sizeof(caps)), S_OK);
  const auto threading = feature<D3D11_FEATURE_DATA_THREADING>(D3D11_FEATURE_THREADING);
  EXPECT_EQ(caps.Caps, ddi::D3D11DDICAPS_COMMANDLISTS_BUILD_2 |
                           (threading.DriverConcurrentCreates ? ddi::D3D11DDICAPS_FREETHREADED : 0u))
      << "driver command lists are always offered (built on the target's deferred contexts)";
}

TEST_F(DriverCaps, Shader) {
  ddi::D3D11DDI_SHADER_CAPS caps{~0u};
  ASSERT_EQ(adapter.getCaps(ddi::D3D11DDICAPS_SHADER, &caps, sizeof(caps)), S_OK);
  UINT expected = 0;
  if (feature<D3D11_FEATURE_DATA_DOUBLES>(D3D11_FEATURE_DOUBLES).DoublePrecisionFloatShaderOps)
    expected |= ddi::D3D11DDICAPS_SHADER_DOUBLES;
  if (feature<D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS>(D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS)
          .ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x)
    expected |= ddi::D3D11DDICAPS_SHADER_COMPUTE_PLUS_RAW_AND_STRUCTURED_BUFFERS_IN_SHADER_4_X;
  EXPECT_EQ(caps.Caps, expected);
}

TEST_F(DriverCaps, D3D11Options) {
  ddi::D3D11_1DDI_D3D11_OPTIONS_DATA data{~0, ~0};
  ASSERT_EQ(adapter.getCaps(ddi::D3D11_1DDICAPS_D3D11_OPTIONS, &data, sizeof(data)), S_OK);
  EXPECT_EQ(data.OutputMergerLogicOp,
            feature<D3D11_FEATURE_DATA_D3D11_OPTIONS>(D3D11_FEATURE_D3D11_OPTIONS).OutputMergerLogicOp);
  EXPECT_EQ(data.AssignDebugBinarySupport, FALSE);
}

TEST_F(DriverCaps, ArchitectureInfo) {
  ddi::D3D11_1DDI_ARCHITECTURE_INFO_DATA data{~0};
  ASSERT_EQ(adapter.getCaps(ddi::D3D11_1DDICAPS_ARCHITECTURE_INFO, &data, sizeof(data)), S_OK);
  EXPECT_EQ(data.TileBasedDeferredRenderer,
            feature<D3D11_FEATURE_DATA_ARCHITECTURE_INFO>(D3D11_FEATURE_ARCHITECTURE_INFO).TileBasedDeferredRenderer);
}

TEST_F(DriverCaps, ShaderMinPrecision) {
  ddi::D3D11_DDI_SHADER_MIN_PRECISION_SUPPORT_DATA data{~0u, ~0u};
  ASSERT_EQ(adapter.getCaps(ddi::D3D11_1DDICAPS_SHADER_MIN_PRECISION_SUPPORT, &data, sizeof(data)), S_OK);
  const auto precision =
      feature<D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT>(D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT);
  EXPECT_EQ(data.PixelShaderMinPrecision, precision.PixelShaderMinPrecision);
  EXPECT_EQ(data.AllOtherStagesMinPrecision, precision.AllOtherShaderStagesMinPrecision);
}

// WDDM 1.3: tiled resources and profile markers are reported absent, so the runtime
// never calls the 1.3 table's members for them (driver_entries_test checks what they
// answer if called anyway).
TEST_F(DriverCaps, Wddm1_3ReportsNoTiledResourcesAndNoMarkers) {
  ddi::D3DWDDM1_3DDI_D3D11_OPTIONS_DATA1 options{0xffffffffu};
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM1_3DDICAPS_D3D11_OPTIONS1, &options, sizeof(options)), S_OK);
  EXPECT_EQ(options.TiledResourcesSupportFlags, 0u);
  UINT marker = 0xffffffffu;
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM1_3DDICAPS_MARKER, &marker, sizeof(marker)), S_OK);
  EXPECT_EQ(marker, UINT(ddi::D3DWDDM1_3DDI_MARKER_TYPE_NONE));
  EXPECT_EQ(adapter.getCaps(ddi::D3DWDDM1_3DDICAPS_MARKER, &marker, 2), E_INVALIDARG);
}

// WDDM 2.0: conservative rasterization, texture layouts and GPU virtual addresses are
// reported absent (what ddi_wddm2_0.cpp refuses); the memory is not the guest's.
TEST_F(DriverCaps, Wddm2_0ReportsItsAbsences) {
  ddi::D3DWDDM2_0DDI_D3D11_OPTIONS2_DATA options2{ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_TIER_3};
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM2_0DDICAPS_D3D11_OPTIONS2, &options2, sizeof(options2)), S_OK);
  EXPECT_EQ(options2.ConservativeRasterizationTier, ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_NOT_SUPPORTED);
  ddi::D3DWDDM2_0DDI_MEMORY_ARCHITECTURE_CAPS memory{TRUE, TRUE};
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM2_0DDICAPS_MEMORY_ARCHITECTURE, &memory, sizeof(memory)), S_OK);
  EXPECT_EQ(memory.UMA, FALSE);
  EXPECT_EQ(memory.CacheCoherent, FALSE);
  ddi::D3DWDDM2_0DDI_TEXTURE_LAYOUT_CAPS layouts{7, 7, TRUE};
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM2_0DDICAPS_TEXTURE_LAYOUT, &layouts, sizeof(layouts)), S_OK);
  EXPECT_EQ(layouts.DeviceDependentLayoutCount, 0u);
  EXPECT_EQ(layouts.DeviceDependentSwizzleCount, 0u);
  EXPECT_EQ(layouts.Supports64KStandardSwizzle, FALSE);
  ddi::D3DWDDM2_0DDI_D3D11_OPTIONS3_DATA options3{TRUE};
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM2_0DDICAPS_D3D11_OPTIONS3, &options3, sizeof(options3)), S_OK);
  EXPECT_EQ(options3.VPAndRTArrayIndexFromAnyShaderFeedingRasterizer, FALSE);
  ddi::D3DWDDM2_0DDI_GPUVA_CAPS_DATA gpuva{64};
  ASSERT_EQ(adapter.getCaps(ddi::D3DWDDM2_0DDICAPS_GPUVA_CAPS, &gpuva, sizeof(gpuva)), S_OK);
  EXPECT_EQ(gpuva.MaxGPUVirtualAddressBitsPerResource, 0u);
  // No swizzle pattern or layout to index: both indexed types are refused.
  UINT index = 0;
  UINT bytes[64] = {};
  ddi::D3D10_2DDIARG_GETCAPS indexed{ddi::D3DWDDM2_0DDICAPS_SWIZZLE_PATTERN, &index, bytes, sizeof(bytes)};
  EXPECT_EQ(adapter.funcs.pfnGetCaps(adapter.handle, &indexed), E_INVALIDARG);
  indexed.Type = ddi::D3DWDDM2_0DDICAPS_TEXTURE_LAYOUT1;
  EXPECT_EQ(adapter.funcs.pfnGetCaps(adapter.handle, &indexed), E_INVALIDARG);
  // A short buffer is refused like the older types'.
  EXPECT_EQ(adapter.getCaps(ddi::D3DWDDM2_0DDICAPS_TEXTURE_LAYOUT, &layouts, 8), E_INVALIDARG);
}

TEST_F(DriverCaps, RefusesUnknownTypesAndShortBuffers) {
  UINT data[4] = {};
  EXPECT_EQ(adapter.getCaps(ddi::D3D10_2DDICAPS_TYPE(127), data, sizeof(data)), E_INVALIDARG);
  // Values between the header's types (133, 135, 144, 151) and past the last (154).
  for (UINT gap : {133u, 135u, 144u, 151u, 155u})
    EXPECT_EQ(adapter.getCaps(ddi::D3D10_2DDICAPS_TYPE(gap), data, sizeof(data)), E_INVALIDARG) << gap;
  EXPECT_EQ(adapter.getCaps(ddi::D3D11_1DDICAPS_SHADER_MIN_PRECISION_SUPPORT, data, 4), E_INVALIDARG);
  EXPECT_EQ(adapter.getCaps(ddi::D3D11DDICAPS_THREADING, nullptr, 4), E_INVALIDARG);
}

// Device-level checks --------------------------------------------------------------

class DriverDevice : public DriverTest, public ::testing::WithParamInterface<const InterfaceVersion*> {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_EQ(device.create(adapter, GetParam()->interfaceVersion, GetParam()->version,
                            ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
    // Format support depends on the feature level: compare at the device's own.
    ASSERT_EQ(createReferenceDeviceAt(D3D_FEATURE_LEVEL_10_0, reference, referenceContext), S_OK);
  }
  harness::Device device;
  ComPtr<ID3D11Device> reference;
  ComPtr<ID3D11DeviceContext> referenceContext;
};

// The DDI reports only the optional capabilities, each from the API's answer.
TEST_P(DriverDevice, FormatSupportFromTheTarget) {
  struct Expect { UINT api; UINT ddi; };
  const Expect bits[] = {
      {D3D11_FORMAT_SUPPORT_SHADER_SAMPLE, ddi::D3D10_DDI_FORMAT_SUPPORT_SHADER_SAMPLE},
      {D3D11_FORMAT_SUPPORT_RENDER_TARGET, ddi::D3D10_DDI_FORMAT_SUPPORT_RENDERTARGET},
      {D3D11_FORMAT_SUPPORT_BLENDABLE, ddi::D3D10_DDI_FORMAT_SUPPORT_BLENDABLE},
      {D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET, ddi::D3D10_DDI_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET},
      {D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD, ddi::D3D10_DDI_FORMAT_SUPPORT_MULTISAMPLE_LOAD},
      {D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER, ddi::D3D11_1DDI_FORMAT_SUPPORT_VERTEX_BUFFER},
      {D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW, ddi::D3D11_1DDI_FORMAT_SUPPORT_UAV_WRITES},
      {D3D11_FORMAT_SUPPORT_BUFFER, ddi::D3D11_1DDI_FORMAT_SUPPORT_BUFFER},
      {D3D11_FORMAT_SUPPORT_SHADER_GATHER, ddi::D3D11_1DDI_FORMAT_SUPPORT_SHADER_GATHER},
  };
  UINT checked = 0;
  for (UINT f = DXGI_FORMAT_R32G32B32A32_TYPELESS; f <= DXGI_FORMAT_B4G4R4A4_UNORM; ++f) {
    const DXGI_FORMAT format = DXGI_FORMAT(f);
    UINT caps = 0xdeadbeef;
    TRITON_DDI(device, pfnCheckFormatSupport)(device.handle(), format, &caps);
    UINT api = 0;
    if (FAILED(reference->CheckFormatSupport(format, &api))) {
      EXPECT_EQ(caps, ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED) << f;
      continue;
    }
    UINT expected = 0;
    for (const Expect& b : bits)
      if (api & b.api)
        expected |= b.ddi;
    D3D11_FEATURE_DATA_FORMAT_SUPPORT2 support2{format, 0};
    if (SUCCEEDED(reference->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &support2, sizeof(support2))) &&
        (support2.OutFormatSupport2 & D3D11_FORMAT_SUPPORT2_OUTPUT_MERGER_LOGIC_OP))
      expected |= ddi::D3D11_1DDI_FORMAT_SUPPORT_OUTPUT_MERGER_LOGIC_OP;
    EXPECT_EQ(caps, expected) << "format " << f;
    ++checked;
  }
  EXPECT_GT(checked, 50u);
  UINT rgba8 = 0;
  TRITON_DDI(device, pfnCheckFormatSupport)(device.handle(), DXGI_FORMAT_R8G8B8A8_UNORM, &rgba8);
  EXPECT_EQ(rgba8 & (ddi::D3D10_DDI_FORMAT_SUPPORT_SHADER_SAMPLE | ddi::D3D10_DDI_FORMAT_SUPPORT_RENDERTARGET |
                     ddi::D3D10_DDI_FORMAT_SUPPORT_BLENDABLE),
            ddi::D3D10_DDI_FORMAT_SUPPORT_SHADER_SAMPLE | ddi::D3D10_DDI_FORMAT_SUPPORT_RENDERTARGET |
                ddi::D3D10_DDI_FORMAT_SUPPORT_BLENDABLE);
  EXPECT_EQ(device.errorCount(), 0u);
}

TEST_P(DriverDevice, MultisampleQualityLevelsFromTheTarget) {
  for (UINT samples : {1u, 2u, 4u, 8u}) {
    UINT viaDriver = 0xdeadbeef, direct = 0;
    if (device.isWddm1_3() || device.isWddm2_x()) {
      // The 1.3 member (kept by 2.0 and 2.1) carries the 11.2 API's flags: none is
      // CheckMultisampleQualityLevels, TILED_RESOURCE asks for tiled render targets,
      // which cannot exist without a tier.
      const ddi::PFND3DWDDM1_3DDI_CHECKMULTISAMPLEQUALITYLEVELS check =
          device.isWddm2_x() ? device.funcsWddm2_0.pfnCheckMultisampleQualityLevels
                             : device.funcsWddm1_3.pfnCheckMultisampleQualityLevels;
      check(device.handle(), DXGI_FORMAT_R8G8B8A8_UNORM, samples, 0, &viaDriver);
      UINT tiled = 0xdeadbeef;
      check(
          device.handle(), DXGI_FORMAT_R8G8B8A8_UNORM, samples,
          ddi::D3DWDDM1_3DDI_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE, &tiled);
      EXPECT_EQ(tiled, 0u) << samples << " samples";
    } else {
      TRITON_DDI(device, pfnCheckMultisampleQualityLevels)(device.handle(), DXGI_FORMAT_R8G8B8A8_UNORM, samples,
                                                           &viaDriver);
    }
    if (FAILED(reference->CheckMultisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, samples, &direct)))
      direct = 0;
    EXPECT_EQ(viaDriver, direct) << samples << " samples";
  }
  EXPECT_EQ(device.takeError(), S_OK);
}

// The runtime may hand the driver the same private memory again once an object is
// destroyed: the new object must live there without a trace of the old one.
TEST_P(DriverDevice, HandleReusedAfterDestroy) {
  const D3D11_TEXTURE2D_DESC texture{16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                     D3D11_BIND_RENDER_TARGET, 0, 0};
  harness::Resource resource = device.createTexture2D(texture);
  ASSERT_TRUE(resource);
  device.destroyResource(resource);

  const UINT words[4] = {0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00};
  const D3D11_BUFFER_DESC bufferDesc{sizeof(words), D3D11_USAGE_DEFAULT, 0, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA initial{words, 0, 0};
  device.createBufferAt(resource, bufferDesc, &initial);   // same memory, same handle
  const D3D11_BUFFER_DESC stagingDesc{sizeof(words), D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  harness::Resource staging = device.createBuffer(stagingDesc);
  ASSERT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnResourceCopy)(device.handle(), staging.handle, resource.handle);
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  TRITON_DDI(device, pfnResourceMap)(device.handle(), staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  ASSERT_EQ(device.takeError(), S_OK);
  EXPECT_EQ(std::memcmp(mapped.pData, words, sizeof(words)), 0);
  TRITON_DDI(device, pfnResourceUnmap)(device.handle(), staging.handle, 0);
  device.destroyResource(staging);
  device.destroyResource(resource);
  EXPECT_EQ(device.errorCount(), 0u);
}

// Shared resources need a target that can share (driver_sharing_test, Neptune). Wine's
// d3d11 cannot: the creation is refused and nothing is left in the kernel; an
// OpenResource whose private data is not Triton's record is refused before the target
// is asked.
TEST_P(DriverDevice, SharedResourcesNeedATargetThatShares) {
  const size_t kernelBefore = harness::kernelResourceCount();
  const D3D11_TEXTURE2D_DESC desc{16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_SHARED};
  harness::Resource shared = device.createTexture2D(desc);
  EXPECT_NE(device.takeError(), S_OK);
  EXPECT_EQ(harness::kernelResourceCount(), kernelBefore);

  for (size_t size : {size_t(0), size_t(8), size_t(16), size_t(24)}) {
    harness::KernelResource foreign;
    foreign.handle = 7;
    foreign.resourceData.assign(size, 0x5a);   // right size at 16, wrong magic
    foreign.allocations = {8};
    foreign.allocationData = {foreign.resourceData};
    harness::Resource opened = device.openResource(foreign);
    EXPECT_EQ(device.takeError(), E_INVALIDARG) << size;
  }
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0);
}

TEST_P(DriverDevice, UpdateSubresourceAndCopyRegion) {
  const UINT words[4] = {1, 2, 3, 4};
  const D3D11_BUFFER_DESC desc{sizeof(words), D3D11_USAGE_DEFAULT, 0, 0, 0, 0};
  harness::Resource buffer = device.createBuffer(desc);
  const D3D11_BUFFER_DESC stagingDesc{32, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, 0, 0};
  const UINT zeros[8] = {};
  const D3D11_SUBRESOURCE_DATA zero{zeros, 0, 0};
  harness::Resource staging = device.createBuffer(stagingDesc, &zero);
  device.updateSubresourceUP(buffer, 0, words, 0, 0);
  device.copyRegion(staging, 0, 16, 0, buffer, 0);   // to bytes 16..31
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  TRITON_DDI(device, pfnStagingResourceMap)(device.handle(), staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  ASSERT_EQ(device.takeError(), S_OK);
  const UINT expected[8] = {0, 0, 0, 0, 1, 2, 3, 4};
  EXPECT_EQ(std::memcmp(mapped.pData, expected, sizeof(expected)), 0);
  TRITON_DDI(device, pfnStagingResourceUnmap)(device.handle(), staging.handle, 0);
  device.destroyResource(staging);
  device.destroyResource(buffer);
}

TEST_P(DriverDevice, EventQueryCompletes) {
  harness::Query query = device.createQuery(ddi::D3D10DDI_QUERY_EVENT);
  ASSERT_TRUE(query);
  ASSERT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnQueryEnd)(device.handle(), query.handle);
  if (device.is11_1())
    EXPECT_EQ(device.funcs11_1.pfnFlush(device.handle(), 0), TRUE);
  else
    device.funcs11.pfnFlush(device.handle());
  BOOL done = FALSE;
  HRESULT hr = DXGI_DDI_ERR_WASSTILLDRAWING;
  for (int i = 0; i < 2000 && hr == DXGI_DDI_ERR_WASSTILLDRAWING; ++i) {
    TRITON_DDI(device, pfnQueryGetData)(device.handle(), query.handle, &done, sizeof(done), 0);
    hr = device.takeError();
    if (hr == DXGI_DDI_ERR_WASSTILLDRAWING)
      Sleep(1);
  }
  EXPECT_EQ(hr, S_OK);
  EXPECT_EQ(done, TRUE);
  device.destroy(query);
}

TEST_P(DriverDevice, StateObjectsAreCreated) {
  D3D11_RASTERIZER_DESC raster{D3D11_FILL_SOLID, D3D11_CULL_NONE, FALSE, 0, 0, 0, TRUE, FALSE, FALSE, FALSE};
  harness::RasterizerState rasterizer = device.createRasterizerState(raster);
  D3D11_BLEND_DESC blend{};
  blend.RenderTarget[0] = {TRUE, D3D11_BLEND_SRC_ALPHA, D3D11_BLEND_INV_SRC_ALPHA, D3D11_BLEND_OP_ADD, D3D11_BLEND_ONE,
                           D3D11_BLEND_ZERO, D3D11_BLEND_OP_ADD, D3D11_COLOR_WRITE_ENABLE_ALL};
  harness::BlendState blendState = device.createBlendState(blend);
  D3D11_DEPTH_STENCIL_DESC depth{TRUE, D3D11_DEPTH_WRITE_MASK_ALL, D3D11_COMPARISON_LESS, FALSE, 0xff, 0xff,
                                 {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS},
                                 {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS}};
  harness::DepthStencilState depthState = device.createDepthStencilState(depth);
  ASSERT_TRUE(rasterizer && blendState && depthState);
  EXPECT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnSetRasterizerState)(device.handle(), rasterizer.handle);
  const FLOAT factor[4] = {1, 1, 1, 1};
  TRITON_DDI(device, pfnSetBlendState)(device.handle(), blendState.handle, factor, 0xffffffff);
  TRITON_DDI(device, pfnSetDepthStencilState)(device.handle(), depthState.handle, 0);
  EXPECT_EQ(device.takeError(), S_OK);
  device.destroy(rasterizer);
  device.destroy(blendState);
  device.destroy(depthState);
}

// What Triton does not translate yet reaches the runtime as E_NOTIMPL through
// pfnSetErrorCb (void entries) or as the return value (HRESULT entries).
TEST_P(DriverDevice, UnimplementedEntriesReportENotImpl) {
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT deferred{};
  TRITON_DDI(device, pfnCreateDeferredContext)(h, &deferred);
  EXPECT_EQ(device.takeError(), E_INVALIDARG) << "no context memory, table or callbacks";
  TRITON_DDI(device, pfnPsSetShaderWithIfaces)(h, ddi::D3D10DDI_HSHADER{}, 1, nullptr, nullptr);
  EXPECT_EQ(device.takeError(), E_INVALIDARG) << "class instances for no shader (driver_class_linkage_test)";
  TRITON_DDI(device, pfnPsSetShaderWithIfaces)(h, ddi::D3D10DDI_HSHADER{}, 0, nullptr, nullptr);
  EXPECT_EQ(device.takeError(), S_OK) << "without class instances it is SetShader";
  ddi::DXGI_DDI_ARG_PRESENT present{};
  auto presentFn = device.isWddm2_1()   ? device.dxgi1_5.pfnPresent
                   : device.isWddm2_0() ? device.dxgi1_4.pfnPresent
                   : device.isWddm1_3() ? device.dxgi1_3.pfnPresent
                   : device.is11_1()  ? device.dxgi1_2.pfnPresent
                                      : device.dxgi1_1.pfnPresent;
  EXPECT_EQ(presentFn(&present), E_INVALIDARG) << "no device, no surface (driver_dxgi_test presents)";
}

TEST_P(DriverDevice, DeferredContextsNeedNoPerContextHandles) {
  UINT count = 99;
  TRITON_DDI(device, pfnCheckDeferredContextHandleSizes)(device.handle(), &count, nullptr);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(device.takeError(), S_OK);
  EXPECT_EQ(TRITON_DDI(device, pfnCalcDeferredContextHandleSize)(device.handle(), ddi::D3D10DDI_HT_RESOURCE, nullptr), 0u);
  EXPECT_GT(TRITON_DDI(device, pfnCalcPrivateDeferredContextSize)(device.handle(), nullptr), 0u);
  EXPECT_GT(TRITON_DDI(device, pfnCalcPrivateCommandListSize)(device.handle(), nullptr), 0u);
}

// Driver command lists: a deferred context records through its own table, the device
// finishes the recording into a command list, the immediate context executes it.
TEST_P(DriverDevice, DriverCommandListsRunOnTheImmediateContext) {
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  D3D11_TEXTURE2D_DESC desc{4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                            D3D11_BIND_RENDER_TARGET, 0, 0};
  harness::Resource target = device.createTexture2D(desc);
  desc.Usage = D3D11_USAGE_STAGING;
  desc.BindFlags = 0;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  harness::Resource staging = device.createTexture2D(desc);
  harness::RenderTargetView rtv = device.createRenderTargetView(target, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_TRUE(target && staging && rtv);

  harness::DeferredContext deferred;
  ASSERT_EQ(deferred.create(device), S_OK);
  ASSERT_TRUE(deferred.handle().pDrvPrivate);
  for (const void* entry : device.isWddm2_1()   ? harness::tableEntries(deferred.funcsWddm2_1)
                           : device.isWddm2_0() ? harness::tableEntries(deferred.funcsWddm2_0)
                           : device.isWddm1_3() ? harness::tableEntries(deferred.funcsWddm1_3)
                           : deferred.is11_1()  ? harness::tableEntries(deferred.funcs11_1)
                                                : harness::tableEntries(deferred.funcs11))
    EXPECT_NE(entry, nullptr) << "a deferred context's table is complete";
  FLOAT green[4] = {0, 1, 0, 1};
  TRITON_DDI(deferred, pfnClearRenderTargetView)(deferred.handle(), rtv.handle, green);
  TRITON_DDI(deferred, pfnResourceCopy)(deferred.handle(), staging.handle, target.handle);
  harness::CommandList list = device.createCommandList(deferred);
  ASSERT_TRUE(list);
  EXPECT_EQ(device.takeError(), S_OK);
  EXPECT_EQ(deferred.takeError(), S_OK);

  // Nothing happens before the list runs.
  FLOAT red[4] = {1, 0, 0, 1};
  TRITON_DDI(device, pfnClearRenderTargetView)(h, rtv.handle, red);
  TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, target.handle);
  auto readFirstPixel = [&]() {
    ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
    TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
    uint32_t pixel = 0;
    if (mapped.pData)
      std::memcpy(&pixel, mapped.pData, 4);
    TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);
    return pixel;
  };
  EXPECT_EQ(readFirstPixel(), 0xff0000ffu);
  TRITON_DDI(device, pfnCommandListExecute)(h, list.handle);
  EXPECT_EQ(device.takeError(), S_OK);
  EXPECT_EQ(readFirstPixel(), 0xff00ff00u);

  // An abandoned recording is dropped: the next list holds only what came after it.
  FLOAT blue[4] = {0, 0, 1, 1};
  TRITON_DDI(deferred, pfnClearRenderTargetView)(deferred.handle(), rtv.handle, blue);
  TRITON_DDI(deferred, pfnAbandonCommandList)(deferred.handle());
  TRITON_DDI(deferred, pfnResourceCopy)(deferred.handle(), staging.handle, target.handle);
  harness::CommandList copyOnly = device.createCommandList(deferred);
  ASSERT_TRUE(copyOnly);
  TRITON_DDI(device, pfnClearRenderTargetView)(h, rtv.handle, red);
  TRITON_DDI(device, pfnCommandListExecute)(h, copyOnly.handle);
  EXPECT_EQ(readFirstPixel(), 0xff0000ffu);
  EXPECT_EQ(deferred.takeError(), S_OK);
  EXPECT_EQ(device.takeError(), S_OK);

  device.destroy(copyOnly);
  device.destroy(list);
  deferred.destroy();
  device.destroy(rtv);
  device.destroyResource(staging);
  device.destroyResource(target);
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverDevice,
                         ::testing::Values(&kD3D11_0, &kD3D11_0_7, &kD3D11_1, &kWddm1_3, &kWddm2_0),
                         [](const ::testing::TestParamInfo<const InterfaceVersion*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace triton::test
