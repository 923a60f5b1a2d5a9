// SPDX-License-Identifier: MIT
// neptune-server as a process: handshake and limits, one worker per context, crash
// isolation, malformed ring state, host death detection.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/time.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>

#include "../diagnostic_dispatch.h"
#include "../protocol_identity.h"
#include "neptune/transport/handshake.h"
#include "neptune/transport/socket.h"
#include "neptune/transport/status.h"
#include "bulk_region_checks.h"
#include "server_process.h"

using namespace npt::transport;
using namespace npt::server;
using namespace npt::server::testing;

namespace {

bool echo_ok(GuestConnection& guest, uint32_t ring, uint32_t seed) {
  std::mt19937 rng(seed);
  uint32_t cmd[64];
  cmd[0] = kDiagEcho;
  size_t words = 1 + rng() % 63;
  for (size_t i = 1; i < words; i++)
    cmd[i] = rng();
  uint32_t reply[64] = {};
  size_t n = 0;
  return guest.call(ring, cmd, words * 4, reply, sizeof(reply), &n) == kOk && n == words * 4 &&
         std::memcmp(cmd, reply, n) == 0;
}

uint64_t ms_since(uint64_t start_ns) { return (now_ns() - start_ns) / 1000000; }

// A record as a hostile guest writes it, at the head of a ring nothing was submitted on yet.
void write_raw_record(GuestConnection& guest, uint32_t ring, RecordHeader rec, const void* payload, size_t size) {
  Geometry g = guest.geometry();
  auto* header = reinterpret_cast<RingHeader*>(guest.shared_base() + g.rings_offset() + g.ring_stride() * ring);
  uint8_t* data = reinterpret_cast<uint8_t*>(header) + kRingHeaderSize;
  std::memcpy(data, &rec, sizeof(rec));
  std::memcpy(data + sizeof(rec), payload, size);
  store_release(header->head, uint64_t(align8(sizeof(rec) + size)));
}

// Polls status() the way an application's next call would see it.
uint64_t ms_until_removed(GuestConnection& guest, uint64_t start_ns, uint64_t limit_ms = 2000) {
  while (guest.status() == kOk && ms_since(start_ns) < limit_ms)
    sleep_us(200);
  return ms_since(start_ns);
}

}

TEST(Server, EchoThroughWorkerProcess) {
  ServerProcess server;
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  ASSERT_EQ(server.connect(&guest, &error), kOk) << error;
  EXPECT_NE(guest->worker_pid(), uint32_t(server.pid())) << "the context runs in its own worker";
  for (uint32_t i = 0; i < 2000; i++)
    ASSERT_TRUE(echo_ok(*guest, i % 2, i));

  // Out-of-line commands and a query of what the worker saw.
  std::vector<uint8_t> big(200000);
  uint32_t op = kDiagAccum;
  uint64_t hash = 1469598103934665603ull;
  for (int k = 0; k < 5; k++) {
    for (size_t i = 0; i < big.size(); i++)
      big[i] = uint8_t(i * 7 + k);
    std::memcpy(big.data(), &op, 4);
    ASSERT_EQ(guest->submit(0, big.data(), big.size()), kOk);
    for (uint8_t b : big)
      hash = (hash ^ b) * 1099511628211ull;
  }
  uint32_t query = kDiagQuery;
  uint64_t result[2] = {};
  size_t n = 0;
  ASSERT_EQ(guest->call(0, &query, 4, result, sizeof(result), &n), kOk);
  EXPECT_EQ(result[0], 5u);
  EXPECT_EQ(result[1], hash);

  // Host-pushed values arrive without a round trip.
  uint32_t push[6] = { kDiagPush, 3, 11, 22, 33, 44 };
  uint32_t fence[4] = { kDiagFence, 2, 0, 0 };
  uint64_t value = 0x123456789ull;
  std::memcpy(&fence[2], &value, 8);
  ASSERT_EQ(guest->submit(1, push, sizeof(push)), kOk);
  ASSERT_EQ(guest->submit(1, fence, sizeof(fence)), kOk);
  ASSERT_EQ(guest->finish(1), kOk);
  uint32_t slot[4] = {};
  ASSERT_TRUE(guest->read_push_slot(3, slot, sizeof(slot), &n, nullptr));
  EXPECT_EQ(n, 16u);
  EXPECT_EQ(slot[0], 11u);
  EXPECT_EQ(slot[3], 44u);
  EXPECT_EQ(guest->fence_value(2), value);
}

