// SPDX-License-Identifier: MIT
#pragma once

// What the D3D11 runtime hands a driver for a shader, derived from a complete container,
// and a field-by-field comparison of rebuilt signatures against the originals. Used by
// tests, the benchmark and dxbc-tool's strip/rebuild commands.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dxbc/container.h"
#include "dxbc/ddi_signature.h"
#include "dxbc/rebuild.h"
#include "dxbc/signature.h"

namespace dxbc {

struct DdiShader {
  DdiStride stride = DdiStride::D3D11_1;
  std::vector<uint8_t> tokens;                       // SHDR/SHEX payload
  std::vector<DdiSignatureEntry> input, output, patchConstant;

  DdiSignatures view() const {
    return DdiSignatures{input, output, patchConstant, stride == DdiStride::D3D11_1};
  }
};

// Strips a container to tokens + DDI entries of the given stride (11.0 entries carry no
// component type or min precision).
Status stripContainer(const ContainerReader& container, DdiStride stride, DdiShader& out);

// Serialized form of a DdiShader (dxbc-tool strip/rebuild): "DDIS" | version 1 | stride |
// input count | output count | patch count | token bytes | entries (stride each) | tokens.
void serializeDdiShader(const DdiShader& shader, std::vector<uint8_t>& out);
Status deserializeDdiShader(std::span<const uint8_t> bytes, DdiShader& out);
constexpr uint32_t kDdiShaderMagic = makeFourCC('D', 'D', 'I', 'S');

// The three signatures of a container (absent chunks give empty signatures).
struct ContainerSignatures {
  Signature input, output, patchConstant;
  FourCC inputTag = 0, outputTag = 0, patchConstantTag = 0;
};
Status readContainerSignatures(const ContainerReader& container, ContainerSignatures& out);

struct CompareOptions {
  bool compareComponentType = true;     // false for the 11.0 stride
  bool compareRwMask = true;
  // Only elements declared in the token stream are compared (entries were dropped).
  bool onlyDeclared = false;
};

// Appends one human-readable line per mismatch; returns true if none.
// SV semantic names compare case-insensitively (as D3D does); generic names are not
// compared here (see checkGenericConsistency).
bool compareSignature(const char* label, const Signature& original, const Signature& rebuilt,
                      const CompareOptions& options, std::vector<std::string>& mismatches);

}  // namespace dxbc
