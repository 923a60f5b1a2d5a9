// SPDX-License-Identifier: MIT
#pragma once

#include <d3d11_4.h>
#include <dxgi1_6.h>

#include "statistics.h"

// Seams between the d3d11 objects (guest/d3d11) and the DXGI objects (guest/dxgi),
// which live in the same d3d11.dll (guest/README.md).
//
// INptDevice: implemented by every Neptune ID3D11Device; a swapchain reaches the
// device's internals through it (QueryInterface on the IUnknown* device handed to
// CreateSwapChain*). A foreign device (Wine's own) does not answer it: the DXGI side
// then fails the creation with DXGI_ERROR_INVALID_CALL... as documented there.

// {5a1c0d3e-8b7f-4e2a-9c61-0e2f4b1a7d90}
struct INptDevice : public IUnknown {
  // The device's guest-assigned object id (protocol section 7).
  virtual UINT32 STDMETHODCALLTYPE GetObjectId() = 0;
  // A host texture created through this device with a guest id, for a swapchain's
  // back buffer: an ordinary ID3D11Texture2D (RTV/SRV creation, GetDesc, Map rules)
  // whose public references the swapchain holds. desc is validated like
  // CreateTexture2D's.
  virtual HRESULT STDMETHODCALLTYPE CreateBackBuffer(const D3D11_TEXTURE2D_DESC* desc, ID3D11Texture2D** texture) = 0;
  // Flushes the immediate context and sends PresentBuffer (contract 4) for a back
  // buffer created by CreateBackBuffer. Never waits for the host.
  virtual HRESULT STDMETHODCALLTYPE PresentBuffer(ID3D11Texture2D* texture, UINT syncInterval, UINT flags) = 0;
  // What reached the wire on behalf of this device so far.
  virtual void STDMETHODCALLTYPE GetStatistics(npt::guest::StatisticsSnapshot* statistics) = 0;
  // The adapter the device was created on (AddRef'd), or DXGI_ERROR_NOT_FOUND when
  // the application passed none and no DXGI adapter factory is registered.
  virtual HRESULT STDMETHODCALLTYPE GetAdapter(IDXGIAdapter** adapter) = 0;
};

#ifdef __CRT_UUID_DECL
__CRT_UUID_DECL(INptDevice, 0x5a1c0d3e, 0x8b7f, 0x4e2a, 0x9c, 0x61, 0x0e, 0x2f, 0x4b, 0x1a, 0x7d, 0x90)
#endif

namespace npt::guest {

inline constexpr GUID kIID_INptDevice = { 0x5a1c0d3e, 0x8b7f, 0x4e2a, { 0x9c, 0x61, 0x0e, 0x2f, 0x4b, 0x1a, 0x7d, 0x90 } };

// The DXGI side registers how d3d11 obtains a DXGI adapter for a device created with
// pAdapter = NULL (IDXGIDevice::GetAdapter, D3D11CreateDeviceAndSwapChain). Until a
// factory is registered those calls fail with DXGI_ERROR_UNSUPPORTED and a log line.
using CreateDefaultAdapterFn = HRESULT (*)(IDXGIAdapter** adapter);
void registerDefaultAdapterFactory(CreateDefaultAdapterFn create);
HRESULT createDefaultAdapter(IDXGIAdapter** adapter);

}
