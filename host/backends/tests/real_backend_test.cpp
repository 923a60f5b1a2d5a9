// SPDX-License-Identifier: MIT
// The build's real backend: the system d3d11 in the Windows build (wined3d under Wine in
// CI), DXVK-native in the Linux build (NPT_DXVK_PATH; skipped, with the reason, where it is
// not installed or SDL has no display for it). Open the backend, create a device, collect
// the caps snapshot and check it is sane; then check that descriptions the validator
// accepts are accepted by the real runtime, and that the runtime also rejects
// (E_INVALIDARG) descriptions the validator rejects.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "npt/backends/backend.h"
#include "npt/backends/caps_snapshot.h"
#include "npt/validation/format_table.h"
#include "npt/validation/resource.h"

using namespace npt::backends;
namespace val = npt::validation;

namespace {

#ifdef _WIN32
constexpr const char* kBackendName = "system";
#else
constexpr const char* kBackendName = "dxvk";
#endif

// Which backends refuse an invalid description themselves (E_INVALIDARG). Where the build's
// backend does not, only the validator's answer is checked, and the case is counted: it is a
// call that, unvalidated, would create an object Windows refuses (for DXVK, e.g. a view of
// mips the texture does not have becomes a Vulkan image view outside the image).
enum RefusedBy : unsigned { kNone = 0, kWined3d = 1, kDxvk = 2, kBoth = kWined3d | kDxvk };
#ifdef _WIN32
constexpr RefusedBy kThisBackend = kWined3d;   // Windows itself refuses all of them
#else
constexpr RefusedBy kThisBackend = kDxvk;
#endif

// Checks the backend's answer to an invalid description where it is known to check it;
// returns whether it accepted one it does not check (created objects are released).
template<typename Object>
bool backendRefuses(unsigned refusedBy, HRESULT hr, Object* created) {
  if (created) created->Release();
  if (refusedBy & kThisBackend) {
    EXPECT_EQ(hr, E_INVALIDARG);
    return false;
  }
  return SUCCEEDED(hr);
}

class RealBackend : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    BackendStatus status = openBackend(kBackendName, s_backend);
#ifndef _WIN32
    // Natively the backend is optional: absent without NPT_DXVK_PATH, or without a display
    // for DXVK-native's SDL2 window system, the suite is skipped with the reason. A
    // NPT_DXVK_PATH that holds no DXVK is a failure: the run asked for it.
    const char* dxvkPath = std::getenv("NPT_DXVK_PATH");
    if ((status.error == BackendError::LibraryMissing && !(dxvkPath && *dxvkPath)) ||
        status.error == BackendError::WindowSystem) {
      s_skipReason = status.message;
      return;
    }
#endif
    ASSERT_TRUE(status.ok()) << status.message;
    status = s_backend->createDevice({}, s_objects);
    ASSERT_TRUE(status.ok()) << status.message;
  }
  static void TearDownTestSuite() {
    if (s_objects.immediateContext) s_objects.immediateContext->Release();
    if (s_objects.device) s_objects.device->Release();
    s_objects = {};
    s_backend.reset();
  }
  void SetUp() override {
    if (!s_skipReason.empty()) GTEST_SKIP() << s_skipReason;
    ASSERT_NE(s_objects.device, nullptr);
  }

  static std::unique_ptr<Backend> s_backend;
  static DeviceObjects s_objects;
  static std::string s_skipReason;
};

std::unique_ptr<Backend> RealBackend::s_backend;
DeviceObjects RealBackend::s_objects;
std::string RealBackend::s_skipReason;

std::vector<DXGI_FORMAT> allFormats() {
  std::vector<DXGI_FORMAT> formats;
  for (const val::FormatInfo* f = val::formatTableBegin(); f != val::formatTableEnd(); f++) formats.push_back(f->format);
  return formats;
}

