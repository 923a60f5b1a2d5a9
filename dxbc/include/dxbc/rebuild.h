// SPDX-License-Identifier: MIT
#pragma once

// Rebuilding a complete container from what the DDI delivers: the token stream and
// name-less signature entries (either stride).
//
// Rules (see dxbc/README.md for the reasoning):
// - Elements are the union of the DDI entries and the declarations of the token stream;
//   the runtime omits entries in some cases (a stream-output GS gets none).
// - System values get their canonical names (SV_Position, SV_TessFactor, SV_Target with
//   index = register, SV_Depth, SV_Coverage, ...). Generic elements are named
//   kGenericSemantic with index = register * 4 + first component, so a producer's output
//   and its consumer's input always agree.
// - Elements are sorted as fxc sorts them; chunk variants are chosen as fxc does
//   (OSG5 for SM5 geometry shaders, *SG1 when min precision is present).

#include <cstdint>
#include <span>
#include <vector>

#include "dxbc/container.h"
#include "dxbc/ddi_signature.h"
#include "dxbc/shader_code.h"
#include "dxbc/signature.h"
#include "dxbc/status.h"
#include "dxbc/token_scanner.h"

namespace dxbc {

constexpr const char* kGenericSemantic = "TEXCOORD";

// Semantic index given to a generic element at (register, first component).
constexpr uint32_t genericSemanticIndex(uint32_t registerIndex, uint32_t firstComponent) {
  return registerIndex * 4 + firstComponent;
}

struct DdiSignatures {
  std::span<const DdiSignatureEntry> input;
  std::span<const DdiSignatureEntry> output;
  std::span<const DdiSignatureEntry> patchConstant;
  // False with the 11.0 stride: component types and min precision are then derived
  // from system values and declarations instead of taken from the entries.
  bool hasTypeInfo = true;
};

struct RebuiltSignatures {
  Signature input;
  Signature output;
  Signature patchConstant;
  bool hasPatchConstant = false;           // hull and domain shaders
  SignatureFormat inputFormat = SignatureFormat::Basic;
  SignatureFormat outputFormat = SignatureFormat::Basic;
  SignatureFormat patchConstantFormat = SignatureFormat::Basic;
};

// Builds the three signatures from an already scanned shader.
Status rebuildSignatures(const ShaderInfo& info, const DdiSignatures& ddi,
                         RebuiltSignatures& out);

// Canonical semantic name of a D3D10_SB_NAME system value ("" for Undefined/unknown).
const char* systemValueSemantic(uint32_t sbName);
// D3D_NAME stored in a signature chunk for a D3D10_SB_NAME (tess factors collapse).
uint32_t systemValueToSignatureName(uint32_t sbName);
// Semantic index for a system value (e.g. SV_TessFactor per edge).
uint32_t systemValueSemanticIndex(uint32_t sbName, uint32_t registerIndex,
                                  uint32_t tessDomain);

// SFI0 feature flags fxc would write for the shader (0: no SFI0 chunk). Derived from
// dcl_globalFlags and declarations: doubles, SM4 raw/structured buffers, minimum
// precision, 11.1 double and shader extensions, stencil-reference output, array indices
// written by vertex/domain shaders.
uint64_t shaderFeatureFlags(const ShaderInfo& info);

// Adds the signature chunks in fxc's order (input; patch constants before the outputs
// of a domain shader, after those of a hull shader; output). Shared by the rebuild and
// the assembler so that both write the same chunk layout.
Status addSignatureChunks(ContainerWriter& writer, ProgramType type, const RebuiltSignatures& sigs);

// Whole pipeline: parse the tokens, scan, rebuild signatures, write the container
// (signature chunks, then SHDR/SHEX) with its checksum. out is replaced.
Status rebuildContainer(std::span<const uint8_t> tokenBytes, const DdiSignatures& ddi,
                        std::vector<uint8_t>& out, RebuiltSignatures* signatures = nullptr);

// Reverse of the runtime: the DDI entries a container's signature chunk turns into
// (as the D3D11 runtime derives them), in element order.
void ddiEntriesFromSignature(const Signature& signature, std::vector<DdiSignatureEntry>& out);

}  // namespace dxbc
