// SPDX-License-Identifier: MIT
#pragma once

// The fuzz input format of the registry target, shared by the harness and the seed
// generator:
//
//   [0]       setup flags: bit 0 the header stays as the image leaves it and the registry
//             attaches as an opener (Registry::attach validates it; a refused header ends
//             the input, code 1), else the creator's header is written over the image;
//             bit 1 reclaimDeadHolders right after attaching (what an opener does)
//   [1..2]    image length L (little endian)
//   [3..4]    image offset / 8 (little endian), modulo the section size
//   [5]       extra copies of the image, one entry record apart (a template entry can
//             fill the table)
//   [6..6+L)  image bytes, written over a zeroed section (clipped at its end)
//   rest      operations: an opcode (Op, modulo kOpCount), then its operands, read as
//             little-endian integers (zero once the input is exhausted)
//
// Operands: h is a handle selector (one byte s, then more): s % 4 == 0 the (s / 4)-th
// handle the honest side was handed (create, findByName, orphans, acquireReference);
// 1: one byte i, the handle of entry i as the section names it now (its kind and
// generation); 2: four bytes, a raw handle; 3: one byte i and two bytes generation, with
// the kind from s. A name is one byte n (0: no name), then n % 72 bytes, one UTF-16 unit
// each (so names of 64 units or more, and embedded zeros, occur).

#include <cstddef>
#include <cstdint>

namespace npt::fuzz {

constexpr size_t kRegistryPrefix = 6;

enum RegistryOp : uint8_t {
  // Honest calls of a context of this process (Registry's public API).
  OpCreate,              // u8 kind, u8 flags, u8 context, u32 contentBytes, u8 descSeed, name
  OpAddFlags,            // h, u8 flags
  OpAcquireReference,    // h, u8 expected kind (bit 2: NT open)
  OpLookup,              // h
  OpReleaseReference,    // h
  OpReclaim,             // (at most kMaxReclaims per input: each asks the system about every holder)
  OpHolders,             // h
  OpAddGuestObject,      // h
  OpReleaseGuestObject,  // h
  OpGuestObjects,        // h (guestObjects, orphaned)
  OpOrphans,             //
  OpServerHeld,          // h, u8 timeout (bit 0: 1 ms, once per input; else 0): markServerHeld then waitUntilServerHolds
  OpRegisterOrphanHolder,
  OpFindByName,          // name
  OpSetFenceValue,       // h, u64 value
  OpSyncEpoch,           // u8 mode, u16 timeout (us, % 200): wake, or wait on the epoch seen now / a stale one
  OpTryAcquireMutex,     // h, u8 context, u8 key
  OpReleaseMutex,        // h, u8 context, u8 key
  OpAbandonMutex,        // h, u8 context
  OpCountCopy,           // h, u32 bytes
  OpLiveEntries,         //
  // A hostile worker.
  OpWrite,               // u32 offset (% size), u8 length (% 65), bytes
  OpWriteEntryWord,      // u8 entry, u16 word index (% words per entry), u32 value
  OpConcurrent,          // u32 offset, u16 length (% 1025), u8 a length (% 17), a bytes, u8 b length, b bytes,
                         // u16 iterations: the next operation runs while a second thread writes
                         // a and b (each repeated over the range) alternately, until the call
                         // returns or the iterations are spent
  kOpCount
};

constexpr uint32_t kMaxReclaims = 4;
constexpr uint32_t kMaxConcurrent = 8;
constexpr uint32_t kMaxOps = 512;

}  // namespace npt::fuzz
