// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "neptune/host.h"

// Dispatchers of neptune-server until the protocol decoder is wired in:
//  - "null" accepts every command and answers calls with an empty reply;
//  - "diag" interprets a tiny command set that the transport tests and benchmarks use
//    (first word = op). It is not the Neptune protocol.
namespace npt::server {

enum DiagOp : uint32_t {
  kDiagEcho     = 0xD1A60001, // reply = the whole command
  kDiagPush     = 0xD1A60002, // [op, slot, bytes...] → push slot
  kDiagFence    = 0xD1A60003, // [op, index, u64 value] → fence value
  kDiagAccum    = 0xD1A60004, // fire-and-forget: fold bytes into a running hash
  kDiagQuery    = 0xD1A60005, // reply = {u64 count, u64 hash} of accumulated commands
  kDiagAbort    = 0xD1A60006, // crash the worker (isolation tests)
  kDiagSleep    = 0xD1A60007, // [op, ms] then reply empty
  // [op, region, u64 offset, u64 size] → reply {u64 hash} of those bulk bytes; a
  // reference outside the region rejects the command (the context turns fatal).
  kDiagBulkHash = 0xD1A60008,
  // [op, seed, u64 size] → fills the calling ring's reply area with bytes (i * 31 + seed)
  // and replies {u32 region, u32 0, u64 size}; status E_OUTOFMEMORY where refused.
  kDiagReplyArea = 0xD1A60009,
};

struct DiagState {
  npt_host_context* context = nullptr;
  uint64_t count = 0;
  uint64_t hash = 1469598103934665603ull;
};

int diag_dispatch(void* user, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply);
int null_dispatch(void* user, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply);

}
