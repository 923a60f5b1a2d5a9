// SPDX-License-Identifier: MIT
#include "dxbc/token_scanner.h"

namespace dxbc {

namespace {

// Reads one instruction's tokens with bounds checks against the instruction end.
class InstructionCursor {
public:
  InstructionCursor(const TokenStream& tokens, uint32_t begin, uint32_t end)
    : m_tokens(tokens), m_pos(begin), m_end(end) {}

  bool read(uint32_t& value) {
    if (m_pos >= m_end)
      return false;
    value = m_tokens[m_pos++];
    return true;
  }
  bool skip(uint32_t count) {
    if (count > m_end - m_pos)
      return false;
    m_pos += count;
    return true;
  }
  uint32_t position() const { return m_pos; }

private:
  const TokenStream& m_tokens;
  uint32_t m_pos;
  uint32_t m_end;
};

struct DeclOperand {
  uint32_t type = 0;
  uint32_t mask = 0;
  uint32_t indexCount = 0;
  uint32_t indices[3] = {};
  uint32_t relativeMask = 0;      // bit per index dimension addressed relatively
  uint32_t minPrecision = 0;
  uint8_t readMask = 0;           // components a source operand selects
  uint8_t swizzle = 0xe4;         // source component per destination lane (2 bits each)
  uint32_t immediate[4] = {};     // immediate32 operand values
};

// Receives every operand read (nested relative-index operands included).
struct OperandSink {
  virtual void operandRead(const DeclOperand& operand) = 0;
};

Status readOperand(InstructionCursor& cursor, DeclOperand& out, uint32_t depth,
                   OperandSink* sink = nullptr);

Status readIndex(InstructionCursor& cursor, uint32_t representation, uint32_t& value,
                 bool& relative, uint32_t depth, OperandSink* sink) {
  auto fail = [&] {
    return Status::fail(ErrorCode::ShaderBadOperand, "operand index runs past its instruction",
                        cursor.position() * 4);
  };
  uint32_t hi = 0;
  switch (representation) {
    case indexrep::Immediate32:
      return cursor.read(value) ? Status::success() : fail();
    case indexrep::Immediate64:
      if (!cursor.read(hi) || !cursor.read(value))
        return fail();
      return Status::success();
    case indexrep::Relative: {
      relative = true;
      value = 0;
      DeclOperand nested;
      return readOperand(cursor, nested, depth + 1, sink);
    }
    case indexrep::Immediate32PlusRelative: {
      relative = true;
      if (!cursor.read(value))
        return fail();
      DeclOperand nested;
      return readOperand(cursor, nested, depth + 1, sink);
    }
    case indexrep::Immediate64PlusRelative: {
      relative = true;
      if (!cursor.read(hi) || !cursor.read(value))
        return fail();
      DeclOperand nested;
      return readOperand(cursor, nested, depth + 1, sink);
    }
    default:
      return Status::fail(ErrorCode::ShaderBadOperand, "unknown operand index representation",
                          cursor.position() * 4);
  }
}

Status readOperand(InstructionCursor& cursor, DeclOperand& out, uint32_t depth,
                   OperandSink* sink) {
  if (depth > 4)
    return Status::fail(ErrorCode::ShaderBadOperand, "relative addressing nested too deeply",
                        cursor.position() * 4);
  uint32_t t;
  if (!cursor.read(t))
    return Status::fail(ErrorCode::ShaderBadOperand, "operand missing", cursor.position() * 4);
  out.type = token::operandType(t);
  const uint32_t components = token::operandNumComponents(t);
  if (components == 2 && token::operandSelectionMode(t) == 0)
    out.mask = token::operandMask(t);
  else if (components == 1)
    out.mask = 0x1;
  else if (components == 2)
    out.mask = 0xf;
  out.readMask = out.mask;
  if (components == 2 && token::operandSelectionMode(t) == 1) {
    const uint32_t swizzle = token::operandSwizzle(t);
    out.swizzle = uint8_t(swizzle);
    out.readMask = uint8_t((1u << (swizzle & 3)) | (1u << ((swizzle >> 2) & 3)) |
                           (1u << ((swizzle >> 4) & 3)) | (1u << ((swizzle >> 6) & 3)));
  } else if (components == 2 && token::operandSelectionMode(t) == 2) {
    out.readMask = uint8_t(1u << token::operandSelect1(t));
    out.swizzle = uint8_t(token::operandSelect1(t) * 0x55);
  } else if (components == 1) {
    out.swizzle = 0;
  }

  uint32_t extended = t;
  while (token::operandExtended(extended)) {
    if (!cursor.read(extended))
      return Status::fail(ErrorCode::ShaderBadOperand, "extended operand token missing",
                          cursor.position() * 4);
    if (token::extendedOperandType(extended) == 1)
      out.minPrecision = token::extendedOperandMinPrecision(extended);
  }

  if (out.type == operand::Immediate32 || out.type == operand::Immediate64) {
    uint32_t count = components == 1 ? 1 : components == 2 ? 4 : 0;
    if (out.type == operand::Immediate64)
      count = components == 1 ? 2 : components == 2 ? 4 : 0;
    if (out.type == operand::Immediate32) {
      for (uint32_t i = 0; i < count; ++i)
        if (!cursor.read(out.immediate[i]))
          return Status::fail(ErrorCode::ShaderBadOperand, "immediate runs past its instruction",
                              cursor.position() * 4);
      if (count == 1)
        out.immediate[1] = out.immediate[2] = out.immediate[3] = out.immediate[0];
      count = 0;
    }
    if (!cursor.skip(count))
      return Status::fail(ErrorCode::ShaderBadOperand, "immediate runs past its instruction",
                          cursor.position() * 4);
    return Status::success();
  }

  out.indexCount = token::operandIndexDimension(t);
  for (uint32_t i = 0; i < out.indexCount; ++i) {
    bool relative = false;
    Status status = readIndex(cursor, token::operandIndexRepresentation(t, i), out.indices[i],
                              relative, depth, sink);
    if (!status.ok())
      return status;
    if (relative)
      out.relativeMask |= 1u << i;
  }
  if (sink)
    sink->operandRead(out);
  return Status::success();
}

// Opcodes whose tokens are not all operands (declarations, custom data, fcall).
bool hasNonOperandTokens(uint32_t opcode) {
  return (opcode >= op::DclResource && opcode <= op::DclGlobalFlags) ||
         (opcode >= op::DclStream && opcode <= 0xa2) || opcode == op::DclGsInstances ||
         opcode == op::CustomData || opcode == 0x78 /* fcall */ || opcode >= 0xea;
}

// Accumulates which input components instructions read.
class InputReadCollector : public OperandSink {
public:
  InputReadCollector(ShaderInfo& info) : m_info(info) {}

