// SPDX-License-Identifier: MIT
#pragma once

// Errors are values: every fallible dxbc function returns a Status. Codes are stable
// (they travel in logs and host error reports); append new ones, never renumber.

#include <cstdint>

namespace dxbc {

enum class ErrorCode : uint32_t {
  Ok                        = 0,
  InvalidArgument           = 1,   // caller passed something impossible (null with count, ...)
  TooSmall                  = 2,   // container shorter than its fixed header
  BadMagic                  = 3,   // first four bytes are not "DXBC"
  BadVersion                = 4,   // container format version is not 1
  SizeMismatch              = 5,   // header total size differs from the buffer size
  TooManyChunks             = 6,   // chunk table does not fit in the container
  ChunkOffsetOutOfRange     = 7,   // chunk header lies (partly) outside the container
  ChunkOffsetMisaligned     = 8,   // chunk offset is not a multiple of 4
  ChunkSizeOutOfRange       = 9,   // chunk payload runs past the end of the container
  ChunkOverlap              = 10,  // two chunks, or a chunk and the header, share bytes
  BadChecksum               = 11,  // stored checksum differs from the computed one
  MissingChunk              = 12,  // a required chunk (e.g. SHDR/SHEX) is absent
  DuplicateChunk            = 13,  // a chunk that must be unique appears twice
  SignatureTruncated        = 14,  // signature header/elements run past the chunk
  SignatureNameOutOfRange   = 15,  // element name offset points outside the chunk
  SignatureNameUnterminated = 16,  // element name has no NUL before the chunk end
  SignatureTooLarge         = 17,  // element count beyond any plausible shader
  ShaderTruncated           = 18,  // token stream shorter than its header / declared length
  ShaderBadVersion          = 19,  // program type or version outside SM4.0..SM5.1
  ShaderBadInstruction      = 20,  // an instruction's length is zero or runs past the end
  ShaderBadOperand          = 21,  // an operand does not fit in its instruction
  SignatureConflict         = 22,  // DDI entries and declarations cannot be reconciled
  NotFound                  = 23,  // lookup (input register, SO register) found nothing
  TooLarge                  = 24,  // output would exceed the 32-bit container size
  UnsupportedFormat         = 25,  // DXGI format not usable as a vertex attribute
};

struct Status {
  ErrorCode code = ErrorCode::Ok;
  uint32_t offset = 0;        // byte offset in the input that triggered the error, if any
  const char* reason = "";    // static string, never freed, safe to log

  constexpr bool ok() const { return code == ErrorCode::Ok; }
  constexpr explicit operator bool() const { return ok(); }

  static constexpr Status success() { return {}; }
  static constexpr Status fail(ErrorCode code, const char* reason, uint32_t offset = 0) {
    return Status{code, offset, reason};
  }
};

// Stable identifier, e.g. "ChunkOverlap".
const char* errorCodeName(ErrorCode code);

}  // namespace dxbc
