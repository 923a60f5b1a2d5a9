// SPDX-License-Identifier: MIT
#pragma once

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "d3d11_child.h"
#include "state_cache.h"

// Blend, depth-stencil, rasterizer and sampler states. As on Windows, a device hands
// out one object per distinct (normalized) description: creating the same state
// twice returns the first object with one more reference (Wine's d3d11 tests check
// this), so the host sees one creation per distinct state.
namespace npt::guest {

template<typename Desc>
std::vector<uint8_t> stateKey(uint32_t kind, const Desc& desc) {
  std::vector<uint8_t> key(sizeof(kind) + sizeof(Desc));
  std::memcpy(key.data(), &kind, sizeof(kind));
  std::memcpy(key.data() + sizeof(kind), &desc, sizeof(Desc));
  return key;
}

template<typename Interface, typename Desc>
class StateObject : public D3D11Child<Interface> {
public:
  StateObject(Device* device, protocol::ObjectId id, const Desc& desc, StateCache* cache, std::vector<uint8_t> key)
  : D3D11Child<Interface>(device, id), m_desc(desc), m_cache(cache), m_key(std::move(key)) {}
  ~StateObject() override { m_cache->erase(m_key, static_cast<Interface*>(this)); }
  const Desc& desc() const { return m_desc; }

protected:
  Desc m_desc;
  StateCache* m_cache;
  std::vector<uint8_t> m_key;
};

class BlendState final : public StateObject<ID3D11BlendState1, D3D11_BLEND_DESC1> {
public:
  using StateObject::StateObject;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_BLEND_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_BLEND_DESC1* desc) override { *desc = m_desc; }
  // Validates and normalizes (render targets 1..7 follow 0 without independent
  // blending; disabled blending resets its factors), as Windows does.
  static HRESULT normalize(const D3D11_BLEND_DESC1* in, D3D11_BLEND_DESC1* out);
};

class DepthStencilState final : public StateObject<ID3D11DepthStencilState, D3D11_DEPTH_STENCIL_DESC> {
public:
  using StateObject::StateObject;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_DEPTH_STENCIL_DESC* desc) override { *desc = m_desc; }
  static HRESULT validate(const D3D11_DEPTH_STENCIL_DESC* desc);
  // Fields of a disabled depth or stencil test (often left zero by applications, which
  // Windows accepts) at their defaults: what Windows keeps and GetDesc returns, and what
  // the host receives, so a host validating every field sees a well-formed description.
  static D3D11_DEPTH_STENCIL_DESC normalize(const D3D11_DEPTH_STENCIL_DESC& desc);
};

class RasterizerState final : public StateObject<ID3D11RasterizerState2, D3D11_RASTERIZER_DESC2> {
public:
  using StateObject::StateObject;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_RASTERIZER_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_RASTERIZER_DESC1* desc) override;
  void STDMETHODCALLTYPE GetDesc2(D3D11_RASTERIZER_DESC2* desc) override { *desc = m_desc; }
  static HRESULT validate(const D3D11_RASTERIZER_DESC2* desc);
};

class SamplerState final : public StateObject<ID3D11SamplerState, D3D11_SAMPLER_DESC> {
public:
  using StateObject::StateObject;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_SAMPLER_DESC* desc) override { *desc = m_desc; }
  static HRESULT validate(const D3D11_SAMPLER_DESC* desc);
  // Windows keeps (and GetDesc returns) what the filter and address modes do not use at
  // its default: anisotropy of a non-anisotropic filter, the comparison of a
  // non-comparison one, the border colour when no address mode is BORDER.
  static D3D11_SAMPLER_DESC normalize(const D3D11_SAMPLER_DESC& desc);
};

}
