// SPDX-License-Identifier: MIT
#include "npt/validation/size_math.h"

namespace npt::validation {

bool mipFootprint(const FormatInfo& format, uint32_t width, uint32_t height, uint64_t& rowBytes,
                  uint64_t& rows) {
  if (!format.blockBytes || !format.blockWidth || !format.blockHeight) return false;
  const uint64_t blocksWide = divideRoundUp(width, format.blockWidth);
  if (format.is(FormatPlanar)) {
    // blockBytes is per luma sample; the block only records the chroma subsampling.
    if (!checkedMul(blocksWide * format.blockWidth, format.blockBytes, rowBytes)) return false;
    // Luma rows plus the chroma planes' rows, which share the pitch: NV12 has
    // height + height/2 rows of `width` bytes.
    const uint64_t evenHeight = divideRoundUp(height, format.blockHeight) * format.blockHeight;
    rows = evenHeight * format.planeRowsNum / format.planeRowsDen;
    return true;
  }
  if (!checkedMul(blocksWide, format.blockBytes, rowBytes)) return false;
  rows = divideRoundUp(height, format.blockHeight);
  return true;
}

bool readExtent(uint64_t rowBytes, uint64_t rows, uint64_t slices, uint64_t rowPitch,
                uint64_t slicePitch, uint64_t& extent) {
  if (rows == 0 || slices == 0) {
    extent = 0;
    return true;
  }
  uint64_t sliceOffset = 0, rowOffset = 0;
  if (!checkedMul(slices - 1, slicePitch, sliceOffset)) return false;
  if (!checkedMul(rows - 1, rowPitch, rowOffset)) return false;
  uint64_t sum = 0;
  return checkedAdd(sliceOffset, rowOffset, sum) && checkedAdd(sum, rowBytes, extent);
}

}  // namespace npt::validation
