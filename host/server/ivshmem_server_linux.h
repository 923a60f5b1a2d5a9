// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// QEMU's ivshmem server protocol (docs/specs/ivshmem-spec.rst in QEMU), spoken by
// neptune-server --vm-shm ... --ivshmem-socket PATH for `-device ivshmem-doorbell`: QEMU
// connects to PATH and receives, as 8-byte little-endian numbers, the protocol version (0),
// its own peer ID, -1 with the device's memory (the --vm-shm file), a connect notification
// for the server's own peer (ID 0, one eventfd: vector 0), and its own interrupt setup (one
// eventfd, which the host never signals: guests poll the words they wait on). A guest's
// write of (0 << 16 | 0) into BAR0's Doorbell register then signals the server's eventfd.
//
// The server is not a QEMU process: it takes no memory from anyone and has no BAR, it is
// only the peer guests ring. Clients are never introduced to each other.
namespace npt::server {

class IvshmemServer {
public:
  static constexpr int64_t kServerPeerId = 0;

  IvshmemServer() = default;
  IvshmemServer(const IvshmemServer&) = delete;
  IvshmemServer& operator=(const IvshmemServer&) = delete;
  ~IvshmemServer();

  // Listens on path (an existing socket file is replaced); memory_fd is the device's
  // backing file, sent to every client (kept open here).
  bool listen(const std::string& path, int memory_fd, std::string* error);

  // The descriptors the server's loop polls for input: the listening socket, the doorbell
  // eventfd and each client's socket (a client that closes it is gone).
  std::vector<int> poll_fds() const;
  // Handles whatever is ready on fd (one of poll_fds()). Returns the number of doorbell
  // rings it consumed (the eventfd's counter), 0 for other input.
  uint64_t handle(int fd);

  size_t clients() const { return m_clients.size(); }

private:
  struct Client {
    int socket = -1;
    int64_t id = 0;
    int interrupt_fd = -1;   // the client's own vector 0 (never signalled)
  };
  void accept_client();
  void drop_client(size_t index);

  std::string m_path;
  int m_listen = -1;
  int m_memory = -1;
  int m_doorbell = -1;
  int64_t m_next_id = kServerPeerId + 1;
  std::vector<Client> m_clients;
};

}
