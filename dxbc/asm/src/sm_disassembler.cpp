// SPDX-License-Identifier: MIT
#include "dxbc/asm/disassembler.h"

#include <cstdio>
#include <string_view>
#include <vector>

#include "sm_format.h"
#include "sm_opcodes.h"
#include "sm_tokens.h"

namespace dxbc::sm {
namespace {

enum class Role { Dst, Src, Decl };

constexpr char kComponentLetters[] = "xyzw";

std::string hex32(uint32_t value) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", value);
  return buf;
}

std::string maskLetters(uint32_t mask) {
  std::string out;
  for (uint32_t i = 0; i < 4; i++) {
    if (mask & (1u << i))
      out += kComponentLetters[i];
  }
  return out;
}

std::string returnTypeList(uint32_t token) {
  std::string out = "(";
  for (uint32_t i = 0; i < 4; i++) {
    std::string_view name = nameOf(kReturnTypes, bits(token, 4 * i, 4));
    if (name.empty())
      return {};
    if (i)
      out += ',';
    out += name;
  }
  return out + ")";
}

// Prints one instruction. Every print* member returns false where the tokens hold
// something fxc syntax (as this assembler reads it) cannot reproduce exactly; the caller
// then falls back to `.raw`.
class InstructionPrinter {
public:
  InstructionPrinter(std::span<const uint32_t> tokens, bool sm51)
  : m_tokens(tokens), m_sm51(sm51) { }

  bool print(std::string& out);

private:
  std::span<const uint32_t> m_tokens;
  size_t m_pos = 1;
  bool m_sm51;

  bool take(uint32_t& value) {
    if (m_pos >= m_tokens.size())
      return false;
    value = m_tokens[m_pos++];
    return true;
  }

  bool atEnd() const { return m_pos == m_tokens.size(); }

