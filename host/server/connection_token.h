#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace npt::server {

// Compares a guest's handshake token with the server's in constant time: over
// TCP the token is all that keeps other local users off the port.
inline bool tokens_equal(const char* offered, const std::string& expected) {
  size_t n = strnlen(offered, 64);
  uint8_t diff = n != expected.size();
  for (size_t i = 0; i < expected.size(); i++)
    diff |= uint8_t(i < n ? offered[i] : 0) ^ uint8_t(expected[i]);
  return diff == 0;
}

}  // namespace npt::server
