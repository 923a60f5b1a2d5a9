// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <mutex>

#include "com.h"
#include "creation_rules.h"
#include "npt/com/private_data.h"
#include "private_interfaces.h"
#include "completion_notifier.h"
#include "removal_notifier.h"
#include "runtime.h"
#include "state_cache.h"

// The Neptune ID3D11Device (…Device5). One COM object that also answers IDXGIDevice4
// (as on Windows, the DXGI device is the same object), ID3D10Multithread and the
// private INptDevice the DXGI side uses.
//
// Creation methods validate their arguments as Windows' runtime does, assign a guest
// id, record a fire-and-forget create command and return the new object at once
// (design.md decision 3). Caps, descs and private data are answered locally.
namespace npt::guest {

class Context;
class Query;

class Device final : public ComObject<ID3D11Device5>, public IDXGIDevice4, public ID3D10Multithread, public INptDevice {
public:
  Device(Runtime* runtime, protocol::ObjectId id, protocol::ObjectId contextId, D3D_FEATURE_LEVEL level,
         UINT flags, IDXGIAdapter* adapter);
  ~Device() override;

  ID3D11Device* asDevice() { return static_cast<ID3D11Device5*>(this); }
  Runtime* runtime() const { return m_runtime; }
  Statistics* statistics() { return &m_statistics; }
  protocol::ObjectId objectId() const { return m_id; }
  Context* immediateContext() const { return m_context; }
  StateCache& stateCache() { return m_stateCache; }

  // True once the host removed the context (fatal error, worker death, hung GPU wait).
  // Windows' runtime then fails every creation that reaches the driver with
  // DXGI_ERROR_DEVICE_REMOVED (out pointer NULL); argument validation, the NULL-out
  // S_FALSE answer and deduplicated state objects come first, as they never reach it.
  bool removed() const { return m_runtime->connection().status() != transport::kOk; }
  // Sets the event once the GPU finished everything submitted so far (Flush1's event,
  // EnqueueSetEvent); never waits on the calling thread.
  HRESULT signalWhenDone(HANDLE event) { return m_completionNotifier.signalWhenDone(event); }
  // Counts ExecuteCommandList calls: a command list may write any staging resource,
  // so guest copies of staging contents are trusted only within one epoch.
  uint64_t commandListEpoch() const { return m_commandListEpoch.load(std::memory_order_acquire); }
  void commandListExecuted() { m_commandListEpoch.fetch_add(1, std::memory_order_acq_rel); }

  // Records a command on the process's stream on behalf of this device.
  template<typename Encode>
  HRESULT record(Encode&& encode) { return m_runtime->stream().record(&m_statistics, encode); }

  // Multithread protection (ID3D10Multithread / ID3D11Multithread): the runtime is
  // thread-safe on its own; Enter/Leave give applications the lock they ask for.
  void enterProtected();
  void leaveProtected();
  BOOL setProtected(BOOL enable);
  BOOL getProtected() const { return m_protected; }

  // IUnknown (all bases)
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  ULONG STDMETHODCALLTYPE AddRef() override { return ComObject::AddRef(); }
  ULONG STDMETHODCALLTYPE Release() override { return ComObject::Release(); }

