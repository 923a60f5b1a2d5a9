// SPDX-License-Identifier: MIT
#include "dxbc/status.h"

namespace dxbc {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::Ok: return "Ok";
    case ErrorCode::InvalidArgument: return "InvalidArgument";
    case ErrorCode::TooSmall: return "TooSmall";
    case ErrorCode::BadMagic: return "BadMagic";
    case ErrorCode::BadVersion: return "BadVersion";
    case ErrorCode::SizeMismatch: return "SizeMismatch";
    case ErrorCode::TooManyChunks: return "TooManyChunks";
    case ErrorCode::ChunkOffsetOutOfRange: return "ChunkOffsetOutOfRange";
    case ErrorCode::ChunkOffsetMisaligned: return "ChunkOffsetMisaligned";
    case ErrorCode::ChunkSizeOutOfRange: return "ChunkSizeOutOfRange";
    case ErrorCode::ChunkOverlap: return "ChunkOverlap";
    case ErrorCode::BadChecksum: return "BadChecksum";
    case ErrorCode::MissingChunk: return "MissingChunk";
    case ErrorCode::DuplicateChunk: return "DuplicateChunk";
    case ErrorCode::SignatureTruncated: return "SignatureTruncated";
    case ErrorCode::SignatureNameOutOfRange: return "SignatureNameOutOfRange";
    case ErrorCode::SignatureNameUnterminated: return "SignatureNameUnterminated";
    case ErrorCode::SignatureTooLarge: return "SignatureTooLarge";
    case ErrorCode::ShaderTruncated: return "ShaderTruncated";
    case ErrorCode::ShaderBadVersion: return "ShaderBadVersion";
    case ErrorCode::ShaderBadInstruction: return "ShaderBadInstruction";
    case ErrorCode::ShaderBadOperand: return "ShaderBadOperand";
    case ErrorCode::SignatureConflict: return "SignatureConflict";
    case ErrorCode::NotFound: return "NotFound";
    case ErrorCode::TooLarge: return "TooLarge";
    case ErrorCode::UnsupportedFormat: return "UnsupportedFormat";
  }
  return "Unknown";
}

}  // namespace dxbc
