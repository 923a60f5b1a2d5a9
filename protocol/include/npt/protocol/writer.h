// SPDX-License-Identifier: MIT
#pragma once

#include <cstring>

#include "wire.h"

namespace npt::protocol {

  // Appends commands to a caller-owned byte span. Overflow is sticky: once a
  // command does not fit, ok() is false and the caller flushes and retries.
  class CommandWriter {
  public:
    CommandWriter(void* data, size_t capacity)
    : m_data(static_cast<uint8_t*>(data)), m_cursor(m_data), m_end(m_data + (capacity & ~size_t(3))),
      m_limit(m_end) { }

    bool   ok() const { return m_ok; }
    size_t size() const { return size_t(m_cursor - m_data); }
    void   clear() { m_cursor = m_data; m_end = m_limit; m_ok = true; m_selected = 0; }
    // Sticky: the end shrinks to the cursor, so every later reserve fails too.
    void   fail() { m_ok = false; m_end = m_cursor; }

    // The object later commands apply to; elided when unchanged.
    NPT_INLINE void select(ObjectId self) {
      if (self == m_selected) [[likely]]
        return;
      if (uint8_t* p; reserve(8, p)) {
        uint32_t words[2] = { packHeader(OpSelectObject, 2), self };
        std::memcpy(p, words, 8);
      }
      m_selected = self;
    }

    // One whole command of `bytes` (header included, a multiple of 4): where to
    // write it, or nullptr when it does not fit (ok() turns false, sticky).
    // Generated encoders that know their size up front write through it unchecked.
    NPT_INLINE uint8_t* reserve(size_t bytes) {
      uint8_t* p = nullptr;
      return reserve(bytes, p) ? p : nullptr;
    }
    // The same as a success flag, so that the caller tests one condition, not the
    // flag and then the pointer.
    NPT_INLINE bool reserve(size_t bytes, uint8_t*& p) {
      if (bytes > size_t(m_end - m_cursor)) [[unlikely]] { fail(); return false; }
      p = m_cursor;
      m_cursor += bytes;
      return true;
    }
    void forgetSelection() { m_selected = 0; }

    void begin(uint16_t opcode) { m_start = m_cursor; m_opcode = opcode; u32(0); }
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    inline bool end() {
      size_t words = size_t(m_cursor - m_start) / 4;
      if (!m_ok || words > 0xffff) { fail(); return false; }
      uint32_t h = packHeader(m_opcode, uint16_t(words));
      std::memcpy(m_start, &h, 4);
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
      if (p.size >= kPayloadBulkTag || (p.size && !p.data)) { fail(); return; }
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
      if (N > size_t(m_end - m_cursor)) [[unlikely]] { fail(); return; }
      std::memcpy(m_cursor, p, N);
      m_cursor += N;
    }

    void put(const void* p, size_t n) {
      if (n > size_t(m_end - m_cursor)) { fail(); return; }
      std::memcpy(m_cursor, p, n);
      m_cursor += n;
    }

    // Positions are pointers, not a size: the generated encoders store words
    // through typed stores (codec_helpers.h), which cannot alias these members,
    // so the compiler keeps the cursor in a register from one encoder to the next.
    uint8_t* m_data;
    uint8_t* m_cursor;
    uint8_t* m_end;      // m_limit, or m_cursor once a write failed
    uint8_t* m_limit;
    uint8_t* m_start = nullptr;
    uint16_t m_opcode = 0;
    bool     m_ok = true;
    // Wider than an ObjectId on purpose: the encoders' 4-byte stores cannot alias it,
    // so the compiler need not reload it after every command.
    uint64_t m_selected = 0;
  };

}
