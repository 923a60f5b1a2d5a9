// SPDX-License-Identifier: MIT
// A guest waiting for the host's progress on its ring (space in a full ring, finish(),
// its bulk memory coming back) sleeps with the ring's progress_waiting flag set, and the
// host's next publication of tail/executed wakes it (layout.h, RingHeader::progress).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

// Ignores the guest's sleep slice: block() returns only once the word changed (or after
// 5 s), so a guest sleeping in it resumes early only when the host woke it.
class WakeOnlyChannel final : public GuestChannel {
public:
  void doorbell(uint32_t*) override {}
  bool block(const uint32_t* word, uint32_t expected, uint32_t) override {
    const uint64_t deadline = now_ns() + 5'000'000'000ull;
    while (load_acquire(*word) == expected && now_ns() < deadline)
      address_wait(word, expected, 100000);
    if (load_acquire(*word) == expected)
      timeouts++;
    else
      wakes++;
    last_return_ns = now_ns();
    return true;
  }
  std::atomic<uint32_t> wakes{0};
  std::atomic<uint32_t> timeouts{0};
  std::atomic<uint64_t> last_return_ns{0};
};

class CheckingDispatcher final : public Dispatcher {
public:
  bool dispatch(uint32_t, const uint8_t* span, size_t size, Reply*) override {
    if (!check_pattern(span, size, next))
      bad++;
    next++;
    return true;
  }
  uint64_t next = 0;
  uint64_t bad = 0;
};

struct Fixture {
  explicit Fixture(uint32_t ring_size) : host(geometry(ring_size), &dispatcher) {
    auto c = std::make_unique<WakeOnlyChannel>();
    channel = c.get();
    EXPECT_EQ(GuestConnection::attach(host.memory(), size_t(geometry(ring_size).total_size()), std::move(c), &guest),
              kOk);
  }
  static Geometry geometry(uint32_t ring_size) {
    Geometry g;
    g.ring_size = ring_size;
    g.bulk_size = 64 * 1024;
    return g;
  }
  // Whether the guest set its flag within 5 s (or `finished` came true first).
  bool guest_waits(const std::function<bool()>& finished = [] { return false; }) {
    // A wall-clock bound: a short sleep may return at once (Windows builds under Wine),
    // so counting sleeps bounds nothing on a loaded machine.
    const uint64_t deadline = now_ns() + 10'000'000'000ull;
    while (now_ns() < deadline) {
      if (load_acquire(host.ring_header(0)->progress_waiting))
        return true;
      if (finished())
        return false;
      sleep_us(100);
    }
    return false;
  }
  CheckingDispatcher dispatcher;
  InProcessHost host;   // its thread is not started: the test drives process()
  WakeOnlyChannel* channel = nullptr;
  std::unique_ptr<GuestConnection> guest;
};

}

