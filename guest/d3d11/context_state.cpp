// SPDX-License-Identifier: MIT
#include "context_state.h"

#include <d3d10_1.h>

#include <utility>
#include <vector>

namespace npt::guest {

DeviceContextState::DeviceContextState(Device* device, D3D_FEATURE_LEVEL level, REFIID emulatedInterface)
: D3D11Child(device, 0), m_level(level), m_emulated(emulatedInterface) {}

HRESULT STDMETHODCALLTYPE DeviceContextState::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3DDeviceContextState))) {
    *object = addRefed(static_cast<ID3DDeviceContextState*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

HRESULT DeviceContextState::validate(UINT flags, const D3D_FEATURE_LEVEL* levels, UINT levelCount, UINT,
                                     REFIID emulatedInterface, D3D_FEATURE_LEVEL deviceLevel, D3D_FEATURE_LEVEL* level) {
  if (flags & ~UINT(D3D11_1_CREATE_DEVICE_CONTEXT_STATE_SINGLETHREADED))
    return E_INVALIDARG;
  // The device interfaces a state can emulate: Direct3D 10 and 11's.
  static const IID* const kEmulated[] = {
    &__uuidof(ID3D10Device), &__uuidof(ID3D10Device1), &__uuidof(ID3D11Device), &__uuidof(ID3D11Device1),
    &__uuidof(ID3D11Device2), &__uuidof(ID3D11Device3), &__uuidof(ID3D11Device4), &__uuidof(ID3D11Device5),
  };
  bool known = false;
  for (const IID* iid : kEmulated)
    known |= IsEqualGUID(emulatedInterface, *iid) != 0;
  if (!known || !levels || !levelCount)
    return E_INVALIDARG;
  for (UINT i = 0; i < levelCount; i++)
    if (levels[i] <= deviceLevel && levels[i] >= D3D_FEATURE_LEVEL_9_1) {
      *level = levels[i];
      return S_OK;
    }
  return E_INVALIDARG;
}

}

namespace npt::guest {

namespace {

// The slots [first, last] that hold something (first > last: none).
template<typename Slots>
std::pair<UINT, UINT> boundRange(const Slots& slots) {
  UINT first = UINT(slots.size()), last = 0;
  for (UINT i = 0; i < slots.size(); i++)
    if (slots[i]) {
      first = first < i ? first : i;
      last = i;
    }
  return { first, last };
}

template<typename Interface, typename Slots>
std::vector<Interface*> pointersOf(const Slots& slots, UINT first, UINT last) {
  std::vector<Interface*> out;
  for (UINT i = first; i <= last; i++)
    out.push_back(static_cast<Interface*>(slots[i].get()));
  return out;
}

// One shader stage: shader with its class instances, constant buffers (with their
// ranges when they are not the whole-buffer default), resources, samplers.
template<typename ShaderInterface, typename ShaderClass, typename SetShader, typename SetBuffers1, typename SetResources,
         typename SetSamplers>
void applyStage(const StageState<ShaderClass>& stage, SetShader&& setShader, SetBuffers1&& setBuffers1,
                SetResources&& setResources, SetSamplers&& setSamplers) {
  if (stage.shader || !stage.instances.empty()) {
    std::vector<ID3D11ClassInstance*> instances;
    for (const auto& instance : stage.instances)
      instances.push_back(instance.get());
    setShader(static_cast<ShaderInterface*>(stage.shader.get()), instances.empty() ? nullptr : instances.data(),
              UINT(instances.size()));
  }
  if (auto [first, last] = boundRange(stage.constantBuffers); first <= last) {
    auto buffers = pointersOf<ID3D11Buffer>(stage.constantBuffers, first, last);
    bool ranged = false;
    for (UINT i = first; i <= last; i++)
      ranged |= stage.firstConstant[i] != 0 || stage.numConstants[i] != kWholeConstantBuffer;
    setBuffers1(first, UINT(buffers.size()), buffers.data(), ranged ? &stage.firstConstant[first] : nullptr,
                ranged ? &stage.numConstants[first] : nullptr);
  }
  if (auto [first, last] = boundRange(stage.shaderResources); first <= last) {
    auto views = pointersOf<ID3D11ShaderResourceView>(stage.shaderResources, first, last);
    setResources(first, UINT(views.size()), views.data());
  }
  if (auto [first, last] = boundRange(stage.samplers); first <= last) {
    auto samplers = pointersOf<ID3D11SamplerState>(stage.samplers, first, last);
    setSamplers(first, UINT(samplers.size()), samplers.data());
  }
}

}

// The host context is cleared and given the incoming state through the ordinary
// setters, which also rebuild m_state exactly as the application's calls would have.
// UAV counters and stream-output offsets are passed as -1: they keep their values.
void Context::applyState(const ContextState& s) {
  ClearState();
#define NPT_APPLY_STAGE(P, stage, ShaderInterface)                                                                   \
  applyStage<ShaderInterface>(s.stage,                                                                              \
    [&](ShaderInterface* shader, ID3D11ClassInstance* const* instances, UINT count) { P##SetShader(shader, instances, count); }, \
    [&](UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) {                \
      P##SetConstantBuffers1(start, count, buffers, first, num); },                                                \
    [&](UINT start, UINT count, ID3D11ShaderResourceView* const* views) { P##SetShaderResources(start, count, views); }, \
    [&](UINT start, UINT count, ID3D11SamplerState* const* samplers) { P##SetSamplers(start, count, samplers); })
  NPT_APPLY_STAGE(VS, vs, ID3D11VertexShader);
  NPT_APPLY_STAGE(HS, hs, ID3D11HullShader);
  NPT_APPLY_STAGE(DS, ds, ID3D11DomainShader);
  NPT_APPLY_STAGE(GS, gs, ID3D11GeometryShader);
  NPT_APPLY_STAGE(PS, ps, ID3D11PixelShader);
  NPT_APPLY_STAGE(CS, cs, ID3D11ComputeShader);
#undef NPT_APPLY_STAGE

  if (s.inputLayout)
    IASetInputLayout(s.inputLayout.get());
  bool vertexInput = false;
  for (UINT i = 0; i < D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT; i++)
    vertexInput |= s.vertexBuffers[i] || s.vertexStrides[i] || s.vertexOffsets[i];
  if (vertexInput) {
    auto buffers = pointersOf<ID3D11Buffer>(s.vertexBuffers, 0, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT - 1);
    IASetVertexBuffers(0, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT, buffers.data(), s.vertexStrides.data(), s.vertexOffsets.data());
  }
  if (s.indexBuffer || s.indexFormat != DXGI_FORMAT_UNKNOWN || s.indexOffset)
    IASetIndexBuffer(s.indexBuffer.get(), s.indexFormat, s.indexOffset);
  if (s.topology != D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED)
    IASetPrimitiveTopology(s.topology);

  if (s.rasterizer)
    RSSetState(s.rasterizer.get());
  if (s.viewportCount)
    RSSetViewports(s.viewportCount, s.viewports.data());
  if (s.scissorCount)
    RSSetScissorRects(s.scissorCount, s.scissors.data());

  auto [rtFirst, rtLast] = boundRange(s.renderTargets);
  UINT rtvCount = rtFirst <= rtLast ? rtLast + 1 : 0;
  auto [uavFirst, uavLast] = boundRange(s.pixelUavs);
  if (rtvCount || s.depthStencil || uavFirst <= uavLast) {
    auto rtvs = pointersOf<ID3D11RenderTargetView>(s.renderTargets, 0, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT - 1);
    if (uavFirst <= uavLast) {
      auto uavs = pointersOf<ID3D11UnorderedAccessView>(s.pixelUavs, uavFirst, uavLast);
      std::vector<UINT> keepCounters(uavs.size(), UINT(-1));
      OMSetRenderTargetsAndUnorderedAccessViews(rtvCount, rtvs.data(), s.depthStencil.get(), uavFirst, UINT(uavs.size()),
                                                uavs.data(), keepCounters.data());
    } else {
      OMSetRenderTargets(rtvCount, rtvs.data(), s.depthStencil.get());
    }
  }
  const std::array<FLOAT, 4> defaultFactor = { 1.0f, 1.0f, 1.0f, 1.0f };
  if (s.blendState || s.blendFactor != defaultFactor || s.sampleMask != 0xffffffffu)
    OMSetBlendState(s.blendState.get(), s.blendFactor.data(), s.sampleMask);
  if (s.depthStencilState || s.stencilRef)
    OMSetDepthStencilState(s.depthStencilState.get(), s.stencilRef);
  if (auto [first, last] = boundRange(s.computeUavs); first <= last) {
    auto uavs = pointersOf<ID3D11UnorderedAccessView>(s.computeUavs, first, last);
    std::vector<UINT> keepCounters(uavs.size(), UINT(-1));
    CSSetUnorderedAccessViews(first, UINT(uavs.size()), uavs.data(), keepCounters.data());
  }
  if (auto [first, last] = boundRange(s.streamOutTargets); first <= last) {
    auto targets = pointersOf<ID3D11Buffer>(s.streamOutTargets, 0, last);
    std::vector<UINT> append(targets.size(), UINT(-1));
    SOSetTargets(UINT(targets.size()), targets.data(), append.data());
  }
  if (s.predicate || s.predicateValue)
    SetPredication(s.predicate ? asPredicate(s.predicate.get()) : nullptr, s.predicateValue);
}

void STDMETHODCALLTYPE Context::SwapDeviceContextState(ID3DDeviceContextState* state, ID3DDeviceContextState** previous) {
  if (previous)
    *previous = nullptr;
  // Deferred contexts have no state objects (Windows ignores the call).
  if (!state || m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    return;
  auto* incoming = static_cast<DeviceContextState*>(state);
  if (!m_activeState) {
    // The device's own state gets its object the first time it is swapped out.
    m_activeState.reset(new DeviceContextState(m_parent, m_parent->GetFeatureLevel(), __uuidof(ID3D11Device)));
  }
  DeviceContextState* outgoing = m_activeState.get();
  if (previous)
    *previous = addRefed(static_cast<ID3DDeviceContextState*>(outgoing));
  outgoing->state() = m_state;
  ContextState next = incoming->state();   // a copy: incoming may be the outgoing object
  m_activeState.reset(incoming);
  applyState(next);
}

}
