// SPDX-License-Identifier: MIT
// dxbc-tool verify FILE...: full structural validation (checksum, chunks, signatures,
// token stream). Exit code 0 only if every file is valid.

#include <cstdio>

#include "dxbc/dxbc.h"
#include "tool_command.h"

namespace dxbc::tool {
namespace {

Status verifyContainer(std::span<const uint8_t> bytes) {
  ContainerReader container;
  Status status = ContainerReader::parse(bytes, container);
  if (!status.ok())
    return status;
  for (const ChunkView& chunk : container.chunks()) {
    if (!classifySignatureTag(chunk.tag, nullptr, nullptr))
      continue;
    Signature signature;
    status = parseSignature(chunk.tag, chunk.data, signature);
    if (!status.ok()) {
      status.offset += chunk.offset + kChunkHeaderSize;
      return status;
    }
  }
  ShaderCode code;
  status = getShaderCode(container, code);
  if (!status.ok())
    return status;
  ShaderInfo info;
  return scanShader(code, info);
}

int runVerify(std::span<char* const> args) {
  if (args.empty()) {
    std::fprintf(stderr, "usage: dxbc-tool verify FILE...\n");
    return 2;
  }
  int failures = 0;
  for (const char* path : args) {
    std::vector<uint8_t> bytes;
    if (!readFile(path, bytes)) {
      ++failures;
      continue;
    }
    Status status = verifyContainer(bytes);
    if (status.ok()) {
      std::printf("%s: ok\n", path);
    } else {
      std::printf("%s: %s: %s (offset %u)\n", path, errorCodeName(status.code), status.reason,
                  status.offset);
      ++failures;
    }
  }
  return failures ? 1 : 0;
}

const CommandRegistration kVerify{
    {"verify", "FILE...", "validate checksum, chunks, signatures and tokens", runVerify}};

}  // namespace
}  // namespace dxbc::tool
