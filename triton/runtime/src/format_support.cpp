// SPDX-License-Identifier: MIT
// The runtime's half of format support (format_support.h).
//
// What is reproduced of Microsoft's per-level requirement tables (the "Format support for
// Direct3D feature level 10.0/10.1/11.0/11.1 hardware" pages): the *required* rows of
// the targets the DDI does not carry, by format class, not format by format:
//
//   typed colour formats   TEXTURE1D/2D/3D/CUBE, SHADER_LOAD, MIP, CPU_LOCKABLE
//   integer formats        the same (they are typed colour formats)
//   typeless formats       TEXTURE1D/2D/3D/CUBE, MIP (depth families: no 3D)
//   depth formats          TEXTURE1D/2D, CUBE from 10_1, DEPTH_STENCIL, MIP
//   depth read as colour   (R32_FLOAT_X8X24, X32_G8X24, R24_UNORM_X8, X24_G8) TEXTURE1D/2D,
//                          CUBE from 10_1, SHADER_LOAD, MIP
//   BC1..BC5, BC6H/BC7     TEXTURE2D/3D/CUBE, SHADER_LOAD (typed), MIP, CPU_LOCKABLE (typed);
//                          BC6H/BC7 exist from 11_0 only
//   R9G9B9E5, R8G8_B8G8, G8R8_G8B8, R1, R10G10B10_XR_BIAS_A2: the dimensions of their pages
//   B5G6R5, B5G5R5A1, B4G4R4A4 (optional formats): a colour format's rows once supported
//   every format of a typeless family: CAST_WITHIN_BIT_LAYOUT
//   R16_UINT, R32_UINT: IA_INDEX_BUFFER; the 32-bit-per-channel FLOAT/UINT/SINT formats:
//   SO_BUFFER; R32_FLOAT, R16_UNORM and the two depth-as-colour formats:
//   SHADER_SAMPLE_COMPARISON, and SHADER_GATHER_COMPARISON from 10_1;
//   R8G8B8A8_UNORM(_SRGB), B8G8R8A8_UNORM(_SRGB), R16G16B16A16_FLOAT, R10G10B10A2_UNORM,
//   R10G10B10_XR_BIAS_A2_UNORM: DISPLAY;
//   MIP_AUTOGEN where the driver offers a non-integer render target, MULTISAMPLE_RESOLVE
//   where it offers a non-integer multisample render target;
//   from 11_0, FORMAT_SUPPORT2's UAV atomics on R32_UINT/R32_SINT and typed UAV loads of
//   R32_FLOAT/R32_UINT/R32_SINT.
//
// Below 10_1 SHADER_GATHER is taken away (gather4 is a 10_1 instruction).
// Not reproduced: the per-format exceptions of those pages, BACK_BUFFER_CAST (a DXGI
// matter), the 9_x levels (the runtime creates 10_0 and above) and the video formats'
// required rows (the driver's answer alone decides them).

#include "format_support.h"

#include "triton/ddi/enums.h"

