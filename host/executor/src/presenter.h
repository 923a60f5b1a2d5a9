#pragma once

// The headless presenter behind PresentBuffer (contract 4): swapchains live in the
// guest, their back buffers are ordinary textures of the context. Without a window the
// host only flushes; NPT_PRESENT_LOG=1 adds one checksum line per frame to the host log
// and NPT_PRESENT_CAPTURE=<dir> writes each frame as <dir>/frame-<n>.png.

#include <cstdint>
#include <string>

#include "npt/executor/executor.h"

namespace npt::executor {

class Presenter {
public:
  explicit Presenter(Executor& executor);
  void present(ObjectId texture, uint32_t interval, uint32_t flags);
  uint64_t frames() const { return m_frames; }

private:
  Executor& m_executor;
  bool m_log = false;
  std::string m_captureDir;
  uint64_t m_frames = 0;
};

}  // namespace npt::executor
