// SPDX-License-Identifier: MIT
#pragma once

#include <mutex>
#include <vector>

#include "dxgi_object.h"
#include "npt/protocol/host_info.h"

// IDXGIFactory..IDXGIFactory7 over the host's description (contract 2): one adapter
// (the host's device) with the host's outputs. Everything is answered locally; the
// only factory method that reaches the device is swapchain creation.
namespace npt::guest::dxgi {

class Factory final : public DxgiObject<IDXGIFactory7> {
public:
  // host: the process runtime's host info (lives as long as the process).
  // Returns an AddRef'd factory.
  static Factory* create(const protocol::HostInfo* host, UINT flags);

  const protocol::HostInfo& host() const { return *m_host; }

  // IUnknown / IDXGIObject
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;

  // IDXGIFactory
  HRESULT STDMETHODCALLTYPE EnumAdapters(UINT index, IDXGIAdapter** adapter) override;
  HRESULT STDMETHODCALLTYPE MakeWindowAssociation(HWND window, UINT flags) override;
  HRESULT STDMETHODCALLTYPE GetWindowAssociation(HWND* window) override;
  HRESULT STDMETHODCALLTYPE CreateSwapChain(IUnknown* device, DXGI_SWAP_CHAIN_DESC* desc, IDXGISwapChain** swapchain) override;
  HRESULT STDMETHODCALLTYPE CreateSoftwareAdapter(HMODULE module, IDXGIAdapter** adapter) override;
  // IDXGIFactory1
  HRESULT STDMETHODCALLTYPE EnumAdapters1(UINT index, IDXGIAdapter1** adapter) override;
  BOOL STDMETHODCALLTYPE IsCurrent() override;
  // IDXGIFactory2
  BOOL STDMETHODCALLTYPE IsWindowedStereoEnabled() override;
  HRESULT STDMETHODCALLTYPE CreateSwapChainForHwnd(IUnknown* device, HWND window, const DXGI_SWAP_CHAIN_DESC1* desc,
      const DXGI_SWAP_CHAIN_FULLSCREEN_DESC* fullscreen, IDXGIOutput* output, IDXGISwapChain1** swapchain) override;
  HRESULT STDMETHODCALLTYPE CreateSwapChainForCoreWindow(IUnknown* device, IUnknown* window,
      const DXGI_SWAP_CHAIN_DESC1* desc, IDXGIOutput* output, IDXGISwapChain1** swapchain) override;
  HRESULT STDMETHODCALLTYPE GetSharedResourceAdapterLuid(HANDLE resource, LUID* luid) override;
  HRESULT STDMETHODCALLTYPE RegisterStereoStatusWindow(HWND window, UINT msg, DWORD* cookie) override;
  HRESULT STDMETHODCALLTYPE RegisterStereoStatusEvent(HANDLE event, DWORD* cookie) override;
  void STDMETHODCALLTYPE UnregisterStereoStatus(DWORD cookie) override;
  HRESULT STDMETHODCALLTYPE RegisterOcclusionStatusWindow(HWND window, UINT msg, DWORD* cookie) override;
  HRESULT STDMETHODCALLTYPE RegisterOcclusionStatusEvent(HANDLE event, DWORD* cookie) override;
  void STDMETHODCALLTYPE UnregisterOcclusionStatus(DWORD cookie) override;
  HRESULT STDMETHODCALLTYPE CreateSwapChainForComposition(IUnknown* device, const DXGI_SWAP_CHAIN_DESC1* desc,
      IDXGIOutput* output, IDXGISwapChain1** swapchain) override;
  // IDXGIFactory3
  UINT STDMETHODCALLTYPE GetCreationFlags() override;
  // IDXGIFactory4
  HRESULT STDMETHODCALLTYPE EnumAdapterByLuid(LUID luid, REFIID riid, void** adapter) override;
  HRESULT STDMETHODCALLTYPE EnumWarpAdapter(REFIID riid, void** adapter) override;
  // IDXGIFactory5
  HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DXGI_FEATURE feature, void* data, UINT size) override;
  // IDXGIFactory6
  HRESULT STDMETHODCALLTYPE EnumAdapterByGpuPreference(UINT index, DXGI_GPU_PREFERENCE preference,
      REFIID riid, void** adapter) override;
  // IDXGIFactory7
  HRESULT STDMETHODCALLTYPE RegisterAdaptersChangedEvent(HANDLE event, DWORD* cookie) override;
  HRESULT STDMETHODCALLTYPE UnregisterAdaptersChangedEvent(DWORD cookie) override;

private:
  Factory(const protocol::HostInfo* host, UINT flags) : m_host(host), m_flags(flags) {}
  // A new adapter object for the host's device (Windows returns a new instance per
  // enumeration: test_output_desc).
  HRESULT newAdapter(REFIID riid, void** adapter);
  DWORD registerStatus(std::vector<DWORD>& cookies);

  const protocol::HostInfo* m_host;
  UINT m_flags;
  std::mutex m_mutex;
  HWND m_associatedWindow = nullptr;
  DWORD m_nextCookie = 1;
  // Status registrations: nothing ever changes (no stereo, no occlusion, one adapter),
  // but the cookies are real so that Unregister of an unknown cookie is detected.
  std::vector<DWORD> m_stereoCookies, m_occlusionCookies, m_adaptersChangedCookies;
};

// CreateDXGIFactory/1/2: the process runtime's factory. No server reachable:
// DXGI_ERROR_UNSUPPORTED (contract 1) and a log line.
HRESULT createFactory(UINT flags, REFIID riid, void** factory);

}
