// SPDX-License-Identifier: MIT
// The catalogue's transport classes (catalogue.h names the others):
//   * through the real native neptune-server (one worker process per context, diag
//     dispatch): re-entrant/cyclic multi-ring waits and shared-memory offsets outside their
//     region make that context fatal with a stable reason, the server keeps running and a
//     second context keeps answering;
//   * in process: bytes the guest changes after publishing them never reach what the host
//     validated — the dispatcher gets a private copy (transport), and the backend reads a
//     host copy of bulk payloads, never the shared memory (executor on the recording backend).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>

#include "../../host/server/diagnostic_dispatch.h"
#include "../../host/server/tests/server_process.h"
#include "../../transport/tests/in_process_host.h"
#include "catalogue.h"
#include "executor_context.h"
#include "neptune/transport/status.h"

using namespace npt::transport;

namespace npt::hostile {
namespace {

bool echoOk(GuestConnection& guest, uint32_t ring, uint32_t seed) {
  std::mt19937 rng(seed);
  uint32_t cmd[32];
  cmd[0] = server::kDiagEcho;
  const size_t words = 1 + rng() % 31;
  for (size_t i = 1; i < words; i++) cmd[i] = rng();
  uint32_t reply[32] = {};
  size_t n = 0;
  return guest.call(ring, cmd, words * 4, reply, sizeof(reply), &n) == kOk && n == words * 4 &&
         std::memcmp(cmd, reply, n) == 0;
}

FatalReason waitForRemoval(GuestConnection& guest) {
  for (int i = 0; i < 2000 && guest.status() == kOk; i++) sleep_us(1000);
  return FatalReason(guest.fatal_reason());
}

// Writes one raw record at ring `ring`'s head and publishes it (what a hostile guest does
// instead of using the guest library), then rings the doorbell through another ring.
void publishRaw(GuestConnection& guest, uint32_t ring, RecordHeader header, const void* payload, size_t size) {
  const Geometry g = guest.geometry();
  auto* ringHeader = reinterpret_cast<RingHeader*>(guest.shared_base() + g.rings_offset() + g.ring_stride() * ring);
  uint8_t* data = reinterpret_cast<uint8_t*>(ringHeader) + kRingHeaderSize;
  const uint64_t head = load_acquire(ringHeader->head);
  const uint64_t at = head & (g.ring_size - 1);
  std::memcpy(data + at, &header, sizeof header);
  if (size) std::memcpy(data + at + sizeof header, payload, size);
  store_release(ringHeader->head, head + align8(sizeof header + size));
}

struct ServerEntry {
  const char* name;
  const char* bugClass;
  FatalReason expected;
  std::function<void(GuestConnection&)> attack;
};

TEST(CatalogueThroughServer, HostileRingsEndOnlyTheirContext) {
  const std::vector<ServerEntry> entries = {
      {"wait-cycle-between-two-rings", "re-entrant or cyclic multi-ring waits", FatalReason::WaitCycle,
       [](GuestConnection& guest) {
         // Ring 0 waits for ring 1's next record, ring 1 for ring 0's: neither can run.
         guest.wait_for(0, 1, guest.submitted(1) + 1);
         guest.wait_for(1, 0, guest.submitted(0) + 1);
       }},
      {"wait-on-its-own-ring", "re-entrant or cyclic multi-ring waits", FatalReason::BadWaitTarget,
       [](GuestConnection& guest) {
         // The guest library refuses this; a hostile guest writes the record itself.
         const uint64_t sequence = guest.submitted(0) + 1;
         publishRaw(guest, 0, {make_size_kind(RecordKind::Wait, sizeof sequence), 0}, &sequence, sizeof sequence);
         uint32_t cmd = server::kDiagAccum;
         guest.submit(1, &cmd, 4);
       }},
      {"wait-on-a-missing-ring", "re-entrant or cyclic multi-ring waits", FatalReason::BadWaitTarget,
       [](GuestConnection& guest) {
         const uint64_t sequence = 1;   // of ring 7, in a context of 2 rings
         publishRaw(guest, 0, {make_size_kind(RecordKind::Wait, sizeof sequence), 7}, &sequence, sizeof sequence);
         uint32_t cmd = server::kDiagAccum;
         guest.submit(1, &cmd, 4);
       }},
      {"out-of-line-command-past-its-region", "shared-memory offsets outside their region", FatalReason::BadBulkRef,
       [](GuestConnection& guest) {
         BulkRef ref = {0, 0, guest.geometry().bulk_size - 64, 4096};   // 4 KiB from 64 bytes before the end
         publishRaw(guest, 0, {make_size_kind(RecordKind::Bulk, sizeof ref), 0}, &ref, sizeof ref);
         uint32_t cmd = server::kDiagAccum;
         guest.submit(1, &cmd, 4);
       }},
      {"out-of-line-command-offset-overflow", "integer overflow in size arithmetic", FatalReason::BadBulkRef,
       [](GuestConnection& guest) {
         BulkRef ref = {0, 0, ~uint64_t(0) - 15, 64};   // offset + size wraps to 48
         publishRaw(guest, 0, {make_size_kind(RecordKind::Bulk, sizeof ref), 0}, &ref, sizeof ref);
         uint32_t cmd = server::kDiagAccum;
         guest.submit(1, &cmd, 4);
       }},
      {"out-of-line-command-in-a-missing-region", "shared-memory offsets outside their region", FatalReason::BadBulkRef,
       [](GuestConnection& guest) {
         BulkRef ref = {5, 0, 0, 64};
         publishRaw(guest, 0, {make_size_kind(RecordKind::Bulk, sizeof ref), 0}, &ref, sizeof ref);
         uint32_t cmd = server::kDiagAccum;
         guest.submit(1, &cmd, 4);
       }},
      {"reply-slot-out-of-range", "shared-memory offsets outside their region", FatalReason::BadReplySlot,
       [](GuestConnection& guest) {
         const uint32_t cmd[2] = {server::kDiagEcho, 1};
         publishRaw(guest, 0, {make_size_kind(RecordKind::Data, sizeof cmd), 1000}, cmd, sizeof cmd);
         guest.submit(1, cmd, 4);
       }},
      {"published-head-beyond-the-ring", "truncated commands", FatalReason::BadRingHead,
       [](GuestConnection& guest) {
         const Geometry g = guest.geometry();
         auto* ring0 = reinterpret_cast<RingHeader*>(guest.shared_base() + g.rings_offset());
         store_release(ring0->head, load_acquire(ring0->head) + 2 * uint64_t(g.ring_size));
         uint32_t cmd = server::kDiagAccum;
         guest.submit(1, &cmd, 4);
       }},
  };
  server::testing::ServerProcess server;
  std::unique_ptr<GuestConnection> good;
  std::string error;
  ASSERT_EQ(server.connect(&good, &error), kOk) << error;
  for (const ServerEntry& entry : entries) {
    SCOPED_TRACE(std::string(entry.name) + " (" + entry.bugClass + ")");
    std::unique_ptr<GuestConnection> bad;
    ASSERT_EQ(server.connect(&bad, &error), kOk) << error;
    ASSERT_TRUE(echoOk(*bad, 0, 1));
    entry.attack(*bad);
    EXPECT_EQ(waitForRemoval(*bad), entry.expected) << fatal_reason_name(FatalReason(bad->fatal_reason()));
    size_t n = 0;
    uint32_t cmd = server::kDiagEcho;
    EXPECT_EQ(bad->call(1, &cmd, 4, &cmd, 4, &n), kDeviceRemoved) << "a fatal context stays removed";
    ASSERT_TRUE(server.running()) << "the server survives";
    for (uint32_t i = 0; i < 200; i++) ASSERT_TRUE(echoOk(*good, i % 2, i)) << "the other context keeps running";
  }
  std::unique_ptr<GuestConnection> fresh;
  ASSERT_EQ(server.connect(&fresh, &error), kOk) << "new contexts are still accepted: " << error;
  EXPECT_TRUE(echoOk(*fresh, 0, 7));
}

// A dispatcher that, inside its callback, overwrites everything the guest published
// (ring records and bulk memory), then checks it still holds the bytes that were sent.
class RewritingDispatcher final : public Dispatcher {
public:
  transport::testing::InProcessHost* host = nullptr;
  std::vector<uint8_t> expected;
  uint64_t calls = 0, mismatches = 0;
  bool dispatch(uint32_t, const uint8_t* cmd, size_t size, Reply*) override {
    calls++;
    const Geometry& g = geometry;
    std::memset(host->ring_data(0), 0xEE, g.ring_size);
    std::memset(host->memory() + g.bulk_offset(), 0xEE, g.bulk_size);
    if (size != expected.size() || std::memcmp(cmd, expected.data(), size) != 0) mismatches++;
    return true;
  }
  Geometry geometry;
};

TEST(CatalogueInProcess, BytesChangedAfterPublishDoNotReachTheDispatcher) {
  Geometry g;
  g.ring_count = 1;
  g.ring_size = 16 * 1024;
  g.bulk_size = 1 << 20;
  RewritingDispatcher dispatcher;
  dispatcher.geometry = g;
  transport::testing::InProcessHost host(g, &dispatcher);
  dispatcher.host = &host;
  GuestConnection& guest = host.guest();
  for (size_t size : {size_t(64), size_t(200000)}) {   // inline record, then out of line (bulk)
    SCOPED_TRACE(size);
    dispatcher.expected.resize(size);
    for (size_t i = 0; i < size; i++) dispatcher.expected[i] = uint8_t(i * 13 + 1);
    ASSERT_EQ(guest.submit(0, dispatcher.expected.data(), size), kOk);
    host.host().process();
    EXPECT_EQ(host.host().fatal(), FatalReason::None);
  }
  EXPECT_EQ(dispatcher.calls, 2u);
  EXPECT_EQ(dispatcher.mismatches, 0u) << "the dispatcher saw bytes the guest rewrote after publishing";
}

TEST(CatalogueInProcess, BackendReadsHostCopiesOfBulkPayloads) {
  namespace rec = backends::recording;
  rec::resetJournal();
  ExecutorContext context;
  std::vector<uint8_t> buffer(64 * 1024);
  CommandWriter w(buffer.data(), buffer.size());
  writeDeviceCreation(w);
  // Initial data, an UpdateSubresource source and shader-sized bytes, all in bulk memory.
  D3D11_BUFFER_DESC desc = {4096, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  NPT_SUBRESOURCE_DATA initial = {{0, 0, 4096}, 0, 0};
  protocol::encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 1, &initial, kFree);
  protocol::encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, kFree, 0, nullptr,
                                                        Payload::bulkRef({0, 8192, 4096}), 4096, 4096);
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(context.run(buffer.data(), w.size()), protocol::ErrorCode::Ok);
  ASSERT_FALSE(context.executor().isFatal()) << context.executor().fatalError().message;
  EXPECT_TRUE(rec::journalHas("CreateBuffer"));
  EXPECT_TRUE(rec::journalHas("UpdateSubresource"));
  EXPECT_FALSE(rec::journalReadInside(context.bulk().data(), context.bulk().size()))
      << "the backend read guest-visible memory: the guest could change it between validation and use";
  EXPECT_TRUE(rec::journal().violations.empty());
}

}  // namespace
}  // namespace npt::hostile
