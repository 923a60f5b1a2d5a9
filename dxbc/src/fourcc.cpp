// SPDX-License-Identifier: MIT
#include "dxbc/fourcc.h"

namespace dxbc {

std::string fourCCToString(FourCC fourcc) {
  std::string text(4, '?');
  for (int i = 0; i < 4; ++i) {
    char c = char((fourcc >> (8 * i)) & 0xff);
    if (c >= 0x20 && c < 0x7f)
      text[i] = c;
  }
  return text;
}

}  // namespace dxbc
