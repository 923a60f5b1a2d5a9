// SPDX-License-Identifier: MIT
#pragma once

// Shader bytecode and input layouts.
//
// Containers are parsed with the dxbc library's ContainerReader (dxbc/): header size
// must equal the length the guest gave, every chunk lies inside the container without
// overlaps, and the checksum must match (Windows' runtime refuses unsigned or
// modified bytecode). The program must be SM4.x/5.0 for the stage being created.

#include <cstddef>
#include <cstdint>

#include "dxbc/signature.h"
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
  bool hasInputSignature = false;
  dxbc::Signature inputSignature;
};

// Validates the container and that its program is for `stage`.
Check validateShaderBytecode(const void* bytecode, size_t length, ShaderStage stage, ShaderInfo* info = nullptr);

// What a device of feature level `level` runs, for bytecode validateShaderBytecode passed:
// below 10_0 only the 4_0_level_9_x profiles (the container carries their Aon9 chunk),
// at 10_0 shader model 4.0, at 10_1 up to 4.1, from 11_0 up to 5.0.
Check validateShaderFeatureLevel(const void* bytecode, size_t length, D3D_FEATURE_LEVEL level);

// CreateGeometryShaderWithStreamOutput: a geometry shader, or the vertex or domain shader
// whose output is streamed out without one (the documented way to stream out without a
// geometry shader).
Check validateStreamOutputShaderBytecode(const void* bytecode, size_t length);

// CreateInputLayout. bytecode is the shader whose input signature the layout must match
// (a vertex shader's, normally; Windows takes any stage's); it is validated with
// validateShaderBytecode first.
Check validateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, const void* bytecode,
                          size_t length);

// The byte offset each element starts at in its slot, D3D11_APPEND_ALIGNED_ELEMENT
// resolved as Windows resolves it (after the slot's previous element, on the next multiple
// of the element's component size, at most 4). For a layout validateInputLayout accepted.
void inputElementOffsets(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, uint32_t* offsets);

// CreateGeometryShaderWithStreamOutput's declaration (D3D11_SO_DECLARATION_ENTRY).
Check validateStreamOutput(const D3D11_SO_DECLARATION_ENTRY* entries, uint32_t count, const UINT* strides,
                           uint32_t numStrides, UINT rasterizedStream);

}  // namespace npt::validation
