// SPDX-License-Identifier: MIT
// The exports: D3D11CreateDevice and D3D11CreateDeviceAndSwapChain, as Microsoft's
// d3d11.dll offers them.

#include "context.h"
#include "dxgi.h"

using triton::runtime::Device;

extern "C" HRESULT WINAPI D3D11CreateDevice(IDXGIAdapter* adapter, D3D_DRIVER_TYPE driverType, HMODULE software,
                                            UINT flags, const D3D_FEATURE_LEVEL* levels, UINT levelCount,
                                            UINT sdkVersion, ID3D11Device** deviceOut, D3D_FEATURE_LEVEL* levelOut,
                                            ID3D11DeviceContext** contextOut) {
  if (deviceOut) *deviceOut = nullptr;
  if (contextOut) *contextOut = nullptr;
  // The display driver is the hardware adapter's; software rasterizers and explicit
  // adapters (DXGI enumeration) are outside this runtime.
  if (adapter || software || (driverType != D3D_DRIVER_TYPE_HARDWARE && driverType != D3D_DRIVER_TYPE_UNKNOWN))
    return E_INVALIDARG;
  if (sdkVersion != D3D11_SDK_VERSION)
    return E_INVALIDARG;
  (void)flags;   // debug and single-threaded flags change nothing here
  Device* device = nullptr;
  const HRESULT hr = Device::create(levels, levelCount, &device);
  if (FAILED(hr))
    return hr;
  if (levelOut)
    *levelOut = device->GetFeatureLevel();
  if (contextOut)
    device->GetImmediateContext(contextOut);
  if (deviceOut)
    *deviceOut = device;
  else
    device->Release();
  return S_OK;
}

// The device, then a swapchain from its adapter's factory, as the runtime does.
extern "C" HRESULT WINAPI D3D11CreateDeviceAndSwapChain(IDXGIAdapter* adapter, D3D_DRIVER_TYPE driverType,
                                                        HMODULE software, UINT flags, const D3D_FEATURE_LEVEL* levels,
                                                        UINT levelCount, UINT sdkVersion,
                                                        const DXGI_SWAP_CHAIN_DESC* swapChainDesc,
                                                        IDXGISwapChain** swapChainOut, ID3D11Device** deviceOut,
                                                        D3D_FEATURE_LEVEL* levelOut, ID3D11DeviceContext** contextOut) {
  if (swapChainOut) *swapChainOut = nullptr;
  if (deviceOut) *deviceOut = nullptr;
  if (contextOut) *contextOut = nullptr;
  if (swapChainOut && !swapChainDesc)
    return E_INVALIDARG;
  ID3D11Device* device = nullptr;
  HRESULT hr = D3D11CreateDevice(adapter, driverType, software, flags, levels, levelCount, sdkVersion, &device,
                                 levelOut, nullptr);
  if (FAILED(hr))
    return hr;
  if (swapChainOut) {
    IDXGIDevice* dxgiDevice = nullptr;
    IDXGIAdapter* dxgiAdapter = nullptr;
    IDXGIFactory* factory = nullptr;
    device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgiDevice));
    dxgiDevice->GetAdapter(&dxgiAdapter);
    dxgiAdapter->GetParent(__uuidof(IDXGIFactory), reinterpret_cast<void**>(&factory));
    DXGI_SWAP_CHAIN_DESC desc = *swapChainDesc;
    hr = factory->CreateSwapChain(device, &desc, swapChainOut);
    factory->Release();
    dxgiAdapter->Release();
    dxgiDevice->Release();
    if (FAILED(hr)) {
      device->Release();
      return hr;
    }
  }
  if (contextOut)
    device->GetImmediateContext(contextOut);
  if (deviceOut)
    *deviceOut = device;
  else
    device->Release();
  return S_OK;
}
