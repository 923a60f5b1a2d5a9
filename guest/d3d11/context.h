// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <vector>

#include "buffer.h"
#include "d3d11_child.h"
#include "query.h"
#include "shaders.h"
#include "states.h"
#include "views.h"

// The immediate context and deferred contexts (…Context4). Every state setter
// records its command and updates the guest-side state that the getters answer from
// (with AddRef of what they return); bindings hold private references, so the public
// counts the application sees are Windows'. A deferred context records onto a ring of
// its own (Runtime::acquireDeferredStream), addressed to its host deferred context;
// FinishCommandList creates the host command list with a guest id and submits the ring,
// and ExecuteCommandList makes the executing context's ring wait for that point of it.
namespace npt::guest {

// A constant buffer bound without a range reads as 4096 constants from 0 (Windows
// reports that for every such slot, bound or not, whatever the buffer's size).
constexpr UINT kWholeConstantBuffer = D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT;

constexpr std::array<UINT, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> wholeConstantBuffers() {
  std::array<UINT, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> counts{};
  for (UINT& count : counts)
    count = kWholeConstantBuffer;
  return counts;
}

template<typename ShaderClass>
struct StageState {
  Binding<ShaderClass> shader;
  std::vector<Binding<ClassInstance>> instances;
  std::array<Binding<Buffer>, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> constantBuffers;
  std::array<UINT, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> firstConstant = {};
  std::array<UINT, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> numConstants = wholeConstantBuffers();
  std::array<Binding<ShaderResourceView>, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT> shaderResources;
  std::array<Binding<SamplerState>, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT> samplers;
};

struct ContextState {
  StageState<VertexShader> vs;
  StageState<HullShader> hs;
  StageState<DomainShader> ds;
  StageState<GeometryShader> gs;
  StageState<PixelShader> ps;
  StageState<ComputeShader> cs;

  Binding<InputLayout> inputLayout;
  std::array<Binding<Buffer>, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertexBuffers;
  std::array<UINT, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertexStrides = {};
  std::array<UINT, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertexOffsets = {};
  Binding<Buffer> indexBuffer;
  DXGI_FORMAT indexFormat = DXGI_FORMAT_UNKNOWN;
  UINT indexOffset = 0;
  D3D11_PRIMITIVE_TOPOLOGY topology = D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;

  Binding<RasterizerState> rasterizer;
  UINT viewportCount = 0;
  std::array<D3D11_VIEWPORT, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE> viewports = {};
  UINT scissorCount = 0;
  std::array<D3D11_RECT, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE> scissors = {};

  std::array<Binding<RenderTargetView>, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT> renderTargets;
  Binding<DepthStencilView> depthStencil;
  std::array<Binding<UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT> pixelUavs;
  std::array<Binding<UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT> computeUavs;
  Binding<BlendState> blendState;
  std::array<FLOAT, 4> blendFactor = { 1.0f, 1.0f, 1.0f, 1.0f };
  UINT sampleMask = 0xffffffffu;
  Binding<DepthStencilState> depthStencilState;
  UINT stencilRef = 0;

  std::array<Binding<Buffer>, D3D11_SO_BUFFER_SLOT_COUNT> streamOutTargets;
  Binding<Query> predicate;
  BOOL predicateValue = FALSE;
};

class Context;
class DeviceContextState;

// ID3DUserDefinedAnnotation and ID3D11Multithread of a context: separate COM faces
// (EndEvent's signature differs from ID3D11DeviceContext2's) whose references are
// the context's.
class ContextAnnotation final : public ID3DUserDefinedAnnotation {
public:
  explicit ContextAnnotation(Context* context) : m_context(context) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  INT STDMETHODCALLTYPE BeginEvent(LPCWSTR name) override;
  INT STDMETHODCALLTYPE EndEvent() override;
  void STDMETHODCALLTYPE SetMarker(LPCWSTR name) override;
  WINBOOL STDMETHODCALLTYPE GetStatus() override { return FALSE; }

private:
  Context* m_context;
};

class ContextMultithread final : public ID3D11Multithread {
public:
  explicit ContextMultithread(Context* context) : m_context(context) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  void STDMETHODCALLTYPE Enter() override;
  void STDMETHODCALLTYPE Leave() override;
  WINBOOL STDMETHODCALLTYPE SetMultithreadProtected(WINBOOL enable) override;
  WINBOOL STDMETHODCALLTYPE GetMultithreadProtected() override;

private:
  Context* m_context;
};

class Context final : public D3D11Child<ID3D11DeviceContext4> {
public:
  Context(Device* device, protocol::ObjectId id, D3D11_DEVICE_CONTEXT_TYPE type, UINT flags);
  ~Context() override;