TEST(Server, PerContextLimitsAreRefusedWithClearErrors) {
  ServerProcess server({ "--max-rings", "4", "--max-bulk", "1048576", "--max-reply-slots", "8", "--max-ring-size", "1048576" });
  struct Case { const char* what; Geometry g; const char* message; };
  std::vector<Case> cases;
  Geometry g = ServerProcess::small_geometry();
  cases.push_back({ "rings", g, "ring count" });
  cases.back().g.ring_count = 5;
  cases.push_back({ "ring size", g, "ring size" });
  cases.back().g.ring_size = 3 * 4096;
  cases.push_back({ "ring size over limit", g, "ring size" });
  cases.back().g.ring_size = 2u << 20;
  cases.push_back({ "bulk", g, "bulk memory" });
  cases.back().g.bulk_size = 2u << 20;
  cases.push_back({ "pending replies", g, "pending replies" });
  cases.back().g.reply_slot_count = 9;
  for (auto& c : cases) {
    std::unique_ptr<GuestConnection> guest;
    std::string error;
    EXPECT_EQ(server.connect(&guest, &error, c.g), kInvalidArg) << c.what;
    EXPECT_NE(error.find(c.message), std::string::npos) << c.what << ": " << error;
    EXPECT_EQ(guest, nullptr);
  }
  std::unique_ptr<GuestConnection> guest;
  ASSERT_EQ(server.connect(&guest), kOk) << "the server stays usable";
  EXPECT_TRUE(echo_ok(*guest, 0, 1));
}

namespace {

// One handshake as bytes, as a guest of another version or with other flags would send it.
struct RawAnswer {
  bool answered = false;
  Welcome welcome = {};
  int fd = -1;
  ~RawAnswer() { if (fd >= 0) ::close(fd); }
};

Hello raw_hello(uint32_t min_version, uint32_t version, uint32_t flags) {
  Geometry g = ServerProcess::small_geometry();
  Hello hello = {};
  hello.magic = kHelloMagic;
  hello.min_version = min_version;
  hello.version = version;
  hello.flags = flags;
  hello.ring_count = g.ring_count;
  hello.ring_size = g.ring_size;
  hello.reply_slot_count = g.reply_slot_count;
  hello.reply_slot_size = g.reply_slot_size;
  hello.push_slot_count = g.push_slot_count;
  hello.fence_count = g.fence_count;
  hello.bulk_size = g.bulk_size;
  if (version >= 4)
    hello.hello_size = sizeof(hello);
  return hello;
}

// `bytes`: how much of the Welcome the guest reads (a version-2 guest knows a shorter one).
// `extra`: bytes a newer guest's longer Hello carries after this build's (hello_size says so).
void raw_handshake(const ServerProcess& server, Hello hello, RawAnswer* answer,
                   size_t bytes = sizeof(Welcome), size_t extra = 0) {
  Socket socket = Socket::connect_unix(server.socket_path().c_str());
  ASSERT_TRUE(socket.valid());
  if (extra)
    hello.hello_size = uint32_t(sizeof(hello) + extra);
  ASSERT_TRUE(socket.send_all(&hello, sizeof(hello)));
  std::vector<uint8_t> tail(extra, 0xEE);
  if (extra) {
    ASSERT_TRUE(socket.send_all(tail.data(), tail.size()));
  }
  answer->answered = socket.recv_with_fd(&answer->welcome, bytes, &answer->fd, 5000);
  answer->welcome.message[sizeof(answer->welcome.message) - 1] = 0;
}

}

