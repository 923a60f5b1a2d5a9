// SPDX-License-Identifier: MIT
#include "dxbc/asm/assembler.h"

#include <cerrno>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "sm_lexer.h"
#include "sm_opcodes.h"
#include "sm_program_assembler.h"
#include "sm_tokens.h"

namespace dxbc::sm {
namespace {

enum class Role { Dst, Src, Decl };

struct OperandIndex {
  IndexRep rep = IndexRep::Imm32;
  uint32_t value = 0;
  std::vector<uint32_t> relative;   // encoded relative operand
};

// An operand as written, before encoding. Declarations sometimes take it apart
// (SM5.1 constant buffer size).
struct ParsedOperand {
  OperandType type = OperandType::Temp;
  NumComponents components = NumComponents::Zero;
  SelectionMode selection = SelectionMode::Mask;
  uint32_t selectionBits = 0;
  std::vector<OperandIndex> indices;
  std::vector<uint32_t> immediates;
  OperandModifier modifier = OperandModifier::None;
  uint32_t minPrecision = 0;
  bool nonUniform = false;
  bool forceExtended = false;
};

struct Group {
  size_t begin;   // first token inside the parentheses
  size_t end;     // the closing parenthesis
};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

std::vector<std::string_view> splitUnderscores(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('_', start);
    if (end == std::string_view::npos)
      end = text.size();
    if (end > start)
      parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

class ProgramAssembler {
public:
  explicit ProgramAssembler(const std::vector<LexToken>& tokens) : m_toks(tokens) { }

  bool run(std::vector<uint32_t>& program);
  const AssemblyError& error() const { return m_error; }

private:
  const std::vector<LexToken>& m_toks;
  size_t m_pos = 0;
  bool m_sm51 = false;
  bool m_failed = false;
  AssemblyError m_error;

  const LexToken& peek(size_t ahead = 0) const {
    size_t index = m_pos + ahead;
    return index < m_toks.size() ? m_toks[index] : m_toks.back();
  }
  const LexToken& next() {
    const LexToken& token = peek();
    if (m_pos < m_toks.size() - 1)
      m_pos++;
    return token;
  }
  bool atStatementEnd() const {
    return peek().kind == LexKind::Newline || peek().kind == LexKind::End;
  }

  bool fail(const LexToken& at, std::string message) {
    if (!m_failed) {
      m_failed = true;
      m_error.line = at.line;
      m_error.column = at.column;
      m_error.message = std::move(message);
    }
    return false;
  }
  bool expect(char c) {
    if (!peek().is(c))
      return fail(peek(), std::string("expected '") + c + "', found " + describe(peek()));
    next();
    return true;
  }
  bool acceptComma() {
    if (peek().is(',')) {
      next();
      return true;
    }
    return false;
  }
  static std::string describe(const LexToken& token) {
    switch (token.kind) {
      case LexKind::Newline: return "end of line";
      case LexKind::End: return "end of file";
      default: return "'" + std::string(token.text) + "'";
    }
  }

  bool parseVersion(std::vector<uint32_t>& program);
  bool parseStatement(std::vector<uint32_t>& program);
  bool parseRaw(std::vector<uint32_t>& program);
  bool parseImmediateConstantBuffer(std::vector<uint32_t>& program);
  bool parseCustomData(std::vector<uint32_t>& program);
  bool parseGeneric(const OpcodeInfo& info, const std::vector<std::string_view>& modifiers,
                    const std::vector<Group>& groups, const LexToken& at,
                    std::vector<uint32_t>& insn);
  bool parseDeclaration(const OpcodeInfo& info, const std::vector<std::string_view>& modifiers,
                        const std::vector<Group>& groups, const LexToken& at,
                        std::vector<uint32_t>& insn);

  bool parseOperand(Role role, ParsedOperand& operand);
  bool parseOperandTo(Role role, std::vector<uint32_t>& out) {
    ParsedOperand operand;
    return parseOperand(role, operand) && encodeOperand(operand, out);
  }
  bool encodeOperand(const ParsedOperand& operand, std::vector<uint32_t>& out);
  bool parseIndex(std::vector<OperandIndex>& indices);
  bool parseLiteral32(uint32_t& bits);
  bool parseLiteral64(uint64_t& bits);
  bool parseUnsigned(uint32_t& value, uint32_t max = 0xffffffffu);
  bool parseNumberText(const LexToken& token, bool negative, bool wide, uint64_t& bits);
  bool parseSpace(std::vector<uint32_t>& insn);
  bool parseEnumWord(std::span<const NamedValue> table, const char* what, uint32_t& value);
  bool parseReturnTypes(const Group& group, uint32_t& token);
  bool parsePrefixedNumber(std::string_view prefix, uint32_t& value);
};

bool ProgramAssembler::parseNumberText(const LexToken& token, bool negative, bool wide,
                                       uint64_t& bits) {
  std::string text(token.text);
  if (token.kind != LexKind::Number)
    return fail(token, "expected a number, found " + describe(token));
  if (text.size() > 2 && (text[1] == 'x' || text[1] == 'X')) {
    errno = 0;
    unsigned long long value = std::strtoull(text.c_str() + 2, nullptr, 16);
    if (errno || (!wide && value > 0xffffffffull) || negative)
      return fail(token, "hexadecimal literal out of range");
    bits = value;
    return true;
  }
  bool isFloat = text.find_first_of(".eE") != std::string::npos;
  if (negative)
    text.insert(text.begin(), '-');
  if (isFloat) {
    if (wide) {
      double value = std::strtod(text.c_str(), nullptr);
      std::memcpy(&bits, &value, sizeof(value));
    } else {
      float value = std::strtof(text.c_str(), nullptr);
      uint32_t bits32;
      std::memcpy(&bits32, &value, sizeof(value));
      bits = bits32;
    }
    return true;
  }
  errno = 0;
  long long value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno)
    return fail(token, "integer literal out of range");
  if (wide) {
    bits = uint64_t(value);
    return true;
  }
  if (value < -2147483648ll || value > 4294967295ll)
    return fail(token, "integer literal does not fit in 32 bits");
  bits = uint32_t(value);
  return true;
}

bool ProgramAssembler::parseLiteral32(uint32_t& bits) {
  bool negative = false;
  if (peek().is('-')) {
    negative = true;
    next();
  }
  uint64_t value;
  if (!parseNumberText(next(), negative, false, value))
    return false;
  bits = uint32_t(value);
  return true;
}

bool ProgramAssembler::parseLiteral64(uint64_t& bits) {
  bool negative = false;
  if (peek().is('-')) {
    negative = true;
    next();
  }
  return parseNumberText(next(), negative, true, bits);
}

bool ProgramAssembler::parseUnsigned(uint32_t& value, uint32_t max) {
  const LexToken& token = peek();
  uint64_t bits;
  bool hex = token.text.size() > 1 && (token.text[1] == 'x' || token.text[1] == 'X');
  if (token.kind != LexKind::Number ||
      (!hex && token.text.find_first_of(".eE") != std::string_view::npos))
    return fail(token, "expected an unsigned integer, found " + describe(token));
  if (!parseNumberText(next(), false, false, bits))
    return false;
  if (bits > max)
    return fail(token, "value " + std::to_string(bits) + " exceeds " + std::to_string(max));
  value = uint32_t(bits);
  return true;
}

bool ProgramAssembler::parsePrefixedNumber(std::string_view prefix, uint32_t& value) {
  const LexToken& token = next();
  if (token.kind != LexKind::Ident || token.text.size() <= prefix.size() ||
      !equalsIgnoreCase(token.text.substr(0, prefix.size()), prefix))
    return fail(token, "expected " + std::string(prefix) + "<n>, found " + describe(token));
  std::string digits(token.text.substr(prefix.size()));
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return fail(token, "expected " + std::string(prefix) + "<n>, found " + describe(token));
  }
  value = uint32_t(std::strtoul(digits.c_str(), nullptr, 10));
  return true;
}

bool ProgramAssembler::parseEnumWord(std::span<const NamedValue> table, const char* what,
                                     uint32_t& value) {
  const LexToken& token = next();
  if (token.kind != LexKind::Ident || !valueOf(table, token.text, &value))
    return fail(token, std::string("expected ") + what + ", found " + describe(token));
  return true;
}

bool ProgramAssembler::parseSpace(std::vector<uint32_t>& insn) {
  if (!m_sm51)
    return true;
  if (!expect(','))
    return false;
  const LexToken& word = next();
  if (word.kind != LexKind::Ident || !equalsIgnoreCase(word.text, "space"))
    return fail(word, "expected space=<n>, found " + describe(word));
  uint32_t space;
  if (!expect('=') || !parseUnsigned(space))
    return false;
  insn.push_back(space);
  return true;
}

bool ProgramAssembler::parseReturnTypes(const Group& group, uint32_t& token) {
  token = 0;
  size_t pos = group.begin;
  for (uint32_t i = 0; i < 4; i++) {
    if (i) {
      if (!m_toks[pos].is(','))
        return fail(m_toks[pos], "expected ',' in the return type list");
      pos++;
    }
    uint32_t value;
    const LexToken& word = m_toks[pos];
    if (word.kind != LexKind::Ident || !valueOf(kReturnTypes, word.text, &value))
      return fail(word, "expected a return type (float, uint, sint, unorm, snorm, mixed, "
                        "double), found " + describe(word));
    token |= value << (4 * i);
    pos++;
  }
  if (pos != group.end)
    return fail(m_toks[pos], "expected ')' after four return types");
  return true;
}

bool ProgramAssembler::parseIndex(std::vector<OperandIndex>& indices) {
  // '[' already consumed.
  OperandIndex index;
  if (peek().kind == LexKind::Number || peek().is('*')) {
    if (peek().is('*')) {
      next();
      index.value = 0xffffffffu;
    } else if (!parseUnsigned(index.value)) {
      return false;
    }
    indices.push_back(std::move(index));
    if (peek().is(':')) {
      next();
      OperandIndex upper;
      if (peek().is('*')) {
        next();
        upper.value = 0xffffffffu;
      } else if (!parseUnsigned(upper.value)) {
        return false;
      }
      indices.push_back(std::move(upper));
    }
    return expect(']');
  }
  if (!parseOperandTo(Role::Src, index.relative))
    return false;
  index.rep = IndexRep::Relative;
  if (peek().is('+')) {
    next();
    if (!parseUnsigned(index.value))
      return false;
    index.rep = IndexRep::Imm32Relative;
  }
  indices.push_back(std::move(index));
  return expect(']');
}

bool ProgramAssembler::parseOperand(Role role, ParsedOperand& operand) {
  bool negate = false, absolute = false;
  if (peek().is('-')) {
    negate = true;
    next();
  }
  if (peek().is('|')) {
    absolute = true;
    next();
  }
  const LexToken& name = next();
  if (name.kind != LexKind::Ident)
    return fail(name, "expected an operand, found " + describe(name));

  bool isImmediate = (name.text == "l" || name.text == "d") && peek().is('(');
  if (isImmediate) {
    bool wide = name.text == "d";
    operand.type = wide ? OperandType::Immediate64 : OperandType::Immediate32;
    next();
    uint32_t count = 0;
    do {
      if (wide) {
        uint64_t value;
        if (!parseLiteral64(value))
          return false;
        operand.immediates.push_back(uint32_t(value));
        operand.immediates.push_back(uint32_t(value >> 32));
      } else {
        uint32_t value;
        if (!parseLiteral32(value))
          return false;
        operand.immediates.push_back(value);
      }
      count++;
    } while (acceptComma());
    if (!expect(')'))
      return false;
    if (wide ? (count != 1 && count != 2) : (count != 1 && count != 4))
      return fail(name, wide ? "d() takes one or two doubles" : "l() takes one or four values");
    operand.components = count == 1 ? NumComponents::One : NumComponents::Four;
  } else {
    std::string_view text = name.text;
    size_t digits = text.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(text[digits - 1])))
      digits--;
    std::string_view prefix = text.substr(0, digits);
    if (!operandTypeFromPrefix(prefix, &operand.type))
      return fail(name, "unknown register " + describe(name));
    bool indexless = operandTypeIsIndexless(operand.type);
    if (digits < text.size()) {
      if (indexless)
        return fail(name, "register " + std::string(prefix) + " takes no index");
      OperandIndex index;
      index.value = uint32_t(std::strtoul(std::string(text.substr(digits)).c_str(), nullptr, 10));
      operand.indices.push_back(std::move(index));
    }
    while (peek().is('[')) {
      if (indexless)
        return fail(peek(), "register " + std::string(prefix) + " takes no index");
      next();
      if (!parseIndex(operand.indices))
        return false;
    }
    operand.components = componentsWithoutSuffix(operand.type);
    if (role == Role::Decl) {
      switch (declComponentsWithoutSuffix(operand.type, m_sm51)) {
        case DeclComponents::Zero: operand.components = NumComponents::Zero; break;
        case DeclComponents::One: operand.components = NumComponents::One; break;
        case DeclComponents::FourSwizzleXyzw:
          operand.components = NumComponents::Four;
          operand.selection = SelectionMode::Swizzle;
          operand.selectionBits = 0xe4;
          break;
      }
    }
    if (peek().is('.') && !(peek(1).kind == LexKind::Ident && peek(1).text == "tail")) {
      next();
      const LexToken& letters = next();
      if (letters.kind != LexKind::Ident || letters.text.size() > 4)
        return fail(letters, "expected a component mask or swizzle, found " + describe(letters));
      uint32_t components[4];
      for (size_t i = 0; i < letters.text.size(); i++) {
        const char* at = std::strchr("xyzw", letters.text[i]);
        if (!at || !*at)
          return fail(letters, "component letters are x, y, z and w");
        components[i] = uint32_t(at - "xyzw");
      }
      size_t count = letters.text.size();
      operand.components = NumComponents::Four;
      operand.selectionBits = 0;
      if (role == Role::Src && count == 1) {
        operand.selection = SelectionMode::Select1;
        operand.selectionBits = components[0];
      } else if (role == Role::Src && count == 4) {
        operand.selection = SelectionMode::Swizzle;
        for (uint32_t i = 0; i < 4; i++)
          operand.selectionBits |= components[i] << (2 * i);
      } else {
        operand.selection = SelectionMode::Mask;
        for (size_t i = 0; i < count; i++) {
          if (i && components[i] <= components[i - 1])
            return fail(letters, "a write mask lists components in xyzw order");
          operand.selectionBits |= 1u << components[i];
        }
      }
    }
  }
  if (absolute && !expect('|'))
    return false;
  operand.modifier = negate ? (absolute ? OperandModifier::AbsNeg : OperandModifier::Neg)
                            : (absolute ? OperandModifier::Abs : OperandModifier::None);
  while (peek().is('{')) {
    next();
    const LexToken& word = next();
    uint32_t precision;
    if (word.kind == LexKind::Ident && equalsIgnoreCase(word.text, "nonuniform")) {
      operand.nonUniform = true;
    } else if (word.kind == LexKind::Ident && valueOf(kMinPrecisions, word.text, &precision)) {
      operand.minPrecision = precision;
      operand.forceExtended = true;
    } else {
      return fail(word, "expected a precision (min16f, min2_8f, min16i, min16u, def32) or "
                        "nonuniform, found " + describe(word));
    }
    if (!expect('}'))
      return false;
  }
  (void)role;
  return true;
}

