// SPDX-License-Identifier: MIT
// Pipeline state setters of a context: slot ranges and counts within API limits, every
// id resolved to a live object of the context's device.
#include <array>

#include "npt/executor/executor.h"
#include "npt/validation/context_calls.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;
using validation::SlotKind;

namespace {
constexpr UINT kMaxSlots = 128;   // the largest slot range of any setter (shader resources)
// The setters' arrays are left uninitialized: a call with a validated count fills (and the
// backend reads) only its first `count` entries, and clearing 1-2 KB on every bind cost more
// instructions than the backend's own bind (callgrind, many_draws on DXVK).
}

template<typename Set>
void Executor::setShaderResources(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids, Set set) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::ShaderResource, start, count, device->limits), method))
    return;
  std::array<ID3D11ShaderResourceView*, kMaxSlots> views;
  if (!resolveArray(ids, count, InterfaceId::ID3D11ShaderResourceView, device, method, views.data())) return;
  (context->*set)(start, count, views.data());
}

template<typename Set>
void Executor::setSamplers(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids, Set set) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::Sampler, start, count, device->limits), method)) return;
  std::array<ID3D11SamplerState*, kMaxSlots> samplers;
  if (!resolveArray(ids, count, InterfaceId::ID3D11SamplerState, device, method, samplers.data())) return;
  (context->*set)(start, count, samplers.data());
}

template<typename Set>
void Executor::setConstantBuffers(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids, Set set) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::ConstantBuffer, start, count, device->limits), method))
    return;
  std::array<ID3D11Buffer*, kMaxSlots> buffers;
  if (!resolveArray(ids, count, InterfaceId::ID3D11Buffer, device, method, buffers.data())) return;
  (context->*set)(start, count, buffers.data());
}

template<typename Set1, typename Set>
void Executor::setConstantBuffers1(const char* method, ObjectId self, UINT start, UINT count, const ObjectId* ids,
                                   const UINT* first, const UINT* num, Set1 set1, Set set) {
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  if (!context || !admit(validation::validateSlotRange(SlotKind::ConstantBuffer, start, count, device->limits), method))
    return;
  std::array<ID3D11Buffer*, kMaxSlots> buffers;
  if (!resolveArray(ids, count, InterfaceId::ID3D11Buffer, device, method, buffers.data())) return;
  if (state->context1) return (state->context1->*set1)(start, count, buffers.data(), first, num);
  // A backend without ID3D11DeviceContext1 binds whole buffers only: the call without
  // ranges is the 11.0 one; ranges it cannot honour (as an 11.0 runtime without
  // constant-buffer offsetting) are dropped.
  if (first || num) return drop(method, "constant-buffer ranges on a backend without ID3D11DeviceContext1");
  (context->*set)(start, count, buffers.data());
}

template<typename Shader, typename Set>
void Executor::setShader(const char* method, ObjectId self, ObjectId shader, InterfaceId iface,
                         const ObjectId* instances, UINT numInstances, Set set) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::ClassInstance, 0, numInstances, device->limits), method))
    return;
  Shader* backendShader = nullptr;
  Record* record = nullptr;
  if (!resolveAs(shader, iface, true, method, &backendShader, &record)) return;
  if (backendShader && !sameDevice(record, device, shader, method)) return;
  std::array<ID3D11ClassInstance*, 256> classInstances;
  if (!resolveArray(instances, numInstances, InterfaceId::ID3D11ClassInstance, device, method, classInstances.data()))
    return;
  (context->*set)(backendShader, numInstances ? classInstances.data() : nullptr, numInstances);
}

