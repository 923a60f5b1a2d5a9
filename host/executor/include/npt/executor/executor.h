// SPDX-License-Identifier: MIT
#pragma once

// The host executor: replays a context's decoded calls on a real D3D11 backend.
//
//   transport (copied-out span) -> protocol::StreamDecoder -> Executor -> backend COM
//
// Every call is validated first (rules/: what Windows' runtime checks), and
// every guest id is resolved through this context's object table (host/objects), so no
// guest value reaches the backend unchecked and no host pointer reaches the guest.
// Outcomes of a broken rule (rules/README.md):
//   Fail   -> the method's HRESULT (E_INVALIDARG); a fire-and-forget Create* leaves the
//             id without a backend object, later uses of it are dropped with a log line;
//   Ignore -> the void call is dropped with a log line;
//   Fatal  -> the context stops: fatal() reports a stable code and message, every
//             backend object of the context is released, later calls do nothing.
// Methods this executor does not execute fail loudly: "NotImplemented <method>" (fatal).
//
// The implementation is split by family (src/*.cpp, see README.md).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "npt_dispatch.h"
#include "npt/d3d11_api.h"
#include "npt/backends/backend.h"
#include "npt/backends/caps_snapshot.h"
#include "npt/objects/object_table.h"
#include "npt/protocol/host_info.h"
#include "npt/validation/check.h"
#include "npt/validation/limits.h"
#include "npt/validation/resource.h"

namespace npt::sharing {
class Registry;
}

namespace npt::executor {

using protocol::ObjectId;
using protocol::Payload;

// Stable codes of a context's fatal error (host log); append only.
enum class FatalCode : uint32_t {
  None            = 0,
  Backend         = 14001,  // the backend is missing or failed where it must not
  Validation      = 14002,  // a Fatal validation rule (the message names the rule)
  ObjectTable     = 14003,  // id/type/quota violation in the object table
  NotImplemented  = 14004,  // a method this executor does not execute
  BulkReference   = 14005,  // a payload's bulk reference outside the context's memory
  Protocol        = 14006,  // the decoder refused the stream (set by the server glue)
  CrossDevice     = 14007,  // an object of one device used with another: the call is dropped (not fatal)
  DeviceHung      = 14008,  // a GPU Wait on a fence that never reached its value (Windows: TDR)
};

const char* fatalCodeName(FatalCode code);

struct FatalError {
  FatalCode code = FatalCode::None;
  std::string message;
};

// What the executor needs from its embedder (the server worker, or a test).
struct ExecutorHooks {
  // Host-readable bytes of a payload's bulk reference, or null when it lies outside the
  // context's memory. The executor copies them out before reading them.
  std::function<const uint8_t*(const protocol::BulkRef&)> bulkBytes;
  // Where a large Map reply may be written: region 0 of the context's bulk memory
  // (null: large readbacks fail with E_OUTOFMEMORY).
  std::function<uint8_t*(uint64_t* size)> replyArea;
  // Preferred over replyArea when set (the server): where a Map reply of `size` bytes
  // may be written and the bulk region the guest finds it in, at offset 0 (a region of
  // the calling ring, transport's HostContext::reply_area); null: E_OUTOFMEMORY.
  std::function<uint8_t*(uint64_t size, uint32_t* region)> replyRegion;
  // Writes a push slot (query results, contract 3).
  std::function<void(uint32_t slot, const void* data, size_t size)> pushSlot;
  // Writes a fence slot (fence values; the guest reads it locally).
  std::function<void(uint32_t slot, uint64_t value)> fenceSlot;
  // A creation the guest answered S_OK for has no backend object: the validation rule that
  // refused it, or 0 when the backend (or an object it names) did.
  std::function<void(uint32_t objectId, uint32_t rule)> creationRefused;
  // One log line (no trailing newline). Default: stderr.
  std::function<void(const char* line)> log;
};

struct ExecutorOptions {
  std::string backend;                 // empty: NPT_BACKEND, else the platform default
  objects::ObjectQuotas quotas;
  uint32_t maxInlineReplyBytes = 128 * 1024;  // Map bytes up to this go inline in the reply
  uint32_t fenceSlotCount = 0;         // fence slots of the context (0: not checked, tests)
  // A GPU Wait whose fence does not reach its value within this makes the context fatal
  // (DeviceHung), as Windows' TDR removes the device. 0: NPT_FENCE_TIMEOUT_MS, else 2000.
  uint32_t fenceWaitTimeoutMs = 0;
  ExecutorHooks hooks;
};

struct DeviceState;
struct Record;
struct ResourceState;
struct ViewState;
struct ContextState;
struct QueryState;
class Presenter;
struct SharingState;
struct DeferredRecord;
class EmulatedFence;

class Executor final : public protocol::Dispatch {
public:
  explicit Executor(ExecutorOptions options);
  ~Executor() override;

  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  bool isFatal() const { return m_fatal.code != FatalCode::None; }
  // Whether the backend could be opened (its error is logged at construction).
  bool backendAvailable() const { return m_backend != nullptr; }
  const backends::BackendStatus& backendStatus() const { return m_backendStatus; }
  const FatalError& fatalError() const { return m_fatal; }
  // Stops the context: logs "E<code> <name>: <message>" once and releases everything.
  void makeFatal(FatalCode code, std::string message);

