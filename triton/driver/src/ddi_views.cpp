// Views. The DDI names the resource's dimension and the view's range; whether the API
// view is an array or multisampled one follows from the resource (an array resource
// gets an array view, so shaders that declare arrays see arrays).

#include "device.h"
#include "entries.h"

namespace triton::driver {
namespace {

bool isArray(const Resource& r) { return r.arraySize > 1; }
bool isMultisampled(const Resource& r) { return r.sampleCount > 1; }

bool srvDesc(const ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW& a, const Resource& r, D3D11_SHADER_RESOURCE_VIEW_DESC& d) {
  d = {};
  d.Format = a.Format;
  switch (a.ResourceDimension) {
    case ddi::D3D10DDIRESOURCE_BUFFER:
      d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
      d.Buffer.FirstElement = a.Buffer.FirstElement;
      d.Buffer.NumElements = a.Buffer.NumElements;
      return true;
    case ddi::D3D11DDIRESOURCE_BUFFEREX:
      d.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
      d.BufferEx.FirstElement = a.BufferEx.FirstElement;
      d.BufferEx.NumElements = a.BufferEx.NumElements;
      d.BufferEx.Flags = a.BufferEx.Flags & ddi::D3D11_DDI_BUFFEREX_SRV_FLAG_RAW ? D3D11_BUFFEREX_SRV_FLAG_RAW : 0;
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE1D:
      if (isArray(r)) {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE1DARRAY;
        d.Texture1DArray = {a.Tex1D.MostDetailedMip, a.Tex1D.MipLevels, a.Tex1D.FirstArraySlice, a.Tex1D.ArraySize};
      } else {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE1D;
        d.Texture1D = {a.Tex1D.MostDetailedMip, a.Tex1D.MipLevels};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE2D:
      if (isMultisampled(r) && isArray(r)) {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY;
        d.Texture2DMSArray = {a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else if (isMultisampled(r)) {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMS;
      } else if (isArray(r)) {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
        d.Texture2DArray = {a.Tex2D.MostDetailedMip, a.Tex2D.MipLevels, a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
        d.Texture2D = {a.Tex2D.MostDetailedMip, a.Tex2D.MipLevels};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE3D:
      d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D;
      d.Texture3D = {a.Tex3D.MostDetailedMip, a.Tex3D.MipLevels};
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURECUBE:
      if (r.arraySize > 6) {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBEARRAY;
        d.TextureCubeArray = {a.TexCube.MostDetailedMip, a.TexCube.MipLevels, a.TexCube.First2DArrayFace,
                              a.TexCube.NumCubes};
      } else {
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBE;
        d.TextureCube = {a.TexCube.MostDetailedMip, a.TexCube.MipLevels};
      }
      return true;
    default:
      return false;
  }
}

bool rtvDesc(const ddi::D3D10DDIARG_CREATERENDERTARGETVIEW& a, const Resource& r, D3D11_RENDER_TARGET_VIEW_DESC& d) {
  d = {};
  d.Format = a.Format;
  switch (a.ResourceDimension) {
    case ddi::D3D10DDIRESOURCE_BUFFER:
      d.ViewDimension = D3D11_RTV_DIMENSION_BUFFER;
      d.Buffer.FirstElement = a.Buffer.FirstElement;
      d.Buffer.NumElements = a.Buffer.NumElements;
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE1D:
      if (isArray(r)) {
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1DARRAY;
        d.Texture1DArray = {a.Tex1D.MipSlice, a.Tex1D.FirstArraySlice, a.Tex1D.ArraySize};
      } else {
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1D;
        d.Texture1D = {a.Tex1D.MipSlice};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE2D:
      if (isMultisampled(r) && isArray(r)) {
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY;
        d.Texture2DMSArray = {a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else if (isMultisampled(r)) {
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DMS;
      } else if (isArray(r)) {
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
        d.Texture2DArray = {a.Tex2D.MipSlice, a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else {
        d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
        d.Texture2D = {a.Tex2D.MipSlice};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE3D:
      d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
      d.Texture3D = {a.Tex3D.MipSlice, a.Tex3D.FirstW, a.Tex3D.WSize};
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURECUBE:   // faces are array slices to the API
      d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
      d.Texture2DArray = {a.TexCube.MipSlice, a.TexCube.FirstArraySlice, a.TexCube.ArraySize};
      return true;
    default:
      return false;
  }
}

bool dsvDesc(const ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW& a, const Resource& r, D3D11_DEPTH_STENCIL_VIEW_DESC& d) {
  d = {};
  d.Format = a.Format;
  d.Flags = a.Flags & (D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL);   // value-equal
  switch (a.ResourceDimension) {
    case ddi::D3D10DDIRESOURCE_TEXTURE1D:
      if (isArray(r)) {
        d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE1DARRAY;
        d.Texture1DArray = {a.Tex1D.MipSlice, a.Tex1D.FirstArraySlice, a.Tex1D.ArraySize};
      } else {
        d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE1D;
        d.Texture1D = {a.Tex1D.MipSlice};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE2D:
      if (isMultisampled(r) && isArray(r)) {
        d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY;
        d.Texture2DMSArray = {a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else if (isMultisampled(r)) {
        d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DMS;
      } else if (isArray(r)) {
        d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DARRAY;
        d.Texture2DArray = {a.Tex2D.MipSlice, a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else {
        d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2D;
        d.Texture2D = {a.Tex2D.MipSlice};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURECUBE:
      d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DARRAY;
      d.Texture2DArray = {a.TexCube.MipSlice, a.TexCube.FirstArraySlice, a.TexCube.ArraySize};
      return true;
    default:
      return false;
  }
}

bool uavDesc(const ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW& a, const Resource& r, D3D11_UNORDERED_ACCESS_VIEW_DESC& d) {
  d = {};
  d.Format = a.Format;
  switch (a.ResourceDimension) {
    case ddi::D3D10DDIRESOURCE_BUFFER:
    case ddi::D3D11DDIRESOURCE_BUFFEREX:
      d.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
      // D3D11_DDI_BUFFER_UAV_FLAG_* equal D3D11_BUFFER_UAV_FLAG_* (RAW 1, APPEND 2, COUNTER 4).
      d.Buffer = {a.Buffer.FirstElement, a.Buffer.NumElements,
                  a.Buffer.Flags & (D3D11_BUFFER_UAV_FLAG_RAW | D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER)};
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE1D:
      if (isArray(r)) {
        d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE1DARRAY;
        d.Texture1DArray = {a.Tex1D.MipSlice, a.Tex1D.FirstArraySlice, a.Tex1D.ArraySize};
      } else {
        d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE1D;
        d.Texture1D = {a.Tex1D.MipSlice};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE2D:
    case ddi::D3D10DDIRESOURCE_TEXTURECUBE:
      if (isArray(r)) {
        d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2DARRAY;
        d.Texture2DArray = {a.Tex2D.MipSlice, a.Tex2D.FirstArraySlice, a.Tex2D.ArraySize};
      } else {
        d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
        d.Texture2D = {a.Tex2D.MipSlice};
      }
      return true;
    case ddi::D3D10DDIRESOURCE_TEXTURE3D:
      d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
      d.Texture3D = {a.Tex3D.MipSlice, a.Tex3D.FirstW, a.Tex3D.WSize};
      return true;
    default:
      return false;
  }
}

// Shared shape of the four view creations.
template <class ViewObject, class Args, class Desc, class Api, class DescFn, class CreateFn>
void createView(ddi::D3D10DDI_HDEVICE hDevice, const Args* a, void* memory, const char* entryName, DescFn makeDesc,
                CreateFn create) {
  Device* d = deviceOf(hDevice);
  Resource* r = a ? resourceOf(a->hDrvResource) : nullptr;
  Desc desc;
  if (!r || !memory || !makeDesc(*a, *r, desc)) {
    d->setError(E_INVALIDARG);
    return;
  }
  ComPtr<Api> view;
  const HRESULT hr = create(d->device(), r->resource.Get(), &desc, &view);
  if (FAILED(hr)) {
    d->targetFailed(entryName, hr);
    return;
  }
  (new (memory) ViewObject)->view = std::move(view);
}

}  // namespace

namespace entry {

SIZE_T TRITON_APIENTRY calcPrivateShaderResourceViewSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW*) {
  return sizeof(ShaderResourceView);
}
void TRITON_APIENTRY createShaderResourceView(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW* a,
                                              ddi::D3D10DDI_HSHADERRESOURCEVIEW hView, ddi::D3D10DDI_HRTSHADERRESOURCEVIEW) {
  createView<ShaderResourceView, ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW, D3D11_SHADER_RESOURCE_VIEW_DESC,
             ID3D11ShaderResourceView>(
      hDevice, a, hView.pDrvPrivate, "CreateShaderResourceView", srvDesc,
      [](ID3D11Device* dev, ID3D11Resource* res, const D3D11_SHADER_RESOURCE_VIEW_DESC* desc, ID3D11ShaderResourceView** out) {
        return dev->CreateShaderResourceView(res, desc, out);
      });
}
void TRITON_APIENTRY destroyShaderResourceView(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HSHADERRESOURCEVIEW h) {
  destroyObject<ShaderResourceView>(h.pDrvPrivate);
}

SIZE_T TRITON_APIENTRY calcPrivateRenderTargetViewSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10DDIARG_CREATERENDERTARGETVIEW*) {
  return sizeof(RenderTargetView);
}
void TRITON_APIENTRY createRenderTargetView(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10DDIARG_CREATERENDERTARGETVIEW* a,
                                            ddi::D3D10DDI_HRENDERTARGETVIEW hView, ddi::D3D10DDI_HRTRENDERTARGETVIEW) {
  createView<RenderTargetView, ddi::D3D10DDIARG_CREATERENDERTARGETVIEW, D3D11_RENDER_TARGET_VIEW_DESC,
             ID3D11RenderTargetView>(
      hDevice, a, hView.pDrvPrivate, "CreateRenderTargetView", rtvDesc,
      [](ID3D11Device* dev, ID3D11Resource* res, const D3D11_RENDER_TARGET_VIEW_DESC* desc, ID3D11RenderTargetView** out) {
        return dev->CreateRenderTargetView(res, desc, out);
      });
}
void TRITON_APIENTRY destroyRenderTargetView(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HRENDERTARGETVIEW h) {
  destroyObject<RenderTargetView>(h.pDrvPrivate);
}

SIZE_T TRITON_APIENTRY calcPrivateDepthStencilViewSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW*) {
  return sizeof(DepthStencilView);
}
void TRITON_APIENTRY createDepthStencilView(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW* a,
                                            ddi::D3D10DDI_HDEPTHSTENCILVIEW hView, ddi::D3D10DDI_HRTDEPTHSTENCILVIEW) {
  createView<DepthStencilView, ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW, D3D11_DEPTH_STENCIL_VIEW_DESC,
             ID3D11DepthStencilView>(
      hDevice, a, hView.pDrvPrivate, "CreateDepthStencilView", dsvDesc,
      [](ID3D11Device* dev, ID3D11Resource* res, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc, ID3D11DepthStencilView** out) {
        return dev->CreateDepthStencilView(res, desc, out);
      });
}
void TRITON_APIENTRY destroyDepthStencilView(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HDEPTHSTENCILVIEW h) {
  destroyObject<DepthStencilView>(h.pDrvPrivate);
}

SIZE_T TRITON_APIENTRY calcPrivateUnorderedAccessViewSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW*) {
  return sizeof(UnorderedAccessView);
}
void TRITON_APIENTRY createUnorderedAccessView(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW* a,
                                               ddi::D3D11DDI_HUNORDEREDACCESSVIEW hView, ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW) {
  createView<UnorderedAccessView, ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW, D3D11_UNORDERED_ACCESS_VIEW_DESC,
             ID3D11UnorderedAccessView>(
      hDevice, a, hView.pDrvPrivate, "CreateUnorderedAccessView", uavDesc,
      [](ID3D11Device* dev, ID3D11Resource* res, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc, ID3D11UnorderedAccessView** out) {
        return dev->CreateUnorderedAccessView(res, desc, out);
      });
}
void TRITON_APIENTRY destroyUnorderedAccessView(ddi::D3D10DDI_HDEVICE, ddi::D3D11DDI_HUNORDEREDACCESSVIEW h) {
  destroyObject<UnorderedAccessView>(h.pDrvPrivate);
}

}  // namespace entry
}  // namespace triton::driver
