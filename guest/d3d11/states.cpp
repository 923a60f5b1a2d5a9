// SPDX-License-Identifier: MIT
#include "states.h"

namespace npt::guest {

IUnknown* StateCache::find(const std::vector<uint8_t>& key) {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_objects.find(key);
  if (it == m_objects.end())
    return nullptr;
  it->second->AddRef();
  return it->second;
}

void StateCache::insert(const std::vector<uint8_t>& key, IUnknown* object) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_objects[key] = object;
}

void StateCache::erase(const std::vector<uint8_t>& key, IUnknown* object) {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_objects.find(key);
  if (it != m_objects.end() && it->second == object)
    m_objects.erase(it);
}

namespace {

bool blendOk(D3D11_BLEND b) { return b >= D3D11_BLEND_ZERO && b <= D3D11_BLEND_INV_SRC1_ALPHA && b != 12 && b != 13; }
bool blendAlphaOk(D3D11_BLEND b) {
  // Alpha factors may not read colour channels.
  return blendOk(b) && b != D3D11_BLEND_SRC_COLOR && b != D3D11_BLEND_INV_SRC_COLOR && b != D3D11_BLEND_DEST_COLOR &&
         b != D3D11_BLEND_INV_DEST_COLOR && b != D3D11_BLEND_SRC1_COLOR && b != D3D11_BLEND_INV_SRC1_COLOR;
}
bool opOk(D3D11_BLEND_OP op) { return op >= D3D11_BLEND_OP_ADD && op <= D3D11_BLEND_OP_MAX; }
bool compareOk(D3D11_COMPARISON_FUNC f) { return f >= D3D11_COMPARISON_NEVER && f <= D3D11_COMPARISON_ALWAYS; }
bool stencilOpOk(D3D11_STENCIL_OP op) { return op >= D3D11_STENCIL_OP_KEEP && op <= D3D11_STENCIL_OP_DECR; }
bool addressOk(D3D11_TEXTURE_ADDRESS_MODE m) { return m >= D3D11_TEXTURE_ADDRESS_WRAP && m <= D3D11_TEXTURE_ADDRESS_MIRROR_ONCE; }

}

// ---- BlendState

