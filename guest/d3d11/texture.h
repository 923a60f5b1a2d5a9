// SPDX-License-Identifier: MIT
#pragma once

#include "d3d11_child.h"
#include "dxgi/resource_face.h"
#include "resource.h"

// 1D, 2D and 3D textures. Descriptions are normalized at creation (MipLevels 0 becomes
// the full chain), so GetDesc answers what Windows answers.
namespace npt::guest {

class Texture1D final : public D3D11Child<ID3D11Texture1D> {
public:
  Texture1D(Device* device, protocol::ObjectId id, const D3D11_TEXTURE1D_DESC& desc);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* dimension) override { *dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; }
  void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
  UINT STDMETHODCALLTYPE GetEvictionPriority() override { return m_evictionPriority; }
  void STDMETHODCALLTYPE GetDesc(D3D11_TEXTURE1D_DESC* desc) override { *desc = m_desc; }

  ResourceState& state() { return m_state; }
  static HRESULT normalize(const D3D11_TEXTURE1D_DESC* in, const D3D11_SUBRESOURCE_DATA* data, D3D11_TEXTURE1D_DESC* out);
  static ResourceInfo infoOf(const D3D11_TEXTURE1D_DESC& desc);

private:
  D3D11_TEXTURE1D_DESC m_desc;
  // IDXGIResource1 (and IDXGISurface2 for 2D textures) of the same object (guest/dxgi).
  dxgi::DxgiResourceFace m_dxgi;
  ResourceState m_state;
  UINT m_evictionPriority = DXGI_RESOURCE_PRIORITY_NORMAL;
};

class Texture2D final : public D3D11Child<ID3D11Texture2D1> {
public:
  Texture2D(Device* device, protocol::ObjectId id, const D3D11_TEXTURE2D_DESC1& desc, bool backBuffer);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* dimension) override { *dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; }
  void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
  UINT STDMETHODCALLTYPE GetEvictionPriority() override { return m_evictionPriority; }
  void STDMETHODCALLTYPE GetDesc(D3D11_TEXTURE2D_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_TEXTURE2D_DESC1* desc) override { *desc = m_desc; }

  ResourceState& state() { return m_state; }
  bool isBackBuffer() const { return m_backBuffer; }
  static HRESULT normalize(const D3D11_TEXTURE2D_DESC1* in, const D3D11_SUBRESOURCE_DATA* data, D3D11_TEXTURE2D_DESC1* out);
  static ResourceInfo infoOf(const D3D11_TEXTURE2D_DESC1& desc);

private:
  D3D11_TEXTURE2D_DESC1 m_desc;
  // IDXGIResource1 (and IDXGISurface2 for 2D textures) of the same object (guest/dxgi).
  dxgi::DxgiResourceFace m_dxgi;
  ResourceState m_state;
  bool m_backBuffer;
  UINT m_evictionPriority = DXGI_RESOURCE_PRIORITY_NORMAL;
};

class Texture3D final : public D3D11Child<ID3D11Texture3D1> {
public:
  Texture3D(Device* device, protocol::ObjectId id, const D3D11_TEXTURE3D_DESC1& desc);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* dimension) override { *dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D; }
  void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
  UINT STDMETHODCALLTYPE GetEvictionPriority() override { return m_evictionPriority; }
  void STDMETHODCALLTYPE GetDesc(D3D11_TEXTURE3D_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_TEXTURE3D_DESC1* desc) override { *desc = m_desc; }

  ResourceState& state() { return m_state; }
  static HRESULT normalize(const D3D11_TEXTURE3D_DESC1* in, const D3D11_SUBRESOURCE_DATA* data, D3D11_TEXTURE3D_DESC1* out);
  static ResourceInfo infoOf(const D3D11_TEXTURE3D_DESC1& desc);

private:
  D3D11_TEXTURE3D_DESC1 m_desc;
  // IDXGIResource1 (and IDXGISurface2 for 2D textures) of the same object (guest/dxgi).
  dxgi::DxgiResourceFace m_dxgi;
  ResourceState m_state;
  UINT m_evictionPriority = DXGI_RESOURCE_PRIORITY_NORMAL;
};

}
