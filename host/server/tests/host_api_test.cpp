// SPDX-License-Identifier: MIT
// The embedding C API (neptune/host.h) driven the way a VMM would: the embedder owns the
// memory and the notifications; the guest library runs on the same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "neptune/host.h"
#include "neptune/transport/guest_connection.h"

using namespace npt::transport;

namespace {

struct Embedder {
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> commands;
  int reject_next = 0;
};

int record_dispatch(void* user, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply) {
  auto* e = static_cast<Embedder*>(user);
  e->commands.emplace_back(ring, std::vector<uint8_t>(cmd, cmd + size));
  if (reply) {
    uint32_t n = uint32_t(size);
    npt_host_reply_write(reply, &n, sizeof(n));
    npt_host_reply_set_status(reply, 0x1234);
  }
  return e->reject_next;
}

class NoWaitChannel final : public GuestChannel {
public:
  void doorbell(uint32_t*) override { rings++; }
  bool block(const uint32_t*, uint32_t, uint32_t) override { return true; }
  int rings = 0;
};

npt_host_geometry small_geometry() {
  return npt_host_geometry{ 2, 4096, 2, 256, 8, 4, 64 * 1024 };
}

}

TEST(HostApi, GeometryChecksNameTheLimit) {
  npt_host_limits limits;
  npt_host_default_limits(&limits);
  limits.max_rings = 2;
  npt_host_geometry g = small_geometry();
  const char* message = nullptr;
  EXPECT_EQ(npt_host_check_geometry(&g, &limits, &message), 0u);
  g.ring_count = 3;
  EXPECT_EQ(npt_host_check_geometry(&g, &limits, &message), uint32_t(ConnectError::RingCount));
  EXPECT_NE(std::strstr(message, "ring count"), nullptr);
  g = small_geometry();
  g.ring_size = 5000;
  EXPECT_EQ(npt_host_check_geometry(&g, &limits, &message), uint32_t(ConnectError::RingSize));
  g = small_geometry();
  g.bulk_size = limits.max_bulk_size + 1;
  EXPECT_EQ(npt_host_check_geometry(&g, &limits, &message), uint32_t(ConnectError::BulkSize));
  npt_host_context* c = nullptr;
  g.ring_count = 3;
  EXPECT_EQ(npt_host_context_create(&g, &limits, record_dispatch, nullptr, &c), NPT_HOST_E_LIMIT);
}

