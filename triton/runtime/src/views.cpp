// Views: the API description (or the default one the runtime derives from the
// resource) onto the DDI's create arguments, which name the resource's dimension.

#include "objects.h"

namespace triton::runtime {
namespace {

using Lock = std::lock_guard<std::recursive_mutex>;

// Creates a driver view object through its CalcPrivate*Size/Create* pair.
template <class View, class Args, class Calc, class Create, class RtHandle, class Interface>
HRESULT createView(Device* device, ID3D11Resource* resource, const typename View::DescType& desc, const Args& args,
                   Calc calc, Create create, RtHandle, Interface** out) {
  auto view = std::make_unique<View>(device, resource, desc);
  Lock lock(device->lock());
  const SIZE_T size = calc(device->handle(), &args);
  if (!size)
    return E_INVALIDARG;
  view->memory = allocatePrivate(size);
  view->handle.pDrvPrivate = view->memory.get();
  create(device->handle(), &args, view->handle, RtHandle{view.get()});
  const HRESULT hr = device->takeError();
  if (FAILED(hr)) {
    view->handle.pDrvPrivate = nullptr;
    return hr;
  }
  *out = view.release();
  return S_OK;
}

UINT remaining(UINT count, UINT first, UINT total) { return count == UINT(-1) ? total - first : count; }

}  // namespace

HRESULT Device::CreateShaderResourceView(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* pDesc,
                                         ID3D11ShaderResourceView** out) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  const ResourceInfo& info = *r.info;
  D3D11_SHADER_RESOURCE_VIEW_DESC d{};
  if (pDesc) {
    d = *pDesc;
  } else {
    d.Format = info.format;
    switch (info.type) {
      case D3D11_RESOURCE_DIMENSION_BUFFER:
        return E_INVALIDARG;   // a buffer view needs a description
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info.arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE1DARRAY : D3D11_SRV_DIMENSION_TEXTURE1D;
        d.Texture1DArray = {0, info.mipLevels, 0, info.arraySize};
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (info.ddiDimension == ddi::D3D10DDIRESOURCE_TEXTURECUBE) {
          d.ViewDimension = info.arraySize > 6 ? D3D11_SRV_DIMENSION_TEXTURECUBEARRAY : D3D11_SRV_DIMENSION_TEXTURECUBE;
          d.TextureCubeArray = {0, info.mipLevels, 0, info.arraySize / 6};
        } else if (info.sampleCount > 1) {
          d.ViewDimension = info.arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY : D3D11_SRV_DIMENSION_TEXTURE2DMS;
          d.Texture2DMSArray = {0, info.arraySize};
        } else {
          d.ViewDimension = info.arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DARRAY : D3D11_SRV_DIMENSION_TEXTURE2D;
          d.Texture2DArray = {0, info.mipLevels, 0, info.arraySize};
        }
        break;
      default:
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D;
        d.Texture3D = {0, info.mipLevels};
        break;
    }
  }
  if (d.Format == DXGI_FORMAT_UNKNOWN && info.type != D3D11_RESOURCE_DIMENSION_BUFFER)
    d.Format = info.format;
  ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW a{};
  a.hDrvResource = r.handle;
  a.Format = d.Format;
  a.ResourceDimension = info.ddiDimension;
  switch (d.ViewDimension) {
    case D3D11_SRV_DIMENSION_BUFFER:
      if (info.ddiDimension == ddi::D3D11DDIRESOURCE_BUFFEREX)
        a.BufferEx = {{d.Buffer.FirstElement}, {d.Buffer.NumElements}, 0};
      else
        a.Buffer = {{d.Buffer.FirstElement}, {d.Buffer.NumElements}};
      break;
    case D3D11_SRV_DIMENSION_BUFFEREX:
      a.ResourceDimension = ddi::D3D11DDIRESOURCE_BUFFEREX;
      a.BufferEx = {{d.BufferEx.FirstElement}, {d.BufferEx.NumElements},
                    d.BufferEx.Flags & D3D11_BUFFEREX_SRV_FLAG_RAW ? ddi::D3D11_DDI_BUFFEREX_SRV_FLAG_RAW : 0u};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1D:
      a.Tex1D = {d.Texture1D.MostDetailedMip, 0, remaining(d.Texture1D.MipLevels, d.Texture1D.MostDetailedMip, info.mipLevels), 1};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1DARRAY:
      a.Tex1D = {d.Texture1DArray.MostDetailedMip, d.Texture1DArray.FirstArraySlice,
                 remaining(d.Texture1DArray.MipLevels, d.Texture1DArray.MostDetailedMip, info.mipLevels),
                 d.Texture1DArray.ArraySize};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2D:
      a.Tex2D = {d.Texture2D.MostDetailedMip, 0, remaining(d.Texture2D.MipLevels, d.Texture2D.MostDetailedMip, info.mipLevels), 1};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
      a.Tex2D = {d.Texture2DArray.MostDetailedMip, d.Texture2DArray.FirstArraySlice,
                 remaining(d.Texture2DArray.MipLevels, d.Texture2DArray.MostDetailedMip, info.mipLevels),
                 d.Texture2DArray.ArraySize};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMS:
      a.Tex2D = {0, 0, 1, 1};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY:
      a.Tex2D = {0, d.Texture2DMSArray.FirstArraySlice, 1, d.Texture2DMSArray.ArraySize};
      break;
    case D3D11_SRV_DIMENSION_TEXTURE3D:
      a.Tex3D = {d.Texture3D.MostDetailedMip, remaining(d.Texture3D.MipLevels, d.Texture3D.MostDetailedMip, info.mipLevels)};
      break;
    case D3D11_SRV_DIMENSION_TEXTURECUBE:
      a.TexCube = {d.TextureCube.MostDetailedMip,
                   remaining(d.TextureCube.MipLevels, d.TextureCube.MostDetailedMip, info.mipLevels), 0, 1};
      break;
    case D3D11_SRV_DIMENSION_TEXTURECUBEARRAY:
      a.TexCube = {d.TextureCubeArray.MostDetailedMip,
                   remaining(d.TextureCubeArray.MipLevels, d.TextureCubeArray.MostDetailedMip, info.mipLevels),
                   d.TextureCubeArray.First2DArrayFace, d.TextureCubeArray.NumCubes};
      break;
    default:
      return E_INVALIDARG;
  }
  ShaderResourceView* view = nullptr;
  const HRESULT hr = createView<ShaderResourceView>(this, resource, d, a, ddi().pfnCalcPrivateShaderResourceViewSize,
                                                    ddi().pfnCreateShaderResourceView,
                                                    ddi::D3D10DDI_HRTSHADERRESOURCEVIEW{}, &view);
  *out = view;
  return hr;
}

