// SPDX-License-Identifier: MIT
#include "buffer.h"

#include "npt/validation/resource.h"
#include "usage_rules.h"

namespace npt::guest {

Buffer::Buffer(Device* device, protocol::ObjectId id, const D3D11_BUFFER_DESC& desc)
: D3D11Child(device, id), m_desc(desc),
  m_dxgi(this, dxgi::DxgiResourceFace::Kind::Resource, validation::dxgiUsageOf(desc.BindFlags, desc.Usage)),
  m_state(infoOf(desc)) {}

ResourceInfo Buffer::infoOf(const D3D11_BUFFER_DESC& desc) {
  ResourceInfo info;
  info.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
  info.usage = desc.Usage;
  info.bindFlags = desc.BindFlags;
  info.cpuAccessFlags = desc.CPUAccessFlags;
  info.miscFlags = desc.MiscFlags;
  info.width = desc.ByteWidth;
  if (desc.MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED)
    info.structureStride = desc.StructureByteStride;
  return info;
}

HRESULT Buffer::validate(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* data) {
  if (!desc || !desc->ByteWidth)
    return E_INVALIDARG;
  if ((desc->BindFlags & D3D11_BIND_CONSTANT_BUFFER) && (desc->ByteWidth % 16))
    return E_INVALIDARG;
  if (desc->BindFlags & D3D11_BIND_DEPTH_STENCIL)
    return E_INVALIDARG;
  if (desc->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) {
    UINT stride = desc->StructureByteStride;
    if (!stride || stride % 4 || stride > 2048 || desc->ByteWidth % stride)
      return E_INVALIDARG;
    if (desc->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)
      return E_INVALIDARG;
  }
  if ((desc->MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) &&
      !(desc->BindFlags & (D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS)))
    return E_INVALIDARG;
  if (desc->MiscFlags & (D3D11_RESOURCE_MISC_GENERATE_MIPS | D3D11_RESOURCE_MISC_TEXTURECUBE))
    return E_INVALIDARG;
  HRESULT hr = validateUsage(desc->Usage, desc->BindFlags, desc->CPUAccessFlags, data != nullptr);
  if (FAILED(hr))
    return hr;
  return validateInitialData(data, 1);
}

HRESULT STDMETHODCALLTYPE Buffer::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11Buffer)) || IsEqualGUID(riid, __uuidof(ID3D11Resource))) {
    *object = addRefed(static_cast<ID3D11Buffer*>(this));
    return S_OK;
  }
  if (void* face = m_dxgi.query(riid)) {
    AddRef();
    *object = face;
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE Buffer::GetType(D3D11_RESOURCE_DIMENSION* dimension) {
  *dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
}

void STDMETHODCALLTYPE Buffer::SetEvictionPriority(UINT priority) {
  m_evictionPriority = priority;
  m_parent->record([&](Recorder& r) {
    return protocol::encode_ID3D11Resource_SetEvictionPriority(r.writer(), m_id, priority);
  });
}

void STDMETHODCALLTYPE Buffer::GetDesc(D3D11_BUFFER_DESC* desc) {
  *desc = m_desc;
}

}
