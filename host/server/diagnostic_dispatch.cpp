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
    case kDiagSleep: {
      uint32_t ms;
      if (size != 8)
        return 1;
      std::memcpy(&ms, cmd + 4, 4);
      std::this_thread::sleep_for(std::chrono::milliseconds(ms > 10000 ? 10000 : ms));
      return 0;
    }
  }
  (void)ring;
  return 1;
}

}