HRESULT Device::CreateRenderTargetView(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC* pDesc,
                                       ID3D11RenderTargetView** out) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  const ResourceInfo& info = *r.info;
  D3D11_RENDER_TARGET_VIEW_DESC d{};
  if (pDesc) {
    d = *pDesc;
  } else {
    d.Format = info.format;
    switch (info.type) {
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info.arraySize > 1 ? D3D11_RTV_DIMENSION_TEXTURE1DARRAY : D3D11_RTV_DIMENSION_TEXTURE1D;
        d.Texture1DArray = {0, 0, info.arraySize};
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (info.sampleCount > 1) {
          d.ViewDimension = info.arraySize > 1 ? D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY : D3D11_RTV_DIMENSION_TEXTURE2DMS;
          d.Texture2DMSArray = {0, info.arraySize};
        } else {
          d.ViewDimension = info.arraySize > 1 ? D3D11_RTV_DIMENSION_TEXTURE2DARRAY : D3D11_RTV_DIMENSION_TEXTURE2D;
          d.Texture2DArray = {0, 0, info.arraySize};
        }
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
        d.Texture3D = {0, 0, info.depth};
        break;
      default:
        return E_INVALIDARG;
    }
  }
  if (d.Format == DXGI_FORMAT_UNKNOWN)
    d.Format = info.format;
  ddi::D3D10DDIARG_CREATERENDERTARGETVIEW a{};
  a.hDrvResource = r.handle;
  a.Format = d.Format;
  a.ResourceDimension = info.ddiDimension;
  switch (d.ViewDimension) {
    case D3D11_RTV_DIMENSION_BUFFER: a.Buffer = {{d.Buffer.FirstElement}, {d.Buffer.NumElements}}; break;
    case D3D11_RTV_DIMENSION_TEXTURE1D: a.Tex1D = {d.Texture1D.MipSlice, 0, 1}; break;
    case D3D11_RTV_DIMENSION_TEXTURE1DARRAY:
      a.Tex1D = {d.Texture1DArray.MipSlice, d.Texture1DArray.FirstArraySlice, d.Texture1DArray.ArraySize};
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2D: a.Tex2D = {d.Texture2D.MipSlice, 0, 1}; break;
    case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
      a.Tex2D = {d.Texture2DArray.MipSlice, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize};
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2DMS: a.Tex2D = {0, 0, 1}; break;
    case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
      a.Tex2D = {0, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize};
      break;
    case D3D11_RTV_DIMENSION_TEXTURE3D:
      a.Tex3D = {d.Texture3D.MipSlice, d.Texture3D.FirstWSlice, d.Texture3D.WSize};
      break;
    default:
      return E_INVALIDARG;
  }
  if (info.ddiDimension == ddi::D3D10DDIRESOURCE_TEXTURECUBE)
    a.TexCube = {a.Tex2D.MipSlice, a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
  RenderTargetView* view = nullptr;
  const HRESULT hr = createView<RenderTargetView>(this, resource, d, a, ddi().pfnCalcPrivateRenderTargetViewSize,
                                                  ddi().pfnCreateRenderTargetView,
                                                  ddi::D3D10DDI_HRTRENDERTARGETVIEW{}, &view);
  *out = view;
  return hr;
}

