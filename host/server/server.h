#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  explicit Server(const ServerConfig& config) : m_config(config) {}
  ~Server();
  bool start();       // binds the sockets, writes the rendezvous file
  int run();          // until SIGTERM/SIGINT

private:
  struct Context {
    int pid = 0;
    uint8_t* base = nullptr;
    uint64_t size = 0;
    uint32_t reply_slots = 0;
    uint64_t replies_offset = 0;
    uint64_t reply_stride = 0;
  };

  void accept_guest(int listener, bool tcp);
  void reap_workers();
  void mark_removed(Context& context, uint32_t reason);

  ServerConfig m_config;
  int m_unix_listener = -1;
  int m_tcp_listener = -1;
  int m_signal_fd = -1;
  std::string m_rendezvous_path;
  std::string m_token;
  uint32_t m_next_id = 1;
  std::vector<Context> m_contexts;
};

}
