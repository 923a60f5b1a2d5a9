// SPDX-License-Identifier: MIT
#pragma once

// The kernel interface contract between Triton (the user-mode driver) and a Neptune
// kernel-mode driver (a virtio-gpu display miniport): the private data of pfnEscapeCb
// and of the blob allocations Triton makes through pfnAllocateCb. CONTRACT.md beside
// this folder explains every field; this header is its normative form.
//
// Every structure has fixed-width members only, no pointers, natural alignment and
// explicit padding: the layout is identical for x86, x64 and ARM64 user-mode drivers
// and a 64-bit kernel, little-endian. The static_asserts at the end pin each size and
// offset; a change of any of them is a new contract version.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace triton::kernel {

// --- Versions and identities ----------------------------------------------------------

inline constexpr uint32_t kEscapeMagic = 0x454B504Eu;      // "NPKE" in memory
inline constexpr uint16_t kContractVersion = 1;             // this header
inline constexpr uint16_t kContractMinVersion = 1;          // the oldest a kernel of this header serves
// The virtio-gpu capability set (VIRTIO_GPU_CMD_GET_CAPSET_INFO / GET_CAPSET) and
// context type (VIRTIO_GPU_CMD_CTX_CREATE's context_init) of Neptune. Not assigned by
// the virtio specification; the VMM and the kernel driver agree on it.
inline constexpr uint32_t kNeptuneCapsetId = 0x4E50u;       // "NP"
inline constexpr uint32_t kNeptuneCapsetVersion = 1;
inline constexpr uint32_t kBlobMagic = 0x424B504Eu;         // "NPKB": allocation private data
inline constexpr uint32_t kContextBlobId = 0;               // blob 0: the context's memory (control block..region 0)
// Blobs 1..63: the bulk regions the host adds after creation (granted kCapsetBulkRegions),
// blob id = the transport's region id (transport/README.md, "Bulk regions added after connect").
inline constexpr uint32_t kFirstRegionBlobId = 1;
inline constexpr uint32_t kMaxBlobId = 63;

// --- Escape header ---------------------------------------------------------------------

enum class EscapeCode : uint16_t {
  QueryCapset = 1,     // body: CapsetBody (out)
  CreateContext = 2,   // body: CreateContextBody (in/out)
  DestroyContext = 3,  // body: ContextBody (in)
  Notify = 4,          // body: NotifyBody (in): the doorbell
  Wait = 5,            // body: WaitBody (in/out): sleep until a 32-bit word in a blob changes
};

// What the kernel wrote into EscapeHeader::status. Stable numbers: never renumbered.
enum class KernelStatus : int32_t {
  Ok = 0,
  BadVersion = 1,        // header version outside [kernel_min_version, kernel_max_version] (both written)
  BadSize = 2,           // header.size != PrivateDriverDataSize, or not the code's exact size
  UnknownCode = 3,
  BadArgument = 4,       // a body field out of range (named per code in CONTRACT.md)
  NoContext = 5,         // context id unknown to this process, or already destroyed
  ContextExists = 6,     // this process already has a Neptune context
  ContextLost = 7,       // the host ended the context (device removed) or is gone
  Timeout = 8,           // Wait: the word still held the expected value at the timeout
  Refused = 9,           // the host refused the geometry (limits); message holds its reason
  HostUnavailable = 10,  // no Neptune host behind this adapter (no capset)
};

// The first 24 bytes of every escape's private data. The user-mode driver fills magic,
// version, code and size and zeroes the rest; the kernel answers in status and, always,
// in kernel_min_version/kernel_max_version.
struct EscapeHeader {
  uint32_t magic;               // kEscapeMagic
  uint16_t version;             // the contract version the user-mode driver speaks
  uint16_t code;                // EscapeCode
  uint32_t size;                // bytes of header + body; equals D3DDDICB_ESCAPE::PrivateDriverDataSize
  int32_t status;               // out: KernelStatus
  uint16_t kernel_min_version;  // out: the versions the kernel serves
  uint16_t kernel_max_version;
  uint32_t reserved;            // 0
};

// --- Bodies ------------------------------------------------------------------------------

// The Neptune capability set as the host describes it (the virtio-gpu capset's bytes).
struct Capset {
  uint32_t capset_id;                 // kNeptuneCapsetId
  uint32_t capset_version;            // kNeptuneCapsetVersion
  uint32_t transport_min_version;     // shared-memory layout versions the host speaks (transport/layout.h)
  uint32_t transport_max_version;
  uint32_t max_rings;                 // per-context limits (transport/README.md "Limits")
  uint32_t max_ring_size;
  uint32_t max_reply_slots;
  uint32_t max_push_slots;
  uint32_t max_fences;
  uint32_t flags;                     // CapsetFlags
  uint64_t max_bulk_size;
};
enum CapsetFlags : uint32_t {
  kCapsetBulkRegions = 1u << 0,       // the host adds bulk regions after creation (blob ids 1..63)
};

struct CapsetBody {
  EscapeHeader header;
  Capset capset;                      // out
};

// The geometry Triton asks for: the transport's Geometry, field for field.
struct ContextGeometry {
  uint32_t ring_count;
  uint32_t ring_size;
  uint32_t reply_slot_count;
  uint32_t reply_slot_size;
  uint32_t push_slot_count;
  uint32_t fence_count;
  uint64_t bulk_size;
};

