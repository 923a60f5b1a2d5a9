// SPDX-License-Identifier: MIT
#pragma once

#include <cstring>

#include "wire.h"

namespace npt::protocol {

  // Bounds-checked reads over one command's arguments (already copied out of
  // shared memory). The first failure is sticky; later reads return zeroes.
  class CommandReader {
  public:
    CommandReader(const uint8_t* data, size_t size) : m_data(data), m_size(size) { }

    ErrorCode error() const { return m_error; }
    bool      ok() const { return m_error == ErrorCode::Ok; }
    bool      atEnd() const { return ok() && m_pos == m_size; }
    size_t    remaining() const { return m_size - m_pos; }
    void      fail(ErrorCode code) { if (m_error == ErrorCode::Ok) m_error = code; m_pos = m_size; }

    // Hot path: one compare per read; after a failure m_size == m_pos keeps
    // every later read failing without touching memory.
    NPT_INLINE uint32_t u32() { uint32_t v = 0; get(&v, 4); return v; }
    NPT_INLINE uint64_t u64() { uint64_t v = 0; get(&v, 8); return v; }
    NPT_INLINE float f32() { float v = 0; get(&v, 4); return v; }
    // Enum values beyond the enum's value range would be undefined behaviour
    // once converted; they end the stream instead.
    NPT_INLINE uint32_t enumValue(uint32_t max) { uint32_t v = u32(); if (v > max) [[unlikely]] { fail(ErrorCode::BadEnum); return 0; } return v; }
    // Where Windows answers E_INVALIDARG for a bad value (desc fields, parameters), an
    // out-of-range value becomes `invalid`, an in-range value naming no enumerator, which
    // validation refuses like the original.
    NPT_INLINE uint32_t enumOrInvalid(uint32_t max, uint32_t invalid) { uint32_t v = u32(); return v > max ? invalid : v; }

    // n bytes plus padding to 4; returns a pointer into the command copy.
    const uint8_t* bytes(size_t n) {
      size_t padded = (n + 3) & ~size_t(3);
      if (!ok() || padded < n || padded > remaining()) { fail(ErrorCode::Truncated); return nullptr; }
      const uint8_t* p = m_data + m_pos;
      m_pos += padded;
      return p;
    }

    // Callers check counts against this before allocating: no count can make
    // the decoder allocate more than the command itself could describe.
    bool canHold(uint64_t count, uint64_t wireBytesPerElement) {
      if (count * wireBytesPerElement > remaining()) { fail(ErrorCode::Truncated); return false; }
      return true;
    }

    Payload payload(uint32_t maxSize) {
      Payload p;
      uint32_t tag = u32();
      if (!ok() || tag == kPayloadNullTag)
        return p;
      p.isNull = false;
      if (tag == kPayloadBulkTag) {
        p.isBulk = true;
        p.bulk.region = u32(); p.bulk.offset = u32(); p.bulk.size = u32();
        p.size = p.bulk.size;
      } else {
        p.size = tag;
        p.data = bytes(tag);
      }
      if (ok() && p.size > maxSize) fail(ErrorCode::BadPayload);
      return p;
    }

  private:
    NPT_INLINE void get(void* out, size_t n) {
      if (n > m_size - m_pos) [[unlikely]] { truncate(); return; }
      std::memcpy(out, m_data + m_pos, n);
      m_pos += n;
    }
    void truncate() { fail(ErrorCode::Truncated); m_pos = m_size; }

    const uint8_t* m_data;
    size_t         m_size;
    size_t         m_pos = 0;
    ErrorCode      m_error = ErrorCode::Ok;
  };

}
