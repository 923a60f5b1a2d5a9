// SPDX-License-Identifier: MIT
#include "factory.h"

#include <algorithm>

#include "../core/log.h"
#include "../core/runtime.h"
#include "adapter.h"
#include "swapchain.h"

namespace npt::guest::dxgi {

Factory* Factory::create(const protocol::HostInfo* host, UINT flags) {
  Factory* factory = new Factory(host, flags);
  factory->AddRef();
  return factory;
}

HRESULT Factory::QueryInterface(REFIID riid, void** object) {
  if (!object)
    return E_POINTER;
  *object = nullptr;
  if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIFactory) ||
      riid == __uuidof(IDXGIFactory1) || riid == __uuidof(IDXGIFactory2) || riid == __uuidof(IDXGIFactory3) ||
      riid == __uuidof(IDXGIFactory4) || riid == __uuidof(IDXGIFactory5) || riid == __uuidof(IDXGIFactory6) ||
      riid == __uuidof(IDXGIFactory7))
    return returnInterface(this, object);
  return E_NOINTERFACE;
}

HRESULT Factory::GetParent(REFIID riid, void** parent) {
  // A factory is the root of the DXGI object tree (test_parents).
  if (!parent)
    return E_POINTER;
  *parent = nullptr;
  return E_NOINTERFACE;
}

HRESULT Factory::newAdapter(REFIID riid, void** adapter) {
  Adapter* object = Adapter::create(this);
  HRESULT hr = object->QueryInterface(riid, adapter);
  object->Release();
  return hr;
}

HRESULT Factory::EnumAdapters(UINT index, IDXGIAdapter** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  *adapter = nullptr;
  // One adapter: the host's device. No WARP adapter is listed (see EnumWarpAdapter).
  if (index != 0)
    return DXGI_ERROR_NOT_FOUND;
  return newAdapter(__uuidof(IDXGIAdapter), reinterpret_cast<void**>(adapter));
}

HRESULT Factory::EnumAdapters1(UINT index, IDXGIAdapter1** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  *adapter = nullptr;
  if (index != 0)
    return DXGI_ERROR_NOT_FOUND;
  return newAdapter(__uuidof(IDXGIAdapter1), reinterpret_cast<void**>(adapter));
}

HRESULT Factory::EnumAdapterByLuid(LUID luid, REFIID riid, void** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  *adapter = nullptr;
  const LUID& ours = m_host->adapter.luid;
  if (luid.LowPart != ours.LowPart || luid.HighPart != ours.HighPart)
    return DXGI_ERROR_NOT_FOUND;
  return newAdapter(riid, adapter);
}

HRESULT Factory::EnumWarpAdapter(REFIID riid, void** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  *adapter = nullptr;
  // WARP would be a software rasterizer inside the guest; Neptune renders on the host
  // only, so there is none to enumerate.
  NPT_INFO("EnumWarpAdapter: no WARP adapter behind Neptune");
  return DXGI_ERROR_NOT_FOUND;
}

HRESULT Factory::EnumAdapterByGpuPreference(UINT index, DXGI_GPU_PREFERENCE preference, REFIID riid, void** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  *adapter = nullptr;
  if (preference != DXGI_GPU_PREFERENCE_UNSPECIFIED && preference != DXGI_GPU_PREFERENCE_MINIMUM_POWER &&
      preference != DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE)
    return E_INVALIDARG;
  // Every preference orders the same single adapter first.
  if (index != 0)
    return DXGI_ERROR_NOT_FOUND;
  return newAdapter(riid, adapter);
}

HRESULT Factory::MakeWindowAssociation(HWND window, UINT flags) {
  if (flags & ~UINT(DXGI_MWA_VALID))
    return DXGI_ERROR_INVALID_CALL;
  // Alt-Enter and Print-Screen handling belong to fullscreen swapchains, which Neptune
  // does not create (SetFullscreenState); the association itself is remembered.
  std::lock_guard<std::mutex> lock(m_mutex);
  m_associatedWindow = window;
  return S_OK;
}

