// SPDX-License-Identifier: MIT
// Several rings with explicit ordering: "wait until ring R executed sequence S".
#include <gtest/gtest.h>

#include <array>
#include <mutex>
#include <random>
#include <vector>

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

constexpr uint32_t kRings = 4;

// Each command says which ring produced it, its index there, and the latest ordering
// constraint its producer issued: "ring T had issued C commands before my wait".
struct OrderedCommand {
  uint32_t word0;
  uint32_t ring;
  uint64_t index;
  uint32_t wait_target;
  uint32_t has_wait;
  uint64_t wait_count;
};

class OrderChecker final : public Dispatcher {
public:
  bool dispatch(uint32_t ring, const uint8_t* span, size_t size, Reply*) override {
    OrderedCommand c;
    if (size != sizeof(c))
      return false;
    std::memcpy(&c, span, sizeof(c));
    if (c.ring != ring || c.index != executed[ring])
      errors++;
    if (c.has_wait && executed[c.wait_target] < c.wait_count)
      errors++;
    if (c.has_wait)
      checked_waits++;
    executed[ring]++;
    return true;
  }
  std::array<uint64_t, kRings> executed = {};
  uint64_t errors = 0;
  uint64_t checked_waits = 0;
};

}

TEST(MultiRing, WaitRecordsOrderRingsAgainstEachOther) {
  Geometry g;
  g.ring_count = kRings;
  g.ring_size = 16 * 1024;
  OrderChecker checker;
  InProcessHost host(g, &checker);
  GuestConnection& guest = host.guest();
  host.start();

  // What each producer has published: its transport sequence and its command count,
  // updated together so that a consumer of the pair sees a consistent snapshot.
  struct Published { std::mutex m; uint64_t seq = 0; uint64_t commands = 0; };
  std::array<Published, kRings> published;
  const uint64_t per_ring = 200000;

  std::vector<std::thread> producers;
  for (uint32_t r = 0; r < kRings; r++) {
    producers.emplace_back([&, r] {
      std::mt19937 rng(r + 1);
      OrderedCommand c = {};
      c.word0 = 0xC0DE;
      c.ring = r;
      for (uint64_t i = 0; i < per_ring; i++) {
        if (rng() % 64 == 0) {
          uint32_t target = (r + 1 + rng() % (kRings - 1)) % kRings;
          uint64_t seq, commands;
          {
            std::lock_guard lock(published[target].m);
            seq = published[target].seq;
            commands = published[target].commands;
          }
          if (guest.wait_for(r, target, seq) != kOk)
            return;
          c.has_wait = 1;
          c.wait_target = target;
          c.wait_count = commands;
        }
        c.index = i;
        if (guest.submit(r, &c, sizeof(c)) != kOk)
          return;
        std::lock_guard lock(published[r].m);
        published[r].seq = guest.submitted(r);
        published[r].commands = i + 1;
      }
    });
  }
  for (auto& t : producers)
    t.join();
  for (uint32_t r = 0; r < kRings; r++)
    ASSERT_EQ(guest.finish(r), kOk);
  host.stop();

  EXPECT_EQ(checker.errors, 0u);
  EXPECT_GT(checker.checked_waits, 10000u);
  for (uint32_t r = 0; r < kRings; r++)
    EXPECT_EQ(checker.executed[r], per_ring);
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
}

namespace {
class CountingDispatcher final : public Dispatcher {
public:
  bool dispatch(uint32_t ring, const uint8_t*, size_t, Reply* reply) override {
    order.push_back(ring);
    if (reply)
      reply->write(&ring, sizeof(ring));
    return true;
  }
  std::vector<uint32_t> order;
};
}

TEST(MultiRing, WaitHoldsRingUntilTargetCatchesUp) {
  Geometry g;
  g.ring_count = 2;
  g.ring_size = 4096;
  CountingDispatcher d;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  uint32_t cmd = 1;
  // Ring 1 waits for ring 0's second command, which is not published yet.
  ASSERT_EQ(guest.wait_for(1, 0, 2), kOk);
  ASSERT_EQ(guest.submit(1, &cmd, 4), kOk);
  ASSERT_EQ(guest.submit(0, &cmd, 4), kOk);
  host.host().process();
  EXPECT_EQ(d.order, (std::vector<uint32_t>{0}));
  EXPECT_EQ(host.host().fatal(), FatalReason::None) << "waiting for unpublished work is not a deadlock";
  ASSERT_EQ(guest.submit(0, &cmd, 4), kOk);
  host.host().process();
  EXPECT_EQ(d.order, (std::vector<uint32_t>{0, 0, 1}));
}

TEST(MultiRing, WaitCycleIsFatal) {
  Geometry g;
  g.ring_count = 3;
  g.ring_size = 4096;
  CountingDispatcher d;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  uint32_t cmd = 1;
  ASSERT_EQ(guest.submit(2, &cmd, 4), kOk);
  ASSERT_EQ(guest.wait_for(0, 1, 1), kOk);
  ASSERT_EQ(guest.wait_for(1, 2, 2), kOk);   // ring 2 reaches 2 only after ring 2's wait below
  ASSERT_EQ(guest.wait_for(2, 0, 2), kOk);
  ASSERT_EQ(guest.submit(0, &cmd, 4), kOk);
  host.host().process();
  EXPECT_EQ(host.host().fatal(), FatalReason::WaitCycle);
  EXPECT_EQ(guest.status(), kDeviceRemoved);
  EXPECT_EQ(guest.submit(0, &cmd, 4), kDeviceRemoved);
}

TEST(MultiRing, WaitOnItselfOrMissingRingIsFatal) {
  for (uint32_t target : { 0u, 5u }) {
    Geometry g;
    g.ring_count = 2;
    g.ring_size = 4096;
    CountingDispatcher d;
    InProcessHost host(g, &d);
    // The guest library refuses these; a hostile guest writes the record itself.
    RingHeader* h = host.ring_header(0);
    uint8_t* data = host.ring_data(0);
    RecordHeader rec = { make_size_kind(RecordKind::Wait, 8), target };
    uint64_t seq = 1;
    std::memcpy(data, &rec, 8);
    std::memcpy(data + 8, &seq, 8);
    store_release(h->head, uint64_t(16));
    host.host().process();
    EXPECT_EQ(host.host().fatal(), FatalReason::BadWaitTarget) << "target " << target;
  }
}

namespace {
class ReentrantDispatcher final : public Dispatcher {
public:
  HostContext* host = nullptr;
  int calls = 0;
  bool dispatch(uint32_t, const uint8_t*, size_t, Reply*) override {
    calls++;
    host->process();
    return true;
  }
};
}

TEST(MultiRing, ReentrantProcessingIsFatal) {
  Geometry g;
  g.ring_size = 4096;
  ReentrantDispatcher d;
  InProcessHost host(g, &d);
  d.host = &host.host();
  uint32_t cmd = 1;
  ASSERT_EQ(host.guest().submit(0, &cmd, 4), kOk);
  ASSERT_EQ(host.guest().submit(0, &cmd, 4), kOk);
  host.host().process();
  EXPECT_EQ(host.host().fatal(), FatalReason::Reentrancy);
  EXPECT_EQ(d.calls, 1) << "nothing runs after the context turned fatal";
}
