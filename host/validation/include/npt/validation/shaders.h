#pragma once

// Shader bytecode and input layouts.
//
// The container check here is deliberately minimal and self-contained: header size vs
// the length the guest gave, magic, chunk table and chunk bounds, presence of a
// SHDR/SHEX chunk and its program type. When the dxbc library (dxbc/) provides its
// ContainerReader, the host can additionally parse signatures with it; these checks
// already guarantee that nothing reads outside the given bytes.

#include <cstddef>
#include <cstdint>

#include "npt/validation/check.h"

namespace npt::validation {

enum class ShaderStage : uint32_t {
  // Values are the DXBC program type (D3D10_SB_TOKENIZED_PROGRAM_TYPE).
  Pixel = 0, Vertex = 1, Geometry = 2, Hull = 3, Domain = 4, Compute = 5,
};

struct ShaderInfo {
  ShaderStage stage = ShaderStage::Pixel;
  uint32_t majorVersion = 0;
  uint32_t minorVersion = 0;
  const uint8_t* inputSignature = nullptr;   // ISGN/ISG1 chunk payload, if any
  size_t inputSignatureSize = 0;
};

// Validates the container and that its program is for `stage`.
Check validateShaderBytecode(const void* bytecode, size_t length, ShaderStage stage, ShaderInfo* info = nullptr);

// CreateInputLayout. bytecode is the vertex shader whose input signature the layout must
// match; it is validated with validateShaderBytecode first.
Check validateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, const void* bytecode,
                          size_t length);

}  // namespace npt::validation