TEST_F(RealBackend, CapsSnapshotIsSane) {
  CapsSnapshot caps;
  BackendStatus status = collectCaps(s_objects.device, allFormats(), caps);
  ASSERT_TRUE(status.ok()) << status.message;
  EXPECT_EQ(caps.featureLevel, s_objects.featureLevel);
  EXPECT_GE(caps.featureLevel, D3D_FEATURE_LEVEL_10_0);
  EXPECT_EQ(caps.formats.size(), allFormats().size());
  EXPECT_EQ(caps.features.size(), 18u);

  // Every runtime answers these.
  for (D3D11_FEATURE feature : {D3D11_FEATURE_THREADING, D3D11_FEATURE_DOUBLES, D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS}) {
    const FeatureEntry* entry = caps.feature(feature);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->hr, S_OK) << "feature " << int(feature);
  }

  // Formats every D3D10+ device supports in the way the validator assumes.
  const UINT colour = D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_RENDER_TARGET |
                      D3D11_FORMAT_SUPPORT_SHADER_SAMPLE;
  const FormatEntry* rgba = caps.format(DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_NE(rgba, nullptr);
  EXPECT_EQ(rgba->support & colour, colour);
  EXPECT_GE(rgba->qualityLevels[0], 1u);   // one sample: at least one quality level
  EXPECT_GE(rgba->qualityLevels[2], 1u);   // 4x MSAA is required at 10.1+
  const FormatEntry* depth = caps.format(DXGI_FORMAT_D24_UNORM_S8_UINT);
  ASSERT_NE(depth, nullptr);
  EXPECT_TRUE(depth->support & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL);
  const FormatEntry* bc1 = caps.format(DXGI_FORMAT_BC1_UNORM);
  ASSERT_NE(bc1, nullptr);
  EXPECT_TRUE(bc1->support & D3D11_FORMAT_SUPPORT_TEXTURE2D);
  EXPECT_FALSE(bc1->support & D3D11_FORMAT_SUPPORT_RENDER_TARGET);
  const FormatEntry* index = caps.format(DXGI_FORMAT_R16_UINT);
  ASSERT_NE(index, nullptr);
  EXPECT_TRUE(index->support & D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER);

  // Cross-check the static format table against the device: compressed formats never
  // render, depth formats never appear as render targets, and every format the table
  // marks as a vertex format is either a vertex format on the device or unsupported.
  size_t supported = 0;
  int depthViewsReportedAsDepthStencil = 0;
  for (const FormatEntry& entry : caps.formats) {
    const val::FormatInfo* info = val::lookupFormat(entry.format);
    ASSERT_NE(info, nullptr);
    if (entry.support) supported++;
    if (info->is(val::FormatCompressed) || info->is(val::FormatDepth))
      EXPECT_FALSE(entry.support & D3D11_FORMAT_SUPPORT_RENDER_TARGET) << info->name;
    // Depth-stencil support only where the validator allows DEPTH_STENCIL binding: depth
    // formats and the typeless formats of depth families (wined3d reports both).
    const bool depthFamily = info->family == DXGI_FORMAT_R32_TYPELESS || info->family == DXGI_FORMAT_R24G8_TYPELESS ||
                             info->family == DXGI_FORMAT_R16_TYPELESS || info->family == DXGI_FORMAT_R32G8X24_TYPELESS;
    const bool depthCapable = info->is(val::FormatDepth) ||
                              (depthFamily && info->is(val::FormatTypeless) && !info->is(val::FormatDepthView));
    // DXVK v2.2 maps the depth formats' SRV forms (R24_UNORM_X8_TYPELESS, ...) to the
    // same Vulkan depth formats and reports DEPTH_STENCIL for them, which Windows does not
    // (the guest answers CheckFormatSupport from this snapshot: host/backends/README.md).
    if (kThisBackend == kDxvk && info->is(val::FormatDepthView) && (entry.support & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL))
      depthViewsReportedAsDepthStencil++;
    else if (!depthCapable)
      EXPECT_FALSE(entry.support & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL) << info->name;
    // Multisample levels only where one sample is supported.
    if (entry.qualityLevels[2]) EXPECT_GE(entry.qualityLevels[0], 1u) << info->name;
  }
  EXPECT_GE(supported, 60u);
  RecordProperty("feature_level", int(caps.featureLevel));
  RecordProperty("supported_formats", int(supported));
  RecordProperty("depth_view_formats_reported_as_depth_stencil", depthViewsReportedAsDepthStencil);
}

TEST_F(RealBackend, FactoryEnumeratesAnAdapter) {
  IDXGIFactory1* factory = nullptr;
  BackendStatus status = s_backend->createFactory(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(&factory));
  ASSERT_TRUE(status.ok()) << status.message;
  IDXGIAdapter1* adapter = nullptr;
  ASSERT_EQ(factory->EnumAdapters1(0, &adapter), S_OK);
  DXGI_ADAPTER_DESC1 desc{};
  EXPECT_EQ(adapter->GetDesc1(&desc), S_OK);
  adapter->Release();
  factory->Release();
}

