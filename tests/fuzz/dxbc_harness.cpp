// SPDX-License-Identifier: MIT
// (a) DXBC container bytes through everything that reads them on the host.

#include <cstring>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "dxbc/asm/disassembler.h"
#include "dxbc/container.h"
#include "dxbc/ddi_strip.h"
#include "dxbc/rebuild.h"
#include "dxbc/shader_code.h"
#include "dxbc/signature.h"
#include "dxbc/token_scanner.h"
#include "harness.h"
#include "npt/validation/shaders.h"

namespace npt::fuzz {

namespace {

std::vector<uint32_t> programTokens(const dxbc::ShaderCode& code) {
  std::vector<uint32_t> tokens(code.tokens.size());
  for (size_t i = 0; i < tokens.size(); i++)
    tokens[i] = code.tokens[i];
  return tokens;
}

bool sameElements(const dxbc::Signature& a, const dxbc::Signature& b) {
  if (a.elements.size() != b.elements.size())
    return false;
  for (size_t i = 0; i < a.elements.size(); i++) {
    const auto& x = a.elements[i];
    const auto& y = b.elements[i];
    if (x.semanticName != y.semanticName || x.semanticIndex != y.semanticIndex ||
        x.systemValue != y.systemValue || x.componentType != y.componentType ||
        x.registerIndex != y.registerIndex || x.mask != y.mask || x.rwMask != y.rwMask ||
        x.stream != y.stream || x.minPrecision != y.minPrecision)
      return false;
  }
  return true;
}

// Signature chunk -> elements -> chunk -> the same elements.
void checkSignatureRoundTrip(const dxbc::ChunkView& chunk, Outcome& out) {
  dxbc::SignatureKind kind;
  dxbc::SignatureFormat format;
  if (!dxbc::classifySignatureTag(chunk.tag, &kind, &format))
    return;
  dxbc::Signature parsed;
  if (!dxbc::parseSignature(chunk.tag, chunk.data, parsed).ok())
    return;
  std::vector<uint8_t> written;
  if (!dxbc::writeSignature(parsed, format, written).ok())
    return;
  dxbc::Signature again;
  dxbc::Status status = dxbc::parseSignature(chunk.tag, written, again);
  if (!status.ok())
    out.broken = std::string("written signature does not parse: ") + status.reason;
  else if (!sameElements(parsed, again))
    out.broken = "signature changed through write + parse";
}

// The disassembler promises lossless text: assembling it gives back the same tokens.
void checkDisassembly(const dxbc::ShaderCode& code, Outcome& out) {
  std::vector<uint32_t> tokens = programTokens(code);
  std::string text;
  if (!dxbc::sm::disassembleProgram(tokens, text).ok())
    return;
  std::vector<uint32_t> again;
  dxbc::sm::AssemblyResult result = dxbc::sm::assembleProgram(text, again);
  if (!result.ok)
    out.broken = "disassembly does not assemble: " + result.error.format();
  else if (again != tokens)
    out.broken = "disassembly does not re-assemble to the same tokens";
}

// A rebuilt container must be one the host's own reader accepts, checksum included.
void checkRebuilt(const std::vector<uint8_t>& rebuilt, Outcome& out) {
  dxbc::ContainerReader reader;
  dxbc::Status status = dxbc::ContainerReader::parse(rebuilt, reader);
  if (!status.ok()) {
    out.broken = std::string("rebuilt container is rejected: ") + status.reason;
    return;
  }
  dxbc::ShaderCode code;
  status = dxbc::getShaderCode(reader, code);
  if (!status.ok())
    out.broken = std::string("rebuilt container has no usable program: ") + status.reason;
}

// What Triton hands the rebuild: raw tokens and DDI entries, here both from the bytes.
void runBareTokens(const uint8_t* data, size_t size, Outcome& out) {
  std::span<const uint8_t> bytes(data, size);
  dxbc::ShaderCode code;
  if (!dxbc::parseShaderCode(bytes, code).ok())
    return;
  dxbc::ShaderInfo info;
  if (!dxbc::scanShader(code, info).ok())
    return;
  std::vector<dxbc::DdiSignatureEntry> entries;
  const size_t tokenBytes = size_t(code.lengthInTokens) * 4;
  std::span<const uint8_t> rest = bytes.subspan(tokenBytes);
  const uint32_t count = uint32_t(rest.size() / 20 > 64 ? 64 : rest.size() / 20);
  if (!dxbc::decodeDdiSignature(rest, count, dxbc::DdiStride::D3D11_1, entries).ok())
    entries.clear();
  const size_t half = entries.size() / 2;
  dxbc::DdiSignatures ddi;
  ddi.input = std::span<const dxbc::DdiSignatureEntry>(entries).first(half);
  ddi.output = std::span<const dxbc::DdiSignatureEntry>(entries).subspan(half);
  std::vector<uint8_t> rebuilt;
  if (dxbc::rebuildContainer(bytes.first(tokenBytes), ddi, rebuilt).ok())
    checkRebuilt(rebuilt, out);
}

}  // namespace

Outcome runDxbc(const uint8_t* data, size_t size) {
  Outcome out;
  std::span<const uint8_t> bytes(data, size);

  // The host's own check of CreateXxShader bytecode, with a correct checksum so that
  // mutations reach past it.
  if (size >= dxbc::kContainerHeaderSize) {
    std::vector<uint8_t> signedCopy(data, data + size);
    dxbc::updateContainerChecksum(signedCopy);
    const auto stage = npt::validation::ShaderStage(size % 6);
    npt::validation::ShaderInfo shaderInfo;
    npt::validation::Check check =
        npt::validation::validateShaderBytecode(signedCopy.data(), signedCopy.size(), stage, &shaderInfo);
    if (!check.passed())
      out.code = check.code();
  }

  dxbc::ReadOptions lenient;
  lenient.verifyChecksum = false;
  lenient.requireExactSize = false;
  dxbc::ContainerReader reader;
  dxbc::Status status = dxbc::ContainerReader::parse(bytes, reader, lenient);
  if (!status.ok()) {
    if (!out.code)
      out.code = uint32_t(status.code);
    runBareTokens(data, size, out);
    return out;
  }
  dxbc::computeContainerChecksum(bytes);

  for (const dxbc::ChunkView& chunk : reader.chunks()) {
    checkSignatureRoundTrip(chunk, out);
    if (!out.broken.empty())
      return out;
  }

  dxbc::ShaderCode code;
  if (dxbc::getShaderCode(reader, code).ok()) {
    dxbc::ShaderInfo info;
    if (dxbc::scanShader(code, info).ok())
      dxbc::shaderFeatureFlags(info);
    checkDisassembly(code, out);
    if (!out.broken.empty())
      return out;
  }

  std::string text;
  dxbc::sm::disassembleContainer(bytes, text);

  for (dxbc::DdiStride stride : {dxbc::DdiStride::D3D11_0, dxbc::DdiStride::D3D11_1}) {
    dxbc::DdiShader stripped;
    if (!dxbc::stripContainer(reader, stride, stripped).ok())
      continue;
    std::vector<uint8_t> serialized;
    dxbc::serializeDdiShader(stripped, serialized);
    dxbc::DdiShader back;
    if (!dxbc::deserializeDdiShader(serialized, back).ok()) {
      out.broken = "serialized DDI shader does not deserialize";
      return out;
    }
    std::vector<uint8_t> rebuilt;
    if (dxbc::rebuildContainer(stripped.tokens, stripped.view(), rebuilt).ok())
      checkRebuilt(rebuilt, out);
    if (!out.broken.empty())
      return out;
  }

  // DDIS files are what dxbc-tool rebuild reads.
  dxbc::DdiShader ddis;
  if (dxbc::deserializeDdiShader(bytes, ddis).ok()) {
    std::vector<uint8_t> rebuilt;
    if (dxbc::rebuildContainer(ddis.tokens, ddis.view(), rebuilt).ok())
      checkRebuilt(rebuilt, out);
  }

  out.accepted = out.code == 0;
  return out;
}

}  // namespace npt::fuzz
