// SPDX-License-Identifier: MIT
#include "sm_signature_text.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace dxbc::sm {
namespace {

struct SysValueAbbrev {
  const char* text;
  uint32_t value;
};

// fxc's abbreviations for D3D_NAME values.
constexpr SysValueAbbrev kSysValues[] = {
  {"NONE", 0}, {"POS", 1}, {"CLIPDST", 2}, {"CULLDST", 3}, {"RTINDEX", 4}, {"VPINDEX", 5},
  {"VERTID", 6}, {"PRIMID", 7}, {"INSTID", 8}, {"FFACE", 9}, {"SAMPLE", 10},
  {"QUADEDGE", 11}, {"QUADINT", 12}, {"TRIEDGE", 13}, {"TRIINT", 14}, {"LINEDET", 15},
  {"LINEDEN", 16}, {"BARYCEN", 23}, {"SHDINGRATE", 24}, {"CULLPRIM", 25}, {"TARGET", 64},
  {"DEPTH", 65}, {"COVERAGE", 66}, {"DEPTHGE", 67}, {"DEPTHLE", 68}, {"STENCILREF", 69},
  {"INNERCOV", 70},
};

constexpr const char* kNoneUsed = "(none used)";

constexpr const char* kComponentTypes[] = {"unknown", "uint", "int", "float"};

constexpr SysValueAbbrev kMinPrecisionNames[] = {
  {"def32", 0}, {"min16f", 1}, {"min2_8f", 2}, {"min16i", 4}, {"min16u", 5},
  {"any16", 0xf0}, {"any10", 0xf1},
};

std::string positionalMask(uint32_t mask) {
  std::string out = "    ";
  for (uint32_t i = 0; i < 4; i++) {
    if (mask & (1u << i))
      out[i] = "xyzw"[i];
  }
  return out;
}

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(' ');
  return std::string(text.substr(begin, end - begin + 1));
}

bool parseNumber(const std::string& text, uint32_t& value) {
  if (text.empty())
    return false;
  char* end = nullptr;
  unsigned long parsed = std::strtoul(text.c_str(), &end, 0);
  if (*end != '\0' || parsed > 0xffffffffu)
    return false;
  value = uint32_t(parsed);
  return true;
}

bool parseMask(const std::string& text, uint8_t& mask) {
  mask = 0;
  for (char c : text) {
    if (c == ' ')
      continue;
    const char* at = c ? std::strchr("xyzw", c) : nullptr;
    if (!at)
      return false;
    mask |= uint8_t(1u << (at - "xyzw"));
  }
  return true;
}

}  // namespace

Signature tableToSignature(const SignatureTable& table, bool outputs) {
  Signature signature = table.signature;
  for (SignatureElement& e : signature.elements) {
    uint8_t used = table.usedGiven ? e.rwMask : e.mask;
    e.rwMask = outputs ? uint8_t(~used & 0xf) : used;
  }
  return signature;
}

