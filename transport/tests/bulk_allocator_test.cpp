// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "neptune/transport/bulk_allocator.h"

using namespace npt::transport;

TEST(BulkAllocator, RandomAllocFreeNeverOverlapsAndCoalesces) {
  std::vector<uint8_t> owner(1 << 20);
  BulkAllocator a(0, owner.data(), owner.size());
  std::vector<BulkRef> live;
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; i++) {
    if (live.empty() || rng() % 3) {
      BulkRef ref;
      uint64_t size = 1 + rng() % 20000;
      if (a.allocate(size, &ref)) {
        ASSERT_EQ(ref.offset % BulkAllocator::kAlignment, 0u);
        ASSERT_LE(ref.offset + ref.size, owner.size());
        for (auto& other : live)
          ASSERT_TRUE(ref.offset + ref.size <= other.offset || other.offset + other.size <= ref.offset);
        live.push_back(ref);
      }
    } else {
      size_t k = rng() % live.size();
      a.free(live[k]);
      live.erase(live.begin() + long(k));
    }
  }
  for (auto& ref : live)
    a.free(ref);
  EXPECT_EQ(a.free_bytes(), owner.size());
  BulkRef whole;
  EXPECT_TRUE(a.allocate(owner.size(), &whole));
  BulkRef more;
  EXPECT_FALSE(a.allocate(1, &more));
}