HRESULT Device::CreateDepthStencilView(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* pDesc,
                                       ID3D11DepthStencilView** out) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info || r.info->type == D3D11_RESOURCE_DIMENSION_BUFFER || r.info->type == D3D11_RESOURCE_DIMENSION_TEXTURE3D)
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  const ResourceInfo& info = *r.info;
  D3D11_DEPTH_STENCIL_VIEW_DESC d{};
  if (pDesc) {
    d = *pDesc;
  } else {
    d.Format = info.format;
    if (info.type == D3D11_RESOURCE_DIMENSION_TEXTURE1D) {
      d.ViewDimension = info.arraySize > 1 ? D3D11_DSV_DIMENSION_TEXTURE1DARRAY : D3D11_DSV_DIMENSION_TEXTURE1D;
      d.Texture1DArray = {0, 0, info.arraySize};
    } else if (info.sampleCount > 1) {
      d.ViewDimension = info.arraySize > 1 ? D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY : D3D11_DSV_DIMENSION_TEXTURE2DMS;
      d.Texture2DMSArray = {0, info.arraySize};
    } else {
      d.ViewDimension = info.arraySize > 1 ? D3D11_DSV_DIMENSION_TEXTURE2DARRAY : D3D11_DSV_DIMENSION_TEXTURE2D;
      d.Texture2DArray = {0, 0, info.arraySize};
    }
  }
  if (d.Format == DXGI_FORMAT_UNKNOWN)
    d.Format = info.format;
  ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW a{};
  a.hDrvResource = r.handle;
  a.Format = d.Format;
  a.ResourceDimension = info.ddiDimension;
  a.Flags = d.Flags & (D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL);   // value-equal
  switch (d.ViewDimension) {
    case D3D11_DSV_DIMENSION_TEXTURE1D: a.Tex1D = {d.Texture1D.MipSlice, 0, 1}; break;
    case D3D11_DSV_DIMENSION_TEXTURE1DARRAY:
      a.Tex1D = {d.Texture1DArray.MipSlice, d.Texture1DArray.FirstArraySlice, d.Texture1DArray.ArraySize};
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2D: a.Tex2D = {d.Texture2D.MipSlice, 0, 1}; break;
    case D3D11_DSV_DIMENSION_TEXTURE2DARRAY:
      a.Tex2D = {d.Texture2DArray.MipSlice, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize};
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2DMS: a.Tex2D = {0, 0, 1}; break;
    case D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY:
      a.Tex2D = {0, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize};
      break;
    default:
      return E_INVALIDARG;
  }
  DepthStencilView* view = nullptr;
  const HRESULT hr = createView<DepthStencilView>(this, resource, d, a, ddi().pfnCalcPrivateDepthStencilViewSize,
                                                  ddi().pfnCreateDepthStencilView,
                                                  ddi::D3D10DDI_HRTDEPTHSTENCILVIEW{}, &view);
  *out = view;
  return hr;
}

