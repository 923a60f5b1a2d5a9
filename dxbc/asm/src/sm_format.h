// SPDX-License-Identifier: MIT
#pragma once

// Literal formatting shared by the disassembler paths. Every function prints text that
// the assembler's number parser turns back into exactly the same bits.

#include <cstdint>
#include <string>

#include "sm_opcodes.h"

namespace dxbc::sm {

std::string formatFloat(uint32_t bits);
std::string formatDouble(uint64_t bits);
std::string formatInt(uint32_t bits);
std::string formatUint(uint32_t bits);
// Picks float or integer notation from the instruction's value type; for untyped moves
// it guesses from the bit pattern, as fxc does.
std::string formatValue(uint32_t bits, ValueType type);

}  // namespace dxbc::sm
