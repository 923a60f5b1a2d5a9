// SPDX-License-Identifier: MIT
#pragma once

// Little-endian loads/stores on byte buffers; callers check bounds first.

#include <cstdint>
#include <cstring>
#include <vector>

namespace dxbc {

inline uint32_t loadLE32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) |
         (uint32_t(p[3]) << 24);
}

inline void storeLE32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v);
  p[1] = uint8_t(v >> 8);
  p[2] = uint8_t(v >> 16);
  p[3] = uint8_t(v >> 24);
}

inline void appendLE32(std::vector<uint8_t>& out, uint32_t v) {
  size_t at = out.size();
  out.resize(at + 4);
  storeLE32(out.data() + at, v);
}

}  // namespace dxbc
