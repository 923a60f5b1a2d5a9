// SPDX-License-Identifier: MIT
#pragma once

// Mapping DDI-level references to rebuilt signature elements:
// - input layouts: D3D10DDIARG_INPUT_ELEMENT_DESC (InputRegister, Format, ...) to the
//   (semantic, index) of the rebuilt vertex-shader input signature;
// - stream output: D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY (Stream, OutputSlot,
//   RegisterIndex, RegisterMask) to D3D11_SO_DECLARATION_ENTRY fields.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dxbc/signature.h"
#include "dxbc/status.h"

namespace dxbc {

struct InputElementRef {
  uint32_t inputRegister = 0;
  uint32_t dxgiFormat = 0;
};

struct InputElementMapping {
  std::string semanticName;
  uint32_t semanticIndex = 0;
  uint32_t componentType = comptype::Unknown;   // from the vertex format
  uint8_t formatMask = 0;                       // components the format provides
};

// Component type and component count of a vertex attribute format (DXGI_FORMAT value).
// UnsupportedFormat for formats that cannot feed the input assembler.
Status vertexFormatInfo(uint32_t dxgiFormat, uint32_t* componentType, uint32_t* componentCount);

// Semantic of an input layout element, consistent with rebuildSignatures(): the
// element at inputRegister in vsInput if present, else the generic name for
// (inputRegister, x).
Status mapInputElement(const Signature& vsInput, const InputElementRef& element,
                       InputElementMapping& out);

// A vertex-shader input signature that matches an input layout on its own (for
// CreateInputLayout's bytecode argument when the vertex shader is not known yet).
Status buildInputLayoutSignature(std::span<const InputElementRef> elements, Signature& out);

// Complete container holding just that signature and a minimal vertex shader, usable as
// pShaderBytecodeWithInputSignature.
Status buildInputLayoutContainer(std::span<const InputElementRef> elements,
                                 std::vector<uint8_t>& out);

struct StreamOutputRef {
  uint32_t stream = 0;
  uint32_t outputSlot = 0;
  uint32_t registerIndex = 0;      // 0xffffffff: a gap of popcount(mask) components
  uint8_t registerMask = 0;
};

struct StreamOutputMapping {
  std::string semanticName;        // empty for gaps (SemanticName = NULL)
  uint32_t semanticIndex = 0;
  uint8_t startComponent = 0;      // relative to the element's first component
  uint8_t componentCount = 0;
  uint32_t stream = 0;
  uint32_t outputSlot = 0;
};

Status mapStreamOutputEntry(const Signature& output, const StreamOutputRef& entry,
                            StreamOutputMapping& out);

}  // namespace dxbc