  bool printGeneric(const OpcodeInfo& info, std::string& out);
  bool printDeclaration(const OpcodeInfo& info, std::string& out);
  bool printCustomData(std::string& out);
  bool printOperand(Role role, ValueType type, std::string& out, bool declRange = false);
  bool printIndex(uint32_t rep, std::string& out);
  bool printSpace(std::string& out);
};

bool InstructionPrinter::printIndex(uint32_t rep, std::string& out) {
  uint32_t value = 0;
  switch (IndexRep(rep)) {
    case IndexRep::Imm32:
      if (!take(value))
        return false;
      out += std::to_string(value);
      return true;
    case IndexRep::Relative:
      return printOperand(Role::Src, ValueType::Int, out);
    case IndexRep::Imm32Relative: {
      if (!take(value))
        return false;
      if (!printOperand(Role::Src, ValueType::Int, out))
        return false;
      out += " + " + std::to_string(value);
      return true;
    }
    default:
      return false;   // 64-bit indices: no shader uses them, no syntax for them
  }
}

bool InstructionPrinter::printOperand(Role role, ValueType valueType, std::string& out,
                                      bool declRange) {
  uint32_t token;
  if (!take(token))
    return false;

  uint32_t ext = 0;
  if (OperandTokenLayout::extended(token)) {
    if (!take(ext))
      return false;
    // One extended token of type "modifier", no reserved bits.
    if (bits(ext, 0, 6) != 1 || (ext & ~0x3ffffu) != 0)
      return false;
  }

  auto type = OperandType(OperandTokenLayout::type(token));
  auto numComponents = NumComponents(OperandTokenLayout::numComponents(token));
  uint32_t dims = OperandTokenLayout::indexDimension(token);
  if (uint32_t(type) >= uint32_t(OperandType::Count) || numComponents == NumComponents::N)
    return false;
  // Index representations of indices the operand does not have must be zero.
  if (bits(token, 22 + 3 * dims, 9 - 3 * dims) != 0)
    return false;

  std::string body;
  if (type == OperandType::Immediate32 || type == OperandType::Immediate64) {
    if (dims != 0 || bits(token, 2, 10) != 0)
      return false;
    uint32_t count = numComponents == NumComponents::One ? 1
        : numComponents == NumComponents::Four ? 4 : 0;
    if (!count)
      return false;
    bool wide = type == OperandType::Immediate64;
    body = wide ? "d(" : "l(";
    uint32_t values = wide ? (count == 1 ? 1 : 2) : count;
    for (uint32_t i = 0; i < values; i++) {
      if (i)
        body += wide ? ", " : ",";
      if (wide) {
        uint32_t lo, hi;
        if (!take(lo) || !take(hi))
          return false;
        uint64_t bits64 = (uint64_t(hi) << 32) | lo;
        body += formatDouble(bits64);
      } else {
        uint32_t value;
        if (!take(value))
          return false;
        body += formatValue(value, valueType);
      }
    }
    body += ')';
  } else {
    const char* prefix = operandTypePrefix(type);
    if (operandTypeIsIndexless(type)) {
      if (dims != 0)
        return false;
      body = prefix;
    } else {
      // Declarations print constant buffers as fxc does (CB0[4]); SM5.1 register
      // ranges read t0[0:3].
      bool upper = role == Role::Decl && type == OperandType::ConstantBuffer;
      std::string name = prefix;
      if (upper) {
        for (char& c : name)
          c = char(std::toupper(static_cast<unsigned char>(c)));
      }
      bool bracketFirst = type == OperandType::ImmediateConstantBuffer ||
          type == OperandType::InputControlPoint || type == OperandType::OutputControlPoint ||
          (type == OperandType::Input && dims == 2) ||
          (dims > 0 && IndexRep(OperandTokenLayout::indexRep(token, 0)) != IndexRep::Imm32);
      body = name;
      for (uint32_t i = 0; i < dims; i++) {
        uint32_t rep = OperandTokenLayout::indexRep(token, i);
        // An SM5.1 range (id, lower, upper) is immediates only: t0[vThreadID:2] would not
        // read back (a fuzzer finding, regressions/dxbc/relative-range-lower-bound).
        if (declRange && dims == 3 && IndexRep(rep) != IndexRep::Imm32)
          return false;
        if (i == 0 && !bracketFirst) {
          if (!printIndex(rep, body))
            return false;
          continue;
        }
        if (declRange && i == 2) {
          // Range upper bound follows the lower bound inside the same brackets.
          if (IndexRep(rep) != IndexRep::Imm32 || body.back() != ']')
            return false;
          body.pop_back();
          body += ':';
          uint32_t upperBound;
          if (!take(upperBound))
            return false;
          body += upperBound == 0xffffffffu ? std::string("*") : std::to_string(upperBound);
          body += ']';
          continue;
        }
        body += '[';
        if (!printIndex(rep, body))
          return false;
        body += ']';
      }
      if (dims == 0 && type != OperandType::Null && type != OperandType::Rasterizer &&
          type != OperandType::ThisPointer)
        return false;   // a register file without a register number
    }

    uint32_t componentBits = bits(token, 2, 10);
    switch (numComponents) {
      case NumComponents::Zero:
      case NumComponents::One: {
        NumComponents expected = componentsWithoutSuffix(type);
        if (role == Role::Decl) {
          DeclComponents decl = declComponentsWithoutSuffix(type, m_sm51);
          expected = decl == DeclComponents::One ? NumComponents::One : NumComponents::Zero;
          if (decl == DeclComponents::FourSwizzleXyzw)
            return false;
        }
        if (componentBits != 0 || expected != numComponents)
          return false;
        break;
      }
      case NumComponents::Four: {
        auto mode = SelectionMode(bits(token, 2, 2));
        if (mode == SelectionMode::Mask) {
          uint32_t mask = OperandTokenLayout::mask(token);
          int count = __builtin_popcount(mask);
          if (bits(token, 8, 4) != 0 || mask == 0)
            return false;
          if (role == Role::Src && (count == 1 || count == 4))
            return false;
          body += '.' + maskLetters(mask);
        } else if (mode == SelectionMode::Swizzle && role == Role::Decl) {
          // Only the implicit .xyzw of constant buffers and SM5.1 ranges.
          if (OperandTokenLayout::swizzle(token) != 0xe4 ||
              declComponentsWithoutSuffix(type, m_sm51) != DeclComponents::FourSwizzleXyzw)
            return false;
        } else if (mode == SelectionMode::Swizzle) {
          if (role != Role::Src)
            return false;
          uint32_t swizzle = OperandTokenLayout::swizzle(token);
          body += '.';
          for (uint32_t i = 0; i < 4; i++)
            body += kComponentLetters[bits(swizzle, 2 * i, 2)];
        } else if (mode == SelectionMode::Select1) {
          if (role != Role::Src || bits(token, 6, 6) != 0)
            return false;
          body += '.';
          body += kComponentLetters[OperandTokenLayout::select1(token)];
        } else {
          return false;
        }
        break;
      }
      default:
        return false;
    }
  }

  auto modifier = OperandModifier(bits(ext, 6, 8));
  switch (modifier) {
    case OperandModifier::None: out += body; break;
    case OperandModifier::Neg: out += '-' + body; break;
    case OperandModifier::Abs: out += '|' + body + '|'; break;
    case OperandModifier::AbsNeg: out += "-|" + body + '|'; break;
    default: return false;
  }
  if (OperandTokenLayout::extended(token)) {
    uint32_t precision = bits(ext, 14, 3);
    bool nonUniform = bits(ext, 17, 1) != 0;
    std::string_view precisionName = nameOf(kMinPrecisions, precision);
    if (precisionName.empty())
      return false;
    // An extended token that says nothing still has to come back: {def32} keeps it.
    if (precision != 0 || (modifier == OperandModifier::None && !nonUniform))
      out += " {" + std::string(precisionName) + "}";
    if (nonUniform)
      out += " {nonuniform}";
  }
  return true;
}

bool InstructionPrinter::printGeneric(const OpcodeInfo& info, std::string& out) {
  uint32_t opcodeToken = m_tokens[0];
  std::string name(info.name);
  std::string groups;
  bool hasOffsets = false, hasDim = false;

  if (opcodeToken & kOpcodeExtendedBit) {
    uint32_t ext;
    do {
      if (!take(ext))
        return false;
      switch (ExtOpcode(bits(ext, 0, 6))) {
        case ExtOpcode::SampleControls: {
          if (hasOffsets || (ext & 0x7fe001c0u) != 0)
            return false;
          hasOffsets = true;
          groups += '(';
          for (uint32_t i = 0; i < 3; i++) {
            auto offset = int32_t(bits(ext, 9 + 4 * i, 4) << 28) >> 28;
            if (i)
              groups += ',';
            groups += std::to_string(offset);
          }
          groups += ')';
          break;
        }
        case ExtOpcode::ResourceDim: {
          if (hasDim || (ext & 0x7f800000u) != 0)
            return false;
          hasDim = true;
          std::string_view dim = nameOf(kResourceDimensions, bits(ext, 6, 5));
          uint32_t stride = bits(ext, 11, 12);
          if (dim.empty())
            return false;
          groups += '(' + std::string(dim);
          if (stride || bits(ext, 6, 5) == 12)
            groups += ", stride=" + std::to_string(stride);
          groups += ')';
          break;
        }
        case ExtOpcode::ResourceReturnType: {
          if ((ext & 0x7fc00000u) != 0)
            return false;
          std::string list = returnTypeList(bits(ext, 6, 16));
          if (list.empty())
            return false;
          groups += list;
          break;
        }
        default:
          return false;
      }
    } while (ext & kOpcodeExtendedBit);
  }
  if (hasOffsets)
    name += "_aoffimmi";
  if (hasDim)
    name += "_indexable";
  name += groups;

  // Opcode-specific bits 11-23: each must be explained by a suffix.
  uint32_t controls = opcodeToken & 0x00fff800u;
  uint32_t explained = 0;
  std::string suffix;
  if (info.flags & kOpResInfo) {
    explained |= 0x3u << 11;
    switch (bits(opcodeToken, 11, 2)) {
      case 0: break;
      case 1: suffix += "_rcpFloat"; break;
      case 2: suffix += "_uint"; break;
      default: return false;
    }
  }
  if (info.flags & kOpSampleInfo) {
    explained |= 1u << 11;
    if (opcodeToken & (1u << 11))
      suffix += "_uint";
  }
  if (info.flags & kOpSync) {
    explained |= 0xfu << 11;
    if (opcodeToken & (1u << 14)) suffix += "_uglobal";
    if (opcodeToken & (1u << 13)) suffix += "_ugroup";
    if (opcodeToken & (1u << 11)) suffix += "_g";
    if (opcodeToken & (1u << 12)) suffix += "_t";
  }
  if (!(info.flags & kOpNoSaturate)) {
    explained |= kSaturateBit;
    if (opcodeToken & kSaturateBit)
      suffix += "_sat";
  }
  if (info.flags & kOpTest) {
    explained |= kTestNonZeroBit;
    suffix += (opcodeToken & kTestNonZeroBit) ? "_nz" : "_z";
  }
  explained |= 0xfu << kPreciseShift;
  if (controls & ~explained)
    return false;
  name += suffix;
  if (uint32_t precise = bits(opcodeToken, kPreciseShift, 4))
    name += " [precise(" + maskLetters(precise) + ")]";

  out += name;
  uint32_t count = info.numDst + info.numSrc;
  for (uint32_t i = 0; i < count; i++) {
    out += i ? ", " : " ";
    if (!printOperand(i < info.numDst ? Role::Dst : Role::Src, info.type, out))
      return false;
  }
  // Tokens past the last operand inside the declared length (fxc pads samplepos so).
  for (bool first = true; !atEnd(); first = false)
    out += (first ? " .tail " : ", ") + hex32(m_tokens[m_pos++]);
  return true;
}

bool InstructionPrinter::printSpace(std::string& out) {
  if (!m_sm51)
    return true;
  uint32_t space;
  if (!take(space))
    return false;
  out += ", space=" + std::to_string(space);
  return true;
}

bool InstructionPrinter::printDeclaration(const OpcodeInfo& info, std::string& out) {
  uint32_t token = m_tokens[0];
  if (token & kOpcodeExtendedBit)
    return false;
  uint32_t controls = bits(token, 11, 13);
  std::string name(info.name);
  std::string rest;
  uint32_t value;

  // Checks that opcode bits 11-23 outside [lo, lo+count) are zero.
  auto onlyControls = [&](uint32_t lo, uint32_t count) {
    uint32_t allowed = count ? (((1u << count) - 1) << (lo - 11)) : 0;
    return (controls & ~allowed) == 0;
  };
  auto enumName = [&](std::span<const NamedValue> table, uint32_t v, std::string& dst) {
    std::string_view n = nameOf(table, v);
    if (n.empty())
      return false;
    dst += n;
    return true;
  };
  bool range = m_sm51;

  switch (info.form) {
    case OpForm::DclGlobalFlags: {
      if (!onlyControls(11, 8))
        return false;
      uint32_t flags = bits(token, 11, 8);
      std::string list;
      for (const NamedValue& flag : kGlobalFlags) {
        if (flags & flag.value) {
          list += list.empty() ? " " : " | ";
          list += flag.name;
        }
      }
      rest = list;
      break;
    }
    case OpForm::DclConstantBuffer: {
      if (!onlyControls(11, 1))
        return false;
      rest += ' ';
      if (!printOperand(Role::Decl, ValueType::Any, rest, range))
        return false;
      if (m_sm51) {
        if (!take(value))
          return false;
        rest += '[' + std::to_string(value) + ']';
      }
      rest += (token & (1u << 11)) ? ", dynamicIndexed" : ", immediateIndexed";
      if (!printSpace(rest))
        return false;
      break;
    }
    case OpForm::DclSampler: {
      if (!onlyControls(11, 4))
        return false;
      rest += ' ';
      if (!printOperand(Role::Decl, ValueType::Any, rest, range))
        return false;
      rest += ", ";
      if (!enumName(kSamplerModes, bits(token, 11, 4), rest) || !printSpace(rest))
        return false;
      break;
    }
    case OpForm::DclResource:
    case OpForm::DclUavTyped: {
      bool uav = info.form == OpForm::DclUavTyped;
      if (!onlyControls(11, uav ? 7 : 12))
        return false;
      uint32_t dim = bits(token, 11, 5);
      name += '_';
      if (!enumName(kResourceDimensions, dim, name) || dim == 0 || dim > 10)
        return false;
      if (uav) {
        if (dim == 4 || dim == 9)
          return false;
        if (token & (1u << 16)) name += "_glc";
        if (token & (1u << 17)) name += "_rov";
      } else {
        uint32_t samples = bits(token, 16, 7);
        if (dim == 4 || dim == 9)
          name += '(' + std::to_string(samples) + ')';
        else if (samples)
          return false;
      }
      // Operand first in the tokens, return types first in the text.
      std::string operand;
      if (!printOperand(Role::Decl, ValueType::Any, operand, range) || !take(value))
        return false;
      std::string types = returnTypeList(bits(value, 0, 16));
      if (types.empty() || (value >> 16) != 0)
        return false;
      rest = " " + types + " " + operand;
      if (!printSpace(rest))
        return false;
      break;
    }
    case OpForm::DclOperand:
    case OpForm::DclResourceRaw:
    case OpForm::DclUavRaw:
      if (info.form == OpForm::DclUavRaw) {
        if (!onlyControls(16, 2))
          return false;
        if (token & (1u << 16)) name += "_glc";
        if (token & (1u << 17)) name += "_rov";
      } else if (controls) {
        return false;
      }
      rest += ' ';
      if (!printOperand(Role::Decl, ValueType::Any, rest,
                        range && info.form != OpForm::DclOperand))
        return false;
      if (info.form != OpForm::DclOperand && !printSpace(rest))
        return false;
      break;
    case OpForm::DclOperandName:
    case OpForm::DclInputPs:
    case OpForm::DclInputPsName: {
      bool ps = info.form != OpForm::DclOperandName;
      if (!onlyControls(11, ps ? 4 : 0))
        return false;
      rest += ' ';
      if (ps && bits(token, 11, 4)) {
        if (!enumName(kInterpolationModes, bits(token, 11, 4), rest))
          return false;
        rest += ' ';
      }
      if (!printOperand(Role::Decl, ValueType::Any, rest))
        return false;
      if (info.form != OpForm::DclInputPs) {
        if (!take(value))
          return false;
        rest += ", ";
        std::string_view sv = nameOf(kSystemValueNames, value);
        rest += sv.empty() ? std::to_string(value) : std::string(sv);
      }
      break;
    }
    case OpForm::DclCount:
    case OpForm::DclFunctionBody:
      if (controls || !take(value))
        return false;
      rest = info.form == OpForm::DclFunctionBody ? " fb" + std::to_string(value)
                                                  : " " + std::to_string(value);
      break;
    case OpForm::DclIndexableTemp: {
      uint32_t reg, size, components;
      if (controls || !take(reg) || !take(size) || !take(components))
        return false;
      rest = " x" + std::to_string(reg) + "[" + std::to_string(size) + "], " +
             std::to_string(components);
      break;
    }
    case OpForm::DclIndexRange:
      if (controls)
        return false;
      rest += ' ';
      if (!printOperand(Role::Decl, ValueType::Any, rest) || !take(value))
        return false;
      rest += ' ' + std::to_string(value);
      break;
    case OpForm::DclGsInputPrimitive:
      if (!onlyControls(11, 6))
        return false;
      rest += ' ';
      if (!enumName(kGsPrimitives, bits(token, 11, 6), rest))
        return false;
      break;
    case OpForm::DclGsOutputTopology:
      if (!onlyControls(11, 7))
        return false;
      rest += ' ';
      if (!enumName(kGsTopologies, bits(token, 11, 7), rest))
        return false;
      break;
    case OpForm::DclControlPointCount:
      if (!onlyControls(11, 6))
        return false;
      rest = " " + std::to_string(bits(token, 11, 6));
      break;
    case OpForm::DclTessDomain:
      if (!onlyControls(11, 2))
        return false;
      rest += ' ';
      if (!enumName(kTessDomains, bits(token, 11, 2), rest))
        return false;
      break;
    case OpForm::DclTessPartitioning:
      if (!onlyControls(11, 3))
        return false;
      rest += ' ';
      if (!enumName(kTessPartitionings, bits(token, 11, 3), rest))
        return false;
      break;
    case OpForm::DclTessOutputPrimitive:
      if (!onlyControls(11, 3))
        return false;
      rest += ' ';
      if (!enumName(kTessOutputPrimitives, bits(token, 11, 3), rest))
        return false;
      break;
    case OpForm::DclFloat:
      if (controls || !take(value))
        return false;
      rest = " l(" + formatFloat(value) + ")";
      break;
    case OpForm::DclThreadGroup: {
      uint32_t x, y, z;
      if (controls || !take(x) || !take(y) || !take(z))
        return false;
      rest = " " + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z);
      break;
    }
    case OpForm::DclUavStructured:
    case OpForm::DclResourceStructured:
    case OpForm::DclTgsmRaw:
    case OpForm::DclTgsmStructured: {
      if (info.form == OpForm::DclUavStructured) {
        if ((controls & ~((1u << 5) | (1u << 6) | (1u << 12))) != 0)
          return false;
        if (token & (1u << 16)) name += "_glc";
        if (token & (1u << 17)) name += "_rov";
        if (token & (1u << 23)) name += "_opc";
      } else if (controls) {
        return false;
      }
      bool tgsm = info.form == OpForm::DclTgsmRaw || info.form == OpForm::DclTgsmStructured;
      rest += ' ';
      if (!printOperand(Role::Decl, ValueType::Any, rest, range && !tgsm) || !take(value))
        return false;
      rest += ", " + std::to_string(value);
      if (info.form == OpForm::DclTgsmStructured) {
        if (!take(value))
          return false;
        rest += ", " + std::to_string(value);
      }
      if (!tgsm && !printSpace(rest))
        return false;
      break;
    }
    case OpForm::DclFunctionTable: {
      uint32_t id, count;
      if (controls || !take(id) || !take(count))
        return false;
      rest = " ft" + std::to_string(id) + " = {";
      for (uint32_t i = 0; i < count; i++) {
        if (!take(value))
          return false;
        rest += (i ? ", fb" : "fb") + std::to_string(value);
      }
      rest += '}';
      break;
    }
    case OpForm::DclInterface: {
      // dcl_interface[_dynamicindexed] fp<id>[<array length>][<call sites>] = {ft...}
      uint32_t id, callSites, lengths;
      if (!onlyControls(11, 1) || !take(id) || !take(callSites) || !take(lengths))
        return false;
      if (token & (1u << 11))
        name += "_dynamicindexed";
      rest = " fp" + std::to_string(id) + "[" + std::to_string(lengths >> 16) + "][" +
             std::to_string(callSites) + "] = {";
      for (uint32_t i = 0; i < (lengths & 0xffff); i++) {
        if (!take(value))
          return false;
        rest += (i ? ", ft" : "ft") + std::to_string(value);
      }
      rest += '}';
      break;
    }
    case OpForm::InterfaceCall: {
      // fcall fp#[array index][call site], <function index>: the index token comes first.
      if (controls || !take(value))
        return false;
      rest += ' ';
      if (!printOperand(Role::Src, ValueType::Int, rest))
        return false;
      rest += ", " + std::to_string(value);
      break;
    }
    case OpForm::Phase:
      if (controls)
        return false;
      break;
    default:
      return false;
  }
  out += name + rest;
  return atEnd();
}

