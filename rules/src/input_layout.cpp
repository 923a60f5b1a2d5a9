// SPDX-License-Identifier: MIT
#include "npt/validation/shaders.h"

#include <strings.h>

#include "npt/validation/format_table.h"

namespace npt::validation {

namespace {

// D3D11_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT (not in every header set).
constexpr uint32_t kMaxInputElements = 32;

bool sameSemantic(const char* a, const char* b) { return strcasecmp(a, b) == 0; }

// Every element of the shader's input signature must be fed by the layout (CreateInputLayout
// fails otherwise), except the two the input assembler generates. Other system values
// (SV_Position in a pixel shader's signature, SV_ClipDistance) need their element too, as
// on Windows (Wine's d3d11 suite, test_create_input_layout).
Check matchSignature(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, const ShaderInfo& shader) {
  if (!shader.hasInputSignature) return Check::pass();
  for (const dxbc::SignatureElement& input : shader.inputSignature.elements) {
    // By system value or by name: a pixel shader's SV_InstanceID input has no system value.
    if (input.systemValue == dxbc::sysval::VertexId || input.systemValue == dxbc::sysval::InstanceId ||
        sameSemantic(input.semanticName.c_str(), "SV_VertexID") || sameSemantic(input.semanticName.c_str(), "SV_InstanceID"))
      continue;
    bool fed = false;
    for (uint32_t e = 0; e < count && !fed; e++)
      fed = sameSemantic(elements[e].SemanticName, input.semanticName.c_str()) &&
            elements[e].SemanticIndex == input.semanticIndex;
    if (!fed)
      return Check::reject(Rule::InputLayoutSemantic, "shader input %s%u is not in the layout",
                           input.semanticName.c_str(), input.semanticIndex);
  }
  return Check::pass();
}

// Elements start on a multiple of their component size (4 bytes for 32-bit components);
// an appended element is placed on the next such multiple, as Windows does (a float after
// a byte lands at byte 4: Wine's d3d11 suite, test_instanced_draw).
uint32_t elementAlignment(const FormatInfo& format) { return format.blockBytes < 4 ? format.blockBytes : 4; }

uint64_t elementOffset(const D3D11_INPUT_ELEMENT_DESC& e, uint32_t alignment, uint32_t slotEnd) {
  if (e.AlignedByteOffset != D3D11_APPEND_ALIGNED_ELEMENT)
    return e.AlignedByteOffset;
  return alignment ? (uint64_t(slotEnd) + alignment - 1) / alignment * alignment : slotEnd;
}

}  // namespace

Check validateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, const void* bytecode,
                          size_t length) {
  if (count > kMaxInputElements)
    return Check::reject(Rule::InputLayoutCount, "%u elements, at most %u", count,
                         kMaxInputElements);
  if (count && !elements) return Check::reject(Rule::NullRequired, "element array missing");

  uint32_t slotEnd[D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT] = {};
  int slotClass[D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
  for (int& c : slotClass) c = -1;

  for (uint32_t i = 0; i < count; i++) {
    const D3D11_INPUT_ELEMENT_DESC& e = elements[i];
    if (!e.SemanticName || !e.SemanticName[0])
      return Check::reject(Rule::InputLayoutSemantic, "element %u has no semantic name", i);
    const FormatInfo* format = lookupFormat(e.Format);
    if (!format || !format->is(FormatVertex))
      return Check::reject(Rule::InputLayoutFormat, "element %u format %u is not a vertex format", i, unsigned(e.Format));
    if (e.InputSlot >= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
      return Check::reject(Rule::InputLayoutSlot, "element %u InputSlot %u >= %u", i, e.InputSlot,
                           D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT);
    if (e.InputSlotClass != D3D11_INPUT_PER_VERTEX_DATA && e.InputSlotClass != D3D11_INPUT_PER_INSTANCE_DATA)
      return Check::reject(Rule::InputLayoutClass, "element %u InputSlotClass %u", i, unsigned(e.InputSlotClass));
    if (e.InputSlotClass == D3D11_INPUT_PER_VERTEX_DATA && e.InstanceDataStepRate != 0)
      return Check::reject(Rule::InputLayoutStepRate, "per-vertex element %u has InstanceDataStepRate %u", i,
                           e.InstanceDataStepRate);
    int& cls = slotClass[e.InputSlot];
    if (cls != -1 && cls != int(e.InputSlotClass))
      return Check::reject(Rule::InputLayoutSlotClassMix, "slot %u mixes per-vertex and per-instance elements", e.InputSlot);
    cls = int(e.InputSlotClass);

    const uint32_t alignment = elementAlignment(*format);
    const uint64_t offset = elementOffset(e, alignment, slotEnd[e.InputSlot]);
    if (alignment && offset % alignment)
      return Check::reject(Rule::InputLayoutOffset, "element %u at byte %llu is not %u-byte aligned", i,
                           (unsigned long long)offset, alignment);
    const uint64_t end = offset + format->blockBytes;
    if (end > D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES)
      return Check::reject(Rule::InputLayoutOffset, "element %u ends at byte %llu, past %u", i, (unsigned long long)end,
                           D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES);
    slotEnd[e.InputSlot] = uint32_t(end);

    for (uint32_t j = 0; j < i; j++) {
      if (elements[j].SemanticIndex == e.SemanticIndex && sameSemantic(elements[j].SemanticName, e.SemanticName))
        return Check::reject(Rule::InputLayoutDuplicate, "elements %u and %u are both %s%u", j, i, e.SemanticName,
                             e.SemanticIndex);
    }
  }

  // Only the bytecode's input signature matters: Windows takes any stage's (a compute
  // shader's has no elements to feed; Wine's d3d11 suite, test_create_input_layout).
  ShaderInfo shader;
  Check check = validateShaderBytecode(bytecode, length, ShaderStage::Vertex, &shader);
  for (ShaderStage stage : {ShaderStage::Pixel, ShaderStage::Geometry, ShaderStage::Hull, ShaderStage::Domain,
                            ShaderStage::Compute}) {
    if (check.rule() != Rule::ShaderStageMismatch)
      break;
    check = validateShaderBytecode(bytecode, length, stage, &shader);
  }
  NPT_CHECK(check);
  return matchSignature(elements, count, shader);
}

void inputElementOffsets(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, uint32_t* offsets) {
  uint32_t slotEnd[D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT] = {};
  for (uint32_t i = 0; i < count; i++) {
    const D3D11_INPUT_ELEMENT_DESC& e = elements[i];
    const FormatInfo* format = lookupFormat(e.Format);
    const uint32_t slot = e.InputSlot % D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT;   // in range once validated
    const uint64_t offset = elementOffset(e, format ? elementAlignment(*format) : 0, slotEnd[slot]);
    offsets[i] = uint32_t(offset);
    slotEnd[slot] = uint32_t(offset + (format ? format->blockBytes : 0));
  }
}

}  // namespace npt::validation
