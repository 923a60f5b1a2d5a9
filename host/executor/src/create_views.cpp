// SPDX-License-Identifier: MIT
// Views: the desc is checked against the shape of the viewed resource as the host
// recorded it at creation.
#include <cstddef>
#include <cstring>

#include "npt/executor/executor.h"
#include "npt/validation/views.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

void Executor::createView(
    const char* method, ObjectId self, ObjectId resource, ObjectType type,
    const std::function<validation::Check(const validation::ResourceShape&, const validation::DeviceLimits&)>& check,
    ObjectId id, const std::function<HRESULT(ID3D11Device*, ID3D11Resource*, IUnknown**)>& create, bool hasDesc,
    DXGI_FORMAT format) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(id, type, nullptr);
    return;
  }
  ID3D11Resource* backendResource = nullptr;
  Record* record = nullptr;
  if (!resolveAs(resource, InterfaceId::ID3D11Resource, false, method, &backendResource, &record)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  if (!sameDevice(record, owner.get(), resource, method)) return;
  const auto* resourceState = static_cast<const ResourceState*>(record);
  if (!admit(check(resourceState->shape, owner->limits), method)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  IUnknown* object = nullptr;
  HRESULT hr = create(owner->device, backendResource, &object);
  if (FAILED(hr) || !object) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), id);
    insertFailed(id, type, owner);
    return;
  }
  auto view = std::make_unique<ViewState>();
  view->resource = resourceState->shape;
  view->resourceId = resource;
  view->viewType = type;
  // A desc's UNKNOWN format stands for the resource's (structured buffers have none).
  view->format = hasDesc && format != DXGI_FORMAT_UNKNOWN ? format : resourceState->shape.format;
  insert(id, type, object, owner, 0, std::move(view));
}

void Executor::ID3D11Device_CreateShaderResourceView(ObjectId self, ObjectId pResource,
                                                     const D3D11_SHADER_RESOURCE_VIEW_DESC* pDesc, ObjectId ppSRView) {
  createView(
      "CreateShaderResourceView", self, pResource, ObjectType::ShaderResourceView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        return validation::validateShaderResourceView(shape, pDesc, limits);
      },
      ppSRView, [&](ID3D11Device* device, ID3D11Resource* resource, IUnknown** out) {
        ID3D11ShaderResourceView* view = nullptr;
        HRESULT hr = device->CreateShaderResourceView(resource, pDesc, &view);
        *out = view;
        return hr;
      },
      pDesc != nullptr, pDesc ? pDesc->Format : DXGI_FORMAT_UNKNOWN);
}

void Executor::ID3D11Device_CreateUnorderedAccessView(ObjectId self, ObjectId pResource,
                                                      const D3D11_UNORDERED_ACCESS_VIEW_DESC* pDesc, ObjectId ppUAView) {
  createView(
      "CreateUnorderedAccessView", self, pResource, ObjectType::UnorderedAccessView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        return validation::validateUnorderedAccessView(shape, pDesc, limits);
      },
      ppUAView, [&](ID3D11Device* device, ID3D11Resource* resource, IUnknown** out) {
        ID3D11UnorderedAccessView* view = nullptr;
        HRESULT hr = device->CreateUnorderedAccessView(resource, pDesc, &view);
        *out = view;
        return hr;
      },
      pDesc != nullptr, pDesc ? pDesc->Format : DXGI_FORMAT_UNKNOWN);
}

void Executor::ID3D11Device_CreateRenderTargetView(ObjectId self, ObjectId pResource,
                                                   const D3D11_RENDER_TARGET_VIEW_DESC* pDesc, ObjectId ppRTView) {
  createView(
      "CreateRenderTargetView", self, pResource, ObjectType::RenderTargetView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        return validation::validateRenderTargetView(shape, pDesc, limits);
      },
      ppRTView, [&](ID3D11Device* device, ID3D11Resource* resource, IUnknown** out) {
        ID3D11RenderTargetView* view = nullptr;
        HRESULT hr = device->CreateRenderTargetView(resource, pDesc, &view);
        *out = view;
        return hr;
      },
      pDesc != nullptr, pDesc ? pDesc->Format : DXGI_FORMAT_UNKNOWN);
}

void Executor::ID3D11Device_CreateDepthStencilView(ObjectId self, ObjectId pResource,
                                                   const D3D11_DEPTH_STENCIL_VIEW_DESC* pDesc,
                                                   ObjectId ppDepthStencilView) {
  createView(
      "CreateDepthStencilView", self, pResource, ObjectType::DepthStencilView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        return validation::validateDepthStencilView(shape, pDesc, limits);
      },
      ppDepthStencilView, [&](ID3D11Device* device, ID3D11Resource* resource, IUnknown** out) {
        ID3D11DepthStencilView* view = nullptr;
        HRESULT hr = device->CreateDepthStencilView(resource, pDesc, &view);
        *out = view;
        return hr;
      },
      pDesc != nullptr, pDesc ? pDesc->Format : DXGI_FORMAT_UNKNOWN);
}