  void operandRead(const DeclOperand& operand) override {
    SignatureKind kind;
    if (operand.type == operand::Input || operand.type == operand::InputControlPoint)
      kind = SignatureKind::Input;
    else if (operand.type == operand::InputPatchConstant && m_info.type == ProgramType::Domain)
      kind = SignatureKind::PatchConstant;
    else
      return;
    if (!operand.indexCount)
      return;
    if (operand.relativeMask & (1u << (operand.indexCount - 1))) {
      // Relative register: usage is not statically known; callers fall back to the
      // declarations for this signature.
      (kind == SignatureKind::Input ? m_info.inputReadsRelative : m_info.patchReadsRelative) = true;
      return;
    }
    const uint32_t reg = operand.indices[operand.indexCount - 1];
    for (RegisterRead& read : m_info.reads) {
      if (read.signature == kind && read.registerIndex == reg) {
        read.mask |= operand.readMask;
        return;
      }
    }
    m_info.reads.push_back(RegisterRead{kind, reg, operand.readMask});
  }

private:
  ShaderInfo& m_info;
};

// Types flowing through instructions, for the 11.0 stride whose entries carry none:
// what typed instructions write to outputs and read from inputs, through plain moves
// of temporaries and literals. No control flow analysis; the last writer wins.
enum : uint8_t { kTypeUnknown = 0, kTypeFloat = 1, kTypeUint = 2, kTypeSint = 3, kTypeCopy = 4 };

struct OpcodeTypes { uint8_t result; uint8_t source; };

OpcodeTypes opcodeTypes(uint32_t opcode) {
  switch (opcode) {
    case 0x00: case 0x0b: case 0x0c: case 0x0e: case 0x0f: case 0x10: case 0x11: case 0x19:
    case 0x1a: case 0x2f: case 0x32: case 0x33: case 0x34: case 0x38: case 0x40: case 0x41:
    case 0x42: case 0x43: case 0x44: case 0x4b: case 0x4d: case 0x7a: case 0x7b: case 0x7c:
    case 0x7d: case 0x81:
      return {kTypeFloat, kTypeFloat};
    case 0x2b: return {kTypeFloat, kTypeSint};                  // itof
    case 0x56: return {kTypeFloat, kTypeUint};                  // utof
    case 0x1b: return {kTypeSint, kTypeFloat};                  // ftoi
    case 0x1c: return {kTypeUint, kTypeFloat};                  // ftou
    case 0x18: case 0x1d: case 0x31: case 0x39: return {kTypeUint, kTypeFloat};  // float compares
    case 0x20: case 0x21: case 0x22: case 0x27: return {kTypeUint, kTypeSint};   // int compares
    case 0x4f: case 0x50: return {kTypeUint, kTypeUint};        // ult, uge
    case 0x23: case 0x24: case 0x25: case 0x26: case 0x28: case 0x2a: case 0x8b:
      return {kTypeSint, kTypeSint};                            // imad imax imin imul ineg ishr ibfe
    case 0x01: case 0x1e: case 0x29: case 0x3b: case 0x3c: case 0x4e: case 0x51: case 0x52:
    case 0x53: case 0x54: case 0x55: case 0x57: case 0x86: case 0x87: case 0x88: case 0x89:
    case 0x8a: case 0x8c: case 0x8d:
      return {kTypeUint, kTypeUint};                            // bitwise and unsigned ops
    case 0x36: case 0x37: return {kTypeCopy, kTypeUnknown};     // mov, movc
    default: return {kTypeUnknown, kTypeUnknown};
  }
}

uint8_t literalType(uint32_t bits) {
  if (bits == 0)
    return kTypeUnknown;
  if (bits < 0x10000)
    return kTypeUint;       // as a float this would be a denormal, which fxc never writes
  if (bits >= 0xffff0000)
    return kTypeSint;
  return kTypeFloat;
}

class TypeTracker {
public:
  explicit TypeTracker(ShaderInfo& info) : m_info(info) {}

