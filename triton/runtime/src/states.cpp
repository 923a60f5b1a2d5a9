// SPDX-License-Identifier: MIT
// State objects and queries: API descriptions onto the DDI's (11.1 blend and
// rasterizer forms; most enums are value-equal).

#include "npt/validation/queries.h"
#include "objects.h"

namespace triton::runtime {
namespace {

using Lock = std::lock_guard<std::recursive_mutex>;

template <class Object, class Desc, class DdiDesc, class Calc, class Create, class RtHandle, class Interface>
HRESULT createState(Device* device, const Desc& desc, const DdiDesc& ddiDesc, Calc calc, Create create, RtHandle,
                    Interface** out) {
  if (!out)
    return S_FALSE;
  auto object = startCreating<Object>(device, desc);
  Lock lock(device->lock());
  object->memory = allocatePrivate(calc(device->handle(), &ddiDesc));
  object->handle.pDrvPrivate = object->memory.get();
  create(device->handle(), &ddiDesc, object->handle, RtHandle{object.get()});
  const HRESULT hr = device->takeError();
  if (FAILED(hr)) {
    object->handle.pDrvPrivate = nullptr;
    return hr;
  }
  *out = object.release();
  return S_OK;
}

}  // namespace

HRESULT Device::CreateBlendState(const D3D11_BLEND_DESC* d, ID3D11BlendState** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  D3D11_BLEND_DESC1 desc{d->AlphaToCoverageEnable, d->IndependentBlendEnable, {}};
  for (UINT i = 0; i < 8; ++i) {
    const D3D11_RENDER_TARGET_BLEND_DESC& rt = d->RenderTarget[i];
    desc.RenderTarget[i] = {rt.BlendEnable, FALSE, rt.SrcBlend, rt.DestBlend, rt.BlendOp, rt.SrcBlendAlpha,
                            rt.DestBlendAlpha, rt.BlendOpAlpha, D3D11_LOGIC_OP_NOOP, rt.RenderTargetWriteMask};
  }
  ID3D11BlendState1* state = nullptr;
  const HRESULT hr = CreateBlendState1(&desc, out ? &state : nullptr);
  if (out) *out = state;
  return hr;
}

HRESULT Device::CreateBlendState1(const D3D11_BLEND_DESC1* d, ID3D11BlendState1** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  // A logic op excludes blending, and independent blend (targets 1..7 are ignored without
  // it), and needs the driver's logic-op cap (D3D11_OPTIONS), as the runtime validates.
  const UINT described = d->IndependentBlendEnable ? 8 : 1;
  for (UINT i = 0; i < described; ++i) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& rt = d->RenderTarget[i];
    if (rt.LogicOpEnable && (rt.BlendEnable || d->IndependentBlendEnable))
      return E_INVALIDARG;
  }
  if (d->RenderTarget[0].LogicOpEnable) {
    D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
    if (FAILED(CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options, sizeof(options))) ||
        !options.OutputMergerLogicOp)
      return E_INVALIDARG;
  }
  ddi::D3D11_1_DDI_BLEND_DESC desc{};
  desc.AlphaToCoverageEnable = d->AlphaToCoverageEnable;
  desc.IndependentBlendEnable = d->IndependentBlendEnable;
  for (UINT i = 0; i < 8; ++i) {
    // Without independent blend, target 0's description applies to all.
    const D3D11_RENDER_TARGET_BLEND_DESC1& rt = d->RenderTarget[d->IndependentBlendEnable ? i : 0];
    desc.RenderTarget[i] = {rt.BlendEnable, rt.LogicOpEnable, ddi::D3D10_DDI_BLEND(rt.SrcBlend),
                            ddi::D3D10_DDI_BLEND(rt.DestBlend), ddi::D3D10_DDI_BLEND_OP(rt.BlendOp),
                            ddi::D3D10_DDI_BLEND(rt.SrcBlendAlpha), ddi::D3D10_DDI_BLEND(rt.DestBlendAlpha),
                            ddi::D3D10_DDI_BLEND_OP(rt.BlendOpAlpha), ddi::D3D11_1_DDI_LOGIC_OP(rt.LogicOp),
                            rt.RenderTargetWriteMask};
  }
  // Without independent blend, target 0's description is every target's (GetDesc1 says so).
  D3D11_BLEND_DESC1 kept = *d;
  if (!kept.IndependentBlendEnable)
    for (UINT i = 1; i < 8; ++i)
      kept.RenderTarget[i] = kept.RenderTarget[0];
  BlendState* state = nullptr;
  const HRESULT hr = createState<BlendState>(this, kept, desc, ddi().pfnCalcPrivateBlendStateSize,
                                             ddi().pfnCreateBlendState, ddi::D3D10DDI_HRTBLENDSTATE{}, &state);
  if (out) *out = state;
  return hr;
}

