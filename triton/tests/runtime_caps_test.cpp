// SPDX-License-Identifier: MIT
// Capability checks through the API-level runtime (triton/runtime's d3d11.dll) on Triton
// on the Neptune guest runtime: CheckFormatSupport, CheckFeatureSupport(FORMAT_SUPPORT,
// FORMAT_SUPPORT2, D3D11_OPTIONS, ...) and CheckMultisampleQualityLevels are answered from
// the driver (pfnCheckFormatSupport, GetCaps, pfnCheckMultisampleQualityLevels), whose
// answers come from the host's caps snapshot of Wine's d3d11 — compared here with the
// same calls on Wine's d3d11 directly. The bits the runtime adds itself (its per-level
// requirements, triton/runtime/src/format_support.cpp) are checked against their rules.

#include <cstdio>
#include <cstring>
#include <string>

#include "runtime_test_support.h"

namespace triton::test {
namespace {

using Microsoft::WRL::ComPtr;

// The API bits the DDI's optional format caps carry (D3D10_DDI_FORMAT_SUPPORT_* /
// D3D11_1DDI_FORMAT_SUPPORT_*): these must be the target's own answer.
constexpr UINT kCarried = D3D11_FORMAT_SUPPORT_SHADER_SAMPLE | D3D11_FORMAT_SUPPORT_RENDER_TARGET |
                          D3D11_FORMAT_SUPPORT_BLENDABLE | D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET |
                          D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD | D3D11_FORMAT_SUPPORT_DECODER_OUTPUT |
                          D3D11_FORMAT_SUPPORT_VIDEO_PROCESSOR_OUTPUT | D3D11_FORMAT_SUPPORT_VIDEO_PROCESSOR_INPUT |
                          D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER | D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW |
                          D3D11_FORMAT_SUPPORT_BUFFER | D3D11_FORMAT_SUPPORT_VIDEO_ENCODER |
                          D3D11_FORMAT_SUPPORT_SHADER_GATHER;
constexpr UINT kCarried2 = D3D11_FORMAT_SUPPORT2_OUTPUT_MERGER_LOGIC_OP | D3D11_FORMAT_SUPPORT2_MULTIPLANE_OVERLAY;

bool known(UINT format) { return format <= DXGI_FORMAT_B4G4R4A4_UNORM || (format >= 130 && format <= 132); }

struct Devices {
  Loaded runtime = loadRuntime();
  Loaded system = loadSystem();
  ComPtr<ID3D11Device> ours, direct;
  explicit Devices(D3D_FEATURE_LEVEL level) {
    ours = createDevice(runtime, level);
    direct = createDevice(system, level);
  }
};

class RuntimeFormatSupport : public ::testing::TestWithParam<D3D_FEATURE_LEVEL> {};

// Every DXGI format: supported exactly where the target supports it, the carried bits
// equal to the target's, and the runtime's own bits as its rules say.
TEST_P(RuntimeFormatSupport, EveryFormatAgreesWithTheTarget) {
  const D3D_FEATURE_LEVEL level = GetParam();
  Devices d(level);
  ASSERT_TRUE(d.ours && d.direct);
  UINT compared = 0, differingRuntimeBits = 0;
  std::string differences;
  for (UINT f = 0; f <= 132; ++f) {
    if (!known(f))
      continue;
    const DXGI_FORMAT format = DXGI_FORMAT(f);
    UINT ours = 0xdeadbeef, theirs = 0;
    const HRESULT hr = d.ours->CheckFormatSupport(format, &ours);
    const HRESULT directHr = d.direct->CheckFormatSupport(format, &theirs);
    const bool bc67 = format >= DXGI_FORMAT_BC6H_TYPELESS && format <= DXGI_FORMAT_BC7_UNORM_SRGB;
    if (bc67 && level < D3D_FEATURE_LEVEL_11_0) {
      // The runtime refuses BC6H/BC7 below 11_0 whatever the driver says.
      EXPECT_EQ(hr, E_FAIL) << f;
      EXPECT_EQ(ours, 0u) << f;
      continue;
    }
    EXPECT_EQ(SUCCEEDED(hr), SUCCEEDED(directHr)) << "format " << f << ": 0x" << std::hex << hr << " vs 0x" << directHr;
    if (FAILED(hr)) {
      EXPECT_EQ(hr, E_FAIL) << f;
      EXPECT_EQ(ours, 0u) << f;
      continue;
    }
    if (FAILED(directHr))
      continue;
    ++compared;
    // Below 10_1 the runtime takes SHADER_GATHER away (as Wine's d3d11 does).
    EXPECT_EQ(ours & kCarried, theirs & kCarried) << "format " << f << std::hex << ": ours 0x" << ours << " direct 0x"
                                                  << theirs;
    // Through FORMAT_SUPPORT the same answer.
    D3D11_FEATURE_DATA_FORMAT_SUPPORT data{format, 0};
    EXPECT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT, &data, sizeof(data)), S_OK) << f;
    EXPECT_EQ(data.OutFormatSupport, ours) << f;
    if ((ours & ~kCarried) != (theirs & ~kCarried)) {
      ++differingRuntimeBits;
      char line[96];
      std::snprintf(line, sizeof(line), " %u:+0x%x/-0x%x", f, (ours & ~theirs) & ~kCarried,
                    (theirs & ~ours) & ~kCarried);
      differences += line;
    }
  }
  EXPECT_GT(compared, 60u);
  std::printf("[ note ] level 0x%x: %u formats compared; the runtime's own bits differ from Wine's for %u:%s\n",
              unsigned(level), compared, differingRuntimeBits, differences.c_str());
}

