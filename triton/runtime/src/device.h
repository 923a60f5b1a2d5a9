// SPDX-License-Identifier: MIT
#pragma once

// The API-level runtime's device: ID3D11Device over one DDI device of the driver.
// Every DDI call is made under the device's lock (the runtime does not rely on the
// driver being free-threaded); errors the driver reports through pfnSetErrorCb are
// taken right after the call that caused them.

#include <memory>
#include <mutex>

#include "com.h"
#include "dxgi.h"
#include "npt/validation/check.h"
#include "npt/validation/limits.h"
#include "triton/harness/runtime.h"

namespace triton::runtime {

namespace ddi = triton::ddi;
class DdiContext;

// A DDI error as the API reports it.
HRESULT apiError(HRESULT ddiError);

// Runtime-owned private memory for one driver object, sized by a CalcPrivate*Size answer.
std::unique_ptr<uint64_t[]> allocatePrivate(SIZE_T size);

// What a creation the rules (rules/) refuse returns at the call, before the driver sees it,
// as on Windows: their HRESULT; S_OK when they accept it.
HRESULT refusalOf(const npt::validation::Check& check);

// The device's answers the rules check descriptions against: format support and MSAA
// quality levels as the driver reports them.
class DeviceFormatCaps final : public npt::validation::FormatCaps {
public:
  explicit DeviceFormatCaps(ID3D11Device* device) : device_(device) {}
  UINT formatSupport(DXGI_FORMAT format) const override;
  UINT multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const override;

private:
  ID3D11Device* device_;
};

class Device final : public ID3D11Device1 {
public:
  // Loads the driver, opens its adapter and creates a DDI device at the first of the
  // requested feature levels the driver accepts.
  static HRESULT create(const D3D_FEATURE_LEVEL* levels, UINT levelCount, Device** out);

  // The runtime's Device behind an ID3D11Device (or any interface of it), or null for a
  // device of another implementation.
  static Device* fromApi(IUnknown* device);

  std::recursive_mutex& lock() { return lock_; }
  const ddi::D3D11_1DDI_DEVICEFUNCS& ddi() const { return ddiDevice_->funcs11_1; }
  ddi::D3D10DDI_HDEVICE handle() const { return ddiDevice_->handle(); }
  // The first error the driver reported since the last take (S_OK if none), as the
  // API reports it. Call with the lock held.
  HRESULT takeError();
  DdiContext* immediate() const { return immediate_.get(); }
  harness::Device& ddiDevice() { return *ddiDevice_; }

  // IUnknown
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override;
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
  ULONG STDMETHODCALLTYPE Release() override;

