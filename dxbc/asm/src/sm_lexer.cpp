// SPDX-License-Identifier: MIT
#include "sm_lexer.h"

#include <cctype>

namespace dxbc::sm {
namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

LexResult lexAssembly(std::string_view text) {
  LexResult result;
  uint32_t line = 1;
  size_t lineStart = 0;
  size_t i = 0;
  auto push = [&](LexKind kind, size_t start, size_t end) {
    result.tokens.push_back({kind, text.substr(start, end - start), line,
                             uint32_t(start - lineStart + 1)});
  };

  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') {
      push(LexKind::Newline, i, i + 1);
      i++;
      line++;
      lineStart = i;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      i++;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      if (end == std::string_view::npos)
        end = text.size();
      result.comments.push_back({line, text.substr(i + 2, end - i - 2)});
      i = end;
    } else if (isIdentStart(c)) {
      size_t start = i;
      while (i < text.size() && isIdentChar(text[i]))
        i++;
      push(LexKind::Ident, start, i);
    } else if (isDigit(c)) {
      size_t start = i;
      if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
        i += 2;
        while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i])))
          i++;
      } else {
        while (i < text.size() && isDigit(text[i]))
          i++;
        if (i < text.size() && text[i] == '.') {
          i++;
          while (i < text.size() && isDigit(text[i]))
            i++;
        }
        if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
          size_t save = i;
          i++;
          if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            i++;
          if (i < text.size() && isDigit(text[i])) {
            while (i < text.size() && isDigit(text[i]))
              i++;
          } else {
            i = save;
          }
        }
      }
      if (i < text.size() && isIdentChar(text[i])) {
        result.ok = false;
        result.errorLine = line;
        result.errorColumn = uint32_t(start - lineStart + 1);
        result.error = "malformed number";
        break;
      }
      push(LexKind::Number, start, i);
    } else if (std::string_view("()[]{},.+-|:=*").find(c) != std::string_view::npos) {
      push(LexKind::Punct, i, i + 1);
      i++;
    } else {
      result.ok = false;
      result.errorLine = line;
      result.errorColumn = uint32_t(i - lineStart + 1);
      result.error = std::string("unexpected character '") + c + "'";
      break;
    }
  }
  result.tokens.push_back({LexKind::End, {}, line, uint32_t(i - lineStart + 1)});
  return result;
}

}  // namespace dxbc::sm
