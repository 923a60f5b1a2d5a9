// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "wire.h"

namespace npt::protocol {

  // Fixed-capacity bump allocator for decoded arrays and structs of one
  // command; reset before each command. Exhaustion is a quota error, never
  // an unbounded allocation.
  class ScratchArena {
  public:
    explicit ScratchArena(size_t capacity) : m_storage(new uint8_t[capacity]), m_capacity(capacity) { }

    void  reset() { m_used = 0; }
    NPT_INLINE void* alloc(size_t bytes, size_t align = 8) {
      size_t start = (m_used + align - 1) & ~(align - 1);
      if (start > m_capacity || bytes > m_capacity - start)
        return nullptr;
      m_used = start + bytes;
      return m_storage.get() + start;
    }
    template<typename T> NPT_INLINE T* allocArray(size_t n) {
      if (n > SIZE_MAX / sizeof(T)) return nullptr;
      return static_cast<T*>(alloc(n ? n * sizeof(T) : 1, alignof(T)));
    }

  private:
    std::unique_ptr<uint8_t[]> m_storage;
    size_t                     m_capacity;
    size_t                     m_used = 0;
  };

}