bool ProgramAssembler::encodeOperand(const ParsedOperand& operand, std::vector<uint32_t>& out) {
  if (operand.indices.size() > 3)
    return fail(peek(), "an operand has at most three indices");
  bool extended = operand.modifier != OperandModifier::None || operand.minPrecision != 0 ||
                  operand.nonUniform || operand.forceExtended;
  uint32_t token = uint32_t(operand.components) |
                   (uint32_t(operand.selection) << 2) |
                   (operand.selectionBits << 4) |
                   (uint32_t(operand.type) << 12) |
                   (uint32_t(operand.indices.size()) << 20);
  for (size_t i = 0; i < operand.indices.size(); i++)
    token |= uint32_t(operand.indices[i].rep) << (22 + 3 * i);
  if (extended)
    token |= 1u << 31;
  out.push_back(token);
  if (extended) {
    out.push_back(1u | (uint32_t(operand.modifier) << 6) | (operand.minPrecision << 14) |
                  (operand.nonUniform ? (1u << 17) : 0));
  }
  for (const OperandIndex& index : operand.indices) {
    if (index.rep != IndexRep::Relative)
      out.push_back(index.value);
    out.insert(out.end(), index.relative.begin(), index.relative.end());
  }
  out.insert(out.end(), operand.immediates.begin(), operand.immediates.end());
  return true;
}

