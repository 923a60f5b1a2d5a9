// SPDX-License-Identifier: MIT
#pragma once

// The contexts. The immediate context maps every ID3D11DeviceContext call onto the
// driver's DDI and keeps the API-visible state (getters, ClearState, the state a
// command list's execution saves and restores). Deferred contexts are the runtime's
// emulation for a driver that does not advertise command lists: they record calls and
// ExecuteCommandList replays them on the immediate context.

#include <array>
#include <vector>

#include "objects.h"

namespace triton::runtime {

enum Stage : UINT { VS, HS, DS, GS, PS, CS, kStageCount };

// One binding: the interface the getters hand out and a private reference.
template <class Interface>
struct Slot {
  Interface* iface = nullptr;
  Bound<ChildBase> ref;
  template <class Concrete>
  void set(Interface* object) {
    iface = object;
    ref = object ? static_cast<ChildBase*>(static_cast<Concrete*>(object)) : nullptr;
  }
  void get(Interface** out) const {
    if (iface)
      iface->AddRef();
    *out = iface;
  }
};

struct StageState {
  Slot<ID3D11DeviceChild> shader;
  ddi::D3D10DDI_HSHADER shaderHandle{};
  std::vector<Slot<ID3D11ClassInstance>> classInstances;   // one per interface slot bound
  std::array<Slot<ID3D11Buffer>, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> constantBuffers;
  // The D3D11.1 range of each constant-buffer slot bound with one (first constant, count).
  std::array<bool, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> ranged{};
  std::array<UINT, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT> firstConstant{}, numConstants{};
  std::array<Slot<ID3D11ShaderResourceView>, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT> views;
  std::array<Slot<ID3D11SamplerState>, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT> samplers;
};

struct PipelineState {
  PipelineState();
  std::array<StageState, kStageCount> stages;
  std::array<Slot<ID3D11UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT> computeUavs;
  Slot<ID3D11InputLayout> inputLayout;
  std::array<Slot<ID3D11Buffer>, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertexBuffers;
  std::array<UINT, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> strides{}, offsets{};
  Slot<ID3D11Buffer> indexBuffer;
  DXGI_FORMAT indexFormat = DXGI_FORMAT_UNKNOWN;
  UINT indexOffset = 0;
  D3D11_PRIMITIVE_TOPOLOGY topology = D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;
  std::array<Slot<ID3D11RenderTargetView>, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT> renderTargets;
  Slot<ID3D11DepthStencilView> depthStencil;
  std::array<Slot<ID3D11UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT> outputUavs;
  Slot<ID3D11BlendState> blend;
  FLOAT blendFactor[4] = {1, 1, 1, 1};
  UINT sampleMask = 0xffffffff;
  Slot<ID3D11DepthStencilState> depthState;
  UINT stencilRef = 0;
  Slot<ID3D11RasterizerState> rasterizer;
  std::vector<D3D11_VIEWPORT> viewports;
  std::vector<D3D11_RECT> scissors;
  std::array<Slot<ID3D11Buffer>, D3D11_SO_BUFFER_SLOT_COUNT> streamOutput;
  Slot<ID3D11Predicate> predicate;
  BOOL predicateValue = FALSE;
};

// ID3DUserDefinedAnnotation of a context: a face whose references are the context's.
// Outside a Direct3D profiling tool Windows' runtime answers -1 and records nothing, and
// the DDI has no entry for the events.
class ContextAnnotation final : public ID3DUserDefinedAnnotation {
public:
  explicit ContextAnnotation(ID3D11DeviceContext* context) : context_(context) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override { return context_->QueryInterface(riid, out); }
  ULONG STDMETHODCALLTYPE AddRef() override { return context_->AddRef(); }
  ULONG STDMETHODCALLTYPE Release() override { return context_->Release(); }
  INT STDMETHODCALLTYPE BeginEvent(LPCWSTR) override { return -1; }
  INT STDMETHODCALLTYPE EndEvent() override { return -1; }
  void STDMETHODCALLTYPE SetMarker(LPCWSTR) override {}
  BOOL STDMETHODCALLTYPE GetStatus() override { return FALSE; }

private:
  ID3D11DeviceContext* context_;
};

// What the per-stage methods of both contexts share.
// ID3D11DeviceContext1's members that are not a stage's have defaults for a context that
// cannot pass them on (the runtime's emulated deferred context): the copy/update flags
// are hints and promises the copy keeps without them, a discard may keep the contents.
class ContextBase : public Child<ID3D11DeviceContext1> {
public:
  ContextBase(Device* device, bool holdsDevice) : Child(device, holdsDevice) {}

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (out && riid == __uuidof(ID3DUserDefinedAnnotation)) {
      AddRef();
      *out = static_cast<ID3DUserDefinedAnnotation*>(&annotation_);
      return S_OK;
    }
    return Child::QueryInterface(riid, out);
  }

