#pragma once

#include <string>

#include "neptune/host.h"
#include "neptune/transport/socket.h"

// The body of one context's worker process: drives the context until the guest
// disconnects or the context turns fatal. A crash here takes down this context only.
namespace npt::server {

// Executor: decode, validate and execute on the D3D11 backend (the default). Null and
// Diag serve the transport's tests and benchmarks (diagnostic_dispatch.h).
enum class DispatchMode { Null, Diag, Executor };

struct WorkerParams {
  transport::Socket socket;
  uint8_t* base = nullptr;
  uint64_t size = 0;
  npt_host_geometry geometry = {};
  npt_host_limits limits = {};
  bool socket_wake = false;      // guest blocks on the socket: send wake bytes
  bool wait_for_mapped_ack = false; // guest maps by name and acknowledges
  std::string unlink_path;       // shared file to remove once the guest mapped it
  DispatchMode dispatch = DispatchMode::Executor;
  uint32_t spin_us = 50;         // poll this long before announcing idle
  uint32_t worker_id = 0;
};

// Exit status: 0 guest disconnected, 3 context fatal.
int run_worker(WorkerParams& params);

}
