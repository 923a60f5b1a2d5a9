// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "neptune/transport/layout.h"
#include "neptune/transport/status.h"

// Host end of one context: consumes the guest's rings. Everything read from shared
// memory is untrusted: the geometry comes from the host's own copy, every index is
// checked, and each command is copied out once before the dispatcher sees it.
namespace npt::transport {

// Where a synchronous command's answer goes: straight into the guest's reply slot,
// bounded by the slot size the host chose.
class Reply {
public:
  Reply(uint8_t* data, uint32_t capacity) : m_data(data), m_capacity(capacity) {}
  bool write(const void* data, size_t size);
  void set_status(Status status) { m_status = status; }
  uint32_t size() const { return m_size; }
  Status status() const { return m_status; }
  bool overflowed() const { return m_overflow; }

private:
  uint8_t* m_data;
  uint32_t m_capacity;
  uint32_t m_size = 0;
  Status m_status = kOk;
  bool m_overflow = false;
};

class Dispatcher {
public:
  virtual ~Dispatcher() = default;
  // span is a private copy of one command; reply is null for fire-and-forget commands.
  // Returning false rejects the command and makes the context fatal.
  virtual bool dispatch(uint32_t ring, const uint8_t* span, size_t size, Reply* reply) = 0;
};

struct HostLimits {
  uint64_t max_command_size = 64ull << 20;   // largest out-of-line command copied out
  uint64_t max_bulk_size = 1ull << 30;       // all bulk regions of the context together, region 0 included
};

// Creates the shared memory of bulk regions added after connect (the embedder's: a memfd,
// a /dev/shm file, a Windows file mapping) and tells the guest how to map it. The memory
// stays valid until the provider is destroyed, after the context.
class RegionProvider {
public:
  virtual ~RegionProvider() = default;
  // size bytes of zeroed guest-visible memory for region id, or null.
  virtual uint8_t* create(uint32_t id, uint64_t size) = 0;
  // Fills grant->share and grant->name (or sends the descriptor on the guest's socket).
  virtual bool share(uint32_t id, RegionGrant* grant) = 0;
  // The guest acknowledged its mapping: a file behind the region may be removed.
  virtual void mapped(uint32_t id) = 0;
  // Nobody uses region id any more (an outgrown reply region the guest let go of): its
  // memory may go. The id may be created again later.
  virtual void release(uint32_t id) { (void)id; }
};

class HostContext {
public:
  // Writes the control block of fresh shared memory (before the guest maps it).
  static void initialize_memory(uint8_t* base, const Geometry& geometry, uint32_t worker_pid);

  HostContext(uint8_t* base, const Geometry& geometry, const HostLimits& limits, Dispatcher* dispatcher);

  // Additional guest-visible regions for BulkRefs (region 0 is the bulk area of base).
  bool attach_region(uint32_t id, uint8_t* base, uint64_t size);
  // Without a provider, a guest's AddRegion is answered E_NOTIMPL.
  void set_region_provider(RegionProvider* provider) { m_provider = provider; }
  // Host-readable bytes [offset, offset + size) of a region, bounded by the size the host
  // gave it; null when the reference leaves it (payload references inside commands).
  const uint8_t* region_bytes(uint32_t region, uint64_t offset, uint64_t size) const;
  // Where a reply of `size` bytes to a call on `ring` may be written, and in which region
  // the guest finds it (at offset 0). A single-ring context answers from region 0, which
  // holds nothing unconsumed while its only ring waits on the call; otherwise (or when
  // region 0 is too small) each ring has its own reply region, created and grown on
  // demand within the bulk limit. Null when the limit or the provider refuses; then *why.
  uint8_t* reply_area(uint32_t ring, uint64_t size, uint32_t* region, std::string* why = nullptr);
  // Called when a reply completes for a guest that blocks on something other than a
  // futex (the server sends a wake byte on the socket).
  void set_guest_waker(std::function<void()> waker) { m_guest_waker = std::move(waker); }

  // Executes published records (at most budget); returns how many it executed. Each ring's
  // head is read at most once per call, and only when nothing read earlier (by has_work)
  // is left: a call may end with more published, so callers repeat until it returns 0.
  size_t process(size_t budget = 4096);
  // Published records that a call of process() could execute. Reads each caught-up ring's
  // head (a bad head makes the context fatal); process() consumes up to what it read.
  bool has_work();

  // Idle announcement: returns false (and stays busy) if work arrived meanwhile.
  bool enter_idle();
  void leave_idle();

