// SPDX-License-Identifier: MIT
// The runtime's side of dynamic linkage: class types and their function tables come from
// the application's container (the IFCE chunk the DDI never delivers).

#include "dxbc/container.h"
#include "dxbc/interfaces.h"
#include "triton/harness/runtime.h"

namespace triton::harness {
namespace {

bool readInterfaces(std::span<const uint8_t> container, dxbc::InterfacesChunk& out) {
  dxbc::ContainerReader reader;
  if (!dxbc::ContainerReader::parse(container, reader, dxbc::ReadOptions{false, true}).ok())
    return false;
  const dxbc::ChunkView* chunk = reader.find(dxbc::tag::IFCE);
  return chunk && dxbc::parseInterfacesChunk(chunk->data, out).ok();
}

}  // namespace

bool interfaceArguments(std::span<const uint8_t> container, std::span<const ClassInstanceDesc> instances,
                        InterfaceArguments& out) {
  out = InterfaceArguments();
  dxbc::InterfacesChunk chunk;
  if (!readInterfaces(container, chunk) || instances.size() > chunk.slotCount)
    return false;
  for (size_t slot = 0; slot < instances.size(); ++slot) {
    const ClassInstanceDesc& instance = instances[slot];
    UINT table = 0;
    ddi::D3D11DDIARG_POINTERDATA data{};
    if (!instance.typeName.empty()) {
      const dxbc::ClassTypeRecord* type = dxbc::findClassType(chunk, instance.typeName);
      uint32_t selected = 0;
      if (!type || !dxbc::functionTableFor(chunk, uint32_t(slot), type->id, selected))
        return false;
      table = selected;
      data.uCBID = instance.constantBuffer;
      data.uCBOffset = instance.constantVectorOffset;
      data.uBaseTex = instance.texture;
      data.uBaseSamp = instance.sampler;
    }
    out.tables.push_back(table);
    out.data.push_back(data);
  }
  return true;
}

bool declaredClassInstance(std::span<const uint8_t> container, const std::string& name, ClassInstanceDesc& out) {
  dxbc::InterfacesChunk chunk;
  if (!readInterfaces(container, chunk))
    return false;
  for (const dxbc::ClassInstanceRecord& instance : chunk.instances) {
    if (instance.name != name)
      continue;
    for (const dxbc::ClassTypeRecord& type : chunk.types) {
      if (type.id == instance.typeId) {
        // fxc writes 0xffff for "no texture/sampler"; the pointer data then carries 0.
        out = ClassInstanceDesc{type.name, instance.constantBuffer, instance.constantBufferOffset,
                                instance.texture == dxbc::kNoInstanceBinding ? 0u : instance.texture,
                                instance.sampler == dxbc::kNoInstanceBinding ? 0u : instance.sampler};
        return true;
      }
    }
  }
  return false;
}

}  // namespace triton::harness
