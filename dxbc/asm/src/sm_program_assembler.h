// SPDX-License-Identifier: MIT
#pragma once

// Program assembly from already lexed text: the container assembler lexes once and
// reads both the signature comments and the program from the same tokens.

#include <cstdint>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "sm_lexer.h"

namespace dxbc::sm {

AssemblyResult assembleProgramFromLex(const std::vector<LexToken>& tokens,
                                      std::vector<uint32_t>& program);

}  // namespace dxbc::sm
