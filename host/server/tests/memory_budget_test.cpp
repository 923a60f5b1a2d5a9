// SPDX-License-Identifier: MIT
// The server-wide memory bound every server (socket, Windows, device) admits contexts by.
#include <gtest/gtest.h>

#include <string>

#include "memory_budget.h"

namespace {

using npt::server::context_memory;
using npt::server::ContextMemory;
using npt::server::MemoryBudget;

constexpr uint64_t kMiB = 1ull << 20;

npt_host_geometry small_geometry() {
  npt_host_geometry g = {};
  g.ring_count = 2;
  g.ring_size = 64 * 1024;
  g.reply_slot_count = 4;
  g.reply_slot_size = 4096;
  g.push_slot_count = 16;
  g.fence_count = 4;
  g.bulk_size = 1 * kMiB;
  return g;
}

TEST(MemoryBudget, AContextReservesItsSharedMemoryLaterBulkResourcesAndWorker) {
  npt_host_limits limits;
  npt_host_default_limits(&limits);
  limits.max_bulk_size = 16 * kMiB;
  limits.max_object_memory = 100 * kMiB;
  const npt_host_geometry g = small_geometry();
  const ContextMemory memory = context_memory(g, limits, 7 * kMiB);
  EXPECT_EQ(memory.shared, npt_host_shared_memory_size(&g));
  EXPECT_GE(memory.shared, 2 * 64 * 1024 + g.bulk_size);
  EXPECT_EQ(memory.later_bulk, 15 * kMiB);
  EXPECT_EQ(memory.objects, 100 * kMiB);
  EXPECT_EQ(memory.worker, 7 * kMiB);
  EXPECT_EQ(memory.total(), memory.shared + 15 * kMiB + 100 * kMiB + 7 * kMiB);

  // A device's contexts live in its file, which the server sized once.
  const ContextMemory in_device = context_memory(g, limits, 7 * kMiB, false);
  EXPECT_EQ(in_device.shared, 0u);
  EXPECT_EQ(in_device.later_bulk, 0u);
  EXPECT_EQ(in_device.total(), 107 * kMiB);
}

TEST(MemoryBudget, RefusesWhatDoesNotFitAndTakesBackWhatEnds) {
  MemoryBudget budget(300 * kMiB);
  ContextMemory memory;
  memory.objects = 100 * kMiB;
  std::string why;
  MemoryBudget::Reservation a, b, c, d;
  ASSERT_TRUE(budget.reserve(memory, &a, &why));
  ASSERT_TRUE(budget.reserve(memory, &b, &why));
  ASSERT_TRUE(budget.reserve(memory, &c, &why)) << "exactly the bound";
  EXPECT_EQ(budget.reserved(), 300 * kMiB);
  EXPECT_FALSE(budget.reserve(memory, &d, &why));
  EXPECT_EQ(d.bytes(), 0u);
  EXPECT_NE(why.find("a context reserves 100 MiB"), std::string::npos) << why;
  EXPECT_NE(why.find("3 contexts hold 300 of the server's 300 MiB"), std::string::npos) << why;
  EXPECT_EQ(budget.reserved(), 300 * kMiB) << "a refusal reserves nothing";

  b = MemoryBudget::Reservation();
  EXPECT_EQ(budget.reserved(), 200 * kMiB);
  EXPECT_EQ(budget.contexts(), 2u);
  ASSERT_TRUE(budget.reserve(memory, &d, &why));
  MemoryBudget::Reservation moved = std::move(d);
  EXPECT_EQ(moved.bytes(), 100 * kMiB);
  EXPECT_EQ(budget.reserved(), 300 * kMiB) << "moving a reservation keeps it";
  {
    MemoryBudget::Reservation ends = std::move(moved);
  }
  EXPECT_EQ(budget.reserved(), 200 * kMiB);
}

TEST(MemoryBudget, AReservationLargerThanTheBoundOrNearTheTopOfTheRangeIsRefused) {
  MemoryBudget budget(300 * kMiB);
  ContextMemory huge;
  huge.objects = ~0ull - 10;
  huge.worker = 5;
  MemoryBudget::Reservation r;
  std::string why;
  EXPECT_FALSE(budget.reserve(huge, &r, &why));
  ContextMemory some;
  some.objects = 200 * kMiB;
  ASSERT_TRUE(budget.reserve(some, &r, &why));
  ContextMemory rest;
  rest.objects = 101 * kMiB;
  MemoryBudget::Reservation r2;
  EXPECT_FALSE(budget.reserve(rest, &r2, &why));
}

TEST(MemoryBudget, NoBoundGivenMeansTheHostsPhysicalMemory) {
  const uint64_t physical = MemoryBudget::host_physical_memory();
  EXPECT_GT(physical, 64 * kMiB);
  EXPECT_EQ(MemoryBudget(0).limit(), physical);
}

}  // namespace
