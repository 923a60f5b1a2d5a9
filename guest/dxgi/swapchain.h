// SPDX-License-Identifier: MIT
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include <d3d11_4.h>

#include "../core/private_interfaces.h"
#include "dxgi_object.h"
#include "factory.h"
#include "swapchain_rules.h"

// The guest-side swapchain (contract 4): IDXGISwapChain..IDXGISwapChain4 for
// HWND targets, BitBlt (DISCARD, SEQUENTIAL) and flip (FLIP_SEQUENTIAL, FLIP_DISCARD)
// models. Back buffers are ordinary host textures created through the device with
// guest ids (INptDevice::CreateBackBuffer); Present sends PresentBuffer for buffer 0
// (D3D11 swapchains always render to buffer 0: GetCurrentBackBufferIndex is 0).
//
// Frame pacing: a present "retires" once the host executed it and, for a sync
// interval N > 0, N refresh periods of the target output after the previous retired
// frame (the host presenter is headless, so the guest keeps the display clock). At most
// MaximumFrameLatency frames are in flight: Present waits for the oldest to retire, or
// returns DXGI_ERROR_WAS_STILL_DRAWING with DXGI_PRESENT_DO_NOT_WAIT. A retiring frame
// releases the frame-latency waitable object (a semaphore, as on Windows).
namespace npt::guest::dxgi {

class SwapChain final : public DxgiObject<IDXGISwapChain4> {
public:
  ~SwapChain() override;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
  // IDXGIDeviceSubObject
  HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** device) override;
  // IDXGISwapChain
  HRESULT STDMETHODCALLTYPE Present(UINT syncInterval, UINT flags) override;
  HRESULT STDMETHODCALLTYPE GetBuffer(UINT index, REFIID riid, void** surface) override;
  HRESULT STDMETHODCALLTYPE SetFullscreenState(BOOL fullscreen, IDXGIOutput* target) override;
  HRESULT STDMETHODCALLTYPE GetFullscreenState(BOOL* fullscreen, IDXGIOutput** target) override;
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_SWAP_CHAIN_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE ResizeBuffers(UINT count, UINT width, UINT height, DXGI_FORMAT format, UINT flags) override;
  HRESULT STDMETHODCALLTYPE ResizeTarget(const DXGI_MODE_DESC* mode) override;
  HRESULT STDMETHODCALLTYPE GetContainingOutput(IDXGIOutput** output) override;
  HRESULT STDMETHODCALLTYPE GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) override;
  HRESULT STDMETHODCALLTYPE GetLastPresentCount(UINT* count) override;
  // IDXGISwapChain1
  HRESULT STDMETHODCALLTYPE GetDesc1(DXGI_SWAP_CHAIN_DESC1* desc) override;
  HRESULT STDMETHODCALLTYPE GetFullscreenDesc(DXGI_SWAP_CHAIN_FULLSCREEN_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE GetHwnd(HWND* hwnd) override;
  HRESULT STDMETHODCALLTYPE GetCoreWindow(REFIID riid, void** window) override;
  HRESULT STDMETHODCALLTYPE Present1(UINT syncInterval, UINT flags, const DXGI_PRESENT_PARAMETERS* parameters) override;
  BOOL STDMETHODCALLTYPE IsTemporaryMonoSupported() override;
  HRESULT STDMETHODCALLTYPE GetRestrictToOutput(IDXGIOutput** output) override;
  HRESULT STDMETHODCALLTYPE SetBackgroundColor(const DXGI_RGBA* color) override;
  HRESULT STDMETHODCALLTYPE GetBackgroundColor(DXGI_RGBA* color) override;
  HRESULT STDMETHODCALLTYPE SetRotation(DXGI_MODE_ROTATION rotation) override;
  HRESULT STDMETHODCALLTYPE GetRotation(DXGI_MODE_ROTATION* rotation) override;
  // IDXGISwapChain2
  HRESULT STDMETHODCALLTYPE SetSourceSize(UINT width, UINT height) override;
  HRESULT STDMETHODCALLTYPE GetSourceSize(UINT* width, UINT* height) override;
  HRESULT STDMETHODCALLTYPE SetMaximumFrameLatency(UINT latency) override;
  HRESULT STDMETHODCALLTYPE GetMaximumFrameLatency(UINT* latency) override;
  HANDLE STDMETHODCALLTYPE GetFrameLatencyWaitableObject() override;
  HRESULT STDMETHODCALLTYPE SetMatrixTransform(const DXGI_MATRIX_3X2_F* matrix) override;
  HRESULT STDMETHODCALLTYPE GetMatrixTransform(DXGI_MATRIX_3X2_F* matrix) override;
  // IDXGISwapChain3
  UINT STDMETHODCALLTYPE GetCurrentBackBufferIndex() override;
  HRESULT STDMETHODCALLTYPE CheckColorSpaceSupport(DXGI_COLOR_SPACE_TYPE colorSpace, UINT* support) override;
  HRESULT STDMETHODCALLTYPE SetColorSpace1(DXGI_COLOR_SPACE_TYPE colorSpace) override;
  HRESULT STDMETHODCALLTYPE ResizeBuffers1(UINT count, UINT width, UINT height, DXGI_FORMAT format, UINT flags,
      const UINT* creationNodeMask, IUnknown* const* presentQueue) override;
  // IDXGISwapChain4
  HRESULT STDMETHODCALLTYPE SetHDRMetaData(DXGI_HDR_METADATA_TYPE type, UINT size, void* metadata) override;

private:
  friend HRESULT createSwapChain(Factory*, IUnknown*, HWND, const DXGI_SWAP_CHAIN_DESC1&,
                                 const DXGI_SWAP_CHAIN_FULLSCREEN_DESC&, IDXGIOutput*, SwapChainTarget,
                                 IDXGISwapChain1**);
  struct PendingFrame {
    uint64_t sequence;      // ring record that must have executed
    UINT syncInterval;
  };

  SwapChain(Factory* factory, IUnknown* device, INptDevice* nptDevice, HWND window);
  HRESULT init(const DXGI_SWAP_CHAIN_DESC1& desc, const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen,
               IDXGIOutput* restrictToOutput);
  // (Re)creates the back buffers for m_desc. Old buffers must be released already.
  HRESULT createBuffers();
  void releaseBuffers();
  // Whether the application still holds a reference to a back buffer.
  bool buffersReferenced() const;
  HRESULT presentCommon(UINT syncInterval, UINT flags);
  // Rotates the contents of SEQUENTIAL swapchains' buffers (buffer i+1 <- buffer i).
  void rotateSequentialBuffers();
  void retireLoop();
  UINT frameLatencyLocked() const;
  std::chrono::nanoseconds refreshPeriod();

  ComRef<Factory> m_factory;
  IUnknown* m_device;                 // the device the application passed (a reference held)
  INptDevice* m_nptDevice;            // the same device's Neptune seam (alive through m_device)
  HWND m_window;
  DXGI_SWAP_CHAIN_DESC1 m_desc = {};
  DXGI_SWAP_CHAIN_FULLSCREEN_DESC m_fullscreenDesc = {};
  ComRef<IDXGIOutput> m_restrictToOutput;
  struct BackBuffer {
    ID3D11Texture2D* texture;
    bool privateHold;   // a Neptune texture held by a private reference, else a public one
  };
  std::vector<BackBuffer> m_buffers;
  DXGI_RGBA m_backgroundColor = {};
  DXGI_MODE_ROTATION m_rotation = DXGI_MODE_ROTATION_IDENTITY;
  UINT m_sourceWidth = 0, m_sourceHeight = 0;
  DXGI_COLOR_SPACE_TYPE m_colorSpace = DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709;
  DXGI_HDR_METADATA_TYPE m_hdrType = DXGI_HDR_METADATA_TYPE_NONE;
  std::chrono::nanoseconds m_refreshPeriod{0};

  // Frame pacing state, shared with the retire thread.
  std::mutex m_frameMutex;
  std::condition_variable m_frameChanged;
  std::deque<PendingFrame> m_pending;
  UINT m_maxFrameLatency = kDefaultWaitableFrameLatency;
  UINT m_presentCount = 0;            // presents that reached the host
  UINT m_retiredCount = 0;
  UINT64 m_lastRetireVblank = 0;
  LARGE_INTEGER m_lastRetireQpc = {};
  bool m_stopping = false;
  HANDLE m_latencySemaphore = nullptr;   // only with FRAME_LATENCY_WAITABLE_OBJECT
  std::thread m_retireThread;
};

// Every CreateSwapChain* path ends here: validation (swapchain_rules.h), the device's
// Neptune seam, the back buffers. A fullscreen request is created windowed and answered
// DXGI_STATUS_OCCLUDED (Windows' result when fullscreen is not available).
HRESULT createSwapChain(Factory* factory, IUnknown* device, HWND window, const DXGI_SWAP_CHAIN_DESC1& desc,
                        const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen, IDXGIOutput* restrictToOutput,
                        SwapChainTarget target, IDXGISwapChain1** swapchain);

}
