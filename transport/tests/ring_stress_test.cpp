// SPDX-License-Identifier: MIT
// Tens of millions of commands through one ring: random sizes, wrap-around at every
// offset, out-of-line commands larger than the ring; every byte is checked on the host.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

struct SizeSource {
  std::mt19937_64 rng;
  explicit SizeSource(uint64_t seed) : rng(seed) {}
  // Mostly draw-call sized, some state blocks, a few uploads, rare large ones.
  size_t next(size_t bulk_min) {
    uint64_t r = rng();
    uint32_t bucket = uint32_t(r % 100000);
    uint64_t v = r >> 20;
    if (bucket < 97000) return 16 + v % 49;
    if (bucket < 99900) return 64 + v % 961;
    if (bucket < 99990) return 1024 + v % 29000;
    return bulk_min + v % 70000;
  }
};

class CheckingDispatcher final : public Dispatcher {
public:
  explicit CheckingDispatcher(uint64_t seed, size_t bulk_min) : m_sizes(seed), m_bulk_min(bulk_min) {}
  bool dispatch(uint32_t, const uint8_t* span, size_t size, Reply*) override {
    size_t expected = m_sizes.next(m_bulk_min);
    uint64_t seq = 0;
    uint32_t word0 = 0;
    if (size >= 16) {
      std::memcpy(&word0, span, 4);
      std::memcpy(&seq, span + 8, 8);
    }
    if (size != expected || word0 != uint32_t(size) || seq != count ||
        !check_pattern(span + 16, size - 16, seq))
      errors++;
    if (size > ring_inline_max)
      out_of_line++;
    count++;
    return true;
  }
  SizeSource m_sizes;
  size_t m_bulk_min;
  size_t ring_inline_max = 0;
  uint64_t count = 0;
  uint64_t errors = 0;
  uint64_t out_of_line = 0;
};

}

TEST(RingStress, TwentyMillionRandomCommandsEveryByteChecked) {
  Geometry g;
  g.ring_size = 64 * 1024;
  g.bulk_size = 1 << 20;
  const uint64_t commands = 20'000'000;
  const uint64_t seed = 0x5eed;
  const size_t bulk_min = g.ring_size / 2 + 1;

  CheckingDispatcher checker(seed, bulk_min);
  InProcessHost host(g, &checker);
  GuestConnection& guest = host.guest();
  checker.ring_inline_max = g.ring_size / 2 - sizeof(RecordHeader);
  host.start();

  SizeSource sizes(seed);
  std::vector<uint8_t> buf(bulk_min + 70000);
  uint64_t wraps_before = 0;
  for (uint64_t i = 0; i < commands; i++) {
    size_t size = sizes.next(bulk_min);
    uint32_t word0 = uint32_t(size);
    std::memcpy(buf.data(), &word0, 4);
    std::memset(buf.data() + 4, 0, 4);
    std::memcpy(buf.data() + 8, &i, 8);
    fill_pattern(buf.data() + 16, size - 16, i);
    ASSERT_EQ(guest.submit(0, buf.data(), size), kOk) << "command " << i;
  }
  wraps_before = load_acquire(host.ring_header(0)->head) / g.ring_size;
  ASSERT_EQ(guest.finish(0), kOk);
  host.stop();

  EXPECT_EQ(checker.count, commands);
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_GT(checker.out_of_line, 1000u);
  EXPECT_GT(wraps_before, 10000u) << "the ring must have wrapped many times";
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
  // Every out-of-line allocation came back.
  EXPECT_EQ(guest.bulk().free_bytes(), guest.bulk().size());
}