bool ProgramAssembler::parseVersion(std::vector<uint32_t>& program) {
  const LexToken& token = next();
  static const char* const kPrefixes[] = {"ps", "vs", "gs", "hs", "ds", "cs"};
  auto parts = splitUnderscores(token.text);
  if (token.kind == LexKind::Ident && parts.size() == 3 && parts[1].size() == 1 &&
      parts[2].size() == 1) {
    for (uint32_t type = 0; type < 6; type++) {
      if (!equalsIgnoreCase(parts[0], kPrefixes[type]))
        continue;
      uint32_t major = uint32_t(parts[1][0] - '0'), minor = uint32_t(parts[2][0] - '0');
      if (major < 4 || major > 5 || minor > 1)
        return fail(token, "only shader models 4.0 to 5.1 are supported");
      m_sm51 = major == 5 && minor == 1;
      program.push_back((type << 16) | (major << 4) | minor);
      program.push_back(0);   // length, patched at the end
      return true;
    }
  }
  return fail(token, "expected a version such as vs_5_0, found " + describe(token));
}

bool ProgramAssembler::parseRaw(std::vector<uint32_t>& program) {
  do {
    uint32_t value;
    if (!parseUnsigned(value))
      return false;
    program.push_back(value);
  } while (acceptComma());
  return true;
}