  // Polls queries whose End executed and pushes results that became available.
  // Also completes fence signals and mirrors shared fences into their slots (sharing.cpp).
  void pollQueries();
  bool hasPendingQueries() const { return !m_pendingQueries.empty() || hasFenceWork(); }
  // Shared fences other contexts signal (fences.cpp): the sharing registry's word that
  // moves at every such signal, for an idle worker to sleep on (then pollQueries mirrors
  // the values); null while this context holds no shared fence, or with
  // NPT_FENCE_WAKE=poll (the previous polling, the benchmark's baseline), where
  // hasPendingQueries keeps the worker polling instead. Valid while the executor lives.
  const std::atomic<uint32_t>* sharedFenceWakeWord() const;
  // Sleeps on that word until it is no longer `seen` (or timeoutUs pass), counted as a
  // sleeper: writers make the wake system call only when someone is counted, so nobody
  // may sleep on the word with a plain address wait.
  static void waitOnSharedFenceWakeWord(const std::atomic<uint32_t>* word, uint32_t seen, uint32_t timeoutUs);

  // Fences and sharing statistics: how long GPU Waits held this context.
  struct FenceWaitStats {
    uint64_t waits = 0;          // Waits executed
    uint64_t blockedWaits = 0;   // Waits whose value was not reached on arrival
    uint64_t blockedNs = 0;      // total time those held the context
    uint64_t maxBlockedNs = 0;
  };
  FenceWaitStats fenceWaitStats() const;

  // Diagnostics and tests.
  size_t liveObjects() const { return m_table.liveObjects(); }
  // The backend object behind a guest id (no reference added), or null.
  IUnknown* backendObject(ObjectId id);
  // Log lines of dropped calls (Fail/Ignore outcomes) so far.
  uint64_t droppedCalls() const { return m_droppedCalls; }

  // Control commands (protocol/README.md sections 11-13).
  void queryHostInfo(std::vector<uint8_t>& blob) override;
  void bindPushSlot(ObjectId query, uint32_t slot) override;
  void presentBuffer(ObjectId texture, uint32_t interval, uint32_t flags) override;
  void sharedHandleClosed(ObjectId object) override;
  void destroyObject(ObjectId id) override;

  // device.cpp: device creation
  HRESULT D3D11CreateDevice(ObjectId pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags, const D3D_FEATURE_LEVEL* pFeatureLevels, UINT FeatureLevels, UINT SDKVersion, ObjectId ppDevice, D3D_FEATURE_LEVEL* pFeatureLevel, ObjectId ppImmediateContext) override;

  // create_resources.cpp: buffers and textures
  void ID3D11Resource_SetEvictionPriority(ObjectId self, UINT EvictionPriority) override;
  void ID3D11Device_CreateBuffer(ObjectId self, const D3D11_BUFFER_DESC* pDesc, UINT NumInitialData, const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppBuffer) override;
  void ID3D11Device_CreateTexture1D(ObjectId self, const D3D11_TEXTURE1D_DESC* pDesc, UINT NumInitialData, const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppTexture1D) override;
  void ID3D11Device_CreateTexture2D(ObjectId self, const D3D11_TEXTURE2D_DESC* pDesc, UINT NumInitialData, const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppTexture2D) override;
  void ID3D11Device_CreateTexture3D(ObjectId self, const D3D11_TEXTURE3D_DESC* pDesc, UINT NumInitialData, const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppTexture3D) override;
  void ID3D11Device3_CreateTexture2D1(ObjectId self, const D3D11_TEXTURE2D_DESC1* desc, UINT NumInitialData, const NPT_SUBRESOURCE_DATA* initial_data, ObjectId texture) override;
  void ID3D11Device3_CreateTexture3D1(ObjectId self, const D3D11_TEXTURE3D_DESC1* desc, UINT NumInitialData, const NPT_SUBRESOURCE_DATA* initial_data, ObjectId texture) override;

  // create_views.cpp: views
  void ID3D11Device_CreateShaderResourceView(ObjectId self, ObjectId pResource, const D3D11_SHADER_RESOURCE_VIEW_DESC* pDesc, ObjectId ppSRView) override;
  void ID3D11Device_CreateUnorderedAccessView(ObjectId self, ObjectId pResource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* pDesc, ObjectId ppUAView) override;
  void ID3D11Device_CreateRenderTargetView(ObjectId self, ObjectId pResource, const D3D11_RENDER_TARGET_VIEW_DESC* pDesc, ObjectId ppRTView) override;
  void ID3D11Device_CreateDepthStencilView(ObjectId self, ObjectId pResource, const D3D11_DEPTH_STENCIL_VIEW_DESC* pDesc, ObjectId ppDepthStencilView) override;
  void ID3D11Device3_CreateShaderResourceView1(ObjectId self, ObjectId resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc, ObjectId view) override;
  void ID3D11Device3_CreateUnorderedAccessView1(ObjectId self, ObjectId resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc, ObjectId view) override;
  void ID3D11Device3_CreateRenderTargetView1(ObjectId self, ObjectId resource, const D3D11_RENDER_TARGET_VIEW_DESC1* desc, ObjectId view) override;

