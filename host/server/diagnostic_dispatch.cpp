// SPDX-License-Identifier: MIT
#include "diagnostic_dispatch.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace npt::server {

int null_dispatch(void*, uint32_t, const uint8_t*, size_t, npt_host_reply*) {
  return 0;
}

int diag_dispatch(void* user, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply) {
  auto* state = static_cast<DiagState*>(user);
  uint32_t op = 0;
  if (size < sizeof(op))
    return 1;
  std::memcpy(&op, cmd, sizeof(op));
  switch (op) {
    case kDiagEcho:
      return reply && npt_host_reply_write(reply, cmd, size) != 0;
    case kDiagPush: {
      uint32_t slot;
      if (size < 8)
        return 1;
      std::memcpy(&slot, cmd + 4, 4);
      // A value larger than a slot is refused, not truncated: the context turns fatal.
      return npt_host_context_push_slot(state->context, slot, cmd + 8, size - 8) != 0;
    }
    case kDiagFence: {
      uint32_t index;
      uint64_t value;
      if (size != 16)
        return 1;
      std::memcpy(&index, cmd + 4, 4);
      std::memcpy(&value, cmd + 8, 8);
      npt_host_context_signal_fence(state->context, index, value);
      return 0;
    }
    case kDiagAccum:
      state->count++;
      for (size_t i = 0; i < size; i++)
        state->hash = (state->hash ^ cmd[i]) * 1099511628211ull;
      return 0;
    case kDiagQuery: {
      uint64_t out[2] = { state->count, state->hash };
      return !reply || npt_host_reply_write(reply, out, sizeof(out)) != 0;
    }
    case kDiagAbort:
      std::abort();
    case kDiagBulkHash: {
      uint32_t region;
      uint64_t offset, bytes;
      if (size != 24 || !reply)
        return 1;
      std::memcpy(&region, cmd + 4, 4);
      std::memcpy(&offset, cmd + 8, 8);
      std::memcpy(&bytes, cmd + 16, 8);
      const uint8_t* data = npt_host_context_region_bytes(state->context, region, offset, bytes);
      if (!data)
        return 1;
      uint64_t hash = 1469598103934665603ull;
      for (uint64_t i = 0; i < bytes; i++)
        hash = (hash ^ data[i]) * 1099511628211ull;
      return npt_host_reply_write(reply, &hash, sizeof(hash)) != 0;
    }
    case kDiagReplyArea: {
      uint32_t seed;
      uint64_t bytes;
      if (size != 16 || !reply)
        return 1;
      std::memcpy(&seed, cmd + 4, 4);
      std::memcpy(&bytes, cmd + 8, 8);
      uint32_t region = 0;
      uint8_t* area = npt_host_context_reply_area(state->context, ring, bytes, &region);
      if (!area) {
        npt_host_reply_set_status(reply, int32_t(0x8007000Eu));   // E_OUTOFMEMORY
        return 0;
      }
      for (uint64_t i = 0; i < bytes; i++)
        area[i] = uint8_t(i * 31 + seed);
      uint32_t out[4] = { region, 0, uint32_t(bytes), uint32_t(bytes >> 32) };
      return npt_host_reply_write(reply, out, sizeof(out)) != 0;
    }
    case kDiagSleep: {
      uint32_t ms;
      if (size != 8)
        return 1;
      std::memcpy(&ms, cmd + 4, 4);
      std::this_thread::sleep_for(std::chrono::milliseconds(ms > 10000 ? 10000 : ms));
      return 0;
    }
  }
  return 1;
}

}
