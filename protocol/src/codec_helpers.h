#pragma once

// Small wire helpers the generated codec uses; kept by hand so the generated
// file stays a flat list of per-type functions.

#include <cstring>

#include "npt/protocol/decoder.h"
#include "npt/protocol/writer.h"
#include "npt_types.h"

namespace npt::protocol {

  inline uint64_t bitsOf64(double v) { uint64_t b; std::memcpy(&b, &v, 8); return b; }
  inline double   doubleOf64(uint64_t b) { double v; std::memcpy(&v, &b, 8); return v; }

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