  virtual void setShader(Stage stage, ID3D11DeviceChild* shader, ID3D11ClassInstance* const* instances, UINT count) = 0;
  // first/num: the D3D11.1 ranges in constants (both null: whole buffers).
  virtual void setConstantBuffers(Stage stage, UINT start, UINT count, ID3D11Buffer* const* buffers,
                                  const UINT* first = nullptr, const UINT* num = nullptr) = 0;
  virtual void setShaderResources(Stage stage, UINT start, UINT count, ID3D11ShaderResourceView* const* views) = 0;
  virtual void setSamplers(Stage stage, UINT start, UINT count, ID3D11SamplerState* const* samplers) = 0;
  virtual void getShader(Stage stage, ID3D11DeviceChild** shader, ID3D11ClassInstance** instances, UINT* count) = 0;
  virtual void getConstantBuffers(Stage stage, UINT start, UINT count, ID3D11Buffer** buffers, UINT* first = nullptr,
                                  UINT* num = nullptr) = 0;
  virtual void getShaderResources(Stage stage, UINT start, UINT count, ID3D11ShaderResourceView** views) = 0;
  virtual void getSamplers(Stage stage, UINT start, UINT count, ID3D11SamplerState** samplers) = 0;

#define TRITON_STAGE_METHODS(P, S, Interface)                                                                        \
  void STDMETHODCALLTYPE P##SetShader(Interface* s, ID3D11ClassInstance* const* i, UINT n) override {                \
    setShader(S, s, i, n);                                                                                           \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##SetConstantBuffers(UINT start, UINT n, ID3D11Buffer* const* b) override {               \
    setConstantBuffers(S, start, n, b);                                                                              \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##SetShaderResources(UINT start, UINT n, ID3D11ShaderResourceView* const* v) override {    \
    setShaderResources(S, start, n, v);                                                                              \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##SetSamplers(UINT start, UINT n, ID3D11SamplerState* const* s) override {                 \
    setSamplers(S, start, n, s);                                                                                     \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##GetShader(Interface** s, ID3D11ClassInstance** i, UINT* n) override {                    \
    ID3D11DeviceChild* child = nullptr;                                                                              \
    getShader(S, &child, i, n);                                                                                      \
    if (s)                                                                                                           \
      *s = static_cast<Interface*>(child);                                                                           \
    else if (child)                                                                                                  \
      child->Release();                                                                                              \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##GetConstantBuffers(UINT start, UINT n, ID3D11Buffer** b) override {                     \
    getConstantBuffers(S, start, n, b);                                                                              \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##GetShaderResources(UINT start, UINT n, ID3D11ShaderResourceView** v) override {          \
    getShaderResources(S, start, n, v);                                                                              \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##GetSamplers(UINT start, UINT n, ID3D11SamplerState** s) override {                       \
    getSamplers(S, start, n, s);                                                                                     \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##SetConstantBuffers1(UINT start, UINT n, ID3D11Buffer* const* b, const UINT* first,       \
                                                const UINT* num) override {                                          \
    setConstantBuffers1(S, start, n, b, first, num);                                                                 \
  }                                                                                                                  \
  void STDMETHODCALLTYPE P##GetConstantBuffers1(UINT start, UINT n, ID3D11Buffer** b, UINT* first, UINT* num)        \
      override {                                                                                                     \
    getConstantBuffers(S, start, n, b, first, num);                                                                  \
  }
  TRITON_STAGE_METHODS(VS, VS, ID3D11VertexShader)
  TRITON_STAGE_METHODS(HS, HS, ID3D11HullShader)
  TRITON_STAGE_METHODS(DS, DS, ID3D11DomainShader)
  TRITON_STAGE_METHODS(GS, GS, ID3D11GeometryShader)
  TRITON_STAGE_METHODS(PS, PS, ID3D11PixelShader)
  TRITON_STAGE_METHODS(CS, CS, ID3D11ComputeShader)
