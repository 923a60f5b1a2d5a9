// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <thread>

#include "memory_budget.h"
#include "neptune/transport/socket.h"
#include "server_config.h"

// neptune-server.exe: the Windows server (also run under Wine). Guests connect on
// loopback TCP with the token from PATH.tcp and get a named file mapping. Each context
// runs in its own worker process (`neptune-server.exe --worker`, worker_process_win32.h),
// supervised by a thread of the parent that keeps the guest's socket
// (context_supervisor_win32.h). `--contexts thread` runs contexts on threads of the
// server instead, for debugging: a crash in one then takes the whole server down.
namespace npt::server {

class ContextSupervisor;

class Win32Server {
public:
  explicit Win32Server(const ServerConfig& config);
  ~Win32Server();
  bool start();
  int run();

private:
  // A context on a thread of this process (--contexts thread).
  struct ThreadContext {
    std::thread thread;
    std::atomic<bool> done{false};
    MemoryBudget::Reservation memory;
  };
  // A context in a worker process.
  struct Supervised {
    std::unique_ptr<ContextSupervisor> supervisor;
    MemoryBudget::Reservation memory;
  };

  void accept_guest(transport::Socket conn);
  void reap();
  size_t live_contexts() const { return m_threads.size() + m_supervised.size(); }

  ServerConfig m_config;
  std::string m_exe;             // this program, started again as each worker
  transport::Socket m_listener;
  std::string m_rendezvous_path;
  std::string m_token;
  uint32_t m_next_id = 1;
  void* m_job = nullptr;         // workers die with the server (kill on job close)
  MemoryBudget m_budget;         // before the contexts: their reservations go back to it
  std::list<ThreadContext> m_threads;
  std::list<Supervised> m_supervised;
};

}
