// SPDX-License-Identifier: MIT
#include "checksum.h"

namespace npt::samples {

  uint64_t fnv1a64(const void* data, size_t size, uint64_t hash) {
    auto bytes = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; i++) {
      hash ^= bytes[i];
      hash *= 0x100000001b3ull;
    }
    return hash;
  }

}
