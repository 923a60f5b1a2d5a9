// SPDX-License-Identifier: MIT
// The d3d11.dll entry points: D3D11CreateDevice and D3D11CreateDeviceAndSwapChain.

#include "context.h"
#include "device.h"
#include "log.h"

using namespace npt::guest;
namespace protocol = npt::protocol;

namespace {

constexpr D3D_FEATURE_LEVEL kDefaultLevels[] = {
  D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0,
  D3D_FEATURE_LEVEL_9_3, D3D_FEATURE_LEVEL_9_2, D3D_FEATURE_LEVEL_9_1,
};

bool knownLevel(D3D_FEATURE_LEVEL level) {
  switch (level) {
    case D3D_FEATURE_LEVEL_9_1: case D3D_FEATURE_LEVEL_9_2: case D3D_FEATURE_LEVEL_9_3:
    case D3D_FEATURE_LEVEL_10_0: case D3D_FEATURE_LEVEL_10_1: case D3D_FEATURE_LEVEL_11_0:
    case D3D_FEATURE_LEVEL_11_1: case D3D_FEATURE_LEVEL_12_0: case D3D_FEATURE_LEVEL_12_1:
      return true;
    default:
      return false;
  }
}

// The synchronous device creation (contract 5): the host creates its device and
// immediate context under the guest's ids and answers the HRESULT and level.
HRESULT callSyncCreateDevice(Runtime* runtime, Statistics* statistics, UINT flags, D3D_FEATURE_LEVEL level,
                             protocol::ObjectId deviceId, protocol::ObjectId contextId, D3D_FEATURE_LEVEL* obtained) {
  HRESULT created = E_FAIL;
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  HRESULT hr = runtime->stream().callSync(statistics,
    [&](Recorder& r) {
      return protocol::encode_D3D11CreateDevice(r.writer(), 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, flags, &level, 1,
                                                D3D11_SDK_VERSION, deviceId, contextId);
    },
    [&](const uint8_t* reply, size_t size) { decoded = protocol::decodeReply_D3D11CreateDevice(reply, size, &created, obtained); });
  if (FAILED(hr))
    return hr;
  if (decoded != protocol::ErrorCode::Ok) {
    NPT_ERROR("malformed D3D11CreateDevice reply from the host (%s)", protocol::errorName(decoded));
    return E_FAIL;
  }
  return created;
}

}

extern "C" HRESULT WINAPI D3D11CreateDevice(IDXGIAdapter* adapter, D3D_DRIVER_TYPE driverType, HMODULE software, UINT flags,
                                            const D3D_FEATURE_LEVEL* levels, UINT levelCount, UINT sdkVersion,
                                            ID3D11Device** deviceOut, D3D_FEATURE_LEVEL* levelOut,
                                            ID3D11DeviceContext** contextOut) {
  if (deviceOut)
    *deviceOut = nullptr;
  if (contextOut)
    *contextOut = nullptr;
  if (levelOut)
    *levelOut = D3D_FEATURE_LEVEL(0);

  // Argument checks before anything else happens: an adapter with a driver type is
  // E_INVALIDARG (documented); no adapter for UNKNOWN and no module for SOFTWARE are
  // E_FAIL, and a NULL level array means the default list, as in Wine's d3d11.
  if (adapter && driverType != D3D_DRIVER_TYPE_UNKNOWN)
    return E_INVALIDARG;
  if ((!adapter && driverType == D3D_DRIVER_TYPE_UNKNOWN) || (driverType == D3D_DRIVER_TYPE_SOFTWARE && !software))
    return E_FAIL;
  if (!levels || !levelCount) {
    levels = kDefaultLevels;
    levelCount = UINT(sizeof(kDefaultLevels) / sizeof(kDefaultLevels[0]));
  }
  for (UINT i = 0; i < levelCount; i++)
    if (!knownLevel(levels[i]))
      return E_INVALIDARG;

  Runtime* runtime = nullptr;
  HRESULT hr = Runtime::acquire(&runtime);
  if (hr == E_OUTOFMEMORY) {
    // The server refused another context for its memory bound: what Windows answers
    // when there is no memory for the device.
    NPT_ERROR("D3D11CreateDevice fails with E_OUTOFMEMORY: the Neptune server has no memory for another device");
    return E_OUTOFMEMORY;
  }
  if (FAILED(hr)) {
    NPT_ERROR("D3D11CreateDevice fails with E_FAIL: no Neptune server");
    return E_FAIL;
  }

  D3D_FEATURE_LEVEL chosen = D3D_FEATURE_LEVEL(0);
  for (UINT i = 0; i < levelCount && !chosen; i++)
    if (levels[i] <= runtime->caps().maxFeatureLevel())
      chosen = levels[i];
  if (!chosen) {
    NPT_WARN("D3D11CreateDevice: no requested feature level is at or below the host's 0x%x",
             unsigned(runtime->caps().maxFeatureLevel()));
    return E_INVALIDARG;
  }
  if (levelOut)
    *levelOut = chosen;
  // No out pointers: the call only asks whether a device could be created.
  if (!deviceOut && !contextOut)
    return S_FALSE;

  protocol::ObjectId deviceId = runtime->allocateId();
  protocol::ObjectId contextId = runtime->allocateId();
  if (!deviceId || !contextId)
    return E_OUTOFMEMORY;
  // Flags the host does not accept (the debug layer) stay local: GetCreationFlags
  // still reports what the application asked for.
  UINT hostFlags = flags & runtime->caps().supportedCreationFlags();
  Statistics creation;
  D3D_FEATURE_LEVEL obtained = chosen;
  hr = callSyncCreateDevice(runtime, &creation, hostFlags, chosen, deviceId, contextId, &obtained);
  if (FAILED(hr)) {
    NPT_ERROR("the host could not create a device: 0x%08x", unsigned(hr));
    runtime->releaseUnusedId(deviceId);
    runtime->releaseUnusedId(contextId);
    if (levelOut)
      *levelOut = D3D_FEATURE_LEVEL(0);
    return hr;
  }

  auto* device = new Device(runtime, deviceId, contextId, chosen, flags, adapter);
  // The creation's round trips (and a new connection's QueryHostInfo) count for the
  // device they made.
  for (StatisticsSnapshot s : { creation.snapshot(), runtime->claimSetupStatistics() }) {
    device->statistics()->commands += s.commands;
    device->statistics()->bytes += s.bytes;
    device->statistics()->syncRoundTrips += s.syncRoundTrips;
  }
  if (contextOut)
    device->GetImmediateContext(contextOut);
  if (deviceOut)
    *deviceOut = device;
  else
    device->Release();
  return S_OK;
}

