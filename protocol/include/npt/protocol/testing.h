// SPDX-License-Identifier: MIT
#pragma once

// Test support for generated round-trip tests: deterministic non-trivial
// values and a canonical text form of decoded arguments.

#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "wire.h"
#include "npt_types.h"

namespace npt::protocol {

  class Filler {
  public:
    explicit Filler(uint32_t seed, bool nulls = false) : m_state(seed * 2654435761u + 12345u), m_nulls(nulls) { }

    bool     nulls() const { return m_nulls; }
    uint32_t next() { m_state = m_state * 1664525u + 1013904223u; return m_state; }
    // Arrays are exercised at their registry bound.
    uint32_t count(uint32_t max) { return max; }

    template<typename T> void scalar(T& v) {
      if constexpr (std::is_floating_point_v<T>) v = T(int32_t(next() % 20000) - 10000) / T(8);
      else if constexpr (std::is_pointer_v<T>) v = reinterpret_cast<T>(uintptr_t(next()) << 4 | 0x1000);
      else if constexpr (std::is_enum_v<T>) v = T(next() % 1000 + 1);
      else if constexpr (std::is_same_v<T, wchar_t> || std::is_same_v<T, char16_t>) v = T('A' + next() % 26);
      else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) v = T((uint64_t(next()) << 32) | next());
      else if constexpr (std::is_integral_v<T>) v = T(next() | 1);
      else if constexpr (std::is_same_v<T, LARGE_INTEGER>) v.QuadPart = int64_t((uint64_t(next()) << 32) | next());
      else if constexpr (std::is_same_v<T, GUID>) { for (auto* p = reinterpret_cast<uint8_t*>(&v); p != reinterpret_cast<uint8_t*>(&v + 1); p++) *p = uint8_t(next()); }
      else static_assert(sizeof(T) == 0, "no filler");
    }

    template<typename T> void enumValue(T& v, uint32_t max) { v = T(next() % (uint64_t(max) + 1)); }

    template<typename T> T* keepArray(size_t n) {
      m_store.emplace_back((n ? n : 1) * sizeof(T) + 16, 0);
      return reinterpret_cast<T*>(m_store.back().data());
    }

    const char* string8() {
      std::string s = "SEMANTIC" + std::to_string(next() % 100);
      m_store.emplace_back(s.begin(), s.end());
      m_store.back().push_back(0);
      return reinterpret_cast<const char*>(m_store.back().data());
    }

  private:
    uint32_t                         m_state;
    bool                             m_nulls;
    std::deque<std::vector<uint8_t>> m_store;
  };

  inline void canonInt(std::string& s, uint64_t v) { char b[24]; std::snprintf(b, sizeof b, "%llx", (unsigned long long)v); s += b; }
  inline void canonFloat(std::string& s, float v) { uint32_t b; std::memcpy(&b, &v, 4); canonInt(s, b); s += 'f'; }
  inline void canonBytes(std::string& s, const void* p, size_t n) {
    static const char* hex = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) { uint8_t c = static_cast<const uint8_t*>(p)[i]; s += hex[c >> 4]; s += hex[c & 15]; }
  }
  inline void canonString(std::string& s, const char* v) { if (!v) s += "null"; else { s += '"'; s += v; s += '"'; } }
  template<typename C> void canonString(std::string& s, const C* v) {
    if (!v) { s += "null"; return; }
    s += "u\"";
    for (size_t i = 0; v[i]; i++) canonInt(s, uint16_t(v[i])), s += ' ';
    s += '"';
  }
  inline void canonPayload(std::string& s, const Payload& p) {
    if (p.isNull) { s += "null"; return; }
    if (p.isBulk) { s += "bulk("; canonInt(s, p.bulk.region); s += ','; canonInt(s, p.bulk.offset); s += ','; canonInt(s, p.bulk.size); s += ')'; return; }
    s += "inline("; canonBytes(s, p.data, p.size); s += ')';
  }

}
