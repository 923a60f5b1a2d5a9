// SPDX-License-Identifier: MIT
#include "server.h"
#include "hello_checks.h"
#include "protocol_identity.h"
#include "sharing_cleanup.h"
#include "shm_file_cleanup.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "neptune/transport/handshake.h"
#include "neptune/transport/host_context.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/shared_memory.h"
#include "neptune/transport/wait.h"

namespace npt::server {

using namespace npt::transport;

namespace {

std::string random_token() {
  uint8_t bytes[16] = {};
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (::read(fd, bytes, sizeof(bytes)) != ssize_t(sizeof(bytes)))
      std::memset(bytes, 0, sizeof(bytes));
    ::close(fd);
  }
  std::string s;
  char hex[3];
  for (uint8_t b : bytes) {
    std::snprintf(hex, sizeof(hex), "%02x", b);
    s += hex;
  }
  return s;
}

}

Server::~Server() {
  if (m_unix_listener >= 0) {
    ::close(m_unix_listener);
    ::unlink(m_config.socket_path.c_str());
  }
  if (m_tcp_listener >= 0) {
    ::close(m_tcp_listener);
    ::unlink(m_rendezvous_path.c_str());
  }
  for (auto& c : m_contexts) {
    ::kill(c.pid, SIGKILL);
    ::waitpid(c.pid, nullptr, 0);
    ::munmap(c.base, c.size);
    ::munmap(c.supervision, sizeof(Supervision));
    if (!c.shm_path.empty())
      remove_context_shm_files(c.shm_path);
  }
}

bool Server::start() {
  // A killed server's workers died with it (PR_SET_PDEATHSIG) before their guests
  // confirmed every mapping: those files are removed by the next server.
  if (uint32_t removed = remove_shm_files_of_dead_servers())
    std::fprintf(stderr, "neptune-server: removed %u /dev/shm files of servers that no longer run\n", removed);
  sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  if (m_config.socket_path.size() >= sizeof(addr.sun_path)) {
    std::fprintf(stderr, "neptune-server: socket path too long\n");
    return false;
  }
  std::strcpy(addr.sun_path, m_config.socket_path.c_str());
  ::unlink(addr.sun_path);
  m_unix_listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_unix_listener < 0 || ::bind(m_unix_listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::listen(m_unix_listener, 64) != 0) {
    std::fprintf(stderr, "neptune-server: cannot listen on %s: %s\n", addr.sun_path, std::strerror(errno));
    return false;
  }
  ::chmod(addr.sun_path, 0600);

  if (m_config.tcp) {
    // PE guests under Wine 8 have no AF_UNIX; they connect to loopback TCP and prove
    // they could read the 0600 rendezvous file.
    m_tcp_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in in = {};
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(in);
    if (m_tcp_listener < 0 || ::bind(m_tcp_listener, reinterpret_cast<sockaddr*>(&in), sizeof(in)) != 0 ||
        ::listen(m_tcp_listener, 64) != 0 || ::getsockname(m_tcp_listener, reinterpret_cast<sockaddr*>(&in), &len) != 0) {
      std::fprintf(stderr, "neptune-server: cannot listen on loopback TCP: %s\n", std::strerror(errno));
      return false;
    }
    m_token = random_token();
    m_rendezvous_path = m_config.socket_path + ".tcp";
    std::string tmp = m_rendezvous_path + ".new";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
      return false;
    char text[128];
    int n = std::snprintf(text, sizeof(text), "%u %s\n", unsigned(ntohs(in.sin_port)), m_token.c_str());
    bool ok = ::write(fd, text, size_t(n)) == n;
    ::close(fd);
    if (!ok || ::rename(tmp.c_str(), m_rendezvous_path.c_str()) != 0)
      return false;
  }

  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  m_signal_fd = ::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  return m_signal_fd >= 0;
}