#define NPT_STAGE_SETTERS(Stage, ShaderType)                                                                          \
  void Executor::ID3D11DeviceContext_##Stage##SetShaderResources(ObjectId self, UINT StartSlot, UINT NumViews,        \
                                                                  const ObjectId* ids) {                              \
    setShaderResources(#Stage "SetShaderResources", self, StartSlot, NumViews, ids,                                  \
                       &ID3D11DeviceContext::Stage##SetShaderResources);                                             \
  }                                                                                                                   \
  void Executor::ID3D11DeviceContext_##Stage##SetSamplers(ObjectId self, UINT StartSlot, UINT NumSamplers,            \
                                                           const ObjectId* ids) {                                     \
    setSamplers(#Stage "SetSamplers", self, StartSlot, NumSamplers, ids, &ID3D11DeviceContext::Stage##SetSamplers);   \
  }                                                                                                                   \
  void Executor::ID3D11DeviceContext_##Stage##SetConstantBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers,      \
                                                                  const ObjectId* ids) {                              \
    setConstantBuffers(#Stage "SetConstantBuffers", self, StartSlot, NumBuffers, ids,                                \
                       &ID3D11DeviceContext::Stage##SetConstantBuffers);                                             \
  }                                                                                                                   \
  void Executor::ID3D11DeviceContext1_##Stage##SetConstantBuffers1(ObjectId self, UINT StartSlot, UINT NumBuffers,    \
                                                                    const ObjectId* ids, const UINT* first,           \
                                                                    const UINT* num) {                                \
    setConstantBuffers1(#Stage "SetConstantBuffers1", self, StartSlot, NumBuffers, ids, first, num,                  \
                        &ID3D11DeviceContext1::Stage##SetConstantBuffers1,                                           \
                        &ID3D11DeviceContext::Stage##SetConstantBuffers);                                            \
  }                                                                                                                   \
  void Executor::ID3D11DeviceContext_##Stage##SetShader(ObjectId self, ObjectId shader, const ObjectId* instances,     \
                                                         UINT numInstances) {                                         \
    setShader<ShaderType>(#Stage "SetShader", self, shader, InterfaceId::ShaderType, instances, numInstances,         \
                          &ID3D11DeviceContext::Stage##SetShader);                                                   \
  }

NPT_STAGE_SETTERS(VS, ID3D11VertexShader)
NPT_STAGE_SETTERS(HS, ID3D11HullShader)
NPT_STAGE_SETTERS(DS, ID3D11DomainShader)
NPT_STAGE_SETTERS(GS, ID3D11GeometryShader)
NPT_STAGE_SETTERS(PS, ID3D11PixelShader)
NPT_STAGE_SETTERS(CS, ID3D11ComputeShader)

#undef NPT_STAGE_SETTERS

void Executor::ID3D11DeviceContext_CSSetUnorderedAccessViews(ObjectId self, UINT StartSlot, UINT NumUAVs,
                                                             const ObjectId* ppUnorderedAccessViews,
                                                             const UINT* pUAVInitialCounts) {
  const char* method = "CSSetUnorderedAccessViews";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::UnorderedAccess, StartSlot, NumUAVs, device->limits),
                         method))
    return;
  std::array<ID3D11UnorderedAccessView*, kMaxSlots> views;
  if (!resolveArray(ppUnorderedAccessViews, NumUAVs, InterfaceId::ID3D11UnorderedAccessView, device, method,
                    views.data()))
    return;
  context->CSSetUnorderedAccessViews(StartSlot, NumUAVs, views.data(), pUAVInitialCounts);
}

void Executor::ID3D11DeviceContext_IASetInputLayout(ObjectId self, ObjectId pInputLayout) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "IASetInputLayout", &device);
  ID3D11InputLayout* layout = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pInputLayout, InterfaceId::ID3D11InputLayout, true, "IASetInputLayout", &layout, &record))
    return;
  if (layout && !sameDevice(record, device, pInputLayout, "IASetInputLayout")) return;
  context->IASetInputLayout(layout);
}

void Executor::ID3D11DeviceContext_IASetVertexBuffers(ObjectId self, UINT StartSlot, UINT NumBuffers,
                                                      const ObjectId* ppVertexBuffers, const UINT* pStrides,
                                                      const UINT* pOffsets) {
  const char* method = "IASetVertexBuffers";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::VertexBuffer, StartSlot, NumBuffers, device->limits),
                         method))
    return;
  std::array<ID3D11Buffer*, kMaxSlots> buffers;
  if (!resolveArray(ppVertexBuffers, NumBuffers, InterfaceId::ID3D11Buffer, device, method, buffers.data())) return;
  // NULL stride/offset arrays are legal only without buffers; the runtime reads them.
  static constexpr std::array<UINT, kMaxSlots> zeros{};
  context->IASetVertexBuffers(StartSlot, NumBuffers, buffers.data(), pStrides ? pStrides : zeros.data(),
                              pOffsets ? pOffsets : zeros.data());
}