bool InstructionPrinter::printCustomData(std::string& out) {
  uint32_t dataClass = m_tokens[0] >> 11;
  if (m_tokens.size() < 2)
    return false;
  if (dataClass != 3 || (m_tokens.size() - 2) % 4 != 0) {
    // Comments, debug info, opaque blobs: customdata <class> { 0x..., ... }
    std::string_view name = nameOf(kCustomDataClasses, dataClass);
    out += "customdata " + (name.empty() ? std::to_string(dataClass) : std::string(name)) + " {";
    for (size_t i = 2; i < m_tokens.size(); i++)
      out += (i == 2 ? " " : ", ") + hex32(m_tokens[i]);
    out += " }";
    m_pos = m_tokens.size();
    return true;
  }
  // fxc lays the buffer out one vec4 per line, aligned under the first brace.
  const std::string_view head = "dcl_immediateConstantBuffer { ";
  out += head;
  size_t rows = (m_tokens.size() - 2) / 4;
  for (size_t row = 0; row < rows; row++) {
    if (row)
      out += ",\n" + std::string(head.size(), ' ');
    out += "{ ";
    for (size_t c = 0; c < 4; c++) {
      if (c)
        out += ", ";
      out += formatValue(m_tokens[2 + row * 4 + c], ValueType::Any);
    }
    out += '}';
  }
  if (rows == 0)
    out += "{ }";   // unusual, but keeps the empty block
  out += " }";
  m_pos = m_tokens.size();
  return true;
}