bool ProgramAssembler::parseImmediateConstantBuffer(std::vector<uint32_t>& program) {
  std::vector<uint32_t> block = {kOpcodeCustomData | (3u << 11), 0};
  if (!expect('{'))
    return false;
  auto skipNewlines = [&] {
    while (peek().kind == LexKind::Newline)
      next();
  };
  skipNewlines();
  while (peek().is('{')) {
    next();
    skipNewlines();
    while (!peek().is('}')) {
      uint32_t value;
      if (!parseLiteral32(value))
        return false;
      block.push_back(value);
      skipNewlines();
      if (acceptComma())
        skipNewlines();
    }
    next();
    skipNewlines();
    if (acceptComma())
      skipNewlines();
  }
  if (!expect('}'))
    return false;
  block[1] = uint32_t(block.size());
  program.insert(program.end(), block.begin(), block.end());
  return true;
}

bool ProgramAssembler::parseCustomData(std::vector<uint32_t>& program) {
  uint32_t dataClass;
  const LexToken& word = peek();
  if (word.kind == LexKind::Number) {
    if (!parseUnsigned(dataClass, 0x1fffff))
      return false;
  } else if (!parseEnumWord(kCustomDataClasses, "a customdata class", dataClass)) {
    return false;
  }
  std::vector<uint32_t> block = {kOpcodeCustomData | (dataClass << 11), 0};
  if (!expect('{'))
    return false;
  while (peek().kind == LexKind::Newline)
    next();
  while (!peek().is('}')) {
    uint32_t value;
    if (!parseLiteral32(value))
      return false;
    block.push_back(value);
    while (peek().kind == LexKind::Newline)
      next();
    if (acceptComma()) {
      while (peek().kind == LexKind::Newline)
        next();
    }
  }
  next();
  block[1] = uint32_t(block.size());
  program.insert(program.end(), block.begin(), block.end());
  return true;
}