  // create_shaders.cpp: shaders, input layouts, class linkage
  void ID3D11ClassLinkage_CreateClassInstance(ObjectId self, const char* pClassTypeName, UINT ConstantBufferOffset, UINT ConstantVectorOffset, UINT TextureOffset, UINT SamplerOffset, ObjectId ppInstance) override;
  void ID3D11Device_CreateInputLayout(ObjectId self, const D3D11_INPUT_ELEMENT_DESC* pInputElementDescs, UINT NumElements, const Payload& pShaderBytecodeWithInputSignature, ObjectId ppInputLayout) override;
  void ID3D11Device_CreateVertexShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage, ObjectId ppVertexShader) override;
  void ID3D11Device_CreateGeometryShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage, ObjectId ppGeometryShader) override;
  void ID3D11Device_CreateGeometryShaderWithStreamOutput(ObjectId self, const Payload& pShaderBytecode, const D3D11_SO_DECLARATION_ENTRY* pSODeclaration, UINT NumEntries, const UINT* pBufferStrides, UINT NumStrides, UINT RasterizedStream, ObjectId pClassLinkage, ObjectId ppGeometryShader) override;
  void ID3D11Device_CreatePixelShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage, ObjectId ppPixelShader) override;
  void ID3D11Device_CreateHullShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage, ObjectId ppHullShader) override;
  void ID3D11Device_CreateDomainShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage, ObjectId ppDomainShader) override;
  void ID3D11Device_CreateComputeShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage, ObjectId ppComputeShader) override;
  void ID3D11Device_CreateClassLinkage(ObjectId self, ObjectId ppLinkage) override;

  // create_states.cpp: state objects, queries, deferred contexts, fences
  void ID3D11Device_CreateBlendState(ObjectId self, const D3D11_BLEND_DESC* pBlendStateDesc, ObjectId ppBlendState) override;
  void ID3D11Device_CreateDepthStencilState(ObjectId self, const D3D11_DEPTH_STENCIL_DESC* pDepthStencilDesc, ObjectId ppDepthStencilState) override;
  void ID3D11Device_CreateRasterizerState(ObjectId self, const D3D11_RASTERIZER_DESC* pRasterizerDesc, ObjectId ppRasterizerState) override;
  void ID3D11Device_CreateSamplerState(ObjectId self, const D3D11_SAMPLER_DESC* pSamplerDesc, ObjectId ppSamplerState) override;
  void ID3D11Device_CreateQuery(ObjectId self, const D3D11_QUERY_DESC* pQueryDesc, ObjectId ppQuery) override;
  void ID3D11Device_CreatePredicate(ObjectId self, const D3D11_QUERY_DESC* pPredicateDesc, ObjectId ppPredicate) override;
  void ID3D11Device_CreateCounter(ObjectId self, const D3D11_COUNTER_DESC* pCounterDesc, ObjectId ppCounter) override;
  void ID3D11Device_CreateDeferredContext(ObjectId self, UINT ContextFlags, ObjectId ppDeferredContext) override;
  void ID3D11Device1_CreateDeferredContext1(ObjectId self, UINT ContextFlags, ObjectId ppDeferredContext) override;
  void ID3D11Device1_CreateBlendState1(ObjectId self, const D3D11_BLEND_DESC1* pBlendStateDesc, ObjectId ppBlendState) override;
  void ID3D11Device1_CreateRasterizerState1(ObjectId self, const D3D11_RASTERIZER_DESC1* pRasterizerDesc, ObjectId ppRasterizerState) override;
  void ID3D11Device2_CreateDeferredContext2(ObjectId self, UINT flags, ObjectId context) override;
  void ID3D11Device3_CreateRasterizerState2(ObjectId self, const D3D11_RASTERIZER_DESC2* desc, ObjectId state) override;
  void ID3D11Device3_CreateQuery1(ObjectId self, const D3D11_QUERY_DESC1* desc, ObjectId query) override;
  void ID3D11Device3_CreateDeferredContext3(ObjectId self, UINT flags, ObjectId context) override;

  // fences.cpp: emulated fences
  HRESULT ID3D11Device5_CreateFence(ObjectId self, UINT64 initial_value, UINT flags, UINT FenceSlot, ObjectId fence) override;
  HRESULT ID3D11Device5_OpenSharedFence(ObjectId self, UINT64 handle, UINT FenceSlot, ObjectId fence) override;
  HRESULT ID3D11Fence_CreateSharedHandle(ObjectId self, DWORD access, const WCHAR* name, UINT64* handle) override;
  void ID3D11DeviceContext4_Signal(ObjectId self, ObjectId fence, UINT64 value) override;
  void ID3D11DeviceContext4_Wait(ObjectId self, ObjectId fence, UINT64 value) override;

  // sharing.cpp: shared resources and keyed mutexes
  HRESULT IDXGIResource_GetSharedHandle(ObjectId self, UINT64* pSharedHandle) override;
  HRESULT IDXGIResource1_CreateSharedHandle(ObjectId self, DWORD access, const WCHAR* name, UINT64* handle) override;
  HRESULT ID3D11Device_OpenSharedResource(ObjectId self, UINT64 hResource, UINT Flags, const GUID& ReturnedInterface, ObjectId ppResource, D3D11_TEXTURE2D_DESC* pTexture2DDesc, D3D11_BUFFER_DESC* pBufferDesc) override;
  HRESULT ID3D11Device1_OpenSharedResourceByName(ObjectId self, const WCHAR* lpName, DWORD dwDesiredAccess, UINT64* pHandle) override;
  HRESULT IDXGIKeyedMutex_AcquireSync(ObjectId self, UINT64 Key, DWORD dwMilliseconds) override;
  void IDXGIKeyedMutex_ReleaseSync(ObjectId self, UINT64 Key) override;

  // context_state.cpp: pipeline state setters
  void ID3D11DeviceContext_VSSetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers) override;
  void ID3D11DeviceContext_PSSetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews, const ObjectId* ppShaderResourceViews) override;
  void ID3D11DeviceContext_PSSetShader(ObjectId self, ObjectId pPixelShader, const ObjectId* ppClassInstances, UINT NumClassInstances) override;
  void ID3D11DeviceContext_PSSetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers, const ObjectId* ppSamplers) override;
  void ID3D11DeviceContext_VSSetShader(ObjectId self, ObjectId pVertexShader, const ObjectId* ppClassInstances, UINT NumClassInstances) override;
  void ID3D11DeviceContext_PSSetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers) override;
  void ID3D11DeviceContext_IASetInputLayout(ObjectId self, ObjectId pInputLayout) override;
  void ID3D11DeviceContext_IASetVertexBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppVertexBuffers, const UINT* pStrides, const UINT* pOffsets) override;
  void ID3D11DeviceContext_IASetIndexBuffer(ObjectId self, ObjectId pIndexBuffer, DXGI_FORMAT Format, UINT Offset) override;
  void ID3D11DeviceContext_GSSetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers) override;
  void ID3D11DeviceContext_GSSetShader(ObjectId self, ObjectId pShader, const ObjectId* ppClassInstances, UINT NumClassInstances) override;
  void ID3D11DeviceContext_IASetPrimitiveTopology(ObjectId self, D3D_PRIMITIVE_TOPOLOGY Topology) override;
  void ID3D11DeviceContext_VSSetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews, const ObjectId* ppShaderResourceViews) override;
  void ID3D11DeviceContext_VSSetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers, const ObjectId* ppSamplers) override;
  void ID3D11DeviceContext_SetPredication(ObjectId self, ObjectId pPredicate, BOOL PredicateValue) override;
  void ID3D11DeviceContext_GSSetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews, const ObjectId* ppShaderResourceViews) override;
  void ID3D11DeviceContext_GSSetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers, const ObjectId* ppSamplers) override;
  void ID3D11DeviceContext_OMSetRenderTargets(ObjectId self, UINT NumViews, const ObjectId* ppRenderTargetViews, ObjectId pDepthStencilView) override;
  void ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ObjectId self, UINT NumRTVs, const ObjectId* ppRenderTargetViews, ObjectId pDepthStencilView, UINT UAVStartSlot, UINT NumUAVs, const ObjectId* ppUnorderedAccessViews, const UINT* pUAVInitialCounts) override;
  void ID3D11DeviceContext_OMSetBlendState(ObjectId self, ObjectId pBlendState, const FLOAT* BlendFactor, UINT SampleMask) override;
  void ID3D11DeviceContext_OMSetDepthStencilState(ObjectId self, ObjectId pDepthStencilState, UINT StencilRef) override;
  void ID3D11DeviceContext_SOSetTargets(ObjectId self, UINT NumBuffers, const ObjectId* ppSOTargets, const UINT* pOffsets) override;
  void ID3D11DeviceContext_RSSetState(ObjectId self, ObjectId pRasterizerState) override;
  void ID3D11DeviceContext_RSSetViewports(ObjectId self, UINT NumViewports, const D3D11_VIEWPORT* pViewports) override;
  void ID3D11DeviceContext_RSSetScissorRects(ObjectId self, UINT NumRects, const RECT* pRects) override;
  void ID3D11DeviceContext_HSSetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews, const ObjectId* ppShaderResourceViews) override;
  void ID3D11DeviceContext_HSSetShader(ObjectId self, ObjectId pHullShader, const ObjectId* ppClassInstances, UINT NumClassInstances) override;
  void ID3D11DeviceContext_HSSetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers, const ObjectId* ppSamplers) override;
  void ID3D11DeviceContext_HSSetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers) override;
  void ID3D11DeviceContext_DSSetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews, const ObjectId* ppShaderResourceViews) override;
  void ID3D11DeviceContext_DSSetShader(ObjectId self, ObjectId pDomainShader, const ObjectId* ppClassInstances, UINT NumClassInstances) override;
  void ID3D11DeviceContext_DSSetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers, const ObjectId* ppSamplers) override;
  void ID3D11DeviceContext_DSSetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers) override;
  void ID3D11DeviceContext_CSSetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews, const ObjectId* ppShaderResourceViews) override;
  void ID3D11DeviceContext_CSSetUnorderedAccessViews(ObjectId self, UINT StartSlot, UINT NumUAVs, const ObjectId* ppUnorderedAccessViews, const UINT* pUAVInitialCounts) override;
  void ID3D11DeviceContext_CSSetShader(ObjectId self, ObjectId pComputeShader, const ObjectId* ppClassInstances, UINT NumClassInstances) override;
  void ID3D11DeviceContext_CSSetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers, const ObjectId* ppSamplers) override;
  void ID3D11DeviceContext_CSSetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers) override;
  void ID3D11DeviceContext_ClearState(ObjectId self) override;
  void ID3D11DeviceContext1_VSSetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers, const UINT* pFirstConstant, const UINT* pNumConstants) override;
  void ID3D11DeviceContext1_HSSetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers, const UINT* pFirstConstant, const UINT* pNumConstants) override;
  void ID3D11DeviceContext1_DSSetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers, const UINT* pFirstConstant, const UINT* pNumConstants) override;
  void ID3D11DeviceContext1_GSSetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers, const UINT* pFirstConstant, const UINT* pNumConstants) override;
  void ID3D11DeviceContext1_PSSetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers, const UINT* pFirstConstant, const UINT* pNumConstants) override;
  void ID3D11DeviceContext1_CSSetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers, const ObjectId* ppConstantBuffers, const UINT* pFirstConstant, const UINT* pNumConstants) override;

  // context_draw.cpp: draws, dispatches, queries, flush
  void ID3D11DeviceContext_DrawIndexed(ObjectId self, UINT IndexCount, UINT StartIndexLocation, INT BaseVertexLocation) override;
  void ID3D11DeviceContext_Draw(ObjectId self, UINT VertexCount, UINT StartVertexLocation) override;
  void ID3D11DeviceContext_DrawIndexedInstanced(ObjectId self, UINT IndexCountPerInstance, UINT InstanceCount, UINT StartIndexLocation, INT BaseVertexLocation, UINT StartInstanceLocation) override;
  void ID3D11DeviceContext_DrawInstanced(ObjectId self, UINT VertexCountPerInstance, UINT InstanceCount, UINT StartVertexLocation, UINT StartInstanceLocation) override;
  void ID3D11DeviceContext_Begin(ObjectId self, ObjectId pAsync) override;
  void ID3D11DeviceContext_End(ObjectId self, ObjectId pAsync) override;
  void ID3D11DeviceContext_DrawAuto(ObjectId self) override;
  void ID3D11DeviceContext_DrawIndexedInstancedIndirect(ObjectId self, ObjectId pBufferForArgs, UINT AlignedByteOffsetForArgs) override;
  void ID3D11DeviceContext_DrawInstancedIndirect(ObjectId self, ObjectId pBufferForArgs, UINT AlignedByteOffsetForArgs) override;
  void ID3D11DeviceContext_Dispatch(ObjectId self, UINT ThreadGroupCountX, UINT ThreadGroupCountY, UINT ThreadGroupCountZ) override;
  void ID3D11DeviceContext_DispatchIndirect(ObjectId self, ObjectId pBufferForArgs, UINT AlignedByteOffsetForArgs) override;
  void ID3D11DeviceContext_Flush(ObjectId self) override;

  // context_copy.cpp: copies, clears, resolves, mips, discards
  void ID3D11DeviceContext_CopySubresourceRegion(ObjectId self, ObjectId pDstResource, UINT DstSubresource, UINT DstX, UINT DstY, UINT DstZ, ObjectId pSrcResource, UINT SrcSubresource, const D3D11_BOX* pSrcBox) override;
  void ID3D11DeviceContext_CopyResource(ObjectId self, ObjectId pDstResource, ObjectId pSrcResource) override;
  void ID3D11DeviceContext_CopyStructureCount(ObjectId self, ObjectId pDstBuffer, UINT DstAlignedByteOffset, ObjectId pSrcView) override;
  void ID3D11DeviceContext_ClearRenderTargetView(ObjectId self, ObjectId pRenderTargetView, const FLOAT* ColorRGBA) override;
  void ID3D11DeviceContext_ClearUnorderedAccessViewUint(ObjectId self, ObjectId pUnorderedAccessView, const UINT* Values) override;
  void ID3D11DeviceContext_ClearUnorderedAccessViewFloat(ObjectId self, ObjectId pUnorderedAccessView, const FLOAT* Values) override;
  void ID3D11DeviceContext_ClearDepthStencilView(ObjectId self, ObjectId pDepthStencilView, UINT ClearFlags, FLOAT Depth, UINT8 Stencil) override;
  void ID3D11DeviceContext_GenerateMips(ObjectId self, ObjectId pShaderResourceView) override;
  void ID3D11DeviceContext_SetResourceMinLOD(ObjectId self, ObjectId pResource, FLOAT MinLOD) override;
  void ID3D11DeviceContext_ResolveSubresource(ObjectId self, ObjectId pDstResource, UINT DstSubresource, ObjectId pSrcResource, UINT SrcSubresource, DXGI_FORMAT Format) override;
  void ID3D11DeviceContext1_CopySubresourceRegion1(ObjectId self, ObjectId pDstResource, UINT DstSubresource, UINT DstX, UINT DstY, UINT DstZ, ObjectId pSrcResource, UINT SrcSubresource, const D3D11_BOX* pSrcBox, UINT CopyFlags) override;
  void ID3D11DeviceContext1_DiscardResource(ObjectId self, ObjectId pResource) override;
  void ID3D11DeviceContext1_DiscardView(ObjectId self, ObjectId pResourceView) override;
  void ID3D11DeviceContext1_ClearView(ObjectId self, ObjectId pView, const FLOAT* Color, const RECT* pRect, UINT NumRects) override;
  void ID3D11DeviceContext1_DiscardView1(ObjectId self, ObjectId pResourceView, const RECT* pRects, UINT NumRects) override;

  // context_map.cpp: Map, Unmap, UpdateSubresource
  HRESULT ID3D11DeviceContext_Map(ObjectId self, ObjectId pResource, UINT Subresource, D3D11_MAP MapType, UINT MapFlags, UINT* pRowPitch, UINT* pDepthPitch, Payload* pData) override;
  void ID3D11DeviceContext_Unmap(ObjectId self, ObjectId pResource, UINT Subresource, D3D11_MAP MapType, UINT NumRanges, const NPT_BYTE_RANGE* pRanges, const Payload& Data) override;
  void ID3D11DeviceContext_UpdateSubresource(ObjectId self, ObjectId pDstResource, UINT DstSubresource, const D3D11_BOX* pDstBox, const Payload& pSrcData, UINT SrcRowPitch, UINT SrcDepthPitch) override;
  void ID3D11DeviceContext1_UpdateSubresource1(ObjectId self, ObjectId pDstResource, UINT DstSubresource, const D3D11_BOX* pDstBox, const Payload& pSrcData, UINT SrcRowPitch, UINT SrcDepthPitch, UINT CopyFlags) override;

  // context_misc.cpp: command lists, annotations, fences, protection
  void ID3D11DeviceContext_ExecuteCommandList(ObjectId self, ObjectId pCommandList, BOOL RestoreContextState) override;
  void ID3D11DeviceContext_FinishCommandList(ObjectId self, BOOL RestoreDeferredContextState, ObjectId ppCommandList) override;
  void ID3DUserDefinedAnnotation_BeginEvent(ObjectId self, const WCHAR* Name) override;
  void ID3DUserDefinedAnnotation_EndEvent(ObjectId self) override;
  void ID3DUserDefinedAnnotation_SetMarker(ObjectId self, const WCHAR* Name) override;
  void ID3D11DeviceContext2_SetMarkerInt(ObjectId self, const WCHAR* label, INT data) override;
  void ID3D11DeviceContext2_BeginEventInt(ObjectId self, const WCHAR* label, INT data) override;
  void ID3D11DeviceContext2_EndEvent(ObjectId self) override;
  void ID3D11DeviceContext3_Flush1(ObjectId self, D3D11_CONTEXT_TYPE type, HANDLE event) override;
  void ID3D11DeviceContext3_SetHardwareProtectionState(ObjectId self, BOOL enable) override;

  // dxgi.cpp: DXGI methods and factory entry points
  HRESULT IDXGIOutput_FindClosestMatchingMode(ObjectId self, const DXGI_MODE_DESC* mode, DXGI_MODE_DESC* closest_match, ObjectId device) override;
  HRESULT IDXGIOutput_WaitForVBlank(ObjectId self) override;
  void IDXGIOutput_ReleaseOwnership(ObjectId self) override;
  void IDXGIOutput_SetGammaControl(ObjectId self, const DXGI_GAMMA_CONTROL* gamma_control) override;
  void IDXGIAdapter_EnumOutputs(ObjectId self, UINT output_idx, ObjectId output) override;
  void IDXGISwapChain_Present(ObjectId self, UINT sync_interval, UINT flags) override;
  void IDXGISwapChain_GetBuffer(ObjectId self, UINT buffer_idx, const GUID& riid, ObjectId surface) override;
  HRESULT IDXGISwapChain_SetFullscreenState(ObjectId self, BOOL fullscreen, ObjectId target) override;
  HRESULT IDXGISwapChain_ResizeBuffers(ObjectId self, UINT buffer_count, UINT width, UINT height, DXGI_FORMAT format, UINT flags) override;
  void IDXGISwapChain_ResizeTarget(ObjectId self, const DXGI_MODE_DESC* target_mode_desc) override;
  void IDXGIFactory_EnumAdapters(ObjectId self, UINT adapter_idx, ObjectId adapter) override;
  HRESULT IDXGIFactory_CreateSwapChain(ObjectId self, ObjectId device, const DXGI_SWAP_CHAIN_DESC* desc, ObjectId swapchain) override;
  void IDXGIDevice1_SetMaximumFrameLatency(ObjectId self, UINT MaxLatency) override;
  void IDXGIFactory1_EnumAdapters1(ObjectId self, UINT Adapter, ObjectId ppAdapter) override;
  void IDXGIResource1_CreateSubresourceSurface(ObjectId self, UINT index, ObjectId surface) override;
  void IDXGIDevice2_OfferResources(ObjectId self, UINT NumResources, const ObjectId* ppResources, DXGI_OFFER_RESOURCE_PRIORITY Priority) override;
  HRESULT IDXGIDevice2_ReclaimResources(ObjectId self, UINT NumResources, const ObjectId* ppResources, BOOL* pDiscarded) override;
  HRESULT IDXGIDevice4_ReclaimResources1(ObjectId self, UINT resource_count, const ObjectId* resources, DXGI_RECLAIM_RESOURCE_RESULTS* results) override;
  void ID3D11Device1_CreateDeviceContextState(ObjectId self, UINT Flags, const D3D_FEATURE_LEVEL* pFeatureLevels, UINT FeatureLevels, UINT SDKVersion, const GUID& EmulatedInterface, ObjectId ppContextState) override;
  void ID3D11DeviceContext1_SwapDeviceContextState(ObjectId self, ObjectId pState) override;
  void IDXGISwapChain1_Present1(ObjectId self, UINT SyncInterval, UINT PresentFlags, const DXGI_PRESENT_PARAMETERS* pPresentParameters) override;
  void IDXGISwapChain1_SetBackgroundColor(ObjectId self, const D3DCOLORVALUE* pColor) override;
  void IDXGISwapChain1_SetRotation(ObjectId self, DXGI_MODE_ROTATION Rotation) override;
  HRESULT IDXGIFactory2_CreateSwapChainForHwnd(ObjectId self, ObjectId pDevice, HWND hWnd, const DXGI_SWAP_CHAIN_DESC1* pDesc, const DXGI_SWAP_CHAIN_FULLSCREEN_DESC* pFullscreenDesc, ObjectId pRestrictToOutput, ObjectId ppSwapChain) override;
  void IDXGIFactory2_UnregisterStereoStatus(ObjectId self, DWORD dwCookie) override;
  void IDXGIFactory2_UnregisterOcclusionStatus(ObjectId self, DWORD dwCookie) override;
  HRESULT IDXGIOutput1_FindClosestMatchingMode1(ObjectId self, const DXGI_MODE_DESC1* mode_to_match, DXGI_MODE_DESC1* closest_match, ObjectId concerned_device) override;
  void IDXGIDevice3_Trim(ObjectId self) override;
  void IDXGISwapChain2_SetSourceSize(ObjectId self, UINT width, UINT height) override;
  void IDXGISwapChain2_SetMaximumFrameLatency(ObjectId self, UINT max_latency) override;
  void IDXGISwapChain2_SetMatrixTransform(ObjectId self, const DXGI_MATRIX_3X2_F* matrix) override;
  void IDXGISwapChain3_SetColorSpace1(ObjectId self, DXGI_COLOR_SPACE_TYPE colour_space) override;
  HRESULT IDXGISwapChain3_ResizeBuffers1(ObjectId self, UINT buffer_count, UINT width, UINT height, DXGI_FORMAT format, UINT flags, const UINT* node_mask, const ObjectId* present_queue) override;
  void IDXGIFactory4_EnumAdapterByLuid(ObjectId self, const LUID& luid, const GUID& iid, ObjectId adapter) override;
  void IDXGIFactory4_EnumWarpAdapter(ObjectId self, const GUID& iid, ObjectId adapter) override;
  void IDXGIAdapter3_UnregisterHardwareContentProtectionTeardownStatus(ObjectId self, DWORD cookie) override;
  HRESULT IDXGIAdapter3_QueryVideoMemoryInfo(ObjectId self, UINT node_index, DXGI_MEMORY_SEGMENT_GROUP segment_group, DXGI_QUERY_VIDEO_MEMORY_INFO* memory_info) override;
  void IDXGIAdapter3_SetVideoMemoryReservation(ObjectId self, UINT node_index, DXGI_MEMORY_SEGMENT_GROUP segment_group, UINT64 reservation) override;
  void IDXGIAdapter3_UnregisterVideoMemoryBudgetChangeNotification(ObjectId self, DWORD cookie) override;
  void IDXGISwapChain4_SetHDRMetaData(ObjectId self, DXGI_HDR_METADATA_TYPE type, const Payload& metadata) override;
  void IDXGIDevice4_OfferResources1(ObjectId self, UINT resource_count, const ObjectId* resources, DXGI_OFFER_RESOURCE_PRIORITY priority, UINT flags) override;
  void IDXGIFactory6_EnumAdapterByGpuPreference(ObjectId self, UINT adapter_idx, DXGI_GPU_PREFERENCE gpu_preference, const GUID& iid, ObjectId adapter) override;
  HRESULT CreateDXGIFactory(const GUID& riid, ObjectId factory) override;
  HRESULT CreateDXGIFactory1(const GUID& riid, ObjectId factory) override;
  HRESULT CreateDXGIFactory2(UINT flags, const GUID& iid, ObjectId factory) override;
  HRESULT D3D11CreateDeviceAndSwapChain(ObjectId adapter, D3D_DRIVER_TYPE driver_type, HMODULE swrast, UINT flags, const D3D_FEATURE_LEVEL* feature_levels, UINT levels, UINT sdk_version, const DXGI_SWAP_CHAIN_DESC* swapchain_desc, ObjectId swapchain, ObjectId device, D3D_FEATURE_LEVEL* obtained_feature_level, ObjectId immediate_context) override;

