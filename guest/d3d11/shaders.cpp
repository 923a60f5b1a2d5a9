// SPDX-License-Identifier: MIT
#include "shaders.h"

#include <cstring>

#include "dxbc/container.h"
#include "dxbc/fourcc.h"
#include "dxbc/interfaces.h"
#include "log.h"

namespace npt::guest {

namespace {

void copyName(const std::string& value, LPSTR name, SIZE_T* length) {
  if (!length)
    return;
  if (name && *length) {
    SIZE_T n = value.size() < *length - 1 ? value.size() : *length - 1;
    std::memcpy(name, value.data(), n);
    name[n] = 0;
  }
  *length = value.size() + 1;
}

}

ClassInstance::ClassInstance(Device* device, protocol::ObjectId id, ClassLinkage* linkage,
                             const D3D11_CLASS_INSTANCE_DESC& desc, const char* typeName, const char* instanceName)
: D3D11Child(device, id), m_linkage(linkage), m_desc(desc), m_typeName(typeName ? typeName : ""),
  m_instanceName(instanceName ? instanceName : "") {}

HRESULT STDMETHODCALLTYPE ClassInstance::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11ClassInstance))) {
    *object = addRefed(static_cast<ID3D11ClassInstance*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE ClassInstance::GetClassLinkage(ID3D11ClassLinkage** linkage) {
  *linkage = addRefed(static_cast<ID3D11ClassLinkage*>(m_linkage.get()));
}

void STDMETHODCALLTYPE ClassInstance::GetInstanceName(LPSTR name, SIZE_T* length) {
  // Instances made by CreateClassInstance have no instance name.
  copyName(m_instanceName, name, length);
}

void STDMETHODCALLTYPE ClassInstance::GetTypeName(LPSTR name, SIZE_T* length) {
  copyName(m_typeName, name, length);
}

HRESULT STDMETHODCALLTYPE ClassLinkage::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11ClassLinkage))) {
    *object = addRefed(static_cast<ID3D11ClassLinkage*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void ClassLinkage::noteShader(const void* bytecode, size_t length) {
  dxbc::ContainerReader container;
  dxbc::ReadOptions options;
  options.verifyChecksum = false;   // the host validates the container; this only reads IFCE
  options.requireExactSize = false;
  if (!dxbc::ContainerReader::parse({ static_cast<const uint8_t*>(bytecode), length }, container, options))
    return;
  const dxbc::ChunkView* chunk = container.find(dxbc::tag::IFCE);
  if (!chunk)
    return;
  dxbc::InterfacesChunk interfaces;
  if (!dxbc::parseInterfacesChunk(chunk->data, interfaces)) {
    NPT_WARN("a shader's class linkage data (IFCE) is malformed: its class instances are not known");
    return;
  }
  std::lock_guard<std::mutex> lock(m_mutex);
  for (size_t i = 0; i < interfaces.instances.size(); i++) {
    const dxbc::ClassInstanceRecord& record = interfaces.instances[i];
    bool known = false;
    for (const DeclaredClassInstance& declared : m_declared)
      known = known || declared.name == record.name;
    if (known)
      continue;   // declared by an earlier shader of this linkage
    DeclaredClassInstance declared;
    declared.name = record.name;
    for (const dxbc::ClassTypeRecord& type : interfaces.types)
      if (type.id == record.typeId)
        declared.typeName = type.name;
    declared.desc.InstanceId = UINT(i);
    declared.desc.InstanceIndex = 0;
    declared.desc.TypeId = record.typeId;
    declared.desc.ConstantBuffer = record.constantBuffer;
    declared.desc.BaseConstantBufferOffset = record.constantBufferOffset;
    // fxc's "no texture/sampler" (0xffff) stays as the shader says it.
    declared.desc.BaseTexture = record.texture;
    declared.desc.BaseSampler = record.sampler;
    declared.desc.Created = FALSE;
    m_declared.push_back(std::move(declared));
  }
}

HRESULT STDMETHODCALLTYPE ClassLinkage::GetClassInstance(LPCSTR name, UINT index, ID3D11ClassInstance** instance) {
  if (!name || !instance)
    return E_INVALIDARG;
  *instance = nullptr;
  DeclaredClassInstance found;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    const DeclaredClassInstance* match = nullptr;
    for (const DeclaredClassInstance& declared : m_declared)
      if (declared.name == name)
        match = &declared;
    // Instance arrays are not told apart by IFCE's records: index 0 only.
    if (!match || index != 0)
      return E_INVALIDARG;
    found = *match;
  }
  return createInstance(found.typeName.c_str(), found.desc, found.name.c_str(), instance);
}

HRESULT ClassLinkage::createInstance(const char* typeName, const D3D11_CLASS_INSTANCE_DESC& desc,
                                     const char* instanceName, ID3D11ClassInstance** instance) {
  if (m_parent->removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  // The host's object is its backend's instance of the class type at the data location.
  const UINT texture = desc.BaseTexture == dxbc::kNoInstanceBinding ? 0 : desc.BaseTexture;
  const UINT sampler = desc.BaseSampler == dxbc::kNoInstanceBinding ? 0 : desc.BaseSampler;
  HRESULT hr = m_parent->record([&](Recorder& r) {
    return protocol::encode_ID3D11ClassLinkage_CreateClassInstance(r.writer(), m_id, typeName, desc.ConstantBuffer,
                                                                   desc.BaseConstantBufferOffset, texture, sampler, id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  *instance = addRefed(new ClassInstance(m_parent, id, this, desc, typeName, instanceName));
  return S_OK;
}

HRESULT STDMETHODCALLTYPE ClassLinkage::CreateClassInstance(LPCSTR typeName, UINT constantBufferOffset,
                                                            UINT constantVectorOffset, UINT textureOffset,
                                                            UINT samplerOffset, ID3D11ClassInstance** instance) {
  if (!typeName)
    return E_INVALIDARG;
  if (!instance)
    return S_FALSE;
  *instance = nullptr;
  D3D11_CLASS_INSTANCE_DESC desc = {};
  desc.InstanceId = 0;
  desc.TypeId = 0;
  desc.ConstantBuffer = constantBufferOffset;
  desc.BaseConstantBufferOffset = constantVectorOffset;
  desc.BaseTexture = textureOffset;
  desc.BaseSampler = samplerOffset;
  desc.Created = TRUE;
  return createInstance(typeName, desc, nullptr, instance);
}

}
