// SPDX-License-Identifier: MIT
#pragma once

// Signature chunks: ISGN/OSGN/PCSG (24-byte elements), OSG5 (28: stream first),
// ISG1/OSG1/PSG1 (32: stream first, min precision last).
//
// Chunk layout: elementCount | 8 (offset of the element array) | elements | strings.
// Element (ISG1 form): stream | nameOffset | semanticIndex | systemValue (D3D_NAME) |
// componentType (D3D_REGISTER_COMPONENT_TYPE) | register | mask:8 rwMask:8 pad:16 |
// minPrecision (D3D_MIN_PRECISION). Name offsets are relative to the chunk start.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dxbc/fourcc.h"
#include "dxbc/status.h"

namespace dxbc {

enum class SignatureKind : uint8_t { Input, Output, PatchConstant };

enum class SignatureFormat : uint8_t {
  Basic,          // ISGN / OSGN / PCSG, 24-byte elements
  Stream,         // OSG5, 28-byte elements (outputs only)
  MinPrecision,   // ISG1 / OSG1 / PSG1, 32-byte elements
};

constexpr uint32_t kNoRegister = 0xffffffffu;   // register-less (oDepth, oMask, ...)
constexpr uint32_t kMaxSignatureElements = 1024;

// D3D_NAME values as stored in signature chunks (not the token-level D3D10_SB_NAME).
namespace sysval {
constexpr uint32_t Undefined = 0, Position = 1, ClipDistance = 2, CullDistance = 3,
    RenderTargetArrayIndex = 4, ViewportArrayIndex = 5, VertexId = 6, PrimitiveId = 7,
    InstanceId = 8, IsFrontFace = 9, SampleIndex = 10, FinalQuadEdgeTessFactor = 11,
    FinalQuadInsideTessFactor = 12, FinalTriEdgeTessFactor = 13,
    FinalTriInsideTessFactor = 14, FinalLineDetailTessFactor = 15,
    FinalLineDensityTessFactor = 16, Barycentrics = 23, ShadingRate = 24,
    CullPrimitive = 25, Target = 64, Depth = 65, Coverage = 66, DepthGreaterEqual = 67,
    DepthLessEqual = 68, StencilRef = 69, InnerCoverage = 70;
}

// D3D_REGISTER_COMPONENT_TYPE (same values as D3D10_SB_REGISTER_COMPONENT_TYPE).
namespace comptype {
constexpr uint32_t Unknown = 0, Uint32 = 1, Sint32 = 2, Float32 = 3;
}

// D3D_MIN_PRECISION (same values as D3D11_SB_OPERAND_MIN_PRECISION).
namespace minprec {
constexpr uint32_t Default = 0, Float16 = 1, Float2_8 = 2, Sint16 = 4, Uint16 = 5,
    Any16 = 0xf0, Any10 = 0xf1;
}

struct SignatureElement {
  std::string semanticName;
  uint32_t semanticIndex = 0;
  uint32_t systemValue = sysval::Undefined;
  uint32_t componentType = comptype::Unknown;
  uint32_t registerIndex = 0;
  uint8_t mask = 0;
  // Inputs: components the shader reads. Outputs: components it never writes.
  uint8_t rwMask = 0;
  uint32_t stream = 0;
  uint32_t minPrecision = minprec::Default;
};

struct Signature {
  std::vector<SignatureElement> elements;
};

uint32_t signatureElementSize(SignatureFormat format);   // 24, 28 or 32

// Chunk tag for a (kind, format) pair; 0 if the pair does not exist (Stream only has
// an output form: OSG5).
FourCC signatureTag(SignatureKind kind, SignatureFormat format);

// Inverse of signatureTag(); false for non-signature tags.
bool classifySignatureTag(FourCC tag, SignatureKind* kind, SignatureFormat* format);

// Parses a signature chunk payload (bytes after the 8-byte chunk header).
Status parseSignature(FourCC tag, std::span<const uint8_t> payload, Signature& out);

// Serializes a signature in the layout fxc writes (elements, then NUL-terminated names,
// identical names shared, padded to 4 bytes). out is replaced.
Status writeSignature(const Signature& signature, SignatureFormat format,
                      std::vector<uint8_t>& out);

}  // namespace dxbc
