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
  npt_host_limits limits = {};
  DispatchMode dispatch = DispatchMode::Executor;
  uint32_t spin_us = 50;
  bool verbose = false;
};

}
