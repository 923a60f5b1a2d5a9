// SPDX-License-Identifier: MIT
// A hostile guest rewrites its ring state: the context turns fatal with a stable
// reason, nothing is dispatched from bad records, and the host keeps running.
#include <gtest/gtest.h>

#include <functional>

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

class RecordingDispatcher final : public Dispatcher {
public:
  bool accept = true;
  uint32_t reply_bytes = 4;
  uint64_t calls = 0;
  bool dispatch(uint32_t, const uint8_t*, size_t, Reply* reply) override {
    calls++;
    if (reply) {
      std::vector<uint8_t> bytes(reply_bytes, 0xAB);
      reply->write(bytes.data(), bytes.size());
    }
    return accept;
  }
};

struct Case {
  const char* name;
  FatalReason expected;
  std::function<void(InProcessHost&)> corrupt;
};

void write_record(InProcessHost& h, uint64_t at, RecordHeader rec, const void* payload, size_t size) {
  std::memcpy(h.ring_data(0) + at, &rec, sizeof(rec));
  if (size)
    std::memcpy(h.ring_data(0) + at + sizeof(rec), payload, size);
}

}

TEST(Malformed, BadRingStateMakesContextFatal) {
  const uint32_t ring_size = 4096;
  std::vector<Case> cases = {
    { "head beyond tail+size", FatalReason::BadRingHead, [&](InProcessHost& h) {
        store_release(h.ring_header(0)->head, uint64_t(ring_size + 8)); } },
    { "head behind tail", FatalReason::BadRingHead, [&](InProcessHost& h) {
        store_release(h.ring_header(0)->head, ~uint64_t(7)); } },
    { "unaligned head", FatalReason::BadRingHead, [&](InProcessHost& h) {
        store_release(h.ring_header(0)->head, uint64_t(13)); } },
    { "record larger than published", FatalReason::BadRecord, [&](InProcessHost& h) {
        write_record(h, 0, { make_size_kind(RecordKind::Data, 64), 0 }, nullptr, 0);
        store_release(h.ring_header(0)->head, uint64_t(16)); } },
    { "record straddling the end", FatalReason::BadRecord, [&](InProcessHost& h) {
        write_record(h, 0, { make_size_kind(RecordKind::Data, ring_size), 0 }, nullptr, 0);
        store_release(h.ring_header(0)->head, uint64_t(ring_size)); } },
    { "inline record over the inline bound", FatalReason::BadRecord, [&](InProcessHost& h) {
        // Fits the ring, but the guest sends anything over half a ring out of line;
        // the host's copy-out buffer is sized for that bound.
        write_record(h, 0, { make_size_kind(RecordKind::Data, 3000), 0 }, nullptr, 0);
        store_release(h.ring_header(0)->head, uint64_t(align8(8 + 3000))); } },
    { "unknown kind", FatalReason::BadRecord, [&](InProcessHost& h) {
        write_record(h, 0, { (9u << 28) | 8, 0 }, "abcdefgh", 8);
        store_release(h.ring_header(0)->head, uint64_t(16)); } },
    { "zeroed record", FatalReason::BadRecord, [&](InProcessHost& h) {
        store_release(h.ring_header(0)->head, uint64_t(64)); } },
    { "pad without the rest of the ring", FatalReason::BadRecord, [&](InProcessHost& h) {
        write_record(h, 0, { make_size_kind(RecordKind::Pad, 0), 0 }, nullptr, 0);
        store_release(h.ring_header(0)->head, uint64_t(8)); } },
    { "bulk ref past its region", FatalReason::BadBulkRef, [&](InProcessHost& h) {
        BulkRef ref = { 0, 0, 4096, 1u << 20 };
        write_record(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref));
        store_release(h.ring_header(0)->head, uint64_t(8 + sizeof(ref))); } },
    { "bulk ref offset overflow", FatalReason::BadBulkRef, [&](InProcessHost& h) {
        BulkRef ref = { 0, 0, ~uint64_t(0) - 8, 64 };
        write_record(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref));
        store_release(h.ring_header(0)->head, uint64_t(8 + sizeof(ref))); } },
    { "bulk ref of no bytes", FatalReason::BadBulkRef, [&](InProcessHost& h) {
        BulkRef ref = { 0, 0, 0, 0 };
        write_record(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref));
        store_release(h.ring_header(0)->head, uint64_t(8 + sizeof(ref))); } },
    { "bulk ref to a missing region", FatalReason::BadBulkRef, [&](InProcessHost& h) {
        BulkRef ref = { 7, 0, 0, 64 };
        write_record(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref));
        store_release(h.ring_header(0)->head, uint64_t(8 + sizeof(ref))); } },
    { "bulk record of the wrong size", FatalReason::BadRecord, [&](InProcessHost& h) {
        write_record(h, 0, { make_size_kind(RecordKind::Bulk, 8), 0 }, "12345678", 8);
        store_release(h.ring_header(0)->head, uint64_t(16)); } },
    { "reply slot out of range", FatalReason::BadReplySlot, [&](InProcessHost& h) {
        write_record(h, 0, { make_size_kind(RecordKind::Data, 8), 99 }, "12345678", 8);
        store_release(h.ring_header(0)->head, uint64_t(16)); } },
  };

  for (auto& c : cases) {
    Geometry g;
    g.ring_size = ring_size;
    g.bulk_size = 64 * 1024;
    RecordingDispatcher d;
    InProcessHost host(g, &d);
    GuestConnection& guest = host.guest();
    c.corrupt(host);
    host.host().process();
    EXPECT_EQ(host.host().fatal(), c.expected) << c.name;
    EXPECT_EQ(d.calls, 0u) << c.name << ": nothing from a bad record may be dispatched";
    EXPECT_EQ(load_acquire(host.control()->device_state), uint32_t(kDeviceRemovedState)) << c.name;
    EXPECT_EQ(load_acquire(host.control()->fatal_reason), uint32_t(c.expected)) << c.name;
    EXPECT_EQ(guest.status(), kDeviceRemoved) << c.name;
    uint32_t cmd = 1;
    EXPECT_EQ(guest.submit(0, &cmd, 4), kDeviceRemoved) << c.name;
    // A fatal context stays inert.
    EXPECT_EQ(host.host().process(), 0u) << c.name;
  }
}

