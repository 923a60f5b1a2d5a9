// SPDX-License-Identifier: MIT
#include "dxbc/ddi_strip.h"

#include <cstdio>
#include <cstring>

#include "byte_io.h"
#include "dxbc/shader_code.h"

namespace dxbc {

Status readContainerSignatures(const ContainerReader& container, ContainerSignatures& out) {
  out = ContainerSignatures();
  for (const ChunkView& chunk : container.chunks()) {
    SignatureKind kind;
    if (!classifySignatureTag(chunk.tag, &kind, nullptr))
      continue;
    Signature* target = kind == SignatureKind::Input    ? &out.input
                        : kind == SignatureKind::Output ? &out.output
                                                        : &out.patchConstant;
    FourCC* tag = kind == SignatureKind::Input    ? &out.inputTag
                  : kind == SignatureKind::Output ? &out.outputTag
                                                  : &out.patchConstantTag;
    if (*tag)
      return Status::fail(ErrorCode::DuplicateChunk, "two signature chunks of one kind",
                          chunk.offset);
    Status status = parseSignature(chunk.tag, chunk.data, *target);
    if (!status.ok()) {
      status.offset += chunk.offset + kChunkHeaderSize;
      return status;
    }
    *tag = chunk.tag;
  }
  return Status::success();
}

Status stripContainer(const ContainerReader& container, DdiStride stride, DdiShader& out) {
  out = DdiShader();
  out.stride = stride;
  ShaderCode code;
  Status status = getShaderCode(container, code);
  if (!status.ok())
    return status;
  ContainerSignatures sigs;
  status = readContainerSignatures(container, sigs);
  if (!status.ok())
    return status;
  out.tokens.assign(code.tokens.bytes().begin(), code.tokens.bytes().end());
  ddiEntriesFromSignature(sigs.input, out.input);
  ddiEntriesFromSignature(sigs.output, out.output);
  ddiEntriesFromSignature(sigs.patchConstant, out.patchConstant);
  if (stride == DdiStride::D3D11_0) {
    for (auto* list : {&out.input, &out.output, &out.patchConstant})
      for (DdiSignatureEntry& entry : *list)
        entry.componentType = entry.minPrecision = 0;
  }
  return Status::success();
}

void serializeDdiShader(const DdiShader& shader, std::vector<uint8_t>& out) {
  out.clear();
  appendLE32(out, kDdiShaderMagic);
  appendLE32(out, 1);
  appendLE32(out, uint32_t(shader.stride));
  appendLE32(out, uint32_t(shader.input.size()));
  appendLE32(out, uint32_t(shader.output.size()));
  appendLE32(out, uint32_t(shader.patchConstant.size()));
  appendLE32(out, uint32_t(shader.tokens.size()));
  std::vector<uint8_t> entries;
  for (const auto* list : {&shader.input, &shader.output, &shader.patchConstant}) {
    encodeDdiSignature(*list, shader.stride, entries);
    out.insert(out.end(), entries.begin(), entries.end());
  }
  out.insert(out.end(), shader.tokens.begin(), shader.tokens.end());
}

Status deserializeDdiShader(std::span<const uint8_t> bytes, DdiShader& out) {
  out = DdiShader();
  if (bytes.size() < 28 || loadLE32(bytes.data()) != kDdiShaderMagic || loadLE32(bytes.data() + 4) != 1)
    return Status::fail(ErrorCode::BadMagic, "not a DDIS file");
  const uint32_t strideValue = loadLE32(bytes.data() + 8);
  if (strideValue != uint32_t(DdiStride::D3D11_0) && strideValue != uint32_t(DdiStride::D3D11_1))
    return Status::fail(ErrorCode::InvalidArgument, "unknown DDI stride", 8);
  out.stride = DdiStride(strideValue);
  uint64_t offset = 28;
  uint32_t counts[3] = {loadLE32(bytes.data() + 12), loadLE32(bytes.data() + 16),
                        loadLE32(bytes.data() + 20)};
  std::vector<DdiSignatureEntry>* lists[3] = {&out.input, &out.output, &out.patchConstant};
  for (int i = 0; i < 3; ++i) {
    const uint64_t size = uint64_t(counts[i]) * strideValue;
    if (size > bytes.size() - offset)
      return Status::fail(ErrorCode::SignatureTruncated, "DDI entries run past the file",
                          uint32_t(offset));
    Status status = decodeDdiSignature(bytes.subspan(size_t(offset), size_t(size)), counts[i],
                                       out.stride, *lists[i]);
    if (!status.ok())
      return status;
    offset += size;
  }
  const uint64_t tokenSize = loadLE32(bytes.data() + 24);
  if (tokenSize != bytes.size() - offset)
    return Status::fail(ErrorCode::SizeMismatch, "token size differs from the file rest", 24);
  out.tokens.assign(bytes.begin() + ptrdiff_t(offset), bytes.end());
  return Status::success();
}

namespace {

bool equalsIgnoreCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'a' && x <= 'z') x = char(x - 32);
    if (y >= 'a' && y <= 'z') y = char(y - 32);
    if (x != y)
      return false;
  }
  return true;
}

bool startsWithSv(const std::string& name) {
  return name.size() > 3 && (name[0] == 'S' || name[0] == 's') &&
         (name[1] == 'V' || name[1] == 'v') && name[2] == '_';
}

