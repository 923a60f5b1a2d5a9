// SPDX-License-Identifier: MIT
#include "npt/validation/shaders.h"

namespace npt::validation {

// D3D11_SO_DECLARATION_ENTRY and CreateGeometryShaderWithStreamOutput remarks: at most
// D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT entries, streams and slots
// below 4, components inside one register, at most four strides of at most 2048 bytes,
// and a rasterized stream that exists (or NO_RASTERIZED_STREAM).
Check validateStreamOutput(const D3D11_SO_DECLARATION_ENTRY* entries, uint32_t count, const UINT* strides,
                           uint32_t numStrides, UINT rasterizedStream) {
  constexpr uint32_t kMaxEntries = D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT;
  if (count == 0 || count > kMaxEntries)
    return Check::reject(Rule::ShaderStreamOutput, "%u declaration entries (1..%u)", count, kMaxEntries);
  if (!entries) return Check::reject(Rule::NullRequired, "declaration entries missing");
  if (numStrides > D3D11_SO_BUFFER_SLOT_COUNT)
    return Check::reject(Rule::ShaderStreamOutput, "%u buffer strides (at most %u)", numStrides,
                         D3D11_SO_BUFFER_SLOT_COUNT);
  if (numStrides && !strides) return Check::reject(Rule::NullRequired, "buffer strides missing");
  for (uint32_t i = 0; i < numStrides; i++) {
    if (strides[i] > D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES || strides[i] % 4)
      return Check::reject(Rule::ShaderStreamOutput, "stride %u of buffer %u is not a multiple of 4 up to %u",
                           strides[i], i, D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES);
  }
  if (rasterizedStream != D3D11_SO_NO_RASTERIZED_STREAM && rasterizedStream >= D3D11_SO_STREAM_COUNT)
    return Check::reject(Rule::ShaderStreamOutput, "rasterized stream %u", rasterizedStream);
  for (uint32_t i = 0; i < count; i++) {
    const D3D11_SO_DECLARATION_ENTRY& e = entries[i];
    if (e.Stream >= D3D11_SO_STREAM_COUNT || e.OutputSlot >= D3D11_SO_BUFFER_SLOT_COUNT)
      return Check::reject(Rule::ShaderStreamOutput, "entry %u: stream %u slot %u", i, e.Stream, e.OutputSlot);
    // Gaps (null semantic) skip ComponentCount components and have no StartComponent.
    const bool gap = e.SemanticName == nullptr;
    if (e.ComponentCount < 1 || (!gap && uint32_t(e.StartComponent) + e.ComponentCount > 4))
      return Check::reject(Rule::ShaderStreamOutput, "entry %u: components %u+%u", i, e.StartComponent,
                           e.ComponentCount);
    if (!gap && !e.SemanticName[0])
      return Check::reject(Rule::ShaderStreamOutput, "entry %u has an empty semantic name", i);
  }
  return Check::pass();
}

}  // namespace npt::validation
