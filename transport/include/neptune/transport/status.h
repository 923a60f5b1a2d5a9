// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

// Results of transport calls are HRESULT values, because the guest runtime returns them
// unchanged to D3D11 applications. Fatal reasons of a context are separate, stable codes
// that the host reports once (in the control block and its log).
namespace npt::transport {

using Status = int32_t;

constexpr Status kOk                 = 0;
constexpr Status kDeviceRemoved      = int32_t(0x887A0005u); // DXGI_ERROR_DEVICE_REMOVED
constexpr Status kOutOfMemory        = int32_t(0x8007000Eu); // E_OUTOFMEMORY
constexpr Status kInvalidArg         = int32_t(0x80070057u); // E_INVALIDARG
constexpr Status kFail               = int32_t(0x80004005u); // E_FAIL
constexpr Status kAccessDenied       = int32_t(0x80070005u); // E_ACCESSDENIED
constexpr Status kTimeout            = int32_t(0x800705B4u); // HRESULT_FROM_WIN32(ERROR_TIMEOUT)
constexpr Status kNotImpl            = int32_t(0x80004001u); // E_NOTIMPL

inline bool failed(Status s) { return s < 0; }

// Why the host made a context fatal. Values are part of the wire contract: never renumber.
enum class FatalReason : uint32_t {
  None              = 0,
  BadRingHead       = 1,  // head behind tail or more than one ring ahead
  BadRecord         = 2,  // unknown kind, size straddles the wrap or exceeds what was published
  BadBulkRef        = 3,  // out-of-line descriptor outside its region or over the command limit
  BadWaitTarget     = 4,  // wait on a ring that does not exist or on the waiting ring itself
  WaitCycle         = 5,  // rings wait on each other in a cycle
  BadReplySlot      = 6,  // reply slot index out of range or already pending
  ReplyTooLarge     = 7,  // the dispatcher produced more than a reply slot holds
  DispatchFailed    = 8,  // the dispatcher (decoder/validator) rejected a command
  Reentrancy        = 9,  // processing re-entered from inside a dispatch callback
  WorkerDied        = 10, // the worker process exited or crashed (set by the server)
  GuestDisconnected = 11,
  BadHandshake      = 12,
  WorkerHung        = 13, // the worker made no progress for the server's watchdog time (set by the server)
  // A guest of a shared-memory device stopped renewing its slot's lease (its process died
  // or hangs), or changed its slot's claim after the handshake (set by the server).
  GuestLeaseExpired = 14,
};

const char* fatal_reason_name(FatalReason reason);

// Handshake refusals: stable codes with a message for the guest's log.
enum class ConnectError : uint32_t {
  None            = 0,
  BadMagic        = 1,
  BadVersion      = 2,
  BadToken        = 3,
  RingCount       = 4,  // more rings than the per-context limit (or zero)
  RingSize        = 5,  // ring size over the limit or not a power of two
  BulkSize        = 6,  // bulk memory over the limit
  ReplySlots      = 7,  // more pending replies than the limit
  PushSlots       = 8,
  TooManyContexts = 9,
  ServerError     = 10, // the server could not create shared memory or a worker
  UnsupportedFeature = 11, // the guest requires a Hello feature (flag bits 16..31) this server does not know
  ProtocolMismatch = 12, // the guest's D3D11 protocol (major version, registry) is not the server's
  ServerMemoryExhausted = 13, // the context's memory reservation does not fit in the server's bound (--max-memory)
};

const char* connect_error_name(ConnectError error);

// What a refused guest's connect returns: E_OUTOFMEMORY where the server has no memory
// left for another context (D3D11CreateDevice's answer when memory runs out),
// E_INVALIDARG for everything the guest asked wrongly or the server does not allow.
inline Status refusal_status(ConnectError error) {
  return error == ConnectError::ServerMemoryExhausted ? kOutOfMemory : kInvalidArg;
}

}
