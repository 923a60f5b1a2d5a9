// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

// The shared-memory layout of one context. The same bytes are what a virtio-gpu blob
// would carry; nothing here contains a pointer. Written by both sides, so every field
// the host reads is treated as hostile: the host keeps its own copy of the geometry and
// never trusts the guest-writable words beyond bounds checks.
//
//   [ControlBlock][RingHeader+data] x ring_count [ReplySlot] x n [PushSlot] x n
//   [fence values] [bulk region 0]
//
// Further bulk regions (1..kMaxBulkRegions-1) are separate shared memory the host creates
// after connect, at the guest's request (ControlOp::AddRegion) or for large replies.
namespace npt::transport {

constexpr uint32_t kMagic   = 0x5454504Eu; // "NPTT"
constexpr uint32_t kVersion = 4;  // handshake.h: kMinVersion, what changed
constexpr size_t   kCacheLine = 64;
constexpr size_t   kPageSize  = 4096;

enum DeviceState : uint32_t { kDeviceAlive = 0, kDeviceRemovedState = 1 };
enum HostState   : uint32_t { kHostBusy = 0, kHostIdle = 1 };

// Fields of one cache line are written by one side only (head/tail/status separate),
// so the producer and the consumer never false-share.
struct ControlBlock {
  // Line 0: geometry, written by the host before the guest maps the memory.
  uint32_t magic;
  uint32_t version;
  uint32_t ring_count;
  uint32_t ring_size;          // bytes of ring data, power of two
  uint32_t reply_slot_count;
  uint32_t reply_slot_size;    // payload bytes per reply slot
  uint32_t push_slot_count;
  uint32_t fence_count;
  uint64_t bulk_offset;
  uint64_t bulk_size;
  uint64_t total_size;
  uint32_t worker_pid;         // informational (tests, logs)
  uint32_t reserved0;

  // Line 1: device status, written by the host (worker or server parent).
  alignas(kCacheLine) uint32_t device_state;
  uint32_t fatal_reason;
  // Creations the guest recorded fire-and-forget that the host refused (its validation or
  // the backend): how many, and the last one's object id and validation rule code (0 when
  // the backend refused). Zero from hosts that predate these words.
  uint32_t refused_creations;
  uint32_t last_refused_object;
  uint32_t last_refused_rule;

  // Line 2: host idle announcement; the guest rings the doorbell only when idle.
  alignas(kCacheLine) uint32_t host_state;

