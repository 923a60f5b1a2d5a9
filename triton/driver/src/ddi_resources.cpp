// SPDX-License-Identifier: MIT
// Resources: creation with the runtime's private-size protocol, maps, copies,
// updates, resolves.

#include <vector>

#include "device.h"
#include "entries.h"
#include "log.h"
#include "shared_resources.h"
#include "translate.h"

namespace triton::driver {
namespace {

D3D11_BOX apiBox(const ddi::D3D10_DDI_BOX& b) {
  return D3D11_BOX{UINT(b.left), UINT(b.top), UINT(b.front), UINT(b.right), UINT(b.bottom), UINT(b.back)};
}

HRESULT createTargetResource(ID3D11Device* device, const ddi::D3D11DDIARG_CREATERESOURCE& a,
                             const D3D11_SUBRESOURCE_DATA* initial, ComPtr<ID3D11Resource>& out) {
  const ddi::D3D10DDI_MIPINFO& top = a.pMipInfoList[0];
  const UINT bind = apiBindFlags(a.BindFlags);
  const UINT cpu = apiCpuAccessFlags(a.MapFlags);
  const UINT misc = apiMiscFlags(a.MiscFlags, a.ResourceDimension);
  const D3D11_USAGE usage = D3D11_USAGE(a.Usage);   // value-equal
  HRESULT hr = E_INVALIDARG;
  switch (a.ResourceDimension) {
    case ddi::D3D10DDIRESOURCE_BUFFER:
    case ddi::D3D11DDIRESOURCE_BUFFEREX: {
      // A buffer's byte width is the top level's texel width.
      D3D11_BUFFER_DESC desc{top.TexelWidth, usage, bind, cpu, misc, a.ByteStride};
      ComPtr<ID3D11Buffer> buffer;
      hr = device->CreateBuffer(&desc, initial, &buffer);
      out = buffer;
      break;
    }
    case ddi::D3D10DDIRESOURCE_TEXTURE1D: {
      D3D11_TEXTURE1D_DESC desc{top.TexelWidth, a.MipLevels, a.ArraySize, a.Format, usage, bind, cpu, misc};
      ComPtr<ID3D11Texture1D> texture;
      hr = device->CreateTexture1D(&desc, initial, &texture);
      out = texture;
      break;
    }
    case ddi::D3D10DDIRESOURCE_TEXTURE2D:
    case ddi::D3D10DDIRESOURCE_TEXTURECUBE: {
      D3D11_TEXTURE2D_DESC desc{top.TexelWidth, top.TexelHeight, a.MipLevels, a.ArraySize, a.Format,
                                a.SampleDesc, usage, bind, cpu, misc};
      ComPtr<ID3D11Texture2D> texture;
      hr = device->CreateTexture2D(&desc, initial, &texture);
      out = texture;
      break;
    }
    case ddi::D3D10DDIRESOURCE_TEXTURE3D: {
      D3D11_TEXTURE3D_DESC desc{top.TexelWidth, top.TexelHeight, top.TexelDepth, a.MipLevels, a.Format,
                                usage, bind, cpu, misc};
      ComPtr<ID3D11Texture3D> texture;
      hr = device->CreateTexture3D(&desc, initial, &texture);
      out = texture;
      break;
    }
    default:
      break;
  }
  return hr;
}

ID3D11Resource* target(ddi::D3D10DDI_HRESOURCE h) {
  Resource* r = resourceOf(h);
  return r ? r->resource.Get() : nullptr;
}

}  // namespace

namespace entry {

SIZE_T TRITON_APIENTRY calcPrivateResourceSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D11DDIARG_CREATERESOURCE*) {
  return sizeof(Resource);
}

void TRITON_APIENTRY createResource(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATERESOURCE* a,
                                    ddi::D3D10DDI_HRESOURCE hResource, ddi::D3D10DDI_HRTRESOURCE hRTResource) {
  Device* d = deviceOf(hDevice);
  if (!a || !a->pMipInfoList || !a->MipLevels || !a->ArraySize || !hResource.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  // Tiled resources and tile pools: GetCaps reports no tier, so a runtime never asks
  // (ddi_wddm1_3.cpp); created as plain resources they would silently lose their meaning.
  if (a->MiscFlags & (ddi::D3DWDDM1_3DDI_RESOURCE_MISC_TILED | ddi::D3DWDDM1_3DDI_RESOURCE_MISC_TILE_POOL)) {
    d->setError(E_INVALIDARG);
    return;
  }
  std::vector<D3D11_SUBRESOURCE_DATA> initial;
  if (a->pInitialDataUP) {
    const UINT count = a->MipLevels * a->ArraySize;
    initial.resize(count);
    for (UINT i = 0; i < count; ++i)
      initial[i] = D3D11_SUBRESOURCE_DATA{a->pInitialDataUP[i].pSysMem, a->pInitialDataUP[i].SysMemPitch,
                                          a->pInitialDataUP[i].SysMemSlicePitch};
  }
  ComPtr<ID3D11Resource> resource;
  const HRESULT hr = createTargetResource(d->device(), *a, initial.empty() ? nullptr : initial.data(), resource);
  if (FAILED(hr)) {
    d->targetFailed("CreateResource", hr);
    return;
  }
  Resource* r = new (hResource.pDrvPrivate) Resource;
  r->resource = std::move(resource);
  r->dimension = a->ResourceDimension;
  r->arraySize = a->ArraySize;
  r->mipLevels = a->MipLevels;
  r->sampleCount = a->SampleDesc.Count;
  r->usage = a->Usage;
  r->runtimeHandle = hRTResource;
  if (a->MiscFlags & ddi::D3D10_DDI_RESOURCE_MISC_SHARED) {
    const HRESULT shared = publishSharedResource(*d, *r);
    if (FAILED(shared)) {
      r->~Resource();   // a failed create leaves nothing for DestroyResource
      d->setError(runtimeError(shared));
      return;
    }
  }
  if (a->pPrimaryDesc)
    TRITON_LOG(Info, "CreateResource: swapchain primary created as an ordinary texture (present is not done)");
}

SIZE_T TRITON_APIENTRY calcPrivateOpenedResourceSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10DDIARG_OPENRESOURCE*) {
  return sizeof(Resource);
}

void TRITON_APIENTRY openResource(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10DDIARG_OPENRESOURCE* a,
                                  ddi::D3D10DDI_HRESOURCE hResource, ddi::D3D10DDI_HRTRESOURCE hRTResource) {
  Device* d = deviceOf(hDevice);
  if (!a || !hResource.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  Resource opened;
  const HRESULT hr = openSharedResource(*d, *a, opened);
  if (hr == E_INVALIDARG) {
    d->setError(E_INVALIDARG);
    return;
  }
  if (FAILED(hr)) {
    d->targetFailed("OpenResource", hr);
    return;
  }
  opened.runtimeHandle = hRTResource;
  new (hResource.pDrvPrivate) Resource(std::move(opened));
}

void TRITON_APIENTRY destroyResource(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hResource) {
  if (const Resource* r = resourceOf(hResource))
    releaseSharedResource(*deviceOf(hDevice), *r);
  destroyObject<Resource>(hResource.pDrvPrivate);
}

void TRITON_APIENTRY resourceMap(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hResource, UINT subresource,
                                 ddi::D3D10_DDI_MAP mapType, UINT flags,
                                 ddi::D3D10DDI_MAPPED_SUBRESOURCE* mapped) {
  Device* d = deviceOf(hDevice);
  ID3D11Resource* resource = target(hResource);
  if (!resource || !mapped) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_MAPPED_SUBRESOURCE m{};
  const HRESULT hr = d->context()->Map(resource, subresource, D3D11_MAP(mapType),
                                       flags & ddi::D3D10_DDI_MAP_FLAG_DONOTWAIT, &m);
  if (hr == DXGI_ERROR_WAS_STILL_DRAWING) {
    d->setError(DXGI_DDI_ERR_WASSTILLDRAWING);
    return;
  }
  if (FAILED(hr)) {
    d->targetFailed("ResourceMap", hr);   // E_OUTOFMEMORY or device removed reach the runtime as is
    return;
  }
  mapped->pData = m.pData;
  mapped->RowPitch = m.RowPitch;
  mapped->DepthPitch = m.DepthPitch;
}

void TRITON_APIENTRY resourceUnmap(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hResource, UINT subresource) {
  if (ID3D11Resource* resource = target(hResource))
    deviceOf(hDevice)->context()->Unmap(resource, subresource);
}

BOOL TRITON_APIENTRY resourceIsStagingBusy(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hResource) {
  // The API has no "is busy" call; a non-blocking map of subresource 0 answers it.
  Device* d = deviceOf(hDevice);
  Resource* r = resourceOf(hResource);
  if (!r || r->usage != D3D11_USAGE_STAGING)
    return FALSE;
  D3D11_MAPPED_SUBRESOURCE m{};
  const HRESULT hr = d->context()->Map(r->resource.Get(), 0, D3D11_MAP_READ, D3D11_MAP_FLAG_DO_NOT_WAIT, &m);
  if (hr == DXGI_ERROR_WAS_STILL_DRAWING)
    return TRUE;
  if (SUCCEEDED(hr))
    d->context()->Unmap(r->resource.Get(), 0);
  return FALSE;
}

void TRITON_APIENTRY resourceCopy(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst, ddi::D3D10DDI_HRESOURCE hSrc) {
  ID3D11Resource* dst = target(hDst);
  ID3D11Resource* src = target(hSrc);
  if (!dst || !src) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  deviceOf(hDevice)->context()->CopyResource(dst, src);
}

void TRITON_APIENTRY resourceCopyRegion(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst, UINT dstSub,
                                        UINT x, UINT y, UINT z, ddi::D3D10DDI_HRESOURCE hSrc, UINT srcSub,
                                        const ddi::D3D10_DDI_BOX* box) {
  resourceCopyRegion11_1(hDevice, hDst, dstSub, x, y, z, hSrc, srcSub, box, 0);
}

void TRITON_APIENTRY resourceCopyRegion11_1(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst, UINT dstSub,
                                            UINT x, UINT y, UINT z, ddi::D3D10DDI_HRESOURCE hSrc, UINT srcSub,
                                            const ddi::D3D10_DDI_BOX* box, UINT copyFlags) {
  Device* d = deviceOf(hDevice);
  ID3D11Resource* dst = target(hDst);
  ID3D11Resource* src = target(hSrc);
  if (!dst || !src) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_BOX apiSrcBox{};
  if (box)
    apiSrcBox = apiBox(*box);
  // D3D11_1DDI_COPY_* equal D3D11_COPY_* (NO_OVERWRITE 1, DISCARD 2).
  if (copyFlags && d->context1())
    d->context1()->CopySubresourceRegion1(dst, dstSub, x, y, z, src, srcSub, box ? &apiSrcBox : nullptr,
                                          copyFlags & (D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD));
  else
    d->context()->CopySubresourceRegion(dst, dstSub, x, y, z, src, srcSub, box ? &apiSrcBox : nullptr);
}

void TRITON_APIENTRY resourceUpdateSubresourceUP(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst,
                                                 UINT dstSub, const ddi::D3D10_DDI_BOX* box, const void* data,
                                                 UINT rowPitch, UINT depthPitch) {
  resourceUpdateSubresourceUP11_1(hDevice, hDst, dstSub, box, data, rowPitch, depthPitch, 0);
}

void TRITON_APIENTRY resourceUpdateSubresourceUP11_1(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst,
                                                     UINT dstSub, const ddi::D3D10_DDI_BOX* box, const void* data,
                                                     UINT rowPitch, UINT depthPitch, UINT copyFlags) {
  Device* d = deviceOf(hDevice);
  ID3D11Resource* dst = target(hDst);
  if (!dst || !data) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_BOX apiDstBox{};
  if (box)
    apiDstBox = apiBox(*box);
  if (copyFlags && d->context1())
    d->context1()->UpdateSubresource1(dst, dstSub, box ? &apiDstBox : nullptr, data, rowPitch, depthPitch,
                                      copyFlags & (D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD));
  else
    d->context()->UpdateSubresource(dst, dstSub, box ? &apiDstBox : nullptr, data, rowPitch, depthPitch);
}

void TRITON_APIENTRY resourceResolveSubresource(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst,
                                                UINT dstSub, ddi::D3D10DDI_HRESOURCE hSrc, UINT srcSub,
                                                DXGI_FORMAT format) {
  ID3D11Resource* dst = target(hDst);
  ID3D11Resource* src = target(hSrc);
  if (!dst || !src) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  deviceOf(hDevice)->context()->ResolveSubresource(dst, dstSub, src, srcSub, format);
}

void TRITON_APIENTRY setResourceMinLOD(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hResource, FLOAT minLod) {
  if (ID3D11Resource* resource = target(hResource))
    deviceOf(hDevice)->context()->SetResourceMinLOD(resource, minLod);
}

void TRITON_APIENTRY copyStructureCount(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE hDst, UINT offset,
                                        ddi::D3D11DDI_HUNORDEREDACCESSVIEW hSrc) {
  ID3D11Resource* dst = target(hDst);
  ID3D11UnorderedAccessView* src = targetOf<UnorderedAccessView>(hSrc);
  ComPtr<ID3D11Buffer> buffer;
  if (!dst || !src || FAILED(dst->QueryInterface(IID_PPV_ARGS(&buffer)))) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  deviceOf(hDevice)->context()->CopyStructureCount(buffer.Get(), offset, src);
}

void TRITON_APIENTRY genMips(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HSHADERRESOURCEVIEW hView) {
  if (ID3D11ShaderResourceView* view = targetOf<ShaderResourceView>(hView))
    deviceOf(hDevice)->context()->GenerateMips(view);
}

}  // namespace entry
}  // namespace triton::driver
