// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>

#include <d3d11_4.h>
#include <dxgi1_6.h>

// The DXGI face of a D3D11 resource: IDXGIResource1 on every resource, IDXGISurface2
// on 2D textures, and IDXGIKeyedMutex on resources created SHARED_KEYEDMUTEX, as
// Windows' runtime exposes them on the same COM object. Shared handles and the keyed
// mutex go through guest/d3d11/shared_resource.h. A resource
// embeds one face and answers DXGI IIDs from it:
//
//   class Texture2D ... { DxgiResourceFace m_dxgi{this, DxgiResourceFace::Kind::Surface}; };
//   HRESULT Texture2D::QueryInterface(REFIID riid, void** out) {
//     ...
//     if (void* face = m_dxgi.query(riid)) { AddRef(); *out = face; return S_OK; }
//
// The face has no reference count of its own: AddRef/Release/QueryInterface go to the
// owner (one identity), private data and eviction priority are the owner's (Windows
// shares them between the D3D11 and DXGI faces).
namespace npt::guest::dxgi {

// {8c5bd6e4-2f0a-4d7b-9e13-5a7c0b6f1e24}: a private IID answered by query() with the face
// itself, so a swapchain can set its back buffers' DXGI usage (setUsage).
inline constexpr GUID kIID_NptDxgiResourceFace = {
  0x8c5bd6e4, 0x2f0a, 0x4d7b, { 0x9e, 0x13, 0x5a, 0x7c, 0x0b, 0x6f, 0x1e, 0x24 } };

class DxgiResourceFace final : public IDXGISurface2, public IDXGIResource1, public IDXGIKeyedMutex {
public:
  enum class Kind { Resource, Surface };   // Surface: a 2D texture (IDXGISurface* too)

  // owner: the resource the face belongs to (not referenced: the face lives inside it).
  // usage: DXGI_USAGE derived from the bind flags (validation::dxgiUsageOf).
  DxgiResourceFace(ID3D11Resource* owner, Kind kind, DXGI_USAGE usage)
  : m_owner(owner), m_kind(kind), m_usage(usage) {}

  // The interface pointer for a DXGI IID this face answers (not AddRef'd), or nullptr.
  void* query(REFIID riid);
  void setUsage(DXGI_USAGE usage) { m_usage.store(usage); }

  // IUnknown: the owner's identity.
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override { return m_owner->QueryInterface(riid, object); }
  ULONG STDMETHODCALLTYPE AddRef() override { return m_owner->AddRef(); }
  ULONG STDMETHODCALLTYPE Release() override { return m_owner->Release(); }
  // IDXGIObject
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override;
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override;
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override;
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
  // IDXGIDeviceSubObject
  HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** device) override;
  // IDXGISurface / 1 / 2
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_SURFACE_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE Map(DXGI_MAPPED_RECT* rect, UINT flags) override;
  HRESULT STDMETHODCALLTYPE Unmap() override;
  HRESULT STDMETHODCALLTYPE GetDC(BOOL discard, HDC* hdc) override;
  HRESULT STDMETHODCALLTYPE ReleaseDC(RECT* dirty) override;
  HRESULT STDMETHODCALLTYPE GetResource(REFIID riid, void** resource, UINT* subresource) override;
  // IDXGIResource / 1
  HRESULT STDMETHODCALLTYPE GetSharedHandle(HANDLE* handle) override;
  HRESULT STDMETHODCALLTYPE GetUsage(DXGI_USAGE* usage) override;
  HRESULT STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
  HRESULT STDMETHODCALLTYPE GetEvictionPriority(UINT* priority) override;
  HRESULT STDMETHODCALLTYPE CreateSubresourceSurface(UINT index, IDXGISurface2** surface) override;
  HRESULT STDMETHODCALLTYPE CreateSharedHandle(const SECURITY_ATTRIBUTES* attributes, DWORD access, LPCWSTR name,
                                               HANDLE* handle) override;
  // IDXGIKeyedMutex
  HRESULT STDMETHODCALLTYPE AcquireSync(UINT64 key, DWORD milliseconds) override;
  HRESULT STDMETHODCALLTYPE ReleaseSync(UINT64 key) override;

private:
  bool texture2DDesc(D3D11_TEXTURE2D_DESC* desc);
  UINT miscFlags();

  ID3D11Resource* m_owner;
  Kind m_kind;
  std::atomic<DXGI_USAGE> m_usage;
  std::atomic<UINT64> m_sharedHandle{0};    // GetSharedHandle's, once the host gave it
  std::atomic<UINT64> m_ntHandle{0};        // the registry handle CreateSharedHandle's NT handles name
  std::atomic<bool> m_mutexHeld{false};     // this device holds the keyed mutex
};

// Sets the DXGI usage of a resource that embeds a face (the swapchain's back buffers).
// False when the resource has none (a foreign resource).
bool setResourceUsage(IUnknown* resource, DXGI_USAGE usage);

}