HRESULT Device::CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC* d, ID3D11DepthStencilState** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  auto face = [](const D3D11_DEPTH_STENCILOP_DESC& f) {
    return ddi::D3D10_DDI_DEPTH_STENCILOP_DESC{ddi::D3D10_DDI_STENCIL_OP(f.StencilFailOp),
                                               ddi::D3D10_DDI_STENCIL_OP(f.StencilDepthFailOp),
                                               ddi::D3D10_DDI_STENCIL_OP(f.StencilPassOp),
                                               ddi::D3D10_DDI_COMPARISON_FUNC(f.StencilFunc)};
  };
  const ddi::D3D10_DDI_DEPTH_STENCIL_DESC desc{d->DepthEnable, ddi::D3D10_DDI_DEPTH_WRITE_MASK(d->DepthWriteMask),
                                               ddi::D3D10_DDI_COMPARISON_FUNC(d->DepthFunc), d->StencilEnable, TRUE,
                                               TRUE, d->StencilReadMask, d->StencilWriteMask, face(d->FrontFace),
                                               face(d->BackFace)};
  DepthStencilState* state = nullptr;
  const HRESULT hr = createState<DepthStencilState>(this, *d, desc, ddi().pfnCalcPrivateDepthStencilStateSize,
                                                    ddi().pfnCreateDepthStencilState,
                                                    ddi::D3D10DDI_HRTDEPTHSTENCILSTATE{}, &state);
  if (out) *out = state;
  return hr;
}

HRESULT Device::CreateRasterizerState(const D3D11_RASTERIZER_DESC* d, ID3D11RasterizerState** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  const D3D11_RASTERIZER_DESC1 desc{d->FillMode, d->CullMode, d->FrontCounterClockwise, d->DepthBias,
                                    d->DepthBiasClamp, d->SlopeScaledDepthBias, d->DepthClipEnable, d->ScissorEnable,
                                    d->MultisampleEnable, d->AntialiasedLineEnable, 0};
  ID3D11RasterizerState1* state = nullptr;
  const HRESULT hr = CreateRasterizerState1(&desc, out ? &state : nullptr);
  if (out) *out = state;
  return hr;
}

HRESULT Device::CreateRasterizerState1(const D3D11_RASTERIZER_DESC1* d, ID3D11RasterizerState1** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  // Forced sample counts: 0, 1, 4, 8 (and 16 at 11_1) where the device allows them at all.
  if (d->ForcedSampleCount) {
    D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
    const bool allowed = SUCCEEDED(CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options, sizeof(options))) &&
                         options.UAVOnlyRenderingForcedSampleCount;
    const UINT n = d->ForcedSampleCount;
    if (!allowed || !(n == 1 || n == 4 || n == 8 || (n == 16 && featureLevel_ >= D3D_FEATURE_LEVEL_11_1)))
      return E_INVALIDARG;
  }
  const ddi::D3D11_1_DDI_RASTERIZER_DESC desc{ddi::D3D10_DDI_FILL_MODE(d->FillMode),
                                              ddi::D3D10_DDI_CULL_MODE(d->CullMode), d->FrontCounterClockwise,
                                              d->DepthBias, d->DepthBiasClamp, d->SlopeScaledDepthBias,
                                              d->DepthClipEnable, d->ScissorEnable, d->MultisampleEnable,
                                              d->AntialiasedLineEnable, d->ForcedSampleCount};
  RasterizerState* state = nullptr;
  const HRESULT hr = createState<RasterizerState>(this, *d, desc, ddi().pfnCalcPrivateRasterizerStateSize,
                                                  ddi().pfnCreateRasterizerState,
                                                  ddi::D3D10DDI_HRTRASTERIZERSTATE{}, &state);
  if (out) *out = state;
  return hr;
}

HRESULT Device::CreateSamplerState(const D3D11_SAMPLER_DESC* d, ID3D11SamplerState** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  ddi::D3D10_DDI_SAMPLER_DESC desc{ddi::D3D10_DDI_FILTER(d->Filter),
                                   ddi::D3D10_DDI_TEXTURE_ADDRESS_MODE(d->AddressU),
                                   ddi::D3D10_DDI_TEXTURE_ADDRESS_MODE(d->AddressV),
                                   ddi::D3D10_DDI_TEXTURE_ADDRESS_MODE(d->AddressW),
                                   d->MipLODBias,
                                   d->MaxAnisotropy,
                                   ddi::D3D10_DDI_COMPARISON_FUNC(d->ComparisonFunc),
                                   {d->BorderColor[0], d->BorderColor[1], d->BorderColor[2], d->BorderColor[3]},
                                   d->MinLOD,
                                   d->MaxLOD};
  SamplerState* state = nullptr;
  const HRESULT hr = createState<SamplerState>(this, *d, desc, ddi().pfnCalcPrivateSamplerSize,
                                               ddi().pfnCreateSampler, ddi::D3D10DDI_HRTSAMPLER{}, &state);
  if (out) *out = state;
  return hr;
}

