// SPDX-License-Identifier: MIT
// IDXGIDevice, the adapter and the factory (dxgi.h).

#include "dxgi.h"

#include <cwchar>

#include "device.h"

namespace triton::runtime {

// Adapter ---------------------------------------------------------------------------------------

DxgiAdapter::DxgiAdapter() : factory_(new DxgiFactory) {}

DxgiAdapter::~DxgiAdapter() { factory_->Release(); }

ULONG DxgiAdapter::Release() {
  const ULONG refs = --refs_;
  if (!refs)
    delete this;
  return refs;
}

HRESULT DxgiAdapter::QueryInterface(REFIID riid, void** out) {
  if (!out)
    return E_POINTER;
  *out = nullptr;
  if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIAdapter) ||
      riid == __uuidof(IDXGIAdapter1)) {
    *out = static_cast<IDXGIAdapter1*>(this);
    AddRef();
    return S_OK;
  }
  return E_NOINTERFACE;
}

HRESULT DxgiAdapter::GetParent(REFIID riid, void** parent) { return factory_->QueryInterface(riid, parent); }

HRESULT DxgiAdapter::EnumOutputs(UINT, IDXGIOutput** out) {
  if (out) *out = nullptr;
  return DXGI_ERROR_NOT_FOUND;
}

HRESULT DxgiAdapter::GetDesc(DXGI_ADAPTER_DESC* desc) {
  if (!desc)
    return E_INVALIDARG;
  DXGI_ADAPTER_DESC1 desc1{};
  GetDesc1(&desc1);
  std::memcpy(desc, &desc1, sizeof(*desc));   // DESC1 is DESC plus Flags
  return S_OK;
}

HRESULT DxgiAdapter::GetDesc1(DXGI_ADAPTER_DESC1* desc) {
  if (!desc)
    return E_INVALIDARG;
  *desc = {};
  std::wcsncpy(desc->Description, L"Triton (D3D11 user-mode driver)", 127);
  return S_OK;
}

HRESULT DxgiAdapter::CheckInterfaceSupport(REFGUID guid, LARGE_INTEGER* version) {
  if (guid != __uuidof(ID3D11Device))   // D3D10 devices are not this runtime's
    return DXGI_ERROR_UNSUPPORTED;
  if (version) version->QuadPart = 0;
  return S_OK;
}

// Factory ---------------------------------------------------------------------------------------

ULONG DxgiFactory::Release() {
  const ULONG refs = --refs_;
  if (!refs)
    delete this;
  return refs;
}

HRESULT DxgiFactory::QueryInterface(REFIID riid, void** out) {
  if (!out)
    return E_POINTER;
  *out = nullptr;
  if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIFactory) ||
      riid == __uuidof(IDXGIFactory1)) {
    *out = static_cast<IDXGIFactory1*>(this);
    AddRef();
    return S_OK;
  }
  return E_NOINTERFACE;
}

HRESULT DxgiFactory::GetParent(REFIID, void** parent) {
  if (parent) *parent = nullptr;
  return E_NOINTERFACE;
}

HRESULT DxgiFactory::EnumAdapters(UINT index, IDXGIAdapter** adapter) {
  IDXGIAdapter1* one = nullptr;
  const HRESULT hr = EnumAdapters1(index, adapter ? &one : nullptr);
  if (adapter) *adapter = one;
  return hr;
}

HRESULT DxgiFactory::EnumAdapters1(UINT index, IDXGIAdapter1** adapter) {
  if (!adapter)
    return E_INVALIDARG;
  *adapter = nullptr;
  if (index > 0)
    return DXGI_ERROR_NOT_FOUND;
  *adapter = new DxgiAdapter;
  return S_OK;
}

HRESULT DxgiFactory::MakeWindowAssociation(HWND window, UINT) {
  window_ = window;
  return S_OK;
}

HRESULT DxgiFactory::GetWindowAssociation(HWND* window) {
  if (!window)
    return DXGI_ERROR_INVALID_CALL;
  *window = window_;
  return S_OK;
}

HRESULT DxgiFactory::CreateSoftwareAdapter(HMODULE, IDXGIAdapter** adapter) {
  if (adapter) *adapter = nullptr;
  return DXGI_ERROR_UNSUPPORTED;
}