namespace triton::runtime {

namespace ddi = triton::ddi;

namespace {

enum class Kind { Unknown, Colour, Integer, Typeless, DepthTypeless, Depth, DepthAsColour, Compressed,
                  CompressedTypeless, Packed, Video };

Kind kindOf(DXGI_FORMAT f) {
  switch (f) {
    case DXGI_FORMAT_R32G32B32A32_TYPELESS: case DXGI_FORMAT_R32G32B32_TYPELESS:
    case DXGI_FORMAT_R16G16B16A16_TYPELESS: case DXGI_FORMAT_R32G32_TYPELESS:
    case DXGI_FORMAT_R10G10B10A2_TYPELESS: case DXGI_FORMAT_R8G8B8A8_TYPELESS:
    case DXGI_FORMAT_R16G16_TYPELESS: case DXGI_FORMAT_R32_TYPELESS: case DXGI_FORMAT_R8G8_TYPELESS:
    case DXGI_FORMAT_R16_TYPELESS: case DXGI_FORMAT_R8_TYPELESS: case DXGI_FORMAT_B8G8R8A8_TYPELESS:
    case DXGI_FORMAT_B8G8R8X8_TYPELESS:
      return Kind::Typeless;
    case DXGI_FORMAT_R32G8X24_TYPELESS: case DXGI_FORMAT_R24G8_TYPELESS:
      return Kind::DepthTypeless;
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: case DXGI_FORMAT_D32_FLOAT: case DXGI_FORMAT_D24_UNORM_S8_UINT:
    case DXGI_FORMAT_D16_UNORM:
      return Kind::Depth;
    case DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS: case DXGI_FORMAT_X32_TYPELESS_G8X24_UINT:
    case DXGI_FORMAT_R24_UNORM_X8_TYPELESS: case DXGI_FORMAT_X24_TYPELESS_G8_UINT:
      return Kind::DepthAsColour;
    case DXGI_FORMAT_R32G32B32A32_UINT: case DXGI_FORMAT_R32G32B32A32_SINT: case DXGI_FORMAT_R32G32B32_UINT:
    case DXGI_FORMAT_R32G32B32_SINT: case DXGI_FORMAT_R16G16B16A16_UINT: case DXGI_FORMAT_R16G16B16A16_SINT:
    case DXGI_FORMAT_R32G32_UINT: case DXGI_FORMAT_R32G32_SINT: case DXGI_FORMAT_R10G10B10A2_UINT:
    case DXGI_FORMAT_R8G8B8A8_UINT: case DXGI_FORMAT_R8G8B8A8_SINT: case DXGI_FORMAT_R16G16_UINT:
    case DXGI_FORMAT_R16G16_SINT: case DXGI_FORMAT_R32_UINT: case DXGI_FORMAT_R32_SINT: case DXGI_FORMAT_R8G8_UINT:
    case DXGI_FORMAT_R8G8_SINT: case DXGI_FORMAT_R16_UINT: case DXGI_FORMAT_R16_SINT: case DXGI_FORMAT_R8_UINT:
    case DXGI_FORMAT_R8_SINT:
      return Kind::Integer;
    case DXGI_FORMAT_BC1_TYPELESS: case DXGI_FORMAT_BC2_TYPELESS: case DXGI_FORMAT_BC3_TYPELESS:
    case DXGI_FORMAT_BC4_TYPELESS: case DXGI_FORMAT_BC5_TYPELESS: case DXGI_FORMAT_BC6H_TYPELESS:
    case DXGI_FORMAT_BC7_TYPELESS:
      return Kind::CompressedTypeless;
    case DXGI_FORMAT_R1_UNORM: case DXGI_FORMAT_R9G9B9E5_SHAREDEXP: case DXGI_FORMAT_R8G8_B8G8_UNORM:
    case DXGI_FORMAT_G8R8_G8B8_UNORM: case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM:
      return Kind::Packed;
    default:
      break;
  }
  if ((f >= DXGI_FORMAT_BC1_UNORM && f <= DXGI_FORMAT_BC5_SNORM) ||
      (f >= DXGI_FORMAT_BC6H_UF16 && f <= DXGI_FORMAT_BC7_UNORM_SRGB))
    return Kind::Compressed;
  if ((f >= DXGI_FORMAT_AYUV && f <= DXGI_FORMAT_A8P8) || (f >= DXGI_FORMAT_P208 && f <= DXGI_FORMAT_V408))
    return Kind::Video;
  // The 16-bit BGR formats (DXGI 1.2) are optional at every level from 10_0: once the
  // driver supports one, it has a colour format's rows.
  if (f == DXGI_FORMAT_B5G6R5_UNORM || f == DXGI_FORMAT_B5G5R5A1_UNORM || f == DXGI_FORMAT_B4G4R4A4_UNORM)
    return Kind::Colour;
  if (f >= DXGI_FORMAT_R32G32B32A32_FLOAT && f <= DXGI_FORMAT_B8G8R8X8_UNORM_SRGB)
    return Kind::Colour;
  return Kind::Unknown;
}

// Formats without a typeless family: nothing to cast within.
bool castable(DXGI_FORMAT f) {
  switch (f) {
    case DXGI_FORMAT_R11G11B10_FLOAT: case DXGI_FORMAT_A8_UNORM: case DXGI_FORMAT_R1_UNORM:
    case DXGI_FORMAT_R9G9B9E5_SHAREDEXP: case DXGI_FORMAT_R8G8_B8G8_UNORM: case DXGI_FORMAT_G8R8_G8B8_UNORM:
    case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM: case DXGI_FORMAT_B5G6R5_UNORM: case DXGI_FORMAT_B5G5R5A1_UNORM:
    case DXGI_FORMAT_B4G4R4A4_UNORM: case DXGI_FORMAT_UNKNOWN:
      return false;
    default:
      return true;
  }
}

bool bc6Or7(DXGI_FORMAT f) { return f >= DXGI_FORMAT_BC6H_TYPELESS && f <= DXGI_FORMAT_BC7_UNORM_SRGB; }

constexpr UINT kAllDimensions = D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE2D |
                                D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_TEXTURECUBE;

UINT dimensionsOf(DXGI_FORMAT f, Kind kind, D3D_FEATURE_LEVEL level) {
  const UINT cubeFrom10_1 = level >= D3D_FEATURE_LEVEL_10_1 ? UINT(D3D11_FORMAT_SUPPORT_TEXTURECUBE) : 0u;
  switch (kind) {
    case Kind::Colour: case Kind::Integer: case Kind::Typeless:
      return kAllDimensions;
    case Kind::DepthTypeless: case Kind::Depth: case Kind::DepthAsColour:
      return D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE2D | cubeFrom10_1;
    case Kind::Compressed: case Kind::CompressedTypeless:
      return D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_TEXTURECUBE;
    case Kind::Packed:
      if (f == DXGI_FORMAT_R9G9B9E5_SHAREDEXP) return kAllDimensions;
      if (f == DXGI_FORMAT_R1_UNORM) return D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE2D;
      return D3D11_FORMAT_SUPPORT_TEXTURE2D;
    default:
      return 0;
  }
}

}  // namespace

UINT apiOptionalFormatSupport(UINT c, D3D_FEATURE_LEVEL level) {
  struct Bit { UINT ddi; UINT api; };
  static constexpr Bit kBits[] = {
      {ddi::D3D10_DDI_FORMAT_SUPPORT_SHADER_SAMPLE, D3D11_FORMAT_SUPPORT_SHADER_SAMPLE},
      {ddi::D3D10_DDI_FORMAT_SUPPORT_RENDERTARGET, D3D11_FORMAT_SUPPORT_RENDER_TARGET},
      {ddi::D3D10_DDI_FORMAT_SUPPORT_BLENDABLE, D3D11_FORMAT_SUPPORT_BLENDABLE},
      {ddi::D3D10_DDI_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET, D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET},
      {ddi::D3D10_DDI_FORMAT_SUPPORT_MULTISAMPLE_LOAD, D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_DECODER_OUTPUT, D3D11_FORMAT_SUPPORT_DECODER_OUTPUT},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_VIDEO_PROCESSOR_OUTPUT, D3D11_FORMAT_SUPPORT_VIDEO_PROCESSOR_OUTPUT},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_VIDEO_PROCESSOR_INPUT, D3D11_FORMAT_SUPPORT_VIDEO_PROCESSOR_INPUT},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_VERTEX_BUFFER, D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_UAV_WRITES, D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_BUFFER, D3D11_FORMAT_SUPPORT_BUFFER},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_VIDEO_ENCODER, D3D11_FORMAT_SUPPORT_VIDEO_ENCODER},
      {ddi::D3D11_1DDI_FORMAT_SUPPORT_SHADER_GATHER, D3D11_FORMAT_SUPPORT_SHADER_GATHER},
  };
  UINT out = 0;
  if (c & ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED)
    return 0;
  for (const Bit& bit : kBits)
    if (c & bit.ddi)
      out |= bit.api;
  // gather4 is a 10_1 instruction: below it the runtime takes the bit away whatever the
  // driver says.
  if (level < D3D_FEATURE_LEVEL_10_1)
    out &= ~UINT(D3D11_FORMAT_SUPPORT_SHADER_GATHER);
  return out;
}

