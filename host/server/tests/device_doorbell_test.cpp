// SPDX-License-Identifier: MIT
// ivshmem-doorbell without a VM: this test plays QEMU's part. It connects to the server's
// --ivshmem-socket and checks the messages of QEMU's ivshmem server protocol, then stands
// for the device: a file stands for BAR0 (NPT_IVSHMEM_REGISTERS), and a write of the
// server's peer ID into its Doorbell register becomes a write to the eventfd the server
// gave for that peer, as QEMU does. tests/vm's vm-doorbell runs the same with QEMU.
#include <gtest/gtest.h>

#include <endian.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "../diagnostic_dispatch.h"
#include "device_server_process.h"

using namespace npt::transport;
using namespace npt::transport::device;
using npt::server::testing::DeviceServerProcess;
using npt::server::testing::ServerKind;

namespace {

struct Message {
  int64_t value = 0;
  int fd = -1;
};

// One message of the protocol: a little-endian int64, perhaps with a descriptor.
bool receive(int socket, Message* out) {
  uint64_t wire = 0;
  if (!npt::transport::recv_with_fd(socket, &wire, sizeof(wire), &out->fd, 10000))
    return false;
  out->value = int64_t(le64toh(wire));
  return true;
}

// What QEMU learns on connecting.
struct QemuSide {
  int socket = -1;
  int64_t version = -1, id = -1, server_peer = -1;
  int memory = -1, server_doorbell = -1, own_vector = -1;
  ~QemuSide() {
    for (int fd : { socket, memory, server_doorbell, own_vector })
      if (fd >= 0)
        ::close(fd);
  }
  bool connect(const std::string& path) {
    socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", path.c_str());
    for (int i = 0; i < 200; i++) {
      if (::connect(socket, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0)
        break;
      sleep_us(10000);
    }
    Message m[5];
    for (Message& one : m)
      if (!receive(socket, &one))
        return false;
    version = m[0].value;
    id = m[1].value;
    memory = m[2].value == -1 ? m[2].fd : -1;
    server_peer = m[3].value;
    server_doorbell = m[3].fd;
    own_vector = m[4].value == id ? m[4].fd : -1;
    return m[0].fd < 0 && m[1].fd < 0;
  }
};

uint64_t inode_of(int fd) {
  struct stat st = {};
  return ::fstat(fd, &st) == 0 ? uint64_t(st.st_ino) : 0;
}

TEST(DeviceDoorbell, TheServerSpeaksQemusIvshmemProtocol) {
  const std::string socket = "/tmp/npt-ivshmem-" + std::to_string(getpid()) + ".sock";
  DeviceServerProcess server(ServerKind::Native, 32ull << 20, { "--ivshmem-socket", socket });
  ASSERT_TRUE(server.serving());
  QemuSide first, second;
  ASSERT_TRUE(first.connect(socket));
  EXPECT_EQ(first.version, 0);
  EXPECT_GE(first.id, 1) << "peer 0 is the server's own";
  EXPECT_LE(first.id, 0xFFFF);
  ASSERT_GE(first.memory, 0) << "the memory comes as -1 with its descriptor";
  const int device = ::open(server.path().c_str(), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(inode_of(first.memory), inode_of(device)) << "the memory is the --vm-shm file";
  ::close(device);
  EXPECT_EQ(first.server_peer, 0);
  EXPECT_GE(first.server_doorbell, 0);
  EXPECT_GE(first.own_vector, 0) << "the client's own vector 0 comes last";
  EXPECT_EQ(load_acquire(server.header()->doorbell_peer), 1u) << "the header names peer 0 (plus one)";

  ASSERT_TRUE(second.connect(socket));
  EXPECT_NE(second.id, first.id);
  EXPECT_EQ(inode_of(second.memory), inode_of(first.memory));

  // A ring the server receives is counted in the header (the server's loop reads it).
  const uint64_t before = load_acquire(server.header()->doorbell_rings);
  const uint64_t one = 1;
  ASSERT_EQ(::write(first.server_doorbell, &one, sizeof(one)), ssize_t(sizeof(one)));
  uint64_t after = before;
  for (int i = 0; i < 300 && after == before; i++) {
    sleep_us(10000);
    after = load_acquire(server.header()->doorbell_rings);
  }
  EXPECT_EQ(after, before + 1);
}

TEST(DeviceDoorbell, AGuestFindingItsWorkerIdleRingsAndIsAnswered) {
  const std::string socket = "/tmp/npt-ivshmem-guest-" + std::to_string(getpid()) + ".sock";
  DeviceServerProcess server(ServerKind::Native, 32ull << 20, { "--ivshmem-socket", socket });
  ASSERT_TRUE(server.serving());
  QemuSide qemu;
  ASSERT_TRUE(qemu.connect(socket));

  // BAR0, as a file: the Doorbell register starts at a value no ring writes.
  char registers[] = "/tmp/npt-ivshmem-bar0-XXXXXX";
  const int bar0 = ::mkstemp(registers);
  ASSERT_GE(bar0, 0);
  ASSERT_EQ(::ftruncate(bar0, 4096), 0);
  auto* words = static_cast<uint32_t*>(::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, bar0, 0));
  ::close(bar0);
  ASSERT_NE(words, MAP_FAILED);
  constexpr uint32_t kUntouched = 0xFFFFFFFFu;
  store_release(words[3], kUntouched);
  // QEMU's part: a write of (peer 0 << 16 | vector 0) signals the server's eventfd.
  std::atomic<bool> stop{false};
  std::atomic<int> rings{0};
  std::thread device([&] {
    while (!stop.load()) {
      if (load_acquire(words[3]) != kUntouched) {
        EXPECT_EQ(load_acquire(words[3]), 0u) << "peer 0, vector 0";
        store_release(words[3], kUntouched);
        const uint64_t one = 1;
        EXPECT_EQ(::write(qemu.server_doorbell, &one, sizeof(one)), ssize_t(sizeof(one)));
        rings++;
      }
      sleep_us(100);
    }
  });

  ::setenv("NPT_IVSHMEM_REGISTERS", registers, 1);
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  const Status connected = server.connect(&guest, &error);
  ::unsetenv("NPT_IVSHMEM_REGISTERS");
  ASSERT_EQ(connected, kOk) << error;
  EXPECT_STREQ(guest->wake_mode(), "doorbell");

  uint32_t cmd[4] = { npt::server::kDiagEcho, 1, 2, 3 }, reply[4] = {};
  size_t n = 0;
  for (int round = 0; round < 3; round++) {
    sleep_us(300000);   // the worker announces idle and backs off
    const uint64_t start = now_ns();
    ASSERT_EQ(guest->call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n), kOk);
    EXPECT_EQ(n, sizeof(cmd));
    EXPECT_EQ(std::memcmp(reply, cmd, sizeof(cmd)), 0);
    std::printf("a call after 300 ms of quiet, rung: %.2f ms\n", double(now_ns() - start) / 1e6);
  }
  stop = true;
  device.join();
  EXPECT_GE(rings.load(), 3) << "each call found the worker idle and rang";
  EXPECT_GE(load_acquire(server.header()->doorbell_rings), uint64_t(rings.load()));
  ::munmap(words, 4096);
  ::unlink(registers);
}

TEST(DeviceDoorbell, WithoutTheSocketTheHeaderOffersNoDoorbell) {
  DeviceServerProcess server(ServerKind::Native, 32ull << 20);
  ASSERT_TRUE(server.serving());
  EXPECT_EQ(load_acquire(server.header()->doorbell_peer), 0u);
  EXPECT_EQ(load_acquire(server.header()->host_pid), uint32_t(server.pid())) << "informational, but true";
  std::unique_ptr<GuestConnection> guest;
  ASSERT_EQ(server.connect(&guest), kOk);
  EXPECT_STREQ(guest->wake_mode(), "poll");
}

}