TEST(Server, HandshakeNegotiatesVersionsAndFeaturesExplicitly) {
  ServerProcess server;

  // Offers the server does not know (bits 5 and 12) are not granted; what it knows is,
  // and it says so in the Welcome.
  {
    RawAnswer a;
    raw_handshake(server, raw_hello(kMinVersion, kVersion, kHelloFdPassing | kHelloSocketWake | (1u << 5) | (1u << 12)), &a);
    ASSERT_TRUE(a.answered);
    EXPECT_EQ(a.welcome.error, uint32_t(ConnectError::None)) << a.welcome.message;
    EXPECT_EQ(a.welcome.flags, uint32_t(kWelcomeFd | kWelcomeSocketWake));
    EXPECT_EQ(a.welcome.version, kVersion);
    EXPECT_GE(a.fd, 0);
  }
  // Named events are a Windows server's offer (process mode); this one does not grant them.
  {
    RawAnswer a;
    raw_handshake(server, raw_hello(kMinVersion, kVersion, kHelloFdPassing | kHelloSocketWake | kHelloEventWake), &a);
    ASSERT_TRUE(a.answered);
    EXPECT_EQ(a.welcome.flags, uint32_t(kWelcomeFd | kWelcomeSocketWake));
  }
  // A newer guest that also speaks this version gets it; the server reads its longer Hello
  // whole (hello_size) and drops what it does not know.
  {
    RawAnswer a;
    raw_handshake(server, raw_hello(kMinVersion, kVersion + 3, kHelloFdPassing), &a, sizeof(Welcome), 300);
    ASSERT_TRUE(a.answered);
    EXPECT_EQ(a.welcome.error, uint32_t(ConnectError::None)) << a.welcome.message;
    EXPECT_EQ(a.welcome.version, kVersion);
    EXPECT_EQ(a.welcome.flags, uint32_t(kWelcomeFd));
  }
  // A requirement the server does not know: refused, with the bits named.
  {
    RawAnswer a;
    raw_handshake(server, raw_hello(kMinVersion, kVersion, kHelloFdPassing | (1u << 17)), &a);
    ASSERT_TRUE(a.answered);
    EXPECT_EQ(a.welcome.error, uint32_t(ConnectError::UnsupportedFeature));
    EXPECT_NE(std::string(a.welcome.message).find("0x00020000"), std::string::npos) << a.welcome.message;
    EXPECT_LT(a.fd, 0) << "no memory for a refused guest";
  }
  // A version-2 guest reads the version-2 Welcome and finds the reason in it.
  {
    RawAnswer a;
    raw_handshake(server, raw_hello(0, 2, kHelloFdPassing), &a, kWelcomeVersion2Bytes);
    ASSERT_TRUE(a.answered);
    EXPECT_EQ(a.welcome.error, uint32_t(ConnectError::BadVersion));
    EXPECT_NE(std::string(a.welcome.message).find("versions 2..2"), std::string::npos) << a.welcome.message;
  }
  // A version-3 guest (its Hello ends before hello_size) reads why it was refused.
  {
    RawAnswer a;
    Hello v3 = raw_hello(3, 3, kHelloFdPassing);
    Socket socket = Socket::connect_unix(server.socket_path().c_str());
    ASSERT_TRUE(socket.send_all(&v3, kHelloVersion3Bytes));
    ASSERT_TRUE(socket.recv_with_fd(&a.welcome, sizeof(Welcome), &a.fd, 5000));
    EXPECT_EQ(a.welcome.error, uint32_t(ConnectError::BadVersion));
    EXPECT_NE(std::string(a.welcome.message).find("versions 3..3, this server 4..4"), std::string::npos)
        << a.welcome.message;
  }
  // A guest too new for this server.
  {
    RawAnswer a;
    raw_handshake(server, raw_hello(kVersion + 1, kVersion + 2, kHelloFdPassing), &a);
    ASSERT_TRUE(a.answered);
    EXPECT_EQ(a.welcome.error, uint32_t(ConnectError::BadVersion));
  }
  // A Hello whose size is out of bounds: the connection is closed without an answer.
  {
    RawAnswer a;
    Hello bad = raw_hello(kMinVersion, kVersion, kHelloFdPassing);
    bad.hello_size = 8;
    raw_handshake(server, bad, &a);
    EXPECT_FALSE(a.answered);
  }
  std::unique_ptr<GuestConnection> guest;
  ASSERT_EQ(server.connect(&guest), kOk) << "the server stays usable";
  EXPECT_TRUE(echo_ok(*guest, 0, 7));
}

