// SPDX-License-Identifier: MIT
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

struct SignatureTable {
  Signature signature;      // rwMask holds the Used column as written
  bool usedGiven = false;   // a Used column exists and at least one cell is filled
};

struct SignatureTables {
  std::optional<SignatureTable> input;
  std::optional<SignatureTable> output;
  std::optional<SignatureTable> patchConstant;
};

// The Used column: components read for inputs; for outputs fxc shows the components
// written, the complement of the stored "never written" mask. `outputs` selects that.
std::string formatSignatureTable(const char* title, const Signature& signature, bool outputs);

// The signature a table stands for. Outputs store "never written" components, the
// complement of fxc's Used column. Without usage information (no Used column, or all
// cells blank, as in hand-written tables) inputs count as read and outputs as written
// over their masks.
Signature tableToSignature(const SignatureTable& table, bool outputs);

// Reads every signature table out of the comment lines. Comments that are not tables
// are ignored; a malformed table row is an error.
AssemblyResult parseSignatureTables(const std::vector<CommentLine>& comments,
                                    SignatureTables& tables);

}  // namespace dxbc::sm