  // ID3D11Device
  HRESULT STDMETHODCALLTYPE CreateBuffer(const D3D11_BUFFER_DESC*, const D3D11_SUBRESOURCE_DATA*, ID3D11Buffer**) override;
  HRESULT STDMETHODCALLTYPE CreateTexture1D(const D3D11_TEXTURE1D_DESC*, const D3D11_SUBRESOURCE_DATA*, ID3D11Texture1D**) override;
  HRESULT STDMETHODCALLTYPE CreateTexture2D(const D3D11_TEXTURE2D_DESC*, const D3D11_SUBRESOURCE_DATA*, ID3D11Texture2D**) override;
  HRESULT STDMETHODCALLTYPE CreateTexture3D(const D3D11_TEXTURE3D_DESC*, const D3D11_SUBRESOURCE_DATA*, ID3D11Texture3D**) override;
  HRESULT STDMETHODCALLTYPE CreateShaderResourceView(ID3D11Resource*, const D3D11_SHADER_RESOURCE_VIEW_DESC*, ID3D11ShaderResourceView**) override;
  HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView(ID3D11Resource*, const D3D11_UNORDERED_ACCESS_VIEW_DESC*, ID3D11UnorderedAccessView**) override;
  HRESULT STDMETHODCALLTYPE CreateRenderTargetView(ID3D11Resource*, const D3D11_RENDER_TARGET_VIEW_DESC*, ID3D11RenderTargetView**) override;
  HRESULT STDMETHODCALLTYPE CreateDepthStencilView(ID3D11Resource*, const D3D11_DEPTH_STENCIL_VIEW_DESC*, ID3D11DepthStencilView**) override;
  HRESULT STDMETHODCALLTYPE CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC*, UINT, const void*, SIZE_T, ID3D11InputLayout**) override;
  HRESULT STDMETHODCALLTYPE CreateVertexShader(const void*, SIZE_T, ID3D11ClassLinkage*, ID3D11VertexShader**) override;
  HRESULT STDMETHODCALLTYPE CreateGeometryShader(const void*, SIZE_T, ID3D11ClassLinkage*, ID3D11GeometryShader**) override;
  HRESULT STDMETHODCALLTYPE CreateGeometryShaderWithStreamOutput(const void*, SIZE_T, const D3D11_SO_DECLARATION_ENTRY*, UINT,
                                                                 const UINT*, UINT, UINT, ID3D11ClassLinkage*,
                                                                 ID3D11GeometryShader**) override;
  HRESULT STDMETHODCALLTYPE CreatePixelShader(const void*, SIZE_T, ID3D11ClassLinkage*, ID3D11PixelShader**) override;
  HRESULT STDMETHODCALLTYPE CreateHullShader(const void*, SIZE_T, ID3D11ClassLinkage*, ID3D11HullShader**) override;
  HRESULT STDMETHODCALLTYPE CreateDomainShader(const void*, SIZE_T, ID3D11ClassLinkage*, ID3D11DomainShader**) override;
  HRESULT STDMETHODCALLTYPE CreateComputeShader(const void*, SIZE_T, ID3D11ClassLinkage*, ID3D11ComputeShader**) override;
  HRESULT STDMETHODCALLTYPE CreateClassLinkage(ID3D11ClassLinkage**) override;
  HRESULT STDMETHODCALLTYPE CreateBlendState(const D3D11_BLEND_DESC*, ID3D11BlendState**) override;
  HRESULT STDMETHODCALLTYPE CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC*, ID3D11DepthStencilState**) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState(const D3D11_RASTERIZER_DESC*, ID3D11RasterizerState**) override;
  HRESULT STDMETHODCALLTYPE CreateSamplerState(const D3D11_SAMPLER_DESC*, ID3D11SamplerState**) override;
  HRESULT STDMETHODCALLTYPE CreateQuery(const D3D11_QUERY_DESC*, ID3D11Query**) override;
  HRESULT STDMETHODCALLTYPE CreatePredicate(const D3D11_QUERY_DESC*, ID3D11Predicate**) override;
  HRESULT STDMETHODCALLTYPE CreateCounter(const D3D11_COUNTER_DESC*, ID3D11Counter**) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext(UINT, ID3D11DeviceContext**) override;
  HRESULT STDMETHODCALLTYPE OpenSharedResource(HANDLE, REFIID, void**) override;
  HRESULT STDMETHODCALLTYPE CheckFormatSupport(DXGI_FORMAT, UINT*) override;
  HRESULT STDMETHODCALLTYPE CheckMultisampleQualityLevels(DXGI_FORMAT, UINT, UINT*) override;
  void STDMETHODCALLTYPE CheckCounterInfo(D3D11_COUNTER_INFO*) override;
  HRESULT STDMETHODCALLTYPE CheckCounter(const D3D11_COUNTER_DESC*, D3D11_COUNTER_TYPE*, UINT*, LPSTR, UINT*, LPSTR, UINT*,
                                         LPSTR, UINT*) override;
  HRESULT STDMETHODCALLTYPE CheckFeatureSupport(D3D11_FEATURE, void*, UINT) override;
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return privateData_.get(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return privateData_.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return privateData_.setInterface(guid, object);
  }
  D3D_FEATURE_LEVEL STDMETHODCALLTYPE GetFeatureLevel() override { return featureLevel_; }
  // The feature level's limits and the driver's format answers, for the rules.
  npt::validation::DeviceLimits limits() const;
  UINT STDMETHODCALLTYPE GetCreationFlags() override { return 0; }
  HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() override { return removedReason_; }
  void STDMETHODCALLTYPE GetImmediateContext(ID3D11DeviceContext**) override;
  HRESULT STDMETHODCALLTYPE SetExceptionMode(UINT) override { return S_OK; }
  UINT STDMETHODCALLTYPE GetExceptionMode() override { return 0; }

  // ID3D11Device1
  void STDMETHODCALLTYPE GetImmediateContext1(ID3D11DeviceContext1**) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext1(UINT, ID3D11DeviceContext1**) override;
  HRESULT STDMETHODCALLTYPE CreateBlendState1(const D3D11_BLEND_DESC1*, ID3D11BlendState1**) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState1(const D3D11_RASTERIZER_DESC1*, ID3D11RasterizerState1**) override;
  HRESULT STDMETHODCALLTYPE CreateDeviceContextState(UINT, const D3D_FEATURE_LEVEL*, UINT, UINT, REFIID,
                                                     D3D_FEATURE_LEVEL*, ID3DDeviceContextState**) override;
  HRESULT STDMETHODCALLTYPE OpenSharedResource1(HANDLE, REFIID, void**) override;
  HRESULT STDMETHODCALLTYPE OpenSharedResourceByName(LPCWSTR, DWORD, REFIID, void**) override;

  // A driver error that means the device is lost sticks (GetDeviceRemovedReason).
  void noteError(HRESULT hr);

  ~Device();   // through Release, or by create() on a failed creation

private:
  Device() = default;
  UINT driverFormatCaps(DXGI_FORMAT format);
  template <class Shader, class Interface>
  HRESULT createShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, Interface** out);

  std::recursive_mutex lock_;
  std::atomic<ULONG> refs_{1};
  std::unique_ptr<harness::Driver> driver_;
  std::unique_ptr<harness::Adapter> adapter_;
  std::unique_ptr<harness::Device> ddiDevice_;
  std::unique_ptr<DdiContext> immediate_;
  D3D_FEATURE_LEVEL featureLevel_{};
  bool driverCommandLists_ = false;   // GetCaps(THREADING) offers them
  HRESULT removedReason_ = S_OK;
  PrivateData privateData_;
  DxgiDevice dxgi_{this};
  DeviceFormatCaps formatCaps_{this};
};

template <class Interface>
void STDMETHODCALLTYPE Child<Interface>::GetDevice(ID3D11Device** out) {
  if (!out)
    return;
  device()->AddRef();
  *out = device();
}

// Logs an API entry the runtime does not implement (once per entry).
void notImplemented(const char* entry);

}  // namespace triton::runtime