  void instruction(uint32_t opcode, HullPhase phase, const DeclOperand* operands, size_t count) {
    const OpcodeTypes types = opcodeTypes(opcode);
    if (types.result == kTypeUnknown || count < 2)
      return;
    if (types.source != kTypeUnknown)
      for (size_t i = 1; i < count; ++i)
        if (operands[i].type == operand::Input || operands[i].type == operand::InputControlPoint ||
            operands[i].type == operand::InputPatchConstant)
          evidence(SignatureKind::Input, operands[i], operands[i].readMask, types.source, true);

    const DeclOperand& dst = operands[0];
    for (uint32_t c = 0; c < 4; ++c) {
      if (!(dst.mask & (1u << c)))
        continue;
      uint8_t type = types.result;
      // fxc turns booleans into floats with `and r, mask, l(1.0f)`: a float literal
      // operand of a bitwise op makes the result a float.
      if ((opcode == 0x01 || opcode == 0x3c || opcode == 0x57) && count >= 3) {
        for (size_t i = 1; i < count; ++i)
          if (operands[i].type == operand::Immediate32 &&
              literalType(operands[i].immediate[(operands[i].swizzle >> (2 * c)) & 3]) == kTypeFloat)
            type = kTypeFloat;
      }
      if (type == kTypeCopy) {
        // movc: either value source may carry the type.
        type = sourceType(operands[count - 1], c);
        if (type == kTypeUnknown && count >= 4)
          type = sourceType(operands[count - 2], c);
      }
      if (dst.type == operand::Temp && dst.indexCount) {
        const size_t slot = size_t(dst.indices[0]) * 4 + c;
        if (dst.indices[0] < 4096) {
          if (m_temps.size() <= slot)
            m_temps.resize(slot + 1, kTypeUnknown);
          m_temps[slot] = type;
        }
      } else if (dst.type == operand::Output && dst.indexCount && type != kTypeUnknown) {
        const bool patch = m_info.type == ProgramType::Hull &&
                           (phase == HullPhase::Fork || phase == HullPhase::Join);
        evidence(patch ? SignatureKind::PatchConstant : SignatureKind::Output, dst,
                 uint8_t(1u << c), type, false);
      }
    }
  }

private:
  uint8_t sourceType(const DeclOperand& src, uint32_t lane) const {
    const uint32_t component = (src.swizzle >> (2 * lane)) & 3;
    if (src.type == operand::Immediate32)
      return literalType(src.immediate[component]);
    if (src.type == operand::Temp && src.indexCount) {
      const size_t slot = size_t(src.indices[0]) * 4 + component;
      return slot < m_temps.size() ? m_temps[slot] : uint8_t(kTypeUnknown);
    }
    return kTypeUnknown;
  }