private:
  friend class Presenter;

  // ---- core (executor.cpp)
  void log(const char* format, ...) __attribute__((format(printf, 2, 3)));
  // Applies a validation result: true when the call may proceed. Fail/Ignore log and
  // count a dropped call; Fatal stops the context.
  bool admit(const validation::Check& check, const char* method);
  // Drops a call for a reason outside the rule table (log line, counted).
  void drop(const char* method, const char* format, ...) __attribute__((format(printf, 3, 4)));
  // Fatal "NotImplemented <method>".
  void notImplemented(const char* method) override;
  bool backendReady();

  // Resolves `id` for a call that needs `iface`. Returns false when the call must not
  // proceed: the context went fatal (table violation), or the id names an object whose
  // creation failed validation (dropped, logged). id 0 resolves to null when nullable.
  bool resolve(ObjectId id, objects::InterfaceId iface, bool nullable, const char* method, IUnknown** object,
               Record** record = nullptr);
  template<typename T>
  bool resolveAs(ObjectId id, objects::InterfaceId iface, bool nullable, const char* method, T** object,
                 Record** record = nullptr) {
    IUnknown* unknown = nullptr;
    if (!resolve(id, iface, nullable, method, &unknown, record)) return false;
    *object = static_cast<T*>(unknown);
    return true;
  }
  // The device of a Create* call (self), or null (fatal/dropped already handled).
  std::shared_ptr<DeviceState> deviceOf(ObjectId self, const char* method);
  // The context of a context call (self), or null.
  ID3D11DeviceContext* contextOf(ObjectId self, const char* method, DeviceState** device = nullptr,
                                 ContextState** state = nullptr);
  // The context of a draw, or null: also when its topology is UNDEFINED or, for an indexed
  // draw, no index buffer is bound (the draw is dropped; records.h says why).
  ID3D11DeviceContext* drawContextOf(ObjectId self, const char* method, DeviceState** device = nullptr,
                                     bool indexed = false);
  // The record of a new context object: its newer interfaces, queried once.
  std::unique_ptr<ContextState> contextState(ID3D11DeviceContext* context, bool deferred);
  // Same device for an object and the context/device using it; fatal otherwise.
  bool sameDevice(const Record* record, const DeviceState* device, ObjectId id, const char* method);
  // Registers a created backend object under the guest id (takes the reference).
  void insert(ObjectId id, objects::ObjectType type, IUnknown* object, std::shared_ptr<DeviceState> device,
              uint64_t memoryBytes, std::unique_ptr<Record> record = nullptr);
  // Registers an id whose creation failed: uses of it are dropped.
  void insertFailed(ObjectId id, objects::ObjectType type, std::shared_ptr<DeviceState> device);
  // OfferResources/ReclaimResources: the device face and its resources (same device).
  bool resolveOfferedResources(const char* method, ObjectId self, UINT count, const ObjectId* ids);
  // A payload's bytes in host memory: inline bytes, or a bulk reference copied out into
  // `storage`. False (fatal) for a bad bulk reference.
  bool payloadBytes(const Payload& payload, std::vector<uint8_t>& storage, const uint8_t** data, size_t* size,
                    const char* method);
  // Array of ids resolved to backend pointers (null entries allowed), same device.
  template<typename T>
  bool resolveArray(const ObjectId* ids, UINT count, objects::InterfaceId iface, DeviceState* device,
                    const char* method, T** out) {
    for (UINT i = 0; i < count; i++) {
      Record* record = nullptr;
      if (!resolveAs(ids ? ids[i] : 0, iface, true, method, &out[i], &record)) return false;
      if (out[i] && !sameDevice(record, device, ids[i], method)) return false;
    }
    return true;
  }

  // ---- shared helpers of the families
  using DescCheck = std::function<validation::Check(const validation::DeviceLimits&)>;
  void createResource(const char* method, ObjectId self, objects::ObjectType type, const validation::ResourceShape& shape,
                      const DescCheck& descCheck, UINT numInitialData, const NPT_SUBRESOURCE_DATA* initialData,
                      ObjectId id, const std::function<HRESULT(ID3D11Device*, const D3D11_SUBRESOURCE_DATA*, IUnknown**)>& create);
  // `format` is the desc's format; a NULL desc (`hasDesc` false) views the resource's.
  void createView(const char* method, ObjectId self, ObjectId resource, objects::ObjectType type,
                  const std::function<validation::Check(const validation::ResourceShape&, const validation::DeviceLimits&)>& check,
                  ObjectId id, const std::function<HRESULT(ID3D11Device*, ID3D11Resource*, IUnknown**)>& create,
                  bool hasDesc, DXGI_FORMAT format);
  void createShader(const char* method, ObjectId self, const Payload& bytecode, ObjectId linkage, int stage,
                    objects::ObjectType type, ObjectId id,
                    const std::function<HRESULT(ID3D11Device*, const void*, SIZE_T, ID3D11ClassLinkage*, IUnknown**)>& create);
  void createState(const char* method, ObjectId self, const DescCheck& check, objects::ObjectType type,
                   ObjectId id, const std::function<HRESULT(ID3D11Device*, IUnknown**)>& create);
  void createQuery(const char* method, ObjectId self, const D3D11_QUERY_DESC& desc, bool predicate,
                   objects::ObjectType type, ObjectId id,
                   const std::function<HRESULT(ID3D11Device*, IUnknown**)>& create);
  template<typename Set>
  void setShaderResources(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids, Set set);
  template<typename Set>
  void setSamplers(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids, Set set);
  template<typename Set>
  void setConstantBuffers(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids, Set set);
  template<typename Set1, typename Set>
  void setConstantBuffers1(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids,
                           const UINT* first, const UINT* num, Set1 set1, Set set);
  template<typename Shader, typename Set>
  void setShader(const char* method, ObjectId self, ObjectId shader, objects::InterfaceId iface,
                 const ObjectId* instances, UINT numInstances, Set set);
  void updateSubresource(const char* method, ObjectId self, ObjectId dst, UINT subresource, const D3D11_BOX* box,
                         const Payload& data, UINT rowPitch, UINT depthPitch, UINT copyFlags, bool version1);
  void copyRegion(const char* method, ObjectId self, ObjectId dst, UINT dstSub, UINT x, UINT y, UINT z, ObjectId src,
                  UINT srcSub, const D3D11_BOX* box, UINT copyFlags, bool version1);
  void createDeferredContext(const char* method, ObjectId self, UINT flags, ObjectId id);
  // Creates (once) the backend device the host info and the caps come from.
  bool ensureCaps();

  // ---- fences and sharing (fences.cpp, sharing.cpp)
  SharingState& sharing();
  // The instance's registry (opened on first use), or null (logged once).
  sharing::Registry* sharingRegistry();
  bool hasFenceWork() const;
  void pollFences();
  EmulatedFence* fenceOf(ObjectId id, DeviceState* device, const char* method);
  void completeSignal(EmulatedFence* fence, uint64_t value);
  // The shared resources (without a keyed mutex) this context wrote reach their sections
  // (at Signal, Flush, Present); the others take what other contexts published.
  void publishWrittenResources();
  void refreshSharedResources();
  // Write tracking (sharing_writes.cpp): every command that writes a resource names what
  // it writes, on the context it runs on; no-ops until the context uses fences or sharing.
  void noteWrite(ObjectId self, ID3D11DeviceContext* context, ID3D11Resource* resource);
  void noteViewWrite(ObjectId self, ID3D11DeviceContext* context, ID3D11View* view);
  // Draws (dispatch false) and dispatches: the outputs bound on `context`.
  void noteBoundOutputWrites(ObjectId self, ID3D11DeviceContext* context, bool dispatch);
  void noteCommandListFinished(ObjectId self, ObjectId list);
  // A deferred context created while writes are tracked: everything it records is known.
  void noteDeferredContextCreated(ObjectId id);
  void noteCommandListExecuted(ObjectId self, ID3D11DeviceContext* context, ObjectId list);
  void markSharedWritten(ID3D11Resource* resource);
  DeferredRecord* deferredRecordOf(ObjectId self, ID3D11DeviceContext* context);
  // A destroyed id / a fatal context: registry references, held keyed mutexes.
  void forgetShared(ObjectId id);
  void dropSharing();

  ExecutorOptions m_options;
  std::unique_ptr<backends::Backend> m_backend;
  backends::BackendStatus m_backendStatus;
  objects::ObjectTable m_table;
  FatalError m_fatal;
  uint64_t m_droppedCalls = 0;
  // The rule code of the last failed admit(), until insertFailed reports it (0: the backend).
  uint32_t m_refusingRule = 0;
  // Caps of the backend (one snapshot per context, shared by its devices) and the
  // serialized host info.
  std::shared_ptr<backends::CapsSnapshot> m_caps;
  std::vector<uint8_t> m_hostInfo;
  std::vector<uint8_t> m_mapReply;          // Map bytes until the decoder encodes the reply
  std::vector<uint8_t> m_payloadCopy;       // bulk payloads copied out of shared memory
  std::vector<ObjectId> m_pendingQueries;   // queries with an End whose result is not pushed yet
  std::unique_ptr<Presenter> m_presenter;
  std::unique_ptr<SharingState> m_sharing;   // created by the first fence or shared resource
};

// A new executor with the environment's backend choice; the server's executor mode.
std::unique_ptr<Executor> createExecutor(ExecutorOptions options);

}  // namespace npt::executor
