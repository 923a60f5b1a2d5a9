// SPDX-License-Identifier: MIT
#pragma once

// The device children: each owns the driver object created from the runtime-owned
// private memory, and destroys it (under the device lock) when the last reference goes.

#include <functional>
#include <memory>
#include <vector>

#include "device.h"
#include "dxbc/interfaces.h"
#include "dxgi_resource.h"
#include "npt/validation/resource.h"

namespace triton::runtime {

class DdiContext;

// Destroys a driver object through its Destroy* entry.
template <class Handle>
void destroyDriverObject(Device* device, void(TRITON_APIENTRY* destroy)(ddi::D3D10DDI_HDEVICE, Handle), Handle handle) {
  if (!handle.pDrvPrivate)
    return;
  std::lock_guard<std::recursive_mutex> lock(device->lock());
  destroy(device->handle(), handle);
}

template <class Interface, class Handle>
class DriverChild : public Child<Interface> {
public:
  explicit DriverChild(Device* device) : Child<Interface>(device) {}
  Handle handle{};
  std::unique_ptr<uint64_t[]> memory;
};

// What views, maps and copies need to know about any resource.
struct ResourceInfo {
  D3D11_RESOURCE_DIMENSION type = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  ddi::D3D10DDIRESOURCE_TYPE ddiDimension{};
  UINT width = 1, height = 1, depth = 1, mipLevels = 1, arraySize = 1;
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
  D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
  UINT bindFlags = 0, miscFlags = 0, byteStride = 0, sampleCount = 1, cpuFlags = 0, sampleQuality = 0;
};

template <class Interface, D3D11_RESOURCE_DIMENSION Type, class Desc>
class Resource final : public DriverChild<Interface, ddi::D3D10DDI_HRESOURCE> {
public:
  Resource(Device* device, const Desc& desc, const ResourceInfo& info)
      : DriverChild<Interface, ddi::D3D10DDI_HRESOURCE>(device), info(info), desc_(desc),
        // Only a 2D texture of one subresource is a DXGI surface (Wine's test_create_texture2d).
        dxgi_(this, Type == D3D11_RESOURCE_DIMENSION_TEXTURE2D && info.mipLevels == 1 && info.arraySize == 1,
              npt::validation::dxgiUsageOf(info.bindFlags, info.usage)) {}
  ~Resource() override { destroyDriverObject(this->device(), this->device()->ddi().pfnDestroyResource, this->handle); }
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (void* face = out ? dxgi_.query(riid) : nullptr) {
      this->AddRef();
      *out = face;
      return S_OK;
    }
    return DriverChild<Interface, ddi::D3D10DDI_HRESOURCE>::QueryInterface(riid, out);
  }
  void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* out) override { *out = Type; }
  void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override { evictionPriority_ = priority; }
  UINT STDMETHODCALLTYPE GetEvictionPriority() override { return evictionPriority_; }
  void STDMETHODCALLTYPE GetDesc(Desc* out) override { *out = desc_; }
  const ResourceInfo info;

private:
  bool implements(REFIID riid) const override {
    return riid == __uuidof(ID3D11Resource) || riid == __uuidof(Interface);
  }
  Desc desc_;
  UINT evictionPriority_ = 0;
  DxgiResourceFace dxgi_;
};

using Buffer = Resource<ID3D11Buffer, D3D11_RESOURCE_DIMENSION_BUFFER, D3D11_BUFFER_DESC>;
using Texture1D = Resource<ID3D11Texture1D, D3D11_RESOURCE_DIMENSION_TEXTURE1D, D3D11_TEXTURE1D_DESC>;
using Texture2D = Resource<ID3D11Texture2D, D3D11_RESOURCE_DIMENSION_TEXTURE2D, D3D11_TEXTURE2D_DESC>;
using Texture3D = Resource<ID3D11Texture3D, D3D11_RESOURCE_DIMENSION_TEXTURE3D, D3D11_TEXTURE3D_DESC>;

// The driver handle, info and child part of any of our resources (nullptr for null).
struct ResourceRef {
  ddi::D3D10DDI_HRESOURCE handle{};
  const ResourceInfo* info = nullptr;
  ChildBase* child = nullptr;
};
ResourceRef resourceRef(ID3D11Resource* resource);
inline ddi::D3D10DDI_HRESOURCE resourceHandle(ID3D11Resource* resource) { return resourceRef(resource).handle; }

