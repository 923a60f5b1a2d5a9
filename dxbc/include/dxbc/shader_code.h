// SPDX-License-Identifier: MIT
#pragma once

// The SHDR/SHEX chunk: a token stream. Chunk payloads may sit at any 4-byte offset of a
// caller buffer, so tokens are read through memcpy, never through a cast.

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "dxbc/container.h"
#include "dxbc/status.h"
#include "dxbc/tokens.h"

namespace dxbc {

class TokenStream {
public:
  TokenStream() = default;
  explicit TokenStream(std::span<const uint8_t> bytes) : m_bytes(bytes) {}

  size_t size() const { return m_bytes.size() / 4; }     // whole tokens only
  std::span<const uint8_t> bytes() const { return m_bytes; }
  uint32_t operator[](size_t index) const {
    uint32_t value;
    std::memcpy(&value, m_bytes.data() + index * 4, 4);
    return value;
  }

private:
  std::span<const uint8_t> m_bytes;
};

struct ShaderCode {
  FourCC tag = 0;                 // SHDR or SHEX (or 0 for a bare DDI token stream)
  ProgramType type = ProgramType::Pixel;
  uint32_t major = 0;
  uint32_t minor = 0;
  uint32_t lengthInTokens = 0;    // from the second token
  TokenStream tokens;             // exactly lengthInTokens tokens
};

// Validates version and length tokens of a raw token stream (what the DDI delivers).
// Trailing bytes beyond the declared length are ignored.
Status parseShaderCode(std::span<const uint8_t> tokenBytes, ShaderCode& out);

// Finds SHEX or SHDR in a container and parses it. MissingChunk / DuplicateChunk if
// there is not exactly one.
Status getShaderCode(const ContainerReader& container, ShaderCode& out);

// fxc writes SHEX for SM5+ and SHDR before.
FourCC shaderChunkTagFor(uint32_t major);

}  // namespace dxbc
