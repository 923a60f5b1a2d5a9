// SPDX-License-Identifier: MIT
#include "texture.h"

#include "npt/validation/resource.h"
#include "usage_rules.h"

namespace npt::guest {

namespace {

UINT fullMipChain(UINT width, UINT height, UINT depth) {
  UINT extent = width > height ? width : height;
  extent = extent > depth ? extent : depth;
  UINT levels = 1;
  while (extent > 1) {
    extent >>= 1;
    levels++;
  }
  return levels;
}

// Checks shared by every dimension; MipLevels 0 becomes the full chain.
HRESULT normalizeCommon(UINT width, UINT height, UINT depth, UINT maxExtent, UINT* mipLevels,
                        DXGI_FORMAT format, D3D11_USAGE usage, UINT bindFlags, UINT cpuAccessFlags, UINT miscFlags,
                        const D3D11_SUBRESOURCE_DATA* data, UINT arraySize) {
  if (!width || !height || !depth || width > maxExtent || height > maxExtent || depth > maxExtent)
    return E_INVALIDARG;
  if (format == DXGI_FORMAT_UNKNOWN)
    return E_INVALIDARG;
  UINT maxLevels = fullMipChain(width, height, depth);
  if (*mipLevels == 0)
    *mipLevels = maxLevels;
  if (*mipLevels > maxLevels)
    return E_INVALIDARG;
  if (bindFlags & D3D11_BIND_CONSTANT_BUFFER)
    return E_INVALIDARG;
  if ((miscFlags & D3D11_RESOURCE_MISC_GENERATE_MIPS) &&
      (bindFlags & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE)) != (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE))
    return E_INVALIDARG;
  HRESULT hr = validateUsage(usage, bindFlags, cpuAccessFlags, data != nullptr);
  if (FAILED(hr))
    return hr;
  return validateInitialData(data, *mipLevels * arraySize);
}

}

// ---- Texture1D

Texture1D::Texture1D(Device* device, protocol::ObjectId id, const D3D11_TEXTURE1D_DESC& desc)
: D3D11Child(device, id), m_desc(desc),
  m_dxgi(this, dxgi::DxgiResourceFace::Kind::Resource, validation::dxgiUsageOf(desc.BindFlags, desc.Usage)),
  m_state(infoOf(desc)) {}

ResourceInfo Texture1D::infoOf(const D3D11_TEXTURE1D_DESC& desc) {
  ResourceInfo info;
  info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D;
  info.usage = desc.Usage;
  info.bindFlags = desc.BindFlags;
  info.cpuAccessFlags = desc.CPUAccessFlags;
  info.miscFlags = desc.MiscFlags;
  info.format = desc.Format;
  info.width = desc.Width;
  info.mipLevels = desc.MipLevels;
  info.arraySize = desc.ArraySize;
  return info;
}

HRESULT Texture1D::normalize(const D3D11_TEXTURE1D_DESC* in, const D3D11_SUBRESOURCE_DATA* data, D3D11_TEXTURE1D_DESC* out) {
  if (!in)
    return E_INVALIDARG;
  *out = *in;
  if (!in->ArraySize || in->ArraySize > D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION)
    return E_INVALIDARG;
  if (in->MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE)
    return E_INVALIDARG;
  return normalizeCommon(in->Width, 1, 1, D3D11_REQ_TEXTURE1D_U_DIMENSION, &out->MipLevels, in->Format, in->Usage,
                         in->BindFlags, in->CPUAccessFlags, in->MiscFlags, data, in->ArraySize);
}

