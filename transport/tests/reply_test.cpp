// SPDX-License-Identifier: MIT
// Synchronous calls (spin and block paths) and host-pushed slots.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

// Reply = the command with every byte incremented, so a stale or foreign reply shows.
class TransformDispatcher final : public Dispatcher {
public:
  uint32_t delay_us = 0;
  bool dispatch(uint32_t, const uint8_t* span, size_t size, Reply* reply) override {
    if (!reply)
      return true;
    if (delay_us)
      sleep_us(delay_us);
    std::vector<uint8_t> out(span, span + size);
    for (auto& b : out)
      b++;
    reply->write(out.data(), out.size());
    reply->set_status(size % 2 ? kFail : kOk);
    return true;
  }
};

void run_calls(GuestConnection& guest, uint32_t ring, uint32_t count, uint32_t seed, std::atomic<uint64_t>* errors) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> cmd(4000), reply(4096);
  for (uint32_t i = 0; i < count; i++) {
    size_t size = 4 + rng() % 3000;
    for (size_t k = 0; k < size; k++)
      cmd[k] = uint8_t(rng());
    size_t n = 0;
    Status s = guest.call(ring, cmd.data(), size, reply.data(), reply.size(), &n);
    bool ok = n == size && s == (size % 2 ? kFail : kOk);
    for (size_t k = 0; ok && k < size; k++)
      ok = reply[k] == uint8_t(cmd[k] + 1);
    if (!ok)
      (*errors)++;
  }
}

}

TEST(Replies, ConcurrentCallsOnSeveralRingsGetTheirOwnReplies) {
  Geometry g;
  g.ring_count = 4;
  g.ring_size = 64 * 1024;
  g.reply_slot_count = 4;
  TransformDispatcher d;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  host.start();
  std::atomic<uint64_t> errors{0};
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 4; r++)
    threads.emplace_back([&, r] { run_calls(guest, r, 5000, r, &errors); });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(errors.load(), 0u);
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
}

TEST(Replies, MoreCallersThanReplySlotsQueueForSlots) {
  Geometry g;
  g.ring_count = 6;
  g.reply_slot_count = 2;   // the pending-reply limit
  TransformDispatcher d;
  d.delay_us = 50;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  host.start();
  std::atomic<uint64_t> errors{0};
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 6; r++)
    threads.emplace_back([&, r] { run_calls(guest, r, 200, 100 + r, &errors); });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(errors.load(), 0u);
}

TEST(Replies, BlockingPathWakesOnReplyAndIdleHostWakesOnDoorbell) {
  Geometry g;
  TransformDispatcher d;
  d.delay_us = 2000;   // longer than the guest spins: it must block and be woken
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  GuestOptions options;
  options.spin_us = 1;
  guest.set_options(options);
  host.start(1);
  std::atomic<uint64_t> errors{0};
  for (int i = 0; i < 20; i++) {
    // Let the host announce idle; a fixed sleep is not enough on a loaded machine, where the
    // host thread may not run for milliseconds.
    for (int waited = 0; load_acquire(host.control()->host_state) != kHostIdle && waited < 5000; waited++)
      sleep_us(1000);
    ASSERT_EQ(load_acquire(host.control()->host_state), uint32_t(kHostIdle)) << "the host never went idle";
    auto bells = host.doorbells();
    uint64_t start = now_ns();
    run_calls(guest, 0, 1, uint32_t(i), &errors);
    uint64_t elapsed_us = (now_ns() - start) / 1000;
    EXPECT_GT(host.doorbells(), bells) << "an idle host is woken by the doorbell";
    EXPECT_LT(elapsed_us, 50000u) << "a blocked guest is woken by the reply, not by its timeout";
  }
  EXPECT_EQ(errors.load(), 0u);
}

TEST(Replies, ReplyLargerThanCallerBufferIsInvalidArg) {
  Geometry g;
  TransformDispatcher d;
  InProcessHost host(g, &d);
  host.start();
  uint8_t cmd[64] = {}, reply[16];
  size_t n = 0;
  EXPECT_EQ(host.guest().call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n), kInvalidArg);
  EXPECT_EQ(host.guest().status(), kOk);
}

TEST(PushSlots, GuestReadsAreConsistentAndMonotonic) {
  Geometry g;
  g.push_slot_count = 8;
  g.fence_count = 4;
  TransformDispatcher d;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  std::atomic<bool> done{false};
  std::atomic<uint64_t> errors{0}, reads{0};
  std::thread reader([&] {
    uint64_t last[8] = {};
    uint64_t last_fence = 0;
    while (!done) {
      for (uint32_t s = 0; s < 8; s++) {
        uint64_t words[14];
        size_t n = 0;
        uint32_t version = 0;
        if (!guest.read_push_slot(s, words, sizeof(words), &n, &version)) {
          errors++;
          continue;
        }
        if (n == 0)
          continue;
        bool torn = n != sizeof(words);
        for (auto w : words)
          torn |= w != words[0];
        if (torn || words[0] < last[s])
          errors++;
        last[s] = words[0];
        reads++;
      }
      uint64_t f = guest.fence_value(1);
      if (f < last_fence)
        errors++;
      last_fence = f;
    }
  });
  // Keep writing until the reader has raced with the writer many times.
  uint64_t v = 0;
  while (++v < 200000 || (reads.load() < 20000 && v < 100000000)) {
    uint64_t words[14];
    for (auto& w : words)
      w = v;
    host.host().push_slot(uint32_t(v % 8), words, sizeof(words));
    host.host().signal_fence(1, v);
  }
  done = true;
  reader.join();
  EXPECT_EQ(errors.load(), 0u);
  EXPECT_GT(reads.load(), 1000u);
  uint64_t words[14];
  size_t n;
  ASSERT_TRUE(guest.read_push_slot(0, words, sizeof(words), &n, nullptr));
  EXPECT_EQ(words[0], (v - 1) / 8 * 8);
  EXPECT_EQ(guest.fence_value(1), v - 1);
  EXPECT_EQ(guest.fence_value(99), 0u);
}
