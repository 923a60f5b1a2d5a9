// SPDX-License-Identifier: MIT
#pragma once

// The DXGI face of a resource: IDXGIResource on every resource and IDXGISurface1 on 2D
// textures of one subresource, on the same COM object as the D3D11 interfaces, as Microsoft's runtime
// exposes them. The face has no references of its own (AddRef, Release and
// QueryInterface are the resource's), and private data and eviction priority are the
// resource's: Windows shares them between the two faces.

#include <d3d11.h>
#include <dxgi.h>

namespace triton::runtime {

class DxgiResourceFace final : public IDXGISurface1, public IDXGIResource {
public:
  // owner: the resource the face lives in. surface: a 2D texture of one subresource.
  // usage: npt::validation::dxgiUsageOf.
  DxgiResourceFace(ID3D11Resource* owner, bool surface, DXGI_USAGE usage)
      : owner_(owner), surface_(surface), usage_(usage) {}

  // The interface pointer for a DXGI IID this face answers (not AddRef'd), or nullptr.
  void* query(REFIID riid);

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override { return owner_->QueryInterface(riid, out); }
  ULONG STDMETHODCALLTYPE AddRef() override { return owner_->AddRef(); }
  ULONG STDMETHODCALLTYPE Release() override { return owner_->Release(); }
  // IDXGIObject, IDXGIDeviceSubObject
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return owner_->SetPrivateData(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return owner_->SetPrivateDataInterface(guid, object);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return owner_->GetPrivateData(guid, size, data);
  }
  // A resource's parent is its device (as the IDXGIDevice asked for).
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override { return GetDevice(riid, parent); }
  HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** device) override;
  // IDXGISurface, IDXGISurface1
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_SURFACE_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE Map(DXGI_MAPPED_RECT* rect, UINT flags) override;
  HRESULT STDMETHODCALLTYPE Unmap() override;
  HRESULT STDMETHODCALLTYPE GetDC(BOOL discard, HDC* hdc) override;
  HRESULT STDMETHODCALLTYPE ReleaseDC(RECT* dirty) override;
  // IDXGIResource
  HRESULT STDMETHODCALLTYPE GetSharedHandle(HANDLE* handle) override;
  HRESULT STDMETHODCALLTYPE GetUsage(DXGI_USAGE* usage) override;
  HRESULT STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
  HRESULT STDMETHODCALLTYPE GetEvictionPriority(UINT* priority) override;

private:
  ID3D11DeviceContext* immediateContext();   // referenced
  bool texture2DDesc(D3D11_TEXTURE2D_DESC* desc);

  ID3D11Resource* owner_;
  bool surface_;
  DXGI_USAGE usage_;
};

}  // namespace triton::runtime
