// neptune-server.exe under Wine with PE guests: handshake and limits, named mapping,
// malformed ring state, server death. (One thread per context: no crash isolation.)
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <windows.h>

#include "../diagnostic_dispatch.h"
#include "neptune/transport/guest_connection.h"
#include "neptune/transport/wait.h"
#include "win32_server_process.h"

using namespace npt::transport;
using namespace npt::server;

namespace {

bool echo_ok(GuestConnection& guest, uint32_t ring, uint32_t seed) {
  uint32_t cmd[16], reply[16];
  cmd[0] = kDiagEcho;
  for (uint32_t i = 1; i < 16; i++)
    cmd[i] = seed * 31 + i;
  size_t n = 0;
  return guest.call(ring, cmd, sizeof(cmd), reply, sizeof(reply), &n) == kOk && n == sizeof(cmd) &&
         std::memcmp(cmd, reply, n) == 0;
}

}

TEST(Win32Server, EchoBulkAndPushSlotsThroughNamedMapping) {
  Win32ServerProcess server;
  ASSERT_TRUE(server.running());
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  ASSERT_EQ(server.connect(&guest, &error), kOk) << error;
  for (uint32_t i = 0; i < 500; i++)
    ASSERT_TRUE(echo_ok(*guest, i % 2, i));
  std::vector<uint8_t> big(100000, 9);
  uint32_t op = kDiagAccum;
  std::memcpy(big.data(), &op, 4);
  ASSERT_EQ(guest->submit(0, big.data(), big.size()), kOk);
  uint64_t hash = 1469598103934665603ull;
  for (uint8_t b : big)
    hash = (hash ^ b) * 1099511628211ull;
  uint32_t query = kDiagQuery;
  uint64_t result[2] = {};
  size_t n = 0;
  ASSERT_EQ(guest->call(0, &query, 4, result, sizeof(result), &n), kOk);
  EXPECT_EQ(result[0], 1u);
  EXPECT_EQ(result[1], hash);
  uint32_t push[3] = { kDiagPush, 1, 0xFEED };
  ASSERT_EQ(guest->submit(1, push, sizeof(push)), kOk);
  ASSERT_EQ(guest->finish(1), kOk);
  uint32_t value = 0;
  ASSERT_TRUE(guest->read_push_slot(1, &value, sizeof(value), &n, nullptr));
  EXPECT_EQ(value, 0xFEEDu);
}

TEST(Win32Server, LimitsAndMalformedRingKeepServerAlive) {
  Win32ServerProcess server("--max-rings 2");
  ASSERT_TRUE(server.running());
  std::unique_ptr<GuestConnection> refused, bad, good;
  std::string error;
  Geometry g = Win32ServerProcess::geometry();
  g.ring_count = 3;
  EXPECT_EQ(server.connect(&refused, &error, g), kInvalidArg);
  EXPECT_NE(error.find("ring count"), std::string::npos) << error;

  ASSERT_EQ(server.connect(&bad), kOk);
  ASSERT_EQ(server.connect(&good), kOk);
  auto* ring0 = reinterpret_cast<RingHeader*>(bad->shared_base() + bad->geometry().rings_offset());
  store_release(ring0->head, uint64_t(12345));
  uint32_t cmd = kDiagAccum;
  uint64_t start = now_ns();
  bad->submit(1, &cmd, 4);
  while (bad->status() == kOk && now_ns() - start < 2000000000ull)
    Sleep(1);
  EXPECT_EQ(bad->status(), kDeviceRemoved);
  EXPECT_EQ(bad->fatal_reason(), uint32_t(FatalReason::BadRingHead));
  ASSERT_TRUE(server.running());
  for (uint32_t i = 0; i < 200; i++)
    ASSERT_TRUE(echo_ok(*good, 0, i));
}

TEST(Win32Server, ServerDeathFailsCallsWithin100ms) {
  Win32ServerProcess server;
  ASSERT_TRUE(server.running());
  std::unique_ptr<GuestConnection> guest;
  ASSERT_EQ(server.connect(&guest), kOk);
  ASSERT_TRUE(echo_ok(*guest, 0, 1));
  std::atomic<uint64_t> returned_at{0};
  std::atomic<Status> result{kOk};
  std::thread caller([&] {
    uint32_t sleep_cmd[2] = { kDiagSleep, 5000 };
    uint32_t reply[4];
    size_t n;
    result = guest->call(0, sleep_cmd, sizeof(sleep_cmd), reply, sizeof(reply), &n);
    returned_at = now_ns();
  });
  Sleep(100);
  uint64_t killed_at = now_ns();
  server.kill();
  caller.join();
  EXPECT_EQ(result.load(), kDeviceRemoved);
  EXPECT_LT((returned_at.load() - killed_at) / 1000000, 100u);
}
