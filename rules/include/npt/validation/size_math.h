// SPDX-License-Identifier: MIT
#pragma once

// Overflow-checked size arithmetic. Every size derived from guest values goes
// through these; a false return means "does not fit in 64 bits".

#include <cstdint>

#include "npt/validation/format_table.h"

namespace npt::validation {

inline bool checkedMul(uint64_t a, uint64_t b, uint64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

inline bool checkedAdd(uint64_t a, uint64_t b, uint64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

inline uint64_t divideRoundUp(uint64_t value, uint64_t divisor) {
  return value / divisor + (value % divisor ? 1 : 0);
}

// Bytes per row (of blocks) and number of block rows (all planes) of a width x height
// region of the format.
bool mipFootprint(const FormatInfo& format, uint32_t width, uint32_t height, uint64_t& rowBytes,
                  uint64_t& rows);

// Bytes a reader touches when it walks `slices` slices of `rows` rows of `rowBytes`
// with the given pitches: (slices-1)*slicePitch + (rows-1)*rowPitch + rowBytes.
bool readExtent(uint64_t rowBytes, uint64_t rows, uint64_t slices, uint64_t rowPitch,
                uint64_t slicePitch, uint64_t& extent);

}  // namespace npt::validation
