// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "neptune/transport/handshake.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/socket.h"
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

// Reads a guest's Hello: the version-3 part, which every guest sends, then, from a guest of
// version 4 or more, the rest as long as the guest says it is (bytes this server does not
// know are read and dropped). False when the socket ends or stays silent for timeout_ms, or
// the size is out of bounds: the server closes the connection.
inline bool receive_hello(transport::Socket& conn, transport::Hello* hello, int timeout_ms) {
  using namespace transport;
  *hello = {};
  if (!conn.recv_all(hello, kHelloVersion3Bytes, timeout_ms))
    return false;
  if (hello->magic != kHelloMagic || hello->version < 4)
    return true;   // check_hello refuses it with its reason
  auto* bytes = reinterpret_cast<uint8_t*>(hello);
  if (!conn.recv_all(bytes + kHelloVersion3Bytes, sizeof(hello->hello_size), timeout_ms))
    return false;
  const size_t size = hello->hello_size;
  if (size < sizeof(Hello) || size > kHelloMaxBytes)
    return false;
  const size_t known = kHelloVersion3Bytes + sizeof(hello->hello_size);
  if (!conn.recv_all(bytes + known, sizeof(Hello) - known, timeout_ms))
    return false;
  uint8_t rest[256];
  for (size_t left = size - sizeof(Hello); left;) {
    const size_t n = left < sizeof(rest) ? left : sizeof(rest);
    if (!conn.recv_all(rest, n, timeout_ms))
      return false;
    left -= n;
  }
  return true;
}

// Whether a guest's commands can be decoded by a server whose own protocol is `server`
// (null: the server's dispatch decodes no D3D11 protocol, as `--dispatch diag|null`). The
// registry must be the same one: ids are pinned and never reused, but a guest generated
// from another registry may send opcodes, or encodings, the server does not know, and
// would lose its context at the first of them. A guest that announces nothing (major 0:
// transport tests and tools) is not checked.
inline bool protocol_compatible(const transport::Hello& hello, const transport::ProtocolIdentity* server) {
  if (!server || hello.protocol_major == 0)
    return true;
  return hello.protocol_major == server->major && hello.registry_hash == server->registry_hash;
}

// What the Linux and the Windows server check of a Hello before allocating
// anything for the guest; nothing when it may go on. `token` is null where the
// connection needs none (a UNIX socket is guarded by its file mode); `protocol` is the
// server's own (protocol_compatible).
inline std::optional<transport::ConnectError> check_hello(const transport::Hello& hello,
                                                          const std::string* token,
                                                          size_t contexts, size_t max_contexts,
                                                          const transport::ProtocolIdentity* protocol = nullptr) {
  using transport::ConnectError;
  if (hello.magic != transport::kHelloMagic) return ConnectError::BadMagic;
  if (transport::negotiate_version(hello) == 0) return ConnectError::BadVersion;
  if (token && !tokens_equal(hello.token, *token)) return ConnectError::BadToken;
  if (hello.flags & transport::kHelloRequirementMask & ~transport::kHelloKnownRequirements)
    return ConnectError::UnsupportedFeature;
  if (!protocol_compatible(hello, protocol)) return ConnectError::ProtocolMismatch;
  if (contexts >= max_contexts) return ConnectError::TooManyContexts;
  return std::nullopt;
}

// The text a refused guest gets: the code's name, and for a version or feature
// refusal what each side has, so that the mismatch can be read from the guest's log.
inline std::string hello_refusal_message(const transport::Hello& hello, transport::ConnectError error,
                                         const transport::ProtocolIdentity* protocol = nullptr) {
  using transport::ConnectError;
  char text[256];
  if (error == ConnectError::BadVersion) {
    std::snprintf(text, sizeof(text), "%s: the guest speaks transport versions %u..%u, this server %u..%u",
                  transport::connect_error_name(error), hello.min_version ? hello.min_version : hello.version,
                  hello.version, transport::kMinVersion, transport::kVersion);
  } else if (error == ConnectError::UnsupportedFeature) {
    std::snprintf(text, sizeof(text), "%s: required flags 0x%08x", transport::connect_error_name(error),
                  hello.flags & transport::kHelloRequirementMask & ~transport::kHelloKnownRequirements);
  } else if (error == ConnectError::ProtocolMismatch && protocol) {
    std::snprintf(text, sizeof(text),
                  "%s: the guest was generated from protocol %u.%u, registry %016llx (%u opcodes); this server from "
                  "%u.%u, registry %016llx (%u opcodes)",
                  transport::connect_error_name(error), hello.protocol_major, hello.protocol_minor,
                  (unsigned long long)hello.registry_hash, hello.opcode_count, protocol->major, protocol->minor,
                  (unsigned long long)protocol->registry_hash, protocol->opcode_count);
  } else {
    std::snprintf(text, sizeof(text), "%s", transport::connect_error_name(error));
  }
  return text;
}

}  // namespace npt::server