// A guest announces the D3D11 protocol it was generated from; a server that decodes it
// (executor mode) refuses another registry at connect, saying both, instead of ending the
// context at the first opcode it does not know.
// Each context reserves its shared memory (~1 MiB here), the bulk regions it may add (none:
// its bulk is the limit already) and its 100 MiB of resources: three fit in 350 MiB, and
// no fourth, however many guests knock; the three admitted go on; a context that ends
// gives its reservation back.
TEST(Server, TheServerMemoryBoundRefusesAFloodOfContextsAndKeepsTheAdmitted) {
  ServerProcess server({ "--max-memory", "350M", "--max-object-memory", std::to_string(100u << 20),
                         "--max-bulk", "1M", "--worker-memory", "0" });
  std::vector<std::unique_ptr<GuestConnection>> admitted;
  for (int i = 0; i < 3; i++) {
    std::unique_ptr<GuestConnection> guest;
    std::string error;
    ASSERT_EQ(server.connect(&guest, &error), kOk) << "context " << i << ": " << error;
    admitted.push_back(std::move(guest));
  }
  for (int i = 0; i < 20; i++) {
    std::unique_ptr<GuestConnection> guest;
    std::string error;
    EXPECT_EQ(server.connect(&guest, &error), kOutOfMemory) << "flood guest " << i;
    EXPECT_EQ(guest, nullptr);
    EXPECT_NE(error.find("server memory exhausted"), std::string::npos) << error;
    EXPECT_NE(error.find("3 contexts hold"), std::string::npos) << error;
    EXPECT_NE(error.find("--max-memory"), std::string::npos) << error;
  }
  for (size_t i = 0; i < admitted.size(); i++)
    EXPECT_TRUE(echo_ok(*admitted[i], 0, uint32_t(10 + i))) << "admitted context " << i;

  admitted.pop_back();
  std::unique_ptr<GuestConnection> later;
  const uint64_t start = now_ns();
  Status s = kOutOfMemory;
  while (s == kOutOfMemory && ms_since(start) < 5000) {
    s = server.connect(&later);
    if (s == kOutOfMemory)
      npt::transport::sleep_us(20000);
  }
  ASSERT_EQ(s, kOk) << "the ended context's reservation comes back";
  EXPECT_TRUE(echo_ok(*later, 0, 99));
  EXPECT_TRUE(echo_ok(*admitted[0], 0, 100));
}

TEST(Server, RefusesAGuestOfAnotherProtocolRegistryAtConnect) {
  const ProtocolIdentity own = npt::server::executor_protocol();
  ProtocolIdentity other = own;
  other.registry_hash ^= 0x5a5a;
  other.opcode_count += 3;
  ProtocolIdentity other_major = own;
  other_major.major += 1;
  {
    // --dispatch executor (after the helper's diag): the worker may find no backend here,
    // which does not matter for the handshake.
    ServerProcess server({ "--dispatch", "executor" });
    ASSERT_TRUE(server.running());
    for (const ProtocolIdentity& p : { other, other_major }) {
      std::unique_ptr<GuestConnection> guest;
      std::string error;
      EXPECT_EQ(GuestConnection::connect(server.socket_path().c_str(), ServerProcess::small_geometry(), &guest, &error, p),
                kInvalidArg);
      EXPECT_EQ(guest, nullptr);
      EXPECT_NE(error.find("different D3D11 protocols"), std::string::npos) << error;
      char theirs[32], ours[32];
      std::snprintf(theirs, sizeof(theirs), "%016llx (%u opcodes)", (unsigned long long)p.registry_hash, p.opcode_count);
      std::snprintf(ours, sizeof(ours), "%016llx (%u opcodes)", (unsigned long long)own.registry_hash, own.opcode_count);
      EXPECT_NE(error.find(theirs), std::string::npos) << "the guest's registry named: " << error;
      EXPECT_NE(error.find(ours), std::string::npos) << "the server's registry named: " << error;
    }
    // The same registry, and a guest that announces none (transport-only tools), are accepted.
    for (const ProtocolIdentity& p : { own, ProtocolIdentity{} }) {
      std::unique_ptr<GuestConnection> guest;
      std::string error;
      EXPECT_EQ(GuestConnection::connect(server.socket_path().c_str(), ServerProcess::small_geometry(), &guest, &error, p),
                kOk) << error;
    }
  }
  {
    // A server that decodes no D3D11 protocol (diag) does not check it.
    ServerProcess server;
    std::unique_ptr<GuestConnection> guest;
    ASSERT_EQ(GuestConnection::connect(server.socket_path().c_str(), ServerProcess::small_geometry(), &guest, nullptr,
                                       other), kOk);
    EXPECT_TRUE(echo_ok(*guest, 0, 3));
  }
}