bool ProgramAssembler::parseGeneric(const OpcodeInfo& info,
                                    const std::vector<std::string_view>& modifiers,
                                    const std::vector<Group>& groups, const LexToken& at,
                                    std::vector<uint32_t>& insn) {
  uint32_t token = info.opcode;
  bool sawTest = false;
  for (std::string_view mod : modifiers) {
    uint32_t bit = 0;
    if (equalsIgnoreCase(mod, "aoffimmi") || equalsIgnoreCase(mod, "indexable"))
      continue;   // the parenthesised groups carry the data
    if (equalsIgnoreCase(mod, "sat") && !(info.flags & kOpNoSaturate))
      bit = kSaturateBit;
    else if ((info.flags & kOpTest) && (equalsIgnoreCase(mod, "z") || equalsIgnoreCase(mod, "nz"))) {
      sawTest = true;
      bit = equalsIgnoreCase(mod, "nz") ? kTestNonZeroBit : 0;
    } else if ((info.flags & kOpResInfo) && equalsIgnoreCase(mod, "uint"))
      bit = 2u << 11;
    else if ((info.flags & kOpResInfo) && equalsIgnoreCase(mod, "rcpFloat"))
      bit = 1u << 11;
    else if ((info.flags & kOpSampleInfo) && equalsIgnoreCase(mod, "uint"))
      bit = 1u << 11;
    else if ((info.flags & kOpSync) && equalsIgnoreCase(mod, "g"))
      bit = 1u << 11;
    else if ((info.flags & kOpSync) && equalsIgnoreCase(mod, "t"))
      bit = 1u << 12;
    else if ((info.flags & kOpSync) && equalsIgnoreCase(mod, "ugroup"))
      bit = 1u << 13;
    else if ((info.flags & kOpSync) && equalsIgnoreCase(mod, "uglobal"))
      bit = 1u << 14;
    else
      return fail(at, "'" + std::string(info.name) + "' has no suffix _" + std::string(mod));
    token |= bit;
  }
  if ((info.flags & kOpTest) && !sawTest)
    return fail(at, "'" + std::string(info.name) + "' needs _z or _nz");

  std::vector<uint32_t> extended;
  for (const Group& group : groups) {
    const LexToken& first = m_toks[group.begin];
    uint32_t value;
    if (first.kind == LexKind::Number || first.is('-')) {
      size_t save = m_pos;
      m_pos = group.begin;
      uint32_t ext = uint32_t(ExtOpcode::SampleControls);
      for (uint32_t i = 0; i < 3; i++) {
        if (i && !expect(','))
          return false;
        uint32_t offset;
        const LexToken& where = peek();
        if (!parseLiteral32(offset))
          return false;
        if (int32_t(offset) < -8 || int32_t(offset) > 7)
          return fail(where, "texel offsets range from -8 to 7");
        ext |= (offset & 0xf) << (9 + 4 * i);
      }
      if (m_pos != group.end)
        return fail(peek(), "expected ')' after three offsets");
      m_pos = save;
      extended.push_back(ext);
    } else if (first.kind == LexKind::Ident && valueOf(kResourceDimensions, first.text, &value)) {
      uint32_t ext = uint32_t(ExtOpcode::ResourceDim) | (value << 6);
      size_t pos = group.begin + 1;
      if (pos != group.end) {
        size_t save = m_pos;
        m_pos = pos;
        const LexToken& word = (expect(','), next());
        if (m_failed)
          return false;
        uint32_t stride;
        if (word.kind != LexKind::Ident || !equalsIgnoreCase(word.text, "stride"))
          return fail(word, "expected stride=<n>, found " + describe(word));
        if (!expect('=') || !parseUnsigned(stride, 0xfff))
          return false;
        if (m_pos != group.end)
          return fail(peek(), "expected ')'");
        m_pos = save;
        ext |= stride << 11;
      }
      extended.push_back(ext);
    } else {
      uint32_t types;
      if (!parseReturnTypes(group, types))
        return false;
      extended.push_back(uint32_t(ExtOpcode::ResourceReturnType) | (types << 6));
    }
  }
  for (size_t i = 0; i < extended.size(); i++) {
    if (i + 1 < extended.size())
      extended[i] |= kOpcodeExtendedBit;
  }
  if (!extended.empty())
    token |= kOpcodeExtendedBit;

  if (peek().is('[')) {
    next();
    const LexToken& word = next();
    if (word.kind != LexKind::Ident || !equalsIgnoreCase(word.text, "precise"))
      return fail(word, "expected [precise(mask)]");
    if (!expect('('))
      return false;
    const LexToken& letters = next();
    uint32_t mask = 0;
    for (char c : letters.text) {
      const char* found = std::strchr("xyzw", c);
      if (!found || !*found)
        return fail(letters, "precise takes a component mask");
      mask |= 1u << (found - "xyzw");
    }
    if (!expect(')') || !expect(']'))
      return false;
    token |= mask << kPreciseShift;
  }

  insn.push_back(token);
  insn.insert(insn.end(), extended.begin(), extended.end());
  uint32_t count = info.numDst + info.numSrc;
  for (uint32_t i = 0; i < count; i++) {
    if (i && !atStatementEnd() && !expect(','))
      return false;
    if (atStatementEnd())
      return fail(peek(), "'" + std::string(info.name) + "' takes " + std::to_string(count) +
                          " operand(s)");
    if (!parseOperandTo(i < info.numDst ? Role::Dst : Role::Src, insn))
      return false;
  }
  if (peek().is('.') && peek(1).kind == LexKind::Ident && peek(1).text == "tail") {
    next();
    next();
    return parseRaw(insn);
  }
  return true;
}

