// SPDX-License-Identifier: MIT
#include "formats.h"

#include <cstring>

#include "npt/validation/format_table.h"

namespace npt::guest {

FormatLayout formatLayout(DXGI_FORMAT format) {
  // The rules' format table (rules/), the one the host computes footprints with.
  const validation::FormatInfo* info = validation::lookupFormat(format);
  FormatLayout layout;
  if (!info || info->is(validation::FormatPlanar))
    return layout;
  layout.blockWidth = info->blockWidth;
  layout.blockHeight = info->blockHeight;
  layout.bytesPerBlock = info->blockBytes;
  return layout;
}

SubresourceFootprint footprint(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t depth) {
  FormatLayout l = formatLayout(format);
  SubresourceFootprint f;
  if (!l.bytesPerBlock)
    return f;
  uint32_t blocksWide = (width + l.blockWidth - 1) / l.blockWidth;
  f.rows = (height + l.blockHeight - 1) / l.blockHeight;
  f.rowPitch = blocksWide * l.bytesPerBlock;
  f.depthPitch = f.rowPitch * f.rows;
  f.depth = depth;
  return f;
}

uint64_t sourceSpan(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t depth,
                    uint32_t rowPitch, uint32_t depthPitch) {
  SubresourceFootprint f = footprint(format, width, height, depth);
  if (!f.rowPitch || !f.rows || !depth)
    return 0;
  return uint64_t(depth - 1) * depthPitch + uint64_t(f.rows - 1) * rowPitch + f.rowPitch;
}

void copyRows(uint8_t* dst, uint32_t dstRowPitch, uint32_t dstDepthPitch,
              const uint8_t* src, uint32_t srcRowPitch, uint32_t srcDepthPitch,
              uint32_t rowBytes, uint32_t rows, uint32_t depth) {
  for (uint32_t z = 0; z < depth; z++)
    for (uint32_t y = 0; y < rows; y++)
      std::memcpy(dst + size_t(z) * dstDepthPitch + size_t(y) * dstRowPitch,
                  src + size_t(z) * srcDepthPitch + size_t(y) * srcRowPitch, rowBytes);
}

}
