// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// A connected stream socket: UNIX domain on Linux, TCP loopback on Windows/Wine (Wine 8's
// Winsock has no AF_UNIX; see README.md). Used for the handshake, for doorbells when the
// host is idle, and for wakeups of guests that cannot use futexes. Its closure is also
// how each side learns that the other died.
namespace npt::transport {

class Socket {
public:
#if defined(_WIN32)
  using Native = uintptr_t;
#else
  using Native = int;
#endif
  static constexpr Native kInvalid = Native(-1);

  Socket() = default;
  explicit Socket(Native fd) : m_fd(fd) {}
  ~Socket() { close(); }
  Socket(Socket&& other) noexcept : m_fd(other.release()) {}
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  static Socket connect_unix(const char* path);
  static Socket connect_tcp_loopback(uint16_t port);

  bool valid() const { return m_fd != kInvalid; }
  Native native() const { return m_fd; }
  Native release() { Native fd = m_fd; m_fd = kInvalid; return fd; }
  void close();

  bool send_all(const void* data, size_t size);
  // Reads exactly size bytes, giving up after timeout_ms of silence.
  bool recv_all(void* data, size_t size, int timeout_ms);

  // Sends one byte without blocking; a full socket buffer already holds a wakeup.
  void send_byte_nonblocking(uint8_t byte);
  // 1 readable, 0 timeout, -1 error or hang-up with nothing to read.
  int wait_readable(int timeout_ms);
  // Reads whatever is queued without blocking; false once the peer has closed.
  bool drain();
  // Without blocking: false if the peer has closed the connection.
  bool peer_alive();

#if !defined(_WIN32)
  bool send_with_fd(const void* data, size_t size, int fd);
  bool recv_with_fd(void* data, size_t size, int* fd, int timeout_ms);
#endif

private:
  Native m_fd = kInvalid;
};

bool socket_library_init();

#if !defined(_WIN32)
// One message with at most one descriptor beside it (SCM_RIGHTS), on a descriptor the
// caller keeps (a Socket's, or one a listener accepted): fd -1 sends none. Interrupted
// calls are retried.
bool send_with_fd(int socket, const void* data, size_t size, int fd);
// Exactly size bytes and the descriptor sent beside them (*fd -1 if none, close-on-exec),
// giving up after timeout_ms (-1: no limit) of silence.
bool recv_with_fd(int socket, void* data, size_t size, int* fd, int timeout_ms);
#endif

}