struct CreateContextBody {
  EscapeHeader header;
  uint32_t capset_id;                 // in: kNeptuneCapsetId (virtio-gpu context_init)
  uint32_t flags;                     // in: 0
  ContextGeometry geometry;           // in
  uint32_t context_id;                // out: nonzero; names the context in later escapes and blobs
  uint32_t transport_version;         // out: the layout version the host laid blob 0 out in
  uint64_t context_blob_size;         // out: bytes of blob 0 (the whole context memory)
  uint32_t granted_flags;             // out: CapsetFlags granted to this context
  uint32_t reserved;
  char message[128];                  // out: the host's reason when status is Refused (NUL-terminated)
};

struct ContextBody {
  EscapeHeader header;
  uint32_t context_id;
  uint32_t reserved;
};

// The doorbell: the guest incremented the control block's doorbell word after finding
// the host idle; the kernel wakes the host's worker for the context.
struct NotifyBody {
  EscapeHeader header;
  uint32_t context_id;
  uint32_t doorbell;                  // the doorbell word's new value (informational)
};

// Sleeps until the 32-bit word at (blob, offset) no longer holds `expected`, the host
// wakes the context's waiters, or timeout_us passes. Reply slots and fence values are
// such words (transport/layout.h); a fence is waited for through its low half.
struct WaitBody {
  EscapeHeader header;
  uint32_t context_id;
  uint32_t blob_id;                   // kContextBlobId, or a bulk region id
  uint64_t offset;                    // 4-aligned, inside the blob
  uint32_t expected;
  uint32_t timeout_us;                // at most kMaxWaitMicroseconds
  uint32_t value;                     // out: the word when the kernel returned
  uint32_t reserved;
};
inline constexpr uint32_t kMaxWaitMicroseconds = 1000000;

// --- Blob allocations ---------------------------------------------------------------------

// D3DDDI_ALLOCATIONINFO::pPrivateDriverData of the one allocation of a pfnAllocateCb
// call with hResource null: the kernel creates (or looks up) the context's blob
// (VIRTIO_GPU_CMD_RESOURCE_CREATE_BLOB, blob_mem HOST3D, blob_flags MAPPABLE, blob_id)
// and pfnLockCb maps it into the process.
struct BlobAllocation {
  uint32_t magic;                     // kBlobMagic
  uint16_t version;                   // kContractVersion
  uint16_t reserved0;
  uint32_t context_id;
  uint32_t blob_id;                   // kContextBlobId or a bulk region id 1..63
  uint64_t size;                      // bytes; must equal the blob's size the host chose
  uint64_t reserved1;
};

// --- Layout checks (identical on every architecture) ------------------------------------

static_assert(sizeof(EscapeHeader) == 24);
static_assert(offsetof(EscapeHeader, code) == 6 && offsetof(EscapeHeader, size) == 8 &&
              offsetof(EscapeHeader, status) == 12 && offsetof(EscapeHeader, kernel_min_version) == 16);
static_assert(sizeof(Capset) == 48 && offsetof(Capset, max_bulk_size) == 40);
static_assert(sizeof(CapsetBody) == 72);
static_assert(sizeof(ContextGeometry) == 32 && offsetof(ContextGeometry, bulk_size) == 24);
static_assert(sizeof(CreateContextBody) == 216);
static_assert(offsetof(CreateContextBody, geometry) == 32 && offsetof(CreateContextBody, context_id) == 64 &&
              offsetof(CreateContextBody, context_blob_size) == 72 && offsetof(CreateContextBody, message) == 88);
static_assert(sizeof(ContextBody) == 32);
static_assert(sizeof(NotifyBody) == 32);
static_assert(sizeof(WaitBody) == 56 && offsetof(WaitBody, offset) == 32 && offsetof(WaitBody, value) == 48);
static_assert(sizeof(BlobAllocation) == 32 && offsetof(BlobAllocation, size) == 16);
static_assert(alignof(CreateContextBody) == 8 && alignof(WaitBody) == 8);

// The exact size of each code's private data.
constexpr uint32_t escapeSize(EscapeCode code) {
  switch (code) {
    case EscapeCode::QueryCapset: return sizeof(CapsetBody);
    case EscapeCode::CreateContext: return sizeof(CreateContextBody);
    case EscapeCode::DestroyContext: return sizeof(ContextBody);
    case EscapeCode::Notify: return sizeof(NotifyBody);
    case EscapeCode::Wait: return sizeof(WaitBody);
  }
  return 0;
}

// A header for `code`, as the user-mode driver sends it.
constexpr EscapeHeader escapeHeader(EscapeCode code) {
  return EscapeHeader{kEscapeMagic, kContractVersion, uint16_t(code), escapeSize(code), 0, 0, 0, 0};
}

// The kernel side's first checks of an escape (CONTRACT.md "Validation"), shared by the
// fake kernel and any kernel written from this header. Returns false when the buffer is
// not a Neptune escape at all (null, shorter than a header, wrong magic): the kernel
// answers STATUS_INVALID_PARAMETER and writes nothing. Otherwise *status is what the
// kernel writes (Ok: the code's handler runs).
inline bool checkEscape(const void* data, uint32_t dataSize, KernelStatus* status) {
  if (!data || dataSize < sizeof(EscapeHeader))
    return false;
  EscapeHeader header;
  std::memcpy(&header, data, sizeof(header));
  if (header.magic != kEscapeMagic)
    return false;
  if (header.version < kContractMinVersion || header.version > kContractVersion)
    *status = KernelStatus::BadVersion;
  else if (header.size != dataSize)
    *status = KernelStatus::BadSize;
  else if (escapeSize(EscapeCode(header.code)) == 0)
    *status = KernelStatus::UnknownCode;
  else if (header.size != escapeSize(EscapeCode(header.code)))
    *status = KernelStatus::BadSize;
  else
    *status = KernelStatus::Ok;
  return true;
}

}  // namespace triton::kernel