INSTANTIATE_TEST_SUITE_P(Levels, RuntimeFormatSupport,
                         ::testing::Values(D3D_FEATURE_LEVEL_10_0, D3D_FEATURE_LEVEL_11_0));

}  // namespace
}  // namespace triton::test

namespace triton::test {
namespace {

// FORMAT_SUPPORT2: the carried bits (logic op, overlay) are Wine's; the 11_0 UAV atomics
// and typed loads are the runtime's requirement.
TEST(RuntimeFeatureSupport, FormatSupport2) {
  Devices d(D3D_FEATURE_LEVEL_11_0);
  ASSERT_TRUE(d.ours && d.direct);
  for (UINT f = 1; f <= DXGI_FORMAT_B4G4R4A4_UNORM; ++f) {
    D3D11_FEATURE_DATA_FORMAT_SUPPORT2 ours{DXGI_FORMAT(f), 0}, theirs{DXGI_FORMAT(f), 0};
    const HRESULT hr = d.ours->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &ours, sizeof(ours));
    if (FAILED(d.direct->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &theirs, sizeof(theirs))) || FAILED(hr))
      continue;
    EXPECT_EQ(ours.OutFormatSupport2 & kCarried2, theirs.OutFormatSupport2 & kCarried2) << f;
  }
  D3D11_FEATURE_DATA_FORMAT_SUPPORT2 r32{DXGI_FORMAT_R32_UINT, 0};
  ASSERT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &r32, sizeof(r32)), S_OK);
  EXPECT_TRUE(r32.OutFormatSupport2 & D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD);
  EXPECT_TRUE(r32.OutFormatSupport2 & D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD);
  EXPECT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &r32, sizeof(r32) - 1), E_INVALIDARG);
}

