#include "shaders.h"

#include <cstring>

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
                             const D3D11_CLASS_INSTANCE_DESC& desc, const char* typeName)
: D3D11Child(device, id), m_linkage(linkage), m_desc(desc), m_typeName(typeName ? typeName : "") {}

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
  copyName(std::string(), name, length);
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

HRESULT STDMETHODCALLTYPE ClassLinkage::GetClassInstance(LPCSTR name, UINT index, ID3D11ClassInstance** instance) {
  if (instance)
    *instance = nullptr;
  NPT_WARN("ID3D11ClassLinkage::GetClassInstance(%s, %u): shader-declared class instances are not remoted (protocol v1)",
           name ? name : "(null)", index);
  return E_NOTIMPL;
}

HRESULT STDMETHODCALLTYPE ClassLinkage::CreateClassInstance(LPCSTR typeName, UINT constantBufferOffset,
                                                            UINT constantVectorOffset, UINT textureOffset,
                                                            UINT samplerOffset, ID3D11ClassInstance** instance) {
  if (!typeName)
    return E_INVALIDARG;
  if (!instance)
    return S_FALSE;
  *instance = nullptr;
  if (m_parent->removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  HRESULT hr = m_parent->record([&](Recorder& r) {
    return protocol::encode_ID3D11ClassLinkage_CreateClassInstance(r.writer(), m_id, typeName, constantBufferOffset,
                                                                   constantVectorOffset, textureOffset, samplerOffset, id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  D3D11_CLASS_INSTANCE_DESC desc = {};
  desc.InstanceId = 0;
  desc.TypeId = 0;
  desc.ConstantBuffer = constantBufferOffset;
  desc.BaseConstantBufferOffset = constantVectorOffset;
  desc.BaseTexture = textureOffset;
  desc.BaseSampler = samplerOffset;
  desc.Created = TRUE;
  *instance = addRefed(new ClassInstance(m_parent, id, this, desc, typeName));
  return S_OK;
}

}
