// SPDX-License-Identifier: MIT
#include "neptune/transport/status.h"

namespace npt::transport {

const char* fatal_reason_name(FatalReason reason) {
  switch (reason) {
    case FatalReason::None:              return "none";
    case FatalReason::BadRingHead:       return "ring head out of range";
    case FatalReason::BadRecord:         return "malformed ring record";
    case FatalReason::BadBulkRef:        return "bulk reference out of bounds";
    case FatalReason::BadWaitTarget:     return "wait on an invalid ring";
    case FatalReason::WaitCycle:         return "rings wait on each other in a cycle";
    case FatalReason::BadReplySlot:      return "reply slot out of range";
    case FatalReason::ReplyTooLarge:     return "reply larger than its slot";
    case FatalReason::DispatchFailed:    return "command rejected by the dispatcher";
    case FatalReason::Reentrancy:        return "ring processing re-entered from a dispatch callback";
    case FatalReason::WorkerDied:        return "worker process died";
    case FatalReason::GuestDisconnected: return "guest disconnected";
    case FatalReason::BadHandshake:      return "bad handshake";
    case FatalReason::WorkerHung:        return "worker made no progress (watchdog)";
    case FatalReason::GuestLeaseExpired: return "guest stopped renewing its device slot's lease";
  }
  return "unknown";
}

const char* connect_error_name(ConnectError error) {
  switch (error) {
    case ConnectError::None:            return "none";
    case ConnectError::BadMagic:        return "not a Neptune handshake";
    case ConnectError::BadVersion:      return "transport version mismatch";
    case ConnectError::BadToken:        return "wrong connection token";
    case ConnectError::RingCount:       return "ring count outside the per-context limit";
    case ConnectError::RingSize:        return "ring size over the limit or not a power of two";
    case ConnectError::BulkSize:        return "bulk memory over the per-context limit";
    case ConnectError::ReplySlots:      return "reply slots (pending replies) over the per-context limit";
    case ConnectError::PushSlots:       return "push slots or fences over the per-context limit";
    case ConnectError::TooManyContexts: return "too many contexts";
    case ConnectError::ServerError:     return "server could not create the context";
    case ConnectError::UnsupportedFeature: return "guest requires a handshake feature this server does not know";
    case ConnectError::ProtocolMismatch: return "guest and server speak different D3D11 protocols";
    case ConnectError::ServerMemoryExhausted: return "server memory exhausted";
  }
  return "unknown";
}

}