// D3D11_OPTIONS: the driver's logic-op cap is Wine's; the members the D3D11.1 DDI carries
// are TRUE, the ones it has no cap for FALSE at 11_0.
TEST(RuntimeFeatureSupport, D3D11Options) {
  Devices d(D3D_FEATURE_LEVEL_11_0);
  ASSERT_TRUE(d.ours && d.direct);
  D3D11_FEATURE_DATA_D3D11_OPTIONS ours{}, theirs{};
  ASSERT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &ours, sizeof(ours)), S_OK);
  if (SUCCEEDED(d.direct->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &theirs, sizeof(theirs)))) {
    EXPECT_EQ(ours.OutputMergerLogicOp, theirs.OutputMergerLogicOp);
    const BOOL* a = &ours.OutputMergerLogicOp;
    const BOOL* b = &theirs.OutputMergerLogicOp;
    std::string members;
    for (int i = 0; i < 14; ++i)
      members += " " + std::to_string(a[i]) + "/" + std::to_string(b[i]);
    std::printf("[ note ] D3D11_OPTIONS members, runtime/Wine:%s\n", members.c_str());
  }
  EXPECT_TRUE(ours.DiscardAPIsSeenByDriver && ours.FlagsForUpdateAndCopySeenByDriver && ours.ClearView &&
              ours.CopyWithOverlap && ours.ConstantBufferPartialUpdate && ours.ConstantBufferOffsetting &&
              ours.MapNoOverwriteOnDynamicConstantBuffer && ours.MapNoOverwriteOnDynamicBufferSRV);
  EXPECT_FALSE(ours.UAVOnlyRenderingForcedSampleCount || ours.MultisampleRTVWithForcedSampleCountOne ||
               ours.SAD4ShaderInstructions || ours.ExtendedDoublesShaderInstructions ||
               ours.ExtendedResourceSharing);

  D3D11_FEATURE_DATA_D3D9_OPTIONS1 d3d9{};
  ASSERT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_D3D9_OPTIONS1, &d3d9, sizeof(d3d9)), S_OK);
  EXPECT_TRUE(d3d9.FullNonPow2TextureSupported && d3d9.SimpleInstancingSupported);
  D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT instancing{};
  ASSERT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT, &instancing, sizeof(instancing)),
            S_OK);
  EXPECT_TRUE(instancing.SimpleInstancingSupported);
  D3D11_FEATURE_DATA_D3D11_OPTIONS1 options1{D3D11_TILED_RESOURCES_TIER_1, TRUE, TRUE, TRUE};
  ASSERT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options1, sizeof(options1)), S_OK);
  EXPECT_EQ(options1.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
  EXPECT_FALSE(options1.MinMaxFiltering || options1.ClearViewAlsoSupportsDepthOnlyFormats ||
               options1.MapOnDefaultBuffers);
  D3D11_FEATURE_DATA_MARKER_SUPPORT marker{TRUE};
  ASSERT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_MARKER_SUPPORT, &marker, sizeof(marker)), S_OK);
  EXPECT_FALSE(marker.Profile);
  D3D11_FEATURE_DATA_D3D11_OPTIONS2 options2{};
  EXPECT_EQ(d.ours->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS2, &options2, sizeof(options2)), E_INVALIDARG);
}

// Multisample quality levels are the driver's answer: Wine's.
TEST(RuntimeFeatureSupport, MultisampleQualityLevels) {
  Devices d(D3D_FEATURE_LEVEL_11_0);
  ASSERT_TRUE(d.ours && d.direct);
  for (DXGI_FORMAT format : {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_R16G16B16A16_FLOAT,
                             DXGI_FORMAT_R32G32B32A32_FLOAT, DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D32_FLOAT,
                             DXGI_FORMAT_R32_UINT, DXGI_FORMAT_BC1_UNORM})
    for (UINT samples : {1u, 2u, 4u, 8u, 16u}) {
      UINT ours = 99, theirs = 98;
      const HRESULT hr = d.ours->CheckMultisampleQualityLevels(format, samples, &ours);
      const HRESULT directHr = d.direct->CheckMultisampleQualityLevels(format, samples, &theirs);
      EXPECT_EQ(SUCCEEDED(hr), SUCCEEDED(directHr)) << format << " x" << samples;
      if (SUCCEEDED(hr) && SUCCEEDED(directHr)) {
        EXPECT_EQ(ours, theirs) << format << " x" << samples;
      }
    }
}

}  // namespace
}  // namespace triton::test
