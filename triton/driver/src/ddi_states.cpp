// SPDX-License-Identifier: MIT
// Blend, depth-stencil, rasterizer and sampler states. The DDI enums carry the API's
// values; only the shape of the descriptions differs.

#include "device.h"
#include "entries.h"

namespace triton::driver {
namespace {

template <class StateObject, class Api>
void store(Device* d, void* memory, const char* entryName, HRESULT hr, ComPtr<Api>& state) {
  if (FAILED(hr)) {
    d->targetFailed(entryName, hr);
    return;
  }
  (new (memory) StateObject)->state = std::move(state);
}

D3D11_DEPTH_STENCILOP_DESC stencilFace(const ddi::D3D10_DDI_DEPTH_STENCILOP_DESC& f, BOOL enabled) {
  // A face the runtime disabled keeps its stencil value: keep everything, always pass.
  if (!enabled)
    return {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS};
  return {D3D11_STENCIL_OP(f.StencilFailOp), D3D11_STENCIL_OP(f.StencilDepthFailOp), D3D11_STENCIL_OP(f.StencilPassOp),
          D3D11_COMPARISON_FUNC(f.StencilFunc)};
}

}  // namespace

namespace entry {

SIZE_T TRITON_APIENTRY calcPrivateBlendStateSize10_1(ddi::D3D10DDI_HDEVICE, const ddi::D3D10_1_DDI_BLEND_DESC*) {
  return sizeof(BlendState);
}
void TRITON_APIENTRY createBlendState10_1(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10_1_DDI_BLEND_DESC* a,
                                          ddi::D3D10DDI_HBLENDSTATE hState, ddi::D3D10DDI_HRTBLENDSTATE) {
  Device* d = deviceOf(hDevice);
  if (!a || !hState.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_BLEND_DESC desc{a->AlphaToCoverageEnable, a->IndependentBlendEnable, {}};
  for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; ++i) {
    const ddi::D3D10_DDI_RENDER_TARGET_BLEND_DESC1& rt = a->RenderTarget[i];
    desc.RenderTarget[i] = {rt.BlendEnable, D3D11_BLEND(rt.SrcBlend), D3D11_BLEND(rt.DestBlend),
                            D3D11_BLEND_OP(rt.BlendOp), D3D11_BLEND(rt.SrcBlendAlpha), D3D11_BLEND(rt.DestBlendAlpha),
                            D3D11_BLEND_OP(rt.BlendOpAlpha), rt.RenderTargetWriteMask};
  }
  ComPtr<ID3D11BlendState> state;
  store<BlendState>(d, hState.pDrvPrivate, "CreateBlendState", d->device()->CreateBlendState(&desc, &state), state);
}

SIZE_T TRITON_APIENTRY calcPrivateBlendStateSize11_1(ddi::D3D10DDI_HDEVICE, const ddi::D3D11_1_DDI_BLEND_DESC*) {
  return sizeof(BlendState);
}
void TRITON_APIENTRY createBlendState11_1(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11_1_DDI_BLEND_DESC* a,
                                          ddi::D3D10DDI_HBLENDSTATE hState, ddi::D3D10DDI_HRTBLENDSTATE) {
  Device* d = deviceOf(hDevice);
  if (!a || !hState.pDrvPrivate || !d->device1()) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_BLEND_DESC1 desc{a->AlphaToCoverageEnable, a->IndependentBlendEnable, {}};
  for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; ++i) {
    const ddi::D3D11_1_DDI_RENDER_TARGET_BLEND_DESC& rt = a->RenderTarget[i];
    desc.RenderTarget[i] = {rt.BlendEnable, rt.LogicOpEnable, D3D11_BLEND(rt.SrcBlend), D3D11_BLEND(rt.DestBlend),
                            D3D11_BLEND_OP(rt.BlendOp), D3D11_BLEND(rt.SrcBlendAlpha), D3D11_BLEND(rt.DestBlendAlpha),
                            D3D11_BLEND_OP(rt.BlendOpAlpha), D3D11_LOGIC_OP(rt.LogicOp), rt.RenderTargetWriteMask};
  }
  ComPtr<ID3D11BlendState1> state1;
  const HRESULT hr = d->device1()->CreateBlendState1(&desc, &state1);
  ComPtr<ID3D11BlendState> state = state1;
  store<BlendState>(d, hState.pDrvPrivate, "CreateBlendState", hr, state);
}

void TRITON_APIENTRY destroyBlendState(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HBLENDSTATE h) {
  destroyObject<BlendState>(h.pDrvPrivate);
}

SIZE_T TRITON_APIENTRY calcPrivateDepthStencilStateSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10_DDI_DEPTH_STENCIL_DESC*) {
  return sizeof(DepthStencilState);
}
void TRITON_APIENTRY createDepthStencilState(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10_DDI_DEPTH_STENCIL_DESC* a,
                                             ddi::D3D10DDI_HDEPTHSTENCILSTATE hState, ddi::D3D10DDI_HRTDEPTHSTENCILSTATE) {
  Device* d = deviceOf(hDevice);
  if (!a || !hState.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_DEPTH_STENCIL_DESC desc{a->DepthEnable, D3D11_DEPTH_WRITE_MASK(a->DepthWriteMask),
                                D3D11_COMPARISON_FUNC(a->DepthFunc), a->StencilEnable, a->StencilReadMask,
                                a->StencilWriteMask, stencilFace(a->FrontFace, a->FrontEnable),
                                stencilFace(a->BackFace, a->BackEnable)};
  ComPtr<ID3D11DepthStencilState> state;
  store<DepthStencilState>(d, hState.pDrvPrivate, "CreateDepthStencilState",
                           d->device()->CreateDepthStencilState(&desc, &state), state);
}
void TRITON_APIENTRY destroyDepthStencilState(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HDEPTHSTENCILSTATE h) {
  destroyObject<DepthStencilState>(h.pDrvPrivate);
}

SIZE_T TRITON_APIENTRY calcPrivateRasterizerStateSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10_DDI_RASTERIZER_DESC*) {
  return sizeof(RasterizerState);
}
void TRITON_APIENTRY createRasterizerState(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10_DDI_RASTERIZER_DESC* a,
                                           ddi::D3D10DDI_HRASTERIZERSTATE hState, ddi::D3D10DDI_HRTRASTERIZERSTATE) {
  Device* d = deviceOf(hDevice);
  if (!a || !hState.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_RASTERIZER_DESC desc{D3D11_FILL_MODE(a->FillMode), D3D11_CULL_MODE(a->CullMode), a->FrontCounterClockwise,
                             a->DepthBias, a->DepthBiasClamp, a->SlopeScaledDepthBias, a->DepthClipEnable,
                             a->ScissorEnable, a->MultisampleEnable, a->AntialiasedLineEnable};
  ComPtr<ID3D11RasterizerState> state;
  store<RasterizerState>(d, hState.pDrvPrivate, "CreateRasterizerState",
                         d->device()->CreateRasterizerState(&desc, &state), state);
}

SIZE_T TRITON_APIENTRY calcPrivateRasterizerStateSize11_1(ddi::D3D10DDI_HDEVICE, const ddi::D3D11_1_DDI_RASTERIZER_DESC*) {
  return sizeof(RasterizerState);
}
void TRITON_APIENTRY createRasterizerState11_1(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11_1_DDI_RASTERIZER_DESC* a,
                                               ddi::D3D10DDI_HRASTERIZERSTATE hState, ddi::D3D10DDI_HRTRASTERIZERSTATE) {
  Device* d = deviceOf(hDevice);
  if (!a || !hState.pDrvPrivate || !d->device1()) {
    d->setError(E_INVALIDARG);
    return;
  }
  D3D11_RASTERIZER_DESC1 desc{D3D11_FILL_MODE(a->FillMode), D3D11_CULL_MODE(a->CullMode), a->FrontCounterClockwise,
                              a->DepthBias, a->DepthBiasClamp, a->SlopeScaledDepthBias, a->DepthClipEnable,
                              a->ScissorEnable, a->MultisampleEnable, a->AntialiasedLineEnable, a->ForcedSampleCount};
  ComPtr<ID3D11RasterizerState1> state1;
  const HRESULT hr = d->device1()->CreateRasterizerState1(&desc, &state1);
  ComPtr<ID3D11RasterizerState> state = state1;
  store<RasterizerState>(d, hState.pDrvPrivate, "CreateRasterizerState", hr, state);
}

void TRITON_APIENTRY destroyRasterizerState(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HRASTERIZERSTATE h) {
  destroyObject<RasterizerState>(h.pDrvPrivate);
}

SIZE_T TRITON_APIENTRY calcPrivateSamplerSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10_DDI_SAMPLER_DESC*) {
  return sizeof(SamplerState);
}
void TRITON_APIENTRY createSampler(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10_DDI_SAMPLER_DESC* a,
                                   ddi::D3D10DDI_HSAMPLER hState, ddi::D3D10DDI_HRTSAMPLER) {
  Device* d = deviceOf(hDevice);
  if (!a || !hState.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  if (a->Filter == ddi::D3D10_DDI_FILTER_TEXT_1BIT) {
    // D3D10's monochrome text filter has no D3D11 API form.
    d->notImplemented("CreateSampler(D3D10_DDI_FILTER_TEXT_1BIT)");
    return;
  }
  D3D11_SAMPLER_DESC desc{D3D11_FILTER(a->Filter), D3D11_TEXTURE_ADDRESS_MODE(a->AddressU),
                          D3D11_TEXTURE_ADDRESS_MODE(a->AddressV), D3D11_TEXTURE_ADDRESS_MODE(a->AddressW),
                          a->MipLODBias, a->MaxAnisotropy, D3D11_COMPARISON_FUNC(a->ComparisonFunc),
                          {a->BorderColor[0], a->BorderColor[1], a->BorderColor[2], a->BorderColor[3]},
                          a->MinLOD, a->MaxLOD};
  ComPtr<ID3D11SamplerState> state;
  store<SamplerState>(d, hState.pDrvPrivate, "CreateSampler", d->device()->CreateSamplerState(&desc, &state), state);
}
void TRITON_APIENTRY destroySampler(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HSAMPLER h) {
  destroyObject<SamplerState>(h.pDrvPrivate);
}

}  // namespace entry
}  // namespace triton::driver
