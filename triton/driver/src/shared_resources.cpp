// SPDX-License-Identifier: MIT
#include "shared_resources.h"

#include <dxgi.h>

#include <cstring>

#include "log.h"

namespace triton::driver {
namespace {

// The DDI description of a target resource Triton did not create (an opened one).
void describe(ID3D11Resource* resource, Resource& r) {
  D3D11_RESOURCE_DIMENSION type = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  resource->GetType(&type);
  ComPtr<ID3D11Buffer> buffer;
  ComPtr<ID3D11Texture1D> texture1d;
  ComPtr<ID3D11Texture2D> texture2d;
  ComPtr<ID3D11Texture3D> texture3d;
  if (type == D3D11_RESOURCE_DIMENSION_BUFFER && SUCCEEDED(resource->QueryInterface(IID_PPV_ARGS(&buffer)))) {
    D3D11_BUFFER_DESC d{};
    buffer->GetDesc(&d);
    r.dimension = d.MiscFlags & (D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)
                      ? ddi::D3D11DDIRESOURCE_BUFFEREX
                      : ddi::D3D10DDIRESOURCE_BUFFER;
    r.usage = d.Usage;
  } else if (type == D3D11_RESOURCE_DIMENSION_TEXTURE1D &&
             SUCCEEDED(resource->QueryInterface(IID_PPV_ARGS(&texture1d)))) {
    D3D11_TEXTURE1D_DESC d{};
    texture1d->GetDesc(&d);
    r.dimension = ddi::D3D10DDIRESOURCE_TEXTURE1D;
    r.arraySize = d.ArraySize;
    r.mipLevels = d.MipLevels;
    r.usage = d.Usage;
  } else if (type == D3D11_RESOURCE_DIMENSION_TEXTURE2D &&
             SUCCEEDED(resource->QueryInterface(IID_PPV_ARGS(&texture2d)))) {
    D3D11_TEXTURE2D_DESC d{};
    texture2d->GetDesc(&d);
    r.dimension = d.MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE ? ddi::D3D10DDIRESOURCE_TEXTURECUBE
                                                                 : ddi::D3D10DDIRESOURCE_TEXTURE2D;
    r.arraySize = d.ArraySize;
    r.mipLevels = d.MipLevels;
    r.sampleCount = d.SampleDesc.Count;
    r.usage = d.Usage;
  } else if (type == D3D11_RESOURCE_DIMENSION_TEXTURE3D &&
             SUCCEEDED(resource->QueryInterface(IID_PPV_ARGS(&texture3d)))) {
    D3D11_TEXTURE3D_DESC d{};
    texture3d->GetDesc(&d);
    r.dimension = ddi::D3D10DDIRESOURCE_TEXTURE3D;
    r.mipLevels = d.MipLevels;
    r.usage = d.Usage;
  }
}

}  // namespace

HRESULT publishSharedResource(const Device& d, Resource& r) {
  ComPtr<IDXGIResource> dxgi;
  HANDLE handle = nullptr;
  HRESULT hr = r.resource.As(&dxgi);
  if (SUCCEEDED(hr))
    hr = dxgi->GetSharedHandle(&handle);
  if (FAILED(hr)) {
    TRITON_LOG(Warn, "CreateResource: the target cannot share the resource (0x%08lx)", static_cast<unsigned long>(hr));
    return hr;
  }
  SharedResourceRecord record{kSharedResourceMagic, kSharedResourceVersion, UINT64(UINT_PTR(handle))};
  // One allocation; it carries the record too, so the kernel side finds it per allocation
  // as well as per resource.
  ddi::D3DDDI_ALLOCATIONINFO allocation{};
  allocation.pPrivateDriverData = &record;
  allocation.PrivateDriverDataSize = sizeof(record);
  ddi::D3DDDICB_ALLOCATE args{};
  args.pPrivateDriverData = &record;
  args.PrivateDriverDataSize = sizeof(record);
  args.hResource = r.runtimeHandle.handle;   // non-null: the kernel makes a shareable resource
  args.NumAllocations = 1;
  args.pAllocationInfo = &allocation;
  hr = d.allocate(args);
  if (FAILED(hr)) {
    TRITON_LOG(Warn, "CreateResource: pfnAllocateCb refused the shared resource (0x%08lx)",
               static_cast<unsigned long>(hr));
    return hr;
  }
  r.ownsKernelResource = true;
  return S_OK;
}

void releaseSharedResource(const Device& d, const Resource& r) {
  if (!r.ownsKernelResource)
    return;
  const ddi::D3DDDICB_DEALLOCATE args{r.runtimeHandle.handle, 0, nullptr};
  const HRESULT hr = d.deallocate(args);
  if (FAILED(hr))
    TRITON_LOG(Warn, "DestroyResource: pfnDeallocateCb failed (0x%08lx)", static_cast<unsigned long>(hr));
}

HRESULT openSharedResource(const Device& d, const ddi::D3D10DDIARG_OPENRESOURCE& args, Resource& r) {
  // The record is read from the runtime's copy of bytes a driver wrote, possibly in
  // another process: checked before use.
  SharedResourceRecord record{};
  if (!args.pPrivateDriverData || args.PrivateDriverDataSize != sizeof(record))
    return E_INVALIDARG;
  std::memcpy(&record, args.pPrivateDriverData, sizeof(record));
  if (record.magic != kSharedResourceMagic || record.version != kSharedResourceVersion) {
    TRITON_LOG(Warn, "OpenResource: the private data is not a Triton shared resource");
    return E_INVALIDARG;
  }
  ComPtr<ID3D11Resource> resource;
  const HRESULT hr =
      d.device()->OpenSharedResource(reinterpret_cast<HANDLE>(UINT_PTR(record.targetHandle)), IID_PPV_ARGS(&resource));
  if (FAILED(hr))
    return hr;
  r.resource = std::move(resource);
  describe(r.resource.Get(), r);
  return S_OK;
}

}  // namespace triton::driver
