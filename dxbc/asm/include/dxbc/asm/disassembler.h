// SPDX-License-Identifier: MIT
#pragma once

// Shader model 4.0-5.1 disassembler: token stream (SHDR/SHEX payload) to the text syntax
// fxc prints. The output is lossless: assembling it (dxbc/asm/assembler.h) gives back the
// same tokens. An instruction that cannot be written losslessly in fxc syntax (unknown
// opcode, reserved bits set) is written as `.raw 0x..., 0x...` and counted.

#include <cstdint>
#include <span>
#include <string>

#include "dxbc/status.h"

namespace dxbc::sm {

struct DisassemblyStats {
  uint32_t instructions = 0;      // including declarations
  uint32_t rawInstructions = 0;   // written as .raw because fxc syntax cannot express them
};

struct DisassemblyOptions {
  // Container only: write the signatures as fxc's comment tables (the assembler reads
  // them back to name the signature elements).
  bool signatureComments = true;
};

// tokens: the whole program, starting with the version and length tokens.
Status disassembleProgram(std::span<const uint32_t> tokens, std::string& text,
                          DisassemblyStats* stats = nullptr);

// A complete DXBC container: signature comments, then the program of its SHDR/SHEX chunk.
Status disassembleContainer(std::span<const uint8_t> container, std::string& text,
                            const DisassemblyOptions& options = {},
                            DisassemblyStats* stats = nullptr);

}  // namespace dxbc::sm
