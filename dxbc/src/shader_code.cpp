// SPDX-License-Identifier: MIT
#include "dxbc/shader_code.h"

#include "byte_io.h"

namespace dxbc {

Status parseShaderCode(std::span<const uint8_t> tokenBytes, ShaderCode& out) {
  out = ShaderCode();
  if (tokenBytes.size() < 8)
    return Status::fail(ErrorCode::ShaderTruncated, "token stream shorter than version and length");
  const uint32_t version = loadLE32(tokenBytes.data());
  const uint32_t length = loadLE32(tokenBytes.data() + 4);
  const uint32_t type = token::versionProgramType(version);
  const uint32_t major = token::versionMajor(version);
  const uint32_t minor = token::versionMinor(version);
  if (type > uint32_t(ProgramType::Compute))
    return Status::fail(ErrorCode::ShaderBadVersion, "unknown program type");
  if (major < 4 || major > 5 || minor > 1)
    return Status::fail(ErrorCode::ShaderBadVersion, "shader model outside 4.0..5.1");
  if (length < 2)
    return Status::fail(ErrorCode::ShaderTruncated, "declared length shorter than the header", 4);
  if (uint64_t(length) * 4 > tokenBytes.size())
    return Status::fail(ErrorCode::ShaderTruncated, "declared length runs past the data", 4);

  out.type = ProgramType(type);
  out.major = major;
  out.minor = minor;
  out.lengthInTokens = length;
  out.tokens = TokenStream(tokenBytes.first(size_t(length) * 4));
  return Status::success();
}

Status getShaderCode(const ContainerReader& container, ShaderCode& out) {
  const ChunkView* found = nullptr;
  for (const ChunkView& chunk : container.chunks()) {
    if (chunk.tag != tag::SHDR && chunk.tag != tag::SHEX)
      continue;
    if (found)
      return Status::fail(ErrorCode::DuplicateChunk, "more than one SHDR/SHEX chunk", chunk.offset);
    found = &chunk;
  }
  if (!found)
    return Status::fail(ErrorCode::MissingChunk, "no SHDR/SHEX chunk");
  Status status = parseShaderCode(found->data, out);
  if (!status.ok()) {
    status.offset += found->offset + kChunkHeaderSize;
    return status;
  }
  out.tag = found->tag;
  return Status::success();
}

FourCC shaderChunkTagFor(uint32_t major) { return major >= 5 ? tag::SHEX : tag::SHDR; }

}  // namespace dxbc