  // ID3D11Device (parent IUnknown)
  HRESULT STDMETHODCALLTYPE CreateBuffer(const D3D11_BUFFER_DESC *pDesc, const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Buffer **ppBuffer) override;
  HRESULT STDMETHODCALLTYPE CreateTexture1D(const D3D11_TEXTURE1D_DESC *pDesc, const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Texture1D **ppTexture1D) override;
  HRESULT STDMETHODCALLTYPE CreateTexture2D(const D3D11_TEXTURE2D_DESC *pDesc, const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Texture2D **ppTexture2D) override;
  HRESULT STDMETHODCALLTYPE CreateTexture3D(const D3D11_TEXTURE3D_DESC *pDesc, const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Texture3D **ppTexture3D) override;
  HRESULT STDMETHODCALLTYPE CreateShaderResourceView(ID3D11Resource *pResource, const D3D11_SHADER_RESOURCE_VIEW_DESC *pDesc, ID3D11ShaderResourceView **ppSRView) override;
  HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView(ID3D11Resource *pResource, const D3D11_UNORDERED_ACCESS_VIEW_DESC *pDesc, ID3D11UnorderedAccessView **ppUAView) override;
  HRESULT STDMETHODCALLTYPE CreateRenderTargetView(ID3D11Resource *pResource, const D3D11_RENDER_TARGET_VIEW_DESC *pDesc, ID3D11RenderTargetView **ppRTView) override;
  HRESULT STDMETHODCALLTYPE CreateDepthStencilView(ID3D11Resource *pResource, const D3D11_DEPTH_STENCIL_VIEW_DESC *pDesc, ID3D11DepthStencilView **ppDepthStencilView) override;
  HRESULT STDMETHODCALLTYPE CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC *pInputElementDescs, UINT NumElements, const void *pShaderBytecodeWithInputSignature, SIZE_T BytecodeLength, ID3D11InputLayout **ppInputLayout) override;
  HRESULT STDMETHODCALLTYPE CreateVertexShader(const void *pShaderBytecode, SIZE_T BytecodeLength, ID3D11ClassLinkage *pClassLinkage, ID3D11VertexShader **ppVertexShader) override;
  HRESULT STDMETHODCALLTYPE CreateGeometryShader(const void *pShaderBytecode, SIZE_T BytecodeLength, ID3D11ClassLinkage *pClassLinkage, ID3D11GeometryShader **ppGeometryShader) override;
  HRESULT STDMETHODCALLTYPE CreateGeometryShaderWithStreamOutput(const void *pShaderBytecode, SIZE_T BytecodeLength, const D3D11_SO_DECLARATION_ENTRY *pSODeclaration, UINT NumEntries, const UINT *pBufferStrides, UINT NumStrides, UINT RasterizedStream, ID3D11ClassLinkage *pClassLinkage, ID3D11GeometryShader **ppGeometryShader) override;
  HRESULT STDMETHODCALLTYPE CreatePixelShader(const void *pShaderBytecode, SIZE_T BytecodeLength, ID3D11ClassLinkage *pClassLinkage, ID3D11PixelShader **ppPixelShader) override;
  HRESULT STDMETHODCALLTYPE CreateHullShader(const void *pShaderBytecode, SIZE_T BytecodeLength, ID3D11ClassLinkage *pClassLinkage, ID3D11HullShader **ppHullShader) override;
  HRESULT STDMETHODCALLTYPE CreateDomainShader(const void *pShaderBytecode, SIZE_T BytecodeLength, ID3D11ClassLinkage *pClassLinkage, ID3D11DomainShader **ppDomainShader) override;
  HRESULT STDMETHODCALLTYPE CreateComputeShader(const void *pShaderBytecode, SIZE_T BytecodeLength, ID3D11ClassLinkage *pClassLinkage, ID3D11ComputeShader **ppComputeShader) override;
  HRESULT STDMETHODCALLTYPE CreateClassLinkage(ID3D11ClassLinkage **ppLinkage) override;
  HRESULT STDMETHODCALLTYPE CreateBlendState(const D3D11_BLEND_DESC *pBlendStateDesc, ID3D11BlendState **ppBlendState) override;
  HRESULT STDMETHODCALLTYPE CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC *pDepthStencilDesc, ID3D11DepthStencilState **ppDepthStencilState) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState(const D3D11_RASTERIZER_DESC *pRasterizerDesc, ID3D11RasterizerState **ppRasterizerState) override;
  HRESULT STDMETHODCALLTYPE CreateSamplerState(const D3D11_SAMPLER_DESC *pSamplerDesc, ID3D11SamplerState **ppSamplerState) override;
  HRESULT STDMETHODCALLTYPE CreateQuery(const D3D11_QUERY_DESC *pQueryDesc, ID3D11Query **ppQuery) override;
  HRESULT STDMETHODCALLTYPE CreatePredicate(const D3D11_QUERY_DESC *pPredicateDesc, ID3D11Predicate **ppPredicate) override;
  HRESULT STDMETHODCALLTYPE CreateCounter(const D3D11_COUNTER_DESC *pCounterDesc, ID3D11Counter **ppCounter) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext(UINT ContextFlags, ID3D11DeviceContext **ppDeferredContext) override;
  HRESULT STDMETHODCALLTYPE OpenSharedResource(HANDLE hResource, REFIID ReturnedInterface, void **ppResource) override;
  HRESULT STDMETHODCALLTYPE CheckFormatSupport(DXGI_FORMAT Format, UINT *pFormatSupport) override;
  HRESULT STDMETHODCALLTYPE CheckMultisampleQualityLevels(DXGI_FORMAT Format, UINT SampleCount, UINT *pNumQualityLevels) override;
  void STDMETHODCALLTYPE CheckCounterInfo(D3D11_COUNTER_INFO *pCounterInfo) override;
  HRESULT STDMETHODCALLTYPE CheckCounter(const D3D11_COUNTER_DESC *pDesc, D3D11_COUNTER_TYPE *pType, UINT *pActiveCounters, LPSTR szName, UINT *pNameLength, LPSTR szUnits, UINT *pUnitsLength, LPSTR szDescription, UINT *pDescriptionLength) override;
  HRESULT STDMETHODCALLTYPE CheckFeatureSupport(D3D11_FEATURE Feature, void *pFeatureSupportData, UINT FeatureSupportDataSize) override;
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT *pDataSize, void *pData) override;
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT DataSize, const void *pData) override;
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown *pData) override;
  D3D_FEATURE_LEVEL STDMETHODCALLTYPE GetFeatureLevel() override;
  UINT STDMETHODCALLTYPE GetCreationFlags() override;
  HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() override;
  void STDMETHODCALLTYPE GetImmediateContext(ID3D11DeviceContext **ppImmediateContext) override;
  HRESULT STDMETHODCALLTYPE SetExceptionMode(UINT RaiseFlags) override;
  UINT STDMETHODCALLTYPE GetExceptionMode() override;
  // ID3D11Device1 (parent ID3D11Device)
  void STDMETHODCALLTYPE GetImmediateContext1(ID3D11DeviceContext1 **ppImmediateContext) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext1(UINT ContextFlags, ID3D11DeviceContext1 **ppDeferredContext) override;
  HRESULT STDMETHODCALLTYPE CreateBlendState1(const D3D11_BLEND_DESC1 *pBlendStateDesc, ID3D11BlendState1 **ppBlendState) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState1(const D3D11_RASTERIZER_DESC1 *pRasterizerDesc, ID3D11RasterizerState1 **ppRasterizerState) override;
  HRESULT STDMETHODCALLTYPE CreateDeviceContextState(UINT Flags, const D3D_FEATURE_LEVEL *pFeatureLevels, UINT FeatureLevels, UINT SDKVersion, REFIID EmulatedInterface, D3D_FEATURE_LEVEL *pChosenFeatureLevel, ID3DDeviceContextState **ppContextState) override;
  HRESULT STDMETHODCALLTYPE OpenSharedResource1(HANDLE hResource, REFIID returnedInterface, void **ppResource) override;
  HRESULT STDMETHODCALLTYPE OpenSharedResourceByName(LPCWSTR lpName, DWORD dwDesiredAccess, REFIID returnedInterface, void **ppResource) override;
  // ID3D11Device2 (parent ID3D11Device1)
  void STDMETHODCALLTYPE GetImmediateContext2(ID3D11DeviceContext2 **context) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext2(UINT flags, ID3D11DeviceContext2 **context) override;
  void STDMETHODCALLTYPE GetResourceTiling(ID3D11Resource *resource, UINT *tile_count, D3D11_PACKED_MIP_DESC *mip_desc, D3D11_TILE_SHAPE *tile_shape, UINT *subresource_tiling_count, UINT first_subresource_tiling, D3D11_SUBRESOURCE_TILING *subresource_tiling) override;
  HRESULT STDMETHODCALLTYPE CheckMultisampleQualityLevels1(DXGI_FORMAT format, UINT sample_count, UINT flags, UINT *quality_level_count) override;
  // ID3D11Device3 (parent ID3D11Device2)
  HRESULT STDMETHODCALLTYPE CreateTexture2D1(const D3D11_TEXTURE2D_DESC1 *desc, const D3D11_SUBRESOURCE_DATA *initial_data, ID3D11Texture2D1 **texture) override;
  HRESULT STDMETHODCALLTYPE CreateTexture3D1(const D3D11_TEXTURE3D_DESC1 *desc, const D3D11_SUBRESOURCE_DATA *initial_data, ID3D11Texture3D1 **texture) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState2(const D3D11_RASTERIZER_DESC2 *desc, ID3D11RasterizerState2 **state) override;
  HRESULT STDMETHODCALLTYPE CreateShaderResourceView1(ID3D11Resource *resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1 *desc, ID3D11ShaderResourceView1 **view) override;
  HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView1(ID3D11Resource *resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1 *desc, ID3D11UnorderedAccessView1 **view) override;
  HRESULT STDMETHODCALLTYPE CreateRenderTargetView1(ID3D11Resource *resource, const D3D11_RENDER_TARGET_VIEW_DESC1 *desc, ID3D11RenderTargetView1 **view) override;
  HRESULT STDMETHODCALLTYPE CreateQuery1(const D3D11_QUERY_DESC1 *desc, ID3D11Query1 **query) override;
  void STDMETHODCALLTYPE GetImmediateContext3(ID3D11DeviceContext3 **context) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext3(UINT flags, ID3D11DeviceContext3 **context) override;
  void STDMETHODCALLTYPE WriteToSubresource(ID3D11Resource *dst_resource, UINT dst_subresource, const D3D11_BOX *dst_box, const void *src_data, UINT src_row_pitch, UINT src_depth_pitch) override;
  void STDMETHODCALLTYPE ReadFromSubresource(void *dst_data, UINT dst_row_pitch, UINT dst_depth_pitch, ID3D11Resource *src_resource, UINT src_subresource, const D3D11_BOX *src_box) override;
  // ID3D11Device4 (parent ID3D11Device3)
  HRESULT STDMETHODCALLTYPE RegisterDeviceRemovedEvent(HANDLE event, DWORD *cookie) override;
  void STDMETHODCALLTYPE UnregisterDeviceRemoved(DWORD cookie) override;
  // ID3D11Device5 (parent ID3D11Device4)
  HRESULT STDMETHODCALLTYPE OpenSharedFence(HANDLE handle, REFIID iid, void **fence) override;
  HRESULT STDMETHODCALLTYPE CreateFence(UINT64 initial_value, D3D11_FENCE_FLAG flags, REFIID iid, void **fence) override;

  // IDXGIObject / IDXGIDevice…4 (private data is shared with ID3D11Device's)
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void **parent) override;
  HRESULT STDMETHODCALLTYPE GetAdapter(IDXGIAdapter **adapter) override;
  HRESULT STDMETHODCALLTYPE CreateSurface(const DXGI_SURFACE_DESC *desc, UINT surface_count, DXGI_USAGE usage, const DXGI_SHARED_RESOURCE *shared_resource, IDXGISurface **surface) override;
  HRESULT STDMETHODCALLTYPE QueryResourceResidency(IUnknown *const *resources, DXGI_RESIDENCY *residency, UINT resource_count) override;
  HRESULT STDMETHODCALLTYPE SetGPUThreadPriority(INT priority) override;
  HRESULT STDMETHODCALLTYPE GetGPUThreadPriority(INT *priority) override;
  HRESULT STDMETHODCALLTYPE SetMaximumFrameLatency(UINT MaxLatency) override;
  HRESULT STDMETHODCALLTYPE GetMaximumFrameLatency(UINT *pMaxLatency) override;
  HRESULT STDMETHODCALLTYPE OfferResources(UINT NumResources, IDXGIResource *const *ppResources, DXGI_OFFER_RESOURCE_PRIORITY Priority) override;
  HRESULT STDMETHODCALLTYPE ReclaimResources(UINT NumResources, IDXGIResource *const *ppResources, WINBOOL *pDiscarded) override;
  HRESULT STDMETHODCALLTYPE EnqueueSetEvent(HANDLE hEvent) override;
  void STDMETHODCALLTYPE Trim() override;
  HRESULT STDMETHODCALLTYPE OfferResources1(UINT resource_count, IDXGIResource *const *resources, DXGI_OFFER_RESOURCE_PRIORITY priority, UINT flags) override;
  HRESULT STDMETHODCALLTYPE ReclaimResources1(UINT resource_count, IDXGIResource *const *resources, DXGI_RECLAIM_RESOURCE_RESULTS *results) override;

  // ID3D10Multithread
  void STDMETHODCALLTYPE Enter() override { enterProtected(); }
  void STDMETHODCALLTYPE Leave() override { leaveProtected(); }
  WINBOOL STDMETHODCALLTYPE SetMultithreadProtected(WINBOOL enable) override { return setProtected(enable); }
  WINBOOL STDMETHODCALLTYPE GetMultithreadProtected() override { return getProtected(); }

  // INptDevice
  UINT32 STDMETHODCALLTYPE GetObjectId() override { return m_id; }
  HRESULT STDMETHODCALLTYPE CreateBackBuffer(const D3D11_TEXTURE2D_DESC* desc, ID3D11Texture2D** texture) override;
  HRESULT STDMETHODCALLTYPE PresentBuffer(ID3D11Texture2D* texture, UINT syncInterval, UINT flags) override;
  void STDMETHODCALLTYPE GetStatistics(StatisticsSnapshot* statistics) override;

  // What the rules check this device's calls against (its feature level, the host's caps).
  const validation::DeviceLimits& limits() const { return m_limits; }