TEST(Server, KilledWorkerRemovesOnlyItsContext) {
  ServerProcess server;
  std::vector<std::unique_ptr<GuestConnection>> guests(3);
  for (auto& g : guests)
    ASSERT_EQ(server.connect(&g), kOk);
  for (auto& g : guests)
    ASSERT_TRUE(echo_ok(*g, 0, 7));

  uint64_t start = now_ns();
  ASSERT_EQ(kill(pid_t(guests[1]->worker_pid()), SIGKILL), 0);
  EXPECT_LT(ms_until_removed(*guests[1], start), 100u);
  // The server's status word, not only the socket, says why.
  for (int i = 0; i < 200 && guests[1]->fatal_reason() == 0; i++)
    sleep_us(1000);
  EXPECT_EQ(guests[1]->fatal_reason(), uint32_t(FatalReason::WorkerDied));
  uint32_t cmd = kDiagEcho;
  size_t n;
  EXPECT_EQ(guests[1]->call(0, &cmd, 4, &cmd, 4, &n), kDeviceRemoved);
  EXPECT_EQ(guests[1]->submit(0, &cmd, 4), kDeviceRemoved);

  // A guest can crash its own worker through a command; same result.
  uint32_t abort_cmd = kDiagAbort;
  start = now_ns();
  EXPECT_EQ(guests[2]->call(0, &abort_cmd, 4, &cmd, 4, &n), kDeviceRemoved);
  EXPECT_LT(ms_since(start), 100u);

  ASSERT_TRUE(server.running());
  for (uint32_t i = 0; i < 1000; i++)
    ASSERT_TRUE(echo_ok(*guests[0], i % 2, i)) << "the other context keeps running";
  std::unique_ptr<GuestConnection> fresh;
  ASSERT_EQ(server.connect(&fresh), kOk);
  EXPECT_TRUE(echo_ok(*fresh, 0, 3));
}

// A worker stuck inside one command (a hung backend call) for longer than the watchdog
// is killed and its context removed with WorkerHung; the other context is served meanwhile.
TEST(Server, WatchdogRemovesAHungWorkersContext) {
  ServerProcess server({ "--watchdog-ms", "500" });
  std::unique_ptr<GuestConnection> victim, other;
  ASSERT_EQ(server.connect(&victim), kOk);
  ASSERT_EQ(server.connect(&other), kOk);
  ASSERT_TRUE(echo_ok(*victim, 0, 1));
  const pid_t worker = pid_t(victim->worker_pid());
  std::atomic<Status> result{kOk};
  std::atomic<uint64_t> returned_at{0};
  const uint64_t start = now_ns();
  std::thread caller([&] {
    uint32_t sleep_cmd[2] = { kDiagSleep, 20000 };
    uint32_t reply[4];
    size_t n;
    result = victim->call(0, sleep_cmd, sizeof(sleep_cmd), reply, sizeof(reply), &n);
    returned_at = now_ns();
  });
  for (uint32_t i = 0; i < 50; i++) {
    ASSERT_TRUE(echo_ok(*other, 0, i));
    sleep_us(5000);
  }
  caller.join();
  EXPECT_EQ(result.load(), kDeviceRemoved);
  const uint64_t ms = (returned_at.load() - start) / 1000000;
  std::printf("hung worker (watchdog 500 ms): the blocked call returned after %llu ms\n", (unsigned long long)ms);
  EXPECT_GE(ms, 500u);
  EXPECT_LT(ms, 2000u);
  EXPECT_EQ(victim->fatal_reason(), uint32_t(FatalReason::WorkerHung));
  for (int i = 0; i < 200 && kill(worker, 0) == 0; i++)
    sleep_us(10000);
  EXPECT_NE(kill(worker, 0), 0) << "the hung worker was killed and reaped";
  // An idle worker is not hung: it reports progress while it sleeps.
  sleep_us(1500000);
  EXPECT_TRUE(echo_ok(*other, 0, 1));
  EXPECT_EQ(other->status(), kOk);
}

