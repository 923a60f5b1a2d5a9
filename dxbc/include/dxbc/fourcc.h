// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace dxbc {

using FourCC = uint32_t;

constexpr FourCC makeFourCC(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | (uint32_t(uint8_t(b)) << 8) |
         (uint32_t(uint8_t(c)) << 16) | (uint32_t(uint8_t(d)) << 24);
}

namespace tag {
constexpr FourCC DXBC = makeFourCC('D', 'X', 'B', 'C');
constexpr FourCC ISGN = makeFourCC('I', 'S', 'G', 'N');
constexpr FourCC OSGN = makeFourCC('O', 'S', 'G', 'N');
constexpr FourCC PCSG = makeFourCC('P', 'C', 'S', 'G');
constexpr FourCC OSG5 = makeFourCC('O', 'S', 'G', '5');
constexpr FourCC ISG1 = makeFourCC('I', 'S', 'G', '1');
constexpr FourCC OSG1 = makeFourCC('O', 'S', 'G', '1');
constexpr FourCC PSG1 = makeFourCC('P', 'S', 'G', '1');
constexpr FourCC SHDR = makeFourCC('S', 'H', 'D', 'R');
constexpr FourCC SHEX = makeFourCC('S', 'H', 'E', 'X');
constexpr FourCC RDEF = makeFourCC('R', 'D', 'E', 'F');
constexpr FourCC STAT = makeFourCC('S', 'T', 'A', 'T');
constexpr FourCC SFI0 = makeFourCC('S', 'F', 'I', '0');
constexpr FourCC IFCE = makeFourCC('I', 'F', 'C', 'E');
constexpr FourCC Aon9 = makeFourCC('A', 'o', 'n', '9');
}  // namespace tag

// "ISGN"; non-printable bytes as '?'.
std::string fourCCToString(FourCC fourcc);

}  // namespace dxbc
