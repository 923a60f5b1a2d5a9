// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>

// Per-device counters of what reached the wire ("statistics per device").
// Read by tests through INptDevice::GetStatistics and logged at NPT_LOG=info when
// a device is destroyed. Commands and bytes count encoded commands (SelectObject
// included); sync round trips count every call that waited for the host.
namespace npt::guest {

struct StatisticsSnapshot {
  uint64_t commands = 0;
  uint64_t bytes = 0;
  uint64_t syncRoundTrips = 0;
  uint64_t bulkBytes = 0;
  uint64_t rings = 0;        // bit r: ring r carried commands of this device
};

struct Statistics {
  std::atomic<uint64_t> commands{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> syncRoundTrips{0};
  std::atomic<uint64_t> bulkBytes{0};
  std::atomic<uint64_t> rings{0};

  StatisticsSnapshot snapshot() const {
    StatisticsSnapshot s;
    s.commands = commands.load(std::memory_order_relaxed);
    s.bytes = bytes.load(std::memory_order_relaxed);
    s.syncRoundTrips = syncRoundTrips.load(std::memory_order_relaxed);
    s.bulkBytes = bulkBytes.load(std::memory_order_relaxed);
    s.rings = rings.load(std::memory_order_relaxed);
    return s;
  }
};

}
