// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

#include "neptune/transport/handshake.h"
#include "neptune/transport/layout.h"

// The layout of a shared-memory device (QEMU's ivshmem: one region the host server owns,
// which every guest process that opens the device maps whole). README.md, "Shared-memory
// device", says how it is used.
//
//   page 0           DeviceHeader (host-written)
//   slots_offset     slot_count x DeviceSlot (slot_stride bytes each): claim, lease,
//                    handshake mailbox, where the context's memory lies
//   data_offset ..   context memory and bulk regions, allocated by the host in chunks
//
// A context's memory is the layout of layout.h (control block, rings, reply/push/fence
// slots, bulk region 0) at a host-chosen offset; its bulk regions 1..63 are further
// host-chosen ranges, listed in its slot. The host never reads back what it wrote here
// (it keeps its own copies) and reads only the words marked guest-written, each checked.
namespace npt::transport::device {

constexpr uint32_t kDeviceMagic = 0x4454504Eu;   // "NPTD"
constexpr uint32_t kDeviceLayoutVersion = 1;
// Allocation granularity of context memory and regions.
constexpr uint64_t kChunkSize = 64 * 1024;
constexpr uint32_t kMaxSlots = 64;
constexpr uint32_t kSlotStride = 8192;
constexpr uint64_t kSlotsOffset = kPageSize;
// The smallest device worth serving: header, slots and one small context.
constexpr uint64_t kMinDeviceSize = 4ull << 20;
// How often a guest renews its lease (DeviceSlot::guest_heartbeat) and the host its own
// (DeviceHeader::heartbeat).
constexpr uint32_t kGuestHeartbeatMs = 100;
constexpr uint32_t kHostHeartbeatMs = 100;
// How long a guest waits for the host's heartbeat to move before it declares the host
// gone (a server under heavy load still ticks many times within it).
constexpr uint32_t kHostSilenceMs = 3000;

enum DeviceState : uint32_t { kDeviceStopped = 0, kDeviceServing = 1 };

struct DeviceHeader {
  uint32_t magic;
  uint32_t layout_version;
  uint64_t region_size;
  uint32_t slot_count;
  uint32_t slot_stride;
  uint64_t slots_offset;
  uint64_t data_offset;          // context memory and regions lie in [data_offset, region_size)
  uint32_t transport_version;    // kVersion: the newest transport version the server speaks
  uint32_t host_pid;             // informational
  uint64_t server_instance;      // different at every server start: a guest of an earlier one is gone
  alignas(kCacheLine) uint32_t state;   // DeviceState
  // ivshmem-doorbell: 0 when the host takes no doorbell (ivshmem-plain: it polls); else
  // 1 + the peer ID a guest process writes into BAR0's Doorbell register (vector 0) when it
  // finds its context's worker idle, which wakes the worker at once.
  uint32_t doorbell_peer;
  uint64_t heartbeat;            // bumped every kHostHeartbeatMs while serving
  uint64_t doorbell_rings;       // informational: doorbells the host received
};
static_assert(sizeof(DeviceHeader) <= kPageSize);

// Where a slot's context is in its life, as the host says (DeviceSlot::state).
enum SlotState : uint32_t {
  kSlotFree = 0,       // a guest may claim it
  kSlotClaimed = 1,    // claimed; the host waits for the Hello
  kSlotActive = 2,     // the Welcome accepted the guest: its context lies at context_offset
  kSlotRefused = 3,    // the Welcome refused the guest (error and message in it)
  kSlotReclaiming = 4, // the host takes the slot back (lease expired, released, context ended)
};

struct SlotRegion {
  uint64_t offset;   // from the start of the device
  uint64_t size;
};

struct DeviceSlot {
  // Line 0, guest-written.
  uint32_t claim;            // 0 while free; the claiming guest's nonzero nonce (compare-exchange from 0)
  uint32_t request;          // 1 once the Hello is in hello[] (release)
  uint32_t release;          // 1: the guest gives the slot up (its connection ends)
  uint32_t reserved0;
  uint64_t guest_heartbeat;  // bumped every kGuestHeartbeatMs: the lease
  // Line 1, host-written.
  alignas(kCacheLine) uint32_t state;   // SlotState
  uint32_t generation;       // bumped whenever the host takes the slot back
  uint32_t answered;         // 1 once the Welcome is in welcome[] (release)
  uint32_t worker_pid;       // informational
  uint64_t context_offset;   // kSlotActive: the context's memory (ControlBlock first)
  uint64_t context_size;
  uint32_t served_claim;     // the claim the host serves (the guest checks it is its own)
  uint32_t reserved1;
  // Host-written: bulk region n of the context (n = 1..63) once the host granted it; entry
  // 0 is unused (region 0 is inside the context's memory).
  alignas(kCacheLine) SlotRegion regions[kMaxBulkRegions];
  // Guest-written mailbox: the Hello, as on a socket (hello_size bytes, at most kHelloMaxBytes).
  alignas(kCacheLine) uint8_t hello[kHelloMaxBytes];
  // Host-written mailbox: the Welcome.
  alignas(kCacheLine) uint8_t welcome[sizeof(Welcome)];
};
static_assert(sizeof(DeviceSlot) <= kSlotStride);

inline uint64_t data_offset(uint32_t slot_count) {
  return Geometry::align_up(kSlotsOffset + uint64_t(slot_count) * kSlotStride, kChunkSize);
}

}