TEST(ProgressWake, FullRingWriterIsWokenWhenTheHostFreesSpace) {
  Fixture f(4096);
  constexpr uint32_t kCommands = 200, kSize = 200;   // about 19 fit in the ring
  std::atomic<uint32_t> submitted{0};
  std::atomic<uint32_t> failures{0};
  std::thread writer([&] {
    std::vector<uint8_t> cmd(kSize);
    for (uint32_t i = 0; i < kCommands; i++) {
      fill_pattern(cmd.data(), kSize, i);
      if (f.guest->submit(0, cmd.data(), kSize) != kOk)
        failures++;
      submitted++;
    }
  });
  uint32_t rounds = 0;
  uint64_t worst_us = 0;
  auto all_submitted = [&] { return submitted.load() == kCommands; };
  while (!all_submitted()) {
    if (!f.guest_waits(all_submitted) && all_submitted())
      break;
    ASSERT_EQ(load_acquire(f.host.ring_header(0)->progress_waiting), 1u)
        << "the writer of a full ring sleeps with its flag set (after " << submitted.load() << " commands)";
    const uint32_t before = submitted.load();
    const uint64_t start = now_ns();
    ASSERT_GT(f.host.host().process(1u << 20), 0u);
    // The writer resumes at the host's publication, not at the end of a sleep slice
    // (which this channel stretches to 5 s).
    while (submitted.load() == before && now_ns() - start < 6'000'000'000ull)
      sleep_us(50);
    ASSERT_GT(submitted.load(), before) << "the writer resumed";
    const uint64_t woke = f.channel->last_return_ns.load();
    worst_us = std::max(worst_us, woke > start ? (woke - start) / 1000 : 0);
    rounds++;
  }
  writer.join();
  f.host.host().process(1u << 20);
  EXPECT_EQ(failures.load(), 0u);
  EXPECT_EQ(f.dispatcher.next, kCommands) << "every command executed once, in order";
  EXPECT_EQ(f.dispatcher.bad, 0u);
  EXPECT_GE(rounds, 5u) << "the ring was full several times";
  EXPECT_EQ(f.channel->timeouts.load(), 0u) << "every sleep ended by the host's wake";
  EXPECT_GE(f.channel->wakes.load(), rounds);
  EXPECT_LT(worst_us, 1'000'000u) << "woken promptly (a missed wake shows as 5 s)";
  EXPECT_EQ(load_acquire(f.host.ring_header(0)->progress_waiting), 0u) << "the flag is cleared after waking";
  std::printf("[ progress ] %u full-ring waits, each ended by the host's wake; worst %llu us from process() to the "
              "writer's resumption\n", rounds, (unsigned long long)worst_us);
}

TEST(ProgressWake, FinishIsWokenWhenItsRecordsExecute) {
  Fixture f(64 * 1024);
  std::vector<uint8_t> cmd(64);
  for (uint32_t i = 0; i < 3; i++) {
    fill_pattern(cmd.data(), cmd.size(), i);
    ASSERT_EQ(f.guest->submit(0, cmd.data(), cmd.size()), kOk);
  }
  std::atomic<bool> done{false};
  Status finished = kFail;
  std::thread waiter([&] {
    finished = f.guest->finish(0);
    done = true;
  });
  if (!f.guest_waits()) {
    f.host.host().process(100);   // lets finish() return, so the thread can be joined
    waiter.join();
    FAIL() << "finish() sleeps with the ring's flag set (it had returned: " << done.load() << ")";
  }
  EXPECT_FALSE(done.load());
  const uint64_t start = now_ns();
  EXPECT_EQ(f.host.host().process(100), 3u);
  waiter.join();
  EXPECT_EQ(finished, kOk);
  EXPECT_LT((now_ns() - start) / 1000, 1'000'000u);
  EXPECT_EQ(f.channel->timeouts.load(), 0u);
  EXPECT_EQ(f.dispatcher.next, 3u);
}

TEST(ProgressWake, AFatalContextWakesAWaitingWriter) {
  Fixture f(4096);
  std::atomic<bool> done{false};
  Status last = kOk;
  std::thread writer([&] {
    std::vector<uint8_t> cmd(200);
    for (uint32_t i = 0; i < 100 && last == kOk; i++)
      last = f.guest->submit(0, cmd.data(), cmd.size());
    done = true;
  });
  ASSERT_TRUE(f.guest_waits());
  const uint64_t start = now_ns();
  f.host.host().make_fatal(FatalReason::DispatchFailed);
  writer.join();
  EXPECT_EQ(last, kDeviceRemoved);
  EXPECT_LT((now_ns() - start) / 1000, 1'000'000u) << "removal ends the wait at once";
  EXPECT_EQ(f.channel->timeouts.load(), 0u);
}

TEST(ProgressWake, HostWithoutAWaitingGuestDoesNotWake) {
  Fixture f(64 * 1024);
  std::vector<uint8_t> cmd(64);
  for (uint32_t i = 0; i < 10; i++) {
    fill_pattern(cmd.data(), cmd.size(), i);
    ASSERT_EQ(f.guest->submit(0, cmd.data(), cmd.size()), kOk);
  }
  const uint32_t progress = load_acquire(f.host.ring_header(0)->progress);
  EXPECT_EQ(f.host.host().process(100), 10u);
  EXPECT_EQ(load_acquire(f.host.ring_header(0)->progress), progress)
      << "a publication nobody waits for costs no wake";
  EXPECT_EQ(f.guest->finish(0), kOk);
}