HRESULT Factory::GetWindowAssociation(HWND* window) {
  if (!window)
    return DXGI_ERROR_INVALID_CALL;
  std::lock_guard<std::mutex> lock(m_mutex);
  *window = m_associatedWindow;
  return S_OK;
}

HRESULT Factory::CreateSwapChain(IUnknown* device, DXGI_SWAP_CHAIN_DESC* desc, IDXGISwapChain** swapchain) {
  // test_create_swapchain: every missing argument is an invalid call.
  if (!device || !desc || !swapchain)
    return DXGI_ERROR_INVALID_CALL;
  *swapchain = nullptr;
  if (!desc->OutputWindow)
    return DXGI_ERROR_INVALID_CALL;
  DXGI_SWAP_CHAIN_DESC1 desc1;
  DXGI_SWAP_CHAIN_FULLSCREEN_DESC fullscreen;
  splitSwapChainDesc(*desc, &desc1, &fullscreen);
  IDXGISwapChain1* created = nullptr;
  HRESULT hr = createSwapChain(this, device, desc->OutputWindow, desc1, fullscreen, nullptr,
                               SwapChainTarget::Hwnd, &created);
  if (SUCCEEDED(hr))
    *swapchain = created;
  return hr;
}

HRESULT Factory::CreateSwapChainForHwnd(IUnknown* device, HWND window, const DXGI_SWAP_CHAIN_DESC1* desc,
    const DXGI_SWAP_CHAIN_FULLSCREEN_DESC* fullscreen, IDXGIOutput* output, IDXGISwapChain1** swapchain) {
  if (!device || !window || !desc || !swapchain)
    return DXGI_ERROR_INVALID_CALL;
  *swapchain = nullptr;
  DXGI_SWAP_CHAIN_FULLSCREEN_DESC windowed = {};
  windowed.Windowed = TRUE;
  return createSwapChain(this, device, window, *desc, fullscreen ? *fullscreen : windowed, output,
                         SwapChainTarget::Hwnd, swapchain);
}

HRESULT Factory::CreateSwapChainForCoreWindow(IUnknown* device, IUnknown* window, const DXGI_SWAP_CHAIN_DESC1* desc,
    IDXGIOutput* output, IDXGISwapChain1** swapchain) {
  if (swapchain)
    *swapchain = nullptr;
  // CoreWindow exists only for UWP applications; Windows answers desktop applications
  // (and Wine) the same.
  return DXGI_ERROR_INVALID_CALL;
}