  // The device drops the immediate context's bindings before it goes away (the active
  // context state object holds bindings too).
  void releaseBindings();

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;

  // ID3D11DeviceContext (parent ID3D11DeviceChild)
  void STDMETHODCALLTYPE VSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers) override;
  void STDMETHODCALLTYPE PSSetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView *const *ppShaderResourceViews) override;
  void STDMETHODCALLTYPE PSSetShader(ID3D11PixelShader *pPixelShader, ID3D11ClassInstance *const *ppClassInstances, UINT NumClassInstances) override;
  void STDMETHODCALLTYPE PSSetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState *const *ppSamplers) override;
  void STDMETHODCALLTYPE VSSetShader(ID3D11VertexShader *pVertexShader, ID3D11ClassInstance *const *ppClassInstances, UINT NumClassInstances) override;
  void STDMETHODCALLTYPE DrawIndexed(UINT IndexCount, UINT StartIndexLocation, INT BaseVertexLocation) override;
  void STDMETHODCALLTYPE Draw(UINT VertexCount, UINT StartVertexLocation) override;
  HRESULT STDMETHODCALLTYPE Map(ID3D11Resource *pResource, UINT Subresource, D3D11_MAP MapType, UINT MapFlags, D3D11_MAPPED_SUBRESOURCE *pMappedResource) override;
  void STDMETHODCALLTYPE Unmap(ID3D11Resource *pResource, UINT Subresource) override;
  void STDMETHODCALLTYPE PSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers) override;
  void STDMETHODCALLTYPE IASetInputLayout(ID3D11InputLayout *pInputLayout) override;
  void STDMETHODCALLTYPE IASetVertexBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppVertexBuffers, const UINT *pStrides, const UINT *pOffsets) override;
  void STDMETHODCALLTYPE IASetIndexBuffer(ID3D11Buffer *pIndexBuffer, DXGI_FORMAT Format, UINT Offset) override;
  void STDMETHODCALLTYPE DrawIndexedInstanced(UINT IndexCountPerInstance, UINT InstanceCount, UINT StartIndexLocation, INT BaseVertexLocation, UINT StartInstanceLocation) override;
  void STDMETHODCALLTYPE DrawInstanced(UINT VertexCountPerInstance, UINT InstanceCount, UINT StartVertexLocation, UINT StartInstanceLocation) override;
  void STDMETHODCALLTYPE GSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers) override;
  void STDMETHODCALLTYPE GSSetShader(ID3D11GeometryShader *pShader, ID3D11ClassInstance *const *ppClassInstances, UINT NumClassInstances) override;
  void STDMETHODCALLTYPE IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY Topology) override;
  void STDMETHODCALLTYPE VSSetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView *const *ppShaderResourceViews) override;
  void STDMETHODCALLTYPE VSSetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState *const *ppSamplers) override;
  void STDMETHODCALLTYPE Begin(ID3D11Asynchronous *pAsync) override;
  void STDMETHODCALLTYPE End(ID3D11Asynchronous *pAsync) override;
  HRESULT STDMETHODCALLTYPE GetData(ID3D11Asynchronous *pAsync, void *pData, UINT DataSize, UINT GetDataFlags) override;
  void STDMETHODCALLTYPE SetPredication(ID3D11Predicate *pPredicate, WINBOOL PredicateValue) override;
  void STDMETHODCALLTYPE GSSetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView *const *ppShaderResourceViews) override;
  void STDMETHODCALLTYPE GSSetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState *const *ppSamplers) override;
  void STDMETHODCALLTYPE OMSetRenderTargets(UINT NumViews, ID3D11RenderTargetView *const *ppRenderTargetViews, ID3D11DepthStencilView *pDepthStencilView) override;
  void STDMETHODCALLTYPE OMSetRenderTargetsAndUnorderedAccessViews(UINT NumRTVs, ID3D11RenderTargetView *const *ppRenderTargetViews, ID3D11DepthStencilView *pDepthStencilView, UINT UAVStartSlot, UINT NumUAVs, ID3D11UnorderedAccessView *const *ppUnorderedAccessViews, const UINT *pUAVInitialCounts) override;
  void STDMETHODCALLTYPE OMSetBlendState(ID3D11BlendState *pBlendState, const FLOAT BlendFactor[4], UINT SampleMask) override;
  void STDMETHODCALLTYPE OMSetDepthStencilState(ID3D11DepthStencilState *pDepthStencilState, UINT StencilRef) override;
  void STDMETHODCALLTYPE SOSetTargets(UINT NumBuffers, ID3D11Buffer *const *ppSOTargets, const UINT *pOffsets) override;
  void STDMETHODCALLTYPE DrawAuto() override;
  void STDMETHODCALLTYPE DrawIndexedInstancedIndirect(ID3D11Buffer *pBufferForArgs, UINT AlignedByteOffsetForArgs) override;
  void STDMETHODCALLTYPE DrawInstancedIndirect(ID3D11Buffer *pBufferForArgs, UINT AlignedByteOffsetForArgs) override;
  void STDMETHODCALLTYPE Dispatch(UINT ThreadGroupCountX, UINT ThreadGroupCountY, UINT ThreadGroupCountZ) override;
  void STDMETHODCALLTYPE DispatchIndirect(ID3D11Buffer *pBufferForArgs, UINT AlignedByteOffsetForArgs) override;
  void STDMETHODCALLTYPE RSSetState(ID3D11RasterizerState *pRasterizerState) override;
  void STDMETHODCALLTYPE RSSetViewports(UINT NumViewports, const D3D11_VIEWPORT *pViewports) override;
  void STDMETHODCALLTYPE RSSetScissorRects(UINT NumRects, const D3D11_RECT *pRects) override;
  void STDMETHODCALLTYPE CopySubresourceRegion(ID3D11Resource *pDstResource, UINT DstSubresource, UINT DstX, UINT DstY, UINT DstZ, ID3D11Resource *pSrcResource, UINT SrcSubresource, const D3D11_BOX *pSrcBox) override;
  void STDMETHODCALLTYPE CopyResource(ID3D11Resource *pDstResource, ID3D11Resource *pSrcResource) override;
  void STDMETHODCALLTYPE UpdateSubresource(ID3D11Resource *pDstResource, UINT DstSubresource, const D3D11_BOX *pDstBox, const void *pSrcData, UINT SrcRowPitch, UINT SrcDepthPitch) override;
  void STDMETHODCALLTYPE CopyStructureCount(ID3D11Buffer *pDstBuffer, UINT DstAlignedByteOffset, ID3D11UnorderedAccessView *pSrcView) override;
  void STDMETHODCALLTYPE ClearRenderTargetView(ID3D11RenderTargetView *pRenderTargetView, const FLOAT ColorRGBA[4]) override;
  void STDMETHODCALLTYPE ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView *pUnorderedAccessView, const UINT Values[4]) override;
  void STDMETHODCALLTYPE ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView *pUnorderedAccessView, const FLOAT Values[4]) override;
  void STDMETHODCALLTYPE ClearDepthStencilView(ID3D11DepthStencilView *pDepthStencilView, UINT ClearFlags, FLOAT Depth, UINT8 Stencil) override;
  void STDMETHODCALLTYPE GenerateMips(ID3D11ShaderResourceView *pShaderResourceView) override;
  void STDMETHODCALLTYPE SetResourceMinLOD(ID3D11Resource *pResource, FLOAT MinLOD) override;
  FLOAT STDMETHODCALLTYPE GetResourceMinLOD(ID3D11Resource *pResource) override;
  void STDMETHODCALLTYPE ResolveSubresource(ID3D11Resource *pDstResource, UINT DstSubresource, ID3D11Resource *pSrcResource, UINT SrcSubresource, DXGI_FORMAT Format) override;
  void STDMETHODCALLTYPE ExecuteCommandList(ID3D11CommandList *pCommandList, WINBOOL RestoreContextState) override;
  void STDMETHODCALLTYPE HSSetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView *const *ppShaderResourceViews) override;
  void STDMETHODCALLTYPE HSSetShader(ID3D11HullShader *pHullShader, ID3D11ClassInstance *const *ppClassInstances, UINT NumClassInstances) override;
  void STDMETHODCALLTYPE HSSetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState *const *ppSamplers) override;
  void STDMETHODCALLTYPE HSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers) override;
  void STDMETHODCALLTYPE DSSetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView *const *ppShaderResourceViews) override;
  void STDMETHODCALLTYPE DSSetShader(ID3D11DomainShader *pDomainShader, ID3D11ClassInstance *const *ppClassInstances, UINT NumClassInstances) override;
  void STDMETHODCALLTYPE DSSetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState *const *ppSamplers) override;
  void STDMETHODCALLTYPE DSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers) override;
  void STDMETHODCALLTYPE CSSetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView *const *ppShaderResourceViews) override;
  void STDMETHODCALLTYPE CSSetUnorderedAccessViews(UINT StartSlot, UINT NumUAVs, ID3D11UnorderedAccessView *const *ppUnorderedAccessViews, const UINT *pUAVInitialCounts) override;
  void STDMETHODCALLTYPE CSSetShader(ID3D11ComputeShader *pComputeShader, ID3D11ClassInstance *const *ppClassInstances, UINT NumClassInstances) override;
  void STDMETHODCALLTYPE CSSetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState *const *ppSamplers) override;
  void STDMETHODCALLTYPE CSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers) override;
  void STDMETHODCALLTYPE VSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers) override;
  void STDMETHODCALLTYPE PSGetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView **ppShaderResourceViews) override;
  void STDMETHODCALLTYPE PSGetShader(ID3D11PixelShader **ppPixelShader, ID3D11ClassInstance **ppClassInstances, UINT *pNumClassInstances) override;
  void STDMETHODCALLTYPE PSGetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState **ppSamplers) override;
  void STDMETHODCALLTYPE VSGetShader(ID3D11VertexShader **ppVertexShader, ID3D11ClassInstance **ppClassInstances, UINT *pNumClassInstances) override;
  void STDMETHODCALLTYPE PSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers) override;
  void STDMETHODCALLTYPE IAGetInputLayout(ID3D11InputLayout **ppInputLayout) override;
  void STDMETHODCALLTYPE IAGetVertexBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppVertexBuffers, UINT *pStrides, UINT *pOffsets) override;
  void STDMETHODCALLTYPE IAGetIndexBuffer(ID3D11Buffer **pIndexBuffer, DXGI_FORMAT *Format, UINT *Offset) override;
  void STDMETHODCALLTYPE GSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers) override;
  void STDMETHODCALLTYPE GSGetShader(ID3D11GeometryShader **ppGeometryShader, ID3D11ClassInstance **ppClassInstances, UINT *pNumClassInstances) override;
  void STDMETHODCALLTYPE IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY *pTopology) override;
  void STDMETHODCALLTYPE VSGetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView **ppShaderResourceViews) override;
  void STDMETHODCALLTYPE VSGetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState **ppSamplers) override;
  void STDMETHODCALLTYPE GetPredication(ID3D11Predicate **ppPredicate, WINBOOL *pPredicateValue) override;
  void STDMETHODCALLTYPE GSGetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView **ppShaderResourceViews) override;
  void STDMETHODCALLTYPE GSGetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState **ppSamplers) override;
  void STDMETHODCALLTYPE OMGetRenderTargets(UINT NumViews, ID3D11RenderTargetView **ppRenderTargetViews, ID3D11DepthStencilView **ppDepthStencilView) override;
  void STDMETHODCALLTYPE OMGetRenderTargetsAndUnorderedAccessViews(UINT NumRTVs, ID3D11RenderTargetView **ppRenderTargetViews, ID3D11DepthStencilView **ppDepthStencilView, UINT UAVStartSlot, UINT NumUAVs, ID3D11UnorderedAccessView **ppUnorderedAccessViews) override;
  void STDMETHODCALLTYPE OMGetBlendState(ID3D11BlendState **ppBlendState, FLOAT BlendFactor[4], UINT *pSampleMask) override;
  void STDMETHODCALLTYPE OMGetDepthStencilState(ID3D11DepthStencilState **ppDepthStencilState, UINT *pStencilRef) override;
  void STDMETHODCALLTYPE SOGetTargets(UINT NumBuffers, ID3D11Buffer **ppSOTargets) override;
  void STDMETHODCALLTYPE RSGetState(ID3D11RasterizerState **ppRasterizerState) override;
  void STDMETHODCALLTYPE RSGetViewports(UINT *pNumViewports, D3D11_VIEWPORT *pViewports) override;
  void STDMETHODCALLTYPE RSGetScissorRects(UINT *pNumRects, D3D11_RECT *pRects) override;
  void STDMETHODCALLTYPE HSGetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView **ppShaderResourceViews) override;
  void STDMETHODCALLTYPE HSGetShader(ID3D11HullShader **ppHullShader, ID3D11ClassInstance **ppClassInstances, UINT *pNumClassInstances) override;
  void STDMETHODCALLTYPE HSGetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState **ppSamplers) override;
  void STDMETHODCALLTYPE HSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers) override;
  void STDMETHODCALLTYPE DSGetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView **ppShaderResourceViews) override;
  void STDMETHODCALLTYPE DSGetShader(ID3D11DomainShader **ppDomainShader, ID3D11ClassInstance **ppClassInstances, UINT *pNumClassInstances) override;
  void STDMETHODCALLTYPE DSGetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState **ppSamplers) override;
  void STDMETHODCALLTYPE DSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers) override;
  void STDMETHODCALLTYPE CSGetShaderResources(UINT StartSlot, UINT NumViews, ID3D11ShaderResourceView **ppShaderResourceViews) override;
  void STDMETHODCALLTYPE CSGetUnorderedAccessViews(UINT StartSlot, UINT NumUAVs, ID3D11UnorderedAccessView **ppUnorderedAccessViews) override;
  void STDMETHODCALLTYPE CSGetShader(ID3D11ComputeShader **ppComputeShader, ID3D11ClassInstance **ppClassInstances, UINT *pNumClassInstances) override;
  void STDMETHODCALLTYPE CSGetSamplers(UINT StartSlot, UINT NumSamplers, ID3D11SamplerState **ppSamplers) override;
  void STDMETHODCALLTYPE CSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers) override;
  void STDMETHODCALLTYPE ClearState() override;
  void STDMETHODCALLTYPE Flush() override;
  D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE GetType() override;
  UINT STDMETHODCALLTYPE GetContextFlags() override;
  HRESULT STDMETHODCALLTYPE FinishCommandList(WINBOOL RestoreDeferredContextState, ID3D11CommandList **ppCommandList) override;
  // ID3D11DeviceContext1 (parent ID3D11DeviceContext)
  void STDMETHODCALLTYPE CopySubresourceRegion1(ID3D11Resource *pDstResource, UINT DstSubresource, UINT DstX, UINT DstY, UINT DstZ, ID3D11Resource *pSrcResource, UINT SrcSubresource, const D3D11_BOX *pSrcBox, UINT CopyFlags) override;
  void STDMETHODCALLTYPE UpdateSubresource1(ID3D11Resource *pDstResource, UINT DstSubresource, const D3D11_BOX *pDstBox, const void *pSrcData, UINT SrcRowPitch, UINT SrcDepthPitch, UINT CopyFlags) override;
  void STDMETHODCALLTYPE DiscardResource(ID3D11Resource *pResource) override;
  void STDMETHODCALLTYPE DiscardView(ID3D11View *pResourceView) override;
  void STDMETHODCALLTYPE VSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers, const UINT *pFirstConstant, const UINT *pNumConstants) override;
  void STDMETHODCALLTYPE HSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers, const UINT *pFirstConstant, const UINT *pNumConstants) override;
  void STDMETHODCALLTYPE DSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers, const UINT *pFirstConstant, const UINT *pNumConstants) override;
  void STDMETHODCALLTYPE GSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers, const UINT *pFirstConstant, const UINT *pNumConstants) override;
  void STDMETHODCALLTYPE PSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers, const UINT *pFirstConstant, const UINT *pNumConstants) override;
  void STDMETHODCALLTYPE CSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer *const *ppConstantBuffers, const UINT *pFirstConstant, const UINT *pNumConstants) override;
  void STDMETHODCALLTYPE VSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers, UINT *pFirstConstant, UINT *pNumConstants) override;
  void STDMETHODCALLTYPE HSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers, UINT *pFirstConstant, UINT *pNumConstants) override;
  void STDMETHODCALLTYPE DSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers, UINT *pFirstConstant, UINT *pNumConstants) override;
  void STDMETHODCALLTYPE GSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers, UINT *pFirstConstant, UINT *pNumConstants) override;
  void STDMETHODCALLTYPE PSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers, UINT *pFirstConstant, UINT *pNumConstants) override;
  void STDMETHODCALLTYPE CSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, ID3D11Buffer **ppConstantBuffers, UINT *pFirstConstant, UINT *pNumConstants) override;
  void STDMETHODCALLTYPE SwapDeviceContextState(ID3DDeviceContextState *pState, ID3DDeviceContextState **ppPreviousState) override;
  void STDMETHODCALLTYPE ClearView(ID3D11View *pView, const FLOAT Color[4], const D3D11_RECT *pRect, UINT NumRects) override;
  void STDMETHODCALLTYPE DiscardView1(ID3D11View *pResourceView, const D3D11_RECT *pRects, UINT NumRects) override;
  // ID3D11DeviceContext2 (parent ID3D11DeviceContext1)
  HRESULT STDMETHODCALLTYPE UpdateTileMappings(ID3D11Resource *resource, UINT region_count, const D3D11_TILED_RESOURCE_COORDINATE *region_start_coordinates, const D3D11_TILE_REGION_SIZE *region_sizes, ID3D11Buffer *pool, UINT range_count, const UINT *range_flags, const UINT *pool_start_offsets, const UINT *range_tile_counts, UINT flags) override;
  HRESULT STDMETHODCALLTYPE CopyTileMappings(ID3D11Resource *dst_resource, const D3D11_TILED_RESOURCE_COORDINATE *dst_start_coordinate, ID3D11Resource *src_resource, const D3D11_TILED_RESOURCE_COORDINATE *src_start_coordinate, const D3D11_TILE_REGION_SIZE *region_size, UINT flags) override;
  void STDMETHODCALLTYPE CopyTiles(ID3D11Resource *resource, const D3D11_TILED_RESOURCE_COORDINATE *start_coordinate, const D3D11_TILE_REGION_SIZE *size, ID3D11Buffer *buffer, UINT64 start_offset, UINT flags) override;
  void STDMETHODCALLTYPE UpdateTiles(ID3D11Resource *dst_resource, const D3D11_TILED_RESOURCE_COORDINATE *dst_start_coordinate, const D3D11_TILE_REGION_SIZE *dst_region_size, const void *src_data, UINT flags) override;
  HRESULT STDMETHODCALLTYPE ResizeTilePool(ID3D11Buffer *pool, UINT64 size) override;
  void STDMETHODCALLTYPE TiledResourceBarrier(ID3D11DeviceChild *before_barrier, ID3D11DeviceChild *after_barrier) override;
  WINBOOL STDMETHODCALLTYPE IsAnnotationEnabled() override;
  void STDMETHODCALLTYPE SetMarkerInt(const WCHAR *label, int data) override;
  void STDMETHODCALLTYPE BeginEventInt(const WCHAR *label, int data) override;
  void STDMETHODCALLTYPE EndEvent() override;
  // ID3D11DeviceContext3 (parent ID3D11DeviceContext2)
  void STDMETHODCALLTYPE Flush1(D3D11_CONTEXT_TYPE type, HANDLE event) override;
  void STDMETHODCALLTYPE SetHardwareProtectionState(WINBOOL enable) override;
  void STDMETHODCALLTYPE GetHardwareProtectionState(WINBOOL *enable) override;
  // ID3D11DeviceContext4 (parent ID3D11DeviceContext3)
  HRESULT STDMETHODCALLTYPE Signal(ID3D11Fence *fence, UINT64 value) override;
  HRESULT STDMETHODCALLTYPE Wait(ID3D11Fence *fence, UINT64 value) override;

