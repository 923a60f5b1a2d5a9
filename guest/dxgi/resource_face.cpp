// SPDX-License-Identifier: MIT
#include "resource_face.h"

#include "../core/com.h"
#include "../core/log.h"
#include "npt/com/dxgi_surface.h"
#include "shared_resource.h"

namespace npt::guest::dxgi {

void* DxgiResourceFace::query(REFIID riid) {
  if (riid == kIID_NptDxgiResourceFace || riid == __uuidof(IDXGIResource) || riid == __uuidof(IDXGIResource1))
    return static_cast<IDXGIResource1*>(this);
  if (m_kind == Kind::Surface &&
      (riid == __uuidof(IDXGISurface) || riid == __uuidof(IDXGISurface1) || riid == __uuidof(IDXGISurface2)))
    return static_cast<IDXGISurface2*>(this);
  if (riid == __uuidof(IDXGIKeyedMutex) && (miscFlags() & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX))
    return static_cast<IDXGIKeyedMutex*>(this);
  // The shared bases are the resource face's, a surface's too (Wine's d3d11 suite,
  // test_dxgi_resource: QueryInterface(IDXGIObject) == QueryInterface(IDXGIResource)).
  if (riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIDeviceSubObject))
    return static_cast<IDXGIResource1*>(this);
  return nullptr;
}

HRESULT DxgiResourceFace::SetPrivateData(REFGUID guid, UINT size, const void* data) {
  return m_owner->SetPrivateData(guid, size, data);
}

HRESULT DxgiResourceFace::SetPrivateDataInterface(REFGUID guid, const IUnknown* object) {
  return m_owner->SetPrivateDataInterface(guid, object);
}

HRESULT DxgiResourceFace::GetPrivateData(REFGUID guid, UINT* size, void* data) {
  return m_owner->GetPrivateData(guid, size, data);
}

HRESULT DxgiResourceFace::GetParent(REFIID riid, void** parent) {
  // test_parents: a surface's parent is its device (as IDXGIDevice).
  return GetDevice(riid, parent);
}

HRESULT DxgiResourceFace::GetDevice(REFIID riid, void** device) {
  if (!device)
    return E_INVALIDARG;
  *device = nullptr;
  ComRef<ID3D11Device> d3d11;
  m_owner->GetDevice(d3d11.put());
  if (!d3d11)
    return E_FAIL;
  return d3d11->QueryInterface(riid, device);
}

bool DxgiResourceFace::texture2DDesc(D3D11_TEXTURE2D_DESC* desc) {
  ComRef<ID3D11Texture2D> texture;
  if (FAILED(m_owner->QueryInterface(__uuidof(ID3D11Texture2D), reinterpret_cast<void**>(texture.put()))))
    return false;
  texture->GetDesc(desc);
  return true;
}

UINT DxgiResourceFace::miscFlags() {
  D3D11_TEXTURE2D_DESC desc;
  if (texture2DDesc(&desc))
    return desc.MiscFlags;
  ComRef<ID3D11Buffer> buffer;
  if (FAILED(m_owner->QueryInterface(__uuidof(ID3D11Buffer), reinterpret_cast<void**>(buffer.put()))))
    return 0;
  D3D11_BUFFER_DESC bufferDesc;
  buffer->GetDesc(&bufferDesc);
  return bufferDesc.MiscFlags;
}

HRESULT DxgiResourceFace::GetDesc(DXGI_SURFACE_DESC* desc) {
  if (!desc)
    return E_INVALIDARG;
  D3D11_TEXTURE2D_DESC t;
  if (!texture2DDesc(&t))
    return E_FAIL;
  desc->Width = t.Width;
  desc->Height = t.Height;
  desc->Format = t.Format;
  desc->SampleDesc = t.SampleDesc;
  return S_OK;
}

HRESULT DxgiResourceFace::Map(DXGI_MAPPED_RECT* rect, UINT flags) {
  if (!rect)
    return DXGI_ERROR_INVALID_CALL;
  D3D11_MAP type;
  if (!npt::com::d3d11MapTypeOf(flags, &type))
    return DXGI_ERROR_INVALID_CALL;
  // The surface is subresource 0 of the texture, mapped through the immediate context
  // (the D3D11 rules for the texture's usage and CPU access apply).
  ComRef<ID3D11Device> device;
  m_owner->GetDevice(device.put());
  ComRef<ID3D11DeviceContext> context;
  device->GetImmediateContext(context.put());
  D3D11_MAPPED_SUBRESOURCE mapped;
  HRESULT hr = context->Map(m_owner, 0, type, 0, &mapped);
  if (FAILED(hr))
    return hr == E_INVALIDARG ? DXGI_ERROR_INVALID_CALL : hr;
  rect->Pitch = INT(mapped.RowPitch);
  rect->pBits = static_cast<BYTE*>(mapped.pData);
  return S_OK;
}

HRESULT DxgiResourceFace::Unmap() {
  ComRef<ID3D11Device> device;
  m_owner->GetDevice(device.put());
  ComRef<ID3D11DeviceContext> context;
  device->GetImmediateContext(context.put());
  context->Unmap(m_owner, 0);
  return S_OK;
}