void Executor::ID3D11DeviceContext_IASetIndexBuffer(ObjectId self, ObjectId pIndexBuffer, DXGI_FORMAT Format,
                                                    UINT Offset) {
  const char* method = "IASetIndexBuffer";
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  ID3D11Buffer* buffer = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pIndexBuffer, InterfaceId::ID3D11Buffer, true, method, &buffer, &record)) return;
  if (buffer && (!sameDevice(record, device, pIndexBuffer, method) ||
                 !admit(validation::validateIndexBufferFormat(Format), method)))
    return;
  context->IASetIndexBuffer(buffer, Format, Offset);
  state->indexBufferBound = buffer != nullptr;
}

void Executor::ID3D11DeviceContext_IASetPrimitiveTopology(ObjectId self, D3D_PRIMITIVE_TOPOLOGY Topology) {
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "IASetPrimitiveTopology", nullptr, &state);
  if (!context || !admit(validation::validatePrimitiveTopology(uint32_t(Topology)), "IASetPrimitiveTopology")) return;
  context->IASetPrimitiveTopology(Topology);
  state->topologyDefined = Topology != D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;
}

void Executor::ID3D11DeviceContext_OMSetRenderTargets(ObjectId self, UINT NumViews, const ObjectId* ppRenderTargetViews,
                                                      ObjectId pDepthStencilView) {
  const char* method = "OMSetRenderTargets";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::RenderTarget, 0, NumViews, device->limits), method))
    return;
  std::array<ID3D11RenderTargetView*, kMaxSlots> views;
  if (!resolveArray(ppRenderTargetViews, NumViews, InterfaceId::ID3D11RenderTargetView, device, method, views.data()))
    return;
  ID3D11DepthStencilView* depth = nullptr;
  Record* record = nullptr;
  if (!resolveAs(pDepthStencilView, InterfaceId::ID3D11DepthStencilView, true, method, &depth, &record)) return;
  if (depth && !sameDevice(record, device, pDepthStencilView, method)) return;
  context->OMSetRenderTargets(NumViews, NumViews ? views.data() : nullptr, depth);
}

void Executor::ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(
    ObjectId self, UINT NumRTVs, const ObjectId* ppRenderTargetViews, ObjectId pDepthStencilView, UINT UAVStartSlot,
    UINT NumUAVs, const ObjectId* ppUnorderedAccessViews, const UINT* pUAVInitialCounts) {
  const char* method = "OMSetRenderTargetsAndUnorderedAccessViews";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context) return;
  const bool keepTargets = NumRTVs == D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL;
  const bool keepUavs = NumUAVs == D3D11_KEEP_UNORDERED_ACCESS_VIEWS;
  if (!admit(validation::validateRenderTargetsAndUavs(keepTargets ? 0 : NumRTVs, UAVStartSlot, keepUavs ? 0 : NumUAVs,
                                                      device->limits),
             method))
    return;
  std::array<ID3D11RenderTargetView*, kMaxSlots> targets;
  std::array<ID3D11UnorderedAccessView*, kMaxSlots> uavs;
  ID3D11DepthStencilView* depth = nullptr;
  if (!keepTargets) {
    if (!resolveArray(ppRenderTargetViews, NumRTVs, InterfaceId::ID3D11RenderTargetView, device, method, targets.data()))
      return;
    Record* record = nullptr;
    if (!resolveAs(pDepthStencilView, InterfaceId::ID3D11DepthStencilView, true, method, &depth, &record)) return;
    if (depth && !sameDevice(record, device, pDepthStencilView, method)) return;
  }
  if (!keepUavs &&
      !resolveArray(ppUnorderedAccessViews, NumUAVs, InterfaceId::ID3D11UnorderedAccessView, device, method, uavs.data()))
    return;
  context->OMSetRenderTargetsAndUnorderedAccessViews(NumRTVs, keepTargets ? nullptr : targets.data(), depth,
                                                     UAVStartSlot, NumUAVs, keepUavs ? nullptr : uavs.data(),
                                                     pUAVInitialCounts);
}