HRESULT Factory::CreateSwapChainForComposition(IUnknown* device, const DXGI_SWAP_CHAIN_DESC1* desc,
    IDXGIOutput* output, IDXGISwapChain1** swapchain) {
  if (!device || !desc || !swapchain)
    return DXGI_ERROR_INVALID_CALL;
  *swapchain = nullptr;
  HRESULT hr = validateSwapChainDesc(*desc, SwapChainTarget::Composition, SwapChainCaps{});
  if (FAILED(hr))
    return hr;
  // A composition swapchain is shown through DirectComposition visuals, which the
  // host presenter does not have yet: the documented "not supported" answer.
  NPT_WARN("CreateSwapChainForComposition: DirectComposition is not remoted; returning DXGI_ERROR_UNSUPPORTED");
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT Factory::CreateSoftwareAdapter(HMODULE module, IDXGIAdapter** adapter) {
  if (!adapter)
    return DXGI_ERROR_INVALID_CALL;
  *adapter = nullptr;
  if (!module)
    return DXGI_ERROR_INVALID_CALL;
  // A software rasterizer DLL would render inside the guest, not through the host.
  return DXGI_ERROR_UNSUPPORTED;
}

BOOL Factory::IsCurrent() {
  // The host's adapter list never changes under a connection.
  return TRUE;
}

BOOL Factory::IsWindowedStereoEnabled() {
  return FALSE;
}

HRESULT Factory::GetSharedResourceAdapterLuid(HANDLE resource, LUID* luid) {
  if (!luid)
    return DXGI_ERROR_INVALID_CALL;
  // NT shared handles are not remoted in protocol v1 (protocol/README.md, policy
  // "unsupported"): no handle can name a Neptune resource.
  return DXGI_ERROR_INVALID_CALL;
}

DWORD Factory::registerStatus(std::vector<DWORD>& cookies) {
  std::lock_guard<std::mutex> lock(m_mutex);
  DWORD cookie = m_nextCookie++;
  cookies.push_back(cookie);
  return cookie;
}

HRESULT Factory::RegisterStereoStatusWindow(HWND window, UINT msg, DWORD* cookie) {
  if (!window || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  *cookie = registerStatus(m_stereoCookies);
  return S_OK;
}

HRESULT Factory::RegisterStereoStatusEvent(HANDLE event, DWORD* cookie) {
  if (!event || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  *cookie = registerStatus(m_stereoCookies);
  return S_OK;
}

void Factory::UnregisterStereoStatus(DWORD cookie) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_stereoCookies.erase(std::remove(m_stereoCookies.begin(), m_stereoCookies.end(), cookie), m_stereoCookies.end());
}

HRESULT Factory::RegisterOcclusionStatusWindow(HWND window, UINT msg, DWORD* cookie) {
  if (!window || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  *cookie = registerStatus(m_occlusionCookies);
  return S_OK;
}

HRESULT Factory::RegisterOcclusionStatusEvent(HANDLE event, DWORD* cookie) {
  if (!event || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  *cookie = registerStatus(m_occlusionCookies);
  return S_OK;
}

void Factory::UnregisterOcclusionStatus(DWORD cookie) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_occlusionCookies.erase(std::remove(m_occlusionCookies.begin(), m_occlusionCookies.end(), cookie),
                           m_occlusionCookies.end());
}

UINT Factory::GetCreationFlags() {
  return m_flags;
}

HRESULT Factory::CheckFeatureSupport(DXGI_FEATURE feature, void* data, UINT size) {
  switch (feature) {
    case DXGI_FEATURE_PRESENT_ALLOW_TEARING:
      // test_factory_check_feature_support: a wrong size is an invalid call.
      if (!data || size != sizeof(BOOL))
        return DXGI_ERROR_INVALID_CALL;
      // Present with sync interval 0 never waits for a vblank on the host presenter.
      *static_cast<BOOL*>(data) = TRUE;
      return S_OK;
    default:
      return DXGI_ERROR_INVALID_CALL;
  }
}

HRESULT Factory::RegisterAdaptersChangedEvent(HANDLE event, DWORD* cookie) {
  if (!event || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  *cookie = registerStatus(m_adaptersChangedCookies);
  return S_OK;
}

HRESULT Factory::UnregisterAdaptersChangedEvent(DWORD cookie) {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = std::find(m_adaptersChangedCookies.begin(), m_adaptersChangedCookies.end(), cookie);
  if (it == m_adaptersChangedCookies.end())
    return DXGI_ERROR_NOT_FOUND;
  m_adaptersChangedCookies.erase(it);
  return S_OK;
}

HRESULT createFactory(UINT flags, REFIID riid, void** factory) {
  if (!factory)
    return DXGI_ERROR_INVALID_CALL;
  *factory = nullptr;
  if (flags & ~UINT(DXGI_CREATE_FACTORY_DEBUG))
    return DXGI_ERROR_INVALID_CALL;
  Runtime* runtime = nullptr;
  if (FAILED(Runtime::acquire(&runtime))) {
    // Contract 1: the log line names the reason (Runtime::acquire wrote it).
    NPT_ERROR("CreateDXGIFactory: no Neptune server, returning DXGI_ERROR_UNSUPPORTED");
    return DXGI_ERROR_UNSUPPORTED;
  }
  Factory* object = Factory::create(&runtime->caps().info(), flags);
  HRESULT hr = object->QueryInterface(riid, factory);
  object->Release();
  return hr;
}

}