HRESULT DxgiResourceFace::GetDC(BOOL discard, HDC* hdc) {
  if (!hdc)
    return E_INVALIDARG;
  *hdc = nullptr;
  // test_create_swapchain: only GDI-compatible surfaces have a DC.
  if (!(miscFlags() & D3D11_RESOURCE_MISC_GDI_COMPATIBLE))
    return DXGI_ERROR_INVALID_CALL;
  // GDI interop would need the texture's bytes in the guest; not remoted in protocol v1.
  NPT_WARN("IDXGISurface1::GetDC: GDI interop is not remoted; returning DXGI_ERROR_UNSUPPORTED");
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT DxgiResourceFace::ReleaseDC(RECT* dirty) {
  // No DC was ever handed out (GetDC).
  return DXGI_ERROR_INVALID_CALL;
}

HRESULT DxgiResourceFace::GetResource(REFIID riid, void** resource, UINT* subresource) {
  if (!resource || !subresource)
    return E_INVALIDARG;
  *subresource = 0;
  return m_owner->QueryInterface(riid, resource);
}

HRESULT DxgiResourceFace::GetSharedHandle(HANDLE* handle) {
  if (!handle)
    return E_INVALIDARG;
  *handle = nullptr;
  // Resources not created SHARED/SHARED_KEYEDMUTEX have none (DXGI_ERROR_INVALID_CALL, as
  // before sharing existed; guest_dxgi_swapchain checks it); NT-handle resources hand out
  // theirs through CreateSharedHandle only. The host checks the same.
  const UINT misc = miscFlags();
  if (!(misc & (D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX)))
    return DXGI_ERROR_INVALID_CALL;
  if (misc & D3D11_RESOURCE_MISC_SHARED_NTHANDLE)
    return E_INVALIDARG;
  UINT64 value = m_sharedHandle.load();
  if (!value) {
    HRESULT hr = guest::callSyncGetSharedHandle(m_owner, &value);
    if (FAILED(hr))
      return hr;
    m_sharedHandle.store(value);
  }
  *handle = HANDLE(uintptr_t(value));
  return S_OK;
}

HRESULT DxgiResourceFace::GetUsage(DXGI_USAGE* usage) {
  if (!usage)
    return E_INVALIDARG;
  *usage = m_usage.load();
  return S_OK;
}

HRESULT DxgiResourceFace::SetEvictionPriority(UINT priority) {
  m_owner->SetEvictionPriority(priority);
  return S_OK;
}

HRESULT DxgiResourceFace::GetEvictionPriority(UINT* priority) {
  if (!priority)
    return E_INVALIDARG;
  *priority = m_owner->GetEvictionPriority();
  return S_OK;
}

HRESULT DxgiResourceFace::CreateSubresourceSurface(UINT index, IDXGISurface2** surface) {
  if (!surface)
    return E_INVALIDARG;
  *surface = nullptr;
  D3D11_TEXTURE2D_DESC desc;
  if (m_kind != Kind::Surface || !texture2DDesc(&desc) || index >= desc.MipLevels * desc.ArraySize)
    return E_INVALIDARG;
  // Subresource 0 of a single-subresource texture is the texture's own surface; other
  // subresources would need surface objects of their own, which nothing creates yet.
  if (desc.MipLevels * desc.ArraySize != 1) {
    NPT_WARN("IDXGIResource1::CreateSubresourceSurface: only single-subresource textures");
    return DXGI_ERROR_UNSUPPORTED;
  }
  AddRef();
  *surface = this;
  return S_OK;
}

HRESULT DxgiResourceFace::CreateSharedHandle(const SECURITY_ATTRIBUTES* attributes, DWORD access, LPCWSTR name,
                                             HANDLE* handle) {
  if (!handle)
    return E_INVALIDARG;
  *handle = nullptr;
  // Only resources created with SHARED_NTHANDLE have one.
  if (!(miscFlags() & D3D11_RESOURCE_MISC_SHARED_NTHANDLE))
    return E_INVALIDARG;
  // The host registers the resource once; every call makes a new NT handle (a new kernel
  // object naming that registry entry, named when a name is given), to be closed by the
  // application (guest/d3d11/shared_handle.h).
  UINT64 value = m_ntHandle.load();
  if (!value) {
    HRESULT hr = guest::callSyncCreateSharedHandle(m_owner, access, &value);
    if (FAILED(hr))
      return hr;
    m_ntHandle.store(value);
  }
  return guest::createResourceNtHandle(m_owner, value, attributes, access, name, handle);
}

HRESULT DxgiResourceFace::AcquireSync(UINT64 key, DWORD milliseconds) {
  HRESULT hr = guest::callSyncAcquireKeyedMutex(m_owner, key, milliseconds);
  if (hr == S_OK)
    m_mutexHeld.store(true);
  return hr;
}

HRESULT DxgiResourceFace::ReleaseSync(UINT64 key) {
  // Documented (IDXGIKeyedMutex::ReleaseSync): releasing a keyed mutex that is not valid
  // or not owned by the device returns E_FAIL. (DXVK answers DXGI_ERROR_INVALID_CALL.)
  if (!m_mutexHeld.exchange(false))
    return E_FAIL;
  return guest::recordReleaseKeyedMutex(m_owner, key);
}

bool setResourceUsage(IUnknown* resource, DXGI_USAGE usage) {
  IDXGIResource1* face = nullptr;
  if (FAILED(resource->QueryInterface(kIID_NptDxgiResourceFace, reinterpret_cast<void**>(&face))))
    return false;
  static_cast<DxgiResourceFace*>(face)->setUsage(usage);
  face->Release();
  return true;
}

}
