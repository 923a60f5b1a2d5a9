// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "neptune/transport/bulk_allocator.h"
#include "neptune/transport/handshake.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/ring_writer.h"
#include "neptune/transport/shared_memory.h"
#include "neptune/transport/socket.h"
#include "neptune/transport/status.h"

// The guest end of one context: rings, bulk memory, reply slots and host-pushed slots
// over shared memory. Used by the guest runtime (d3d11.dll/dxgi.dll) and by Triton.
// Every call fails with kDeviceRemoved once the host is gone or declared the context
// fatal; no call waits longer than ~100 ms after that.
namespace npt::transport {

// How the guest wakes an idle host and blocks while waiting for it.
class GuestChannel {
public:
  virtual ~GuestChannel() = default;
  // word: the doorbell counter, already incremented; wake whoever sleeps on it.
  virtual void doorbell(uint32_t* word) = 0;
  // Blocks while *word == expected, until woken or timeout_us passed.
  // Returns false once the host is known to be gone.
  virtual bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) = 0;
  // The descriptor of bulk region `region` the host sent on the connection socket, or -1.
  virtual int receive_region_descriptor(uint32_t region, int timeout_ms) {
    (void)region;
    (void)timeout_ms;
    return -1;
  }
  // A channel that maps the bulk regions added after connect itself (Triton's kernel
  // transport: each region is a kernel blob allocation, triton/kernel/CONTRACT.md): the
  // connection then maps every granted region through map_region, whatever the grant's
  // share says (the host's name or descriptor is not the guest's to open), and gives a
  // released one back through unmap_region. Default: the connection maps the grant.
  virtual bool maps_regions() const { return false; }
  // Region `region` (1..kMaxBulkRegions-1) of exactly `size` bytes; null when it cannot.
  virtual uint8_t* map_region(uint32_t region, uint64_t size) {
    (void)region;
    (void)size;
    return nullptr;
  }
  // The guest no longer uses region `region` (released to the host, or the connection ends).
  virtual void unmap_region(uint32_t region) { (void)region; }
  // Sleeps while *word == expected, at most timeout_us, without asking whether the host is
  // alive (fence watchers). Default: a futex on the word (address_wait); a channel whose
  // memory futexes cannot reach (a device BAR in a VM) polls it.
  virtual void wait_word(const uint32_t* word, uint32_t expected, uint32_t timeout_us);
};

struct GuestOptions {
  uint32_t spin_us = 40;          // spin this long before blocking on a reply
  uint32_t block_slice_us = 10000; // re-check host liveness this often while blocked
};

class GuestConnection {
public:
  // address: the server's UNIX socket path (Linux) or its rendezvous file "<socket>.tcp"
  // holding "port token" (Windows builds, also under Wine). protocol: the D3D11 protocol
  // the guest's commands are in (the guest runtime's; none for transport-only guests): a
  // server that decodes another one refuses at connect (kInvalidArg, ProtocolMismatch
  // and both identities in *error).
  static Status connect(const char* address, const Geometry& geometry,
                        std::unique_ptr<GuestConnection>* out, std::string* error,
                        const ProtocolIdentity& protocol = {});

  // Memory a host already laid out (in-process tests and benchmarks, a VMM guest driver).
  // bulk_regions: the host answers Control records (kWelcomeBulkRegions of a handshake).
  static Status attach(uint8_t* base, size_t size, std::unique_ptr<GuestChannel> channel,
                       std::unique_ptr<GuestConnection>* out, bool bulk_regions = false);

  // A context on a shared-memory device (QEMU ivshmem; README.md, "Shared-memory device"):
  // `device` is the path of the device's memory (a PCI BAR's sysfs resource2 file, or any
  // file standing in for it; Windows builds reach a Linux path through Z:). The Hello and
  // the Welcome go through a slot's mailbox; refusals as connect()'s.
  static Status connect_device(const char* device, const Geometry& geometry, std::unique_ptr<GuestConnection>* out,
                               std::string* error, const ProtocolIdentity& protocol = {});
  // The memory of the first QEMU ivshmem PCI device (1af4:1110) under /sys/bus/pci/devices
  // (Z:\sys\... under Wine), enabled on the way: its resource2 path, or empty.
  static std::string find_ivshmem_device();

