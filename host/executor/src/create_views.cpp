// Views: the desc is checked against the shape of the viewed resource as the host
// recorded it at creation.
#include "npt/executor/executor.h"
#include "npt/validation/views.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

void Executor::createView(
    const char* method, ObjectId self, ObjectId resource, ObjectType type,
    const std::function<validation::Check(const validation::ResourceShape&, const validation::DeviceLimits&)>& check,
    ObjectId id, const std::function<HRESULT(ID3D11Device*, ID3D11Resource*, IUnknown**)>& create) {
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
      });
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
      });
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
      });
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
      });
}

// The 11.3 view descs add plane slices; the validation layer has no rules for them yet.
void Executor::ID3D11Device3_CreateShaderResourceView1(ObjectId self, ObjectId resource,
                                                       const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc, ObjectId view) {
  notImplemented("ID3D11Device3::CreateShaderResourceView1");
}

void Executor::ID3D11Device3_CreateUnorderedAccessView1(ObjectId self, ObjectId resource,
                                                        const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc, ObjectId view) {
  notImplemented("ID3D11Device3::CreateUnorderedAccessView1");
}

void Executor::ID3D11Device3_CreateRenderTargetView1(ObjectId self, ObjectId resource,
                                                     const D3D11_RENDER_TARGET_VIEW_DESC1* desc, ObjectId view) {
  notImplemented("ID3D11Device3::CreateRenderTargetView1");
}

}  // namespace npt::executor
