// SPDX-License-Identifier: MIT
#pragma once

// The presenter behind PresentBuffer (contract 4): swapchains live in the guest, their
// back buffers are ordinary textures of the context, so the presenter reaches them on the
// context's own backend device. NPT_PRESENT chooses what a present does:
//   window   -> a window of this process shows the frame through a swapchain of the
//               backend device (a GPU copy of the back buffer, no CPU copy); without a
//               backend swapchain the frame is read back and uploaded (CPU copies, counted).
//               One window per guest swapchain (its back buffer's id: the guest presents
//               buffer 0 of a swapchain), side by side; a window whose back buffer the guest
//               destroyed closes at the context's next present
//   headless -> (default) the frame's work is flushed; NPT_PRESENT_LOG=1 adds one checksum
//               line per frame, NPT_PRESENT_CAPTURE=<dir> writes <dir>/frame-<n>.png
//   none     -> nothing but the frame count
// Every mode bounds the backend's run-ahead: a frame waits until the frame kFrameLatency
// presents earlier finished on the GPU (an event query per frame), so a guest cannot queue
// unbounded GPU work behind presents. Sync intervals reach the backend swapchain.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "npt/executor/executor.h"
#include "presenter_window.h"

namespace npt::executor {

enum class PresentMode { Window, Headless, None };

// NPT_PRESENT's value (null/empty: headless); false for an unknown name.
bool parsePresentMode(const char* text, PresentMode* mode);

class Presenter {
public:
  static constexpr uint32_t kFrameLatency = 3;  // DXGI's default maximum frame latency

  explicit Presenter(Executor& executor);
  ~Presenter();
  void present(ObjectId texture, uint32_t interval, uint32_t flags);
  // Drops the window and every backend object held (fatal context, executor teardown).
  void release();
  const PresentStats& stats() const { return m_stats; }

  // Presenter windows open now (tests; one per guest swapchain).
  size_t windowCount() const { return m_windows.size(); }

private:
  // A window and the guest swapchain whose frames it shows.
  struct WindowSlot {
    ObjectId backBuffer = 0;  // the id the guest presents (its swapchain's buffer 0)
    int left = 0;             // screen position of the window's left edge
    uint32_t width = 0;       // width of the last frame shown
    std::unique_ptr<PresentWindow> window;
  };

  void waitForFrameLatency(DeviceState& device);
  // The window of `backBuffer`, opened right of the others when it has none; null and why not.
  // Closes the windows of destroyed back buffers first.
  WindowSlot* windowFor(ObjectId backBuffer, std::string* why);
  void closeWindowsOfDestroyedBuffers();
  void showInWindow(ObjectId texture, DeviceState& device, ID3D11Texture2D* backBuffer,
                    const D3D11_TEXTURE2D_DESC& desc, uint32_t interval);
  void logFrame(DeviceState& device, ObjectId texture, ID3D11Texture2D* backBuffer, const D3D11_TEXTURE2D_DESC& desc,
                uint32_t interval, uint32_t flags, PresentWindow* window);

  Executor& m_executor;
  PresentMode m_mode = PresentMode::Headless;
  PresentCopy m_copy = PresentCopy::Gpu;
  bool m_log = false;
  std::string m_captureDir;
  PresentStats m_stats;
  std::vector<WindowSlot> m_windows;
  bool m_windowFailed = false;               // logged once; later frames are headless
  std::shared_ptr<DeviceState> m_device;     // the device of the frame-latency queries
  std::vector<ID3D11Query*> m_frameQueries;  // one per frame in flight, ring order
};

}  // namespace npt::executor
