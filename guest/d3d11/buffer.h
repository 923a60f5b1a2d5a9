// SPDX-License-Identifier: MIT
#pragma once

#include "d3d11_child.h"
#include "dxgi/resource_face.h"
#include "resource.h"

namespace npt::guest {

class Buffer final : public D3D11Child<ID3D11Buffer> {
public:
  Buffer(Device* device, protocol::ObjectId id, const D3D11_BUFFER_DESC& desc);

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* dimension) override;
  void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
  UINT STDMETHODCALLTYPE GetEvictionPriority() override { return m_evictionPriority; }
  void STDMETHODCALLTYPE GetDesc(D3D11_BUFFER_DESC* desc) override;

  ResourceState& state() { return m_state; }
  // Windows' checks of CreateBuffer, before anything is sent.
  static HRESULT validate(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* data);
  static ResourceInfo infoOf(const D3D11_BUFFER_DESC& desc);

private:
  D3D11_BUFFER_DESC m_desc;
  // IDXGIResource1 of the same object (guest/dxgi).
  dxgi::DxgiResourceFace m_dxgi;
  ResourceState m_state;
  UINT m_evictionPriority = DXGI_RESOURCE_PRIORITY_NORMAL;
};

}
