// SPDX-License-Identifier: MIT
#include "npt/validation/format_table.h"

#include <iterator>

namespace npt::validation {

namespace {

constexpr uint32_t T = FormatTypeless, D = FormatDepth, S = FormatStencil,
                   C = FormatCompressed, K = FormatPacked, P = FormatPlanar,
                   V = FormatVideo, G = FormatSrgb, I = FormatVertex,
                   X12 = FormatD3D12Only, R = FormatRenderable, DV = FormatDepthView;

// One row per format: value, bytes per block, block width/height, family, flags.
#define F(fmt, bytes, bw, bh, fam, fl) \
  FormatInfo{DXGI_FORMAT_##fmt, #fmt, bytes, bw, bh, 1, 1, 1, DXGI_FORMAT_##fam, fl}
// Planar: bytes per luma sample, chroma rows, planes.
#define PL(fmt, bytes, bw, bh, num, den, planes) \
  FormatInfo{DXGI_FORMAT_##fmt, #fmt, bytes, bw, bh, num, den, planes, DXGI_FORMAT_UNKNOWN, P | V}

constexpr FormatInfo kFormats[] = {
  F(R32G32B32A32_TYPELESS, 16, 1, 1, R32G32B32A32_TYPELESS, T),
  F(R32G32B32A32_FLOAT,    16, 1, 1, R32G32B32A32_TYPELESS, I | R),
  F(R32G32B32A32_UINT,     16, 1, 1, R32G32B32A32_TYPELESS, I | R),
  F(R32G32B32A32_SINT,     16, 1, 1, R32G32B32A32_TYPELESS, I | R),
  F(R32G32B32_TYPELESS,    12, 1, 1, R32G32B32_TYPELESS, T),
  F(R32G32B32_FLOAT,       12, 1, 1, R32G32B32_TYPELESS, I | R),
  F(R32G32B32_UINT,        12, 1, 1, R32G32B32_TYPELESS, I | R),
  F(R32G32B32_SINT,        12, 1, 1, R32G32B32_TYPELESS, I | R),
  F(R16G16B16A16_TYPELESS,  8, 1, 1, R16G16B16A16_TYPELESS, T),
  F(R16G16B16A16_FLOAT,     8, 1, 1, R16G16B16A16_TYPELESS, I | R),
  F(R16G16B16A16_UNORM,     8, 1, 1, R16G16B16A16_TYPELESS, I | R),
  F(R16G16B16A16_UINT,      8, 1, 1, R16G16B16A16_TYPELESS, I | R),
  F(R16G16B16A16_SNORM,     8, 1, 1, R16G16B16A16_TYPELESS, I | R),
  F(R16G16B16A16_SINT,      8, 1, 1, R16G16B16A16_TYPELESS, I | R),
  F(R32G32_TYPELESS,        8, 1, 1, R32G32_TYPELESS, T),
  F(R32G32_FLOAT,           8, 1, 1, R32G32_TYPELESS, I | R),
  F(R32G32_UINT,            8, 1, 1, R32G32_TYPELESS, I | R),
  F(R32G32_SINT,            8, 1, 1, R32G32_TYPELESS, I | R),
  F(R32G8X24_TYPELESS,      8, 1, 1, R32G8X24_TYPELESS, T),
  F(D32_FLOAT_S8X24_UINT,   8, 1, 1, R32G8X24_TYPELESS, D | S),
  F(R32_FLOAT_X8X24_TYPELESS, 8, 1, 1, R32G8X24_TYPELESS, T | DV),
  F(X32_TYPELESS_G8X24_UINT,  8, 1, 1, R32G8X24_TYPELESS, T | DV),
  F(R10G10B10A2_TYPELESS,   4, 1, 1, R10G10B10A2_TYPELESS, T),
  F(R10G10B10A2_UNORM,      4, 1, 1, R10G10B10A2_TYPELESS, I | R),
  F(R10G10B10A2_UINT,       4, 1, 1, R10G10B10A2_TYPELESS, I | R),
  F(R11G11B10_FLOAT,        4, 1, 1, R11G11B10_FLOAT, I | R),
  F(R8G8B8A8_TYPELESS,      4, 1, 1, R8G8B8A8_TYPELESS, T),
  F(R8G8B8A8_UNORM,         4, 1, 1, R8G8B8A8_TYPELESS, I | R),
  F(R8G8B8A8_UNORM_SRGB,    4, 1, 1, R8G8B8A8_TYPELESS, G | R),
  F(R8G8B8A8_UINT,          4, 1, 1, R8G8B8A8_TYPELESS, I | R),
  F(R8G8B8A8_SNORM,         4, 1, 1, R8G8B8A8_TYPELESS, I | R),
  F(R8G8B8A8_SINT,          4, 1, 1, R8G8B8A8_TYPELESS, I | R),
  F(R16G16_TYPELESS,        4, 1, 1, R16G16_TYPELESS, T),
  F(R16G16_FLOAT,           4, 1, 1, R16G16_TYPELESS, I | R),
  F(R16G16_UNORM,           4, 1, 1, R16G16_TYPELESS, I | R),
  F(R16G16_UINT,            4, 1, 1, R16G16_TYPELESS, I | R),
  F(R16G16_SNORM,           4, 1, 1, R16G16_TYPELESS, I | R),
  F(R16G16_SINT,            4, 1, 1, R16G16_TYPELESS, I | R),
  F(R32_TYPELESS,           4, 1, 1, R32_TYPELESS, T),
  F(D32_FLOAT,              4, 1, 1, R32_TYPELESS, D),
  F(R32_FLOAT,              4, 1, 1, R32_TYPELESS, I | R),
  F(R32_UINT,               4, 1, 1, R32_TYPELESS, I | R),
  F(R32_SINT,               4, 1, 1, R32_TYPELESS, I | R),
  F(R24G8_TYPELESS,         4, 1, 1, R24G8_TYPELESS, T),
  F(D24_UNORM_S8_UINT,      4, 1, 1, R24G8_TYPELESS, D | S),
  F(R24_UNORM_X8_TYPELESS,  4, 1, 1, R24G8_TYPELESS, T | DV),
  F(X24_TYPELESS_G8_UINT,   4, 1, 1, R24G8_TYPELESS, T | DV),
  F(R8G8_TYPELESS,          2, 1, 1, R8G8_TYPELESS, T),
  F(R8G8_UNORM,             2, 1, 1, R8G8_TYPELESS, I | R),
  F(R8G8_UINT,              2, 1, 1, R8G8_TYPELESS, I | R),
  F(R8G8_SNORM,             2, 1, 1, R8G8_TYPELESS, I | R),
  F(R8G8_SINT,              2, 1, 1, R8G8_TYPELESS, I | R),
  F(R16_TYPELESS,           2, 1, 1, R16_TYPELESS, T),
  F(R16_FLOAT,              2, 1, 1, R16_TYPELESS, I | R),
  F(D16_UNORM,              2, 1, 1, R16_TYPELESS, D),
  F(R16_UNORM,              2, 1, 1, R16_TYPELESS, I | R),
  F(R16_UINT,               2, 1, 1, R16_TYPELESS, I | R),
  F(R16_SNORM,              2, 1, 1, R16_TYPELESS, I | R),
  F(R16_SINT,               2, 1, 1, R16_TYPELESS, I | R),
  F(R8_TYPELESS,            1, 1, 1, R8_TYPELESS, T),
  F(R8_UNORM,               1, 1, 1, R8_TYPELESS, I | R),
  F(R8_UINT,                1, 1, 1, R8_TYPELESS, I | R),
  F(R8_SNORM,               1, 1, 1, R8_TYPELESS, I | R),
  F(R8_SINT,                1, 1, 1, R8_TYPELESS, I | R),
  F(A8_UNORM,               1, 1, 1, A8_UNORM, R),
  F(R1_UNORM,               1, 8, 1, R1_UNORM, 0),   // 8 pixels per byte
  F(R9G9B9E5_SHAREDEXP,     4, 1, 1, R9G9B9E5_SHAREDEXP, 0),
  F(R8G8_B8G8_UNORM,        4, 2, 1, R8G8_B8G8_UNORM, K),
  F(G8R8_G8B8_UNORM,        4, 2, 1, G8R8_G8B8_UNORM, K),
  F(BC1_TYPELESS,           8, 4, 4, BC1_TYPELESS, T | C),
  F(BC1_UNORM,              8, 4, 4, BC1_TYPELESS, C),
  F(BC1_UNORM_SRGB,         8, 4, 4, BC1_TYPELESS, C | G),
  F(BC2_TYPELESS,          16, 4, 4, BC2_TYPELESS, T | C),
  F(BC2_UNORM,             16, 4, 4, BC2_TYPELESS, C),
  F(BC2_UNORM_SRGB,        16, 4, 4, BC2_TYPELESS, C | G),
  F(BC3_TYPELESS,          16, 4, 4, BC3_TYPELESS, T | C),
  F(BC3_UNORM,             16, 4, 4, BC3_TYPELESS, C),
  F(BC3_UNORM_SRGB,        16, 4, 4, BC3_TYPELESS, C | G),
  F(BC4_TYPELESS,           8, 4, 4, BC4_TYPELESS, T | C),
  F(BC4_UNORM,              8, 4, 4, BC4_TYPELESS, C),
  F(BC4_SNORM,              8, 4, 4, BC4_TYPELESS, C),
  F(BC5_TYPELESS,          16, 4, 4, BC5_TYPELESS, T | C),
  F(BC5_UNORM,             16, 4, 4, BC5_TYPELESS, C),
  F(BC5_SNORM,             16, 4, 4, BC5_TYPELESS, C),
  F(B5G6R5_UNORM,           2, 1, 1, B5G6R5_UNORM, R),
  F(B5G5R5A1_UNORM,         2, 1, 1, B5G5R5A1_UNORM, R),
  F(B8G8R8A8_UNORM,         4, 1, 1, B8G8R8A8_TYPELESS, I | R),
  F(B8G8R8X8_UNORM,         4, 1, 1, B8G8R8X8_TYPELESS, R),
  F(R10G10B10_XR_BIAS_A2_UNORM, 4, 1, 1, R10G10B10A2_TYPELESS, 0),
  F(B8G8R8A8_TYPELESS,      4, 1, 1, B8G8R8A8_TYPELESS, T),
  F(B8G8R8A8_UNORM_SRGB,    4, 1, 1, B8G8R8A8_TYPELESS, G | R),
  F(B8G8R8X8_TYPELESS,      4, 1, 1, B8G8R8X8_TYPELESS, T),
  F(B8G8R8X8_UNORM_SRGB,    4, 1, 1, B8G8R8X8_TYPELESS, G | R),
  F(BC6H_TYPELESS,         16, 4, 4, BC6H_TYPELESS, T | C),
  F(BC6H_UF16,             16, 4, 4, BC6H_TYPELESS, C),
  F(BC6H_SF16,             16, 4, 4, BC6H_TYPELESS, C),
  F(BC7_TYPELESS,          16, 4, 4, BC7_TYPELESS, T | C),
  F(BC7_UNORM,             16, 4, 4, BC7_TYPELESS, C),
  F(BC7_UNORM_SRGB,        16, 4, 4, BC7_TYPELESS, C | G),
  F(AYUV,                   4, 1, 1, AYUV, V),
  F(Y410,                   4, 1, 1, Y410, V),
  F(Y416,                   8, 1, 1, Y416, V),
  PL(NV12,                  1, 2, 2, 3, 2, 2),
  PL(P010,                  2, 2, 2, 3, 2, 2),
  PL(P016,                  2, 2, 2, 3, 2, 2),
  PL(420_OPAQUE,            1, 2, 2, 3, 2, 2),
  F(YUY2,                   4, 2, 1, YUY2, K | V),
  F(Y210,                   8, 2, 1, Y210, K | V),
  F(Y216,                   8, 2, 1, Y216, K | V),
  PL(NV11,                  1, 4, 1, 2, 1, 2),
  F(AI44,                   1, 1, 1, AI44, V),
  F(IA44,                   1, 1, 1, IA44, V),
  F(P8,                     1, 1, 1, P8, V),
  F(A8P8,                   2, 1, 1, A8P8, V),
  F(B4G4R4A4_UNORM,         2, 1, 1, B4G4R4A4_UNORM, R),
  PL(P208,                  1, 2, 1, 2, 1, 2),
  PL(V208,                  1, 1, 2, 2, 1, 3),
  PL(V408,                  1, 1, 1, 3, 1, 3),
  FormatInfo{DXGI_FORMAT(189), "SAMPLER_FEEDBACK_MIN_MIP_OPAQUE", 0, 1, 1, 1, 1, 1,
             DXGI_FORMAT_UNKNOWN, X12 | T},
  FormatInfo{DXGI_FORMAT(190), "SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE", 0, 1, 1, 1, 1, 1,
             DXGI_FORMAT_UNKNOWN, X12 | T},
  FormatInfo{DXGI_FORMAT(191), "A4B4G4R4_UNORM", 2, 1, 1, 1, 1, 1, DXGI_FORMAT(191), R},
};

#undef F
#undef PL

constexpr bool tableIsSorted() {
  for (size_t i = 1; i < std::size(kFormats); i++) {
    if (kFormats[i - 1].format >= kFormats[i].format) return false;
  }
  return true;
}
static_assert(tableIsSorted(), "format table must be sorted and free of duplicates");

}  // namespace

const FormatInfo* lookupFormat(uint32_t format) {
  // Binary search: the table is sorted (checked above) and small.
  size_t lo = 0, hi = std::size(kFormats);
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    uint32_t value = uint32_t(kFormats[mid].format);
    if (value == format) return &kFormats[mid];
    if (value < format) lo = mid + 1;
    else hi = mid;
  }
  return nullptr;
}

const FormatInfo* lookupFormat(DXGI_FORMAT format) {
  return lookupFormat(uint32_t(format));
}

const FormatInfo* formatTableBegin() { return std::begin(kFormats); }
const FormatInfo* formatTableEnd() { return std::end(kFormats); }

bool formatsShareFamily(DXGI_FORMAT a, DXGI_FORMAT b) {
  if (a == b) return true;
  const FormatInfo* fa = lookupFormat(a);
  const FormatInfo* fb = lookupFormat(b);
  if (!fa || !fb) return false;
  return fa->family != DXGI_FORMAT_UNKNOWN && fa->family == fb->family;
}

bool formatsCopyCompatible(DXGI_FORMAT a, DXGI_FORMAT b) {
  if (formatsShareFamily(a, b)) return true;
  const FormatInfo* fa = lookupFormat(a);
  const FormatInfo* fb = lookupFormat(b);
  if (!fa || !fb) return false;
  if (fa->is(FormatCompressed) == fb->is(FormatCompressed)) return false;
  const FormatInfo* plain = fa->is(FormatCompressed) ? fb : fa;
  const FormatInfo* compressed = fa->is(FormatCompressed) ? fa : fb;
  // Only plain 1x1 colour formats reinterpret as blocks.
  if (plain->blockWidth != 1 || plain->blockHeight != 1 || plain->is(FormatDepth) ||
      plain->is(FormatVideo))
    return false;
  return plain->blockBytes == compressed->blockBytes;
}

}  // namespace npt::validation
