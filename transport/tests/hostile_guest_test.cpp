// SPDX-License-Identifier: MIT
// A hostile guest writes random bytes into its rings, heads and bulk references. The
// host must never crash, hang or read outside the shared memory; it either executes
// well-formed records or turns the context fatal. (Run under ASan to check the reads.)
#include <gtest/gtest.h>

#include <random>

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

class SizeCheckingDispatcher final : public Dispatcher {
public:
  uint64_t commands = 0;
  uint64_t bad_sizes = 0;
  uint64_t max_size = 0;
  bool dispatch(uint32_t, const uint8_t* span, size_t size, Reply* reply) override {
    commands++;
    if (size > max_size)
      bad_sizes++;
    // Touch every byte: under ASan a span outside the copy would be reported.
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < size; i++)
      sum = uint8_t(sum + span[i]);
    if (reply) {
      uint8_t big[512] = {};
      reply->write(big, size % 2 ? 16 : sizeof(big));
    }
    return true;
  }
};

}

TEST(HostileGuest, RandomRingContentsNeverEscapeTheContext) {
  std::mt19937_64 rng(1234);
  uint64_t fatal = 0, executed = 0;
  for (int round = 0; round < 3000; round++) {
    Geometry g;
    g.ring_count = 1 + uint32_t(rng() % 3);
    g.ring_size = 4096;
    g.reply_slot_count = 1 + uint32_t(rng() % 4);
    g.reply_slot_size = 256;
    g.bulk_size = 16384;
    SizeCheckingDispatcher d;
    d.max_size = std::max<uint64_t>(g.ring_size / 2, g.bulk_size);
    HostLimits limits;
    limits.max_command_size = g.bulk_size;
    InProcessHost host(g, &d, limits);

    for (uint32_t r = 0; r < g.ring_count; r++) {
      uint8_t* data = host.ring_data(r);
      // A well-formed stream of every kind, then a few random mutations of its bytes.
      uint64_t at = 0;
      while (true) {
        uint32_t kind = 1 + uint32_t(rng() % 3);
        uint32_t size = kind == uint32_t(RecordKind::Data) ? uint32_t(rng() % 16 ? rng() % 200 : rng() % (g.ring_size - 8))
                      : kind == uint32_t(RecordKind::Bulk) ? uint32_t(sizeof(BulkRef)) : 8u;
        uint64_t total = align8(8 + size);
        if (at + total > g.ring_size)
          break;
        uint32_t aux = kind == uint32_t(RecordKind::Wait) ? uint32_t(rng() % g.ring_count)
                                                          : uint32_t(rng() % (g.reply_slot_count + 1));
        RecordHeader h = { make_size_kind(RecordKind(kind), size), aux };
        std::memcpy(data + at, &h, sizeof(h));
        if (kind == uint32_t(RecordKind::Bulk)) {
          BulkRef ref = { 0, 0, rng() % 8192, rng() % 8192 };
          std::memcpy(data + at + 8, &ref, sizeof(ref));
        } else if (kind == uint32_t(RecordKind::Wait)) {
          uint64_t seq = rng() % 3;
          std::memcpy(data + at + 8, &seq, 8);
        } else {
          for (uint32_t k = 0; k < size; k++)
            data[at + 8 + k] = uint8_t(rng());
        }
        at += total;
      }
      for (uint64_t m = rng() % 4; m > 0; m--) {
        uint64_t word = rng();
        std::memcpy(data + (rng() % (at / 8 + 1)) * 8 % g.ring_size, &word, rng() % 2 ? 4 : 8);
      }
      uint64_t head = rng() % 4 ? at : (rng() % 3 == 0 ? rng() : rng() % (g.ring_size + 64));
      store_release(host.ring_header(r)->head, head);
    }
    for (int i = 0; i < 4 && host.host().fatal() == FatalReason::None; i++)
      executed += host.host().process(1000);
    if (host.host().fatal() != FatalReason::None) {
      fatal++;
      EXPECT_EQ(load_acquire(host.control()->device_state), uint32_t(kDeviceRemovedState));
    }
    EXPECT_EQ(d.bad_sizes, 0u);
  }
  // The generator must reach both outcomes, or it tests nothing.
  EXPECT_GT(fatal, 1000u);
  EXPECT_GT(executed, 1000u);
}
