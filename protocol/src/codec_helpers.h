// SPDX-License-Identifier: MIT
#pragma once

// Small wire helpers the generated codec uses; kept by hand so the generated
// file stays a flat list of per-type functions.

#include <bit>
#include <cstring>

#include "npt/protocol/decoder.h"
#include "npt/protocol/writer.h"
#include "npt_types.h"

namespace npt::protocol {

  inline uint64_t bitsOf64(double v) { uint64_t b; std::memcpy(&b, &v, 8); return b; }
  inline double   doubleOf64(uint64_t b) { double v; std::memcpy(&v, &b, 8); return v; }

  // Unchecked word access for the straight-line codecs (generator/fast.py): the
  // caller has reserved (encode) or length-checked (decode) the bytes.
  // The encoders' stores are typed (a 4-byte integer at any alignment), not memcpy
  // into bytes: a byte store may alias the writer's own members, which would make the
  // compiler reload its cursor after every word.
#if defined(__GNUC__)
  typedef uint32_t UnalignedWord32 __attribute__((aligned(1)));
  typedef uint64_t UnalignedWord64 __attribute__((aligned(1)));
  NPT_INLINE uint8_t* putw32(uint8_t* p, uint32_t v) { *reinterpret_cast<UnalignedWord32*>(p) = v; return p + 4; }
  NPT_INLINE uint8_t* putw64(uint8_t* p, uint64_t v) { *reinterpret_cast<UnalignedWord64*>(p) = v; return p + 8; }
#else
  NPT_INLINE uint8_t* putw32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); return p + 4; }
  NPT_INLINE uint8_t* putw64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); return p + 8; }
