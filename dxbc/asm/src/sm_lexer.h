// SPDX-License-Identifier: MIT
#pragma once

// Splits assembly text into tokens with 1-based line/column positions. Comments (`//` to
// the end of the line) are kept aside: the container assembler reads fxc's signature
// tables out of them.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dxbc::sm {

enum class LexKind : uint8_t { Ident, Number, Punct, Newline, End };

struct LexToken {
  LexKind kind = LexKind::End;
  std::string_view text;
  uint32_t line = 0;
  uint32_t column = 0;

  bool is(char c) const { return kind == LexKind::Punct && text.size() == 1 && text[0] == c; }
};

struct CommentLine {
  uint32_t line;
  std::string_view text;   // after the slashes
};

struct LexResult {
  std::vector<LexToken> tokens;       // always ends with End
  std::vector<CommentLine> comments;
  bool ok = true;
  uint32_t errorLine = 0, errorColumn = 0;
  std::string error;
};

LexResult lexAssembly(std::string_view text);

}  // namespace dxbc::sm
