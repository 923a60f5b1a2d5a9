// SPDX-License-Identifier: MIT
#pragma once

// What NPT_PRESENT=window shows frames in: a Win32 window in the Windows server, an SDL2
// window in the native server (presenter_win32.cpp, presenter_sdl.cpp). Both present the
// back buffer through a swapchain of the context's backend device for their window
// (BackendSwapchain: a GPU copy, zero CPU copies). Without such a swapchain a window
// shows frames read back into memory (showPixels: CPU copies).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "npt/d3d11_api.h"

namespace npt::executor {

struct DeviceState;

// Counters of a presenter, in its log lines and its closing summary (benchmarks read them).
struct PresentStats {
  uint64_t frames = 0;
  uint64_t cpuCopies = 0;     // frame-sized copies made by the CPU (readbacks, uploads)
  uint64_t gpuCopies = 0;     // frame-sized copies made by the GPU (back buffer -> window)
  uint64_t latencyWaits = 0;  // presents that waited for the GPU to catch up
};

// How the window path moves a frame: Gpu (default) copies on the backend device; Cpu reads
// it back and uploads it again, the baseline the benchmark compares against
// (NPT_PRESENT_COPY=cpu).
enum class PresentCopy { Gpu, Cpu };

// A swapchain of a backend device for a native window (HWND; DXVK-native: an SDL_Window*).
class BackendSwapchain {
public:
  // `settleWindow` handles the window's pending window-system events (the owner's message
  // pump); called once a new swapchain's first present has completed (see create()).
  BackendSwapchain(HWND window, std::function<void()> settleWindow)
      : m_window(window), m_settleWindow(std::move(settleWindow)) {}
  ~BackendSwapchain() { release(); }
  BackendSwapchain(const BackendSwapchain&) = delete;
  BackendSwapchain& operator=(const BackendSwapchain&) = delete;

  // Copies subresource 0 of `backBuffer` into the swapchain (created or resized to its
  // size and format on first use) and presents it with `interval`. Empty or why not.
  std::string present(DeviceState& device, ID3D11Texture2D* backBuffer, const D3D11_TEXTURE2D_DESC& desc,
                      uint32_t interval, PresentCopy copy, PresentStats& stats);
  void release();

private:
  std::string create(DeviceState& device, const D3D11_TEXTURE2D_DESC& desc);
  std::string presentBlackAndSettle(DeviceState& device);

  HWND m_window;
  std::function<void()> m_settleWindow;
  ID3D11Device* m_device = nullptr;     // the device m_swapchain belongs to (referenced)
  IDXGISwapChain* m_swapchain = nullptr;
  ID3D11Texture2D* m_staging = nullptr;  // PresentCopy::Cpu's readback texture
  UINT m_width = 0, m_height = 0;
  DXGI_FORMAT m_format = DXGI_FORMAT_UNKNOWN;
};

class PresentWindow {
public:
  virtual ~PresentWindow() = default;
  // Shows subresource 0 of the back buffer (called on the context's thread, which owns
  // the window). Empty or why not.
  virtual std::string show(DeviceState& device, ID3D11Texture2D* backBuffer, const D3D11_TEXTURE2D_DESC& desc,
                           uint32_t interval, PresentCopy copy, PresentStats& stats) = 0;
  // Shows tightly packed RGBA pixels from memory (one CPU upload, counted).
  virtual std::string showPixels(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height,
                                 PresentStats& stats) = 0;
  // What the window displays now, read back from the window system as RGBA with alpha 255:
  // proof that frames reach the screen (NPT_PRESENT_LOG's window checksum, tests).
  virtual std::string readScreen(std::vector<uint8_t>& rgba, uint32_t* width, uint32_t* height) = 0;
  // Releases backend objects (the window stays until destruction).
  virtual void releaseBackend() = 0;
};

// The platform's window (shown, titled "Neptune", its left edge at screen x `left`, top 0),
// or null and why not.
std::unique_ptr<PresentWindow> openPresentWindow(int left, std::string* why);

// Reads subresource 0 of an 8-bit RGBA/BGRA single-sampled texture back as tightly packed
// RGBA (BGRA swizzled). One CPU copy. Empty or why not.
std::string readBackRgba(DeviceState& device, ID3D11Texture2D* texture, const D3D11_TEXTURE2D_DESC& desc,
                         std::vector<uint8_t>& rgba);

// FNV-1a 64 of bytes (the checksum of NPT_PRESENT_LOG and the samples).
uint64_t fnv1a64(const std::vector<uint8_t>& bytes);

}  // namespace npt::executor