  // Publishes a value the guest reads locally. False, and nothing written, when the index
  // is out of range or the value is larger than a slot (kPushSlotPayload bytes): a result
  // is never truncated.
  bool push_slot(uint32_t index, const void* data, size_t size);
  void signal_fence(uint32_t index, uint64_t value);

  void make_fatal(FatalReason reason);
  // Counts a refused creation in the control block (the guest logs it).
  void note_refused_creation(uint32_t object, uint32_t rule);
  FatalReason fatal() const { return m_fatal; }
  const Geometry& geometry() const { return m_geometry; }
  uint64_t executed(uint32_t ring) const { return m_rings[ring].executed; }
  // Bytes of region 0 and every added region: what counts against the bulk limit.
  uint64_t bulk_total() const { return m_bulk_total; }

private:
  struct RingState {
    RingHeader* header;
    uint8_t* data;
    uint64_t tail = 0;
    uint64_t cached_head = 0;
    uint64_t executed = 0;
    uint64_t published_tail = 0;
    uint64_t published_executed = 0;
    uint32_t progress = 0;    // the value of the header's progress word
    bool head_read = false;   // this process() call read the head already
    bool blocked = false;
    uint32_t wait_target = 0;
    uint64_t wait_seq = 0;
  };
  struct Region {
    uint8_t* base = nullptr;
    uint64_t size = 0;
    bool added = false;   // created through the provider after connect (counts against the limit)
    bool granted = false; // the guest was told how to map it (AddRegion, GetRegion)
    bool retired = false; // an outgrown reply region the guest still maps (ReleaseRegion frees it)
  };

  size_t run_ring(uint32_t index, size_t budget);
  // The next `need` bytes of ring from its tail on, in the private copy (copying a new
  // window when they are not there yet); null when fewer are published.
  // Inline: most records lie in the window copied for an earlier one, and this runs per record.
  const uint8_t* window_bytes(RingState& ring, uint32_t index, uint64_t need) {
    if (m_window_ring == index && ring.tail >= m_window_begin && ring.tail <= m_window_end &&
        need <= m_window_end - ring.tail)
      return m_scratch.get() + (ring.tail - m_window_begin);
    return copy_window(ring, index, need);
  }
  const uint8_t* copy_window(RingState& ring, uint32_t index, uint64_t need);
  bool execute(uint32_t ring, const uint8_t* span, size_t size, uint32_t aux);
  bool control(uint32_t ring, const ControlRequest& request, uint32_t aux);
  // Creates region memory through the provider within the bulk limit; 0 and *why on refusal.
  uint32_t add_region(uint64_t size, Status* status, std::string* why);
  // Frees an added region through the provider; it no longer counts against the limit.
  void free_region(uint32_t id);
  ReplySlotHeader* reply_slot_header(uint32_t slot) const;
  void complete_reply(uint32_t slot, const Reply& reply);
  bool refresh_head(RingState& ring);
  // Publishes tail and executed; wakes a guest waiting for them (progress_waiting).
  void publish_progress(RingState& ring);
  void wake_progress(RingState& ring);
  void check_wait_cycles();
  void wake_guest(uint32_t* word, const uint32_t* waiting);

  uint8_t* m_base;
  Geometry m_geometry;
  HostLimits m_limits;
  Dispatcher* m_dispatcher;
  ControlBlock* m_control;
  std::vector<RingState> m_rings;
  std::vector<Region> m_regions;
  std::vector<uint32_t> m_reply_regions;   // per ring: its reply region, 0 for none yet
  uint64_t m_bulk_total = 0;               // region 0 and every added region
  RegionProvider* m_provider = nullptr;
  std::vector<uint32_t> m_reply_seq;
  std::vector<uint32_t> m_push_seq;
  // Private copy of the records being executed: a window of one ring's published bytes,
  // copied once (window_bytes). Not zero-filled: its pages become resident as batches use
  // them, not all at once for every idle context. At most half a ring, the bound of an
  // inline record; a window holds up to kCopyWindow bytes unless one record is larger.
  static constexpr uint64_t kCopyWindow = 16 * 1024;
  std::unique_ptr<uint8_t[]> m_scratch;
  size_t m_scratch_size = 0;
  uint32_t m_window_ring = ~0u;     // whose bytes the window holds
  uint64_t m_window_begin = 0;      // ring offsets (free-running) of the window
  uint64_t m_window_end = 0;
  // Private copy of an out-of-line (Bulk) command, grown to the largest one.
  std::unique_ptr<uint8_t[]> m_bulk_scratch;
  size_t m_bulk_scratch_size = 0;
  std::function<void()> m_guest_waker;
  FatalReason m_fatal = FatalReason::None;
  bool m_processing = false;
};

}
