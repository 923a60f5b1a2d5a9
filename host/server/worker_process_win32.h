// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include <windows.h>

#include "neptune/host.h"
#include "worker.h"

// A context's worker process on Windows (and Wine): `neptune-server.exe --worker ...`,
// started by the server parent (context_supervisor_win32.h). The parent keeps the
// guest's socket; the worker opens the context's named mapping and runs the executor.
// What they share besides the guest's memory is host-private: a supervision page and
// three events, inherited by the worker, never visible to the guest.
namespace npt::server {

// The supervision page (one page of an unnamed mapping).
struct WorkerSupervision {
  uint64_t progress;   // worker: bumped before every command and every idle slice
  uint32_t running;    // worker: 1 once its backend is up (the watchdog starts then)
  uint32_t reserved;
  uint64_t cpu_ns;     // worker: its CPU time, every 100 ms (worker_looks_hung)
};

// Everything the worker is told on its command line. Handles are values inherited
// from the parent.
struct WorkerLaunch {
  uint32_t context_id = 0;
  std::string mapping_name;        // the context's named mapping (Local\neptune-PID-N)
  uint64_t size = 0;
  npt_host_geometry geometry = {};
  npt_host_limits limits = {};
  DispatchMode dispatch = DispatchMode::Executor;
  uint32_t spin_us = 50;
  bool socket_wake = false;
  HANDLE supervision = nullptr;    // mapping holding WorkerSupervision
  HANDLE doorbell = nullptr;       // parent -> worker: a socket-wake guest rang (auto-reset)
  HANDLE quit = nullptr;           // parent -> worker: the guest is gone, end (manual-reset)
  HANDLE wake_request = nullptr;   // worker -> parent: send the guest a wake byte (auto-reset)
  HANDLE parent = nullptr;         // the server parent's process (SYNCHRONIZE)
  // A context on a shared-memory device (device_server.h): mapping_name is the device's
  // section (device_size bytes), the context lies at device_offset of it (size bytes), and
  // its bulk regions come from the device chunks of its slot (owner table: chunks).
  bool device = false;
  uint32_t device_slot = 0;
  uint64_t device_offset = 0;
  uint64_t device_size = 0;
  uint64_t device_data_offset = 0;
  HANDLE chunks = nullptr;

  std::string command_line(const std::string& exe) const;
  // argv as main() received it, starting at "--worker"; false on anything malformed.
  bool parse(int argc, char** argv, std::string* error);
};

// main() of `neptune-server.exe --worker`. Exit status as run_worker's.
int worker_process_main(int argc, char** argv);

}
