// SPDX-License-Identifier: MIT
#include "views.h"

#include "npt/validation/view_desc.h"
#include "resource.h"

namespace npt::guest {

namespace {

// The shape of one of this runtime's resources created with requiredBind.
bool shapeFor(ID3D11Resource* resource, UINT requiredBind, validation::ResourceShape* shape) {
  ResourceState* state = resourceState(resource);
  if (!state || !(state->info().bindFlags & requiredBind))
    return false;
  const ResourceInfo& info = state->info();
  shape->dimension = info.dimension;
  shape->format = info.format;
  shape->width = info.width;
  shape->height = info.height;
  shape->depth = info.depth;
  shape->mipLevels = info.mipLevels;
  shape->arraySize = info.arraySize;
  shape->sampleCount = info.sampleCount;
  shape->usage = info.usage;
  shape->bindFlags = info.bindFlags;
  shape->cpuAccessFlags = info.cpuAccessFlags;
  shape->miscFlags = info.miscFlags;
  shape->structureByteStride = info.structureStride;
  return true;
}

}  // namespace

// ---- ShaderResourceView

HRESULT ShaderResourceView::normalize(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* in,
                                      D3D11_SHADER_RESOURCE_VIEW_DESC1* out) {
  validation::ResourceShape shape;
  return shapeFor(resource, D3D11_BIND_SHADER_RESOURCE, &shape) &&
                 validation::completeShaderResourceViewDesc(shape, in, out)
             ? S_OK
             : E_INVALIDARG;
}

ShaderResourceView::ShaderResourceView(Device* device, protocol::ObjectId id, ID3D11Resource* resource,
                                       const D3D11_SHADER_RESOURCE_VIEW_DESC1& desc)
: D3D11Child(device, id), m_resource(resource), m_desc(desc) {}

HRESULT STDMETHODCALLTYPE ShaderResourceView::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11ShaderResourceView)) || IsEqualGUID(riid, __uuidof(ID3D11ShaderResourceView1)) ||
      IsEqualGUID(riid, __uuidof(ID3D11View))) {
    *object = addRefed(static_cast<ID3D11ShaderResourceView1*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE ShaderResourceView::GetDesc(D3D11_SHADER_RESOURCE_VIEW_DESC* desc) {
  *desc = convertViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>(m_desc);
}

// ---- RenderTargetView

HRESULT RenderTargetView::normalize(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC1* in,
                                    D3D11_RENDER_TARGET_VIEW_DESC1* out) {
  validation::ResourceShape shape;
  return shapeFor(resource, D3D11_BIND_RENDER_TARGET, &shape) && validation::completeRenderTargetViewDesc(shape, in, out)
             ? S_OK
             : E_INVALIDARG;
}

RenderTargetView::RenderTargetView(Device* device, protocol::ObjectId id, ID3D11Resource* resource,
                                   const D3D11_RENDER_TARGET_VIEW_DESC1& desc)
: D3D11Child(device, id), m_resource(resource), m_desc(desc) {}

HRESULT STDMETHODCALLTYPE RenderTargetView::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11RenderTargetView)) || IsEqualGUID(riid, __uuidof(ID3D11RenderTargetView1)) ||
      IsEqualGUID(riid, __uuidof(ID3D11View))) {
    *object = addRefed(static_cast<ID3D11RenderTargetView1*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE RenderTargetView::GetDesc(D3D11_RENDER_TARGET_VIEW_DESC* desc) {
  *desc = convertViewDesc<D3D11_RENDER_TARGET_VIEW_DESC>(m_desc);
}

// ---- DepthStencilView

HRESULT DepthStencilView::normalize(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* in,
                                    D3D11_DEPTH_STENCIL_VIEW_DESC* out) {
  validation::ResourceShape shape;
  return shapeFor(resource, D3D11_BIND_DEPTH_STENCIL, &shape) && validation::completeDepthStencilViewDesc(shape, in, out)
             ? S_OK
             : E_INVALIDARG;
}

DepthStencilView::DepthStencilView(Device* device, protocol::ObjectId id, ID3D11Resource* resource,
                                   const D3D11_DEPTH_STENCIL_VIEW_DESC& desc)
: D3D11Child(device, id), m_resource(resource), m_desc(desc) {}

HRESULT STDMETHODCALLTYPE DepthStencilView::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11DepthStencilView)) || IsEqualGUID(riid, __uuidof(ID3D11View))) {
    *object = addRefed(static_cast<ID3D11DepthStencilView*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

// ---- UnorderedAccessView

HRESULT UnorderedAccessView::normalize(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* in,
                                       D3D11_UNORDERED_ACCESS_VIEW_DESC1* out) {
  validation::ResourceShape shape;
  return shapeFor(resource, D3D11_BIND_UNORDERED_ACCESS, &shape) &&
                 validation::completeUnorderedAccessViewDesc(shape, in, out)
             ? S_OK
             : E_INVALIDARG;
}

UnorderedAccessView::UnorderedAccessView(Device* device, protocol::ObjectId id, ID3D11Resource* resource,
                                         const D3D11_UNORDERED_ACCESS_VIEW_DESC1& desc)
: D3D11Child(device, id), m_resource(resource), m_desc(desc) {}

HRESULT STDMETHODCALLTYPE UnorderedAccessView::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11UnorderedAccessView)) || IsEqualGUID(riid, __uuidof(ID3D11UnorderedAccessView1)) ||
      IsEqualGUID(riid, __uuidof(ID3D11View))) {
    *object = addRefed(static_cast<ID3D11UnorderedAccessView1*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE UnorderedAccessView::GetDesc(D3D11_UNORDERED_ACCESS_VIEW_DESC* desc) {
  *desc = convertViewDesc<D3D11_UNORDERED_ACCESS_VIEW_DESC>(m_desc);
}

}
