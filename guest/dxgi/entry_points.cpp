// SPDX-License-Identifier: MIT
// The DXGI exports of d3d11.dll (dxgi.dll forwards to them: guest/dll/dxgi.def), and the
// default adapter d3d11 uses for devices created without one.
#include <atomic>

#include "../core/log.h"
#include "../core/private_interfaces.h"
#include "../core/runtime.h"
#include "adapter.h"
#include "factory.h"

#ifndef NPT_GUEST_EXPORT
#define NPT_GUEST_EXPORT extern "C" __declspec(dllexport)
#endif

namespace npt::guest::dxgi {

namespace {

// D3D11CreateDevice(pAdapter = NULL) and IDXGIDevice::GetAdapter of such a device: the
// first adapter of a new factory, as Windows' runtime does (the adapter holds the factory).
HRESULT createDefaultAdapterFromFactory(IDXGIAdapter** adapter) {
  *adapter = nullptr;
  Runtime* runtime = nullptr;
  if (FAILED(Runtime::acquire(&runtime)))
    return DXGI_ERROR_UNSUPPORTED;
  ComRef<Factory> factory;
  *factory.put() = Factory::create(&runtime->caps().info(), 0);
  return factory->EnumAdapters(0, adapter);
}

// Registered when d3d11.dll's static objects are constructed, before any entry point.
[[maybe_unused]] const bool g_defaultAdapterRegistered = [] {
  registerDefaultAdapterFactory(&createDefaultAdapterFromFactory);
  return true;
}();

std::atomic<bool> g_adapterRemovalDeclared{false};

}

}

using namespace npt::guest;

NPT_GUEST_EXPORT HRESULT WINAPI CreateDXGIFactory(REFIID riid, void** factory) {
  return dxgi::createFactory(0, riid, factory);
}

NPT_GUEST_EXPORT HRESULT WINAPI CreateDXGIFactory1(REFIID riid, void** factory) {
  return dxgi::createFactory(0, riid, factory);
}

NPT_GUEST_EXPORT HRESULT WINAPI CreateDXGIFactory2(UINT flags, REFIID riid, void** factory) {
  return dxgi::createFactory(flags, riid, factory);
}

NPT_GUEST_EXPORT HRESULT WINAPI DXGIGetDebugInterface1(UINT flags, REFIID riid, void** debug) {
  if (!debug)
    return E_INVALIDARG;
  *debug = nullptr;
  // The DXGI debug interfaces belong to the SDK's debug layer (dxgidebug.dll), which is
  // not present behind Neptune: Windows' answer without the layer.
  if (flags)
    return E_INVALIDARG;
  return E_NOINTERFACE;
}

NPT_GUEST_EXPORT HRESULT WINAPI DXGIDeclareAdapterRemovalSupport() {
  // Once per process; the host's adapter is never removed under a connection anyway.
  bool expected = false;
  return dxgi::g_adapterRemovalDeclared.compare_exchange_strong(expected, true) ? S_OK : DXGI_ERROR_ALREADY_EXISTS;
}
