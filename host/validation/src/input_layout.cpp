#include "npt/validation/shaders.h"

#include <cstring>
#include <strings.h>

#include "npt/validation/format_table.h"

namespace npt::validation {

namespace {

uint32_t readU32(const uint8_t* bytes, size_t offset) {
  uint32_t value;
  std::memcpy(&value, bytes + offset, sizeof(value));
  return value;
}

// D3D11_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT (not in every header set).
constexpr uint32_t kMaxInputElements = 32;

bool sameSemantic(const char* a, const char* b) { return strcasecmp(a, b) == 0; }

// Every non-system-value element of the shader's input signature must be fed by the
// layout (CreateInputLayout fails otherwise). ISGN elements are 24 bytes, ISG1 32.
Check matchSignature(const D3D11_INPUT_ELEMENT_DESC* elements, uint32_t count, const ShaderInfo& shader,
                     bool isg1) {
  const uint8_t* chunk = shader.inputSignature;
  const size_t size = shader.inputSignatureSize;
  if (!chunk) return Check::pass();
  if (size < 8) return Check::reject(Rule::ShaderChunkBounds, "input signature chunk of %zu bytes", size);
  const uint32_t elementCount = readU32(chunk, 0);
  const uint32_t first = readU32(chunk, 4);
  const size_t stride = isg1 ? 32 : 24;
  const size_t base = isg1 ? 4 : 0;   // ISG1 elements start with a stream index
  if (first > size || elementCount > (size - first) / stride)
    return Check::reject(Rule::ShaderChunkBounds, "input signature of %u elements does not fit its chunk", elementCount);
  for (uint32_t i = 0; i < elementCount; i++) {
    const size_t at = first + i * stride + base;
    const uint32_t nameOffset = readU32(chunk, at);
    const uint32_t semanticIndex = readU32(chunk, at + 4);
    const uint32_t systemValue = readU32(chunk, at + 8);
    if (nameOffset >= size || !std::memchr(chunk + nameOffset, 0, size - nameOffset))
      return Check::reject(Rule::ShaderChunkBounds, "input signature element %u name is outside its chunk", i);
    if (systemValue != 0) continue;   // SV_VertexID etc. come from the IA itself
    const char* name = reinterpret_cast<const char*>(chunk + nameOffset);
    bool fed = false;
    for (uint32_t e = 0; e < count && !fed; e++)
      fed = sameSemantic(elements[e].SemanticName, name) && elements[e].SemanticIndex == semanticIndex;
    if (!fed)
      return Check::reject(Rule::InputLayoutSemantic, "shader input %s%u is not in the layout", name, semanticIndex);
  }
  return Check::pass();
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

    const uint64_t offset = e.AlignedByteOffset == D3D11_APPEND_ALIGNED_ELEMENT ? slotEnd[e.InputSlot]
                                                                                : e.AlignedByteOffset;
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

  ShaderInfo shader;
  NPT_CHECK(validateShaderBytecode(bytecode, length, ShaderStage::Vertex, &shader));
  // ISG1 is recognisable by its 32-byte elements only through the tag, which the
  // bytecode check has already resolved; look it up again for the stride.
  bool isg1 = false;
  if (shader.inputSignature) {
    const uint8_t* tag = shader.inputSignature - 8;
    isg1 = std::memcmp(tag, "ISG1", 4) == 0;
  }
  return matchSignature(elements, count, shader, isg1);
}

}  // namespace npt::validation