template <class Interface, class Handle, class Desc, auto Destroy>
class View final : public DriverChild<Interface, Handle> {
public:
  using DescType = Desc;
  View(Device* device, ID3D11Resource* resource, const Desc& desc)
      : DriverChild<Interface, Handle>(device), resource_(resource), bound_(resourceRef(resource).child), desc_(desc) {}
  ~View() override { destroyDriverObject(this->device(), this->device()->ddi().*Destroy, this->handle); }
  void STDMETHODCALLTYPE GetResource(ID3D11Resource** out) override {
    resource_->AddRef();
    *out = resource_;
  }
  void STDMETHODCALLTYPE GetDesc(Desc* out) override { *out = desc_; }
  ID3D11Resource* resource() const { return resource_; }

private:
  bool implements(REFIID riid) const override { return riid == __uuidof(ID3D11View) || riid == __uuidof(Interface); }
  ID3D11Resource* resource_;
  Bound<ChildBase> bound_;   // a view keeps its resource, not the device, alive
  Desc desc_;
};

using ShaderResourceView = View<ID3D11ShaderResourceView, ddi::D3D10DDI_HSHADERRESOURCEVIEW,
                                D3D11_SHADER_RESOURCE_VIEW_DESC, &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyShaderResourceView>;
using RenderTargetView = View<ID3D11RenderTargetView, ddi::D3D10DDI_HRENDERTARGETVIEW, D3D11_RENDER_TARGET_VIEW_DESC,
                              &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyRenderTargetView>;
using DepthStencilView = View<ID3D11DepthStencilView, ddi::D3D10DDI_HDEPTHSTENCILVIEW, D3D11_DEPTH_STENCIL_VIEW_DESC,
                              &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyDepthStencilView>;
using UnorderedAccessView = View<ID3D11UnorderedAccessView, ddi::D3D11DDI_HUNORDEREDACCESSVIEW,
                                 D3D11_UNORDERED_ACCESS_VIEW_DESC, &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyUnorderedAccessView>;

template <class Interface>
class Shader final : public DriverChild<Interface, ddi::D3D10DDI_HSHADER> {
public:
  explicit Shader(Device* device) : DriverChild<Interface, ddi::D3D10DDI_HSHADER>(device) {}
  ~Shader() override { destroyDriverObject(this->device(), this->device()->ddi().pfnDestroyShader, this->handle); }
  // The container's IFCE chunk (class types and their function tables per interface slot),
  // empty for a shader without interfaces: what *SetShader with class instances resolves.
  dxbc::InterfacesChunk interfaces;
};
using VertexShader = Shader<ID3D11VertexShader>;
using HullShader = Shader<ID3D11HullShader>;
using DomainShader = Shader<ID3D11DomainShader>;
using GeometryShader = Shader<ID3D11GeometryShader>;
using PixelShader = Shader<ID3D11PixelShader>;
using ComputeShader = Shader<ID3D11ComputeShader>;

class InputLayout final : public DriverChild<ID3D11InputLayout, ddi::D3D10DDI_HELEMENTLAYOUT> {
public:
  explicit InputLayout(Device* device) : DriverChild(device) {}
  ~InputLayout() override { destroyDriverObject(device(), device()->ddi().pfnDestroyElementLayout, handle); }
};

template <class Interface, class Handle, class Desc, auto Destroy>
class State final : public DriverChild<Interface, Handle> {
public:
  State(Device* device, const Desc& desc) : DriverChild<Interface, Handle>(device), desc_(desc) {}
  ~State() override { destroyDriverObject(this->device(), this->device()->ddi().*Destroy, this->handle); }
  void STDMETHODCALLTYPE GetDesc(Desc* out) override { *out = desc_; }

private:
  Desc desc_;
};
// The D3D11.1 states: their descriptions keep the 11.1 members (logic op, forced sample
// count); the 11.0 GetDesc leaves them out.
inline D3D11_BLEND_DESC desc11_0(const D3D11_BLEND_DESC1& d) {
  D3D11_BLEND_DESC out{d.AlphaToCoverageEnable, d.IndependentBlendEnable, {}};
  for (UINT i = 0; i < 8; ++i) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& rt = d.RenderTarget[i];
    out.RenderTarget[i] = {rt.BlendEnable, rt.SrcBlend, rt.DestBlend, rt.BlendOp, rt.SrcBlendAlpha, rt.DestBlendAlpha,
                           rt.BlendOpAlpha, rt.RenderTargetWriteMask};
  }
  return out;
}
inline D3D11_RASTERIZER_DESC desc11_0(const D3D11_RASTERIZER_DESC1& d) {
  return {d.FillMode, d.CullMode, d.FrontCounterClockwise, d.DepthBias, d.DepthBiasClamp, d.SlopeScaledDepthBias,
          d.DepthClipEnable, d.ScissorEnable, d.MultisampleEnable, d.AntialiasedLineEnable};
}