bool InstructionPrinter::print(std::string& out) {
  uint32_t opcode = m_tokens[0] & kOpcodeTypeMask;
  const OpcodeInfo* info = findOpcode(opcode);
  if (!info)
    return false;
  if (info->form == OpForm::CustomData)
    return printCustomData(out);
  if (info->form == OpForm::Generic)
    return printGeneric(*info, out);
  if (info->form == OpForm::InterfaceCall && (m_tokens[0] & kOpcodeExtendedBit))
    return false;
  return printDeclaration(*info, out);
}

const char* programPrefix(uint32_t type) {
  switch (ProgramType(type)) {
    case ProgramType::Pixel: return "ps";
    case ProgramType::Vertex: return "vs";
    case ProgramType::Geometry: return "gs";
    case ProgramType::Hull: return "hs";
    case ProgramType::Domain: return "ds";
    case ProgramType::Compute: return "cs";
  }
  return nullptr;
}

}  // namespace

Status disassembleProgram(std::span<const uint32_t> tokens, std::string& text,
                          DisassemblyStats* stats) {
  DisassemblyStats localStats;
  if (tokens.size() < 2)
    return Status::fail(ErrorCode::ShaderTruncated, "token stream shorter than its header");
  uint32_t version = tokens[0];
  uint32_t length = tokens[1];
  const char* prefix = programPrefix(version >> 16);
  uint32_t major = bits(version, 4, 4), minor = bits(version, 0, 4);
  if (!prefix || major < 4 || major > 5 || minor > 1 || bits(version, 8, 8) != 0)
    return Status::fail(ErrorCode::ShaderBadVersion, "not a shader model 4.0-5.1 program");
  if (length < 2 || length > tokens.size())
    return Status::fail(ErrorCode::ShaderTruncated, "declared length exceeds the token stream");
  bool sm51 = major == 5 && minor == 1;

  std::string out = std::string(prefix) + "_" + std::to_string(major) + "_" +
                    std::to_string(minor) + "\n";
  size_t pos = 2;
  while (pos < length) {
    uint32_t opcodeToken = tokens[pos];
    size_t size;
    if ((opcodeToken & kOpcodeTypeMask) == kOpcodeCustomData) {
      if (pos + 1 >= length)
        return Status::fail(ErrorCode::ShaderBadInstruction, "customdata without length",
                            uint32_t(pos * 4));
      size = tokens[pos + 1];
    } else {
      size = bits(opcodeToken, kOpcodeLengthShift, kOpcodeLengthBits);
    }
    if (size == 0 || size > length - pos)
      return Status::fail(ErrorCode::ShaderBadInstruction,
                          "instruction length is zero or runs past the end", uint32_t(pos * 4));

    std::span<const uint32_t> instruction = tokens.subspan(pos, size);
    std::string line;
    InstructionPrinter printer(instruction, sm51);
    if (!printer.print(line)) {
      line = ".raw";
      for (size_t i = 0; i < instruction.size(); i++)
        line += (i ? ", " : " ") + hex32(instruction[i]);
      localStats.rawInstructions++;
    }
    localStats.instructions++;
    out += line;
    out += '\n';
    pos += size;
  }
  if (length != tokens.size())
    out += "// " + std::to_string(tokens.size() - length) + " token(s) after the program\n";
  text = std::move(out);
  if (stats)
    *stats = localStats;
  return Status::success();
}

}  // namespace dxbc::sm