private:
  template<typename Encode>
  HRESULT record(Encode&& encode) { return m_stream->record(m_statistics, encode); }
  void resetState();
  // Records the setters that bring a cleared context to `state` (context_state.cpp).
  void applyState(const ContextState& state);
  void flushStream();

  template<typename ShaderClass, typename Interface>
  void setShader(StageState<ShaderClass>& stage, Interface* shader, ID3D11ClassInstance* const* instances, UINT count);
  template<typename ShaderClass, typename Interface>
  void getShader(StageState<ShaderClass>& stage, Interface** shader, ID3D11ClassInstance** instances, UINT* count);
  template<typename ShaderClass>
  bool setConstantBuffers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11Buffer* const* buffers,
                          const UINT* first, const UINT* num, protocol::ObjectId* ids);
  template<typename ShaderClass>
  void getConstantBuffers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11Buffer** buffers,
                          UINT* first, UINT* num);
  template<typename ShaderClass>
  bool setShaderResources(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11ShaderResourceView* const* views,
                          protocol::ObjectId* ids);
  template<typename ShaderClass>
  void getShaderResources(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11ShaderResourceView** views);
  template<typename ShaderClass>
  bool setSamplers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11SamplerState* const* samplers,
                   protocol::ObjectId* ids);
  template<typename ShaderClass>
  void getSamplers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11SamplerState** samplers);
  bool setUavs(std::array<Binding<UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT>& slots, UINT start, UINT count,
               ID3D11UnorderedAccessView* const* views, protocol::ObjectId* ids);

  bool noOverwriteAllowed(const ResourceInfo& info) const;
  HRESULT mapGuestStaged(ResourceState& state, UINT subresource, D3D11_MAP type, D3D11_MAPPED_SUBRESOURCE* mapped);
  HRESULT callSyncMap(ID3D11Resource* resource, ResourceState& state, UINT subresource, D3D11_MAP type, UINT flags,
                      D3D11_MAPPED_SUBRESOURCE* mapped);
  void updateSubresource(ID3D11Resource* resource, UINT subresource, const D3D11_BOX* box, const void* data,
                         UINT rowPitch, UINT depthPitch, UINT copyFlags, bool version1);

  D3D11_DEVICE_CONTEXT_TYPE m_type;
  UINT m_flags;
  ContextState m_state;
  // The ID3DDeviceContextState whose state the context holds now (null until the first
  // SwapDeviceContextState, which makes one for the device's own state).
  Binding<DeviceContextState> m_activeState;
  ContextAnnotation m_annotation;
  ContextMultithread m_multithread;
  // Deferred contexts map DYNAMIC resources into memory of their own: the bytes travel
  // with the recorded Unmap, independent of what the immediate context does meanwhile.
  struct DeferredMap {
    ResourceState* resource;
    UINT subresource;
    std::vector<uint8_t> bytes;
  };
  std::vector<DeferredMap> m_deferredMaps;
  // Ring 0's stream for the immediate context, a deferred ring's for a deferred one.
  CommandStream* m_stream;
};

}
