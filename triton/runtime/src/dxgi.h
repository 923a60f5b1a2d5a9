// SPDX-License-Identifier: MIT
#pragma once

// The DXGI side of the API-level runtime, as far as swapchains need it: the device's
// IDXGIDevice, one adapter (the display driver's), its factory, and IDXGISwapChain over
// the driver's DXGI DDI (swapchain.cpp). On Windows these are dxgi.dll's; this runtime
// has no dxgi.dll of its own, so they are reached from the device (IDXGIDevice ->
// GetAdapter -> GetParent(IDXGIFactory)) or through D3D11CreateDeviceAndSwapChain.

#include <dxgi1_2.h>

#include <atomic>

#include "com.h"

namespace triton::runtime {

class DxgiFactory;

// The adapter of the driver this runtime loaded. No outputs: presentation goes through
// the driver to wherever it shows frames (the Neptune host presenter), not a monitor.
class DxgiAdapter final : public IDXGIAdapter1 {
public:
  DxgiAdapter();
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override;
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
  ULONG STDMETHODCALLTYPE Release() override;
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return privateData_.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return privateData_.setInterface(guid, object);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return privateData_.get(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
  HRESULT STDMETHODCALLTYPE EnumOutputs(UINT, IDXGIOutput** out) override;
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_ADAPTER_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE CheckInterfaceSupport(REFGUID guid, LARGE_INTEGER* version) override;
  HRESULT STDMETHODCALLTYPE GetDesc1(DXGI_ADAPTER_DESC1* desc) override;

private:
  ~DxgiAdapter();
  std::atomic<ULONG> refs_{1};
  DxgiFactory* factory_;
  PrivateData privateData_;
};

// IDXGIDevice of a Device: part of the device object (its references are the device's).
class DxgiDevice final : public IDXGIDevice1 {
public:
  explicit DxgiDevice(Device* device) : device_(device) {}
  ~DxgiDevice();
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override;
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override;
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override;
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override;
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
  HRESULT STDMETHODCALLTYPE GetAdapter(IDXGIAdapter** adapter) override;
  HRESULT STDMETHODCALLTYPE CreateSurface(const DXGI_SURFACE_DESC*, UINT, DXGI_USAGE, const DXGI_SHARED_RESOURCE*,
                                          IDXGISurface**) override;
  HRESULT STDMETHODCALLTYPE QueryResourceResidency(IUnknown* const*, DXGI_RESIDENCY* status, UINT count) override;
  HRESULT STDMETHODCALLTYPE SetGPUThreadPriority(INT priority) override;
  HRESULT STDMETHODCALLTYPE GetGPUThreadPriority(INT* priority) override;
  HRESULT STDMETHODCALLTYPE SetMaximumFrameLatency(UINT latency) override;
  HRESULT STDMETHODCALLTYPE GetMaximumFrameLatency(UINT* latency) override;

private:
  Device* device_;
  DxgiAdapter* adapter_ = nullptr;   // created on first use
  INT priority_ = 0;
  UINT frameLatency_ = 3;
};

// The factory: swapchains for this runtime's devices.
class DxgiFactory final : public IDXGIFactory1 {
public:
  DxgiFactory() = default;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override;
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
  ULONG STDMETHODCALLTYPE Release() override;
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return privateData_.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return privateData_.setInterface(guid, object);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return privateData_.get(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE GetParent(REFIID, void** parent) override;
  HRESULT STDMETHODCALLTYPE EnumAdapters(UINT index, IDXGIAdapter** adapter) override;
  HRESULT STDMETHODCALLTYPE MakeWindowAssociation(HWND window, UINT flags) override;
  HRESULT STDMETHODCALLTYPE GetWindowAssociation(HWND* window) override;
  HRESULT STDMETHODCALLTYPE CreateSwapChain(IUnknown* device, DXGI_SWAP_CHAIN_DESC* desc,
                                            IDXGISwapChain** swapchain) override;
  HRESULT STDMETHODCALLTYPE CreateSoftwareAdapter(HMODULE, IDXGIAdapter** adapter) override;
  HRESULT STDMETHODCALLTYPE EnumAdapters1(UINT index, IDXGIAdapter1** adapter) override;
  BOOL STDMETHODCALLTYPE IsCurrent() override { return TRUE; }

private:
  ~DxgiFactory() = default;
  std::atomic<ULONG> refs_{1};
  HWND window_ = nullptr;
  PrivateData privateData_;
};

// A swapchain of `device` (swapchain.cpp).
HRESULT createSwapChain(Device* device, IDXGIFactory* factory, const DXGI_SWAP_CHAIN_DESC& desc,
                        IDXGISwapChain** out);

}  // namespace triton::runtime