struct TextureCase {
  const char* name;
  D3D11_TEXTURE2D_DESC desc;
  unsigned refusedBy = kBoth;   // for invalid descriptions
};

D3D11_TEXTURE2D_DESC tex(UINT w, UINT h, UINT mips, UINT slices, DXGI_FORMAT format, D3D11_USAGE usage, UINT bind,
                         UINT cpu = 0, UINT misc = 0, UINT samples = 1) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = w;
  desc.Height = h;
  desc.MipLevels = mips;
  desc.ArraySize = slices;
  desc.Format = format;
  desc.SampleDesc.Count = samples;
  desc.Usage = usage;
  desc.BindFlags = bind;
  desc.CPUAccessFlags = cpu;
  desc.MiscFlags = misc;
  return desc;
}

// Valid calls reach the backend and succeed there.
TEST_F(RealBackend, AcceptedDescriptionsCreate) {
  const UINT srv = D3D11_BIND_SHADER_RESOURCE, rt = D3D11_BIND_RENDER_TARGET;
  const TextureCase cases[] = {
    {"rgba-rt-full-chain", tex(256, 128, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, srv | rt)},
    {"cube-array", tex(64, 64, 1, 12, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, srv, 0,
                       D3D11_RESOURCE_MISC_TEXTURECUBE)},
    {"depth-typeless", tex(64, 64, 1, 1, DXGI_FORMAT_R24G8_TYPELESS, D3D11_USAGE_DEFAULT,
                           srv | D3D11_BIND_DEPTH_STENCIL)},
    {"bc1", tex(64, 64, 1, 1, DXGI_FORMAT_BC1_UNORM, D3D11_USAGE_DEFAULT, srv)},
    {"dynamic", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DYNAMIC, srv, D3D11_CPU_ACCESS_WRITE)},
    {"staging", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ)},
    {"msaa4", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, rt, 0, 0, 4)},
    {"generate-mips", tex(64, 64, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, srv | rt, 0,
                          D3D11_RESOURCE_MISC_GENERATE_MIPS)},
  };
  for (const TextureCase& c : cases) {
    SCOPED_TRACE(c.name);
    val::Check check = val::validateTexture2DDesc(c.desc, false);
    EXPECT_TRUE(check.passed()) << check.describe();
    ID3D11Texture2D* texture = nullptr;
    EXPECT_EQ(s_objects.device->CreateTexture2D(&c.desc, nullptr, &texture), S_OK);
    if (texture) texture->Release();
  }
}

// Invalid calls are stopped by the validator with the result Windows gives. Where the
// backend validates too it must agree; where it does not is exactly why the host validates
// before DXVK/wined3d see a call (e.g. wined3d creates an IMMUTABLE texture without initial
// data, which Windows refuses; DXVK v2.2 checks none of the usage/bind/CPU-access rules).
TEST_F(RealBackend, RejectedDescriptionsFailTheSameWay) {
  const UINT srv = D3D11_BIND_SHADER_RESOURCE, rt = D3D11_BIND_RENDER_TARGET;
  const TextureCase cases[] = {
    {"dynamic-render-target", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DYNAMIC, rt,
                                  D3D11_CPU_ACCESS_WRITE), kWined3d},
    {"dynamic-no-cpu-write", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DYNAMIC, srv), kWined3d},
    {"staging-bound", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_STAGING, srv,
                          D3D11_CPU_ACCESS_READ), kWined3d},
    {"staging-no-cpu", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_STAGING, 0), kWined3d},
    {"default-cpu-read", tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, srv | rt,
                             D3D11_CPU_ACCESS_READ), kWined3d},
    {"cube-5-slices", tex(64, 64, 1, 5, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, srv, 0,
                          D3D11_RESOURCE_MISC_TEXTURECUBE), kWined3d},
    {"generate-mips-no-rt", tex(64, 64, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, srv, 0,
                                D3D11_RESOURCE_MISC_GENERATE_MIPS), kBoth},
  };
  int acceptedByBackend = 0;
  for (const TextureCase& c : cases) {
    SCOPED_TRACE(c.name);
    val::Check check = val::validateTexture2DDesc(c.desc, false);
    EXPECT_EQ(check.outcome(), val::Outcome::Fail) << check.describe();
    EXPECT_EQ(check.hr(), E_INVALIDARG);
    ID3D11Texture2D* texture = nullptr;
    HRESULT hr = s_objects.device->CreateTexture2D(&c.desc, nullptr, &texture);
    acceptedByBackend += backendRefuses(c.refusedBy, hr, texture);
  }
  RecordProperty("invalid_textures_the_backend_creates", acceptedByBackend);
}

}  // namespace

