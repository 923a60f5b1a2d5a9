// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <d3d11_4.h>

// Memory layout of DXGI formats (the rules' format table, rules/), for the footprints the guest computes itself:
// initial data and UpdateSubresource sizes, Map pitches of guest-staged dynamic
// textures. Planar video formats are not described (bytesPerBlock 0).
namespace npt::guest {

struct FormatLayout {
  uint32_t blockWidth = 1;
  uint32_t blockHeight = 1;
  uint32_t bytesPerBlock = 0;   // 0: unknown or planar
};

FormatLayout formatLayout(DXGI_FORMAT format);

// Tight layout of one subresource of width x height x depth texels.
struct SubresourceFootprint {
  uint32_t rowPitch = 0;     // bytes of one row of blocks
  uint32_t rows = 0;         // rows of blocks
  uint32_t depthPitch = 0;   // rowPitch * rows
  uint32_t depth = 0;
  uint64_t size() const { return uint64_t(depthPitch) * depth; }
};

SubresourceFootprint footprint(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t depth);

// Bytes an application's source of a box (in texels) spans with the given pitches:
// the last row of the last slice is counted only up to its end.
uint64_t sourceSpan(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t depth,
                    uint32_t rowPitch, uint32_t depthPitch);

// Copies a box of rows between two pitched layouts.
void copyRows(uint8_t* dst, uint32_t dstRowPitch, uint32_t dstDepthPitch,
              const uint8_t* src, uint32_t srcRowPitch, uint32_t srcDepthPitch,
              uint32_t rowBytes, uint32_t rows, uint32_t depth);

inline uint32_t mipExtent(uint32_t extent, uint32_t level) {
  uint32_t e = extent >> level;
  return e ? e : 1;
}

}
