// SPDX-License-Identifier: MIT
// Emulated fences in the executor (fences.cpp): Signal/Wait ordering, values pushed into
// the guest's fence slots, values that go backwards, the Wait timeout (Windows' TDR:
// E14008 DeviceHung), waits on ids that are not fences, and a shared fence signalled by
// another context while this one waits. Runs on the build's backend (wined3d under Wine).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

constexpr UINT kShared = 0x2;   // D3D11_FENCE_FLAG_SHARED

void setFenceTimeout(const char* milliseconds) {
#if defined(_WIN32)
  _putenv_s("NPT_FENCE_TIMEOUT_MS", milliseconds);
#else
  setenv("NPT_FENCE_TIMEOUT_MS", milliseconds, 1);
#endif
}

class FenceTest : public DeviceTest {
protected:
  void TearDown() override { setFenceTimeout(""); }

  // CreateFence through the sync path; the HRESULT of the reply.
  HRESULT createFence(Harness& harness, protocol::ObjectId device, UINT64 initial, UINT flags, UINT slot,
                      protocol::ObjectId* fence) {
    *fence = harness.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device5_CreateFence(harness.w(), device, initial, flags, slot, *fence));
    harness.runOk();
    HRESULT hr = E_FAIL;
    EXPECT_EQ(protocol::decodeReply_ID3D11Device5_CreateFence(harness.replies().data(), harness.replies().size(), &hr),
              protocol::ErrorCode::Ok);
    return hr;
  }

  void signal(protocol::ObjectId fence, UINT64 value) {
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Signal(h.w(), context, fence, value));
    h.runOk();
  }
  void wait(Harness& harness, protocol::ObjectId ctx, protocol::ObjectId fence, UINT64 value) {
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Wait(harness.w(), ctx, fence, value));
    harness.runOk();
  }

  // Polls as the idle worker does until the slot shows `value` (at most 10 s).
  bool slotReaches(Harness& harness, uint32_t slot, uint64_t value) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      harness.executor().pollQueries();
      const std::vector<uint64_t>& writes = harness.fenceSlotWrites(slot);
      if (!writes.empty() && writes.back() == value) return true;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return false;
  }

  void clearTarget(float red) {
    const protocol::ObjectId texture = texture2D(64, 64, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
    const protocol::ObjectId view = renderTarget(texture);
    const FLOAT colour[4] = {red, 0, 0, 1};
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(h.w(), context, view, colour));
    h.runOk();
  }
};

TEST_F(FenceTest, CreateWritesTheInitialValueIntoTheSlot) {
  protocol::ObjectId fence = 0;
  ASSERT_EQ(createFence(h, device, 41, 0, 3, &fence), S_OK);
  ASSERT_FALSE(h.fenceSlotWrites(3).empty());
  EXPECT_EQ(h.fenceSlotWrites(3).back(), 41u);
  // Unknown flags and a slot outside the context's slots are refused, not fatal.
  protocol::ObjectId bad = 0;
  EXPECT_EQ(createFence(h, device, 0, 0x100, 4, &bad), E_INVALIDARG);
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(FenceTest, SignalsCompleteInSubmissionOrder) {
  protocol::ObjectId a = 0, b = 0;
  ASSERT_EQ(createFence(h, device, 0, 0, 0, &a), S_OK);
  ASSERT_EQ(createFence(h, device, 0, 0, 1, &b), S_OK);
  clearTarget(1.0f);
  signal(a, 1);
  clearTarget(0.5f);
  signal(b, 10);
  signal(a, 2);
  ASSERT_TRUE(slotReaches(h, 0, 2));
  ASSERT_TRUE(slotReaches(h, 1, 10));
  // Slot 0 went 0 -> 1 -> 2, never skipping back; no signal was written before the one
  // submitted ahead of it.
  const std::vector<uint64_t>& writes = h.fenceSlotWrites(0);
  for (size_t i = 1; i < writes.size(); i++) EXPECT_LE(writes[i - 1], writes[i]) << i;
  EXPECT_EQ(writes.front(), 0u);
  EXPECT_FALSE(h.executor().hasPendingQueries());
}

TEST_F(FenceTest, WaitBehindItsOwnSignalReturnsOnceTheWorkIsDone) {
  protocol::ObjectId fence = 0;
  ASSERT_EQ(createFence(h, device, 0, 0, 2, &fence), S_OK);
  clearTarget(1.0f);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Signal(h.w(), context, fence, 5));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Wait(h.w(), context, fence, 5));
  h.runOk();
  EXPECT_FALSE(h.executor().isFatal()) << h.executor().fatalError().message;
  EXPECT_EQ(h.fenceSlotWrites(2).back(), 5u);
  const Executor::FenceWaitStats stats = h.executor().fenceWaitStats();
  EXPECT_EQ(stats.waits, 1u);
  // A Wait on a value reached already costs no blocking.
  wait(h, context, fence, 3);
  EXPECT_EQ(h.executor().fenceWaitStats().waits, 2u);
  EXPECT_EQ(h.executor().fenceWaitStats().blockedWaits, stats.blockedWaits);
}

