// SPDX-License-Identifier: MIT
// dxbc-tool dump FILE: chunk table, signatures and the declarations the scanner sees.

#include <cstdio>

#include "dxbc/dxbc.h"
#include "tool_command.h"

namespace dxbc::tool {
namespace {

const char* kindName(SignatureKind kind) {
  switch (kind) {
    case SignatureKind::Input: return "input";
    case SignatureKind::Output: return "output";
    case SignatureKind::PatchConstant: return "patch";
  }
  return "?";
}

const char* phaseName(HullPhase phase) {
  switch (phase) {
    case HullPhase::None: return "";
    case HullPhase::Declarations: return "hs_decls";
    case HullPhase::ControlPoint: return "hs_control_point";
    case HullPhase::Fork: return "hs_fork";
    case HullPhase::Join: return "hs_join";
  }
  return "?";
}

std::string maskString(uint8_t mask) {
  std::string text;
  for (int i = 0; i < 4; ++i)
    text += (mask & (1 << i)) ? "xyzw"[i] : ' ';
  return text;
}

void printSignature(FourCC tag, const Signature& signature) {
  std::printf("  %-20s %5s %5s %6s %4s %4s %4s %6s %6s\n", "name", "index", "sysv", "type",
              "reg", "mask", "rw", "stream", "minp");
  for (const SignatureElement& e : signature.elements) {
    char reg[16];
    if (e.registerIndex == kNoRegister)
      std::snprintf(reg, sizeof(reg), "-");
    else
      std::snprintf(reg, sizeof(reg), "%u", e.registerIndex);
    std::printf("  %-20s %5u %5u %6u %4s %4s %4s %6u %6u\n", e.semanticName.c_str(),
                e.semanticIndex, e.systemValue, e.componentType, reg,
                maskString(e.mask).c_str(), maskString(e.rwMask).c_str(), e.stream,
                e.minPrecision);
  }
  (void)tag;
}

int runDump(std::span<char* const> args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: dxbc-tool dump FILE\n");
    return 2;
  }
  std::vector<uint8_t> bytes;
  if (!readFile(args[0], bytes))
    return 1;
  ContainerReader container;
  ReadOptions options;
  options.verifyChecksum = false;
  Status status = ContainerReader::parse(bytes, container, options);
  if (!status.ok()) {
    std::fprintf(stderr, "%s: %s: %s (offset %u)\n", args[0], errorCodeName(status.code),
                 status.reason, status.offset);
    return 1;
  }
  const Checksum stored = container.storedChecksum();
  const Checksum computed = computeContainerChecksum(container.bytes());
  std::printf("container: %zu bytes, %zu chunks, checksum %08x%08x%08x%08x (%s)\n",
              container.bytes().size(), container.chunkCount(), stored[0], stored[1], stored[2],
              stored[3], stored == computed ? "valid" : "INVALID");
  for (const ChunkView& chunk : container.chunks())
    std::printf("chunk %s at %u, %zu bytes\n", fourCCToString(chunk.tag).c_str(), chunk.offset,
                chunk.data.size());

  for (const ChunkView& chunk : container.chunks()) {
    if (!classifySignatureTag(chunk.tag, nullptr, nullptr))
      continue;
    Signature signature;
    status = parseSignature(chunk.tag, chunk.data, signature);
    std::printf("%s:%s\n", fourCCToString(chunk.tag).c_str(),
                status.ok() ? "" : status.reason);
    if (status.ok())
      printSignature(chunk.tag, signature);
  }

  ShaderCode code;
  status = getShaderCode(container, code);
  if (!status.ok()) {
    std::printf("shader: %s: %s\n", errorCodeName(status.code), status.reason);
    return 0;
  }
  static const char* kTypes[] = {"ps", "vs", "gs", "hs", "ds", "cs"};
  ShaderInfo info;
  status = scanShader(code, info);
  std::printf("shader %s: %s_%u_%u, %u tokens, %u instructions%s%s\n",
              fourCCToString(code.tag).c_str(), kTypes[uint32_t(code.type)], code.major,
              code.minor, code.lengthInTokens, info.instructionCount,
              status.ok() ? "" : ", scan failed: ", status.ok() ? "" : status.reason);
  for (const IoDeclaration& d : info.declarations) {
    char reg[16];
    if (d.registerIndex == kNoRegister)
      std::snprintf(reg, sizeof(reg), "-");
    else
      std::snprintf(reg, sizeof(reg), "%u", d.registerIndex);
    std::printf("  dcl op=%#x operand=%u %-6s reg=%-3s mask=%s sv=%u interp=%u stream=%u "
                "minp=%u %s\n",
                d.opcode, d.operandType, kindName(d.signature), reg, maskString(d.mask).c_str(),
                d.systemValue, d.interpolation, d.stream, d.minPrecision, phaseName(d.phase));
  }
  return 0;
}

const CommandRegistration kDump{
    {"dump", "FILE", "print chunks, signatures and signature-relevant declarations", runDump}};

}  // namespace
}  // namespace dxbc::tool
