// SPDX-License-Identifier: MIT
// State object descriptions: every enum field out of range returns E_INVALIDARG
// (D3D11_BLEND_DESC, D3D11_DEPTH_STENCIL_DESC, D3D11_RASTERIZER_DESC,
// D3D11_SAMPLER_DESC documentation; Wine test_create_blend_state /
// test_create_depthstencil_state / test_create_rasterizer_state / test_create_sampler_state).

#include "test_helpers.h"

#include <cmath>
#include <limits>

#include "npt/validation/states.h"

using namespace npt::validation;
using npt::validation::test::Case;

namespace {

D3D11_BLEND_DESC validBlend() {
  D3D11_BLEND_DESC desc{};
  for (auto& rt : desc.RenderTarget) {
    rt.BlendEnable = FALSE;
    rt.SrcBlend = rt.SrcBlendAlpha = D3D11_BLEND_ONE;
    rt.DestBlend = rt.DestBlendAlpha = D3D11_BLEND_ZERO;
    rt.BlendOp = rt.BlendOpAlpha = D3D11_BLEND_OP_ADD;
    rt.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
  }
  return desc;
}

using BlendCase = Case<D3D11_BLEND_DESC>;
class BlendDescTest : public ::testing::TestWithParam<BlendCase> {};

TEST_P(BlendDescTest, Rule) {
  D3D11_BLEND_DESC desc = validBlend();
  GetParam().mutate(desc);
  EXPECT_TRUE(test::hasResult(validateBlendDesc(desc), GetParam().rule, GetParam().outcome));
}

const BlendCase kBlendCases[] = {
  {"Valid", [](auto&) {}, Rule::Ok, Outcome::Pass},
  {"ValidAlphaBlending", [](auto& d) { d.RenderTarget[0].BlendEnable = TRUE;
     d.RenderTarget[0].SrcBlend = D3D11_BLEND_SRC_ALPHA; d.RenderTarget[0].DestBlend = D3D11_BLEND_INV_SRC_ALPHA;
     d.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_INV_SRC1_ALPHA; }, Rule::Ok, Outcome::Pass},
  // Without IndependentBlendEnable only RenderTarget[0] is used.
  {"IgnoredTargetsNotValidated", [](auto& d) { d.RenderTarget[3].SrcBlend = D3D11_BLEND(0); }, Rule::Ok,
   Outcome::Pass},
  {"InvalidIndependentTarget", [](auto& d) { d.IndependentBlendEnable = TRUE;
     d.RenderTarget[3].SrcBlend = D3D11_BLEND(0); }, Rule::BlendFactor, Outcome::Fail},
  {"BlendFactorZeroValue", [](auto& d) { d.RenderTarget[0].DestBlend = D3D11_BLEND(0); }, Rule::BlendFactor,
   Outcome::Fail},
  {"BlendFactorGap", [](auto& d) { d.RenderTarget[0].SrcBlend = D3D11_BLEND(12); }, Rule::BlendFactor, Outcome::Fail},
  {"BlendFactorTooLarge", [](auto& d) { d.RenderTarget[0].SrcBlend = D3D11_BLEND(20); }, Rule::BlendFactor,
   Outcome::Fail},
  {"ColorFactorForAlpha", [](auto& d) { d.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_SRC_COLOR; },
   Rule::BlendAlphaFactor, Outcome::Fail},
  {"Src1ColorForAlpha", [](auto& d) { d.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_INV_SRC1_COLOR; },
   Rule::BlendAlphaFactor, Outcome::Fail},
  {"BlendOpZero", [](auto& d) { d.RenderTarget[0].BlendOp = D3D11_BLEND_OP(0); }, Rule::BlendOp, Outcome::Fail},
  {"BlendOpTooLarge", [](auto& d) { d.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP(6); }, Rule::BlendOp,
   Outcome::Fail},
  {"WriteMask", [](auto& d) { d.RenderTarget[0].RenderTargetWriteMask = 0x1f; }, Rule::BlendWriteMask, Outcome::Fail},
  {"NonBooleanEnable", [](auto& d) { d.RenderTarget[0].BlendEnable = 2; }, Rule::StateBool, Outcome::Fail},
  {"NonBooleanAlphaToCoverage", [](auto& d) { d.AlphaToCoverageEnable = -1; }, Rule::StateBool, Outcome::Fail},
};

INSTANTIATE_TEST_SUITE_P(Blend, BlendDescTest, ::testing::ValuesIn(kBlendCases), test::caseName<D3D11_BLEND_DESC>);

TEST(BlendDesc1, LogicOps) {
  D3D11_BLEND_DESC1 desc{};
  for (auto& rt : desc.RenderTarget) {
    rt.SrcBlend = rt.SrcBlendAlpha = D3D11_BLEND_ONE;
    rt.DestBlend = rt.DestBlendAlpha = D3D11_BLEND_ZERO;
    rt.BlendOp = rt.BlendOpAlpha = D3D11_BLEND_OP_ADD;
    rt.LogicOp = D3D11_LOGIC_OP_NOOP;
    rt.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
  }
  desc.RenderTarget[0].LogicOpEnable = TRUE;
  desc.RenderTarget[0].LogicOp = D3D11_LOGIC_OP_XOR;
  EXPECT_PASS(validateBlendDesc1(desc));
  desc.RenderTarget[0].LogicOp = D3D11_LOGIC_OP(16);
  EXPECT_REJECT(validateBlendDesc1(desc), BlendLogicOp, Fail);
  desc.RenderTarget[0].LogicOp = D3D11_LOGIC_OP_XOR;
  desc.RenderTarget[0].BlendEnable = TRUE;
  EXPECT_REJECT(validateBlendDesc1(desc), BlendLogicOp, Fail);
}

D3D11_DEPTH_STENCIL_DESC validDepthStencil() {
  D3D11_DEPTH_STENCIL_DESC desc{};
  desc.DepthEnable = TRUE;
  desc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
  desc.DepthFunc = D3D11_COMPARISON_LESS;
  desc.StencilReadMask = desc.StencilWriteMask = 0xff;
  desc.FrontFace = {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS};
  desc.BackFace = desc.FrontFace;
  return desc;
}

using DepthCase = Case<D3D11_DEPTH_STENCIL_DESC>;
class DepthStencilDescTest : public ::testing::TestWithParam<DepthCase> {};

TEST_P(DepthStencilDescTest, Rule) {
  D3D11_DEPTH_STENCIL_DESC desc = validDepthStencil();
  GetParam().mutate(desc);
  EXPECT_TRUE(test::hasResult(validateDepthStencilDesc(desc), GetParam().rule, GetParam().outcome));
}

const DepthCase kDepthCases[] = {
  {"Valid", [](auto&) {}, Rule::Ok, Outcome::Pass},
  {"ValidStencil", [](auto& d) { d.StencilEnable = TRUE; d.FrontFace.StencilPassOp = D3D11_STENCIL_OP_DECR; },
   Rule::Ok, Outcome::Pass},
  {"WriteMask", [](auto& d) { d.DepthWriteMask = D3D11_DEPTH_WRITE_MASK(2); }, Rule::DepthWriteMask, Outcome::Fail},
  {"DepthFuncZero", [](auto& d) { d.DepthFunc = D3D11_COMPARISON_FUNC(0); }, Rule::DepthComparison, Outcome::Fail},
  {"DepthFuncNine", [](auto& d) { d.DepthFunc = D3D11_COMPARISON_FUNC(9); }, Rule::DepthComparison, Outcome::Fail},
  {"StencilOpZero", [](auto& d) { d.StencilEnable = TRUE; d.FrontFace.StencilFailOp = D3D11_STENCIL_OP(0); },
   Rule::StencilOp, Outcome::Fail},
  {"BackStencilOpNine", [](auto& d) { d.StencilEnable = TRUE; d.BackFace.StencilDepthFailOp = D3D11_STENCIL_OP(9); },
   Rule::StencilOp, Outcome::Fail},
  {"StencilFunc", [](auto& d) { d.StencilEnable = TRUE; d.BackFace.StencilFunc = D3D11_COMPARISON_FUNC(0); },
   Rule::DepthComparison, Outcome::Fail},
  // The runtime does not look at the fields of disabled tests (Wine's
  // test_create_depthstencil_state: Windows accepts zero-filled ones).
  {"DisabledStencilWithZeroFaces", [](auto& d) { d.FrontFace = {}; d.BackFace = {}; }, Rule::Ok, Outcome::Pass},
  {"DisabledStencilWithOutOfRangeOps", [](auto& d) { d.BackFace.StencilPassOp = D3D11_STENCIL_OP(9); }, Rule::Ok,
   Outcome::Pass},
  {"DisabledDepthWithZeroFunc", [](auto& d) { d.DepthEnable = FALSE; d.DepthFunc = D3D11_COMPARISON_FUNC(0); },
   Rule::Ok, Outcome::Pass},
  {"DisabledDepthStillChecksWriteMask", [](auto& d) { d.DepthEnable = FALSE; d.DepthWriteMask = D3D11_DEPTH_WRITE_MASK(2); },
   Rule::DepthWriteMask, Outcome::Fail},
  {"ZeroFilledDisabledEverything", [](auto& d) { d = {}; }, Rule::Ok, Outcome::Pass},
  {"NonBooleanDepthEnable", [](auto& d) { d.DepthEnable = 3; }, Rule::StateBool, Outcome::Fail},
};

INSTANTIATE_TEST_SUITE_P(DepthStencil, DepthStencilDescTest, ::testing::ValuesIn(kDepthCases),
                         test::caseName<D3D11_DEPTH_STENCIL_DESC>);

TEST(DepthStencilDesc, BackendsGetDefaultsForDisabledTests) {
  D3D11_DEPTH_STENCIL_DESC desc = {};
  desc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ZERO;
  desc.StencilReadMask = 0x0f;
  D3D11_DEPTH_STENCIL_DESC normalized = normalizedDepthStencilDesc(desc);
  EXPECT_EQ(normalized.DepthFunc, D3D11_COMPARISON_LESS);
  EXPECT_EQ(normalized.DepthWriteMask, D3D11_DEPTH_WRITE_MASK_ZERO);
  EXPECT_EQ(normalized.StencilReadMask, 0x0f);
  for (const D3D11_DEPTH_STENCILOP_DESC& face : {normalized.FrontFace, normalized.BackFace}) {
    EXPECT_EQ(face.StencilFailOp, D3D11_STENCIL_OP_KEEP);
    EXPECT_EQ(face.StencilDepthFailOp, D3D11_STENCIL_OP_KEEP);
    EXPECT_EQ(face.StencilPassOp, D3D11_STENCIL_OP_KEEP);
    EXPECT_EQ(face.StencilFunc, D3D11_COMPARISON_ALWAYS);
  }
  EXPECT_PASS(validateDepthStencilDesc(normalized));
  // Enabled tests keep what the application asked for.
  D3D11_DEPTH_STENCIL_DESC enabled = validDepthStencil();
  enabled.StencilEnable = TRUE;
  enabled.DepthFunc = D3D11_COMPARISON_GREATER;
  enabled.FrontFace.StencilPassOp = D3D11_STENCIL_OP_INCR;
  normalized = normalizedDepthStencilDesc(enabled);
  EXPECT_EQ(normalized.DepthFunc, D3D11_COMPARISON_GREATER);
  EXPECT_EQ(normalized.FrontFace.StencilPassOp, D3D11_STENCIL_OP_INCR);
}

TEST(RasterizerDesc, Rules) {
  D3D11_RASTERIZER_DESC desc{};
  desc.FillMode = D3D11_FILL_SOLID;
  desc.CullMode = D3D11_CULL_BACK;
  desc.DepthClipEnable = TRUE;
  EXPECT_PASS(validateRasterizerDesc(desc));
  auto bad = desc;
  bad.FillMode = D3D11_FILL_MODE(1);
  EXPECT_REJECT(validateRasterizerDesc(bad), RasterizerFillMode, Fail);
  bad = desc;
  bad.CullMode = D3D11_CULL_MODE(4);
  EXPECT_REJECT(validateRasterizerDesc(bad), RasterizerCullMode, Fail);
  bad = desc;
  bad.SlopeScaledDepthBias = std::numeric_limits<float>::quiet_NaN();
  EXPECT_REJECT(validateRasterizerDesc(bad), RasterizerDepthBias, Fail);
  bad = desc;
  bad.ScissorEnable = 7;
  EXPECT_REJECT(validateRasterizerDesc(bad), StateBool, Fail);

  D3D11_RASTERIZER_DESC2 desc2{};
  desc2.FillMode = D3D11_FILL_WIREFRAME;
  desc2.CullMode = D3D11_CULL_NONE;
  desc2.ForcedSampleCount = 8;
  EXPECT_PASS(validateRasterizerDesc2(desc2));
  desc2.ForcedSampleCount = 2;
  EXPECT_REJECT(validateRasterizerDesc2(desc2), RasterizerSampleCount, Fail);
}

D3D11_SAMPLER_DESC validSampler() {
  D3D11_SAMPLER_DESC desc{};
  desc.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
  desc.AddressU = desc.AddressV = desc.AddressW = D3D11_TEXTURE_ADDRESS_WRAP;
  desc.MaxAnisotropy = 1;
  desc.ComparisonFunc = D3D11_COMPARISON_NEVER;
  desc.MaxLOD = D3D11_FLOAT32_MAX;
  return desc;
}

using SamplerCase = Case<D3D11_SAMPLER_DESC>;
class SamplerDescTest : public ::testing::TestWithParam<SamplerCase> {};

TEST_P(SamplerDescTest, Rule) {
  D3D11_SAMPLER_DESC desc = validSampler();
  GetParam().mutate(desc);
  EXPECT_TRUE(test::hasResult(validateSamplerDesc(desc), GetParam().rule, GetParam().outcome));
}

const SamplerCase kSamplerCases[] = {
  {"Valid", [](auto&) {}, Rule::Ok, Outcome::Pass},
  {"ValidAnisotropic", [](auto& d) { d.Filter = D3D11_FILTER_ANISOTROPIC; d.MaxAnisotropy = 16; }, Rule::Ok,
   Outcome::Pass},
  {"ValidComparison", [](auto& d) { d.Filter = D3D11_FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT;
     d.ComparisonFunc = D3D11_COMPARISON_LESS_EQUAL; }, Rule::Ok, Outcome::Pass},
  {"ValidMaximumReduction", [](auto& d) { d.Filter = D3D11_FILTER_MAXIMUM_ANISOTROPIC; }, Rule::Ok, Outcome::Pass},
  {"ValidBorderMirrorOnce", [](auto& d) { d.AddressU = D3D11_TEXTURE_ADDRESS_BORDER;
     d.AddressW = D3D11_TEXTURE_ADDRESS_MIRROR_ONCE; }, Rule::Ok, Outcome::Pass},
  {"FilterBitsOutside", [](auto& d) { d.Filter = D3D11_FILTER(0x2); }, Rule::SamplerFilter, Outcome::Fail},
  {"FilterHighBits", [](auto& d) { d.Filter = D3D11_FILTER(0x200); }, Rule::SamplerFilter, Outcome::Fail},
  {"AddressZero", [](auto& d) { d.AddressV = D3D11_TEXTURE_ADDRESS_MODE(0); }, Rule::SamplerAddressMode,
   Outcome::Fail},
  {"AddressSix", [](auto& d) { d.AddressW = D3D11_TEXTURE_ADDRESS_MODE(6); }, Rule::SamplerAddressMode, Outcome::Fail},
  {"LodBiasLow", [](auto& d) { d.MipLODBias = -16.5f; }, Rule::SamplerMipLodBias, Outcome::Fail},
  {"LodBiasHigh", [](auto& d) { d.MipLODBias = 16.0f; }, Rule::SamplerMipLodBias, Outcome::Fail},
  {"LodBiasNaN", [](auto& d) { d.MipLODBias = std::nanf(""); }, Rule::SamplerMipLodBias, Outcome::Fail},
  {"Anisotropy17", [](auto& d) { d.MaxAnisotropy = 17; }, Rule::SamplerMaxAnisotropy, Outcome::Fail},
  {"ComparisonFuncZero", [](auto& d) { d.Filter = D3D11_FILTER_COMPARISON_ANISOTROPIC;
     d.ComparisonFunc = D3D11_COMPARISON_FUNC(0); }, Rule::SamplerComparison, Outcome::Fail},
  {"MinLodNaN", [](auto& d) { d.MinLOD = std::nanf(""); }, Rule::SamplerLodRange, Outcome::Fail},
};

INSTANTIATE_TEST_SUITE_P(Sampler, SamplerDescTest, ::testing::ValuesIn(kSamplerCases),
                         test::caseName<D3D11_SAMPLER_DESC>);

}  // namespace