  ~GuestConnection();

  const Geometry& geometry() const { return m_geometry; }
  // How this guest wakes the host and is woken: "futex", "socket" or "event".
  const char* wake_mode() const { return m_wake_mode; }
  uint32_t worker_pid() const { return m_control->worker_pid; }
  Status status() const {
    if (m_lost.load(std::memory_order_relaxed) || load_acquire(m_control->device_state) != kDeviceAlive)
      return kDeviceRemoved;
    return kOk;
  }
  // The host's FatalReason once the context is removed (0 while alive).
  uint32_t fatal_reason() const { return load_acquire(m_control->fatal_reason); }
  struct RefusedCreations {
    uint32_t count = 0;
    uint32_t lastObject = 0;
    uint32_t lastRule = 0;
  };
  // The host's count of refused creations, and how many of them arrived since the previous
  // call (each refusal is reported once, whichever ring's producer looks first).
  RefusedCreations take_refused_creations(uint32_t* fresh) {
    RefusedCreations r;
    r.count = load_acquire(m_control->refused_creations);
    r.lastObject = load_relaxed(m_control->last_refused_object);
    r.lastRule = load_relaxed(m_control->last_refused_rule);
    *fresh = r.count - m_refusalsSeen.exchange(r.count, std::memory_order_relaxed);
    return r;
  }
  // The raw shared memory, for diagnostics and for tests that play a hostile guest.
  uint8_t* shared_base() const { return m_base; }
  void set_options(const GuestOptions& options) { m_options = options; }
  // How this connection wakes the host and blocks: for a kernel-side stand-in that made
  // the connection and forwards another user of the same memory's doorbells and waits
  // (triton/kernel's fake kernel).
  GuestChannel& channel() { return *m_channel; }
  // The server's name of the context's memory (its Welcome path; empty for a connection
  // attached to memory): a kernel-side stand-in finds the regions the server names after
  // it (host/server/bulk_regions.h) where a VMM would export them as blobs.
  const std::string& shared_name() const { return m_shared_name; }

  // Fire-and-forget command. Spans larger than the ring allows go out of line.
  Status submit(uint32_t ring, const void* span, size_t size) {
    // Fast path of the common small command; everything else goes through publish_span.
    if (ring < m_rings.size() && size <= m_rings[ring].writer.max_inline_payload() && status() == kOk) {
      RingWriter& w = m_rings[ring].writer;
      if (uint8_t* dst = w.try_reserve(RecordKind::Data, 0, uint32_t(size))) {
        std::memcpy(dst, span, size);
        w.commit();
        ring_doorbell();
        return kOk;
      }
    }
    return publish_span(ring, 0, span, size);
  }
  // Synchronous command: waits for the host's reply (spin, then block).
  Status call(uint32_t ring, const void* span, size_t size,
              void* reply, size_t capacity, size_t* reply_size);
  // Orders ring: its later records execute only after target_ring executed seq records.
  Status wait_for(uint32_t ring, uint32_t target_ring, uint64_t seq);
  // Sequence number of the last record submitted on ring (for wait_for).
  uint64_t submitted(uint32_t ring) const { return m_rings[ring].writer.submitted(); }
  uint64_t executed(uint32_t ring) const { return m_rings[ring].writer.executed(); }
  // Waits until the host executed everything submitted on ring.
  Status finish(uint32_t ring);

  // Host-pushed values: local reads, no round trip.
  bool read_push_slot(uint32_t index, void* out, size_t capacity, size_t* size, uint32_t* version) const;
  uint64_t fence_value(uint32_t index) const;
  // Sleeps until fence slot `index` no longer holds `seen` (the host wakes a slot's
  // sleepers whenever it writes the slot), at most timeout_us. Where the guest has no
  // cross-process address wait (real Windows) it sleeps at most 1 ms instead.
  void wait_fence_change(uint32_t index, uint64_t seen, uint32_t timeout_us) const;

  BulkAllocator& bulk() { return m_bulk; }

