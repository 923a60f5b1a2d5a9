// SPDX-License-Identifier: MIT
#include "neptune/transport/socket.h"

#include <cstring>

#if defined(_WIN32)
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#endif

namespace npt::transport {

#if defined(_WIN32)
using ssize = int;
static bool interrupted() { return false; }
#else
using ssize = ssize_t;
static int last_error_would_block() { return errno == EAGAIN || errno == EWOULDBLOCK; }
static bool interrupted() { return errno == EINTR; }

// 1 when fd has bytes (or its end) to read, 0 after timeout_ms (< 0: none), -1 on error.
static int poll_readable(int fd, int timeout_ms) {
  pollfd pfd = { fd, POLLIN, 0 };
  for (;;) {
    int r = ::poll(&pfd, 1, timeout_ms);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return -1;
    // POLLHUP with queued bytes still reads them first; recv reports the end.
    return r == 0 ? 0 : 1;
  }
}
#endif

bool socket_library_init() {
#if defined(_WIN32)
  static bool ok = [] { WSADATA data; return WSAStartup(MAKEWORD(2, 2), &data) == 0; }();
  return ok;
#else
  return true;
#endif
}

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    close();
    m_fd = other.release();
  }
  return *this;
}

void Socket::close() {
  if (m_fd == kInvalid)
    return;
#if defined(_WIN32)
  closesocket(SOCKET(m_fd));
#else
  ::close(m_fd);
#endif
  m_fd = kInvalid;
}

Socket Socket::connect_unix(const char* path) {
#if defined(_WIN32)
  (void)path;
  return Socket();
#else
  sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof(addr.sun_path))
    return Socket();
  std::strcpy(addr.sun_path, path);
  Socket s(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!s.valid() || ::connect(s.native(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
    return Socket();
  return s;
#endif
}

Socket Socket::connect_tcp_loopback(uint16_t port) {
  if (!socket_library_init())
    return Socket();
  sockaddr_in addr = {};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  Socket s(Native(::socket(AF_INET, SOCK_STREAM, 0)));
  if (!s.valid() || ::connect(s.native(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
    return Socket();
  int one = 1;
  setsockopt(s.native(), IPPROTO_TCP, 1 /* TCP_NODELAY */, reinterpret_cast<const char*>(&one), sizeof(one));
  return s;
}

bool Socket::send_all(const void* data, size_t size) {
  auto p = static_cast<const char*>(data);
  while (size) {
#if defined(_WIN32)
    ssize n = ::send(SOCKET(m_fd), p, int(size), 0);
#else
    ssize n = ::send(m_fd, p, size, MSG_NOSIGNAL);
#endif
    if (n < 0 && interrupted())
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

bool Socket::recv_all(void* data, size_t size, int timeout_ms) {
  auto p = static_cast<char*>(data);
  while (size) {
    if (wait_readable(timeout_ms) <= 0)
      return false;
#if defined(_WIN32)
    ssize n = ::recv(SOCKET(m_fd), p, int(size), 0);
#else
    ssize n = ::recv(m_fd, p, size, 0);
#endif
    if (n < 0 && interrupted())
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

void Socket::send_byte_nonblocking(uint8_t byte) {
#if defined(_WIN32)
  u_long on = 1, off = 0;
  ioctlsocket(SOCKET(m_fd), FIONBIO, &on);
  ::send(SOCKET(m_fd), reinterpret_cast<const char*>(&byte), 1, 0);
  ioctlsocket(SOCKET(m_fd), FIONBIO, &off);
#else
  ::send(m_fd, &byte, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
#endif
}

int Socket::wait_readable(int timeout_ms) {
#if defined(_WIN32)
  fd_set set;
  FD_ZERO(&set);
  FD_SET(SOCKET(m_fd), &set);
  timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
  int r = ::select(0, &set, nullptr, nullptr, timeout_ms < 0 ? nullptr : &tv);
  return r < 0 ? -1 : (r > 0 ? 1 : 0);
#else
  return poll_readable(m_fd, timeout_ms);
#endif
}

bool Socket::drain() {
  char buf[256];
  for (;;) {
#if defined(_WIN32)
    u_long pending = 0;
    if (ioctlsocket(SOCKET(m_fd), FIONREAD, &pending) != 0)
      return false;
    if (pending == 0) {
      // Readable with nothing pending means the peer closed.
      if (wait_readable(0) > 0) {
        ssize n = ::recv(SOCKET(m_fd), buf, 1, 0);
        return n > 0;
      }
      return true;
    }
    ssize n = ::recv(SOCKET(m_fd), buf, int(pending < sizeof(buf) ? pending : sizeof(buf)), 0);
    if (n <= 0)
      return false;
#else
    ssize n = ::recv(m_fd, buf, sizeof(buf), MSG_DONTWAIT);
    if (n == 0)
      return false;
    if (n < 0)
      return last_error_would_block() || interrupted();
    if (size_t(n) < sizeof(buf))
      return true;
#endif
  }
}

bool Socket::peer_alive() {
  if (!valid())
    return false;
#if defined(_WIN32)
  return wait_readable(0) == 0 || drain();
#else
  pollfd pfd = { m_fd, POLLIN, 0 };
  if (::poll(&pfd, 1, 0) <= 0)
    return true;
  if (pfd.revents & (POLLHUP | POLLERR))
    return false;
  char c;
  ssize n = ::recv(m_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return n > 0 || (n < 0 && last_error_would_block());
#endif
}

#if !defined(_WIN32)
bool Socket::send_with_fd(const void* data, size_t size, int fd) {
  return transport::send_with_fd(m_fd, data, size, fd);
}

bool Socket::recv_with_fd(void* data, size_t size, int* fd, int timeout_ms) {
  return transport::recv_with_fd(m_fd, data, size, fd, timeout_ms);
}

bool send_with_fd(int socket, const void* data, size_t size, int fd) {
  iovec iov = { const_cast<void*>(data), size };
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(cm), &fd, sizeof(int));
  }
  ssize n;
  do {
    n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n == ssize(size);
}

bool recv_with_fd(int socket, void* data, size_t size, int* fd, int timeout_ms) {
  *fd = -1;
  if (poll_readable(socket, timeout_ms) <= 0)
    return false;
  iovec iov = { data, size };
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize n;
  do {
    n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
  } while (n < 0 && errno == EINTR);
  for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); n > 0 && cm; cm = CMSG_NXTHDR(&msg, cm)) {
    if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS && cm->cmsg_len == CMSG_LEN(sizeof(int)))
      std::memcpy(fd, CMSG_DATA(cm), sizeof(int));
  }
  if (n != ssize(size)) {
    if (*fd >= 0)
      ::close(*fd);
    *fd = -1;
    return false;
  }
  return true;
}
#endif

}