TEST(Server, MalformedRingStateMakesThatContextFatalServerAlive) {
  ServerProcess server;
  std::unique_ptr<GuestConnection> bad, good;
  ASSERT_EQ(server.connect(&bad), kOk);
  ASSERT_EQ(server.connect(&good), kOk);
  ASSERT_TRUE(echo_ok(*bad, 0, 1));

  // Ring 0's head far beyond anything published, then any doorbell.
  Geometry g = bad->geometry();
  auto* ring0 = reinterpret_cast<RingHeader*>(bad->shared_base() + g.rings_offset());
  store_release(ring0->head, uint64_t(1) << 40);
  uint32_t cmd = kDiagAccum;
  uint64_t start = now_ns();
  bad->submit(1, &cmd, 4);
  EXPECT_LT(ms_until_removed(*bad, start), 100u);
  EXPECT_EQ(bad->fatal_reason(), uint32_t(FatalReason::BadRingHead));
  size_t n;
  EXPECT_EQ(bad->call(1, &cmd, 4, &cmd, 4, &n), kDeviceRemoved);

  ASSERT_TRUE(server.running());
  for (uint32_t i = 0; i < 500; i++)
    ASSERT_TRUE(echo_ok(*good, 0, i));
}

TEST(Server, BulkRegionsAddedAfterConnect) {
  ServerProcess server({ "--max-bulk", std::to_string(16u << 20) });
  std::unique_ptr<GuestConnection> guest, other;
  std::string error;
  ASSERT_EQ(server.connect(&guest, &error), kOk) << error;
  ASSERT_EQ(server.connect(&other, &error), kOk) << error;
  std::vector<std::string> failures = check_bulk_regions(*guest, 16u << 20);
  EXPECT_TRUE(failures.empty()) << joined(failures);
  EXPECT_TRUE(echo_ok(*other, 0, 3));
}

TEST(Server, HostileBulkReferencesEndOnlyTheirContext) {
  ServerProcess server;
  std::unique_ptr<GuestConnection> good, unknown_region, past_region, bad_payload;
  ASSERT_EQ(server.connect(&good), kOk);
  ASSERT_EQ(server.connect(&unknown_region), kOk);
  ASSERT_EQ(server.connect(&past_region), kOk);
  ASSERT_EQ(server.connect(&bad_payload), kOk);
  std::string error;
  ASSERT_EQ(past_region->add_bulk_region(1, 1u << 20, &error), kOk) << error;
  ASSERT_EQ(bad_payload->add_bulk_region(1, 1u << 20, &error), kOk) << error;

  // Out-of-line records naming a region never created, or reaching past an added one.
  BulkRef missing = { 9, 0, 0, 64 };
  write_raw_record(*unknown_region, 0, { make_size_kind(RecordKind::Bulk, sizeof(missing)), 0 }, &missing, sizeof(missing));
  BulkRef past = { 1, 0, 4096, 1u << 20 };
  write_raw_record(*past_region, 0, { make_size_kind(RecordKind::Bulk, sizeof(past)), 0 }, &past, sizeof(past));
  uint32_t doorbell = kDiagAccum;
  uint64_t start = now_ns();
  unknown_region->submit(1, &doorbell, 4);
  past_region->submit(1, &doorbell, 4);
  EXPECT_LT(ms_until_removed(*unknown_region, start), 1000u);
  EXPECT_LT(ms_until_removed(*past_region, start), 1000u);
  EXPECT_EQ(unknown_region->fatal_reason(), uint32_t(FatalReason::BadBulkRef));
  EXPECT_EQ(past_region->fatal_reason(), uint32_t(FatalReason::BadBulkRef));

  // A payload reference inside a command that leaves its region: the dispatcher rejects it.
  uint32_t cmd[6] = { kDiagBulkHash, 1 };
  const uint64_t offset = 4096, size = 1u << 20;
  std::memcpy(&cmd[2], &offset, 8);
  std::memcpy(&cmd[4], &size, 8);
  uint64_t hash = 0;
  size_t n = 0;
  EXPECT_EQ(bad_payload->call(0, cmd, sizeof(cmd), &hash, sizeof(hash), &n), kDeviceRemoved);
  EXPECT_EQ(bad_payload->fatal_reason(), uint32_t(FatalReason::DispatchFailed));

  ASSERT_TRUE(server.running());
  for (uint32_t i = 0; i < 200; i++)
    ASSERT_TRUE(echo_ok(*good, i % 2, i));
  std::unique_ptr<GuestConnection> later;
  ASSERT_EQ(server.connect(&later), kOk) << "new guests connect";
  EXPECT_TRUE(echo_ok(*later, 0, 1));
}