TEST_F(FenceTest, ValuesMayGoBackwards) {
  // ID3D11DeviceContext4::Signal sets the value, as D3D12's does: a lower one is taken.
  protocol::ObjectId fence = 0;
  ASSERT_EQ(createFence(h, device, 0, 0, 5, &fence), S_OK);
  signal(fence, 9);
  ASSERT_TRUE(slotReaches(h, 5, 9));
  signal(fence, 4);
  ASSERT_TRUE(slotReaches(h, 5, 4));
  // 4 satisfies a Wait for 4 and not one for 5 (that one times out below).
  wait(h, context, fence, 4);
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(FenceTest, AWaitThatIsNeverSatisfiedRemovesTheDeviceAfterTheTimeout) {
  setFenceTimeout("150");
  protocol::ObjectId fence = 0;
  ASSERT_EQ(createFence(h, device, 1, 0, 6, &fence), S_OK);
  const auto start = std::chrono::steady_clock::now();
  wait(h, context, fence, 2);
  const auto held = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(h.executor().isFatal());
  EXPECT_EQ(h.executor().fatalError().code, FatalCode::DeviceHung);
  EXPECT_TRUE(h.logContains("E14008 DeviceHung")) << "the stable code in the host log";
  EXPECT_GE(held, std::chrono::milliseconds(150));
  EXPECT_LT(held, std::chrono::seconds(5));
}

TEST_F(FenceTest, WaitsOnIdsThatAreNotFencesAreRefusedByTheDecoder) {
  // The guest only names fences it created: an unknown id or another object's id is a
  // hostile stream, stopped before the executor runs (the server makes that context
  // fatal with E14006 Protocol).
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Wait(h.w(), context, 4242, 1));
  EXPECT_EQ(h.run().code, protocol::ErrorCode::UnknownObject);
  const protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Wait(h.w(), context, texture, 1));
  EXPECT_EQ(h.run().code, protocol::ErrorCode::WrongObjectType);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext4_Signal(h.w(), context, texture, 1));
  EXPECT_EQ(h.run().code, protocol::ErrorCode::WrongObjectType);
  EXPECT_EQ(h.executor().fenceWaitStats().waits, 0u);
}

TEST_F(FenceTest, AFenceOfAnotherDeviceIsDropped) {
  protocol::ObjectId otherDevice = 0, otherContext = 0;
  ASSERT_EQ(h.createDevice(&otherDevice, &otherContext), S_OK);
  protocol::ObjectId fence = 0;
  ASSERT_EQ(createFence(h, otherDevice, 0, 0, 7, &fence), S_OK);
  const uint64_t dropped = h.executor().droppedCalls();
  wait(h, context, fence, 0);
  EXPECT_FALSE(h.executor().isFatal());
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 1);
  EXPECT_EQ(h.executor().fenceWaitStats().waits, 0u) << "nothing waited on another device's fence";
}

TEST_F(FenceTest, AFenceWhoseCreationFailedIsDropped) {
  protocol::ObjectId bad = 0;
  ASSERT_EQ(createFence(h, device, 0, 0x100, 0, &bad), E_INVALIDARG);
  wait(h, context, bad, 1);
  signal(bad, 1);
  EXPECT_FALSE(h.executor().isFatal());
  EXPECT_TRUE(h.logContains("dropped"));
}

TEST_F(FenceTest, ASharedFenceSignalledByAnotherContextEndsAWait) {
  // Two contexts of one instance (two executors of this process, as with --contexts
  // thread): the producer shares its fence, the consumer opens it and waits on its GPU
  // timeline while the producer signals from another thread.
  protocol::ObjectId fence = 0;
  ASSERT_EQ(createFence(h, device, 0, kShared, 0, &fence), S_OK);
  ASSERT_TRUE(protocol::encode_ID3D11Fence_CreateSharedHandle(h.w(), fence, 0x10000000, nullptr));
  h.runOk();
  HRESULT hr = E_FAIL;
  UINT64 handle = 0;
  ASSERT_EQ(protocol::decodeReply_ID3D11Fence_CreateSharedHandle(h.replies().data(), h.replies().size(), &hr, &handle),
            protocol::ErrorCode::Ok);
  ASSERT_EQ(hr, S_OK);
  ASSERT_NE(handle, 0u);

  Harness consumer;
  protocol::ObjectId consumerDevice = 0, consumerContext = 0;
  ASSERT_EQ(consumer.createDevice(&consumerDevice, &consumerContext), S_OK);
  const protocol::ObjectId opened = consumer.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device5_OpenSharedFence(consumer.w(), consumerDevice, handle, 1, opened));
  consumer.runOk();
  ASSERT_EQ(protocol::decodeReply_ID3D11Device5_OpenSharedFence(consumer.replies().data(), consumer.replies().size(), &hr),
            protocol::ErrorCode::Ok);
  ASSERT_EQ(hr, S_OK);
  EXPECT_EQ(consumer.fenceSlotWrites(1).back(), 0u);
  // The consumer now has a word to sleep on instead of polling the value.
  EXPECT_NE(consumer.executor().sharedFenceWakeWord(), nullptr);
  EXPECT_FALSE(consumer.executor().hasPendingQueries());

  std::chrono::steady_clock::time_point signalled;
  std::thread producer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    signalled = std::chrono::steady_clock::now();
    signal(fence, 3);
    slotReaches(h, 0, 3);
  });
  const auto start = std::chrono::steady_clock::now();
  wait(consumer, consumerContext, opened, 3);
  const auto returned = std::chrono::steady_clock::now();
  producer.join();
  EXPECT_FALSE(consumer.executor().isFatal()) << consumer.executor().fatalError().message;
  EXPECT_GE(returned - start, std::chrono::milliseconds(90));   // it did wait for the signal
  EXPECT_LT(returned - signalled, std::chrono::seconds(1));     // and returned with it, not at the 2 s timeout
  EXPECT_EQ(consumer.executor().fenceWaitStats().blockedWaits, 1u);
  // The idle consumer mirrors the value into its guest's slot.
  EXPECT_TRUE(slotReaches(consumer, 1, 3));
}

}  // namespace
}  // namespace npt::executor::testing