extern "C" HRESULT WINAPI D3D11CreateDeviceAndSwapChain(IDXGIAdapter* adapter, D3D_DRIVER_TYPE driverType, HMODULE software,
                                                        UINT flags, const D3D_FEATURE_LEVEL* levels, UINT levelCount,
                                                        UINT sdkVersion, const DXGI_SWAP_CHAIN_DESC* swapChainDesc,
                                                        IDXGISwapChain** swapChainOut, ID3D11Device** deviceOut,
                                                        D3D_FEATURE_LEVEL* levelOut, ID3D11DeviceContext** contextOut) {
  if (swapChainOut)
    *swapChainOut = nullptr;
  if (swapChainOut && !swapChainDesc) {
    if (deviceOut)
      *deviceOut = nullptr;
    if (contextOut)
      *contextOut = nullptr;
    return E_INVALIDARG;
  }
  // Without a swapchain to make this is D3D11CreateDevice, S_FALSE when nothing is asked
  // for included; the description is not looked at.
  if (!swapChainOut)
    return D3D11CreateDevice(adapter, driverType, software, flags, levels, levelCount, sdkVersion, deviceOut,
                             levelOut, contextOut);
  ID3D11Device* device = nullptr;
  HRESULT hr = D3D11CreateDevice(adapter, driverType, software, flags, levels, levelCount, sdkVersion,
                                 &device, levelOut, contextOut);
  if (FAILED(hr))
    return hr;

  if (swapChainOut) {
    // What Windows does: the device's adapter's factory creates the swapchain.
    ComRef<IDXGIDevice> dxgiDevice;
    ComRef<IDXGIAdapter> dxgiAdapter;
    ComRef<IDXGIFactory> factory;
    hr = device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(dxgiDevice.put()));
    if (SUCCEEDED(hr))
      hr = dxgiDevice->GetAdapter(dxgiAdapter.put());
    if (SUCCEEDED(hr))
      hr = dxgiAdapter->GetParent(__uuidof(IDXGIFactory), reinterpret_cast<void**>(factory.put()));
    if (SUCCEEDED(hr))
      hr = factory->CreateSwapChain(device, const_cast<DXGI_SWAP_CHAIN_DESC*>(swapChainDesc), swapChainOut);
    if (FAILED(hr)) {
      NPT_ERROR("D3D11CreateDeviceAndSwapChain: the swapchain could not be created: 0x%08x", unsigned(hr));
      if (contextOut && *contextOut) {
        (*contextOut)->Release();
        *contextOut = nullptr;
      }
      device->Release();
      if (deviceOut)
        *deviceOut = nullptr;
      if (levelOut)
        *levelOut = D3D_FEATURE_LEVEL(0);
      return hr;
    }
  }
  if (deviceOut)
    *deviceOut = device;
  else
    device->Release();
  return hr;
}
