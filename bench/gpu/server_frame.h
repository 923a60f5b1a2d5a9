// SPDX-License-Identifier: MIT
#pragma once
// gpu-frame-bench's server mode: many_draws' frame sent by a guest connection through the
// transport's ring to a neptune-server started here, whose worker process decodes,
// validates and executes it on its backend (NPT_BACKEND, inherited): the whole host path
// of a PE guest, without the guest DLLs and Wine.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frame_commands.h"
#include "neptune/transport/guest_connection.h"

namespace npt::bench::gpu {

class ServerFrame {
public:
  // Starts `serverBinary` on a private socket and connects; exits the process with a message
  // on failure. Shaders and vertices as the other modes use them.
  ServerFrame(const std::string& serverBinary, const std::vector<uint8_t>& vs, const std::vector<uint8_t>& psPlain,
              const std::vector<uint8_t>& psSwizzled, const std::vector<float>& vertices, const uint16_t (&indices)[6],
              UINT width, UINT height);
  ~ServerFrame();
  ServerFrame(const ServerFrame&) = delete;
  ServerFrame& operator=(const ServerFrame&) = delete;

  // Renders frame `frame` through the server; the pixel of cell (0,0) after the GPU finished.
  uint32_t render(uint32_t frame);
  uint32_t workerPid() const { return m_guest ? m_guest->worker_pid() : 0; }

private:
  protocol::ObjectId next() { return m_nextId++; }
  // Submits what the writer holds (fire-and-forget), as the guest runtime's flush does.
  void submit();
  // Submits the pending commands, then `command` (one sync command) as a call; the reply.
  const std::vector<uint8_t>& call(const std::vector<uint8_t>& command, size_t size);
  void fail(const char* what);

  UINT m_width, m_height;
  pid_t m_server = 0;
  std::string m_directory, m_socket;
  std::unique_ptr<transport::GuestConnection> m_guest;
  std::vector<uint8_t> m_commands, m_syncCommand, m_reply;
  protocol::CommandWriter m_writer, m_syncWriter;
  size_t m_replySize = 0;
  FrameObjects m_objects;
  protocol::ObjectId m_device = 0, m_target = 0, m_staging = 0;
  protocol::ObjectId m_nextId = 1;
};

}  // namespace npt::bench::gpu
