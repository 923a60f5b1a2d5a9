// SPDX-License-Identifier: MIT
#pragma once

// neptune-server.exe (path from NPT_SERVER_BIN, set by meson) in diag mode on a private
// socket, with the transport-level connect the server tests use.
#include <cstdlib>
#include <memory>
#include <string>

#include "neptune/transport/guest_connection.h"
#include "server_launch_win32.h"

class Win32ServerProcess {
public:
  // extra: further options; a later --dispatch overrides the diag default.
  explicit Win32ServerProcess(const std::string& extra = "") {
    const char* binary = std::getenv("NPT_SERVER_BIN");
    if (!binary)
      return;
    npt::testing::ServerProcess::Options options;
    // Several servers per test program, one after another: each its own socket.
    options.name = "npt-test-" + std::to_string(GetTickCount64());
    options.arguments = "--dispatch diag " + extra;
    m_server.start(binary, options);
  }
  void kill() { m_server.kill(); }
  bool running() const { return m_server.running(); }
  HANDLE process() const { return m_server.process(); }
  std::string rendezvous() const { return m_server.rendezvous(); }
  npt::transport::Status connect(std::unique_ptr<npt::transport::GuestConnection>* out, std::string* error = nullptr,
                                 npt::transport::Geometry g = geometry()) {
    return npt::transport::GuestConnection::connect(rendezvous().c_str(), g, out, error);
  }
  static npt::transport::Geometry geometry() {
    npt::transport::Geometry g;
    g.ring_count = 2;
    g.ring_size = 64 * 1024;
    g.bulk_size = 1 << 20;
    return g;
  }

private:
  npt::testing::ServerProcess m_server;
};