TEST(Malformed, DispatcherRejectionAndOversizedReplyAreFatal) {
  Geometry g;
  g.ring_size = 4096;
  g.reply_slot_size = 64;
  {
    RecordingDispatcher d;
    d.accept = false;
    InProcessHost host(g, &d);
    host.start();
    uint32_t cmd = 1, reply = 0;
    size_t n = 0;
    EXPECT_EQ(host.guest().call(0, &cmd, 4, &reply, 4, &n), kDeviceRemoved);
    EXPECT_EQ(host.host().fatal(), FatalReason::DispatchFailed);
  }
  {
    RecordingDispatcher d;
    d.reply_bytes = 65;
    InProcessHost host(g, &d);
    host.start();
    uint8_t cmd[4] = {}, reply[128];
    size_t n = 0;
    EXPECT_EQ(host.guest().call(0, cmd, 4, reply, sizeof(reply), &n), kDeviceRemoved);
    EXPECT_EQ(host.host().fatal(), FatalReason::ReplyTooLarge);
  }
}

TEST(Malformed, OutOfLineCommandOverHostLimitIsFatal) {
  Geometry g;
  g.ring_size = 4096;
  g.bulk_size = 1 << 20;
  RecordingDispatcher d;
  HostLimits limits;
  limits.max_command_size = 100000;
  InProcessHost host(g, &d, limits);
  std::vector<uint8_t> big(200000, 1);
  ASSERT_EQ(host.guest().submit(0, big.data(), big.size()), kOk);
  host.host().process();
  EXPECT_EQ(host.host().fatal(), FatalReason::BadBulkRef);
  EXPECT_EQ(d.calls, 0u);
}
