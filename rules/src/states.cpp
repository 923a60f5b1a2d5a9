// SPDX-License-Identifier: MIT
#include "npt/validation/states.h"

#include <cmath>

namespace npt::validation {

namespace {

// D3D11_MIP_LOD_BIAS_MIN/MAX (absent from some header sets).
constexpr float kMipLodBiasMin = -16.0f;
constexpr float kMipLodBiasMax = 15.99f;

bool isBool(BOOL value) { return value == TRUE || value == FALSE; }

bool validBlend(uint32_t blend) {
  return blend >= D3D11_BLEND_ZERO && blend <= D3D11_BLEND_INV_SRC1_ALPHA && blend != 12 && blend != 13;
}

// Alpha blend factors cannot name colour channels (D3D11_BLEND remarks).
bool validAlphaBlend(uint32_t blend) {
  switch (blend) {
    case D3D11_BLEND_SRC_COLOR:
    case D3D11_BLEND_INV_SRC_COLOR:
    case D3D11_BLEND_DEST_COLOR:
    case D3D11_BLEND_INV_DEST_COLOR:
    case D3D11_BLEND_SRC1_COLOR:
    case D3D11_BLEND_INV_SRC1_COLOR:
      return false;
    default:
      return validBlend(blend);
  }
}

bool validBlendOp(uint32_t op) { return op >= D3D11_BLEND_OP_ADD && op <= D3D11_BLEND_OP_MAX; }
bool validComparison(uint32_t func) { return func >= D3D11_COMPARISON_NEVER && func <= D3D11_COMPARISON_ALWAYS; }
bool validStencilOp(uint32_t op) { return op >= D3D11_STENCIL_OP_KEEP && op <= D3D11_STENCIL_OP_DECR; }

Check validateTargetBlend(uint32_t index, BOOL enable, uint32_t src, uint32_t dst, uint32_t op, uint32_t srcAlpha,
                          uint32_t dstAlpha, uint32_t opAlpha, uint8_t writeMask) {
  if (!isBool(enable)) return Check::reject(Rule::StateBool, "RenderTarget[%u].BlendEnable is %d", index, enable);
  if (writeMask & ~D3D11_COLOR_WRITE_ENABLE_ALL)
    return Check::reject(Rule::BlendWriteMask, "RenderTarget[%u].RenderTargetWriteMask %#x", index, writeMask);
  // Windows validates the factors of every described target, enabled or not.
  if (!validBlend(src) || !validBlend(dst))
    return Check::reject(Rule::BlendFactor, "RenderTarget[%u] blend factors %u/%u", index, src, dst);
  if (!validAlphaBlend(srcAlpha) || !validAlphaBlend(dstAlpha))
    return Check::reject(Rule::BlendAlphaFactor, "RenderTarget[%u] alpha blend factors %u/%u", index, srcAlpha, dstAlpha);
  if (!validBlendOp(op) || !validBlendOp(opAlpha))
    return Check::reject(Rule::BlendOp, "RenderTarget[%u] blend ops %u/%u", index, op, opAlpha);
  return Check::pass();
}

Check validateStencilFace(const char* face, const D3D11_DEPTH_STENCILOP_DESC& desc) {
  if (!validStencilOp(desc.StencilFailOp) || !validStencilOp(desc.StencilDepthFailOp) || !validStencilOp(desc.StencilPassOp))
    return Check::reject(Rule::StencilOp, "%s stencil ops %u/%u/%u", face, desc.StencilFailOp, desc.StencilDepthFailOp,
                         desc.StencilPassOp);
  if (!validComparison(desc.StencilFunc))
    return Check::reject(Rule::DepthComparison, "%s StencilFunc %u", face, desc.StencilFunc);
  return Check::pass();
}

}  // namespace

Check validateBlendDesc(const D3D11_BLEND_DESC& desc) {
  if (!isBool(desc.AlphaToCoverageEnable) || !isBool(desc.IndependentBlendEnable))
    return Check::reject(Rule::StateBool, "AlphaToCoverageEnable/IndependentBlendEnable not boolean");
  // Without independent blending only RenderTarget[0] is used (and validated).
  const uint32_t count = desc.IndependentBlendEnable ? D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT : 1;
  for (uint32_t i = 0; i < count; i++) {
    const D3D11_RENDER_TARGET_BLEND_DESC& rt = desc.RenderTarget[i];
    NPT_CHECK(validateTargetBlend(i, rt.BlendEnable, rt.SrcBlend, rt.DestBlend, rt.BlendOp, rt.SrcBlendAlpha,
                                  rt.DestBlendAlpha, rt.BlendOpAlpha, rt.RenderTargetWriteMask));
  }
  return Check::pass();
}

Check validateBlendDesc1(const D3D11_BLEND_DESC1& desc) {
  if (!isBool(desc.AlphaToCoverageEnable) || !isBool(desc.IndependentBlendEnable))
    return Check::reject(Rule::StateBool, "AlphaToCoverageEnable/IndependentBlendEnable not boolean");
  const uint32_t count = desc.IndependentBlendEnable ? D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT : 1;
  for (uint32_t i = 0; i < count; i++) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& rt = desc.RenderTarget[i];
    NPT_CHECK(validateTargetBlend(i, rt.BlendEnable, rt.SrcBlend, rt.DestBlend, rt.BlendOp, rt.SrcBlendAlpha,
                                  rt.DestBlendAlpha, rt.BlendOpAlpha, rt.RenderTargetWriteMask));
    if (!isBool(rt.LogicOpEnable))
      return Check::reject(Rule::StateBool, "RenderTarget[%u].LogicOpEnable is %d", i, rt.LogicOpEnable);
    if (rt.LogicOp > D3D11_LOGIC_OP_OR_INVERTED)
      return Check::reject(Rule::BlendLogicOp, "RenderTarget[%u].LogicOp %u", i, rt.LogicOp);
    // D3D11_RENDER_TARGET_BLEND_DESC1: blending and logic ops are mutually exclusive.
    if (rt.LogicOpEnable && rt.BlendEnable)
      return Check::reject(Rule::BlendLogicOp, "RenderTarget[%u] enables both blending and a logic op", i);
    if (rt.LogicOpEnable && desc.IndependentBlendEnable)
      return Check::reject(Rule::BlendLogicOp, "logic ops cannot be used with independent blending");
  }
  return Check::pass();
}

