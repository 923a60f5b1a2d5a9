// SPDX-License-Identifier: MIT
#pragma once

// Runs neptune-server (path from NPT_SERVER_BIN, set by meson) in a private directory.
#include <csignal>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "neptune/transport/guest_connection.h"
#include "neptune/transport/wait.h"

namespace npt::server::testing {

class ServerProcess {
public:
  explicit ServerProcess(std::vector<std::string> extra_args = {}) {
    char dir[] = "/tmp/npt-server-test-XXXXXX";
    if (!mkdtemp(dir))
      return;
    m_dir = dir;
    m_socket = m_dir + "/neptune.sock";
    const char* server = std::getenv("NPT_SERVER_BIN");
    if (!server)
      return;
    std::vector<std::string> args = { server, "--socket", m_socket, "--dispatch", "diag" };
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    m_pid = fork();
    if (m_pid == 0) {
      std::vector<char*> argv;
      for (auto& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    // Ready once the rendezvous file (written after both listeners) exists.
    for (int i = 0; i < 500 && access((m_socket + ".tcp").c_str(), R_OK) != 0; i++)
      transport::sleep_us(10000);
  }

  ~ServerProcess() {
    stop(SIGTERM);
    if (!m_dir.empty()) {
      unlink((m_socket + ".tcp").c_str());
      unlink(m_socket.c_str());
      rmdir(m_dir.c_str());
    }
  }

  void stop(int signal) {
    if (m_pid <= 0)
      return;
    kill(m_pid, signal);
    waitpid(m_pid, nullptr, 0);
    m_pid = 0;
  }
  bool running() const { return m_pid > 0 && kill(m_pid, 0) == 0; }
  pid_t pid() const { return m_pid; }
  const std::string& socket_path() const { return m_socket; }
  std::string rendezvous_path() const { return m_socket + ".tcp"; }

  transport::Status connect(std::unique_ptr<transport::GuestConnection>* out, std::string* error = nullptr,
                            transport::Geometry g = small_geometry()) {
    return transport::GuestConnection::connect(m_socket.c_str(), g, out, error);
  }

  static transport::Geometry small_geometry() {
    transport::Geometry g;
    g.ring_count = 2;
    g.ring_size = 64 * 1024;
    g.bulk_size = 1 << 20;
    return g;
  }

private:
  std::string m_dir;
  std::string m_socket;
  pid_t m_pid = 0;
};

}
