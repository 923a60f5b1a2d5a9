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

HRESULT STDMETHODCALLTYPE Device::CreateSurface(const DXGI_SURFACE_DESC*, UINT, DXGI_USAGE, const DXGI_SHARED_RESOURCE*, IDXGISurface** surface) {
  NPT_WARN("IDXGIDevice::CreateSurface is not supported (protocol v1)");
  if (surface)
    *surface = nullptr;
  return E_NOTIMPL;
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
  // Signalled once everything submitted so far executed: the one place the device
  // waits for the host on request of the application.
  HRESULT hr = m_runtime->stream().finish();
  if (FAILED(hr))
    return hr;
  return SetEvent(event) ? S_OK : E_INVALIDARG;
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