// The runtime checks the fields of the tests a description enables: a disabled depth
// test's DepthFunc and a disabled stencil test's faces may be anything (zero-filled
// descriptions are common; Wine's test_create_depthstencil_state records Windows
// accepting them and reporting defaults), and are replaced by the defaults before a
// backend sees them (normalizedDepthStencilDesc).
Check validateDepthStencilDesc(const D3D11_DEPTH_STENCIL_DESC& desc) {
  if (!isBool(desc.DepthEnable) || !isBool(desc.StencilEnable))
    return Check::reject(Rule::StateBool, "DepthEnable/StencilEnable not boolean");
  if (desc.DepthWriteMask != D3D11_DEPTH_WRITE_MASK_ZERO && desc.DepthWriteMask != D3D11_DEPTH_WRITE_MASK_ALL)
    return Check::reject(Rule::DepthWriteMask, "DepthWriteMask %u", desc.DepthWriteMask);
  if (desc.DepthEnable && !validComparison(desc.DepthFunc))
    return Check::reject(Rule::DepthComparison, "DepthFunc %u", desc.DepthFunc);
  if (desc.StencilEnable) {
    NPT_CHECK(validateStencilFace("FrontFace", desc.FrontFace));
    NPT_CHECK(validateStencilFace("BackFace", desc.BackFace));
  }
  return Check::pass();
}

D3D11_DEPTH_STENCIL_DESC normalizedDepthStencilDesc(const D3D11_DEPTH_STENCIL_DESC& desc) {
  D3D11_DEPTH_STENCIL_DESC out = desc;
  if (!out.DepthEnable)
    out.DepthFunc = D3D11_COMPARISON_LESS;
  if (!out.StencilEnable) {
    const D3D11_DEPTH_STENCILOP_DESC keep = {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP,
                                             D3D11_COMPARISON_ALWAYS};
    out.FrontFace = keep;
    out.BackFace = keep;
  }
  return out;
}

