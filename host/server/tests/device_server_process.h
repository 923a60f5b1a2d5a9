// SPDX-License-Identifier: MIT
#pragma once

// neptune-server serving a shared-memory device (QEMU ivshmem) on a region file of its own,
// and the caller's own view of that file, as a guest's "BAR" is: the native server
// (NPT_SERVER_BIN) or neptune-server.exe under Wine (NPT_WIN_BUILD_DIR). Used by the device
// tests and by bench/transport.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "neptune/transport/device_layout.h"
#include "neptune/transport/guest_connection.h"
#include "neptune/transport/wait.h"

namespace npt::server::testing {

using namespace npt::transport;
using namespace npt::transport::device;

// CPU time (ns) and times scheduled of every thread of a process, from schedstat (finer
// than the clock ticks of stat; the second figure counts wakeups).
struct ProcessUsage {
  uint64_t cpu_ns = 0, runs = 0;
};

inline ProcessUsage process_usage(pid_t pid) {
  ProcessUsage total;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  if (DIR* dir = opendir(tasks.c_str())) {
    while (dirent* e = readdir(dir)) {
      if (e->d_name[0] == '.')
        continue;
      std::ifstream f(tasks + "/" + e->d_name + "/schedstat");
      unsigned long long ns = 0, waited = 0, runs = 0;
      if (f >> ns >> waited >> runs) {
        total.cpu_ns += ns;
        total.runs += runs;
      }
    }
    closedir(dir);
  }
  return total;
}

enum class ServerKind { Native, Wine };

inline std::string win_build_dir() {
  const char* dir = std::getenv("NPT_WIN_BUILD_DIR");
  return dir ? dir : "";
}

inline bool wine_server_available() {
  struct stat st;
  return !win_build_dir().empty() && stat((win_build_dir() + "/host/server/neptune-server.exe").c_str(), &st) == 0 &&
         std::system("command -v wine >/dev/null 2>&1") == 0;
}

// A server serving a device file of its own, and the test's own view of that file.
class DeviceServerProcess {
public:
  DeviceServerProcess(ServerKind kind, uint64_t size, std::vector<std::string> extra = {}) : m_size(size) {
    static int counter = 0;
    m_path = "/dev/shm/npt-device-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    std::vector<std::string> args;
    if (kind == ServerKind::Native) {
      args = { std::getenv("NPT_SERVER_BIN") ? std::getenv("NPT_SERVER_BIN") : "" };
    } else {
      args = { "wine", win_build_dir() + "/host/server/neptune-server.exe" };
    }
    for (const char* a : { "--vm-shm", m_path.c_str(), "--dispatch", "diag", "--size" })
      args.push_back(a);
    args.push_back(std::to_string(size));
    args.insert(args.end(), extra.begin(), extra.end());
    m_pid = fork();
    if (m_pid == 0) {
      std::vector<char*> argv;
      for (auto& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp(argv[0], argv.data());
      _exit(127);
    }
    // Ready once the header is there and the heartbeat moves (Wine takes seconds to start).
    for (int i = 0; i < 3000 && !serving(); i++)
      sleep_us(10000);
  }
  ~DeviceServerProcess() {
    stop();
    if (m_base)
      munmap(m_base, size_t(m_size));
    unlink(m_path.c_str());
  }
  void stop() {
    if (m_pid <= 0)
      return;
    kill(m_pid, SIGTERM);
    for (int i = 0; i < 300; i++) {
      if (waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
        m_pid = 0;
        return;
      }
      sleep_us(10000);
    }
    kill(m_pid, SIGKILL);
    waitpid(m_pid, nullptr, 0);
    m_pid = 0;
  }
  pid_t pid() const { return m_pid; }
  const std::string& path() const { return m_path; }

  bool serving() {
    if (!m_base) {
      int fd = open(m_path.c_str(), O_RDWR);
      struct stat st = {};
      if (fd < 0 || fstat(fd, &st) != 0 || uint64_t(st.st_size) != m_size) {
        if (fd >= 0)
          close(fd);
        return false;
      }
      void* p = mmap(nullptr, size_t(m_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      close(fd);
      if (p == MAP_FAILED)
        return false;
      m_base = static_cast<uint8_t*>(p);
    }
    if (load_acquire(header()->magic) != kDeviceMagic || load_acquire(header()->state) != kDeviceServing)
      return false;
    const uint64_t beat = load_acquire(header()->heartbeat);
    for (int i = 0; i < 50; i++) {
      sleep_us(10000);
      if (load_acquire(header()->heartbeat) != beat)
        return true;
    }
    return false;
  }
  DeviceHeader* header() const { return reinterpret_cast<DeviceHeader*>(m_base); }
  DeviceSlot* slot(uint32_t i) const {
    return reinterpret_cast<DeviceSlot*>(m_base + kSlotsOffset + uint64_t(i) * kSlotStride);
  }
  uint8_t* base() const { return m_base; }
  // The slot whose context this guest uses (by its worker, which the server names in the
  // slot once the worker started: after the Welcome).
  int slot_of(GuestConnection& guest) const {
    for (int round = 0; round < 1000; round++) {
      const uint32_t worker = guest.worker_pid();
      for (uint32_t i = 0; worker && i < load_acquire(header()->slot_count); i++)
        if (load_acquire(slot(i)->state) == kSlotActive && load_acquire(slot(i)->worker_pid) == worker)
          return int(i);
      sleep_us(10000);
    }
    return -1;
  }

  Status connect(std::unique_ptr<GuestConnection>* out, std::string* error = nullptr,
                 Geometry g = small_geometry()) {
    return GuestConnection::connect_device(m_path.c_str(), g, out, error);
  }
  static Geometry small_geometry() {
    Geometry g;
    g.ring_count = 2;
    g.ring_size = 64 * 1024;
    g.bulk_size = 1 << 20;
    return g;
  }

private:
  std::string m_path;
  uint64_t m_size;
  pid_t m_pid = 0;
  uint8_t* m_base = nullptr;
};

}  // namespace npt::server::testing