bool ProgramAssembler::parseDeclaration(const OpcodeInfo& info,
                                        const std::vector<std::string_view>& modifiers,
                                        const std::vector<Group>& groups, const LexToken& at,
                                        std::vector<uint32_t>& insn) {
  uint32_t token = info.opcode;
  insn.push_back(0);
  uint32_t value;
  size_t usedModifiers = 0;
  size_t usedGroups = 0;
  auto flagModifier = [&](std::string_view name, uint32_t bit) {
    for (std::string_view mod : modifiers) {
      if (equalsIgnoreCase(mod, name)) {
        token |= bit;
        usedModifiers++;
      }
    }
  };

  switch (info.form) {
    case OpForm::DclGlobalFlags:
      while (!atStatementEnd()) {
        if (!parseEnumWord(kGlobalFlags, "a global flag", value))
          return false;
        token |= value << 11;
        if (peek().is('|'))
          next();
      }
      break;
    case OpForm::DclConstantBuffer: {
      ParsedOperand operand;
      if (!parseOperand(Role::Decl, operand))
        return false;
      uint32_t size = 0;
      if (m_sm51) {
        if (operand.indices.size() != 4)
          return fail(at, "SM5.1 constant buffers are declared as CB<id>[lower:upper][size]");
        size = operand.indices.back().value;
        operand.indices.pop_back();
      }
      if (!encodeOperand(operand, insn))
        return false;
      if (m_sm51)
        insn.push_back(size);
      if (!expect(','))
        return false;
      const LexToken& word = next();
      if (equalsIgnoreCase(word.text, "dynamicIndexed"))
        token |= 1u << 11;
      else if (!equalsIgnoreCase(word.text, "immediateIndexed"))
        return fail(word, "expected immediateIndexed or dynamicIndexed, found " + describe(word));
      if (!parseSpace(insn))
        return false;
      break;
    }
    case OpForm::DclSampler:
      if (!parseOperandTo(Role::Decl, insn) || !expect(',') ||
          !parseEnumWord(kSamplerModes, "a sampler mode", value) || !parseSpace(insn))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclResource:
    case OpForm::DclUavTyped: {
      bool uav = info.form == OpForm::DclUavTyped;
      if (modifiers.empty() || !valueOf(kResourceDimensions, modifiers[0], &value) ||
          value == 0 || value > 10)
        return fail(at, "expected a resource dimension after " + std::string(info.name));
      usedModifiers = 1;
      token |= value << 11;
      bool multisampled = value == 4 || value == 9;
      if (uav) {
        flagModifier("glc", 1u << 16);
        flagModifier("rov", 1u << 17);
      } else if (multisampled) {
        if (groups.empty())
          return fail(at, "multisampled resources give a sample count: texture2dms(4)");
        size_t save = m_pos;
        m_pos = groups[0].begin;
        if (!parseUnsigned(value, 127))
          return false;
        m_pos = save;
        token |= value << 16;
        usedGroups = 1;
      }
      if (groups.size() != usedGroups + 1)
        return fail(at, "expected the return types, e.g. (float,float,float,float)");
      uint32_t types;
      if (!parseReturnTypes(groups[usedGroups], types))
        return false;
      usedGroups++;
      if (!parseOperandTo(Role::Decl, insn))
        return false;
      insn.push_back(types);
      if (!parseSpace(insn))
        return false;
      break;
    }
    case OpForm::DclOperand:
      if (!parseOperandTo(Role::Decl, insn))
        return false;
      break;
    case OpForm::DclResourceRaw:
    case OpForm::DclUavRaw:
      flagModifier("glc", 1u << 16);
      flagModifier("rov", 1u << 17);
      if (info.form == OpForm::DclResourceRaw && usedModifiers)
        return fail(at, "dcl_resource_raw takes no flags");
      if (!parseOperandTo(Role::Decl, insn) || !parseSpace(insn))
        return false;
      break;
    case OpForm::DclOperandName:
    case OpForm::DclInputPs:
    case OpForm::DclInputPsName: {
      if (info.form != OpForm::DclOperandName) {
        std::string words;
        const LexToken& first = peek();
        while (peek().kind == LexKind::Ident &&
               (equalsIgnoreCase(peek().text, "constant") || equalsIgnoreCase(peek().text, "linear") ||
                equalsIgnoreCase(peek().text, "noperspective") ||
                equalsIgnoreCase(peek().text, "centroid") || equalsIgnoreCase(peek().text, "sample"))) {
          if (!words.empty())
            words += ' ';
          words += next().text;
        }
        if (!words.empty()) {
          if (!valueOf(kInterpolationModes, words, &value))
            return fail(first, "unknown interpolation mode '" + words + "'");
          token |= value << 11;
        }
      }
      if (!parseOperandTo(Role::Decl, insn))
        return false;
      if (info.form != OpForm::DclInputPs) {
        if (!expect(','))
          return false;
        const LexToken& word = peek();
        if (word.kind == LexKind::Number) {
          if (!parseUnsigned(value))
            return false;
        } else if (!parseEnumWord(kSystemValueNames, "a system value name", value)) {
          return false;
        }
        insn.push_back(value);
      }
      break;
    }
    case OpForm::DclCount:
      if (!parseUnsigned(value))
        return false;
      insn.push_back(value);
      break;
    case OpForm::DclFunctionBody:
      if (!parsePrefixedNumber("fb", value))
        return false;
      insn.push_back(value);
      break;
    case OpForm::DclIndexableTemp: {
      uint32_t size, components;
      if (!parsePrefixedNumber("x", value) || !expect('[') || !parseUnsigned(size) ||
          !expect(']') || !expect(',') || !parseUnsigned(components))
        return false;
      insn.insert(insn.end(), {value, size, components});
      break;
    }
    case OpForm::DclIndexRange:
      if (!parseOperandTo(Role::Decl, insn))
        return false;
      acceptComma();
      if (!parseUnsigned(value))
        return false;
      insn.push_back(value);
      break;
    case OpForm::DclGsInputPrimitive:
      if (!parseEnumWord(kGsPrimitives, "an input primitive", value))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclGsOutputTopology:
      if (!parseEnumWord(kGsTopologies, "an output topology", value))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclControlPointCount:
      if (!parseUnsigned(value, 63))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclTessDomain:
      if (!parseEnumWord(kTessDomains, "a tessellator domain", value))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclTessPartitioning:
      if (!parseEnumWord(kTessPartitionings, "a partitioning", value))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclTessOutputPrimitive:
      if (!parseEnumWord(kTessOutputPrimitives, "an output primitive", value))
        return false;
      token |= value << 11;
      break;
    case OpForm::DclFloat: {
      const LexToken& word = next();
      if (word.kind != LexKind::Ident || word.text != "l" || !expect('(') ||
          !parseLiteral32(value) || !expect(')'))
        return m_failed ? false : fail(word, "expected l(<float>)");
      insn.push_back(value);
      break;
    }
    case OpForm::DclThreadGroup:
      for (uint32_t i = 0; i < 3; i++) {
        if ((i && !expect(',')) || !parseUnsigned(value))
          return false;
        insn.push_back(value);
      }
      break;
    case OpForm::DclUavStructured:
    case OpForm::DclResourceStructured:
    case OpForm::DclTgsmRaw:
    case OpForm::DclTgsmStructured: {
      if (info.form == OpForm::DclUavStructured) {
        flagModifier("glc", 1u << 16);
        flagModifier("rov", 1u << 17);
        flagModifier("opc", 1u << 23);
      }
      bool tgsm = info.form == OpForm::DclTgsmRaw || info.form == OpForm::DclTgsmStructured;
      if (!parseOperandTo(Role::Decl, insn) || !expect(',') || !parseUnsigned(value))
        return false;
      insn.push_back(value);
      if (info.form == OpForm::DclTgsmStructured) {
        if (!expect(',') || !parseUnsigned(value))
          return false;
        insn.push_back(value);
      }
      if (!tgsm && !parseSpace(insn))
        return false;
      break;
    }
    case OpForm::DclFunctionTable: {
      if (!parsePrefixedNumber("ft", value) || !expect('=') || !expect('{'))
        return false;
      insn.push_back(value);
      size_t countAt = insn.size();
      insn.push_back(0);
      while (!peek().is('}')) {
        if (insn.size() > countAt + 1 && !expect(','))
          return false;
        if (!parsePrefixedNumber("fb", value))
          return false;
        insn.push_back(value);
      }
      next();
      insn[countAt] = uint32_t(insn.size() - countAt - 1);
      break;
    }
    case OpForm::DclInterface: {
      flagModifier("dynamicindexed", 1u << 11);
      uint32_t arrayLength, callSites;
      if (!parsePrefixedNumber("fp", value) || !expect('[') || !parseUnsigned(arrayLength, 0xffff) ||
          !expect(']') || !expect('[') || !parseUnsigned(callSites) || !expect(']') ||
          !expect('=') || !expect('{'))
        return false;
      insn.insert(insn.end(), {value, callSites, 0});
      size_t lengthsAt = insn.size() - 1;
      while (!peek().is('}')) {
        if (insn.size() > lengthsAt + 1 && !expect(','))
          return false;
        if (!parsePrefixedNumber("ft", value))
          return false;
        insn.push_back(value);
      }
      next();
      insn[lengthsAt] = (arrayLength << 16) | uint32_t(insn.size() - lengthsAt - 1);
      break;
    }
    case OpForm::InterfaceCall: {
      std::vector<uint32_t> operand;
      if (!parseOperandTo(Role::Src, operand) || !expect(',') || !parseUnsigned(value))
        return false;
      insn.push_back(value);
      insn.insert(insn.end(), operand.begin(), operand.end());
      break;
    }
    case OpForm::Phase:
      break;
    default:
      return fail(at, "'" + std::string(info.name) + "' is not supported by this assembler; "
                      "write it as .raw");
  }
  if (usedModifiers != modifiers.size())
    return fail(at, "unexpected suffix on '" + std::string(info.name) + "'");
  if (usedGroups != groups.size() && info.form != OpForm::DclResource &&
      info.form != OpForm::DclUavTyped)
    return fail(at, "unexpected parenthesised group after '" + std::string(info.name) + "'");
  insn[0] = token;
  return true;
}