TEST(Server, HostDeathFailsBlockedAndLaterCallsWithin100ms) {
  ServerProcess server;
  std::unique_ptr<GuestConnection> guest, idle;
  ASSERT_EQ(server.connect(&guest), kOk);
  ASSERT_EQ(server.connect(&idle), kOk);
  ASSERT_TRUE(echo_ok(*guest, 0, 1));
  ASSERT_TRUE(echo_ok(*idle, 0, 1));

  // A call the worker is still executing when the whole server dies.
  std::atomic<uint64_t> returned_at{0};
  std::atomic<Status> result{kOk};
  std::thread caller([&] {
    uint32_t sleep_cmd[2] = { kDiagSleep, 5000 };
    uint32_t reply[4];
    size_t n;
    result = guest->call(0, sleep_cmd, sizeof(sleep_cmd), reply, sizeof(reply), &n);
    returned_at = now_ns();
  });
  sleep_us(100000);
  uint64_t killed_at = now_ns();
  server.stop(SIGKILL);
  caller.join();
  EXPECT_EQ(result.load(), kDeviceRemoved);
  EXPECT_LT((returned_at.load() - killed_at) / 1000000, 100u);

  // A guest that was not waiting sees it on its next call, as quickly.
  sleep_us(20000);
  uint64_t start = now_ns();
  uint32_t cmd = kDiagEcho;
  size_t n;
  EXPECT_EQ(idle->call(0, &cmd, 4, &cmd, 4, &n), kDeviceRemoved);
  const uint64_t idle_ns = now_ns() - start;
  EXPECT_LT(idle_ns / 1000000, 100u);
  // The target (host death -> DXGI_ERROR_DEVICE_REMOVED within 100 ms).
  std::printf("host death: the blocked call failed %.1f ms after the kill, an idle guest's next call in %.1f ms\n",
              double(returned_at.load() - killed_at) / 1e6, double(idle_ns) / 1e6);
}

TEST(Server, WorkerExitsWhenItsGuestGoesAway) {
  ServerProcess server;
  std::unique_ptr<GuestConnection> guest, other;
  ASSERT_EQ(server.connect(&guest), kOk);
  ASSERT_EQ(server.connect(&other), kOk);
  ASSERT_TRUE(echo_ok(*guest, 0, 1));
  sleep_us(200000);   // let the worker go idle: it must notice the guest while asleep too
  pid_t worker = pid_t(guest->worker_pid());
  guest.reset();
  uint64_t start = now_ns();
  while (kill(worker, 0) == 0 && ms_since(start) < 2000)
    sleep_us(5000);
  EXPECT_NE(kill(worker, 0), 0) << "the worker of a vanished guest exits";
  EXPECT_LT(ms_since(start), 1000u);
  EXPECT_TRUE(echo_ok(*other, 0, 2));
}

namespace {

bool file_exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

bool make_file(const std::string& path) {
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    return false;
  close(fd);
  return true;
}

// A PE guest's handshake (loopback TCP, the token of the rendezvous file; the native
// server answers with the path of a /dev/shm file), stopped before the guest maps that
// file and confirms it: the server's file of a context that was never confirmed.
struct UnconfirmedGuest {
  Socket socket;
  Welcome welcome = {};
};

bool connect_without_confirming(ServerProcess& server, UnconfirmedGuest* guest) {
  Socket* socket = &guest->socket;
  Welcome* welcome = &guest->welcome;
  FILE* f = std::fopen(server.rendezvous_path().c_str(), "r");
  if (!f)
    return false;
  unsigned port = 0;
  char token[64] = {};
  const int fields = std::fscanf(f, "%u %63s", &port, token);
  std::fclose(f);
  if (fields != 2)
    return false;
  Hello hello = raw_hello(kMinVersion, kVersion, kHelloBulkRegions);
  std::memcpy(hello.token, token, sizeof(token));
  *socket = Socket::connect_tcp_loopback(uint16_t(port));
  return socket->valid() && socket->send_all(&hello, sizeof(hello)) &&
         socket->recv_all(welcome, sizeof(*welcome), 5000) && welcome->error == 0 && (welcome->flags & kWelcomePath);
}

}

