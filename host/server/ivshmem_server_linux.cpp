// SPDX-License-Identifier: MIT
#include "ivshmem_server_linux.h"

#include "neptune/transport/socket.h"

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <endian.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace npt::server {

namespace {

// One protocol message: a little-endian int64, with at most one descriptor beside it.
bool send_message(int socket, int64_t value, int fd) {
  const uint64_t wire = htole64(uint64_t(value));
  return transport::send_with_fd(socket, &wire, sizeof(wire), fd);
}

}

IvshmemServer::~IvshmemServer() {
  while (!m_clients.empty())
    drop_client(m_clients.size() - 1);
  for (int fd : { m_listen, m_memory, m_doorbell })
    if (fd >= 0)
      ::close(fd);
  if (m_listen >= 0)
    ::unlink(m_path.c_str());
}

bool IvshmemServer::listen(const std::string& path, int memory_fd, std::string* error) {
  auto fail = [&](const char* what) {
    *error = std::string(what) + ": " + std::strerror(errno);
    return false;
  };
  sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(address.sun_path)) {
    *error = "the socket path is empty or longer than " + std::to_string(sizeof(address.sun_path) - 1) + " bytes";
    return false;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size());
  m_memory = ::fcntl(memory_fd, F_DUPFD_CLOEXEC, 0);
  if (m_memory < 0)
    return fail("cannot keep the device's file");
  m_doorbell = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (m_doorbell < 0)
    return fail("cannot create the doorbell eventfd");
  m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (m_listen < 0)
    return fail("cannot create the socket");
  ::unlink(path.c_str());
  if (::bind(m_listen, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 || ::listen(m_listen, 8) != 0) {
    const int saved = errno;
    ::close(m_listen);
    m_listen = -1;
    errno = saved;
    return fail(("cannot listen on " + path).c_str());
  }
  m_path = path;
  return true;
}

std::vector<int> IvshmemServer::poll_fds() const {
  std::vector<int> fds = { m_listen, m_doorbell };
  for (const Client& c : m_clients)
    fds.push_back(c.socket);
  return fds;
}

uint64_t IvshmemServer::handle(int fd) {
  if (fd == m_doorbell) {
    uint64_t rings = 0;
    if (::read(m_doorbell, &rings, sizeof(rings)) != ssize_t(sizeof(rings)))
      return 0;
    return rings;
  }
  if (fd == m_listen) {
    accept_client();
    return 0;
  }
  // The protocol is one-way: anything a client sends, or its end of the stream, ends it.
  for (size_t i = 0; i < m_clients.size(); i++) {
    if (m_clients[i].socket == fd) {
      std::fprintf(stderr, "neptune-server: ivshmem client %lld left\n", (long long)m_clients[i].id);
      drop_client(i);
      break;
    }
  }
  return 0;
}

void IvshmemServer::accept_client() {
  const int socket = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
  if (socket < 0)
    return;
  if (m_next_id > 0xFFFF) {
    std::fprintf(stderr, "neptune-server: ivshmem: no peer ID left for a new client (IDs are 16 bits)\n");
    ::close(socket);
    return;
  }
  Client client;
  client.socket = socket;
  client.id = m_next_id++;
  client.interrupt_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  // Version, the client's ID, the memory, the server as its one peer (vector 0: the doorbell
  // guests ring), then the client's own vector 0.
  const bool sent = client.interrupt_fd >= 0 && send_message(socket, 0, -1) && send_message(socket, client.id, -1) &&
                    send_message(socket, -1, m_memory) && send_message(socket, kServerPeerId, m_doorbell) &&
                    send_message(socket, client.id, client.interrupt_fd);
  if (!sent) {
    std::fprintf(stderr, "neptune-server: ivshmem: the handshake with a new client failed: %s\n", std::strerror(errno));
    if (client.interrupt_fd >= 0)
      ::close(client.interrupt_fd);
    ::close(socket);
    return;
  }
  std::fprintf(stderr, "neptune-server: ivshmem client %lld connected (doorbell: peer %lld, vector 0)\n",
               (long long)client.id, (long long)kServerPeerId);
  m_clients.push_back(client);
}

void IvshmemServer::drop_client(size_t index) {
  Client& c = m_clients[index];
  ::close(c.socket);
  if (c.interrupt_fd >= 0)
    ::close(c.interrupt_fd);
  m_clients.erase(m_clients.begin() + std::ptrdiff_t(index));
}

}