HRESULT BlendState::normalize(const D3D11_BLEND_DESC1* in, D3D11_BLEND_DESC1* out) {
  if (!in)
    return E_INVALIDARG;
  D3D11_BLEND_DESC1 d = *in;
  d.AlphaToCoverageEnable = !!d.AlphaToCoverageEnable;
  d.IndependentBlendEnable = !!d.IndependentBlendEnable;
  UINT count = d.IndependentBlendEnable ? 8 : 1;
  for (UINT i = 0; i < count; i++) {
    D3D11_RENDER_TARGET_BLEND_DESC1& rt = d.RenderTarget[i];
    rt.BlendEnable = !!rt.BlendEnable;
    rt.LogicOpEnable = !!rt.LogicOpEnable;
    if (rt.BlendEnable) {
      if (!blendOk(rt.SrcBlend) || !blendOk(rt.DestBlend) || !opOk(rt.BlendOp) ||
          !blendAlphaOk(rt.SrcBlendAlpha) || !blendAlphaOk(rt.DestBlendAlpha) || !opOk(rt.BlendOpAlpha))
        return E_INVALIDARG;
      if (rt.LogicOpEnable)
        return E_INVALIDARG;
    } else {
      rt.SrcBlend = D3D11_BLEND_ONE;
      rt.DestBlend = D3D11_BLEND_ZERO;
      rt.BlendOp = D3D11_BLEND_OP_ADD;
      rt.SrcBlendAlpha = D3D11_BLEND_ONE;
      rt.DestBlendAlpha = D3D11_BLEND_ZERO;
      rt.BlendOpAlpha = D3D11_BLEND_OP_ADD;
    }
    if (!rt.LogicOpEnable)
      rt.LogicOp = D3D11_LOGIC_OP_NOOP;
    else if (rt.LogicOp > D3D11_LOGIC_OP_OR_INVERTED)
      return E_INVALIDARG;
    if (rt.RenderTargetWriteMask > D3D11_COLOR_WRITE_ENABLE_ALL)
      return E_INVALIDARG;
  }
  for (UINT i = count; i < 8; i++)
    d.RenderTarget[i] = d.RenderTarget[0];
  *out = d;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE BlendState::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11BlendState)) || IsEqualGUID(riid, __uuidof(ID3D11BlendState1))) {
    *object = addRefed(static_cast<ID3D11BlendState1*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE BlendState::GetDesc(D3D11_BLEND_DESC* desc) {
  desc->AlphaToCoverageEnable = m_desc.AlphaToCoverageEnable;
  desc->IndependentBlendEnable = m_desc.IndependentBlendEnable;
  for (UINT i = 0; i < 8; i++) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& s = m_desc.RenderTarget[i];
    D3D11_RENDER_TARGET_BLEND_DESC& d = desc->RenderTarget[i];
    d.BlendEnable = s.BlendEnable;
    d.SrcBlend = s.SrcBlend;
    d.DestBlend = s.DestBlend;
    d.BlendOp = s.BlendOp;
    d.SrcBlendAlpha = s.SrcBlendAlpha;
    d.DestBlendAlpha = s.DestBlendAlpha;
    d.BlendOpAlpha = s.BlendOpAlpha;
    d.RenderTargetWriteMask = s.RenderTargetWriteMask;
  }
}

// ---- DepthStencilState

HRESULT DepthStencilState::validate(const D3D11_DEPTH_STENCIL_DESC* d) {
  if (!d)
    return E_INVALIDARG;
  // Fields of disabled tests are not checked: zero-initialized descriptions are common.
  if (d->DepthWriteMask > D3D11_DEPTH_WRITE_MASK_ALL || (d->DepthEnable && !compareOk(d->DepthFunc)))
    return E_INVALIDARG;
  if (d->StencilEnable)
    for (const D3D11_DEPTH_STENCILOP_DESC* face : { &d->FrontFace, &d->BackFace })
    if (!stencilOpOk(face->StencilFailOp) || !stencilOpOk(face->StencilDepthFailOp) || !stencilOpOk(face->StencilPassOp) ||
        !compareOk(face->StencilFunc))
      return E_INVALIDARG;
  return S_OK;
}

D3D11_DEPTH_STENCIL_DESC DepthStencilState::normalize(const D3D11_DEPTH_STENCIL_DESC& desc) {
  D3D11_DEPTH_STENCIL_DESC d = desc;
  if (!d.DepthEnable) {
    d.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
    d.DepthFunc = D3D11_COMPARISON_LESS;
  }
  if (!d.StencilEnable) {
    const D3D11_DEPTH_STENCILOP_DESC keep = { D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP,
                                              D3D11_COMPARISON_ALWAYS };
    d.StencilReadMask = D3D11_DEFAULT_STENCIL_READ_MASK;
    d.StencilWriteMask = D3D11_DEFAULT_STENCIL_WRITE_MASK;
    d.FrontFace = keep;
    d.BackFace = keep;
  }
  return d;
}

HRESULT STDMETHODCALLTYPE DepthStencilState::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11DepthStencilState))) {
    *object = addRefed(static_cast<ID3D11DepthStencilState*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

// ---- RasterizerState

HRESULT RasterizerState::validate(const D3D11_RASTERIZER_DESC2* d) {
  if (!d)
    return E_INVALIDARG;
  if ((d->FillMode != D3D11_FILL_WIREFRAME && d->FillMode != D3D11_FILL_SOLID) ||
      d->CullMode < D3D11_CULL_NONE || d->CullMode > D3D11_CULL_BACK)
    return E_INVALIDARG;
  if (d->ConservativeRaster != D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF &&
      d->ConservativeRaster != D3D11_CONSERVATIVE_RASTERIZATION_MODE_ON)
    return E_INVALIDARG;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE RasterizerState::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11RasterizerState)) || IsEqualGUID(riid, __uuidof(ID3D11RasterizerState1)) ||
      IsEqualGUID(riid, __uuidof(ID3D11RasterizerState2))) {
    *object = addRefed(static_cast<ID3D11RasterizerState2*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE RasterizerState::GetDesc(D3D11_RASTERIZER_DESC* desc) {
  std::memcpy(desc, &m_desc, sizeof(*desc));   // the first version is a prefix
}

void STDMETHODCALLTYPE RasterizerState::GetDesc1(D3D11_RASTERIZER_DESC1* desc) {
  std::memcpy(desc, &m_desc, sizeof(*desc));
}

// ---- SamplerState

HRESULT SamplerState::validate(const D3D11_SAMPLER_DESC* d) {
  if (!d)
    return E_INVALIDARG;
  if (!addressOk(d->AddressU) || !addressOk(d->AddressV) || !addressOk(d->AddressW))
    return E_INVALIDARG;
  if (D3D11_DECODE_IS_ANISOTROPIC_FILTER(d->Filter) && d->MaxAnisotropy > D3D11_REQ_MAXANISOTROPY)
    return E_INVALIDARG;
  if (d->MipLODBias < -16.0f || d->MipLODBias > 15.99f)
    return E_INVALIDARG;
  if (d->MinLOD > d->MaxLOD)
    return E_INVALIDARG;
  return S_OK;
}

D3D11_SAMPLER_DESC SamplerState::normalize(const D3D11_SAMPLER_DESC& desc) {
  D3D11_SAMPLER_DESC d = desc;
  if (!D3D11_DECODE_IS_ANISOTROPIC_FILTER(d.Filter))
    d.MaxAnisotropy = 0;
  if (!D3D11_DECODE_IS_COMPARISON_FILTER(d.Filter))
    d.ComparisonFunc = D3D11_COMPARISON_NEVER;
  if (d.AddressU != D3D11_TEXTURE_ADDRESS_BORDER && d.AddressV != D3D11_TEXTURE_ADDRESS_BORDER &&
      d.AddressW != D3D11_TEXTURE_ADDRESS_BORDER)
    d.BorderColor[0] = d.BorderColor[1] = d.BorderColor[2] = d.BorderColor[3] = 0.0f;
  return d;
}

HRESULT STDMETHODCALLTYPE SamplerState::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11SamplerState))) {
    *object = addRefed(static_cast<ID3D11SamplerState*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

}