#undef TRITON_STAGE_METHODS

  void STDMETHODCALLTYPE CopySubresourceRegion1(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                                                ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box,
                                                UINT) override {
    CopySubresourceRegion(dst, dstSub, x, y, z, src, srcSub, box);
  }
  void STDMETHODCALLTYPE UpdateSubresource1(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data,
                                            UINT rowPitch, UINT depthPitch, UINT) override {
    UpdateSubresource(dst, sub, box, data, rowPitch, depthPitch);
  }
  void STDMETHODCALLTYPE DiscardResource(ID3D11Resource*) override {}
  void STDMETHODCALLTYPE DiscardView(ID3D11View* view) override { DiscardView1(view, nullptr, 0); }
  void STDMETHODCALLTYPE DiscardView1(ID3D11View*, const D3D11_RECT*, UINT) override {}
  void STDMETHODCALLTYPE ClearView(ID3D11View*, const FLOAT[4], const D3D11_RECT*, UINT) override;
  // Device context states (D3D10/D3D11 interoperation) are not implemented.
  void STDMETHODCALLTYPE SwapDeviceContextState(ID3DDeviceContextState*, ID3DDeviceContextState** previous) override;

protected:
  bool implements(REFIID riid) const override {
    return riid == __uuidof(ID3D11DeviceContext) || riid == __uuidof(ID3D11DeviceContext1);
  }

private:
  ContextAnnotation annotation_{this};
  // *SetConstantBuffers1: the API's rules on ranges, then setConstantBuffers.
  void setConstantBuffers1(Stage stage, UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first,
                           const UINT* num);
};

// A context the driver implements: the immediate context (the device's handle and
// table) or, when the driver offers driver command lists, a deferred context of the
// driver's (its own handle, table and error callback).
class DdiContext final : public ContextBase {
public:
  explicit DdiContext(Device* device);
  static HRESULT createDeferred(Device* device, ID3D11DeviceContext** out);
  ~DdiContext() override;
  // Unbinds everything (the device's destruction drops the context's references).
  void reset() { ClearState(); }
  // ExecuteCommandList's replay of a recorded Map(WRITE_DISCARD) + Unmap.
  void replaceBufferContents(ID3D11Resource* resource, const std::vector<uint8_t>& bytes);
  // The driver's context, for pfnCommandListExecute and pfnCreateCommandList.
  ddi::D3D10DDI_HDEVICE handle() const { return handle_; }
  const ddi::D3D11_1DDI_DEVICEFUNCS& ddi() const { return *funcs_; }

  // The immediate context's references are the device's.
  ULONG STDMETHODCALLTYPE AddRef() override { return deferred_ ? addPublic() : device()->AddRef(); }
  ULONG STDMETHODCALLTYPE Release() override { return deferred_ ? releasePublic() : device()->Release(); }

  void setShader(Stage, ID3D11DeviceChild*, ID3D11ClassInstance* const*, UINT) override;
  void setConstantBuffers(Stage, UINT, UINT, ID3D11Buffer* const*, const UINT*, const UINT*) override;
  void setShaderResources(Stage, UINT, UINT, ID3D11ShaderResourceView* const*) override;
  void setSamplers(Stage, UINT, UINT, ID3D11SamplerState* const*) override;
  void getShader(Stage, ID3D11DeviceChild**, ID3D11ClassInstance**, UINT*) override;
  void getConstantBuffers(Stage, UINT, UINT, ID3D11Buffer**, UINT*, UINT*) override;
  void getShaderResources(Stage, UINT, UINT, ID3D11ShaderResourceView**) override;
  void getSamplers(Stage, UINT, UINT, ID3D11SamplerState**) override;

