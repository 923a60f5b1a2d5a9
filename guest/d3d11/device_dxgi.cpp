// SPDX-License-Identifier: MIT
// IDXGIDevice4 of the Neptune device: the DXGI face of the same COM object.

#include "device.h"

#include "log.h"

namespace npt::guest {

HRESULT STDMETHODCALLTYPE Device::GetAdapter(IDXGIAdapter** adapter) {
  if (!adapter)
    return E_INVALIDARG;
  *adapter = nullptr;
  if (!m_adapter) {
    ComRef<IDXGIAdapter> created;
    HRESULT hr = createDefaultAdapter(created.put());
    if (FAILED(hr))
      return hr;
    m_adapter = created;
  }
  *adapter = addRefed(m_adapter.get());
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::GetParent(REFIID riid, void** parent) {
  if (!parent)
    return E_INVALIDARG;
  *parent = nullptr;
  ComRef<IDXGIAdapter> adapter;
  HRESULT hr = GetAdapter(adapter.put());
  if (FAILED(hr))
    return hr;
  return adapter->QueryInterface(riid, parent);
}

// Surfaces are 2D textures with one mip and one slice (as Wine and Windows make them),
// bound as the DXGI usage says; each is handed out as its IDXGISurface face.
HRESULT STDMETHODCALLTYPE Device::CreateSurface(const DXGI_SURFACE_DESC* desc, UINT count, DXGI_USAGE usage,
                                                const DXGI_SHARED_RESOURCE* shared, IDXGISurface** surfaces) {
  if (!desc || !count || !surfaces)
    return E_INVALIDARG;
  for (UINT i = 0; i < count; i++)
    surfaces[i] = nullptr;
  if (shared) {
    NPT_WARN("IDXGIDevice::CreateSurface: opening a shared resource through it is not supported");
    return E_INVALIDARG;
  }
  D3D11_TEXTURE2D_DESC1 texture = {};
  texture.Width = desc->Width;
  texture.Height = desc->Height;
  texture.MipLevels = 1;
  texture.ArraySize = 1;
  texture.Format = desc->Format;
  texture.SampleDesc = desc->SampleDesc;
  texture.Usage = D3D11_USAGE_DEFAULT;
  if (usage & DXGI_USAGE_SHADER_INPUT)
    texture.BindFlags |= D3D11_BIND_SHADER_RESOURCE;
  if (usage & DXGI_USAGE_RENDER_TARGET_OUTPUT)
    texture.BindFlags |= D3D11_BIND_RENDER_TARGET;
  if (usage & DXGI_USAGE_UNORDERED_ACCESS)
    texture.BindFlags |= D3D11_BIND_UNORDERED_ACCESS;
  switch (usage & 0xf) {   // the DXGI_CPU_ACCESS_* field
  case DXGI_CPU_ACCESS_NONE:
    break;
  case DXGI_CPU_ACCESS_DYNAMIC:
    texture.Usage = D3D11_USAGE_DYNAMIC;
    texture.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
    break;
  case DXGI_CPU_ACCESS_READ_WRITE:
  case DXGI_CPU_ACCESS_SCRATCH:
    texture.Usage = D3D11_USAGE_STAGING;
    texture.BindFlags = 0;
    texture.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    break;
  default:
    return E_INVALIDARG;
  }
  HRESULT hr = S_OK;
  for (UINT i = 0; i < count && SUCCEEDED(hr); i++) {
    ID3D11Texture2D1* created = nullptr;
    hr = createTexture2D(&texture, nullptr, &created, false);
    if (SUCCEEDED(hr)) {
      hr = created->QueryInterface(__uuidof(IDXGISurface), reinterpret_cast<void**>(&surfaces[i]));
      created->Release();
    }
  }
  if (FAILED(hr))
    for (UINT i = 0; i < count; i++)
      if (surfaces[i]) {
        surfaces[i]->Release();
        surfaces[i] = nullptr;
      }
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::QueryResourceResidency(IUnknown* const* resources, DXGI_RESIDENCY* residency, UINT count) {
  if (!resources || !residency)
    return E_INVALIDARG;
  // Host memory is never paged out from the guest's point of view.
  for (UINT i = 0; i < count; i++)
    residency[i] = DXGI_RESIDENCY_FULLY_RESIDENT;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::SetGPUThreadPriority(INT priority) {
  if (priority < -7 || priority > 7)
    return E_INVALIDARG;
  m_gpuThreadPriority = priority;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::GetGPUThreadPriority(INT* priority) {
  if (!priority)
    return E_POINTER;
  *priority = m_gpuThreadPriority;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::SetMaximumFrameLatency(UINT latency) {
  if (latency > DXGI_MAX_SWAP_CHAIN_BUFFERS)
    return DXGI_ERROR_INVALID_CALL;
  m_maxFrameLatency = latency ? latency : 3;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::GetMaximumFrameLatency(UINT* latency) {
  if (!latency)
    return DXGI_ERROR_INVALID_CALL;
  *latency = m_maxFrameLatency;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::OfferResources(UINT, IDXGIResource* const*, DXGI_OFFER_RESOURCE_PRIORITY) {
  return S_OK;   // offering is advisory; the host keeps the memory
}

HRESULT STDMETHODCALLTYPE Device::ReclaimResources(UINT count, IDXGIResource* const*, WINBOOL* discarded) {
  if (discarded)
    for (UINT i = 0; i < count; i++)
      discarded[i] = FALSE;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::EnqueueSetEvent(HANDLE event) {
  // Set once the GPU finished everything submitted so far (completion_notifier.h);
  // the caller does not wait.
  if (!event)
    return E_INVALIDARG;
  HRESULT hr = m_runtime->stream().flush();
  if (FAILED(hr))
    return hr;
  return signalWhenDone(event);
}

void STDMETHODCALLTYPE Device::Trim() {}

HRESULT STDMETHODCALLTYPE Device::OfferResources1(UINT, IDXGIResource* const*, DXGI_OFFER_RESOURCE_PRIORITY, UINT) {
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::ReclaimResources1(UINT count, IDXGIResource* const*, DXGI_RECLAIM_RESOURCE_RESULTS* results) {
  if (results)
    for (UINT i = 0; i < count; i++)
      results[i] = DXGI_RECLAIM_RESOURCE_RESULT_OK;
  return S_OK;
}

}