template <class Interface1, class Base, class Handle, class Desc, class Desc1, auto Destroy>
class State1 final : public DriverChild<Interface1, Handle> {
public:
  State1(Device* device, const Desc1& desc) : DriverChild<Interface1, Handle>(device), desc_(desc) {}
  ~State1() override { destroyDriverObject(this->device(), this->device()->ddi().*Destroy, this->handle); }
  void STDMETHODCALLTYPE GetDesc(Desc* out) override { *out = desc11_0(desc_); }
  void STDMETHODCALLTYPE GetDesc1(Desc1* out) override { *out = desc_; }

private:
  bool implements(REFIID riid) const override { return riid == __uuidof(Base) || riid == __uuidof(Interface1); }
  Desc1 desc_;
};
using BlendState = State1<ID3D11BlendState1, ID3D11BlendState, ddi::D3D10DDI_HBLENDSTATE, D3D11_BLEND_DESC,
                          D3D11_BLEND_DESC1, &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyBlendState>;
using DepthStencilState = State<ID3D11DepthStencilState, ddi::D3D10DDI_HDEPTHSTENCILSTATE, D3D11_DEPTH_STENCIL_DESC,
                                &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyDepthStencilState>;
using RasterizerState = State1<ID3D11RasterizerState1, ID3D11RasterizerState, ddi::D3D10DDI_HRASTERIZERSTATE,
                               D3D11_RASTERIZER_DESC, D3D11_RASTERIZER_DESC1,
                               &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroyRasterizerState>;
using SamplerState = State<ID3D11SamplerState, ddi::D3D10DDI_HSAMPLER, D3D11_SAMPLER_DESC,
                           &ddi::D3D11_1DDI_DEVICEFUNCS::pfnDestroySampler>;

// Queries and predicates (ID3D11Predicate derives from ID3D11Query).
template <class Interface>
class Query final : public DriverChild<Interface, ddi::D3D10DDI_HQUERY> {
public:
  Query(Device* device, const D3D11_QUERY_DESC& desc, UINT dataSize)
      : DriverChild<Interface, ddi::D3D10DDI_HQUERY>(device), desc_(desc), dataSize_(dataSize) {}
  ~Query() override { destroyDriverObject(this->device(), this->device()->ddi().pfnDestroyQuery, this->handle); }
  UINT STDMETHODCALLTYPE GetDataSize() override { return dataSize_; }
  void STDMETHODCALLTYPE GetDesc(D3D11_QUERY_DESC* out) override { *out = desc_; }

private:
  bool implements(REFIID riid) const override {
    return riid == __uuidof(ID3D11Asynchronous) || riid == __uuidof(ID3D11Query) || riid == __uuidof(Interface);
  }
  D3D11_QUERY_DESC desc_;
  UINT dataSize_;
};
// Either kind, for the context: both are laid out the same.
using AnyQuery = Query<ID3D11Query>;
inline ddi::D3D10DDI_HQUERY queryHandle(ID3D11Asynchronous* async) {
  return async ? static_cast<AnyQuery*>(static_cast<ID3D11Query*>(async))->handle : ddi::D3D10DDI_HQUERY{};
}

// A command list: ExecuteCommandList runs it on a context of the driver.
class CommandListBase : public Child<ID3D11CommandList> {
public:
  CommandListBase(Device* device, UINT contextFlags) : Child(device), contextFlags_(contextFlags) {}
  UINT STDMETHODCALLTYPE GetContextFlags() override { return contextFlags_; }
  virtual void execute(DdiContext& context) = 0;

private:
  UINT contextFlags_;
};

// A command list of the runtime's deferred-context emulation: the recorded calls.
class CommandList final : public CommandListBase {
public:
  using Command = std::function<void(DdiContext&)>;
  CommandList(Device* device, std::vector<Command> commands, UINT contextFlags)
      : CommandListBase(device, contextFlags), commands_(std::move(commands)) {}
  void execute(DdiContext& context) override {
    for (const Command& command : commands_)
      command(context);
  }

private:
  const std::vector<Command> commands_;
};

// A driver command list (pfnCreateCommandList), run with pfnCommandListExecute.
class DriverCommandList final : public CommandListBase {
public:
  DriverCommandList(Device* device, harness::CommandList list) : CommandListBase(device, 0), list_(std::move(list)) {}
  ~DriverCommandList() override;
  void execute(DdiContext& context) override;

private:
  harness::CommandList list_;
};

}  // namespace triton::runtime