UINT apiOptionalFormatSupport2(UINT c) {
  UINT out = 0;
  if (c & ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED)
    return 0;
  if (c & ddi::D3D11_1DDI_FORMAT_SUPPORT_OUTPUT_MERGER_LOGIC_OP) out |= D3D11_FORMAT_SUPPORT2_OUTPUT_MERGER_LOGIC_OP;
  if (c & ddi::D3D11_1DDI_FORMAT_SUPPORT_MULTIPLANE_OVERLAY) out |= D3D11_FORMAT_SUPPORT2_MULTIPLANE_OVERLAY;
  return out;
}

bool formatKnownAtLevel(DXGI_FORMAT f, D3D_FEATURE_LEVEL level) {
  if (kindOf(f) == Kind::Unknown && f != DXGI_FORMAT_UNKNOWN)
    return false;
  return !(bc6Or7(f) && level < D3D_FEATURE_LEVEL_11_0);
}

UINT requiredFormatSupport(DXGI_FORMAT f, D3D_FEATURE_LEVEL level, UINT ddiCaps) {
  const Kind kind = kindOf(f);
  if (kind == Kind::Unknown || kind == Kind::Video || (ddiCaps & ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED))
    return 0;
  UINT out = dimensionsOf(f, kind, level);
  if (out)
    out |= D3D11_FORMAT_SUPPORT_MIP;
  const bool typed = kind == Kind::Colour || kind == Kind::Integer || kind == Kind::Compressed ||
                     kind == Kind::Packed || kind == Kind::DepthAsColour;
  if (typed)
    out |= D3D11_FORMAT_SUPPORT_SHADER_LOAD;
  if (kind == Kind::Colour || kind == Kind::Integer || kind == Kind::Compressed || kind == Kind::Packed)
    out |= D3D11_FORMAT_SUPPORT_CPU_LOCKABLE;
  if (kind == Kind::Depth)
    out |= D3D11_FORMAT_SUPPORT_DEPTH_STENCIL;
  if (castable(f))
    out |= D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT;
  switch (f) {
    case DXGI_FORMAT_R16_UINT: case DXGI_FORMAT_R32_UINT:
      out |= D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER;
      break;
    default:
      break;
  }
  switch (f) {
    case DXGI_FORMAT_R32G32B32A32_FLOAT: case DXGI_FORMAT_R32G32B32A32_UINT: case DXGI_FORMAT_R32G32B32A32_SINT:
    case DXGI_FORMAT_R32G32B32_FLOAT: case DXGI_FORMAT_R32G32B32_UINT: case DXGI_FORMAT_R32G32B32_SINT:
    case DXGI_FORMAT_R32G32_FLOAT: case DXGI_FORMAT_R32G32_UINT: case DXGI_FORMAT_R32G32_SINT:
    case DXGI_FORMAT_R32_FLOAT: case DXGI_FORMAT_R32_UINT: case DXGI_FORMAT_R32_SINT:
      out |= D3D11_FORMAT_SUPPORT_SO_BUFFER;
      break;
    default:
      break;
  }
  switch (f) {
    case DXGI_FORMAT_R32_FLOAT: case DXGI_FORMAT_R16_UNORM: case DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS:
    case DXGI_FORMAT_R24_UNORM_X8_TYPELESS:
      out |= D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON;
      if (level >= D3D_FEATURE_LEVEL_10_1)
        out |= D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON;
      break;
    default:
      break;
  }
  switch (f) {
    case DXGI_FORMAT_R8G8B8A8_UNORM: case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB: case DXGI_FORMAT_B8G8R8A8_UNORM:
    case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB: case DXGI_FORMAT_R16G16B16A16_FLOAT: case DXGI_FORMAT_R10G10B10A2_UNORM:
    case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM:
      out |= D3D11_FORMAT_SUPPORT_DISPLAY;
      break;
    default:
      break;
  }
  const bool filterable = kind == Kind::Colour;   // not integer, depth or block-compressed
  if (filterable && (ddiCaps & ddi::D3D10_DDI_FORMAT_SUPPORT_RENDERTARGET))
    out |= D3D11_FORMAT_SUPPORT_MIP_AUTOGEN;
  if (filterable && (ddiCaps & ddi::D3D10_DDI_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET))
    out |= D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE;
  return out;
}

UINT requiredFormatSupport2(DXGI_FORMAT f, D3D_FEATURE_LEVEL level) {
  if (level < D3D_FEATURE_LEVEL_11_0)
    return 0;
  constexpr UINT kAtomics = D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS |
                            D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE |
                            D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE |
                            D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX |
                            D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX;
  switch (f) {
    case DXGI_FORMAT_R32_UINT: case DXGI_FORMAT_R32_SINT:
      return kAtomics | D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD;
    case DXGI_FORMAT_R32_FLOAT:
      return D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD;
    default:
      return 0;
  }
}

}  // namespace triton::runtime
