// SPDX-License-Identifier: MIT
// Inside the test VM: connects to the shared-memory device (found by its PCI id, as a guest
// runtime with NPT_TRANSPORT=ivshmem does) and makes echo calls to a server running the
// diagnostic dispatch, each after a stretch of quiet, so that every call finds the worker
// idle. Prints how the guest wakes the host and each call's time.
//
//   device_echo [--calls N] [--quiet-ms MS] [--expect-wake poll|doorbell]
//
// Exit 0 when every call came back with its own words (and the wake mode is the expected one).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "../../host/server/diagnostic_dispatch.h"
#include "neptune/transport/guest_connection.h"
#include "neptune/transport/wait.h"

using namespace npt::transport;

int main(int argc, char** argv) {
  int calls = 10;
  int quiet_ms = 50;
  const char* expect_wake = nullptr;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--calls" && i + 1 < argc)
      calls = std::atoi(argv[++i]);
    else if (a == "--quiet-ms" && i + 1 < argc)
      quiet_ms = std::atoi(argv[++i]);
    else if (a == "--expect-wake" && i + 1 < argc)
      expect_wake = argv[++i];
    else {
      std::fprintf(stderr, "usage: device_echo [--calls N] [--quiet-ms MS] [--expect-wake poll|doorbell]\n");
      return 2;
    }
  }
  const std::string device = GuestConnection::find_ivshmem_device();
  if (device.empty()) {
    std::fprintf(stderr, "device_echo: no ivshmem device (PCI 1af4:1110)\n");
    return 1;
  }
  Geometry geometry;
  geometry.ring_count = 1;
  geometry.ring_size = 64 * 1024;
  geometry.bulk_size = 1 << 20;
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  if (GuestConnection::connect_device(device.c_str(), geometry, &guest, &error) != kOk) {
    std::fprintf(stderr, "device_echo: %s: %s\n", device.c_str(), error.c_str());
    return 1;
  }
  std::printf("device_echo: %s, wake mode %s\n", device.c_str(), guest->wake_mode());
  int failures = 0;
  for (int i = 0; i < calls; i++) {
    sleep_us(uint32_t(quiet_ms) * 1000);
    uint32_t cmd[4] = { npt::server::kDiagEcho, uint32_t(i), 0x5EED, ~uint32_t(i) }, reply[4] = {};
    size_t n = 0;
    const uint64_t start = now_ns();
    const Status s = guest->call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n);
    const double ms = double(now_ns() - start) / 1e6;
    const bool ok = s == kOk && n == sizeof(cmd) && std::memcmp(cmd, reply, sizeof(cmd)) == 0;
    failures += !ok;
    std::printf("call %d after %d ms quiet: %.2f ms%s\n", i, quiet_ms, ms, ok ? "" : " (wrong answer)");
  }
  if (expect_wake && std::strcmp(expect_wake, guest->wake_mode()) != 0) {
    std::fprintf(stderr, "device_echo: wake mode %s, expected %s\n", guest->wake_mode(), expect_wake);
    return 1;
  }
  return failures ? 1 : 0;
}
