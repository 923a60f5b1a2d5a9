#pragma once

// Signatures as the comment tables fxc prints above a listing:
//
//   // Input signature:
//   //
//   // Name                 Index   Mask Register SysValue  Format   Used
//   // -------------------- ----- ------ -------- -------- ------- ------
//   // POSITION                 0   xyzw        0     NONE   float   xyzw
//
// Optional columns Stream and MinPrec appear when a signature needs them. The parser
// slices rows by the extents of the dashes line, so blank cells (an unused input) work.

#include <optional>
#include <string>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "dxbc/signature.h"
#include "sm_lexer.h"

namespace dxbc::sm {

struct SignatureTables {
  std::optional<Signature> input;
  std::optional<Signature> output;
  std::optional<Signature> patchConstant;
};

std::string formatSignatureTable(const char* title, const Signature& signature);

// Reads every signature table out of the comment lines. Comments that are not tables
// are ignored; a malformed table row is an error.
AssemblyResult parseSignatureTables(const std::vector<CommentLine>& comments,
                                    SignatureTables& tables);

}  // namespace dxbc::sm
