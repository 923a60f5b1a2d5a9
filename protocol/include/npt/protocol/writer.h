#pragma once

#include <cstring>

#include "wire.h"

namespace npt::protocol {

  // Appends commands to a caller-owned byte span. Overflow is sticky: once a
  // command does not fit, ok() is false and the caller flushes and retries.
  class CommandWriter {
  public:
    CommandWriter(void* data, size_t capacity)
    : m_data(static_cast<uint8_t*>(data)), m_capacity(capacity & ~size_t(3)) { }

    bool   ok() const { return m_ok; }
    size_t size() const { return m_size; }
    void   clear() { m_size = 0; m_ok = true; m_selected = 0; }
    void   fail() { m_ok = false; }

    // The object later commands apply to; elided when unchanged.
    NPT_INLINE void select(ObjectId self) {
      if (self == m_selected) [[likely]]
        return;
      if (uint8_t* p = reserve(8)) {
        uint32_t words[2] = { packHeader(OpSelectObject, 2), self };
        std::memcpy(p, words, 8);
      }
      m_selected = self;
    }

    // One whole command of `bytes` (header included, a multiple of 4): where to
    // write it, or nullptr when it does not fit (ok() turns false, sticky).
    // Generated encoders that know their size up front write through it unchecked.
    NPT_INLINE uint8_t* reserve(size_t bytes) {
      if (!m_ok || bytes > m_capacity - m_size) [[unlikely]] { m_ok = false; return nullptr; }
      uint8_t* p = m_data + m_size;
      m_size += bytes;
      return p;
    }
    void forgetSelection() { m_selected = 0; }

    void begin(uint16_t opcode) { m_start = m_size; m_opcode = opcode; u32(0); }
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    inline bool end() {
      size_t words = (m_size - m_start) / 4;
      if (!m_ok || words > 0xffff) { m_ok = false; return false; }
      uint32_t h = packHeader(m_opcode, uint16_t(words));
      std::memcpy(m_data + m_start, &h, 4);
      return true;
    }

    void u32(uint32_t v) { fixed<4>(&v); }
    void u64(uint64_t v) { fixed<8>(&v); }
    void f32(float v) { fixed<4>(&v); }
    void bytes(const void* p, size_t n) {
      put(p, n);
      static const uint8_t zero[4] = { };
      if (n & 3) put(zero, 4 - (n & 3));
    }
    void payload(const Payload& p) {
      if (p.isNull) { u32(kPayloadNullTag); return; }
      if (p.isBulk) { u32(kPayloadBulkTag); u32(p.bulk.region); u32(p.bulk.offset); u32(p.bulk.size); return; }
      if (p.size >= kPayloadBulkTag || (p.size && !p.data)) { m_ok = false; return; }
      u32(p.size);
      bytes(p.data, p.size);
    }

  private:
    // Fixed-size stores compile to one compare and one move; a failed write
    // leaves m_ok false, which end() reports.
    template<size_t N>
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    inline void fixed(const void* p) {
      if (N > m_capacity - m_size) [[unlikely]] { m_ok = false; return; }
      std::memcpy(m_data + m_size, p, N);
      m_size += N;
    }

    void put(const void* p, size_t n) {
      if (!m_ok || n > m_capacity - m_size) { m_ok = false; return; }
      std::memcpy(m_data + m_size, p, n);
      m_size += n;
    }

    uint8_t* m_data;
    size_t   m_capacity;
    size_t   m_size = 0;
    size_t   m_start = 0;
    uint16_t m_opcode = 0;
    bool     m_ok = true;
    ObjectId m_selected = 0;
  };

}