void Executor::ID3D11DeviceContext_OMSetBlendState(ObjectId self, ObjectId pBlendState, const FLOAT* BlendFactor,
                                                   UINT SampleMask) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "OMSetBlendState", &device);
  ID3D11BlendState* state = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pBlendState, InterfaceId::ID3D11BlendState, true, "OMSetBlendState", &state, &record)) return;
  if (state && !sameDevice(record, device, pBlendState, "OMSetBlendState")) return;
  context->OMSetBlendState(state, BlendFactor, SampleMask);
}

void Executor::ID3D11DeviceContext_OMSetDepthStencilState(ObjectId self, ObjectId pDepthStencilState, UINT StencilRef) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "OMSetDepthStencilState", &device);
  ID3D11DepthStencilState* state = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pDepthStencilState, InterfaceId::ID3D11DepthStencilState, true, "OMSetDepthStencilState",
                             &state, &record))
    return;
  if (state && !sameDevice(record, device, pDepthStencilState, "OMSetDepthStencilState")) return;
  context->OMSetDepthStencilState(state, StencilRef);
}

void Executor::ID3D11DeviceContext_SOSetTargets(ObjectId self, UINT NumBuffers, const ObjectId* ppSOTargets,
                                                const UINT* pOffsets) {
  const char* method = "SOSetTargets";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  if (!context || !admit(validation::validateSlotRange(SlotKind::StreamOutput, 0, NumBuffers, device->limits), method))
    return;
  std::array<ID3D11Buffer*, kMaxSlots> buffers;
  if (!resolveArray(ppSOTargets, NumBuffers, InterfaceId::ID3D11Buffer, device, method, buffers.data())) return;
  context->SOSetTargets(NumBuffers, NumBuffers ? buffers.data() : nullptr, pOffsets);
}

void Executor::ID3D11DeviceContext_RSSetState(ObjectId self, ObjectId pRasterizerState) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "RSSetState", &device);
  ID3D11RasterizerState* state = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pRasterizerState, InterfaceId::ID3D11RasterizerState, true, "RSSetState", &state, &record))
    return;
  if (state && !sameDevice(record, device, pRasterizerState, "RSSetState")) return;
  context->RSSetState(state);
}

void Executor::ID3D11DeviceContext_RSSetViewports(ObjectId self, UINT NumViewports, const D3D11_VIEWPORT* pViewports) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "RSSetViewports", &device);
  if (!context ||
      !admit(validation::validateSlotRange(SlotKind::Viewport, 0, NumViewports, device->limits), "RSSetViewports"))
    return;
  // The backend reads NumViewports entries: a NULL array with a count never reaches it.
  if (NumViewports && !pViewports) return drop("RSSetViewports", "%u viewports without an array", NumViewports);
  context->RSSetViewports(NumViewports, pViewports);
}

void Executor::ID3D11DeviceContext_RSSetScissorRects(ObjectId self, UINT NumRects, const RECT* pRects) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "RSSetScissorRects", &device);
  if (!context ||
      !admit(validation::validateSlotRange(SlotKind::ScissorRect, 0, NumRects, device->limits), "RSSetScissorRects"))
    return;
  if (NumRects && !pRects) return drop("RSSetScissorRects", "%u rects without an array", NumRects);
  context->RSSetScissorRects(NumRects, pRects);
}

void Executor::ID3D11DeviceContext_SetPredication(ObjectId self, ObjectId pPredicate, BOOL PredicateValue) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "SetPredication", &device);
  ID3D11Predicate* predicate = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pPredicate, InterfaceId::ID3D11Predicate, true, "SetPredication", &predicate, &record))
    return;
  if (predicate && !sameDevice(record, device, pPredicate, "SetPredication")) return;
  context->SetPredication(predicate, PredicateValue);
}

void Executor::ID3D11DeviceContext_ClearState(ObjectId self) {
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "ClearState", nullptr, &state);
  if (!context) return;
  context->ClearState();
  state->resetToDefaultState();
}

}  // namespace npt::executor