bool ProgramAssembler::parseStatement(std::vector<uint32_t>& program) {
  const LexToken& first = peek();
  if (first.is('.')) {
    next();
    const LexToken& word = next();
    if (word.kind != LexKind::Ident || word.text != "raw")
      return fail(word, "unknown directive " + describe(word));
    return parseRaw(program);
  }
  if (first.kind != LexKind::Ident)
    return fail(first, "expected an instruction, found " + describe(first));
  next();
  if (equalsIgnoreCase(first.text, "dcl_immediateConstantBuffer"))
    return parseImmediateConstantBuffer(program);

  // Longest run of '_'-separated words that names an opcode; the rest are suffixes.
  auto parts = splitUnderscores(first.text);
  const OpcodeInfo* info = nullptr;
  std::vector<std::string_view> modifiers;
  for (size_t count = parts.size(); count > 0 && !info; count--) {
    size_t length = size_t(parts[count - 1].data() + parts[count - 1].size() - first.text.data());
    info = findOpcodeByName(first.text.substr(0, length));
    if (info)
      modifiers.assign(parts.begin() + long(count), parts.end());
  }
  if (!info)
    return fail(first, "unknown instruction " + describe(first));
  if (info->form == OpForm::CustomData)
    return parseCustomData(program);

  // Parenthesised groups and glued suffixes: sample_l_aoffimmi_indexable(-1,0,0)
  // (texture2d)(float,float,float,float), resinfo_indexable(texture2d)(...)_uint.
  std::vector<Group> groups;
  while (true) {
    if (peek().is('(')) {
      next();
      Group group{m_pos, m_pos};
      int depth = 1;
      while (depth > 0) {
        if (atStatementEnd())
          return fail(peek(), "unterminated '('");
        if (peek().is('('))
          depth++;
        if (peek().is(')'))
          depth--;
        if (depth > 0)
          next();
      }
      group.end = m_pos;
      next();
      groups.push_back(group);
    } else if (peek().kind == LexKind::Ident && peek().text[0] == '_' &&
               peek().line == first.line && !groups.empty()) {
      for (std::string_view part : splitUnderscores(next().text))
        modifiers.push_back(part);
    } else {
      break;
    }
  }

  std::vector<uint32_t> insn;
  bool ok = info->form == OpForm::Generic
      ? parseGeneric(*info, modifiers, groups, first, insn)
      : parseDeclaration(*info, modifiers, groups, first, insn);
  if (!ok)
    return false;
  if (insn.size() > 127)
    return fail(first, "instruction longer than 127 tokens");
  insn[0] |= uint32_t(insn.size()) << kOpcodeLengthShift;
  program.insert(program.end(), insn.begin(), insn.end());
  return true;
}