  // Bulk regions added after connect (the server granted kWelcomeBulkRegions). Each call
  // below sends its request on `ring`, which the caller owns as it does for submit().
  bool can_add_regions() const { return m_can_add_regions; }
  // Asks the host for another region of at least size bytes for bulk(). kOutOfMemory with
  // the host's reason in *error when the context's bulk limit would be exceeded.
  Status add_bulk_region(uint32_t ring, uint64_t size, std::string* error = nullptr);
  // Adds a region for at least size bytes: as large as region 0 when that is more (a
  // guest that outgrew region 0 once will again), or just size if the limit leaves less.
  Status grow_bulk(uint32_t ring, uint64_t size, std::string* error = nullptr);
  // Makes sure some region could hold size bytes, growing when none can.
  Status reserve_bulk_capacity(uint32_t ring, uint64_t size, std::string* error = nullptr);
  // Bytes [offset, offset + size) of a region (one the host created for replies is mapped
  // on first use), bounded by the region's size; null when outside or unavailable. When a
  // reply on `ring` names a new reply region, the one before it (outgrown: the host
  // replaced it) is unmapped and released to the host, which frees it.
  const uint8_t* region_bytes(uint32_t ring, uint32_t region, uint64_t offset, uint64_t size);

private:
  struct Ring {
    RingWriter writer;
    std::deque<std::pair<uint64_t, BulkRef>> in_flight_bulk;
    uint32_t reply_region = 0;   // the host's reply region of this ring the guest maps, 0 for none
  };

  GuestConnection() = default;
  Status init(uint8_t* base, size_t size);
  Status publish(uint32_t ring, RecordKind kind, uint32_t aux, const void* payload, uint32_t size);
  Status publish_span(uint32_t ring, uint32_t aux, const void* span, size_t size);
  Status wait_reply(uint32_t slot, uint32_t old_seq);
  Status claim_reply_slot(uint32_t* slot);
  Status control_call(uint32_t ring, const ControlRequest& request, RegionGrant* grant, Status* answer);
  // Maps a granted region (m_region_mutex held); the base, or null.
  uint8_t* map_region(uint32_t ring, const RegionGrant& grant);
  // A reply on ring named host-made region `region` (m_region_mutex held): releases the
  // ring's previous reply region when this one replaced it.
  void note_reply_region(uint32_t ring, uint32_t region);
  Status pause_for_host(uint32_t round);
  // Waits for the host's progress on ring (space, execution): spins first, then sleeps on
  // the ring's progress word with its progress_waiting flag set, so that the host's next
  // publication wakes it. ready() is the condition, re-checked after the flag is set.
  template<typename Ready> Status pause_for_ring(uint32_t ring, uint32_t round, Ready ready);
  void reclaim_bulk(Ring& ring);
  void ring_doorbell() {
    // The head was published with a seq_cst exchange; this seq_cst load pairs with the
    // host's seq_cst idle store and head re-read: either it sees our head or we see it idle.
    if (std::atomic_ref<uint32_t>(m_control->host_state).load(std::memory_order_seq_cst) == kHostIdle)
      ring_doorbell_slow();
  }
  void ring_doorbell_slow();
  ReplySlotHeader* reply_slot(uint32_t index) const;

  SharedMapping m_mapping;
  std::string m_shared_name;
  std::unique_ptr<GuestChannel> m_channel;
  const char* m_wake_mode = "futex";
  GuestOptions m_options;
  Geometry m_geometry;
  uint8_t* m_base = nullptr;
  ControlBlock* m_control = nullptr;
  std::vector<Ring> m_rings;
  BulkAllocator m_bulk;
  bool m_can_add_regions = false;
  std::mutex m_region_mutex;                                 // adding and mapping regions
  // A region the guest mapped: by the grant (shared) or through the channel (maps_regions).
  struct RegionMap {
    SharedMapping shared;
    uint8_t* base = nullptr;
    uint64_t size = 0;
    bool by_channel = false;
    bool valid() const { return base != nullptr; }
  };
  // Unmaps region `region` (m_region_mutex held, or the connection ends).
  void unmap_region(uint32_t region);
  std::array<RegionMap, kMaxBulkRegions> m_region_maps;  // regions 1.. once mapped
  std::atomic<uint64_t> m_free_slots{0};
  std::atomic<bool> m_lost{false};
  std::atomic<uint32_t> m_refusalsSeen{0};
};

}