TEST(HostApi, EmbedderDrivesContextOverItsOwnMemory) {
  npt_host_limits limits;
  npt_host_default_limits(&limits);
  npt_host_geometry g = small_geometry();
  Embedder embedder;
  npt_host_context* c = nullptr;
  ASSERT_EQ(npt_host_context_create(&g, &limits, record_dispatch, &embedder, &c), 0);
  uint64_t size = npt_host_shared_memory_size(&g);
  std::vector<uint64_t> memory(size / 8 + 1);
  EXPECT_EQ(npt_host_context_attach_memory(c, memory.data(), size - 1, 7), NPT_HOST_E_TOO_SMALL);
  ASSERT_EQ(npt_host_context_attach_memory(c, memory.data(), size, 7), 0);

  // A second guest-visible region, as a VMM would attach another blob.
  std::vector<uint8_t> region(8192);
  for (size_t i = 0; i < region.size(); i++)
    region[i] = uint8_t(i);
  ASSERT_EQ(npt_host_context_attach_region(c, 1, region.data(), region.size()), 0);

  auto channel = std::make_unique<NoWaitChannel>();
  NoWaitChannel* bell = channel.get();
  std::unique_ptr<GuestConnection> guest;
  ASSERT_EQ(GuestConnection::attach(reinterpret_cast<uint8_t*>(memory.data()), size, std::move(channel), &guest), kOk);
  EXPECT_EQ(guest->worker_pid(), 7u);

  // Idle host: the guest's first command rings the doorbell once.
  EXPECT_EQ(npt_host_context_has_work(c), 0);
  ASSERT_EQ(npt_host_context_enter_idle(c), 1);
  uint32_t cmd[3] = { 0xC0, 1, 2 };
  ASSERT_EQ(guest->submit(1, cmd, sizeof(cmd)), kOk);
  ASSERT_EQ(guest->submit(1, cmd, sizeof(cmd)), kOk);
  EXPECT_EQ(bell->rings, 1);
  EXPECT_EQ(npt_host_context_has_work(c), 1);
  npt_host_context_leave_idle(c);
  EXPECT_EQ(npt_host_context_process(c, 1), 1u) << "budget respected";
  EXPECT_EQ(npt_host_context_process(c, 100), 1u);
  ASSERT_EQ(embedder.commands.size(), 2u);
  EXPECT_EQ(embedder.commands[0].first, 1u);
  EXPECT_EQ(embedder.commands[0].second.size(), sizeof(cmd));

  // A BulkRef into region 1, written by a guest that knows the region (a VMM guest driver).
  auto* ring0 = reinterpret_cast<RingHeader*>(reinterpret_cast<uint8_t*>(memory.data()) + Geometry().rings_offset());
  uint8_t* data0 = reinterpret_cast<uint8_t*>(ring0) + kRingHeaderSize;
  BulkRef ref = { 1, 0, 100, 4000 };
  RecordHeader rec = { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 };
  std::memcpy(data0, &rec, sizeof(rec));
  std::memcpy(data0 + sizeof(rec), &ref, sizeof(ref));
  store_release(ring0->head, uint64_t(sizeof(rec) + sizeof(ref)));
  EXPECT_EQ(npt_host_context_process(c, 100), 1u);
  ASSERT_EQ(embedder.commands.size(), 3u);
  EXPECT_EQ(embedder.commands[2].second, std::vector<uint8_t>(region.begin() + 100, region.begin() + 4100));

  // Push slot and fence as a VMM would after completing GPU work.
  uint64_t result = 42;
  EXPECT_EQ(npt_host_context_push_slot(c, 3, &result, sizeof(result)), 0);
  npt_host_context_signal_fence(c, 2, 99);
  uint64_t read = 0;
  size_t n = 0;
  uint32_t version = 0;
  ASSERT_TRUE(guest->read_push_slot(3, &read, sizeof(read), &n, &version));
  EXPECT_EQ(read, 42u);
  // A value larger than a slot, or a slot outside the geometry, is refused: nothing is
  // written (never a truncated result).
  std::vector<uint8_t> large(NPT_HOST_PUSH_SLOT_BYTES + 1, 0xEE);
  EXPECT_EQ(npt_host_context_push_slot(c, 3, large.data(), NPT_HOST_PUSH_SLOT_BYTES), 0);
  EXPECT_EQ(npt_host_context_push_slot(c, 4, large.data(), large.size()), NPT_HOST_E_LIMIT);
  EXPECT_EQ(npt_host_context_push_slot(c, g.push_slot_count, &result, sizeof(result)), NPT_HOST_E_INVALID_ARG);
  uint8_t slot4[NPT_HOST_PUSH_SLOT_BYTES];
  uint32_t version4 = 0;
  ASSERT_TRUE(guest->read_push_slot(4, slot4, sizeof(slot4), &n, &version4));
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(version4, 0u);
  EXPECT_EQ(guest->fence_value(2), 99u);

  // The embedder's own verdict (say, its validator) removes the device.
  npt_host_context_make_fatal(c, uint32_t(FatalReason::DispatchFailed));
  EXPECT_EQ(npt_host_context_fatal_reason(c), uint32_t(FatalReason::DispatchFailed));
  EXPECT_STREQ(npt_host_fatal_reason_name(npt_host_context_fatal_reason(c)), "command rejected by the dispatcher");
  EXPECT_EQ(guest->status(), kDeviceRemoved);
  EXPECT_EQ(guest->submit(0, cmd, sizeof(cmd)), kDeviceRemoved);
  npt_host_context_destroy(c);
}

TEST(HostApi, RegionReferencesAreBounded) {
  npt_host_limits limits;
  npt_host_default_limits(&limits);
  npt_host_geometry g = small_geometry();
  Embedder embedder;
  npt_host_context* c = nullptr;
  ASSERT_EQ(npt_host_context_create(&g, &limits, record_dispatch, &embedder, &c), 0);
  uint64_t size = npt_host_shared_memory_size(&g);
  std::vector<uint64_t> memory(size / 8 + 1);
  ASSERT_EQ(npt_host_context_attach_memory(c, memory.data(), size, 0), 0);
  std::vector<uint8_t> region(4096);
  ASSERT_EQ(npt_host_context_attach_region(c, 1, region.data(), region.size()), 0);
  EXPECT_EQ(npt_host_context_attach_region(c, 0, region.data(), region.size()), NPT_HOST_E_INVALID_ARG);
  auto* ring0 = reinterpret_cast<RingHeader*>(reinterpret_cast<uint8_t*>(memory.data()) + Geometry().rings_offset());
  uint8_t* data0 = reinterpret_cast<uint8_t*>(ring0) + kRingHeaderSize;
  BulkRef ref = { 1, 0, 4000, 97 };   // 4000 + 97 > 4096
  RecordHeader rec = { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 };
  std::memcpy(data0, &rec, sizeof(rec));
  std::memcpy(data0 + sizeof(rec), &ref, sizeof(ref));
  store_release(ring0->head, uint64_t(sizeof(rec) + sizeof(ref)));
  EXPECT_EQ(npt_host_context_process(c, 100), 0u);
  EXPECT_EQ(npt_host_context_fatal_reason(c), uint32_t(FatalReason::BadBulkRef));
  EXPECT_TRUE(embedder.commands.empty());
  npt_host_context_destroy(c);
}