std::string formatSignatureTable(const char* title, const Signature& signature, bool outputs) {
  bool streams = false, precision = false;
  for (const SignatureElement& e : signature.elements) {
    streams |= e.stream != 0;
    precision |= e.minPrecision != 0;
  }
  // A Used column left all blank reads as "no usage information" (hand-written tables);
  // when the shader really uses nothing, the title says so to keep the text lossless.
  bool anyUsed = false;
  for (const SignatureElement& e : signature.elements)
    anyUsed |= (outputs ? ~e.rwMask & 0xf : e.rwMask) != 0;
  std::string out = "//\n// " + std::string(title);
  if (!anyUsed && !signature.elements.empty())
    out += std::string(" ") + kNoneUsed;
  out += "\n//\n";
  out += "// Name                 Index   Mask Register SysValue  Format   Used";
  std::string dashes = "// -------------------- ----- ------ -------- -------- ------- ------";
  if (streams) {
    out += " Stream";
    dashes += " ------";
  }
  if (precision) {
    out += " MinPrec";
    dashes += " -------";
  }
  out += "\n" + dashes + "\n";
  for (const SignatureElement& e : signature.elements) {
    char line[512];
    std::string sysValue;
    for (const SysValueAbbrev& abbrev : kSysValues) {
      if (abbrev.value == e.systemValue)
        sysValue = abbrev.text;
    }
    if (sysValue.empty())
      sysValue = std::to_string(e.systemValue);
    std::string reg = e.registerIndex == kNoRegister ? "N/A" : std::to_string(e.registerIndex);
    std::string type = e.componentType < 4 ? kComponentTypes[e.componentType]
                                           : std::to_string(e.componentType);
    std::snprintf(line, sizeof(line), "// %-20s %5u   %s %8s %8s %7s   %s", e.semanticName.c_str(),
                  e.semanticIndex, positionalMask(e.mask).c_str(), reg.c_str(), sysValue.c_str(),
                  type.c_str(), positionalMask(outputs ? ~e.rwMask & 0xf : e.rwMask).c_str());
    out += line;
    if (streams)
      out += "   " + std::to_string(e.stream) + std::string(e.stream < 10 ? 3 : 2, ' ');
    if (precision) {
      std::string name = std::to_string(e.minPrecision);
      for (const SysValueAbbrev& p : kMinPrecisionNames) {
        if (p.value == e.minPrecision)
          name = p.text;
      }
      if (!streams)
        out += "  ";
      out += " " + name;
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    out += '\n';
  }
  return out;
}

AssemblyResult parseSignatureTables(const std::vector<CommentLine>& comments,
                                    SignatureTables& tables) {
  AssemblyResult result;
  auto failAt = [&](uint32_t line, std::string message) {
    result.ok = false;
    result.error = {line, 1, std::move(message)};
    return result;
  };

  for (size_t i = 0; i < comments.size(); i++) {
    std::string title = trim(comments[i].text);
    bool noneUsed = false;
    if (title.size() > std::strlen(kNoneUsed) &&
        title.compare(title.size() - std::strlen(kNoneUsed), std::string::npos, kNoneUsed) == 0) {
      noneUsed = true;
      title = trim(title.substr(0, title.size() - std::strlen(kNoneUsed)));
    }
    std::optional<SignatureTable>* target = nullptr;
    if (title == "Input signature:")
      target = &tables.input;
    else if (title == "Output signature:")
      target = &tables.output;
    else if (title == "Patch Constant signature:")
      target = &tables.patchConstant;
    if (!target)
      continue;

    // Find the header row and the dashes row below it.
    size_t header = i + 1;
    while (header < comments.size() && trim(comments[header].text).empty())
      header++;
    if (header + 1 >= comments.size() || trim(comments[header].text).rfind("Name", 0) != 0)
      return failAt(comments[i].line, "signature table without a Name/Index/Mask header");
    std::string_view headerText = comments[header].text;
    std::string_view dashes = comments[header + 1].text;

    // Column extents from the dashes; names from the header text above them.
    struct Column { size_t begin, end; std::string name; };
    std::vector<Column> columns;
    for (size_t pos = 0; pos < dashes.size();) {
      if (dashes[pos] != '-') {
        pos++;
        continue;
      }
      size_t end = pos;
      while (end < dashes.size() && dashes[end] == '-')
        end++;
      std::string name = trim(headerText.substr(std::min(pos, headerText.size()),
                                                end - pos));
      columns.push_back({pos, end, name});
      pos = end;
    }
    auto columnIndex = [&](const char* name) -> int {
      for (size_t c = 0; c < columns.size(); c++) {
        if (columns[c].name == name)
          return int(c);
      }
      return -1;
    };
    int cName = columnIndex("Name"), cIndex = columnIndex("Index"), cMask = columnIndex("Mask"),
        cReg = columnIndex("Register"), cSys = columnIndex("SysValue"),
        cFormat = columnIndex("Format"), cUsed = columnIndex("Used"),
        cStream = columnIndex("Stream"), cPrec = columnIndex("MinPrec");
    if (cName < 0 || cIndex < 0 || cMask < 0 || cReg < 0 || cSys < 0 || cFormat < 0)
      return failAt(comments[header].line, "signature table lacks a required column");

    Signature signature;
    size_t row = header + 2;
    for (; row < comments.size() && comments[row].line == comments[row - 1].line + 1; row++) {
      std::string_view text = comments[row].text;
      if (trim(text).empty())
        break;
      if (trim(text).rfind("no ", 0) == 0)
        continue;   // fxc's "no Input" for an empty signature
      // A name longer than its column pushes the rest of the row to the right.
      size_t nameBegin = text.find_first_not_of(' ');
      size_t nameEnd = text.find(' ', nameBegin == std::string_view::npos ? 0 : nameBegin);
      if (nameEnd == std::string_view::npos)
        nameEnd = text.size();
      size_t shift = nameEnd > columns[0].end ? nameEnd - columns[0].end : 0;
      // Cells run from a column's start to the next column's start, so right-aligned
      // numbers wider than their dashes still land in their cell.
      auto cell = [&](int c) -> std::string {
        if (c < 0)
          return {};
        size_t begin = c == 0 ? 0 : columns[size_t(c)].begin + shift;
        size_t end = size_t(c) + 1 < columns.size() ? columns[size_t(c) + 1].begin + shift
                                                    : text.size();
        if (begin >= text.size())
          return {};
        return trim(text.substr(begin, end - begin));
      };
      SignatureElement e;
      e.semanticName = cell(cName);
      std::string reg = cell(cReg), sys = cell(cSys), format = cell(cFormat);
      bool ok = !e.semanticName.empty() && parseNumber(cell(cIndex), e.semanticIndex) &&
                parseMask(cell(cMask), e.mask) && parseMask(cell(cUsed), e.rwMask);
      if (ok)
        ok = reg == "N/A" ? (e.registerIndex = kNoRegister, true) : parseNumber(reg, e.registerIndex);
      bool sysFound = false;
      for (const SysValueAbbrev& abbrev : kSysValues) {
        if (sys == abbrev.text) {
          e.systemValue = abbrev.value;
          sysFound = true;
        }
      }
      if (ok && !sysFound)
        ok = parseNumber(sys, e.systemValue);
      bool typeFound = false;
      for (uint32_t t = 0; t < 4; t++) {
        if (format == kComponentTypes[t]) {
          e.componentType = t;
          typeFound = true;
        }
      }
      if (ok && !typeFound)
        ok = parseNumber(format, e.componentType);
      if (ok && cStream >= 0)
        ok = parseNumber(cell(cStream), e.stream);
      if (ok && cPrec >= 0) {
        std::string prec = cell(cPrec);
        bool found = false;
        for (const SysValueAbbrev& p : kMinPrecisionNames) {
          if (prec == p.text) {
            e.minPrecision = p.value;
            found = true;
          }
        }
        if (!found)
          ok = parseNumber(prec, e.minPrecision);
      }
      if (!ok)
        return failAt(comments[row].line, "malformed signature row");
      signature.elements.push_back(std::move(e));
    }
    SignatureTable table;
    table.usedGiven = noneUsed;
    for (const SignatureElement& e : signature.elements)
      table.usedGiven |= e.rwMask != 0;
    table.signature = std::move(signature);
    *target = std::move(table);
    i = row - 1;
  }
  result.ok = true;
  return result;
}

}  // namespace dxbc::sm
