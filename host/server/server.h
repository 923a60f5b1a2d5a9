// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory_budget.h"
#include "neptune/host.h"
#include "server_config.h"
#include "worker.h"

// neptune-server's parent process: accepts guests on a UNIX socket (and, for PE guests
// under Wine, on TCP loopback with a secret token), creates each context's shared
// memory, forks one worker per context and marks the context removed when its worker
// dies. It never runs guest commands itself.
namespace npt::server {

class Server {
public:
  explicit Server(const ServerConfig& config) : m_config(config), m_budget(config.max_memory) {}
  ~Server();
  bool start();       // binds the sockets, writes the rendezvous file
  int run();          // until SIGTERM/SIGINT

private:
  // Host-private words a worker shares with the parent only (never the guest): its
  // progress, for the watchdog.
  struct Supervision {
    uint64_t progress;
    uint32_t running;
    uint32_t reserved;
    uint64_t cpu_ns;
  };

  struct Context {
    int pid = 0;
    uint8_t* base = nullptr;
    uint64_t size = 0;
    uint32_t reply_slots = 0;
    uint64_t replies_offset = 0;
    uint64_t reply_stride = 0;
    Supervision* supervision = nullptr;   // a shared anonymous page
    uint64_t last_progress = 0;
    uint64_t progress_at_ns = 0;
    uint64_t cpu_at_ns = 0;
    bool hung = false;                    // killed by the watchdog, not reaped yet
    std::string shm_path;                 // PE guests: the context's /dev/shm file (its regions: <path>-r<id>)
    MemoryBudget::Reservation memory;     // given back when the worker has been reaped
  };

  void accept_guest(int listener, bool tcp);
  void reap_workers();
  void mark_removed(Context& context, uint32_t reason);
  void run_watchdog();

  ServerConfig m_config;
  int m_unix_listener = -1;
  int m_tcp_listener = -1;
  int m_signal_fd = -1;
  std::string m_rendezvous_path;
  std::string m_token;
  uint32_t m_next_id = 1;
  MemoryBudget m_budget;
  std::vector<Context> m_contexts;
};

}
