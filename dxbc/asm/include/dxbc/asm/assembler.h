// SPDX-License-Identifier: MIT
#pragma once

// Shader model 4.0-5.1 assembler: the text syntax fxc prints (and disassembler.h writes)
// to a token stream, or to a complete DXBC container with signatures and checksum.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dxbc::sm {

// First error found, with a 1-based position in the source text. Errors are values.
struct AssemblyError {
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;

  // "file:line:column: message" (file may be empty).
  std::string format(std::string_view file = {}) const;
};

struct AssemblyResult {
  bool ok = false;
  AssemblyError error;          // meaningful when !ok
};

// Text to the program tokens (version token, length token, instructions).
AssemblyResult assembleProgram(std::string_view text, std::vector<uint32_t>& tokens);

struct ContainerAssemblyOptions {
  // Chunk for the program: SHEX for shader model 5.x, SHDR for 4.x, as fxc chooses.
  bool forceShex = false;
};

// Text to a complete container: signature chunks (from fxc-style signature comment tables
// when the text has them, else derived from the declarations), SHDR/SHEX, checksum.
AssemblyResult assembleContainer(std::string_view text, std::vector<uint8_t>& container,
                                 const ContainerAssemblyOptions& options = {});

}  // namespace dxbc::sm

namespace dxbc::sm {

// A C/C++ header holding bytes as `static const unsigned char name[] = {...};` (plus
// `name_size`), for programs that embed shaders assembled at build time.
std::string formatByteArrayHeader(std::string_view name, std::span<const uint8_t> bytes);

}  // namespace dxbc::sm
