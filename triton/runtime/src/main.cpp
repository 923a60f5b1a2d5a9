// The exports: D3D11CreateDevice, as the façade's d3d11.dll offers it.

#include "context.h"

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
