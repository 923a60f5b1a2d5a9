// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "d3d11_child.h"
#include "resource.h"

// Shader resource, render target, depth stencil and unordered access views. A view
// holds a private reference on its resource (ResourceRef); GetDesc returns
// the description normalized at creation (NULL desc: derived from the resource;
// MipLevels/ArraySize -1: the remaining levels/slices; format UNKNOWN: the
// resource's). The host receives exactly what the application passed.
namespace npt::guest {

// A view desc and its …1 version: the first version's arms are prefixes of the …1 arms
// (PlaneSlice appended), so either direction copies the common prefix of the unions. Into
// a …1 desc, PlaneSlice is then 0: the copied union's words past the application's arm are
// whatever it left there (Wine's d3d11 suite reuses one desc for every dimension), and the
// first version has no plane slice to give.
template<typename Desc1, typename Dimension>
void clearPlaneSlice(Desc1& desc, Dimension texture2D, Dimension texture2DArray) {
  if (desc.ViewDimension == texture2D)
    desc.Texture2D.PlaneSlice = 0;
  else if (desc.ViewDimension == texture2DArray)
    desc.Texture2DArray.PlaneSlice = 0;
}
inline void clearPlaneSlice(D3D11_SHADER_RESOURCE_VIEW_DESC1& d) {
  clearPlaneSlice(d, D3D11_SRV_DIMENSION_TEXTURE2D, D3D11_SRV_DIMENSION_TEXTURE2DARRAY);
}
inline void clearPlaneSlice(D3D11_RENDER_TARGET_VIEW_DESC1& d) {
  clearPlaneSlice(d, D3D11_RTV_DIMENSION_TEXTURE2D, D3D11_RTV_DIMENSION_TEXTURE2DARRAY);
}
inline void clearPlaneSlice(D3D11_UNORDERED_ACCESS_VIEW_DESC1& d) {
  clearPlaneSlice(d, D3D11_UAV_DIMENSION_TEXTURE2D, D3D11_UAV_DIMENSION_TEXTURE2DARRAY);
}

template<typename To, typename From>
To convertViewDesc(const From& in) {
  To out = {};
  out.Format = in.Format;
  out.ViewDimension = in.ViewDimension;
  std::memcpy(&out.Buffer, &in.Buffer,
              std::min(sizeof(To) - offsetof(To, Buffer), sizeof(From) - offsetof(From, Buffer)));
  if constexpr (requires { out.Texture2D.PlaneSlice; } && !requires { in.Texture2D.PlaneSlice; })
    clearPlaneSlice(out);
  return out;
}

class ShaderResourceView final : public D3D11Child<ID3D11ShaderResourceView1> {
public:
  ShaderResourceView(Device* device, protocol::ObjectId id, ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1& desc);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetResource(ID3D11Resource** resource) override { *resource = addRefed(m_resource.get()); }
  void STDMETHODCALLTYPE GetDesc(D3D11_SHADER_RESOURCE_VIEW_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_SHADER_RESOURCE_VIEW_DESC1* desc) override { *desc = m_desc; }
  ID3D11Resource* resource() const { return m_resource.get(); }
  // NULL desc -> the default; validates against the resource. E_INVALIDARG as Windows.
  static HRESULT normalize(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* in, D3D11_SHADER_RESOURCE_VIEW_DESC1* out);

private:
  ResourceRef m_resource;
  D3D11_SHADER_RESOURCE_VIEW_DESC1 m_desc;
};

class RenderTargetView final : public D3D11Child<ID3D11RenderTargetView1> {
public:
  RenderTargetView(Device* device, protocol::ObjectId id, ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC1& desc);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetResource(ID3D11Resource** resource) override { *resource = addRefed(m_resource.get()); }
  void STDMETHODCALLTYPE GetDesc(D3D11_RENDER_TARGET_VIEW_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_RENDER_TARGET_VIEW_DESC1* desc) override { *desc = m_desc; }
  ID3D11Resource* resource() const { return m_resource.get(); }
  static HRESULT normalize(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC1* in, D3D11_RENDER_TARGET_VIEW_DESC1* out);

private:
  ResourceRef m_resource;
  D3D11_RENDER_TARGET_VIEW_DESC1 m_desc;
};

class DepthStencilView final : public D3D11Child<ID3D11DepthStencilView> {
public:
  DepthStencilView(Device* device, protocol::ObjectId id, ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC& desc);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetResource(ID3D11Resource** resource) override { *resource = addRefed(m_resource.get()); }
  void STDMETHODCALLTYPE GetDesc(D3D11_DEPTH_STENCIL_VIEW_DESC* desc) override { *desc = m_desc; }
  ID3D11Resource* resource() const { return m_resource.get(); }
  static HRESULT normalize(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* in, D3D11_DEPTH_STENCIL_VIEW_DESC* out);

private:
  ResourceRef m_resource;
  D3D11_DEPTH_STENCIL_VIEW_DESC m_desc;
};

class UnorderedAccessView final : public D3D11Child<ID3D11UnorderedAccessView1> {
public:
  UnorderedAccessView(Device* device, protocol::ObjectId id, ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1& desc);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetResource(ID3D11Resource** resource) override { *resource = addRefed(m_resource.get()); }
  void STDMETHODCALLTYPE GetDesc(D3D11_UNORDERED_ACCESS_VIEW_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc) override { *desc = m_desc; }
  ID3D11Resource* resource() const { return m_resource.get(); }
  static HRESULT normalize(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* in, D3D11_UNORDERED_ACCESS_VIEW_DESC1* out);

private:
  ResourceRef m_resource;
  D3D11_UNORDERED_ACCESS_VIEW_DESC1 m_desc;
};

}