HRESULT STDMETHODCALLTYPE Texture1D::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11Texture1D)) || IsEqualGUID(riid, __uuidof(ID3D11Resource))) {
    *object = addRefed(static_cast<ID3D11Texture1D*>(this));
    return S_OK;
  }
  if (void* face = m_dxgi.query(riid)) {
    AddRef();
    *object = face;
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE Texture1D::SetEvictionPriority(UINT priority) {
  m_evictionPriority = priority;
  m_parent->record([&](Recorder& r) { return protocol::encode_ID3D11Resource_SetEvictionPriority(r.writer(), m_id, priority); });
}

// ---- Texture2D

Texture2D::Texture2D(Device* device, protocol::ObjectId id, const D3D11_TEXTURE2D_DESC1& desc, bool backBuffer)
: D3D11Child(device, id), m_desc(desc),
  // Only a texture of one subresource is a DXGI surface (Windows answers IDXGISurface
  // E_NOINTERFACE on mip chains and arrays: Wine's d3d11 suite, test_create_texture2d).
  m_dxgi(this, desc.MipLevels == 1 && desc.ArraySize == 1 ? dxgi::DxgiResourceFace::Kind::Surface
                                                          : dxgi::DxgiResourceFace::Kind::Resource,
         validation::dxgiUsageOf(desc.BindFlags, desc.Usage)),
  m_state(infoOf(desc)), m_backBuffer(backBuffer) {}

ResourceInfo Texture2D::infoOf(const D3D11_TEXTURE2D_DESC1& desc) {
  ResourceInfo info;
  info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
  info.usage = desc.Usage;
  info.bindFlags = desc.BindFlags;
  info.cpuAccessFlags = desc.CPUAccessFlags;
  info.miscFlags = desc.MiscFlags;
  info.format = desc.Format;
  info.width = desc.Width;
  info.height = desc.Height;
  info.mipLevels = desc.MipLevels;
  info.arraySize = desc.ArraySize;
  info.sampleCount = desc.SampleDesc.Count;
  return info;
}

HRESULT Texture2D::normalize(const D3D11_TEXTURE2D_DESC1* in, const D3D11_SUBRESOURCE_DATA* data, D3D11_TEXTURE2D_DESC1* out) {
  if (!in)
    return E_INVALIDARG;
  *out = *in;
  if (!in->ArraySize || in->ArraySize > D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION)
    return E_INVALIDARG;
  if (!in->SampleDesc.Count || in->SampleDesc.Count > D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT)
    return E_INVALIDARG;
  // A cube needs six faces; further slices need not make whole cubes (Windows creates a cube
  // texture of 7, 9 or 10 slices: Wine's d3d11 suite, test_create_texture2d).
  if ((in->MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE) && in->ArraySize < 6)
    return E_INVALIDARG;
  HRESULT hr = normalizeCommon(in->Width, in->Height, 1, D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION, &out->MipLevels, in->Format,
                               in->Usage, in->BindFlags, in->CPUAccessFlags, in->MiscFlags, data, in->ArraySize);
  if (FAILED(hr))
    return hr;
  if (in->SampleDesc.Count > 1 && (out->MipLevels != 1 || data || in->Usage != D3D11_USAGE_DEFAULT))
    return E_INVALIDARG;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Texture2D::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11Texture2D)) || IsEqualGUID(riid, __uuidof(ID3D11Resource)) ||
      IsEqualGUID(riid, __uuidof(ID3D11Texture2D1))) {
    *object = addRefed(static_cast<ID3D11Texture2D1*>(this));
    return S_OK;
  }
  if (void* face = m_dxgi.query(riid)) {
    AddRef();
    *object = face;
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE Texture2D::SetEvictionPriority(UINT priority) {
  m_evictionPriority = priority;
  m_parent->record([&](Recorder& r) { return protocol::encode_ID3D11Resource_SetEvictionPriority(r.writer(), m_id, priority); });
}

void STDMETHODCALLTYPE Texture2D::GetDesc(D3D11_TEXTURE2D_DESC* desc) {
  desc->Width = m_desc.Width;
  desc->Height = m_desc.Height;
  desc->MipLevels = m_desc.MipLevels;
  desc->ArraySize = m_desc.ArraySize;
  desc->Format = m_desc.Format;
  desc->SampleDesc = m_desc.SampleDesc;
  desc->Usage = m_desc.Usage;
  desc->BindFlags = m_desc.BindFlags;
  desc->CPUAccessFlags = m_desc.CPUAccessFlags;
  desc->MiscFlags = m_desc.MiscFlags;
}

// ---- Texture3D

Texture3D::Texture3D(Device* device, protocol::ObjectId id, const D3D11_TEXTURE3D_DESC1& desc)
: D3D11Child(device, id), m_desc(desc),
  m_dxgi(this, dxgi::DxgiResourceFace::Kind::Resource, validation::dxgiUsageOf(desc.BindFlags, desc.Usage)),
  m_state(infoOf(desc)) {}

ResourceInfo Texture3D::infoOf(const D3D11_TEXTURE3D_DESC1& desc) {
  ResourceInfo info;
  info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
  info.usage = desc.Usage;
  info.bindFlags = desc.BindFlags;
  info.cpuAccessFlags = desc.CPUAccessFlags;
  info.miscFlags = desc.MiscFlags;
  info.format = desc.Format;
  info.width = desc.Width;
  info.height = desc.Height;
  info.depth = desc.Depth;
  info.mipLevels = desc.MipLevels;
  return info;
}

HRESULT Texture3D::normalize(const D3D11_TEXTURE3D_DESC1* in, const D3D11_SUBRESOURCE_DATA* data, D3D11_TEXTURE3D_DESC1* out) {
  if (!in)
    return E_INVALIDARG;
  *out = *in;
  if (in->MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE)
    return E_INVALIDARG;
  return normalizeCommon(in->Width, in->Height, in->Depth, D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION, &out->MipLevels,
                         in->Format, in->Usage, in->BindFlags, in->CPUAccessFlags, in->MiscFlags, data, 1);
}

HRESULT STDMETHODCALLTYPE Texture3D::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11Texture3D)) || IsEqualGUID(riid, __uuidof(ID3D11Resource)) ||
      IsEqualGUID(riid, __uuidof(ID3D11Texture3D1))) {
    *object = addRefed(static_cast<ID3D11Texture3D1*>(this));
    return S_OK;
  }
  if (void* face = m_dxgi.query(riid)) {
    AddRef();
    *object = face;
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE Texture3D::SetEvictionPriority(UINT priority) {
  m_evictionPriority = priority;
  m_parent->record([&](Recorder& r) { return protocol::encode_ID3D11Resource_SetEvictionPriority(r.writer(), m_id, priority); });
}

void STDMETHODCALLTYPE Texture3D::GetDesc(D3D11_TEXTURE3D_DESC* desc) {
  desc->Width = m_desc.Width;
  desc->Height = m_desc.Height;
  desc->Depth = m_desc.Depth;
  desc->MipLevels = m_desc.MipLevels;
  desc->Format = m_desc.Format;
  desc->Usage = m_desc.Usage;
  desc->BindFlags = m_desc.BindFlags;
  desc->CPUAccessFlags = m_desc.CPUAccessFlags;
  desc->MiscFlags = m_desc.MiscFlags;
}

}
