// SPDX-License-Identifier: MIT
// transport_pe_guest.exe: the guest library in a PE process, against a running
// neptune-server (--dispatch diag). Usage: transport_pe_guest.exe RENDEZVOUS [--bench N]
// Prints PASS when every check holds (exit 0), or what failed (exit 1).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../diagnostic_dispatch.h"
#include "bulk_region_checks.h"
#include "neptune/transport/guest_connection.h"
#include "neptune/transport/wait.h"

using namespace npt::transport;
using namespace npt::server;

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { std::printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static double round_trip_us(GuestConnection& guest, uint32_t spin_us, int count) {
  GuestOptions o;
  o.spin_us = spin_us;
  guest.set_options(o);
  uint32_t cmd[4] = { kDiagEcho, 1, 2, 3 }, reply[4];
  size_t n;
  for (int i = 0; i < count / 10 + 1; i++)
    guest.call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n);
  uint64_t start = now_ns();
  for (int i = 0; i < count; i++)
    if (guest.call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n) != kOk)
      return -1;
  return double(now_ns() - start) / 1000.0 / count;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s RENDEZVOUS [--bench N]\n", argv[0]);
    return 2;
  }
  Geometry g;
  g.ring_count = 2;
  g.ring_size = 64 * 1024;
  g.bulk_size = 1 << 20;
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  Status s = GuestConnection::connect(argv[1], g, &guest, &error);
  if (s != kOk) {
    std::printf("FAIL connect: 0x%08x %s\n", unsigned(s), error.c_str());
    return 1;
  }

  if (argc >= 4 && !std::strcmp(argv[2], "--bench")) {
    int count = std::atoi(argv[3]);
    double spin = round_trip_us(*guest, 200, count);
    double block = round_trip_us(*guest, 0, count / 10 + 1);
    std::printf("pe-guest round trip (%s wakeups): guest spins %.2f us (%d calls), guest blocks %.2f us (%d calls)\n",
                address_wait_is_cross_process() ? "futex" : "socket", spin, count, block, count / 10 + 1);
    return 0;
  }

  std::mt19937 rng(42);
  for (int i = 0; i < 2000; i++) {
    uint32_t cmd[64], reply[64];
    size_t words = 1 + rng() % 63;
    cmd[0] = kDiagEcho;
    for (size_t k = 1; k < words; k++)
      cmd[k] = rng();
    size_t n = 0;
    Status r = guest->call(uint32_t(i % 2), cmd, words * 4, reply, sizeof(reply), &n);
    if (r != kOk || n != words * 4 || std::memcmp(cmd, reply, n) != 0) {
      CHECK(!"echo");
      break;
    }
  }

  // Out-of-line commands through bulk memory, checked by the worker's running hash.
  std::vector<uint8_t> big(150000);
  uint64_t hash = 1469598103934665603ull;
  uint32_t op = kDiagAccum;
  for (int k = 0; k < 3; k++) {
    for (size_t i = 0; i < big.size(); i++)
      big[i] = uint8_t(i * 13 + k);
    std::memcpy(big.data(), &op, 4);
    CHECK(guest->submit(0, big.data(), big.size()) == kOk);
    for (uint8_t b : big)
      hash = (hash ^ b) * 1099511628211ull;
  }
  uint32_t query = kDiagQuery;
  uint64_t result[2] = {};
  size_t n = 0;
  CHECK(guest->call(0, &query, 4, result, sizeof(result), &n) == kOk);
  CHECK(result[0] == 3 && result[1] == hash);

  uint32_t push[4] = { kDiagPush, 5, 0xAAAA, 0xBBBB };
  uint32_t fence[4] = { kDiagFence, 1, 77, 0 };
  CHECK(guest->submit(1, push, sizeof(push)) == kOk);
  CHECK(guest->submit(1, fence, sizeof(fence)) == kOk);
  CHECK(guest->finish(1) == kOk);
  uint32_t slot[2] = {};
  CHECK(guest->read_push_slot(5, slot, sizeof(slot), &n, nullptr) && n == 8 && slot[1] == 0xBBBB);
  CHECK(guest->fence_value(1) == 77);

  // Blocking path: the worker sleeps longer than we spin; its wake byte ends our wait.
  GuestOptions o;
  o.spin_us = 10;
  guest->set_options(o);
  uint32_t sleep_cmd[2] = { kDiagSleep, 30 };
  uint64_t start = now_ns();
  CHECK(guest->call(0, sleep_cmd, sizeof(sleep_cmd), slot, sizeof(slot), &n) == kOk);
  uint64_t ms = (now_ns() - start) / 1000000;
  CHECK(ms >= 29 && ms < 1000);

  // Bulk regions after connect: the native server's /dev/shm files through Z:. The limit
  // is the server's default --max-bulk (1 GiB).
  for (const std::string& f : npt::server::testing::check_bulk_regions(*guest, 1ull << 30))
    std::printf("FAIL bulk regions: %s\n", f.c_str()), failures++;
  std::printf("bulk regions: %u in the guest's allocator\n", guest->bulk().region_count());

  std::printf("wakeups: %s\n", address_wait_is_cross_process() ? "futex (Wine on Linux)" : "socket");
  std::printf("round trip: spin %.2f us, block %.2f us\n", round_trip_us(*guest, 200, 2000), round_trip_us(*guest, 0, 200));
  if (failures)
    return 1;
  std::printf("PASS\n");
  return 0;
}
