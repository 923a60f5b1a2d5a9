// SPDX-License-Identifier: MIT
// Signature rebuild: DDI entries ∪ declarations → named, sorted signature elements.

#include "dxbc/rebuild.h"

#include <algorithm>

namespace dxbc {

namespace {

// One element under construction.
struct Draft {
  uint32_t registerIndex = kNoRegister;
  uint8_t mask = 0;
  uint8_t used = 0;               // inputs: components read; outputs: components written
  uint32_t sbName = 0;
  uint32_t operandType = 0;       // register-less elements: which one
  uint32_t stream = 0;
  bool streamKnown = false;
  const DdiSignatureEntry* entry = nullptr;
  uint32_t minPrecision = 0;
  uint32_t order = 0;             // insertion order, for stable tie-breaks
};

uint32_t firstComponent(uint8_t mask) {
  for (uint32_t i = 0; i < 4; ++i)
    if (mask & (1u << i))
      return i;
  return 0;
}

bool isRegisterLessOutput(uint32_t operandType) {
  switch (operandType) {
    case operand::OutputDepth: case operand::OutputDepthGreaterEqual:
    case operand::OutputDepthLessEqual: case operand::OutputCoverageMask:
    case operand::OutputStencilRef:
      return true;
    default:
      return false;
  }
}

// Which declarations contribute to the signature of kind, and whether they mark
// components as used (read for inputs, written for outputs) or only prove existence.
enum class Contribution { None, Exists, Uses };

Contribution contributionOf(const ShaderInfo& info, const IoDeclaration& decl, SignatureKind kind) {
  if (decl.signature != kind)
    return Contribution::None;
  switch (decl.operandType) {
    case operand::Input:
    case operand::InputControlPoint:
      return Contribution::Uses;
    case operand::Output:
      return Contribution::Uses;
    case operand::InputPatchConstant:
      // A hull shader's join phase reading its own patch constants writes nothing.
      return info.type == ProgramType::Hull ? Contribution::Exists : Contribution::Uses;
    case operand::OutputControlPoint:
      return Contribution::Exists;
    case operand::InputPrimitiveId:
      // Only the geometry shader lists vPrim in its input signature.
      return info.type == ProgramType::Geometry ? Contribution::Uses : Contribution::None;
    default:
      return isRegisterLessOutput(decl.operandType) ? Contribution::Uses : Contribution::None;
  }
}

const char* registerLessSemantic(uint32_t operandType) {
  switch (operandType) {
    case operand::OutputDepth: return "SV_Depth";
    case operand::OutputDepthGreaterEqual: return "SV_DepthGreaterEqual";
    case operand::OutputDepthLessEqual: return "SV_DepthLessEqual";
    case operand::OutputCoverageMask: return "SV_Coverage";
    case operand::OutputStencilRef: return "SV_StencilRef";
    case operand::InputPrimitiveId: return "SV_PrimitiveID";
    default: return "";
  }
}

bool isIntegerSystemValue(uint32_t sbName) {
  switch (sbName) {
    case sbname::RenderTargetArrayIndex: case sbname::ViewportArrayIndex:
    case sbname::VertexId: case sbname::PrimitiveId: case sbname::InstanceId:
    case sbname::IsFrontFace: case sbname::SampleIndex:
      return true;
    default:
      return false;
  }
}

// Generic elements: what the instructions show, float when they show nothing.
uint32_t evidenceType(const ShaderInfo& info, SignatureKind kind, const Draft& draft) {
  uint8_t f = 0, u = 0, i = 0;
  for (const TypeEvidence& e : info.typeEvidence) {
    if (e.signature == kind && e.registerIndex == draft.registerIndex) {
      f |= e.floatMask & draft.mask;
      u |= e.uintMask & draft.mask;
      i |= e.sintMask & draft.mask;
    }
  }
  if (f || (!u && !i))
    return comptype::Float32;
  return u ? comptype::Uint32 : comptype::Sint32;
}

uint32_t guessComponentType(const Draft& draft) {
  if (draft.registerIndex == kNoRegister) {
    switch (draft.operandType) {
      case operand::OutputCoverageMask: case operand::OutputStencilRef:
      case operand::InputPrimitiveId:
        return comptype::Uint32;
      default:
        return comptype::Float32;
    }
  }
  return isIntegerSystemValue(draft.sbName) ? comptype::Uint32 : comptype::Float32;
}

void mergeDeclarations(const ShaderInfo& info, SignatureKind kind, std::vector<Draft>& drafts) {
  for (const IoDeclaration& decl : info.declarations) {
    const Contribution contribution = contributionOf(info, decl, kind);
    if (contribution == Contribution::None)
      continue;
    const uint8_t usedBits = contribution == Contribution::Uses ? decl.mask : 0;

    if (decl.registerIndex == kNoRegister) {
      auto it = std::find_if(drafts.begin(), drafts.end(), [&](const Draft& d) {
        return d.registerIndex == kNoRegister && d.operandType == decl.operandType;
      });
      if (it == drafts.end()) {
        Draft draft;
        draft.operandType = decl.operandType;
        draft.mask = 0x1;
        draft.order = uint32_t(drafts.size());
        drafts.push_back(draft);
        it = drafts.end() - 1;
      }
      it->used |= usedBits ? 0x1 : 0;
      if (decl.minPrecision)
        it->minPrecision = decl.minPrecision;
      continue;
    }

    // Each declared component belongs to the first element (in entry order) of the same
    // register and stream that holds it; geometry shaders reuse registers per stream.
    uint8_t unmatched = decl.mask;
    for (uint32_t c = 0; c < 4; ++c) {
      if (!(decl.mask & (1u << c)))
        continue;
      for (Draft& draft : drafts) {
        if (draft.registerIndex != decl.registerIndex || !(draft.mask & (1u << c)))
          continue;
        if (draft.streamKnown && draft.stream != decl.stream)
          continue;
        unmatched &= uint8_t(~(1u << c));
        draft.stream = decl.stream;
        draft.streamKnown = true;
        draft.used |= usedBits & draft.mask;
        if (!draft.sbName && decl.systemValue)
          draft.sbName = decl.systemValue;
        if (!draft.minPrecision && decl.minPrecision)
          draft.minPrecision = decl.minPrecision;
        break;
      }
    }
    if (unmatched != decl.mask)
      continue;
    Draft draft;
    draft.registerIndex = decl.registerIndex;
    draft.mask = decl.mask;
    draft.used = usedBits;
    draft.sbName = decl.systemValue;
    draft.stream = decl.stream;
    draft.streamKnown = true;
    draft.minPrecision = decl.minPrecision;
    draft.order = uint32_t(drafts.size());
    drafts.push_back(draft);
  }
}

// fxc's used masks: inputs list the components instructions actually read (a declared
// input may be unread); a hull shader without a control-point phase passes every
// control point through, reading and writing all of it.
void refineUsage(const ShaderInfo& info, SignatureKind kind, std::vector<Draft>& drafts) {
  if (info.type == ProgramType::Hull && !info.hasControlPointPhase &&
      kind != SignatureKind::PatchConstant) {
    for (Draft& draft : drafts)
      if (draft.registerIndex != kNoRegister)
        draft.used = draft.mask;
    return;
  }
  const bool readsInputs = kind == SignatureKind::Input ||
                           (kind == SignatureKind::PatchConstant && info.type == ProgramType::Domain);
  if (!readsInputs || !info.readsComplete)
    return;
  if (kind == SignatureKind::Input ? info.inputReadsRelative : info.patchReadsRelative)
    return;
  for (Draft& draft : drafts) {
    if (draft.registerIndex == kNoRegister)
      continue;
    uint8_t read = 0;
    for (const RegisterRead& r : info.reads)
      if (r.signature == kind && r.registerIndex == draft.registerIndex)
        read |= r.mask;
    draft.used = read & draft.mask;
  }
}

void buildSignature(const ShaderInfo& info, SignatureKind kind,
                    std::span<const DdiSignatureEntry> entries, bool hasTypeInfo,
                    Signature& out) {
  std::vector<Draft> drafts;
  drafts.reserve(entries.size() + 8);
  for (const DdiSignatureEntry& entry : entries) {
    // Register-less elements are recovered from their declarations, which always exist:
    // the entries cannot tell oDepth from oMask.
    if (entry.registerIndex == kNoRegister)
      continue;
    Draft draft;
    draft.registerIndex = entry.registerIndex;
    draft.mask = entry.mask & 0xf;
    draft.sbName = entry.systemValue;
    draft.entry = &entry;
    draft.minPrecision = hasTypeInfo ? entry.minPrecision : 0;
    draft.order = uint32_t(drafts.size());
    drafts.push_back(draft);
  }
  mergeDeclarations(info, kind, drafts);
  refineUsage(info, kind, drafts);

  std::stable_sort(drafts.begin(), drafts.end(), [](const Draft& a, const Draft& b) {
    if (a.stream != b.stream)
      return a.stream < b.stream;
    if (a.registerIndex != b.registerIndex)
      return a.registerIndex < b.registerIndex;
    return firstComponent(a.mask) < firstComponent(b.mask);
  });

  const bool pixelOutput = info.type == ProgramType::Pixel && kind == SignatureKind::Output;
  const bool isInput = kind == SignatureKind::Input ||
                       (kind == SignatureKind::PatchConstant && info.type == ProgramType::Domain);

  out.elements.clear();
  out.elements.reserve(drafts.size());
  for (const Draft& draft : drafts) {
    SignatureElement element;
    element.registerIndex = draft.registerIndex;
    element.mask = draft.mask;
    element.stream = draft.stream;
    element.minPrecision = draft.minPrecision;
    if (hasTypeInfo && draft.entry && draft.entry->componentType)
      element.componentType = draft.entry->componentType;
    else if (draft.registerIndex != kNoRegister && !*systemValueSemantic(draft.sbName))
      element.componentType = evidenceType(info, kind, draft);
    else
      element.componentType = guessComponentType(draft);
    element.rwMask = isInput ? draft.used : uint8_t(~draft.used & 0xf);

    if (draft.registerIndex == kNoRegister) {
      element.semanticName = registerLessSemantic(draft.operandType);
      element.systemValue =
          draft.operandType == operand::InputPrimitiveId ? sysval::PrimitiveId : sysval::Undefined;
    } else if (pixelOutput) {
      element.semanticName = "SV_Target";
      element.semanticIndex = draft.registerIndex;
    } else if (*systemValueSemantic(draft.sbName)) {
      element.semanticName = systemValueSemantic(draft.sbName);
      element.systemValue = systemValueToSignatureName(draft.sbName);
      element.semanticIndex = systemValueSemanticIndex(draft.sbName, draft.registerIndex,
                                                       info.tessDomain);
      if (draft.sbName == sbname::ClipDistance || draft.sbName == sbname::CullDistance) {
        // SV_ClipDistance0, 1, ... in register order, on both sides of a link.
        uint32_t index = 0;
        for (const SignatureElement& previous : out.elements)
          if (previous.systemValue == element.systemValue && previous.stream == element.stream)
            ++index;
        element.semanticIndex = index;
      }
    } else {
      element.semanticName = kGenericSemantic;
      element.semanticIndex = genericSemanticIndex(draft.registerIndex, firstComponent(draft.mask));
    }
    out.elements.push_back(std::move(element));
  }
}

bool hasMinPrecision(const Signature& signature) {
  for (const SignatureElement& element : signature.elements)
    if (element.minPrecision)
      return true;
  return false;
}

}  // namespace

Status rebuildSignatures(const ShaderInfo& info, const DdiSignatures& ddi, RebuiltSignatures& out) {
  buildSignature(info, SignatureKind::Input, ddi.input, ddi.hasTypeInfo, out.input);
  buildSignature(info, SignatureKind::Output, ddi.output, ddi.hasTypeInfo, out.output);
  out.hasPatchConstant = info.type == ProgramType::Hull || info.type == ProgramType::Domain;
  if (out.hasPatchConstant)
    buildSignature(info, SignatureKind::PatchConstant, ddi.patchConstant, ddi.hasTypeInfo,
                   out.patchConstant);
  else
    out.patchConstant.elements.clear();

  // fxc switches all signatures to the *SG1 forms when any element has a minimum
  // precision, and writes OSG5 for shader model 5 geometry shaders.
  const bool minPrecision = hasMinPrecision(out.input) || hasMinPrecision(out.output) ||
                            hasMinPrecision(out.patchConstant);
  const SignatureFormat base = minPrecision ? SignatureFormat::MinPrecision : SignatureFormat::Basic;
  out.inputFormat = base;
  out.patchConstantFormat = base;
  out.outputFormat = base;
  if (!minPrecision && info.type == ProgramType::Geometry && info.major >= 5)
    out.outputFormat = SignatureFormat::Stream;
  return Status::success();
}

uint64_t shaderFeatureFlags(const ShaderInfo& info) {
  struct Mapping { uint32_t globalFlag; uint64_t feature; };
  static constexpr Mapping kMappings[] = {
    {1u << 1, 0x1},    // enableDoublePrecisionFloatOps → doubles
    {1u << 5, 0x10},   // enableMinimumPrecision
    {1u << 6, 0x20},   // enable11_1DoubleExtensions
    {1u << 7, 0x40},   // enable11_1ShaderExtensions
  };
  uint64_t flags = 0;
  for (const Mapping& m : kMappings)
    if (info.globalFlags & m.globalFlag)
      flags |= m.feature;
  // Raw/structured buffers outside compute shaders are a feature of shader model 4.x.
  if ((info.globalFlags & (1u << 3)) && info.major == 4)
    flags |= 0x2;
  const bool feedsRasterizerWithoutGs =
      info.type == ProgramType::Vertex || info.type == ProgramType::Domain;
  for (const IoDeclaration& decl : info.declarations) {
    if (decl.operandType == operand::OutputStencilRef)
      flags |= 0x200;
    // Array indices written before the geometry stage need an optional 11.3 feature.
    if (feedsRasterizerWithoutGs && decl.signature == SignatureKind::Output &&
        (decl.systemValue == sbname::RenderTargetArrayIndex ||
         decl.systemValue == sbname::ViewportArrayIndex))
      flags |= 0x2000;
  }
  return flags;
}

Status addSignatureChunks(ContainerWriter& writer, ProgramType type, const RebuiltSignatures& sigs) {
  std::vector<uint8_t> chunk;
  auto add = [&](SignatureKind kind, const Signature& signature, SignatureFormat format) {
    Status s = writeSignature(signature, format, chunk);
    if (s.ok())
      writer.addChunk(signatureTag(kind, format), std::span<const uint8_t>(chunk));
    return s;
  };
  Status status = add(SignatureKind::Input, sigs.input, sigs.inputFormat);
  if (status.ok() && type == ProgramType::Domain)
    status = add(SignatureKind::PatchConstant, sigs.patchConstant, sigs.patchConstantFormat);
  if (status.ok())
    status = add(SignatureKind::Output, sigs.output, sigs.outputFormat);
  if (status.ok() && type == ProgramType::Hull)
    status = add(SignatureKind::PatchConstant, sigs.patchConstant, sigs.patchConstantFormat);
  return status;
}

Status rebuildContainer(std::span<const uint8_t> tokenBytes, const DdiSignatures& ddi,
                        std::vector<uint8_t>& out, RebuiltSignatures* signatures) {
  ShaderCode code;
  Status status = parseShaderCode(tokenBytes, code);
  if (!status.ok())
    return status;
  ShaderInfo info;
  status = scanShader(code, info);
  if (!status.ok())
    return status;

  RebuiltSignatures local;
  RebuiltSignatures& sigs = signatures ? *signatures : local;
  status = rebuildSignatures(info, ddi, sigs);
  if (!status.ok())
    return status;

  ContainerWriter writer;
  status = addSignatureChunks(writer, info.type, sigs);
  if (!status.ok())
    return status;
  const uint64_t features = shaderFeatureFlags(info);
  writer.addChunk(features ? tag::SHEX : shaderChunkTagFor(info.major), code.tokens.bytes());
  if (features) {
    uint8_t sfi0[8];
    for (int i = 0; i < 8; ++i)
      sfi0[i] = uint8_t(features >> (8 * i));
    writer.addChunk(tag::SFI0, std::span<const uint8_t>(sfi0, 8));
  }
  return writer.write(out);
}

}  // namespace dxbc
