// SPDX-License-Identifier: MIT
// (e) The whole host path of a command stream without a GPU: StreamDecoder -> Executor
// (validation, object table) -> the recording backend (host/backends/recording), which
// checks what a real driver would rely on. Mirrors the server's executor glue
// (host/server/executor_dispatch.cpp): a decoder error makes the context fatal.

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "npt/backends/recording.h"
#include "npt/executor/executor.h"
#include "npt/protocol/decoder.h"

namespace npt::fuzz {

namespace {

constexpr size_t kBulkBytes = 8u << 20;        // region 0 of the context's bulk memory
constexpr uint32_t kPushSlots = 64;
constexpr size_t kPushSlotPayload = 120;       // transport PushSlot: 128 bytes, 8 of them the sequence

}  // namespace

Outcome runExecutor(const uint8_t* data, size_t size) {
  namespace rec = backends::recording;
  Outcome out;
  static const bool registered = (rec::registerRecordingBackend(), true);
  (void)registered;
  // Bulk memory (zeros, as a fresh mapping): captured streams keep their bulk references.
  static std::vector<uint8_t> bulk(kBulkBytes);
  std::memset(bulk.data(), 0, 4096);   // the reply area's start is rewritten by Map replies

  rec::resetJournal();
  const int64_t liveBefore = rec::liveObjects();
  std::string broken;
  static uint8_t pushed[kPushSlotPayload];
  {
    executor::ExecutorOptions options;
    options.backend = "recording";
    options.quotas.maxObjects = 4096;
    options.quotas.maxMemoryBytes = 1ull << 30;
    options.maxInlineReplyBytes = 64 * 1024;
    options.hooks.bulkBytes = [](const protocol::BulkRef& ref) -> const uint8_t* {
      if (ref.region != 0 || ref.offset > kBulkBytes || ref.size > kBulkBytes - ref.offset) return nullptr;
      return bulk.data() + ref.offset;
    };
    options.hooks.replyArea = [](uint64_t* areaSize) {
      *areaSize = kBulkBytes;
      return bulk.data();
    };
    options.hooks.pushSlot = [&broken](uint32_t slot, const void* bytes, size_t length) {
      if (slot >= kPushSlots) broken = "push slot " + std::to_string(slot) + " outside the context's slots";
      else if (length > kPushSlotPayload) broken = "push of " + std::to_string(length) + " bytes exceeds a slot";
      else if (length) std::memcpy(pushed, bytes, length);   // the whole source must be readable
    };
    options.hooks.log = [](const char*) {};
    auto executor = executor::createExecutor(std::move(options));

    // One decode context for every input (allocating its arena per input costs more than
    // the decoding), reset to a fresh context's state.
    static protocol::DecodeContext ctx(1u << 20);
    static const protocol::HandleTable freshHandles(4096);
    ctx.handles = freshHandles;
    ctx.self = 0;
    ctx.selfIface = 0;
    ctx.pushSlotCount = kPushSlots;
    std::vector<uint8_t> replies;
    ctx.replies = &replies;
    protocol::StreamDecoder decoder(ctx, *executor);
    protocol::DecodeResult result = decoder.decode(data, size);
    if (result.code != protocol::ErrorCode::Ok) executor->makeFatal(executor::FatalCode::Protocol, "decoder");
    if (!executor->isFatal()) executor->pollQueries();
    ctx.replies = nullptr;
    out.accepted = result.code == protocol::ErrorCode::Ok && !executor->isFatal();
    out.code = result.code != protocol::ErrorCode::Ok ? uint32_t(result.code) : uint32_t(executor->fatalError().code);
    if (executor->isFatal() && executor->liveObjects() != 0)
      broken = "a fatal context kept " + std::to_string(executor->liveObjects()) + " objects";
  }
  const rec::Journal& journal = rec::journal();
  if (broken.empty() && !journal.violations.empty()) broken = "driver invariant: " + journal.violations.front();
  if (broken.empty() && rec::journalReadInside(bulk.data(), bulk.size()))
    broken = "the driver read guest-visible bulk memory (not a host copy)";
  if (broken.empty() && rec::liveObjects() != liveBefore)
    broken = std::to_string(rec::liveObjects() - liveBefore) + " backend objects outlived the executor";
  out.broken = broken;
  return out;
}

}  // namespace npt::fuzz
