// SPDX-License-Identifier: MIT
#include "class_linkage.h"

#include <cstring>

#include "device.h"
#include "dxbc/container.h"

namespace triton::runtime {
namespace {

// The API's string getters: the length with the NUL; a buffer that is too small gets nothing.
void copyName(const std::string& value, LPSTR out, SIZE_T* length) {
  if (!length)
    return;
  if (out && *length > value.size())
    std::memcpy(out, value.c_str(), value.size() + 1);
  *length = value.size() + 1;
}

UINT dataOrZero(UINT value) { return value == dxbc::kNoInstanceBinding ? 0 : value; }

}  // namespace

ClassInstance::ClassInstance(Device* device, ClassLinkage* linkage, std::string typeName, std::string instanceName,
                             const D3D11_CLASS_INSTANCE_DESC& desc)
    : Child(device), linkage_(linkage), typeName_(std::move(typeName)), instanceName_(std::move(instanceName)),
      desc_(desc) {
  linkage_->AddRef();
}

ClassInstance::~ClassInstance() { linkage_->Release(); }

void ClassInstance::GetClassLinkage(ID3D11ClassLinkage** out) {
  linkage_->AddRef();
  *out = linkage_;
}

void ClassInstance::GetDesc(D3D11_CLASS_INSTANCE_DESC* out) {
  if (out)
    *out = desc_;
}

void ClassInstance::GetInstanceName(LPSTR name, SIZE_T* length) { copyName(instanceName_, name, length); }
void ClassInstance::GetTypeName(LPSTR name, SIZE_T* length) { copyName(typeName_, name, length); }

bool ClassInstance::bindingFor(const dxbc::InterfacesChunk& shader, UINT slot, UINT& table,
                               triton::ddi::D3D11DDIARG_POINTERDATA& data) const {
  const dxbc::ClassTypeRecord* type = dxbc::findClassType(shader, typeName_);
  uint32_t selected = 0;
  if (!type || !dxbc::functionTableFor(shader, slot, type->id, selected))
    return false;
  table = selected;
  data = {};
  data.uCBID = desc_.ConstantBuffer;
  data.uCBOffset = desc_.BaseConstantBufferOffset;
  data.uBaseTex = dataOrZero(desc_.BaseTexture);
  data.uBaseSamp = dataOrZero(desc_.BaseSampler);
  return true;
}

HRESULT ClassLinkage::CreateClassInstance(LPCSTR typeName, UINT constantBuffer, UINT constantVectorOffset,
                                          UINT texture, UINT sampler, ID3D11ClassInstance** out) {
  if (!typeName)
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  D3D11_CLASS_INSTANCE_DESC desc{};
  desc.ConstantBuffer = constantBuffer;
  desc.BaseConstantBufferOffset = constantVectorOffset;
  desc.BaseTexture = texture;
  desc.BaseSampler = sampler;
  desc.Created = TRUE;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const dxbc::InterfacesChunk& shader : shaders_) {
      if (const dxbc::ClassTypeRecord* type = dxbc::findClassType(shader, typeName)) {
        desc.TypeId = type->id;
        break;
      }
    }
  }
  *out = new ClassInstance(device(), this, typeName, "", desc);
  return S_OK;
}

HRESULT ClassLinkage::GetClassInstance(LPCSTR name, UINT index, ID3D11ClassInstance** out) {
  if (!name || !out)
    return E_INVALIDARG;
  *out = nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  // Instances of an array share the name; index picks one, in declaration order.
  UINT seen = 0;
  for (const dxbc::InterfacesChunk& shader : shaders_) {
    for (UINT i = 0; i < shader.instances.size(); ++i) {
      const dxbc::ClassInstanceRecord& record = shader.instances[i];
      if (record.name != name || seen++ != index)
        continue;
      for (const dxbc::ClassTypeRecord& type : shader.types) {
        if (type.id != record.typeId)
          continue;
        D3D11_CLASS_INSTANCE_DESC desc{};
        desc.InstanceId = i;
        desc.InstanceIndex = index;
        desc.TypeId = type.id;
        desc.ConstantBuffer = record.constantBuffer;
        desc.BaseConstantBufferOffset = record.constantBufferOffset;
        desc.BaseTexture = record.texture;
        desc.BaseSampler = record.sampler;
        desc.Created = FALSE;
        *out = new ClassInstance(device(), this, type.name, record.name, desc);
        return S_OK;
      }
    }
  }
  return E_INVALIDARG;
}

void ClassLinkage::addShader(const dxbc::InterfacesChunk& interfaces) {
  std::lock_guard<std::mutex> lock(mutex_);
  shaders_.push_back(interfaces);
}

bool readInterfaces(const void* code, SIZE_T size, dxbc::InterfacesChunk& out) {
  if (!code || !size)
    return false;
  dxbc::ContainerReader reader;
  if (!dxbc::ContainerReader::parse({static_cast<const uint8_t*>(code), size_t(size)}, reader,
                                    dxbc::ReadOptions{false, true})
           .ok())
    return false;
  const dxbc::ChunkView* chunk = reader.find(dxbc::tag::IFCE);
  return chunk && dxbc::parseInterfacesChunk(chunk->data, out).ok();
}

}  // namespace triton::runtime