bool ProgramAssembler::run(std::vector<uint32_t>& program) {
  program.clear();
  auto skipNewlines = [&] {
    while (peek().kind == LexKind::Newline)
      next();
  };
  skipNewlines();
  if (!parseVersion(program))
    return false;
  while (true) {
    if (!atStatementEnd())
      return fail(peek(), "unexpected " + describe(peek()) + " at the end of the statement");
    skipNewlines();
    if (peek().kind == LexKind::End)
      break;
    if (!parseStatement(program))
      return false;
  }
  program[1] = uint32_t(program.size());
  return true;
}

}  // namespace

std::string AssemblyError::format(std::string_view file) const {
  std::string out;
  if (!file.empty())
    out += std::string(file) + ":";
  out += std::to_string(line) + ":" + std::to_string(column) + ": " + message;
  return out;
}

AssemblyResult assembleProgramFromLex(const std::vector<LexToken>& tokens,
                                      std::vector<uint32_t>& program) {
  ProgramAssembler assembler(tokens);
  AssemblyResult result;
  result.ok = assembler.run(program);
  if (!result.ok) {
    result.error = assembler.error();
    program.clear();
  }
  return result;
}

AssemblyResult assembleProgram(std::string_view text, std::vector<uint32_t>& tokens) {
  LexResult lex = lexAssembly(text);
  if (!lex.ok) {
    AssemblyResult result;
    result.error = {lex.errorLine, lex.errorColumn, lex.error};
    return result;
  }
  return assembleProgramFromLex(lex.tokens, tokens);
}

}  // namespace dxbc::sm
