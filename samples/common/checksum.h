// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

namespace npt::samples {

  // FNV-1a 64: trivial to reimplement in any comparison tool, and the image
  // is hashed as tightly packed RGBA8 rows so row pitch never leaks in.
  constexpr uint64_t Fnv1a64Seed = 0xcbf29ce484222325ull;

  uint64_t fnv1a64(const void* data, size_t size, uint64_t hash = Fnv1a64Seed);

}
