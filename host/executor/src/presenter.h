#pragma once

// The presenter behind PresentBuffer (contract 4): swapchains live in the guest, their
// back buffers are ordinary textures of the context, so the presenter reaches them on the
// context's own backend device. NPT_PRESENT chooses what a present does:
//   window   -> a window of this process shows the frame through a swapchain of the
//               backend device (a GPU copy of the back buffer, no CPU copy); without a
//               backend swapchain the frame is read back and uploaded (CPU copies, counted)
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

private:
  void waitForFrameLatency(DeviceState& device);
  void logFrame(DeviceState& device, ObjectId texture, ID3D11Texture2D* backBuffer, const D3D11_TEXTURE2D_DESC& desc,
                uint32_t interval, uint32_t flags);

  Executor& m_executor;
  PresentMode m_mode = PresentMode::Headless;
  PresentCopy m_copy = PresentCopy::Gpu;
  bool m_log = false;
  std::string m_captureDir;
  PresentStats m_stats;
  std::unique_ptr<PresentWindow> m_window;
  bool m_windowFailed = false;               // logged once; later frames are headless
  std::shared_ptr<DeviceState> m_device;     // the device of the frame-latency queries
  std::vector<ID3D11Query*> m_frameQueries;  // one per frame in flight, ring order
};

}  // namespace npt::executor