namespace {

// D3D11_QUERY -> D3D10DDI_QUERY. The API interleaves the per-stream statistics and
// overflow predicates (8 + 2n, 9 + 2n); the DDI lists the four of each kind in a row.
bool ddiQuery(D3D11_QUERY query, ddi::D3D10DDI_QUERY* out) {
  switch (query) {
    case D3D11_QUERY_EVENT: *out = ddi::D3D10DDI_QUERY_EVENT; return true;
    case D3D11_QUERY_OCCLUSION: *out = ddi::D3D10DDI_QUERY_OCCLUSION; return true;
    case D3D11_QUERY_TIMESTAMP: *out = ddi::D3D10DDI_QUERY_TIMESTAMP; return true;
    case D3D11_QUERY_TIMESTAMP_DISJOINT: *out = ddi::D3D10DDI_QUERY_TIMESTAMPDISJOINT; return true;
    case D3D11_QUERY_PIPELINE_STATISTICS: *out = ddi::D3D11DDI_QUERY_PIPELINESTATS; return true;
    case D3D11_QUERY_OCCLUSION_PREDICATE: *out = ddi::D3D10DDI_QUERY_OCCLUSIONPREDICATE; return true;
    case D3D11_QUERY_SO_STATISTICS: *out = ddi::D3D10DDI_QUERY_STREAMOUTPUTSTATS; return true;
    case D3D11_QUERY_SO_OVERFLOW_PREDICATE: *out = ddi::D3D10DDI_QUERY_STREAMOVERFLOWPREDICATE; return true;
    default:
      break;
  }
  if (query < D3D11_QUERY_SO_STATISTICS_STREAM0 || query > D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3)
    return false;
  const UINT stream = (query - D3D11_QUERY_SO_STATISTICS_STREAM0) / 2;
  const UINT first = npt::validation::isPredicateQuery(query) ? ddi::D3D11DDI_QUERY_STREAMOVERFLOWPREDICATE_STREAM0
                                                               : ddi::D3D11DDI_QUERY_STREAMOUTPUTSTATS_STREAM0;
  *out = ddi::D3D10DDI_QUERY(first + stream);
  return true;
}

template <class Interface>
HRESULT createQuery(Device* device, const D3D11_QUERY_DESC& desc, bool predicate, Interface** out) {
  ddi::D3D10DDI_QUERY type{};
  if (!npt::validation::validateQueryDesc(desc, predicate).passed() || !ddiQuery(desc.Query, &type))
    return E_INVALIDARG;
  const UINT dataSize = npt::validation::queryDataSize(desc.Query);
  if (!out)
    return S_FALSE;
  auto query = startCreating<Query<Interface>>(device, desc, dataSize);
  const ddi::D3D10DDIARG_CREATEQUERY args{type, desc.MiscFlags & D3D11_QUERY_MISC_PREDICATEHINT};
  Lock lock(device->lock());
  query->memory = allocatePrivate(device->ddi().pfnCalcPrivateQuerySize(device->handle(), &args));
  query->handle.pDrvPrivate = query->memory.get();
  device->ddi().pfnCreateQuery(device->handle(), &args, query->handle, ddi::D3D10DDI_HRTQUERY{query.get()});
  const HRESULT hr = device->takeError();
  if (FAILED(hr)) {
    query->handle.pDrvPrivate = nullptr;
    return hr;
  }
  *out = query.release();
  return S_OK;
}

}  // namespace

HRESULT Device::CreateQuery(const D3D11_QUERY_DESC* desc, ID3D11Query** out) {
  if (out)
    *out = nullptr;
  if (!desc)
    return E_INVALIDARG;
  if (npt::validation::isPredicateQuery(desc->Query)) {
    // A predicate type asked for through CreateQuery is a predicate (as on Windows).
    ID3D11Predicate* predicate = nullptr;
    const HRESULT hr = createQuery(this, *desc, false, out ? &predicate : nullptr);
    if (out)
      *out = predicate;
    return hr;
  }
  return createQuery(this, *desc, false, out);
}

HRESULT Device::CreatePredicate(const D3D11_QUERY_DESC* desc, ID3D11Predicate** out) {
  if (out)
    *out = nullptr;
  if (!desc)
    return E_INVALIDARG;
  return createQuery(this, *desc, true, out);
}

}  // namespace triton::runtime
