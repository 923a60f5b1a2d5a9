// SPDX-License-Identifier: MIT
#include "npt/validation/shaders.h"

#include "dxbc/container.h"
#include "dxbc/shader_code.h"

namespace npt::validation {

namespace {

const char* stageName(uint32_t stage) {
  static const char* const names[] = {"pixel", "vertex", "geometry", "hull", "domain", "compute"};
  return stage < 6 ? names[stage] : "unknown";
}

Rule ruleForContainerError(dxbc::ErrorCode code) {
  switch (code) {
    case dxbc::ErrorCode::TooSmall: return Rule::ShaderTooSmall;
    case dxbc::ErrorCode::BadMagic:
    case dxbc::ErrorCode::BadVersion: return Rule::ShaderMagic;
    case dxbc::ErrorCode::SizeMismatch: return Rule::ShaderContainerSize;
    case dxbc::ErrorCode::TooManyChunks: return Rule::ShaderChunkTable;
    case dxbc::ErrorCode::BadChecksum: return Rule::ShaderChecksum;
    default: return Rule::ShaderChunkBounds;
  }
}

}  // namespace

Check validateShaderBytecode(const void* bytecode, size_t length, ShaderStage stage, ShaderInfo* info) {
  if (!bytecode || length < dxbc::kContainerHeaderSize)
    return Check::reject(Rule::ShaderTooSmall, "%zu bytes are shorter than a DXBC header", bytecode ? length : 0);
  const std::span<const uint8_t> bytes(static_cast<const uint8_t*>(bytecode), length);

  dxbc::ContainerReader container;
  dxbc::ReadOptions options;
  options.verifyChecksum = true;
  options.requireExactSize = true;
  dxbc::Status status = dxbc::ContainerReader::parse(bytes, container, options);
  if (!status.ok())
    return Check::reject(ruleForContainerError(status.code), "container: %s (%s at byte %u)", status.reason,
                         dxbc::errorCodeName(status.code), status.offset);

  dxbc::ShaderCode code;
  status = dxbc::getShaderCode(container, code);
  if (status.code == dxbc::ErrorCode::MissingChunk || status.code == dxbc::ErrorCode::DuplicateChunk)
    return Check::reject(Rule::ShaderNoCode, "container needs exactly one SHDR/SHEX chunk: %s", status.reason);
  if (!status.ok())
    return Check::reject(Rule::ShaderCodeBounds, "program: %s (%s at byte %u)", status.reason,
                         dxbc::errorCodeName(status.code), status.offset);
  // D3D11 runs SM4.0, 4.1 and 5.0; 5.1 is Direct3D 12 only.
  if (code.major < 4 || code.major > 5 || (code.major == 5 && code.minor != 0) || (code.major == 4 && code.minor > 1))
    return Check::reject(Rule::ShaderModel, "shader model %u.%u is not usable with D3D11", code.major, code.minor);
  if (uint32_t(code.type) != uint32_t(stage))
    return Check::reject(Rule::ShaderStageMismatch, "bytecode is a %s shader, a %s shader was created",
                         stageName(uint32_t(code.type)), stageName(uint32_t(stage)));

  if (info) {
    *info = ShaderInfo{};
    info->stage = stage;
    info->majorVersion = code.major;
    info->minorVersion = code.minor;
    for (const dxbc::ChunkView& chunk : container.chunks()) {
      dxbc::SignatureKind kind;
      dxbc::SignatureFormat format;
      if (!dxbc::classifySignatureTag(chunk.tag, &kind, &format) || kind != dxbc::SignatureKind::Input) continue;
      status = dxbc::parseSignature(chunk.tag, chunk.data, info->inputSignature);
      if (!status.ok())
        return Check::reject(Rule::ShaderSignature, "input signature: %s (%s)", status.reason,
                             dxbc::errorCodeName(status.code));
      info->hasInputSignature = true;
      break;
    }
  }
  return Check::pass();
}

Check validateShaderFeatureLevel(const void* bytecode, size_t length, D3D_FEATURE_LEVEL level) {
  const std::span<const uint8_t> bytes(static_cast<const uint8_t*>(bytecode), length);
  dxbc::ContainerReader container;
  dxbc::ShaderCode code;
  if (!dxbc::ContainerReader::parse(bytes, container, dxbc::ReadOptions{}).ok() || !dxbc::getShaderCode(container, code).ok())
    return Check::reject(Rule::ShaderNoCode, "no shader program to check against feature level %#x", unsigned(level));
  if (level < D3D_FEATURE_LEVEL_10_0) {
    if (!container.find(dxbc::tag::Aon9))
      return Check::reject(Rule::ShaderModel, "feature level %#x runs only 4_0_level_9_x shaders (no Aon9 chunk)",
                           unsigned(level));
    return Check::pass();
  }
  const uint32_t version = code.major * 10 + code.minor;
  const uint32_t highest = level < D3D_FEATURE_LEVEL_10_1 ? 40 : level < D3D_FEATURE_LEVEL_11_0 ? 41 : 50;
  if (version > highest)
    return Check::reject(Rule::ShaderModel, "shader model %u.%u is above feature level %#x's %u.%u", code.major,
                         code.minor, unsigned(level), highest / 10, highest % 10);
  return Check::pass();
}

Check validateStreamOutputShaderBytecode(const void* bytecode, size_t length) {
  Check check = validateShaderBytecode(bytecode, length, ShaderStage::Geometry);
  if (check.rule() != Rule::ShaderStageMismatch) return check;
  for (ShaderStage stage : {ShaderStage::Vertex, ShaderStage::Domain}) {
    if (validateShaderBytecode(bytecode, length, stage).passed()) return Check::pass();
  }
  return check;
}

}  // namespace npt::validation
