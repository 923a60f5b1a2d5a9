// SPDX-License-Identifier: MIT
#pragma once

// Static facts about every DXGI_FORMAT: memory layout (bytes per block, block size,
// planes) and the type family used for view/copy compatibility. Device-dependent
// support (CheckFormatSupport) is not here; it comes from the caps snapshot.

#include <cstdint>

#include "npt/d3d11_api.h"

namespace npt::validation {

enum FormatFlag : uint32_t {
  FormatTypeless   = 1u << 0,   // *_TYPELESS (also the partially typeless depth views)
  FormatDepth      = 1u << 1,   // D16, D24S8, D32, D32S8X24
  FormatStencil    = 1u << 2,
  FormatCompressed = 1u << 3,   // BC1..BC7: 4x4 blocks
  FormatPacked     = 1u << 4,   // 2x1 blocks: R8G8_B8G8, YUY2, Y210, ...
  FormatPlanar     = 1u << 5,   // NV12, P010, ...: several planes share the pitch
  FormatVideo      = 1u << 6,   // YUV and palette formats
  FormatSrgb       = 1u << 7,
  FormatVertex     = 1u << 8,   // usable in an input layout (D3D11 required IA formats)
  FormatD3D12Only  = 1u << 9,   // defined by DXGI but not creatable in D3D11
  FormatRenderable = 1u << 10,  // may be a render target (typed, colour, not video)
  FormatDepthView  = 1u << 11,  // the SRV formats of depth data (R24_UNORM_X8_TYPELESS...)
};

struct FormatInfo {
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
  const char* name = "UNKNOWN";
  uint8_t blockBytes = 0;        // bytes per block; for 1x1 blocks the element size
  uint8_t blockWidth = 1;
  uint8_t blockHeight = 1;
  // Planar formats: total rows of all planes = height * planeRowsNum / planeRowsDen,
  // with height rounded up to the chroma subsampling first.
  uint8_t planeRowsNum = 1;
  uint8_t planeRowsDen = 1;
  uint8_t planeCount = 1;
  DXGI_FORMAT family = DXGI_FORMAT_UNKNOWN;   // the *_TYPELESS format of its cast group
  uint32_t flags = 0;

  bool is(FormatFlag flag) const { return (flags & flag) != 0; }
};

// nullptr for values that are not DXGI formats (including DXGI_FORMAT_UNKNOWN).
const FormatInfo* lookupFormat(DXGI_FORMAT format);
const FormatInfo* lookupFormat(uint32_t format);

// Every known format, in numeric order (for tests and caps collection).
const FormatInfo* formatTableBegin();
const FormatInfo* formatTableEnd();

// Two formats may alias the same memory through views or CopyResource: identical, or
// both members of the same typeless family.
bool formatsShareFamily(DXGI_FORMAT a, DXGI_FORMAT b);

// CopySubresourceRegion's extra rule: a block-compressed format and an uncompressed one
// whose element size equals the block size (BC1 <-> R32G32_UINT, BC3 <-> R32G32B32A32...).
bool formatsCopyCompatible(DXGI_FORMAT a, DXGI_FORMAT b);

}  // namespace npt::validation
