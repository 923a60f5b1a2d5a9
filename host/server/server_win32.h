#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <thread>

#include "neptune/transport/socket.h"
#include "server_config.h"

// neptune-server.exe: the Windows server (also run under Wine). Guests connect on
// loopback TCP with the token from PATH.tcp and get a named file mapping. Each context
// runs on its own thread: a crash in one takes the whole server down (no process per
// context yet, see README.md).
namespace npt::server {

class Win32Server {
public:
  explicit Win32Server(const ServerConfig& config) : m_config(config) {}
  ~Win32Server();
  bool start();
  int run();

private:
  struct Context {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  void accept_guest(transport::Socket conn);
  void reap();

  ServerConfig m_config;
  transport::Socket m_listener;
  std::string m_rendezvous_path;
  std::string m_token;
  uint32_t m_next_id = 1;
  std::list<Context> m_contexts;
};

}