  void STDMETHODCALLTYPE DrawIndexed(UINT, UINT, INT) override;
  void STDMETHODCALLTYPE Draw(UINT, UINT) override;
  HRESULT STDMETHODCALLTYPE Map(ID3D11Resource*, UINT, D3D11_MAP, UINT, D3D11_MAPPED_SUBRESOURCE*) override;
  void STDMETHODCALLTYPE Unmap(ID3D11Resource*, UINT) override;
  void STDMETHODCALLTYPE IASetInputLayout(ID3D11InputLayout*) override;
  void STDMETHODCALLTYPE IASetVertexBuffers(UINT, UINT, ID3D11Buffer* const*, const UINT*, const UINT*) override;
  void STDMETHODCALLTYPE IASetIndexBuffer(ID3D11Buffer*, DXGI_FORMAT, UINT) override;
  void STDMETHODCALLTYPE DrawIndexedInstanced(UINT, UINT, UINT, INT, UINT) override;
  void STDMETHODCALLTYPE DrawInstanced(UINT, UINT, UINT, UINT) override;
  void STDMETHODCALLTYPE IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY) override;
  void STDMETHODCALLTYPE Begin(ID3D11Asynchronous*) override;
  void STDMETHODCALLTYPE End(ID3D11Asynchronous*) override;
  HRESULT STDMETHODCALLTYPE GetData(ID3D11Asynchronous*, void*, UINT, UINT) override;
  void STDMETHODCALLTYPE SetPredication(ID3D11Predicate*, BOOL) override;
  void STDMETHODCALLTYPE OMSetRenderTargets(UINT, ID3D11RenderTargetView* const*, ID3D11DepthStencilView*) override;
  void STDMETHODCALLTYPE OMSetRenderTargetsAndUnorderedAccessViews(UINT, ID3D11RenderTargetView* const*,
                                                                   ID3D11DepthStencilView*, UINT, UINT,
                                                                   ID3D11UnorderedAccessView* const*,
                                                                   const UINT*) override;
  void STDMETHODCALLTYPE OMSetBlendState(ID3D11BlendState*, const FLOAT[4], UINT) override;
  void STDMETHODCALLTYPE OMSetDepthStencilState(ID3D11DepthStencilState*, UINT) override;
  void STDMETHODCALLTYPE SOSetTargets(UINT, ID3D11Buffer* const*, const UINT*) override;
  void STDMETHODCALLTYPE DrawAuto() override;
  void STDMETHODCALLTYPE DrawIndexedInstancedIndirect(ID3D11Buffer*, UINT) override;
  void STDMETHODCALLTYPE DrawInstancedIndirect(ID3D11Buffer*, UINT) override;
  void STDMETHODCALLTYPE Dispatch(UINT, UINT, UINT) override;
  void STDMETHODCALLTYPE DispatchIndirect(ID3D11Buffer*, UINT) override;
  void STDMETHODCALLTYPE RSSetState(ID3D11RasterizerState*) override;
  void STDMETHODCALLTYPE RSSetViewports(UINT, const D3D11_VIEWPORT*) override;
  void STDMETHODCALLTYPE RSSetScissorRects(UINT, const D3D11_RECT*) override;
  void STDMETHODCALLTYPE CopySubresourceRegion(ID3D11Resource*, UINT, UINT, UINT, UINT, ID3D11Resource*, UINT,
                                               const D3D11_BOX*) override;
  void STDMETHODCALLTYPE CopyResource(ID3D11Resource*, ID3D11Resource*) override;
  void STDMETHODCALLTYPE UpdateSubresource(ID3D11Resource*, UINT, const D3D11_BOX*, const void*, UINT, UINT) override;
  void STDMETHODCALLTYPE CopyStructureCount(ID3D11Buffer*, UINT, ID3D11UnorderedAccessView*) override;
  void STDMETHODCALLTYPE ClearRenderTargetView(ID3D11RenderTargetView*, const FLOAT[4]) override;
  void STDMETHODCALLTYPE ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView*, const UINT[4]) override;
  void STDMETHODCALLTYPE ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView*, const FLOAT[4]) override;
  void STDMETHODCALLTYPE ClearDepthStencilView(ID3D11DepthStencilView*, UINT, FLOAT, UINT8) override;
  void STDMETHODCALLTYPE GenerateMips(ID3D11ShaderResourceView*) override;
  void STDMETHODCALLTYPE SetResourceMinLOD(ID3D11Resource*, FLOAT) override;
  FLOAT STDMETHODCALLTYPE GetResourceMinLOD(ID3D11Resource*) override;
  void STDMETHODCALLTYPE ResolveSubresource(ID3D11Resource*, UINT, ID3D11Resource*, UINT, DXGI_FORMAT) override;
  void STDMETHODCALLTYPE ExecuteCommandList(ID3D11CommandList*, BOOL) override;
  void STDMETHODCALLTYPE CSSetUnorderedAccessViews(UINT, UINT, ID3D11UnorderedAccessView* const*, const UINT*) override;
  void STDMETHODCALLTYPE IAGetInputLayout(ID3D11InputLayout**) override;
  void STDMETHODCALLTYPE IAGetVertexBuffers(UINT, UINT, ID3D11Buffer**, UINT*, UINT*) override;
  void STDMETHODCALLTYPE IAGetIndexBuffer(ID3D11Buffer**, DXGI_FORMAT*, UINT*) override;
  void STDMETHODCALLTYPE IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY*) override;
  void STDMETHODCALLTYPE GetPredication(ID3D11Predicate**, BOOL*) override;
  void STDMETHODCALLTYPE OMGetRenderTargets(UINT, ID3D11RenderTargetView**, ID3D11DepthStencilView**) override;
  void STDMETHODCALLTYPE OMGetRenderTargetsAndUnorderedAccessViews(UINT, ID3D11RenderTargetView**,
                                                                   ID3D11DepthStencilView**, UINT, UINT,
                                                                   ID3D11UnorderedAccessView**) override;
  void STDMETHODCALLTYPE OMGetBlendState(ID3D11BlendState**, FLOAT[4], UINT*) override;
  void STDMETHODCALLTYPE OMGetDepthStencilState(ID3D11DepthStencilState**, UINT*) override;
  void STDMETHODCALLTYPE SOGetTargets(UINT, ID3D11Buffer**) override;
  void STDMETHODCALLTYPE RSGetState(ID3D11RasterizerState**) override;
  void STDMETHODCALLTYPE RSGetViewports(UINT*, D3D11_VIEWPORT*) override;
  void STDMETHODCALLTYPE RSGetScissorRects(UINT*, D3D11_RECT*) override;
  void STDMETHODCALLTYPE CSGetUnorderedAccessViews(UINT, UINT, ID3D11UnorderedAccessView**) override;
  void STDMETHODCALLTYPE ClearState() override;
  void STDMETHODCALLTYPE Flush() override;
  D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE GetType() override {
    return deferred_ ? D3D11_DEVICE_CONTEXT_DEFERRED : D3D11_DEVICE_CONTEXT_IMMEDIATE;
  }
  UINT STDMETHODCALLTYPE GetContextFlags() override { return 0; }
  HRESULT STDMETHODCALLTYPE FinishCommandList(BOOL, ID3D11CommandList**) override;

  // ID3D11DeviceContext1 through the D3D11.1 DDI entries.
  void STDMETHODCALLTYPE CopySubresourceRegion1(ID3D11Resource*, UINT, UINT, UINT, UINT, ID3D11Resource*, UINT,
                                                const D3D11_BOX*, UINT) override;
  void STDMETHODCALLTYPE UpdateSubresource1(ID3D11Resource*, UINT, const D3D11_BOX*, const void*, UINT, UINT,
                                            UINT) override;
  void STDMETHODCALLTYPE DiscardResource(ID3D11Resource*) override;
  void STDMETHODCALLTYPE DiscardView1(ID3D11View*, const D3D11_RECT*, UINT) override;
  void STDMETHODCALLTYPE ClearView(ID3D11View*, const FLOAT[4], const D3D11_RECT*, UINT) override;

private:
  DdiContext(Device* device, std::unique_ptr<harness::DeferredContext> driverContext);
  std::recursive_mutex& lock() { return *lock_; }
  HRESULT takeError();

  // Sends the whole state to the driver (ClearState, a command list's restore).
  void applyState();
  void mapError(HRESULT* result);

  const bool deferred_;
  std::unique_ptr<harness::DeferredContext> driverContext_;   // deferred only
  std::recursive_mutex ownLock_;                               // a deferred context's
  const ddi::D3D11_1DDI_DEVICEFUNCS* funcs_;
  ddi::D3D10DDI_HDEVICE handle_;
  std::recursive_mutex* lock_;
  PipelineState state_;
};

// The runtime's emulation of deferred contexts (deferred_context.cpp).
HRESULT createDeferredContext(Device* device, ID3D11DeviceContext** out);

}  // namespace triton::runtime