// The 11.3 view descs add plane slices to the 2D arms. The plane must be the one the
// view's format selects (validateViewPlane: 0 for resources that are not planar, R8/R16
// for the luma and R8G8/R16G16 for the chroma plane of NV12/P010...), so the backend gets
// the 11.0 desc, whose format selects the same plane.
namespace {

template<typename Desc1, typename Desc0>
bool toBaseDesc(const Desc1& desc1, Desc0& desc0, UINT& plane) {
  std::memset(&desc0, 0, sizeof(desc0));
  desc0.Format = desc1.Format;
  desc0.ViewDimension = decltype(desc0.ViewDimension)(desc1.ViewDimension);
  // The arms other than the 2D ones have the same layout in both versions.
  static_assert(sizeof(desc0.Buffer) <= sizeof(desc1.Buffer));
  std::memcpy(&desc0.Buffer, &desc1.Buffer, sizeof(desc0) - offsetof(Desc0, Buffer) < sizeof(desc1) - offsetof(Desc1, Buffer)
                                                ? sizeof(desc0) - offsetof(Desc0, Buffer)
                                                : sizeof(desc1) - offsetof(Desc1, Buffer));
  plane = 0;
  return true;
}

}  // namespace

void Executor::ID3D11Device3_CreateShaderResourceView1(ObjectId self, ObjectId resource,
                                                       const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc, ObjectId view) {
  D3D11_SHADER_RESOURCE_VIEW_DESC base;
  UINT plane = 0;
  if (desc) {
    toBaseDesc(*desc, base, plane);
    if (desc->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2D) {
      base.Texture2D = {desc->Texture2D.MostDetailedMip, desc->Texture2D.MipLevels};
      plane = desc->Texture2D.PlaneSlice;
    } else if (desc->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2DARRAY) {
      base.Texture2DArray = {desc->Texture2DArray.MostDetailedMip, desc->Texture2DArray.MipLevels,
                             desc->Texture2DArray.FirstArraySlice, desc->Texture2DArray.ArraySize};
      plane = desc->Texture2DArray.PlaneSlice;
    }
  }
  createView(
      "CreateShaderResourceView1", self, resource, ObjectType::ShaderResourceView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        if (desc) NPT_CHECK(validation::validateViewPlane(shape, desc->Format, plane));
        return validation::validateShaderResourceView(shape, desc ? &base : nullptr, limits);
      },
      view, [&](ID3D11Device* device, ID3D11Resource* r, IUnknown** out) {
        ID3D11ShaderResourceView* created = nullptr;
        HRESULT hr = device->CreateShaderResourceView(r, desc ? &base : nullptr, &created);
        *out = created;
        return hr;
      },
      desc != nullptr, desc ? desc->Format : DXGI_FORMAT_UNKNOWN);
}

void Executor::ID3D11Device3_CreateUnorderedAccessView1(ObjectId self, ObjectId resource,
                                                        const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc, ObjectId view) {
  D3D11_UNORDERED_ACCESS_VIEW_DESC base;
  UINT plane = 0;
  if (desc) {
    toBaseDesc(*desc, base, plane);
    if (desc->ViewDimension == D3D11_UAV_DIMENSION_TEXTURE2D) {
      base.Texture2D = {desc->Texture2D.MipSlice};
      plane = desc->Texture2D.PlaneSlice;
    } else if (desc->ViewDimension == D3D11_UAV_DIMENSION_TEXTURE2DARRAY) {
      base.Texture2DArray = {desc->Texture2DArray.MipSlice, desc->Texture2DArray.FirstArraySlice,
                             desc->Texture2DArray.ArraySize};
      plane = desc->Texture2DArray.PlaneSlice;
    }
  }
  createView(
      "CreateUnorderedAccessView1", self, resource, ObjectType::UnorderedAccessView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        if (desc) NPT_CHECK(validation::validateViewPlane(shape, desc->Format, plane));
        return validation::validateUnorderedAccessView(shape, desc ? &base : nullptr, limits);
      },
      view, [&](ID3D11Device* device, ID3D11Resource* r, IUnknown** out) {
        ID3D11UnorderedAccessView* created = nullptr;
        HRESULT hr = device->CreateUnorderedAccessView(r, desc ? &base : nullptr, &created);
        *out = created;
        return hr;
      },
      desc != nullptr, desc ? desc->Format : DXGI_FORMAT_UNKNOWN);
}

void Executor::ID3D11Device3_CreateRenderTargetView1(ObjectId self, ObjectId resource,
                                                     const D3D11_RENDER_TARGET_VIEW_DESC1* desc, ObjectId view) {
  D3D11_RENDER_TARGET_VIEW_DESC base;
  UINT plane = 0;
  if (desc) {
    toBaseDesc(*desc, base, plane);
    if (desc->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2D) {
      base.Texture2D = {desc->Texture2D.MipSlice};
      plane = desc->Texture2D.PlaneSlice;
    } else if (desc->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2DARRAY) {
      base.Texture2DArray = {desc->Texture2DArray.MipSlice, desc->Texture2DArray.FirstArraySlice,
                             desc->Texture2DArray.ArraySize};
      plane = desc->Texture2DArray.PlaneSlice;
    }
  }
  createView(
      "CreateRenderTargetView1", self, resource, ObjectType::RenderTargetView,
      [&](const validation::ResourceShape& shape, const validation::DeviceLimits& limits) {
        if (desc) NPT_CHECK(validation::validateViewPlane(shape, desc->Format, plane));
        return validation::validateRenderTargetView(shape, desc ? &base : nullptr, limits);
      },
      view, [&](ID3D11Device* device, ID3D11Resource* r, IUnknown** out) {
        ID3D11RenderTargetView* created = nullptr;
        HRESULT hr = device->CreateRenderTargetView(r, desc ? &base : nullptr, &created);
        *out = created;
        return hr;
      },
      desc != nullptr, desc ? desc->Format : DXGI_FORMAT_UNKNOWN);
}

}  // namespace npt::executor
