// SPDX-License-Identifier: MIT
// Reply hygiene: every byte the host writes into guest-visible memory is initialised (no
// host stack or heap contents reach a guest). Run under valgrind memcheck (meson runs it
// that way): the guest-visible memory starts defined (zero, like a fresh mapping), so any
// byte the host fills from uninitialised host memory is undefined in memcheck's shadow
// afterwards; the test reads the shadow bits (VALGRIND_GET_VBITS) and names its offset. Outside valgrind the
// checks are no-ops and the test only runs the workload.
//   * the transport with the server's diag dispatch, through the embedding C API (what a
//     neptune-server worker runs): reply slots, push slots, fences, out-of-line replies,
//     the control block (idle announcements, fatal reason);
//   * the executor on the recording backend: sync replies (device creation, host info,
//     Map inline and through the reply area in bulk region 0) and pushed query results.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <valgrind/memcheck.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "../../host/server/diagnostic_dispatch.h"
#include "catalogue.h"
#include "executor_context.h"
#include "neptune/host.h"
#include "neptune/transport/guest_connection.h"
#include "neptune/transport/wait.h"

using namespace npt::transport;

namespace npt::hostile {
namespace {

// The offset of the first byte of [data, data + size) with an undefined bit, or -1.
// Reads memcheck's shadow bits (no error report: the test reports through gtest).
int64_t firstUndefined(const void* data, size_t size) {
  if (!RUNNING_ON_VALGRIND) return -1;
  std::vector<uint8_t> vbits(4096);
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (size_t at = 0; at < size; at += vbits.size()) {
    const size_t piece = size - at < vbits.size() ? size - at : vbits.size();
    if (VALGRIND_GET_VBITS(bytes + at, vbits.data(), piece) != 1) return int64_t(at);   // unaddressable
    for (size_t i = 0; i < piece; i++)
      if (vbits[i]) return int64_t(at + i);
  }
  return -1;
}

class SpinChannel final : public GuestChannel {
public:
  void doorbell(uint32_t*) override {}
  bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
    (void)word;
    (void)expected;
    sleep_us(timeout_us < 200 ? timeout_us : 200);
    return true;
  }
};

TEST(ReplyHygiene, TheCheckSeesAnUninitialisedByteCopiedIntoSharedMemory) {
  if (!RUNNING_ON_VALGRIND) GTEST_SKIP() << "memcheck only (meson runs this test under valgrind)";
  std::vector<uint8_t> shared(64, 0);
  uint8_t* host = new uint8_t[16];   // never written
  std::memcpy(shared.data() + 40, host, 1);
  delete[] host;
  EXPECT_EQ(firstUndefined(shared.data(), shared.size()), 40);
  VALGRIND_MAKE_MEM_DEFINED(shared.data(), shared.size());
}

TEST(ReplyHygiene, TransportWithDiagDispatchWritesOnlyInitialisedBytes) {
  npt_host_limits limits;
  npt_host_default_limits(&limits);
  // Two rings, reply slots of 4 KiB, push slots and fences, 1 MiB of bulk memory.
  npt_host_geometry g = {2, 64 * 1024, 4, 4096, 16, 8, 1u << 20};
  server::DiagState state;
  npt_host_context* context = nullptr;
  ASSERT_EQ(npt_host_context_create(&g, &limits, server::diag_dispatch, &state, &context), 0);
  state.context = context;
  const size_t size = size_t(npt_host_shared_memory_size(&g));
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  ASSERT_EQ(npt_host_context_attach_memory(context, memory, size, 1), 0);
  std::unique_ptr<GuestConnection> guest;
  ASSERT_EQ(GuestConnection::attach(static_cast<uint8_t*>(memory), size, std::make_unique<SpinChannel>(), &guest), kOk);

  std::atomic<bool> running{true};
  std::thread host([&] {
    while (running.load()) {
      if (npt_host_context_process(context, 256)) continue;
      if (npt_host_context_enter_idle(context)) {   // the control block's idle word
        sleep_us(50);
        npt_host_context_leave_idle(context);
      }
    }
  });

  // Echo replies of every length 1..300 words, pushes and fences of odd sizes, a query,
  // and out-of-line commands (bigger than half a ring).
  std::vector<uint32_t> cmd(1024), reply(1024);
  for (uint32_t words = 1; words <= 300; words++) {
    cmd[0] = server::kDiagEcho;
    for (uint32_t i = 1; i < words; i++) cmd[i] = words * 7919u + i;
    size_t n = 0;
    ASSERT_EQ(guest->call(words % 2, cmd.data(), words * 4, reply.data(), reply.size() * 4, &n), kOk);
    ASSERT_EQ(n, words * 4);
  }
  for (uint32_t slot = 0; slot < 16; slot++) {
    uint8_t push[128] = {};
    const uint32_t header[2] = {server::kDiagPush, slot};
    std::memcpy(push, header, sizeof header);
    for (uint32_t i = 8; i < sizeof push; i++) push[i] = uint8_t(slot + i);
    ASSERT_EQ(guest->submit(0, push, 8 + 4 * (slot % 29 + 1)), kOk);
    const uint32_t fence[4] = {server::kDiagFence, slot % 8, slot * 3 + 1, 0};
    ASSERT_EQ(guest->submit(1, fence, sizeof fence), kOk);
  }
  std::vector<uint32_t> big(300 * 1024 / 4, 0x01020304u);
  big[0] = server::kDiagAccum;
  ASSERT_EQ(guest->submit(0, big.data(), big.size() * 4), kOk);
  const uint32_t query = server::kDiagQuery;
  size_t n = 0;
  ASSERT_EQ(guest->call(0, &query, 4, reply.data(), reply.size() * 4, &n), kOk);
  EXPECT_EQ(n, 16u);
  ASSERT_EQ(guest->finish(0), kOk);
  ASSERT_EQ(guest->finish(1), kOk);
  // The fatal path writes the control block too.
  npt_host_context_make_fatal(context, uint32_t(FatalReason::DispatchFailed));
  running = false;
  host.join();

  EXPECT_EQ(firstUndefined(memory, size), -1) << "an uninitialised host byte reached guest-visible memory";
  npt_host_context_destroy(context);
  munmap(memory, size);
}

TEST(ReplyHygiene, ExecutorOnTheRecordingBackendRepliesOnlyInitialisedBytes) {
  ExecutorContext context;
  std::vector<uint8_t> buffer(256 * 1024);
  CommandWriter w(buffer.data(), buffer.size());
  writeDeviceCreation(w);
  std::vector<uint8_t> replies;
  auto runKeepingReplies = [&] {
    ASSERT_TRUE(w.ok());
    ASSERT_EQ(context.run(buffer.data(), w.size()), protocol::ErrorCode::Ok);
    replies.insert(replies.end(), context.replies().begin(), context.replies().end());
    w.clear();
  };
  runKeepingReplies();
  ASSERT_TRUE(protocol::encode_QueryHostInfo(w));
  runKeepingReplies();
  // Staging textures read back inline (16x16, and 13x7 of R8: odd row sizes) and through
  // the reply area (512x512: 1 MiB, over the 128 KiB inline limit).
  struct Readback { UINT width, height; DXGI_FORMAT format; ObjectId id; };
  const Readback readbacks[] = {{16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, kFree}, {13, 7, DXGI_FORMAT_R8_UNORM, kFree + 1},
                                {512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, kFree + 2}};
  for (const Readback& r : readbacks) {
    D3D11_TEXTURE2D_DESC desc = {r.width, r.height, 1, 1, r.format, {1, 0}, D3D11_USAGE_STAGING, 0,
                                 D3D11_CPU_ACCESS_READ, 0};
    protocol::encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, r.id);
    protocol::encode_ID3D11DeviceContext_Map(w, kContext, r.id, 0, D3D11_MAP_READ, 0);
    runKeepingReplies();
    protocol::encode_ID3D11DeviceContext_Unmap(w, kContext, r.id, 0, D3D11_MAP_READ, 0, nullptr, Payload::none());
    runKeepingReplies();
  }
  // Query results through push slots.
  const D3D11_QUERY kinds[] = {D3D11_QUERY_EVENT, D3D11_QUERY_OCCLUSION, D3D11_QUERY_TIMESTAMP_DISJOINT,
                               D3D11_QUERY_PIPELINE_STATISTICS, D3D11_QUERY_SO_STATISTICS};
  ObjectId id = kFree + 10;
  for (D3D11_QUERY kind : kinds) {
    D3D11_QUERY_DESC desc = {kind, 0};
    protocol::encode_ID3D11Device_CreateQuery(w, kDevice, &desc, id);
    protocol::encode_BindPushSlot(w, id, id - kFree);
    if (kind != D3D11_QUERY_EVENT) protocol::encode_ID3D11DeviceContext_Begin(w, kContext, id);
    protocol::encode_ID3D11DeviceContext_End(w, kContext, id);
    id++;
  }
  runKeepingReplies();
  ASSERT_FALSE(context.executor().isFatal()) << context.executor().fatalError().message;
  ASSERT_GE(context.pushes().size(), 5u) << "every query result was pushed";

  EXPECT_GT(replies.size(), 1000u);
  EXPECT_EQ(firstUndefined(replies.data(), replies.size()), -1) << "reply bytes";
  for (const auto& [slot, bytes] : context.pushes())
    EXPECT_EQ(firstUndefined(bytes.data(), bytes.size()), -1) << "push slot " << slot;
  EXPECT_EQ(firstUndefined(context.bulk().data(), context.bulk().size()), -1) << "the reply area (bulk region 0)";
}

}  // namespace
}  // namespace npt::hostile