  void evidence(SignatureKind kind, const DeclOperand& operand, uint8_t mask, uint8_t type,
                bool isInput) {
    if (!operand.indexCount || (operand.relativeMask & (1u << (operand.indexCount - 1))))
      return;
    if (isInput && kind == SignatureKind::Input && operand.type == operand::InputPatchConstant)
      kind = SignatureKind::PatchConstant;
    const uint32_t reg = operand.indices[operand.indexCount - 1];
    TypeEvidence* entry = nullptr;
    for (TypeEvidence& e : m_info.typeEvidence)
      if (e.signature == kind && e.registerIndex == reg)
        entry = &e;
    if (!entry) {
      m_info.typeEvidence.push_back(TypeEvidence{kind, reg});
      entry = &m_info.typeEvidence.back();
    }
    (type == kTypeFloat ? entry->floatMask : type == kTypeUint ? entry->uintMask : entry->sintMask) |= mask;
  }

  ShaderInfo& m_info;
  std::vector<uint8_t> m_temps;
};

bool isIoDeclaration(uint32_t opcode) {
  return opcode >= op::DclInput && opcode <= op::DclOutputSiv;
}

bool hasSystemValueToken(uint32_t opcode) {
  switch (opcode) {
    case op::DclInputSgv: case op::DclInputSiv: case op::DclInputPsSgv:
    case op::DclInputPsSiv: case op::DclOutputSgv: case op::DclOutputSiv:
      return true;
    default:
      return false;
  }
}

// Which signature a declared operand belongs to, or false when the operand is a
// system-generated value that no signature lists (thread ids, domain point, ...).
bool signatureOf(ProgramType type, HullPhase phase, uint32_t operandType, bool isOutput,
                 SignatureKind& kind) {
  switch (operandType) {
    case operand::Input:
    case operand::InputControlPoint:
      kind = SignatureKind::Input;
      return true;
    case operand::InputPatchConstant:
      kind = SignatureKind::PatchConstant;
      return true;
    case operand::OutputControlPoint:
      kind = SignatureKind::Output;
      return true;
    case operand::Output:
      kind = (type == ProgramType::Hull &&
              (phase == HullPhase::Fork || phase == HullPhase::Join))
                 ? SignatureKind::PatchConstant
                 : SignatureKind::Output;
      return true;
    case operand::OutputDepth:
    case operand::OutputDepthGreaterEqual:
    case operand::OutputDepthLessEqual:
    case operand::OutputCoverageMask:
    case operand::OutputStencilRef:
      kind = SignatureKind::Output;
      return true;
    case operand::InputPrimitiveId:
    case operand::InputCoverageMask:
    case operand::InnerCoverage:
    case operand::InputGsInstanceId:
    case operand::InputDomainPoint:
    case operand::OutputControlPointId:
    case operand::InputForkInstanceId:
    case operand::InputJoinInstanceId:
    case operand::InputThreadId:
    case operand::InputThreadGroupId:
    case operand::InputThreadIdInGroup:
    case operand::InputThreadIdInGroupFlattened:
      kind = isOutput ? SignatureKind::Output : SignatureKind::Input;
      return true;
    default:
      return false;
  }
}

}  // namespace

Status scanShader(const ShaderCode& code, ShaderInfo& out) {
  out = ShaderInfo();
  out.type = code.type;
  out.major = code.major;
  out.minor = code.minor;
  out.lengthInTokens = code.lengthInTokens;

  const TokenStream& tokens = code.tokens;
  const uint32_t end = code.lengthInTokens;
  if (end > tokens.size())
    return Status::fail(ErrorCode::ShaderTruncated, "token stream shorter than declared", 4);

  HullPhase phase = code.type == ProgramType::Hull ? HullPhase::Declarations : HullPhase::None;
  TypeTracker types(out);
  uint32_t stream = 0;
  uint32_t pos = 2;
  while (pos < end) {
    const uint32_t opcodeToken = tokens[pos];
    const uint32_t opcode = token::opcode(opcodeToken);
    uint32_t length = token::instructionLength(opcodeToken);
    if (opcode == op::CustomData) {
      if (end - pos < 2)
        return Status::fail(ErrorCode::ShaderBadInstruction, "custom data length missing", pos * 4);
      length = tokens[pos + 1];
      if (length < 2)
        return Status::fail(ErrorCode::ShaderBadInstruction, "custom data shorter than its header",
                            pos * 4);
    }
    if (length == 0)
      return Status::fail(ErrorCode::ShaderBadInstruction, "instruction of length zero", pos * 4);
    if (length > end - pos)
      return Status::fail(ErrorCode::ShaderBadInstruction, "instruction runs past the shader",
                          pos * 4);
    ++out.instructionCount;

    InstructionCursor cursor(tokens, pos + 1, pos + length);
    if (opcode != op::CustomData) {
      uint32_t extended = opcodeToken;
      while (token::opcodeExtended(extended)) {
        if (!cursor.read(extended))
          return Status::fail(ErrorCode::ShaderBadInstruction, "extended opcode token missing",
                              pos * 4);
      }
    }

    if (!hasNonOperandTokens(opcode) && !isIoDeclaration(opcode)) {
      InputReadCollector collector(out);
      bool complete = true;
      DeclOperand operands[8];
      size_t count = 0;
      while (cursor.position() < pos + length) {
        DeclOperand operand;
        if (!readOperand(cursor, operand, 0, &collector).ok()) {
          complete = false;
          break;
        }
        if (count < 8)
          operands[count++] = operand;
      }
      if (!complete)
        out.readsComplete = false;
      else
        types.instruction(opcode, phase, operands, count);
    }

    switch (opcode) {
      case op::HsDecls: phase = HullPhase::Declarations; break;
      case op::HsControlPointPhase:
        phase = HullPhase::ControlPoint;
        out.hasControlPointPhase = true;
        break;
      case op::HsForkPhase: phase = HullPhase::Fork; break;
      case op::HsJoinPhase: phase = HullPhase::Join; break;
      case op::DclInputControlPointCount:
        out.inputControlPointCount = token::controlPointCount(opcodeToken);
        break;
      case op::DclOutputControlPointCount:
        out.outputControlPointCount = token::controlPointCount(opcodeToken);
        break;
      case op::DclGlobalFlags: out.globalFlags = (opcodeToken >> 11) & 0x1fff; break;
      case op::DclTessDomain: out.tessDomain = token::tessDomain(opcodeToken); break;
      case op::DclGsInputPrimitive: out.gsInputPrimitive = token::gsInputPrimitive(opcodeToken); break;
      case op::DclStream: {
        DeclOperand operand;
        Status status = readOperand(cursor, operand, 0);
        if (!status.ok())
          return status;
        if (operand.type != operand::Stream || operand.indexCount < 1 || operand.indices[0] > 3)
          return Status::fail(ErrorCode::ShaderBadOperand, "dcl_stream without a stream 0..3",
                              pos * 4);
        stream = operand.indices[0];
        out.streamMask |= 1u << stream;
        break;
      }
      default:
        break;
    }

    if (isIoDeclaration(opcode)) {
      DeclOperand operand;
      Status status = readOperand(cursor, operand, 0);
      if (!status.ok())
        return status;
      IoDeclaration decl;
      decl.opcode = opcode;
      decl.operandType = operand.type;
      decl.mask = uint8_t(operand.mask);
      decl.minPrecision = operand.minPrecision;
      decl.stream = stream;
      decl.phase = phase;
      decl.tokenOffset = pos;
      if (opcode >= op::DclInputPs && opcode <= op::DclInputPsSiv)
        decl.interpolation = token::interpolationMode(opcodeToken);
      if (hasSystemValueToken(opcode)) {
        uint32_t name;
        if (!cursor.read(name))
          return Status::fail(ErrorCode::ShaderBadOperand, "system value token missing", pos * 4);
        decl.systemValue = name & 0xffff;
      }
      if (operand.minPrecision)
        out.usesMinPrecision = true;
      const bool isOutput = opcode >= op::DclOutput;
      if (signatureOf(code.type, phase, operand.type, isOutput, decl.signature)) {
        if (operand.relativeMask)
          return Status::fail(ErrorCode::ShaderBadOperand, "declaration with relative index",
                              pos * 4);
        decl.registerIndex = operand.indexCount ? operand.indices[operand.indexCount - 1]
                                                : kNoRegister;
        // Register-less scalars (oMask, vPrim) may be encoded with zero components.
        if (decl.registerIndex == kNoRegister && !decl.mask)
          decl.mask = 0x1;
        out.declarations.push_back(decl);
      }
    }
    pos += length;
  }
  return Status::success();
}

}  // namespace dxbc