static Check validateRasterizerCommon(uint32_t fill, uint32_t cull, BOOL ccw, float clamp, float slope, BOOL depthClip,
                                      BOOL scissor, BOOL msaa, BOOL aaLines) {
  if (fill != D3D11_FILL_WIREFRAME && fill != D3D11_FILL_SOLID)
    return Check::reject(Rule::RasterizerFillMode, "FillMode %u", fill);
  if (cull < D3D11_CULL_NONE || cull > D3D11_CULL_BACK)
    return Check::reject(Rule::RasterizerCullMode, "CullMode %u", cull);
  if (!isBool(ccw) || !isBool(depthClip) || !isBool(scissor) || !isBool(msaa) || !isBool(aaLines))
    return Check::reject(Rule::StateBool, "rasterizer flags not boolean");
  if (!std::isfinite(clamp) || !std::isfinite(slope))
    return Check::reject(Rule::RasterizerDepthBias, "DepthBiasClamp/SlopeScaledDepthBias not finite (%f, %f)", clamp, slope);
  return Check::pass();
}

Check validateRasterizerDesc(const D3D11_RASTERIZER_DESC& desc) {
  return validateRasterizerCommon(desc.FillMode, desc.CullMode, desc.FrontCounterClockwise, desc.DepthBiasClamp,
                                  desc.SlopeScaledDepthBias, desc.DepthClipEnable, desc.ScissorEnable,
                                  desc.MultisampleEnable, desc.AntialiasedLineEnable);
}

Check validateRasterizerDesc2(const D3D11_RASTERIZER_DESC2& desc) {
  NPT_CHECK(validateRasterizerCommon(desc.FillMode, desc.CullMode, desc.FrontCounterClockwise, desc.DepthBiasClamp,
                                     desc.SlopeScaledDepthBias, desc.DepthClipEnable, desc.ScissorEnable,
                                     desc.MultisampleEnable, desc.AntialiasedLineEnable));
  // ForcedSampleCount: 0, 1, 4, 8 or 16 (D3D11_RASTERIZER_DESC1).
  const UINT forced = desc.ForcedSampleCount;
  if (forced != 0 && forced != 1 && forced != 4 && forced != 8 && forced != 16)
    return Check::reject(Rule::RasterizerSampleCount, "ForcedSampleCount %u", forced);
  if (desc.ConservativeRaster != D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF &&
      desc.ConservativeRaster != D3D11_CONSERVATIVE_RASTERIZATION_MODE_ON)
    return Check::reject(Rule::RasterizerSampleCount, "ConservativeRaster %u", unsigned(desc.ConservativeRaster));
  return Check::pass();
}

static bool validFilter(uint32_t filter) {
  // Basic filters: bit 0 mip linear, bit 2 mag linear, bit 4 min linear, 0x55 anisotropic;
  // bits 7-8 reduction (standard, comparison, minimum, maximum).
  const uint32_t reduction = (filter >> 7) & 3;
  const uint32_t basic = filter & ~(3u << 7);
  const bool pointLinear = (basic & ~0x15u) == 0;
  const bool anisotropic = basic == 0x55;
  return (filter >> 9) == 0 && reduction <= 3 && (pointLinear || anisotropic);
}

Check validateSamplerDesc(const D3D11_SAMPLER_DESC& desc) {
  if (!validFilter(desc.Filter))
    return Check::reject(Rule::SamplerFilter, "Filter %#x", unsigned(desc.Filter));
  const uint32_t modes[] = {uint32_t(desc.AddressU), uint32_t(desc.AddressV), uint32_t(desc.AddressW)};
  for (uint32_t mode : modes) {
    if (mode < D3D11_TEXTURE_ADDRESS_WRAP || mode > D3D11_TEXTURE_ADDRESS_MIRROR_ONCE)
      return Check::reject(Rule::SamplerAddressMode, "address mode %u", mode);
  }
  if (!(desc.MipLODBias >= kMipLodBiasMin && desc.MipLODBias <= kMipLodBiasMax))
    return Check::reject(Rule::SamplerMipLodBias, "MipLODBias %f outside [-16, 15.99]", desc.MipLODBias);
  if (desc.MaxAnisotropy > D3D11_MAX_MAXANISOTROPY)
    return Check::reject(Rule::SamplerMaxAnisotropy, "MaxAnisotropy %u > 16", desc.MaxAnisotropy);
  const bool comparison = ((desc.Filter >> 7) & 3) == 1;
  if (comparison && !validComparison(desc.ComparisonFunc))
    return Check::reject(Rule::SamplerComparison, "ComparisonFunc %u", desc.ComparisonFunc);
  if (std::isnan(desc.MinLOD) || std::isnan(desc.MaxLOD))
    return Check::reject(Rule::SamplerLodRange, "MinLOD/MaxLOD is NaN");
  return Check::pass();
}

}  // namespace npt::validation