// A swapchain needs a device of this runtime: its IDXGIDevice is how one recognises it.
HRESULT DxgiFactory::CreateSwapChain(IUnknown* unknown, DXGI_SWAP_CHAIN_DESC* desc, IDXGISwapChain** out) {
  if (out) *out = nullptr;
  if (!unknown || !desc || !out)
    return DXGI_ERROR_INVALID_CALL;
  IDXGIDevice* dxgiDevice = nullptr;
  if (FAILED(unknown->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgiDevice))))
    return DXGI_ERROR_INVALID_CALL;
  ID3D11Device* d3d = nullptr;
  const HRESULT hr = dxgiDevice->QueryInterface(__uuidof(ID3D11Device), reinterpret_cast<void**>(&d3d));
  dxgiDevice->Release();
  if (FAILED(hr))
    return DXGI_ERROR_INVALID_CALL;
  // Only this runtime's devices answer IDXGIDevice with a DxgiDevice whose device is a
  // runtime Device; another d3d11's device is not one we can present from.
  Device* device = Device::fromApi(d3d);
  d3d->Release();
  if (!device)
    return DXGI_ERROR_INVALID_CALL;
  return createSwapChain(device, this, *desc, out);
}

// IDXGIDevice -------------------------------------------------------------------------------------

DxgiDevice::~DxgiDevice() {
  if (adapter_)
    adapter_->Release();
}

HRESULT DxgiDevice::QueryInterface(REFIID riid, void** out) { return device_->QueryInterface(riid, out); }
ULONG DxgiDevice::AddRef() { return device_->AddRef(); }
ULONG DxgiDevice::Release() { return device_->Release(); }

HRESULT DxgiDevice::SetPrivateData(REFGUID guid, UINT size, const void* data) {
  return device_->SetPrivateData(guid, size, data);
}
HRESULT DxgiDevice::SetPrivateDataInterface(REFGUID guid, const IUnknown* object) {
  return device_->SetPrivateDataInterface(guid, object);
}
HRESULT DxgiDevice::GetPrivateData(REFGUID guid, UINT* size, void* data) {
  return device_->GetPrivateData(guid, size, data);
}

HRESULT DxgiDevice::GetAdapter(IDXGIAdapter** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  std::lock_guard<std::recursive_mutex> lock(device_->lock());
  if (!adapter_)
    adapter_ = new DxgiAdapter;
  adapter_->AddRef();
  *adapter = adapter_;
  return S_OK;
}

HRESULT DxgiDevice::GetParent(REFIID riid, void** parent) {
  IDXGIAdapter* adapter = nullptr;
  GetAdapter(&adapter);
  const HRESULT hr = adapter->QueryInterface(riid, parent);
  adapter->Release();
  return hr;
}

HRESULT DxgiDevice::CreateSurface(const DXGI_SURFACE_DESC*, UINT, DXGI_USAGE, const DXGI_SHARED_RESOURCE*,
                                  IDXGISurface** out) {
  notImplemented("IDXGIDevice::CreateSurface");
  if (out) *out = nullptr;
  return E_NOTIMPL;
}

// Every resource stays resident while the device lives (the driver's residency answer).
HRESULT DxgiDevice::QueryResourceResidency(IUnknown* const*, DXGI_RESIDENCY* status, UINT count) {
  if (!status)
    return E_INVALIDARG;
  for (UINT i = 0; i < count; ++i)
    status[i] = DXGI_RESIDENCY_FULLY_RESIDENT;
  return S_OK;
}

HRESULT DxgiDevice::SetGPUThreadPriority(INT priority) {
  if (priority < -7 || priority > 7)
    return E_INVALIDARG;
  priority_ = priority;
  return S_OK;
}

HRESULT DxgiDevice::GetGPUThreadPriority(INT* priority) {
  if (!priority)
    return E_POINTER;
  *priority = priority_;
  return S_OK;
}

// The DDI does not carry the frame latency (Triton bounds its run-ahead at 3 itself); the
// value is kept for the getter.
HRESULT DxgiDevice::SetMaximumFrameLatency(UINT latency) {
  if (latency > 16)
    return DXGI_ERROR_INVALID_CALL;
  frameLatency_ = latency ? latency : 3;
  return S_OK;
}

HRESULT DxgiDevice::GetMaximumFrameLatency(UINT* latency) {
  if (!latency)
    return DXGI_ERROR_INVALID_CALL;
  *latency = frameLatency_;
  return S_OK;
}

}  // namespace triton::runtime