private:
  HRESULT createDeferredContext(UINT flags, REFIID riid, void** context);
  HRESULT createTexture2D(const D3D11_TEXTURE2D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D1** out, bool backBuffer);
  template<typename View, typename Interface, typename Desc, typename Encode>
  HRESULT createView(const char* method, ID3D11Resource* resource, const Desc* in, Interface** out, Encode&& encode);
  template<typename Object, typename Desc, typename Encode>
  HRESULT createState(uint32_t kind, const Desc& desc, Object** out, Encode&& encode);
  HRESULT createQuery(const D3D11_QUERY_DESC1* desc, bool predicate, Query** out);
  // An internal EVENT query ended on the immediate context and flushed; the caller owns
  // its private reference (no device reference). Null when none can be made.
  Query* endEventQuery();
  HRESULT createTexture3D(const D3D11_TEXTURE3D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D1** out);

  Runtime* m_runtime;
  protocol::ObjectId m_id;
  D3D_FEATURE_LEVEL m_featureLevel;
  UINT m_creationFlags;
  ComRef<IDXGIAdapter> m_adapter;
  Statistics m_statistics;
  com::PrivateDataStore m_privateData;
  StateCache m_stateCache;
  Context* m_context = nullptr;          // immediate context; the device holds a private reference
  UINT m_maxFrameLatency = 3;
  INT m_gpuThreadPriority = 0;
  UINT m_exceptionMode = 0;
  std::recursive_mutex m_protectMutex;
  BOOL m_protected = FALSE;
  RemovalNotifier m_removalNotifier{[this] { return removed(); }};
  std::atomic<uint64_t> m_commandListEpoch{0};
  CompletionNotifier m_completionNotifier{{ [this] { return endEventQuery(); }, [this] { return removed(); } }};
  HostFormatCaps m_formatCaps{m_runtime->caps()};
  validation::DeviceLimits m_limits = deviceLimits(m_runtime->caps(), m_featureLevel, m_formatCaps);
};

}