int Server::run() {
  for (;;) {
    pollfd fds[3] = {
      { m_signal_fd, POLLIN, 0 },
      { m_unix_listener, POLLIN, 0 },
      { m_tcp_listener, POLLIN, 0 },
    };
    // With a watchdog the parent wakes every 50 ms to look at the workers' progress.
    int r = ::poll(fds, m_tcp_listener >= 0 ? 3 : 2, m_config.watchdog_ms ? 50 : -1);
    if (r < 0 && errno != EINTR)
      return 1;
    if (m_config.watchdog_ms)
      run_watchdog();
    if (fds[0].revents & POLLIN) {
      signalfd_siginfo info;
      bool stop = false;
      while (::read(m_signal_fd, &info, sizeof(info)) == ssize_t(sizeof(info)))
        stop |= info.ssi_signo == SIGTERM || info.ssi_signo == SIGINT;
      reap_workers();
      if (stop)
        return 0;
    }
    if (fds[1].revents & POLLIN)
      accept_guest(m_unix_listener, false);
    if (m_tcp_listener >= 0 && (fds[2].revents & POLLIN))
      accept_guest(m_tcp_listener, true);
  }
}

void Server::mark_removed(Context& c, uint32_t reason) {
  auto* control = reinterpret_cast<ControlBlock*>(c.base);
  // Keep the worker's own reason when it declared the context fatal before exiting.
  if (load_acquire(control->device_state) == kDeviceAlive)
    store_release(control->fatal_reason, reason);
  store_seq_cst(control->device_state, uint32_t(kDeviceRemovedState));
  address_wake_all(&control->device_state);
  for (uint32_t i = 0; i < c.reply_slots; i++)
    address_wake_all(reinterpret_cast<uint32_t*>(c.base + c.replies_offset + c.reply_stride * i));
}

// A healthy worker bumps its progress word before every command and at least every
// 100 ms while idle; one whose word stays still for watchdog_ms is hung: its context is
// removed (WorkerHung) and the worker killed (reaped as usual).
void Server::run_watchdog() {
  const uint64_t now = now_ns();
  for (auto& c : m_contexts) {
    if (c.hung)
      continue;
    uint64_t cpu = load_relaxed(c.supervision->cpu_ns);
    if (!load_acquire(c.supervision->running)) {
      c.progress_at_ns = now;
      c.cpu_at_ns = cpu;
      continue;
    }
    uint64_t progress = load_relaxed(c.supervision->progress);
    const bool expired = now - c.progress_at_ns > uint64_t(m_config.watchdog_ms) * 1000000;
    if (progress != c.last_progress || c.progress_at_ns == 0 ||
        (expired && !worker_looks_hung(now - c.progress_at_ns, cpu - c.cpu_at_ns))) {
      // Progress, or working on a starved machine: a new period.
      c.last_progress = progress;
      c.progress_at_ns = now;
      c.cpu_at_ns = cpu;
    } else if (expired) {
      std::fprintf(stderr, "neptune-server: worker %d made no progress for %u ms; killing it\n", c.pid,
                   m_config.watchdog_ms);
      mark_removed(c, uint32_t(FatalReason::WorkerHung));
      ::kill(c.pid, SIGKILL);
      c.hung = true;   // reaped on SIGCHLD
    }
  }
}

void Server::reap_workers() {
  int status;
  pid_t pid;
  while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
    for (size_t i = 0; i < m_contexts.size(); i++) {
      if (m_contexts[i].pid != pid)
        continue;
      bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      if (!clean || m_config.verbose)
        std::fprintf(stderr, "neptune-server: worker %d %s %d\n", pid,
                     WIFSIGNALED(status) ? "killed by signal" : "exited with", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
      mark_removed(m_contexts[i], clean ? uint32_t(FatalReason::GuestDisconnected) : uint32_t(FatalReason::WorkerDied));
      // A worker that did not end on its own ran no clean-up: its sharing entries come back.
      if (!clean)
        reclaim_sharing_of_dead_workers("worker pid", uint32_t(pid));
      // A worker ends its files itself once its guest confirmed them, and at a clean end; a
      // killed one (before the confirmation, or with regions in use) leaves them behind.
      if (!m_contexts[i].shm_path.empty()) {
        const uint32_t removed = remove_context_shm_files(m_contexts[i].shm_path);
        if (removed && (!clean || m_config.verbose))
          std::fprintf(stderr, "neptune-server: removed %u /dev/shm files of worker %d\n", removed, pid);
      }
      ::munmap(m_contexts[i].base, m_contexts[i].size);
      ::munmap(m_contexts[i].supervision, sizeof(Supervision));
      m_contexts.erase(m_contexts.begin() + long(i));
      break;
    }
  }
}

