// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "neptune/host.h"
#include "worker.h"

namespace npt::server {

struct ServerConfig {
  std::string socket_path;
  bool tcp = true;                 // also listen on 127.0.0.1 for PE guests under Wine
  uint32_t max_contexts = 64;
  // What all contexts together may make the host allocate (memory_budget.h); 0: the
  // host's physical memory.
  uint64_t max_memory = 0;
  // What each context's worker holds whatever its guest does (process, backend device),
  // counted in every context's reservation.
  uint64_t worker_memory = 64ull << 20;
  npt_host_limits limits = {};
  DispatchMode dispatch = DispatchMode::Executor;
  uint32_t spin_us = 50;
  bool verbose = false;
  // neptune-server.exe: run each context in a worker process (the default) or on a
  // thread of the server (debugging only: a crash in one context ends all of them).
  bool contexts_in_threads = false;
  // A worker that makes no progress for this long is terminated and its context removed
  // (FatalReason::WorkerHung); 0 turns the watchdog off.
  uint32_t watchdog_ms = 30000;
  // A shared-memory device (QEMU ivshmem) instead of the socket: its backing file, its
  // size, and how long a slot's guest may leave its lease unrenewed (device_host.h).
  std::string device_path;
  uint64_t device_size = 0;
  uint32_t lease_ms = 1000;
  // ivshmem-doorbell (native server only): QEMU's ivshmem server protocol on this UNIX
  // socket (ivshmem_server_linux.h); empty: ivshmem-plain, the host polls.
  std::string ivshmem_socket;
};

}
