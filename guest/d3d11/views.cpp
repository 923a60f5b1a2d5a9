// SPDX-License-Identifier: MIT
#include "views.h"

#include <cstddef>
#include <cstring>

#include "resource.h"

namespace npt::guest {

namespace {

bool isTypeless(DXGI_FORMAT f) {
  switch (f) {
    case DXGI_FORMAT_R32G32B32A32_TYPELESS: case DXGI_FORMAT_R32G32B32_TYPELESS: case DXGI_FORMAT_R16G16B16A16_TYPELESS:
    case DXGI_FORMAT_R32G32_TYPELESS: case DXGI_FORMAT_R32G8X24_TYPELESS: case DXGI_FORMAT_R10G10B10A2_TYPELESS:
    case DXGI_FORMAT_R8G8B8A8_TYPELESS: case DXGI_FORMAT_R16G16_TYPELESS: case DXGI_FORMAT_R32_TYPELESS:
    case DXGI_FORMAT_R24G8_TYPELESS: case DXGI_FORMAT_R8G8_TYPELESS: case DXGI_FORMAT_R16_TYPELESS:
    case DXGI_FORMAT_R8_TYPELESS: case DXGI_FORMAT_BC1_TYPELESS: case DXGI_FORMAT_BC2_TYPELESS:
    case DXGI_FORMAT_BC3_TYPELESS: case DXGI_FORMAT_BC4_TYPELESS: case DXGI_FORMAT_BC5_TYPELESS:
    case DXGI_FORMAT_B8G8R8A8_TYPELESS: case DXGI_FORMAT_B8G8R8X8_TYPELESS: case DXGI_FORMAT_BC6H_TYPELESS:
    case DXGI_FORMAT_BC7_TYPELESS:
      return true;
    default:
      return false;
  }
}

const ResourceInfo* infoFor(ID3D11Resource* resource, UINT requiredBind) {
  ResourceState* state = resourceState(resource);
  if (!state || !(state->info().bindFlags & requiredBind))
    return nullptr;
  return &state->info();
}

// A format the view may use: the given one, or the resource's when UNKNOWN.
HRESULT viewFormat(const ResourceInfo& info, DXGI_FORMAT requested, DXGI_FORMAT* out) {
  *out = requested == DXGI_FORMAT_UNKNOWN ? info.format : requested;
  if (info.dimension != D3D11_RESOURCE_DIMENSION_BUFFER && (*out == DXGI_FORMAT_UNKNOWN || isTypeless(*out)))
    return E_INVALIDARG;
  return S_OK;
}

UINT remaining(UINT count, UINT first, UINT requested) {
  return requested == UINT(-1) ? (first < count ? count - first : 0) : requested;
}

bool rangeOk(UINT first, UINT count, UINT total) {
  return count && first < total && count <= total - first;
}

}

// ---- ShaderResourceView

HRESULT ShaderResourceView::normalize(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* in,
                                      D3D11_SHADER_RESOURCE_VIEW_DESC1* out) {
  const ResourceInfo* info = infoFor(resource, D3D11_BIND_SHADER_RESOURCE);
  if (!info)
    return E_INVALIDARG;
  D3D11_SHADER_RESOURCE_VIEW_DESC1 d = {};
  if (in) {
    d = *in;
  } else {
    d.Format = info->format;
    switch (info->dimension) {
      case D3D11_RESOURCE_DIMENSION_BUFFER:
        // Only a structured buffer has an element range without a desc: all of it.
        if (!info->structureStride)
          return E_INVALIDARG;
        d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
        d.Buffer.FirstElement = 0;
        d.Buffer.NumElements = info->width / info->structureStride;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info->arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE1DARRAY : D3D11_SRV_DIMENSION_TEXTURE1D;
        d.Texture1DArray.MipLevels = UINT(-1);
        d.Texture1DArray.ArraySize = UINT(-1);
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (info->sampleCount > 1) {
          d.ViewDimension = info->arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY : D3D11_SRV_DIMENSION_TEXTURE2DMS;
          d.Texture2DMSArray.ArraySize = UINT(-1);
        } else if (info->miscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE) {
          // Whole cubes only: 9 or 11 slices hold one cube (as Windows' default view says).
          d.ViewDimension = info->arraySize / 6 > 1 ? D3D11_SRV_DIMENSION_TEXTURECUBEARRAY : D3D11_SRV_DIMENSION_TEXTURECUBE;
          d.TextureCubeArray.MipLevels = UINT(-1);
          d.TextureCubeArray.NumCubes = info->arraySize / 6;
        } else {
          d.ViewDimension = info->arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DARRAY : D3D11_SRV_DIMENSION_TEXTURE2D;
          d.Texture2DArray.MipLevels = UINT(-1);
          d.Texture2DArray.ArraySize = UINT(-1);
        }
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D;
        d.Texture3D.MipLevels = UINT(-1);
        break;
      default:
        return E_INVALIDARG;
    }
  }
  if (FAILED(viewFormat(*info, d.Format, &d.Format)))
    return E_INVALIDARG;
  switch (d.ViewDimension) {
    case D3D11_SRV_DIMENSION_BUFFER:
    case D3D11_SRV_DIMENSION_BUFFEREX:
      if (info->dimension != D3D11_RESOURCE_DIMENSION_BUFFER)
        return E_INVALIDARG;
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1D:
    case D3D11_SRV_DIMENSION_TEXTURE2D:
    case D3D11_SRV_DIMENSION_TEXTURE3D:
    case D3D11_SRV_DIMENSION_TEXTURECUBE:
      // MostDetailedMip and MipLevels sit at the same offsets in these arms.
      d.Texture2D.MipLevels = remaining(info->mipLevels, d.Texture2D.MostDetailedMip, d.Texture2D.MipLevels);
      if (!rangeOk(d.Texture2D.MostDetailedMip, d.Texture2D.MipLevels, info->mipLevels))
        return E_INVALIDARG;
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1DARRAY:
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
      d.Texture2DArray.MipLevels = remaining(info->mipLevels, d.Texture2DArray.MostDetailedMip, d.Texture2DArray.MipLevels);
      d.Texture2DArray.ArraySize = remaining(info->arraySize, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize);
      if (!rangeOk(d.Texture2DArray.MostDetailedMip, d.Texture2DArray.MipLevels, info->mipLevels) ||
          !rangeOk(d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize, info->arraySize))
        return E_INVALIDARG;
      break;
    case D3D11_SRV_DIMENSION_TEXTURECUBEARRAY:
      d.TextureCubeArray.MipLevels = remaining(info->mipLevels, d.TextureCubeArray.MostDetailedMip, d.TextureCubeArray.MipLevels);
      if (d.TextureCubeArray.NumCubes == UINT(-1))
        d.TextureCubeArray.NumCubes = remaining(info->arraySize, d.TextureCubeArray.First2DArrayFace, UINT(-1)) / 6;
      if (!rangeOk(d.TextureCubeArray.MostDetailedMip, d.TextureCubeArray.MipLevels, info->mipLevels))
        return E_INVALIDARG;
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY:
      d.Texture2DMSArray.ArraySize = remaining(info->arraySize, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMS:
      break;
    default:
      return E_INVALIDARG;
  }
  *out = d;
  return S_OK;
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
  const ResourceInfo* info = infoFor(resource, D3D11_BIND_RENDER_TARGET);
  if (!info)
    return E_INVALIDARG;
  D3D11_RENDER_TARGET_VIEW_DESC1 d = {};
  if (in) {
    d = *in;
  } else {
    d.Format = info->format;
    switch (info->dimension) {
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info->arraySize > 1 ? D3D11_RTV_DIMENSION_TEXTURE1DARRAY : D3D11_RTV_DIMENSION_TEXTURE1D;
        d.Texture1DArray.ArraySize = info->arraySize;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (info->sampleCount > 1) {
          d.ViewDimension = info->arraySize > 1 ? D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY : D3D11_RTV_DIMENSION_TEXTURE2DMS;
          d.Texture2DMSArray.ArraySize = info->arraySize;
        } else {
          d.ViewDimension = info->arraySize > 1 ? D3D11_RTV_DIMENSION_TEXTURE2DARRAY : D3D11_RTV_DIMENSION_TEXTURE2D;
          d.Texture2DArray.ArraySize = info->arraySize;
        }
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
        d.Texture3D.WSize = info->depth;
        break;
      default:
        return E_INVALIDARG;
    }
  }
  if (FAILED(viewFormat(*info, d.Format, &d.Format)))
    return E_INVALIDARG;
  switch (d.ViewDimension) {
    case D3D11_RTV_DIMENSION_TEXTURE2D:
      if (d.Texture2D.MipSlice >= info->mipLevels || info->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D)
        return E_INVALIDARG;
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
    case D3D11_RTV_DIMENSION_TEXTURE1DARRAY:
      d.Texture2DArray.ArraySize = remaining(info->arraySize, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize);
      if (d.Texture2DArray.MipSlice >= info->mipLevels ||
          !rangeOk(d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize, info->arraySize))
        return E_INVALIDARG;
      break;
    case D3D11_RTV_DIMENSION_TEXTURE3D: {
      UINT depth = mipExtent(info->depth, d.Texture3D.MipSlice);
      d.Texture3D.WSize = remaining(depth, d.Texture3D.FirstWSlice, d.Texture3D.WSize);
      if (d.Texture3D.MipSlice >= info->mipLevels || !rangeOk(d.Texture3D.FirstWSlice, d.Texture3D.WSize, depth))
        return E_INVALIDARG;
      break;
    }
    case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
      d.Texture2DMSArray.ArraySize = remaining(info->arraySize, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize);
      break;
    case D3D11_RTV_DIMENSION_BUFFER:
    case D3D11_RTV_DIMENSION_TEXTURE1D:
    case D3D11_RTV_DIMENSION_TEXTURE2DMS:
      break;
    default:
      return E_INVALIDARG;
  }
  *out = d;
  return S_OK;
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
  const ResourceInfo* info = infoFor(resource, D3D11_BIND_DEPTH_STENCIL);
  if (!info)
    return E_INVALIDARG;
  D3D11_DEPTH_STENCIL_VIEW_DESC d = {};
  if (in) {
    d = *in;
    if (d.Flags & ~UINT(D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL))
      return E_INVALIDARG;
  } else {
    d.Format = info->format;
    switch (info->dimension) {
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info->arraySize > 1 ? D3D11_DSV_DIMENSION_TEXTURE1DARRAY : D3D11_DSV_DIMENSION_TEXTURE1D;
        d.Texture1DArray.ArraySize = info->arraySize;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (info->sampleCount > 1) {
          d.ViewDimension = info->arraySize > 1 ? D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY : D3D11_DSV_DIMENSION_TEXTURE2DMS;
          d.Texture2DMSArray.ArraySize = info->arraySize;
        } else {
          d.ViewDimension = info->arraySize > 1 ? D3D11_DSV_DIMENSION_TEXTURE2DARRAY : D3D11_DSV_DIMENSION_TEXTURE2D;
          d.Texture2DArray.ArraySize = info->arraySize;
        }
        break;
      default:
        return E_INVALIDARG;
    }
  }
  if (FAILED(viewFormat(*info, d.Format, &d.Format)))
    return E_INVALIDARG;
  switch (d.ViewDimension) {
    case D3D11_DSV_DIMENSION_TEXTURE1D:
    case D3D11_DSV_DIMENSION_TEXTURE2D:
      if (d.Texture2D.MipSlice >= info->mipLevels)
        return E_INVALIDARG;
      break;
    case D3D11_DSV_DIMENSION_TEXTURE1DARRAY:
    case D3D11_DSV_DIMENSION_TEXTURE2DARRAY:
      d.Texture2DArray.ArraySize = remaining(info->arraySize, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize);
      if (d.Texture2DArray.MipSlice >= info->mipLevels ||
          !rangeOk(d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize, info->arraySize))
        return E_INVALIDARG;
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY:
      d.Texture2DMSArray.ArraySize = remaining(info->arraySize, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize);
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2DMS:
      break;
    default:
      return E_INVALIDARG;
  }
  *out = d;
  return S_OK;
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
  const ResourceInfo* info = infoFor(resource, D3D11_BIND_UNORDERED_ACCESS);
  if (!info)
    return E_INVALIDARG;
  D3D11_UNORDERED_ACCESS_VIEW_DESC1 d = {};
  if (in) {
    d = *in;
  } else {
    d.Format = info->format;
    switch (info->dimension) {
      case D3D11_RESOURCE_DIMENSION_BUFFER:
        if (!info->structureStride)
          return E_INVALIDARG;
        d.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
        d.Buffer.FirstElement = 0;
        d.Buffer.NumElements = info->width / info->structureStride;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info->arraySize > 1 ? D3D11_UAV_DIMENSION_TEXTURE1DARRAY : D3D11_UAV_DIMENSION_TEXTURE1D;
        d.Texture1DArray.ArraySize = info->arraySize;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        d.ViewDimension = info->arraySize > 1 ? D3D11_UAV_DIMENSION_TEXTURE2DARRAY : D3D11_UAV_DIMENSION_TEXTURE2D;
        d.Texture2DArray.ArraySize = info->arraySize;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
        d.Texture3D.WSize = info->depth;
        break;
      default:
        return E_INVALIDARG;
    }
  }
  if (FAILED(viewFormat(*info, d.Format, &d.Format)))
    return E_INVALIDARG;
  switch (d.ViewDimension) {
    case D3D11_UAV_DIMENSION_BUFFER:
      if (info->dimension != D3D11_RESOURCE_DIMENSION_BUFFER || !d.Buffer.NumElements)
        return E_INVALIDARG;
      break;
    case D3D11_UAV_DIMENSION_TEXTURE1D:
    case D3D11_UAV_DIMENSION_TEXTURE2D:
      if (d.Texture2D.MipSlice >= info->mipLevels)
        return E_INVALIDARG;
      break;
    case D3D11_UAV_DIMENSION_TEXTURE1DARRAY:
    case D3D11_UAV_DIMENSION_TEXTURE2DARRAY:
      d.Texture2DArray.ArraySize = remaining(info->arraySize, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize);
      if (d.Texture2DArray.MipSlice >= info->mipLevels ||
          !rangeOk(d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize, info->arraySize))
        return E_INVALIDARG;
      break;
    case D3D11_UAV_DIMENSION_TEXTURE3D: {
      UINT depth = mipExtent(info->depth, d.Texture3D.MipSlice);
      d.Texture3D.WSize = remaining(depth, d.Texture3D.FirstWSlice, d.Texture3D.WSize);
      if (d.Texture3D.MipSlice >= info->mipLevels || !rangeOk(d.Texture3D.FirstWSlice, d.Texture3D.WSize, depth))
        return E_INVALIDARG;
      break;
    }
    default:
      return E_INVALIDARG;
  }
  *out = d;
  return S_OK;
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
