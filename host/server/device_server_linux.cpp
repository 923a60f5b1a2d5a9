// SPDX-License-Identifier: MIT
#include "device_server.h"
#include "device_regions.h"
#include "sharing_cleanup.h"
#include "worker.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "neptune/transport/wait.h"

namespace npt::server {

using namespace npt::transport;

namespace {

// A device worker's link to its guest: there is no socket; the parent judges the guest
// by its lease and says when to end through the quit word.
class DeviceGuestLink final : public GuestLink {
public:
  explicit DeviceGuestLink(const uint32_t* quit) : m_quit(quit) {}
  void wake_guest() override {}
  bool wait_doorbell(int) override { return guest_alive(); }
  bool guest_alive() override { return load_acquire(*m_quit) == 0; }
  void wait_mapped_ack(int) override {}

private:
  const uint32_t* m_quit;
};

}

DeviceServer::~DeviceServer() {
  if (m_base) {
    stop_all();
    for (uint32_t i = 0; i < m_workers.size(); i++) {
      Worker& w = m_workers[i];
      if (w.running && !w.ended)
        ::waitpid(pid_t(w.pid), nullptr, 0);
      release_worker(w);
    }
    ::munmap(m_base, size_t(m_size));
  }
  if (m_chunk_owners)
    ::munmap(m_chunk_owners, size_t(DeviceChunks::table_bytes(m_size)));
}

bool DeviceServer::start() {
  m_size = m_config.device_size;
  if (m_size < device::kMinDeviceSize || m_size % device::kChunkSize) {
    std::fprintf(stderr, "neptune-server: --size must be a multiple of 64 KiB and at least 4 MiB\n");
    return false;
  }
  // The file may exist already: QEMU creates it when it starts first, and a restarted
  // server serves the file QEMU still maps. Never shrunk under a mapping.
  int fd = ::open(m_config.device_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  struct stat st = {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    std::fprintf(stderr, "neptune-server: cannot open %s: %s\n", m_config.device_path.c_str(), std::strerror(errno));
    if (fd >= 0)
      ::close(fd);
    return false;
  }
  if (uint64_t(st.st_size) > m_size) {
    std::fprintf(stderr, "neptune-server: %s is larger (%lld bytes) than --size %llu: refusing to shrink it\n",
                 m_config.device_path.c_str(), (long long)st.st_size, (unsigned long long)m_size);
    ::close(fd);
    return false;
  }
  if (uint64_t(st.st_size) < m_size && ::ftruncate(fd, off_t(m_size)) != 0) {
    std::fprintf(stderr, "neptune-server: cannot size %s: %s\n", m_config.device_path.c_str(), std::strerror(errno));
    ::close(fd);
    return false;
  }
  void* base = ::mmap(nullptr, size_t(m_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (!m_config.ivshmem_socket.empty()) {
    // QEMU's ivshmem-doorbell takes the memory from the server: this same file.
    std::string error;
    m_ivshmem = std::make_unique<IvshmemServer>();
    if (!m_ivshmem->listen(m_config.ivshmem_socket, fd, &error)) {
      std::fprintf(stderr, "neptune-server: --ivshmem-socket: %s\n", error.c_str());
      ::close(fd);
      return false;
    }
    take_doorbell(uint32_t(IvshmemServer::kServerPeerId));
  }
  ::close(fd);
  void* owners = ::mmap(nullptr, size_t(DeviceChunks::table_bytes(m_size)), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED || owners == MAP_FAILED) {
    std::fprintf(stderr, "neptune-server: cannot map %s\n", m_config.device_path.c_str());
    return false;
  }
  m_base = static_cast<uint8_t*>(base);
  m_chunk_owners = static_cast<uint8_t*>(owners);
  m_instance = (uint64_t(::getpid()) << 32) ^ now_ns();
  m_host_pid = uint32_t(::getpid());
  lay_out();
  m_workers.assign(device::kMaxSlots, Worker());

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

int DeviceServer::run() {
  uint64_t next_tick = now_ns();
  for (;;) {
    std::vector<pollfd> fds = { { m_signal_fd, POLLIN, 0 } };
    if (m_ivshmem)
      for (int fd : m_ivshmem->poll_fds())
        fds.push_back({ fd, POLLIN, 0 });
    const uint64_t now = now_ns();
    const int wait_ms = next_tick > now ? int((next_tick - now + 999999) / 1000000) : 0;
    int r = ::poll(fds.data(), nfds_t(fds.size()), wait_ms);
    if (r < 0 && errno != EINTR)
      return 1;
    bool stop = false;
    if (fds[0].revents & POLLIN) {
      signalfd_siginfo info;
      while (::read(m_signal_fd, &info, sizeof(info)) == ssize_t(sizeof(info)))
        stop |= info.ssi_signo == SIGTERM || info.ssi_signo == SIGINT;
    }
    for (size_t i = 1; i < fds.size(); i++)
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
        if (const uint64_t rings = m_ivshmem->handle(fds[i].fd))
          doorbell_rang(rings);
    // Reaped here; the slots see it in tick().
    int status;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
      for (Worker& w : m_workers) {
        if (w.running && !w.ended && w.pid == uint32_t(pid)) {
          w.ended = true;
          w.clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
          if (!w.clean)
            reclaim_sharing_of_dead_workers("worker pid", uint32_t(pid));
        }
      }
    }
    if (stop)
      return 0;
    // A doorbell wakes the loop often; the slots are looked at once a heartbeat period.
    if (now_ns() >= next_tick) {
      tick();
      next_tick = now_ns() + uint64_t(device::kHostHeartbeatMs) * 1000000;
    }
  }
}

bool DeviceServer::launch_worker(const WorkerSpec& spec, uint32_t* pid_out, std::string* error) {
  Worker& w = m_workers[spec.slot];
  void* words = ::mmap(nullptr, sizeof(DeviceWorkerWords), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (words == MAP_FAILED) {
    *error = "cannot map the supervision page";
    return false;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(1);
    ::close(m_signal_fd);
    sigset_t set;
    sigemptyset(&set);
    sigprocmask(SIG_SETMASK, &set, nullptr);
    auto* supervision = static_cast<DeviceWorkerWords*>(words);
    DeviceRegions regions(m_base, m_chunks, spec.slot,
                          reinterpret_cast<device::DeviceSlot*>(m_base + device::kSlotsOffset +
                                                                uint64_t(spec.slot) * device::kSlotStride));
    npt_host_region_provider provider = regions.provider();
    WorkerParams p;
    p.link = std::make_unique<DeviceGuestLink>(&supervision->quit);
    p.base = m_base + spec.context_offset;
    p.size = spec.context_size;
    p.geometry = spec.geometry;
    p.limits = m_config.limits;
    p.region_provider = &provider;
    p.poll_doorbell = true;
    p.dispatch = m_config.dispatch;
    p.spin_us = m_config.spin_us;
    p.worker_id = uint32_t(::getpid());
    p.progress = &supervision->progress;
    p.running = &supervision->running;
    p.cpu_ns = &supervision->cpu_ns;
    const int status = run_worker(p);
    ::_exit(status);
  }
  if (pid < 0) {
    ::munmap(words, sizeof(DeviceWorkerWords));
    *error = std::strerror(errno);
    return false;
  }
  w = Worker();
  w.running = true;
  w.pid = uint32_t(pid);
  w.words = static_cast<DeviceWorkerWords*>(words);
  *pid_out = uint32_t(pid);
  return true;
}

void DeviceServer::request_quit(uint32_t slot) {
  Worker& w = m_workers[slot];
  if (w.words)
    store_release(w.words->quit, 1u);
}

void DeviceServer::terminate_worker(uint32_t slot) {
  Worker& w = m_workers[slot];
  if (w.running && !w.ended)
    ::kill(pid_t(w.pid), SIGKILL);
}

bool DeviceServer::worker_ended(uint32_t slot, bool* clean) {
  Worker& w = m_workers[slot];
  if (w.running && !w.ended)
    return false;
  *clean = w.clean;
  release_worker(w);
  return true;
}

DeviceWorkerWords* DeviceServer::worker_words(uint32_t slot) { return m_workers[slot].words; }

void DeviceServer::release_worker(Worker& w) {
  if (w.words)
    ::munmap(w.words, sizeof(DeviceWorkerWords));
  w = Worker();
}

}