void Server::accept_guest(int listener, bool tcp) {
  Socket conn(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
  if (!conn.valid())
    return;
  if (tcp) {
    int one = 1;
    setsockopt(conn.native(), IPPROTO_TCP, 1 /* TCP_NODELAY */, &one, sizeof(one));
  }

  Welcome welcome = {};
  welcome.magic = kWelcomeMagic;
  auto refuse = [&](ConnectError e, const char* message) {
    welcome.error = uint32_t(e);
    std::snprintf(welcome.message, sizeof(welcome.message), "%s", message);
    conn.send_all(&welcome, sizeof(welcome));
    if (m_config.verbose)
      std::fprintf(stderr, "neptune-server: refused a guest: %s\n", message);
  };

  // A guest that connects and stays silent must not hold the server for long.
  Hello hello = {};
  if (!receive_hello(conn, &hello, 2000))
    return;
  // In executor mode the guest's commands are decoded: its protocol must be this server's.
  const ProtocolIdentity own_protocol = executor_protocol();
  const ProtocolIdentity* protocol = m_config.dispatch == DispatchMode::Executor ? &own_protocol : nullptr;
  if (auto refusal = check_hello(hello, tcp ? &m_token : nullptr, m_contexts.size(), m_config.max_contexts, protocol)) {
    const std::string why = hello_refusal_message(hello, *refusal, protocol);
    // Always logged: a guest of another build is a deployment mistake worth seeing.
    if (*refusal == ConnectError::ProtocolMismatch && !m_config.verbose)
      std::fprintf(stderr, "neptune-server: refused a guest: %s\n", why.c_str());
    return refuse(*refusal, why.c_str());
  }
  welcome.version = negotiate_version(hello);
  // Offers this server grants: descriptors on the UNIX socket, wake bytes on either
  // socket, bulk regions after connect (memfds or /dev/shm files, worker.h).
  const uint32_t granted =
    granted_offers(hello, (tcp ? 0u : uint32_t(kHelloFdPassing)) | kHelloSocketWake | kHelloBulkRegions);

  npt_host_geometry g = { hello.ring_count, hello.ring_size, hello.reply_slot_count, hello.reply_slot_size,
                          hello.push_slot_count, hello.fence_count, hello.bulk_size };
  const char* message = nullptr;
  if (uint32_t e = npt_host_check_geometry(&g, &m_config.limits, &message); e != 0) {
    char text[256];
    std::snprintf(text, sizeof(text), "%s (limits: %u rings of %u bytes, %u reply slots, %llu bulk bytes)", message,
                  m_config.limits.max_rings, m_config.limits.max_ring_size, m_config.limits.max_reply_slots,
                  (unsigned long long)m_config.limits.max_bulk_size);
    return refuse(ConnectError(e), text);
  }
  MemoryBudget::Reservation memory;
  if (std::string why; !m_budget.reserve(context_memory(g, m_config.limits, m_config.worker_memory), &memory, &why)) {
    // Always logged: the operator sized the server (--max-memory, the per-context limits).
    if (!m_config.verbose)
      std::fprintf(stderr, "neptune-server: refused a guest: %s\n", why.c_str());
    return refuse(ConnectError::ServerMemoryExhausted, why.c_str());
  }

  const uint64_t size = npt_host_shared_memory_size(&g);
  const uint32_t id = m_next_id++;
  const bool fd_passing = (granted & kHelloFdPassing) != 0;
  std::string path;
  int fd;
  if (fd_passing) {
    fd = SharedMapping::create_memfd("neptune-context", size_t(size));
  } else {
    char name[96];
    std::snprintf(name, sizeof(name), "neptune-%d-%u", int(::getpid()), id);
    path = std::string("/dev/shm/") + name;
    fd = SharedMapping::create_shm_file(name, size_t(size));
  }
  if (fd < 0)
    return refuse(ConnectError::ServerError, "cannot create shared memory");
  void* base = ::mmap(nullptr, size_t(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    ::close(fd);
    if (!path.empty())
      ::unlink(path.c_str());
    return refuse(ConnectError::ServerError, "cannot map shared memory");
  }

  // Laid out before the guest can map it; the worker rewrites the same values.
  HostContext::initialize_memory(static_cast<uint8_t*>(base), geometry_from_hello(hello), 0);
  void* supervision = ::mmap(nullptr, sizeof(Supervision), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (supervision == MAP_FAILED) {
    ::munmap(base, size_t(size));
    ::close(fd);
    if (!path.empty())
      ::unlink(path.c_str());
    return refuse(ConnectError::ServerError, "cannot map the supervision page");
  }

  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    // Worker: dies with the server, and sees only its own guest's memory.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(1);
    for (auto& c : m_contexts) {
      ::munmap(c.base, c.size);
      ::munmap(c.supervision, sizeof(Supervision));
    }
    ::close(m_unix_listener);
    if (m_tcp_listener >= 0)
      ::close(m_tcp_listener);
    ::close(m_signal_fd);
    ::close(fd);
    sigset_t set;
    sigemptyset(&set);
    sigprocmask(SIG_SETMASK, &set, nullptr);

    WorkerParams p;
    p.link = std::make_unique<SocketGuestLink>(std::move(conn));
    p.base = static_cast<uint8_t*>(base);
    p.size = size;
    p.geometry = g;
    p.limits = m_config.limits;
    p.socket_wake = (granted & kHelloSocketWake) != 0;
    p.unlink_path = path;
    p.regions_by_descriptor = fd_passing;
    p.region_prefix = path;
    p.dispatch = m_config.dispatch;
    p.spin_us = m_config.spin_us;
    p.worker_id = uint32_t(::getpid());
    p.progress = &static_cast<Supervision*>(supervision)->progress;
    p.running = &static_cast<Supervision*>(supervision)->running;
    p.cpu_ns = &static_cast<Supervision*>(supervision)->cpu_ns;
    int status = run_worker(p);
    ::_exit(status);
  }
  if (pid < 0) {
    ::munmap(supervision, sizeof(Supervision));
    ::munmap(base, size_t(size));
    ::close(fd);
    if (!path.empty())
      ::unlink(path.c_str());
    return refuse(ConnectError::ServerError, "cannot fork a worker");
  }

  Geometry geometry = geometry_from_hello(hello);
  Context c;
  c.pid = pid;
  c.base = static_cast<uint8_t*>(base);
  c.size = size;
  c.reply_slots = g.reply_slot_count;
  c.replies_offset = geometry.replies_offset();
  c.reply_stride = geometry.reply_stride();
  c.supervision = static_cast<Supervision*>(supervision);
  c.shm_path = path;
  c.memory = std::move(memory);
  m_contexts.push_back(std::move(c));

  reinterpret_cast<ControlBlock*>(base)->worker_pid = uint32_t(pid);
  welcome.worker_pid = uint32_t(pid);
  welcome.shm_size = size;
  if (granted & kHelloSocketWake)
    welcome.flags |= kWelcomeSocketWake;
  if (granted & kHelloBulkRegions)
    welcome.flags |= kWelcomeBulkRegions;
  if (fd_passing) {
    welcome.flags |= kWelcomeFd;
    conn.send_with_fd(&welcome, sizeof(welcome), fd);
  } else {
    welcome.flags |= kWelcomePath;
    std::snprintf(welcome.path, sizeof(welcome.path), "%s", path.c_str());
    conn.send_all(&welcome, sizeof(welcome));
  }
  ::close(fd);
  if (m_config.verbose)
    std::fprintf(stderr, "neptune-server: context %u in worker %d (%llu bytes, %s)\n", id, pid,
                 (unsigned long long)size, fd_passing ? "memfd" : path.c_str());
}

}