#include "npt/validation/states.h"
#include "npt/validation/views.h"

namespace {

struct BufferCase {
  const char* name;
  D3D11_BUFFER_DESC desc;
  unsigned refusedBy = kBoth;   // for invalid descriptions
};

TEST_F(RealBackend, BufferDescriptionsAgree) {
  const UINT srv = D3D11_BIND_SHADER_RESOURCE, uav = D3D11_BIND_UNORDERED_ACCESS;
  const BufferCase accepted[] = {
    {"vertex", {1024, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}},
    {"constant-dynamic", {256, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0}},
    {"structured", {1024, D3D11_USAGE_DEFAULT, srv | uav, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16}},
    {"raw", {1024, D3D11_USAGE_DEFAULT, srv | uav, 0, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0}},
    {"staging", {1024, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0}},
  };
  for (const BufferCase& c : accepted) {
    SCOPED_TRACE(c.name);
    val::Check check = val::validateBufferDesc(c.desc, false);
    EXPECT_TRUE(check.passed()) << check.describe();
    ID3D11Buffer* buffer = nullptr;
    EXPECT_EQ(s_objects.device->CreateBuffer(&c.desc, nullptr, &buffer), S_OK);
    if (buffer) buffer->Release();
  }
  const BufferCase rejected[] = {
    {"zero-width", {0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, kBoth},
    {"dynamic-uav", {1024, D3D11_USAGE_DYNAMIC, uav, D3D11_CPU_ACCESS_WRITE, 0, 0}, kWined3d},
    {"staging-bound", {1024, D3D11_USAGE_STAGING, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_READ, 0, 0}, kWined3d},
    {"default-cpu-write", {1024, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0},
     kWined3d},
    {"structured-stride-0", {1024, D3D11_USAGE_DEFAULT, srv, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 0}, kBoth},
    {"constant-unaligned", {20, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0}, kBoth},
  };
  int acceptedByBackend = 0;
  for (const BufferCase& c : rejected) {
    SCOPED_TRACE(c.name);
    val::Check check = val::validateBufferDesc(c.desc, false);
    EXPECT_EQ(check.outcome(), val::Outcome::Fail) << check.describe();
    ID3D11Buffer* buffer = nullptr;
    HRESULT hr = s_objects.device->CreateBuffer(&c.desc, nullptr, &buffer);
    acceptedByBackend += backendRefuses(c.refusedBy, hr, buffer);
  }
  RecordProperty("invalid_buffers_the_backend_creates", acceptedByBackend);
}

TEST_F(RealBackend, ViewDescriptionsAgree) {
  D3D11_TEXTURE2D_DESC desc = tex(64, 64, 3, 4, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET);
  ID3D11Texture2D* texture = nullptr;
  ASSERT_EQ(s_objects.device->CreateTexture2D(&desc, nullptr, &texture), S_OK);
  const val::ResourceShape shape = val::shapeOf(desc);

  struct SrvCase {
    const char* name;
    D3D11_SHADER_RESOURCE_VIEW_DESC desc;
    bool valid;
    unsigned refusedBy;   // for invalid descriptions
  };
  auto srv = [](DXGI_FORMAT format, UINT firstMip, UINT mips, UINT firstSlice, UINT slices) {
    D3D11_SHADER_RESOURCE_VIEW_DESC d{};
    d.Format = format;
    d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
    d.Texture2DArray = {firstMip, mips, firstSlice, slices};
    return d;
  };
  const SrvCase cases[] = {
    {"srgb-all", srv(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 0, UINT(-1), 0, 4), true, kNone},
    {"unorm-mip1-slices1-2", srv(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 2, 1, 2), true, kNone},
    {"mip-past-end", srv(DXGI_FORMAT_R8G8B8A8_UNORM, 3, 1, 0, 1), false, kWined3d},
    {"slices-past-end", srv(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1, 2, 3), false, kWined3d},
    {"typeless-view", srv(DXGI_FORMAT_R8G8B8A8_TYPELESS, 0, 1, 0, 1), false, kWined3d},
    // Windows refuses (D3D11_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDFORMAT).
    {"other-family", srv(DXGI_FORMAT_R32_FLOAT, 0, 1, 0, 1), false, kDxvk},
  };
  int acceptedByBackend = 0;
  for (const SrvCase& c : cases) {
    SCOPED_TRACE(c.name);
    val::Check check = val::validateShaderResourceView(shape, &c.desc);
    EXPECT_EQ(check.passed(), c.valid) << check.describe();
    ID3D11ShaderResourceView* view = nullptr;
    HRESULT hr = s_objects.device->CreateShaderResourceView(texture, &c.desc, &view);
    if (c.valid) {
      EXPECT_EQ(hr, S_OK);
      if (view) view->Release();
    } else {
      acceptedByBackend += backendRefuses(c.refusedBy, hr, view);
    }
  }
  RecordProperty("invalid_views_the_backend_creates", acceptedByBackend);
  texture->Release();
}

TEST_F(RealBackend, StateDescriptionsAgree) {
  D3D11_SAMPLER_DESC sampler{};
  sampler.Filter = D3D11_FILTER_ANISOTROPIC;
  sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
  sampler.MaxAnisotropy = 16;
  sampler.ComparisonFunc = D3D11_COMPARISON_NEVER;
  sampler.MaxLOD = D3D11_FLOAT32_MAX;
  ID3D11SamplerState* state = nullptr;
  EXPECT_TRUE(val::validateSamplerDesc(sampler).passed());
  EXPECT_EQ(s_objects.device->CreateSamplerState(&sampler, &state), S_OK);
  if (state) state->Release();
  // MaxAnisotropy 17: Windows refuses (D3D11_MESSAGE_ID_CREATESAMPLERSTATE_INVALIDMAXANISOTROPY),
  // wined3d accepts; only the validator's answer is checked.
  sampler.MaxAnisotropy = 17;
  EXPECT_EQ(val::validateSamplerDesc(sampler).outcome(), val::Outcome::Fail);
  sampler.MaxAnisotropy = 16;
  sampler.AddressU = D3D11_TEXTURE_ADDRESS_MODE(0);
  EXPECT_EQ(val::validateSamplerDesc(sampler).outcome(), val::Outcome::Fail);
  // An invalid address mode fails on the backend too (wined3d answers D3DERR_INVALIDCALL
  // where Windows answers E_INVALIDARG; the validator gives the Windows result).
  state = nullptr;
  EXPECT_TRUE(FAILED(s_objects.device->CreateSamplerState(&sampler, &state)));
  EXPECT_EQ(state, nullptr);
  if (state) state->Release();

  D3D11_RASTERIZER_DESC raster{};
  raster.FillMode = D3D11_FILL_SOLID;
  raster.CullMode = D3D11_CULL_BACK;
  raster.DepthClipEnable = TRUE;
  ID3D11RasterizerState* rs = nullptr;
  EXPECT_TRUE(val::validateRasterizerDesc(raster).passed());
  EXPECT_EQ(s_objects.device->CreateRasterizerState(&raster, &rs), S_OK);
  if (rs) rs->Release();
}

}  // namespace

#include "npt/backends/caps_limits.h"

namespace {

// The snapshot's quality levels decide MSAA validity the way Windows does (DXVK v2.2
// ignores the quality level: it has one per sample count and accepts any).
TEST_F(RealBackend, SnapshotLimitsMatchTheDevice) {
  CapsSnapshot caps;
  ASSERT_TRUE(collectCaps(s_objects.device, allFormats(), caps).ok());
  SnapshotFormatCaps formatCaps(caps);
  const val::DeviceLimits limits = limitsFromSnapshot(caps, formatCaps);
  const UINT levels = formatCaps.multisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 4);
  ASSERT_GE(levels, 1u);
  D3D11_TEXTURE2D_DESC desc = tex(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET, 0, 0, 4);
  desc.SampleDesc.Quality = levels - 1;
  EXPECT_TRUE(val::validateTexture2DDesc(desc, false, limits).passed());
  ID3D11Texture2D* texture = nullptr;
  EXPECT_EQ(s_objects.device->CreateTexture2D(&desc, nullptr, &texture), S_OK);
  if (texture) texture->Release();
  desc.SampleDesc.Quality = levels;
  EXPECT_EQ(val::validateTexture2DDesc(desc, false, limits).rule(), val::Rule::TextureSampleDesc);
  texture = nullptr;
  HRESULT hr = s_objects.device->CreateTexture2D(&desc, nullptr, &texture);
  RecordProperty("invalid_quality_the_backend_creates", backendRefuses(kWined3d, hr, texture));
}

}  // namespace