HRESULT Device::CreateUnorderedAccessView(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* pDesc,
                                          ID3D11UnorderedAccessView** out) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  const ResourceInfo& info = *r.info;
  D3D11_UNORDERED_ACCESS_VIEW_DESC d{};
  if (pDesc) {
    d = *pDesc;
  } else {
    d.Format = info.format;
    switch (info.type) {
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = info.arraySize > 1 ? D3D11_UAV_DIMENSION_TEXTURE1DARRAY : D3D11_UAV_DIMENSION_TEXTURE1D;
        d.Texture1DArray = {0, 0, info.arraySize};
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        d.ViewDimension = info.arraySize > 1 ? D3D11_UAV_DIMENSION_TEXTURE2DARRAY : D3D11_UAV_DIMENSION_TEXTURE2D;
        d.Texture2DArray = {0, 0, info.arraySize};
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
        d.Texture3D = {0, 0, info.depth};
        break;
      default:
        return E_INVALIDARG;
    }
  }
  if (d.Format == DXGI_FORMAT_UNKNOWN && info.type != D3D11_RESOURCE_DIMENSION_BUFFER)
    d.Format = info.format;
  ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW a{};
  a.hDrvResource = r.handle;
  a.Format = d.Format;
  a.ResourceDimension = info.ddiDimension;
  switch (d.ViewDimension) {
    case D3D11_UAV_DIMENSION_BUFFER: {
      UINT flags = 0;   // D3D11_DDI_BUFFER_UAV_FLAG_* equal the API's
      if (d.Buffer.Flags & D3D11_BUFFER_UAV_FLAG_RAW) flags |= ddi::D3D11_DDI_BUFFER_UAV_FLAG_RAW;
      if (d.Buffer.Flags & D3D11_BUFFER_UAV_FLAG_APPEND) flags |= ddi::D3D11_DDI_BUFFER_UAV_FLAG_APPEND;
      if (d.Buffer.Flags & D3D11_BUFFER_UAV_FLAG_COUNTER) flags |= ddi::D3D11_DDI_BUFFER_UAV_FLAG_COUNTER;
      a.Buffer = {d.Buffer.FirstElement, d.Buffer.NumElements, flags};
      break;
    }
    case D3D11_UAV_DIMENSION_TEXTURE1D: a.Tex1D = {d.Texture1D.MipSlice, 0, 1}; break;
    case D3D11_UAV_DIMENSION_TEXTURE1DARRAY:
      a.Tex1D = {d.Texture1DArray.MipSlice, d.Texture1DArray.FirstArraySlice, d.Texture1DArray.ArraySize};
      break;
    case D3D11_UAV_DIMENSION_TEXTURE2D: a.Tex2D = {d.Texture2D.MipSlice, 0, 1}; break;
    case D3D11_UAV_DIMENSION_TEXTURE2DARRAY:
      a.Tex2D = {d.Texture2DArray.MipSlice, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize};
      break;
    case D3D11_UAV_DIMENSION_TEXTURE3D:
      a.Tex3D = {d.Texture3D.MipSlice, d.Texture3D.FirstWSlice, d.Texture3D.WSize};
      break;
    default:
      return E_INVALIDARG;
  }
  UnorderedAccessView* view = nullptr;
  const HRESULT hr = createView<UnorderedAccessView>(this, resource, d, a,
                                                     ddi().pfnCalcPrivateUnorderedAccessViewSize,
                                                     ddi().pfnCreateUnorderedAccessView,
                                                     ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW{}, &view);
  *out = view;
  return hr;
}

}  // namespace triton::runtime