// Names that the rebuild must reproduce: real system values, and the pixel-shader
// outputs whose chunk system value is 0 (SV_Target, SV_Depth*, SV_Coverage, ...).
bool isSystemName(const SignatureElement& element) {
  return element.systemValue != sysval::Undefined ||
         (startsWithSv(element.semanticName) && element.registerIndex == kNoRegister) ||
         equalsIgnoreCase(element.semanticName, "SV_Target");
}

void addMismatch(std::vector<std::string>& out, const char* label, size_t index, const char* field,
                 uint64_t expected, uint64_t actual) {
  char line[160];
  std::snprintf(line, sizeof(line), "%s[%zu].%s: expected %llu, got %llu", label, index, field,
                (unsigned long long)expected, (unsigned long long)actual);
  out.push_back(line);
}

// Entries dropped: the declarations alone show the register, stream, the declared part
// of the mask and the system values of _siv/_sgv declarations; nothing else is knowable.
void compareDeclaredElement(const char* label, size_t i, const SignatureElement& a,
                            const SignatureElement& b, std::vector<std::string>& out) {
  if (a.registerIndex != b.registerIndex)
    addMismatch(out, label, i, "register", a.registerIndex, b.registerIndex);
  if (a.stream != b.stream)
    addMismatch(out, label, i, "stream", a.stream, b.stream);
  if (b.mask & ~a.mask)
    addMismatch(out, label, i, "maskNotSubset", a.mask, b.mask);
  if (b.minPrecision && a.minPrecision != b.minPrecision)
    addMismatch(out, label, i, "minPrecision", a.minPrecision, b.minPrecision);
  if (b.systemValue != sysval::Undefined || b.registerIndex == kNoRegister ||
      equalsIgnoreCase(b.semanticName, "SV_Target")) {
    if (a.systemValue != b.systemValue)
      addMismatch(out, label, i, "systemValue", a.systemValue, b.systemValue);
    if (!equalsIgnoreCase(a.semanticName, b.semanticName) || a.semanticIndex != b.semanticIndex)
      out.push_back(std::string(label) + "[" + std::to_string(i) + "].name: expected " +
                    a.semanticName + std::to_string(a.semanticIndex) + ", got " + b.semanticName +
                    std::to_string(b.semanticIndex));
  }
}

void compareElement(const char* label, size_t i, const SignatureElement& a,
                    const SignatureElement& b, const CompareOptions& options,
                    std::vector<std::string>& out) {
  if (options.onlyDeclared)
    return compareDeclaredElement(label, i, a, b, out);
  if (a.registerIndex != b.registerIndex)
    addMismatch(out, label, i, "register", a.registerIndex, b.registerIndex);
  if (a.mask != b.mask)
    addMismatch(out, label, i, "mask", a.mask, b.mask);
  if (options.compareRwMask && a.rwMask != b.rwMask)
    addMismatch(out, label, i, "rwMask", a.rwMask, b.rwMask);
  if (a.systemValue != b.systemValue)
    addMismatch(out, label, i, "systemValue", a.systemValue, b.systemValue);
  if (a.stream != b.stream)
    addMismatch(out, label, i, "stream", a.stream, b.stream);
  if (a.minPrecision != b.minPrecision)
    addMismatch(out, label, i, "minPrecision", a.minPrecision, b.minPrecision);
  if (options.compareComponentType && a.componentType != b.componentType)
    addMismatch(out, label, i, "componentType", a.componentType, b.componentType);
  if (isSystemName(a)) {
    if (!equalsIgnoreCase(a.semanticName, b.semanticName))
      out.push_back(std::string(label) + "[" + std::to_string(i) + "].name: expected " +
                    a.semanticName + ", got " + b.semanticName);
    else if (a.semanticIndex != b.semanticIndex)
      addMismatch(out, label, i, "semanticIndex", a.semanticIndex, b.semanticIndex);
  } else if (isSystemName(b)) {
    out.push_back(std::string(label) + "[" + std::to_string(i) + "].name: generic " +
                  a.semanticName + " rebuilt as system value " + b.semanticName);
  }
}

}  // namespace

bool compareSignature(const char* label, const Signature& original, const Signature& rebuilt,
                      const CompareOptions& options, std::vector<std::string>& mismatches) {
  const size_t before = mismatches.size();
  if (!options.onlyDeclared) {
    if (original.elements.size() != rebuilt.elements.size()) {
      addMismatch(mismatches, label, 0, "count", original.elements.size(),
                  rebuilt.elements.size());
      return false;
    }
    for (size_t i = 0; i < original.elements.size(); ++i)
      compareElement(label, i, original.elements[i], rebuilt.elements[i], options, mismatches);
    return mismatches.size() == before;
  }
  // Entries were dropped: every rebuilt element must be one of the original ones.
  for (size_t i = 0; i < rebuilt.elements.size(); ++i) {
    const SignatureElement& b = rebuilt.elements[i];
    const SignatureElement* match = nullptr;
    for (const SignatureElement& a : original.elements) {
      if (a.registerIndex == b.registerIndex && a.stream == b.stream && (a.mask & b.mask) &&
          (a.registerIndex != kNoRegister || equalsIgnoreCase(a.semanticName, b.semanticName))) {
        match = &a;
        break;
      }
    }
    if (!match) {
      addMismatch(mismatches, label, i, "unmatchedRegister", 0, b.registerIndex);
      continue;
    }
    compareElement(label, i, *match, b, options, mismatches);
  }
  return mismatches.size() == before;
}

}  // namespace dxbc
