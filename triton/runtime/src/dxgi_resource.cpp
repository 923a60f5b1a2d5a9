// SPDX-License-Identifier: MIT
#include "dxgi_resource.h"

#include "npt/com/dxgi_surface.h"

namespace triton::runtime {

void* DxgiResourceFace::query(REFIID riid) {
  if (riid == __uuidof(IDXGIResource))
    return static_cast<IDXGIResource*>(this);
  if (surface_ && (riid == __uuidof(IDXGISurface) || riid == __uuidof(IDXGISurface1)))
    return static_cast<IDXGISurface1*>(this);
  // The shared bases are the resource face's, a surface's too (Wine's d3d11 suite,
  // test_dxgi_resource: QueryInterface(IDXGIObject) == QueryInterface(IDXGIResource)).
  if (riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIDeviceSubObject))
    return static_cast<IDXGIResource*>(this);
  return nullptr;
}

HRESULT DxgiResourceFace::GetDevice(REFIID riid, void** device) {
  if (!device)
    return E_INVALIDARG;
  *device = nullptr;
  ID3D11Device* d3d11 = nullptr;
  owner_->GetDevice(&d3d11);
  const HRESULT hr = d3d11->QueryInterface(riid, device);
  d3d11->Release();
  return hr;
}

ID3D11DeviceContext* DxgiResourceFace::immediateContext() {
  ID3D11Device* device = nullptr;
  owner_->GetDevice(&device);
  ID3D11DeviceContext* context = nullptr;
  device->GetImmediateContext(&context);
  device->Release();
  return context;
}

bool DxgiResourceFace::texture2DDesc(D3D11_TEXTURE2D_DESC* desc) {
  ID3D11Texture2D* texture = nullptr;
  if (!surface_ || FAILED(owner_->QueryInterface(__uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture))))
    return false;
  texture->GetDesc(desc);
  texture->Release();
  return true;
}

HRESULT DxgiResourceFace::GetDesc(DXGI_SURFACE_DESC* desc) {
  D3D11_TEXTURE2D_DESC t;
  if (!desc)
    return E_INVALIDARG;
  if (!texture2DDesc(&t))
    return E_FAIL;
  *desc = {t.Width, t.Height, t.Format, t.SampleDesc};
  return S_OK;
}

// npt/com/dxgi_surface.h; the D3D11 rules for the texture's usage and CPU access apply.
HRESULT DxgiResourceFace::Map(DXGI_MAPPED_RECT* rect, UINT flags) {
  if (!rect)
    return DXGI_ERROR_INVALID_CALL;
  D3D11_MAP type;
  if (!npt::com::d3d11MapTypeOf(flags, &type))
    return DXGI_ERROR_INVALID_CALL;
  ID3D11DeviceContext* context = immediateContext();
  D3D11_MAPPED_SUBRESOURCE mapped{};
  const HRESULT hr = context->Map(owner_, 0, type, 0, &mapped);
  context->Release();
  if (FAILED(hr))
    return hr == E_INVALIDARG ? DXGI_ERROR_INVALID_CALL : hr;
  rect->Pitch = INT(mapped.RowPitch);
  rect->pBits = static_cast<BYTE*>(mapped.pData);
  return S_OK;
}

HRESULT DxgiResourceFace::Unmap() {
  ID3D11DeviceContext* context = immediateContext();
  context->Unmap(owner_, 0);
  context->Release();
  return S_OK;
}

// GDI interop needs the texture's bytes on the CPU for the DC's lifetime, which the DDI
// path does not provide: a GDI-compatible surface says so, any other has no DC.
HRESULT DxgiResourceFace::GetDC(BOOL, HDC* hdc) {
  if (!hdc)
    return E_INVALIDARG;
  *hdc = nullptr;
  D3D11_TEXTURE2D_DESC t;
  if (!texture2DDesc(&t) || !(t.MiscFlags & D3D11_RESOURCE_MISC_GDI_COMPATIBLE))
    return DXGI_ERROR_INVALID_CALL;
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT DxgiResourceFace::ReleaseDC(RECT*) { return DXGI_ERROR_INVALID_CALL; }   // no DC was handed out

// The runtime creates no shared resources (OpenSharedResource is not offered either).
HRESULT DxgiResourceFace::GetSharedHandle(HANDLE* handle) {
  if (!handle)
    return E_INVALIDARG;
  *handle = nullptr;
  return DXGI_ERROR_INVALID_CALL;
}

HRESULT DxgiResourceFace::GetUsage(DXGI_USAGE* usage) {
  if (!usage)
    return E_INVALIDARG;
  *usage = usage_;
  return S_OK;
}

HRESULT DxgiResourceFace::SetEvictionPriority(UINT priority) {
  owner_->SetEvictionPriority(priority);
  return S_OK;
}

HRESULT DxgiResourceFace::GetEvictionPriority(UINT* priority) {
  if (!priority)
    return E_INVALIDARG;
  *priority = owner_->GetEvictionPriority();
  return S_OK;
}

}  // namespace triton::runtime