// The worker removes a PE guest's /dev/shm files once the guest confirmed its mappings; a
// worker killed before that leaves the context's file and its region files (named
// <context file>-r<id>) behind, which the server removes when it reaps the worker.
TEST(Server, FilesOfAWorkerKilledBeforeItsGuestConfirmedAreRemoved) {
  ServerProcess server;
  UnconfirmedGuest guest;
  ASSERT_TRUE(connect_without_confirming(server, &guest));
  const std::string context_file = guest.welcome.path;
  ASSERT_EQ(context_file.rfind("/dev/shm/neptune-" + std::to_string(server.pid()) + "-", 0), 0u) << context_file;
  ASSERT_TRUE(file_exists(context_file));
  // A region the worker added for this guest (bulk_regions.cpp names it so).
  const std::string region_file = context_file + "-r3";
  ASSERT_TRUE(make_file(region_file));
  // Another context's region is not this one's.
  const std::string other_file = context_file + "0-r3";
  ASSERT_TRUE(make_file(other_file));
  const pid_t worker = pid_t(guest.welcome.worker_pid);
  ASSERT_GT(worker, 0);
  const uint64_t killed_at = now_ns();
  ASSERT_EQ(kill(worker, SIGKILL), 0);
  while ((file_exists(context_file) || file_exists(region_file)) && ms_since(killed_at) < 2000)
    sleep_us(5000);
  EXPECT_FALSE(file_exists(context_file)) << "the unconfirmed context file stays after its worker was killed";
  EXPECT_FALSE(file_exists(region_file)) << "the region file stays after its worker was killed";
  EXPECT_TRUE(file_exists(other_file));
  std::printf("killed worker: its /dev/shm files were gone %llu ms later\n", (unsigned long long)ms_since(killed_at));
  for (const std::string& path : { context_file, region_file, other_file })
    unlink(path.c_str());
  EXPECT_TRUE(server.running());
}

// A server killed outright takes its workers with it (PR_SET_PDEATHSIG) before they remove
// their files: the next server removes the context and region files of servers that no
// longer run, and nothing of a server that runs.
TEST(Server, StartingServerRemovesFilesOfServersThatNoLongerRun) {
  ServerProcess killed;
  UnconfirmedGuest guest;
  ASSERT_TRUE(connect_without_confirming(killed, &guest));
  const std::string dead_context = guest.welcome.path;
  const std::string dead_region = dead_context + "-r1";
  ASSERT_TRUE(make_file(dead_region));
  killed.stop(SIGKILL);
  guest.socket = Socket();
  ASSERT_TRUE(file_exists(dead_context)) << "nothing removed it yet";
  // This process runs: a file in its name is a live server's.
  const std::string live_region = "/dev/shm/neptune-" + std::to_string(getpid()) + "-1-r1";
  ASSERT_TRUE(make_file(live_region));
  // Files younger than a minute may be a live server's in another pid namespace: kept.
  const std::string young_region = dead_context + "-r2";
  ASSERT_TRUE(make_file(young_region));
  for (const std::string& path : { dead_context, dead_region, live_region }) {
    const timeval two_minutes_ago[2] = { { time(nullptr) - 120, 0 }, { time(nullptr) - 120, 0 } };
    ASSERT_EQ(utimes(path.c_str(), two_minutes_ago), 0) << path;
  }

  ServerProcess next;
  ASSERT_TRUE(next.running());
  EXPECT_FALSE(file_exists(dead_context)) << dead_context;
  EXPECT_FALSE(file_exists(dead_region)) << dead_region;
  EXPECT_TRUE(file_exists(live_region));
  EXPECT_TRUE(file_exists(young_region));
  for (const std::string& path : { dead_context, dead_region, live_region, young_region })
    unlink(path.c_str());
}
