#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "neptune/transport/handshake.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/status.h"

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

// What the Linux and the Windows server check of a Hello before allocating
// anything for the guest; nothing when it may go on. `token` is null where the
// connection needs none (a UNIX socket is guarded by its file mode).
inline std::optional<transport::ConnectError> check_hello(const transport::Hello& hello,
                                                          const std::string* token,
                                                          size_t contexts, size_t max_contexts) {
  using transport::ConnectError;
  if (hello.magic != transport::kHelloMagic) return ConnectError::BadMagic;
  if (transport::negotiate_version(hello) == 0) return ConnectError::BadVersion;
  if (token && !tokens_equal(hello.token, *token)) return ConnectError::BadToken;
  if (hello.flags & transport::kHelloRequirementMask & ~transport::kHelloKnownRequirements)
    return ConnectError::UnsupportedFeature;
  if (contexts >= max_contexts) return ConnectError::TooManyContexts;
  return std::nullopt;
}

// The text a refused guest gets: the code's name, and for a version or feature
// refusal what each side has, so that the mismatch can be read from the guest's log.
inline std::string hello_refusal_message(const transport::Hello& hello, transport::ConnectError error) {
  using transport::ConnectError;
  char text[256];
  if (error == ConnectError::BadVersion) {
    std::snprintf(text, sizeof(text), "%s: the guest speaks transport versions %u..%u, this server %u..%u",
                  transport::connect_error_name(error), hello.min_version ? hello.min_version : hello.version,
                  hello.version, transport::kMinVersion, transport::kVersion);
  } else if (error == ConnectError::UnsupportedFeature) {
    std::snprintf(text, sizeof(text), "%s: required flags 0x%08x", transport::connect_error_name(error),
                  hello.flags & transport::kHelloRequirementMask & ~transport::kHelloKnownRequirements);
  } else {
    std::snprintf(text, sizeof(text), "%s", transport::connect_error_name(error));
  }
  return text;
}

}  // namespace npt::server
