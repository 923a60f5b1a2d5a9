// SPDX-License-Identifier: MIT
#include "image.h"
#include "checksum.h"

#include <unordered_set>

namespace npt::samples {

  uint64_t Image::checksum() const {
    return fnv1a64(bytes(), byteSize());
  }

  uint32_t Image::distinctColours(uint32_t limit) const {
    std::unordered_set<uint32_t> seen;
    for (const Rgba8& p : m_pixels) {
      seen.insert(uint32_t(p.r) | uint32_t(p.g) << 8 | uint32_t(p.b) << 16 | uint32_t(p.a) << 24);
      if (seen.size() >= limit)
        break;
    }
    return uint32_t(seen.size());
  }

}