  // Line 3: guest-written. The doorbell is a counter the idle host sleeps on (futex).
  alignas(kCacheLine) uint32_t doorbell;
  uint32_t guest_flags;
};
static_assert(sizeof(ControlBlock) <= kPageSize);

struct RingHeader {
  alignas(kCacheLine) uint64_t head;          // guest: bytes published (free-running)
  alignas(kCacheLine) uint64_t tail;          // host: bytes consumed (free-running)
  uint64_t executed;                          // host: records executed
  // host: bumped, and its sleepers woken, when the host publishes tail or executed while
  // progress_waiting is set (and when the context turns fatal).
  uint32_t progress;
  alignas(kCacheLine) uint32_t state;         // host: 0 alive, else FatalReason
  uint32_t reserved;
  // guest: 1 while the producer sleeps on progress, waiting for ring space, for its
  // records to execute (finish) or for its bulk memory to come back. The host reads it
  // after each publication of progress (a Dekker pair like the host's idle word): either
  // the guest sees the new tail or the host sees the flag and wakes it. Zero from guests
  // older than this word, whom nobody wakes (they sleep in short slices).
  alignas(kCacheLine) uint32_t progress_waiting;
};
constexpr size_t kRingHeaderSize = 256;
static_assert(sizeof(RingHeader) <= kRingHeaderSize);

// A record in a ring: 8-byte header, payload, padded to 8 bytes. A record never
// straddles the end of the ring; a Pad record skips to it.
enum class RecordKind : uint32_t {
  Data = 1,   // payload is the command span (its first word belongs to the protocol)
  Bulk = 2,   // payload is a BulkRef to the span (commands larger than a ring allows)
  Wait = 3,   // aux = ring index, payload = uint64 sequence: wait until that ring executed it
  Pad  = 4,   // skip to the end of the ring
  // payload is a ControlRequest to the transport itself (never dispatched); aux = reply
  // slot + 1 where the op answers. Sent only to a server that granted kWelcomeBulkRegions.
  Control = 5,
};

struct RecordHeader {
  uint32_t size_kind;   // payload bytes in bits 0..27, RecordKind in 28..31
  uint32_t aux;         // Data/Bulk: reply slot + 1 (0 = no reply); Wait: ring index
};

constexpr uint32_t kRecordSizeMask = 0x0FFFFFFFu;
constexpr uint32_t make_size_kind(RecordKind kind, uint32_t size) {
  return (uint32_t(kind) << 28) | (size & kRecordSizeMask);
}
constexpr size_t align8(size_t v) { return (v + 7) & ~size_t(7); }

// Out-of-line reference into guest-visible shared memory.
struct BulkRef {
  uint32_t region;
  uint32_t reserved;
  uint64_t offset;
  uint64_t size;
};

// Bulk regions of one context: region 0 lies inside the context's memory, the others are
// added after connect. Their sizes together stay within the context's bulk limit.
constexpr uint32_t kMaxBulkRegions = 64;

enum class ControlOp : uint32_t {
  AddRegion    = 1, // size: bytes wanted; answer: RegionGrant of a new region for the guest's allocator
  GetRegion    = 2, // region: a region the host created for replies; answer: its RegionGrant
  RegionMapped = 3, // region: the guest mapped it (no answer); a file behind it may be removed now
  // region: a reply region the host replaced by a larger one, which the guest unmapped (no
  // answer); the host frees it and it no longer counts against the bulk limit.
  ReleaseRegion = 4,
};
struct ControlRequest {
  uint32_t op;
  uint32_t region;
  uint64_t size;
};

// How the guest maps a region (RegionGrant::share).
enum RegionShare : uint32_t {
  kRegionByName = 1,       // name: a Linux path (/dev/shm/..., through Z: under Wine) or a Windows mapping name
  kRegionByDescriptor = 2, // a descriptor follows on the connection socket (SCM_RIGHTS, RegionFdMessage)
  kRegionInDevice = 3,     // inside the shared-memory device: the context's slot lists offset and size (device_layout.h)
};
// The answer to AddRegion/GetRegion in the reply slot. On a refusal (status E_OUTOFMEMORY:
// the bulk limit; E_NOTIMPL: this host adds no regions; E_FAIL: the host could not create
// it) only message, bulk_total and bulk_limit are meaningful.
struct RegionGrant {
  uint32_t region;
  uint32_t share;
  uint64_t size;
  uint64_t bulk_total;  // bytes of all the context's regions, this one included
  uint64_t bulk_limit;  // the context's limit on that total
  char name[256];
  char message[192];
};
// The bytes that carry a region's descriptor on the socket.
struct RegionFdMessage {
  uint32_t magic;   // kRegionFdMagic
  uint32_t region;
};
constexpr uint32_t kRegionFdMagic = 0x52464E50u; // "PNFR"

struct ReplySlotHeader {
  uint32_t seq;         // host: bumped (release) after the reply is complete
  uint32_t size;        // host: reply bytes
  uint32_t status;      // host: 0 or a failure HRESULT
  uint32_t waiting;     // guest: 1 while a thread blocks on this slot
};
// The payload follows the header directly, so a small reply shares the cache line of the
// sequence word: the guest's wait ends with one line transfer, not two.
constexpr size_t kReplySlotHeaderSize = sizeof(ReplySlotHeader);

// Host-pushed values (query results) the guest reads locally. A seqlock: seq is odd
// while the host writes.
constexpr size_t kPushSlotPayload = 120;   // the largest value a push slot holds
struct PushSlot {
  uint32_t seq;
  uint32_t size;
  uint8_t  data[kPushSlotPayload];
};
static_assert(sizeof(PushSlot) == 128);

// Offsets computed identically by both sides from the geometry in line 0.
struct Geometry {
  uint32_t ring_count = 1;
  uint32_t ring_size = 1u << 20;
  uint32_t reply_slot_count = 4;
  uint32_t reply_slot_size = 4096;
  uint32_t push_slot_count = 64;
  uint32_t fence_count = 16;
  uint64_t bulk_size = 16u << 20;

  uint64_t ring_stride() const { return kRingHeaderSize + uint64_t(ring_size); }
  uint64_t rings_offset() const { return kPageSize; }
  uint64_t replies_offset() const { return rings_offset() + ring_stride() * ring_count; }
  uint64_t reply_stride() const { return align_up(kReplySlotHeaderSize + reply_slot_size, kCacheLine); }
  uint64_t push_offset() const { return replies_offset() + reply_stride() * reply_slot_count; }
  uint64_t fences_offset() const { return push_offset() + sizeof(PushSlot) * uint64_t(push_slot_count); }
  uint64_t bulk_offset() const { return align_up(fences_offset() + 8ull * fence_count, kPageSize); }
  uint64_t total_size() const { return align_up(bulk_offset() + bulk_size, kPageSize); }

  static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
};

// Shared words are accessed through atomic_ref: the other side is another process.
template<typename T> T load_acquire(const T& v) {
  return std::atomic_ref<T>(const_cast<T&>(v)).load(std::memory_order_acquire);
}
template<typename T> T load_relaxed(const T& v) {
  return std::atomic_ref<T>(const_cast<T&>(v)).load(std::memory_order_relaxed);
}
template<typename T> void store_release(T& v, T value) {
  std::atomic_ref<T>(v).store(value, std::memory_order_release);
}
template<typename T> void store_seq_cst(T& v, T value) {
  std::atomic_ref<T>(v).store(value, std::memory_order_seq_cst);
}

}