#endif
  NPT_INLINE uint8_t* putwf32(uint8_t* p, float v) { uint32_t b; std::memcpy(&b, &v, 4); return putw32(p, b); }
  NPT_INLINE uint32_t getw32(const uint8_t* p) { uint32_t v; std::memcpy(&v, p, 4); return v; }
  NPT_INLINE uint64_t getw64(const uint8_t* p) { uint64_t v; std::memcpy(&v, p, 8); return v; }
  NPT_INLINE float    getwf32(const uint8_t* p) { float v; std::memcpy(&v, p, 4); return v; }

  // Payloads (README 3.6) in the straight-line codecs.
  NPT_INLINE bool payloadEncodable(const Payload& p) {
    return p.isNull || p.isBulk || (p.size < kPayloadBulkTag && (p.data || !p.size));
  }
  NPT_INLINE size_t payloadWireBytes(const Payload& p) {
    return p.isNull ? 4 : p.isBulk ? 16 : 4 + ((size_t(p.size) + 3) & ~size_t(3));
  }
  NPT_INLINE uint8_t* putwPayload(uint8_t* p, const Payload& pl) {
    if (pl.isNull) return putw32(p, kPayloadNullTag);
    if (pl.isBulk) {
      p = putw32(p, kPayloadBulkTag);
      p = putw32(p, pl.bulk.region);
      p = putw32(p, pl.bulk.offset);
      return putw32(p, pl.bulk.size);
    }
    p = putw32(p, pl.size);
    if (pl.size) std::memcpy(p, pl.data, pl.size);
    size_t padded = (size_t(pl.size) + 3) & ~size_t(3);
    if (padded != pl.size) std::memset(p + pl.size, 0, padded - pl.size);
    return p + padded;
  }
  // Reads a payload at p with `left` bytes remaining; advances both.
  // Every field is stored once, as a scalar: `out = Payload()` followed by field
  // updates made GCC copy a default temporary with 16-byte loads across the byte
  // stores of the flags, a store-forwarding stall that cost UpdateSubresource a
  // quarter of the frame benchmark's decode time.
  NPT_INLINE ErrorCode getwPayload(const uint8_t*& p, size_t& left, uint32_t maxSize, Payload& out) {
    if (left < 4) return ErrorCode::Truncated;
    uint32_t tag = getw32(p);
    p += 4; left -= 4;
    out.bulk.region = 0; out.bulk.offset = 0; out.bulk.size = 0;
    if (tag == kPayloadNullTag) {
      out.data = nullptr; out.size = 0; out.isBulk = false; out.isNull = true;
      return ErrorCode::Ok;
    }
    out.isNull = false;
    if (tag == kPayloadBulkTag) {
      if (left < 12) return ErrorCode::Truncated;
      out.data = nullptr;
      out.isBulk = true;
      out.bulk.region = getw32(p); out.bulk.offset = getw32(p + 4); out.bulk.size = getw32(p + 8);
      out.size = out.bulk.size;
      p += 12; left -= 12;
    } else {
      size_t padded = (size_t(tag) + 3) & ~size_t(3);
      if (padded > left) return ErrorCode::Truncated;
      out.isBulk = false;
      out.size = tag;
      out.data = p;
      p += padded; left -= padded;
    }
    return out.size > maxSize ? ErrorCode::BadPayload : ErrorCode::Ok;
  }

  // An array of 4-byte elements at p whose wire form is their memory form (ids,
  // UINT/INT/FLOAT), used where it lies: the decoder's bytes are private (reading them
  // in place is still reading them once), and decodeCommands only runs on a 4-byte
  // aligned batch, in which every argument is 4-byte aligned (README section 3).
  static_assert(std::endian::native == std::endian::little, "the wire is little-endian");
  template<typename T>
  NPT_INLINE const T* wordArray(const uint8_t* p) {
    static_assert(sizeof(T) == 4 && alignof(T) <= 4);
    return reinterpret_cast<const T*>(p);
  }

  // 16-bit units packed two per word. WCHAR is 2 bytes on Windows and
  // wchar_t (4 bytes) in native builds; the wire always carries UTF-16 units.
  template<typename C>
  void putPacked16(CommandWriter& w, const C* src, size_t n) {
    uint16_t tmp[64];
    while (n) {
      size_t k = n < 64 ? n : 64;
      for (size_t i = 0; i < k; i++) tmp[i] = uint16_t(src[i]);
      w.bytes(tmp, k * 2);  // pads only the last chunk (k*2 is a multiple of 4 otherwise)
      src += k; n -= k;
    }
  }

  template<typename C>
  void getPacked16(CommandReader& r, C* dst, size_t n) {
    while (n) {
      size_t k = n < 64 ? n : 64;
      const uint8_t* p = r.bytes(k * 2);
      if (!p) return;
      for (size_t i = 0; i < k; i++) { uint16_t u; std::memcpy(&u, p + 2 * i, 2); dst[i] = C(u); }
      dst += k; n -= k;
    }
  }

  inline void putString8(CommandWriter& w, const char* s) {
    if (!s) { w.u32(kNullStringTag); return; }
    size_t n = std::strlen(s);
    if (n >= kNullStringTag) { w.fail(); return; }
    w.u32(uint32_t(n));
    w.bytes(s, n);
  }

  template<typename C>
  void putString16(CommandWriter& w, const C* s) {
    if (!s) { w.u32(kNullStringTag); return; }
    size_t n = 0;
    while (s[n]) n++;
    w.u32(uint32_t(n));
    putPacked16(w, s, n);
  }

  // Strings are copied into the arena with a terminator; NUL inside is an error.
  inline const char* getString8(CommandReader& r, DecodeContext& c, uint32_t maxLen, bool optional) {
    uint32_t n = r.u32();
    if (!r.ok()) return nullptr;
    if (n == kNullStringTag) {
      if (!optional) r.fail(ErrorCode::NullNotAllowed);
      return nullptr;
    }
    if (n > maxLen) { r.fail(ErrorCode::BadString); return nullptr; }
    const uint8_t* p = r.bytes(n);
    if (!p) return nullptr;
    if (std::memchr(p, 0, n)) { r.fail(ErrorCode::BadString); return nullptr; }
    char* s = c.arena.allocArray<char>(n + 1);
    if (!s) { r.fail(ErrorCode::QuotaExceeded); return nullptr; }
    std::memcpy(s, p, n);
    s[n] = 0;
    return s;
  }

  inline const WCHAR* getString16(CommandReader& r, DecodeContext& c, uint32_t maxLen, bool optional) {
    uint32_t n = r.u32();
    if (!r.ok()) return nullptr;
    if (n == kNullStringTag) {
      if (!optional) r.fail(ErrorCode::NullNotAllowed);
      return nullptr;
    }
    if (n > maxLen) { r.fail(ErrorCode::BadString); return nullptr; }
    WCHAR* s = c.arena.allocArray<WCHAR>(size_t(n) + 1);
    if (!s) { r.fail(ErrorCode::QuotaExceeded); return nullptr; }
    getPacked16(r, s, n);
    for (uint32_t i = 0; i < n && r.ok(); i++)
      if (!s[i]) { r.fail(ErrorCode::BadString); return nullptr; }
    s[n] = 0;
    return s;
  }

  // Reply decoding needs an arena only for records with pointers, which
  // replies never carry; a small per-thread context satisfies the signature.
  inline DecodeContext& replyContext() {
    static thread_local DecodeContext ctx(4096);
    ctx.arena.reset();
    return ctx;
  }

}
