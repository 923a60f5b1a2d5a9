// SPDX-License-Identifier: MIT
#include "neptune/transport/host_context.h"

#include <atomic>
#include <cstdio>
#include <cstring>

#include "neptune/transport/wait.h"

namespace npt::transport {

bool Reply::write(const void* data, size_t size) {
  if (m_overflow || size > m_capacity - m_size) {
    m_overflow = true;
    return false;
  }
  std::memcpy(m_data + m_size, data, size);
  m_size += uint32_t(size);
  return true;
}

void HostContext::initialize_memory(uint8_t* base, const Geometry& g, uint32_t worker_pid) {
  auto* c = reinterpret_cast<ControlBlock*>(base);
  c->version = kVersion;
  c->ring_count = g.ring_count;
  c->ring_size = g.ring_size;
  c->reply_slot_count = g.reply_slot_count;
  c->reply_slot_size = g.reply_slot_size;
  c->push_slot_count = g.push_slot_count;
  c->fence_count = g.fence_count;
  c->bulk_offset = g.bulk_offset();
  c->bulk_size = g.bulk_size;
  c->total_size = g.total_size();
  c->worker_pid = worker_pid;
  c->device_state = kDeviceAlive;
  c->host_state = kHostBusy;
  store_release(c->magic, kMagic);
}

HostContext::HostContext(uint8_t* base, const Geometry& g, const HostLimits& limits, Dispatcher* dispatcher)
: m_base(base), m_geometry(g), m_limits(limits), m_dispatcher(dispatcher),
  m_control(reinterpret_cast<ControlBlock*>(base)) {
  m_rings.resize(g.ring_count);
  for (uint32_t i = 0; i < g.ring_count; i++) {
    uint8_t* r = base + g.rings_offset() + g.ring_stride() * i;
    m_rings[i].header = reinterpret_cast<RingHeader*>(r);
    m_rings[i].data = r + kRingHeaderSize;
  }
  m_regions.resize(1);
  m_regions[0] = { base + g.bulk_offset(), g.bulk_size, false };
  m_reply_regions.assign(g.ring_count, 0);
  m_bulk_total = g.bulk_size;
  m_reply_seq.assign(g.reply_slot_count, 0);
  m_push_seq.assign(g.push_slot_count, 0);
  m_scratch_size = g.ring_size / 2;
  m_scratch = std::make_unique_for_overwrite<uint8_t[]>(m_scratch_size);
}

bool HostContext::attach_region(uint32_t id, uint8_t* base, uint64_t size) {
  if (id == 0 || id > 255)
    return false;
  if (m_regions.size() <= id)
    m_regions.resize(id + 1);
  m_regions[id] = { base, size, false };
  return true;
}

const uint8_t* HostContext::region_bytes(uint32_t region, uint64_t offset, uint64_t size) const {
  if (region >= m_regions.size())
    return nullptr;
  const Region& r = m_regions[region];
  if (!r.base || offset > r.size || size > r.size - offset)
    return nullptr;
  return r.base + offset;
}

uint32_t HostContext::add_region(uint64_t size, Status* status, std::string* why) {
  auto refuse = [&](Status s, const std::string& text) {
    *status = s;
    *why = text;
    return 0u;
  };
  if (!m_provider)
    return refuse(kNotImpl, "this host adds no bulk regions");
  const uint64_t limit = m_limits.max_bulk_size;
  const uint64_t in_use = m_bulk_total < limit ? m_bulk_total : limit;
  const uint64_t rounded = size > limit ? limit + 1 : Geometry::align_up(size ? size : 1, kPageSize);
  uint32_t regions = 0;
  for (const Region& r : m_regions)
    regions += r.base != nullptr;
  if (rounded > limit - in_use) {
    return refuse(kOutOfMemory, "bulk memory limit: " + std::to_string(m_bulk_total) + " bytes in " +
                                    std::to_string(regions) + " regions, " + std::to_string(size) +
                                    " more asked, the context's limit is " + std::to_string(limit) + " bytes");
  }
  uint32_t id = 1;
  while (id < kMaxBulkRegions && id < m_regions.size() && m_regions[id].base)
    id++;
  if (id >= kMaxBulkRegions)
    return refuse(kOutOfMemory, "all " + std::to_string(kMaxBulkRegions - 1) + " added bulk regions are in use");
  uint8_t* base = m_provider->create(id, rounded);
  if (!base)
    return refuse(kFail, "the host could not create a region of " + std::to_string(rounded) + " bytes");
  if (m_regions.size() <= id)
    m_regions.resize(id + 1);
  m_regions[id] = { base, rounded, true };
  m_bulk_total += rounded;
  *status = kOk;
  return id;
}

uint8_t* HostContext::reply_area(uint32_t ring, uint64_t size, uint32_t* region, std::string* why) {
  std::string text;
  if (ring >= m_rings.size() || m_fatal != FatalReason::None) {
    if (why)
      *why = "no such ring";
    return nullptr;
  }
  if (m_rings.size() == 1 && size <= m_regions[0].size) {
    *region = 0;
    return m_regions[0].base;
  }
  uint32_t& current = m_reply_regions[ring];
  if (current && m_regions[current].size >= size) {
    *region = current;
    return m_regions[current].base;
  }
  // Grow geometrically so that a guest reading ever larger subresources asks rarely.
  const uint64_t doubled = current ? m_regions[current].size * 2 : 0;
  // The outgrown region holds no reply the guest still reads: this ring's calls are answered
  // one at a time and each reply is read before the next call. One the guest never mapped
  // goes at once (its memory may count for the new one); one it mapped stays until the
  // guest unmapped it and says so (ReleaseRegion), for the host must not reuse its id while
  // the guest may still map the old memory under it.
  const uint32_t outgrown = current;
  if (outgrown && !m_regions[outgrown].granted) {
    free_region(outgrown);
    current = 0;
  }
  Status status = kOk;
  uint32_t id = doubled > size ? add_region(doubled, &status, &text) : 0;
  if (!id)
    id = add_region(size, &status, &text);
  if (!id) {
    if (why)
      *why = text;
    return nullptr;
  }
  if (current)
    m_regions[current].retired = true;
  current = id;
  *region = id;
  return m_regions[id].base;
}

void HostContext::free_region(uint32_t id) {
  Region& r = m_regions[id];
  m_bulk_total -= r.size;
  m_regions[id] = {};
  for (uint32_t& reply_region : m_reply_regions)
    if (reply_region == id)
      reply_region = 0;
  if (m_provider)
    m_provider->release(id);
}

void HostContext::make_fatal(FatalReason reason) {
  if (m_fatal != FatalReason::None)
    return;
  m_fatal = reason;
  store_release(m_control->fatal_reason, uint32_t(reason));
  store_seq_cst(m_control->device_state, uint32_t(kDeviceRemovedState));
  for (auto& r : m_rings) {
    store_release(r.header->state, uint32_t(reason));
    store_release(r.header->progress, ++r.progress);
    address_wake_all(&r.header->progress);
  }
  address_wake_all(&m_control->device_state);
  for (uint32_t i = 0; i < m_geometry.reply_slot_count; i++)
    address_wake_all(&reply_slot_header(i)->seq);
  if (m_guest_waker)
    m_guest_waker();
}

void HostContext::note_refused_creation(uint32_t object, uint32_t rule) {
  store_release(m_control->last_refused_object, object);
  store_release(m_control->last_refused_rule, rule);
  store_release(m_control->refused_creations, load_relaxed(m_control->refused_creations) + 1);
}

bool HostContext::refresh_head(RingState& r) {
  uint64_t head = load_acquire(r.header->head);
  // Unsigned: a head behind the tail shows up as more than a ring ahead.
  if (head - r.tail > m_geometry.ring_size || (head & 7)) {
    make_fatal(FatalReason::BadRingHead);
    return false;
  }
  r.cached_head = head;
  return true;
}

void HostContext::publish_progress(RingState& r) {
  if (r.tail == r.published_tail && r.executed == r.published_executed)
    return;
  store_release(r.header->executed, r.executed);
  store_release(r.header->tail, r.tail);
  r.published_tail = r.tail;
  r.published_executed = r.executed;
  // Pairs with the guest's store of progress_waiting before it re-checks the tail: either
  // it sees what was just published or this load sees it waiting.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (load_relaxed(r.header->progress_waiting))
    wake_progress(r);
}

void HostContext::wake_progress(RingState& r) {
  store_release(r.header->progress, ++r.progress);
  address_wake_all(&r.header->progress);
  if (m_guest_waker)
    m_guest_waker();
}

bool HostContext::has_work() {
  if (m_fatal != FatalReason::None)
    return false;
  bool work = false;
  for (auto& r : m_rings) {
    if (r.blocked) {
      work |= m_rings[r.wait_target].executed >= r.wait_seq;
      continue;
    }
    // The head read here is the one the next process() consumes up to: one read of the
    // guest's line per batch, however many records the batch holds.
    if (r.cached_head == r.tail && !refresh_head(r))
      return false;
    work |= r.cached_head != r.tail;
  }
  return work;
}

bool HostContext::enter_idle() {
  store_seq_cst(m_control->host_state, uint32_t(kHostIdle));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // Re-read every head in the same total order as the guest's exchange of it.
  bool work = false;
  for (auto& r : m_rings)
    work |= std::atomic_ref<uint64_t>(r.header->head).load(std::memory_order_seq_cst) != r.tail;
  if (work || has_work()) {
    leave_idle();
    return false;
  }
  return true;
}

void HostContext::leave_idle() {
  store_release(m_control->host_state, uint32_t(kHostBusy));
}

size_t HostContext::process(size_t budget) {
  if (m_processing) {
    make_fatal(FatalReason::Reentrancy);
    return 0;
  }
  if (m_fatal != FatalReason::None)
    return 0;
  m_processing = true;
  // A ring with records left from the head read last (by has_work or an earlier call)
  // consumes those; only a ring with nothing known reads its head, once.
  for (auto& r : m_rings)
    r.head_read = r.cached_head != r.tail;
  size_t done = 0;
  bool progress = true;
  while (progress && done < budget && m_fatal == FatalReason::None) {
    progress = false;
    for (uint32_t i = 0; i < m_rings.size() && m_fatal == FatalReason::None; i++) {
      size_t n = run_ring(i, budget - done < 256 ? budget - done : 256);
      if (n) {
        progress = true;
        done += n;
      }
    }
  }
  if (m_fatal == FatalReason::None) {
    for (auto& r : m_rings)
      publish_progress(r);
    if (!progress)
      check_wait_cycles();
  }
  m_processing = false;
  return done;
}

const uint8_t* HostContext::copy_window(RingState& r, uint32_t ring, uint64_t need) {
  const uint64_t size = m_geometry.ring_size;
  // Copy from the tail on: at least `need` bytes, up to kCopyWindow, never past the head
  // read last or the end of the ring. One memcpy for a batch of small records costs far
  // less than one per record, and every check below reads the private copy.
  const uint64_t pos = r.tail & (size - 1);
  uint64_t n = r.cached_head - r.tail;
  if (n > size - pos)
    n = size - pos;
  const uint64_t want = need > kCopyWindow ? need : kCopyWindow;
  if (n > want)
    n = want;
  if (n > m_scratch_size)
    n = m_scratch_size;
  if (n < need)
    return nullptr;
  std::memcpy(m_scratch.get(), r.data + pos, size_t(n));
  m_window_ring = ring;
  m_window_begin = r.tail;
  m_window_end = r.tail + n;
  return m_scratch.get();
}

size_t HostContext::run_ring(uint32_t index, size_t budget) {
  RingState& r = m_rings[index];
  const uint32_t size = m_geometry.ring_size;
  size_t count = 0;
  // A dispatch can make the context fatal (re-entrancy, the executor's validation):
  // nothing more runs after that.
  while (count < budget && m_fatal == FatalReason::None) {
    if (r.blocked) {
      if (m_rings[r.wait_target].executed < r.wait_seq)
        break;
      r.blocked = false;
      r.executed++;
      count++;
      continue;
    }
    if (r.cached_head == r.tail) {
      // Consume up to the head read last, then stop: reading it again at once, record by
      // record, would pull the head's cache line from a producer that is writing it
      // (the slow mode of bench/transport). The caller polls gently before the next read.
      if (r.head_read || !refresh_head(r) || r.cached_head == r.tail)
        break;
      r.head_read = true;
    }

    const uint64_t available = r.cached_head - r.tail;
    const uint64_t pos = r.tail & (size - 1);
    const uint64_t contiguous = size - pos;
    // The head is 8-aligned and ahead of the tail, so a header's 8 bytes are published.
    const uint8_t* record = window_bytes(r, index, sizeof(RecordHeader));
    if (!record) {
      make_fatal(FatalReason::BadRecord);
      break;
    }
    RecordHeader h;
    std::memcpy(&h, record, sizeof(h));
    const auto kind = RecordKind(h.size_kind >> 28);
    const uint32_t payload = h.size_kind & kRecordSizeMask;

    if (kind == RecordKind::Pad) {
      if (available < contiguous) {
        make_fatal(FatalReason::BadRecord);
        break;
      }
      r.tail += contiguous;
      continue;
    }
    const uint64_t total = align8(sizeof(RecordHeader) + uint64_t(payload));
    if (total > contiguous || total > available) {
      make_fatal(FatalReason::BadRecord);
      break;
    }
    // The guest writes larger commands out of line (RingWriter::max_inline_payload);
    // the private copy is sized for that bound.
    if (kind == RecordKind::Data && payload > size / 2 - sizeof(RecordHeader)) {
      make_fatal(FatalReason::BadRecord);
      break;
    }
    if (total > m_window_end - r.tail) {
      // The window ends inside this record: copy again from its start, and read the
      // header again from that copy.
      record = window_bytes(r, index, total);
      if (!record) {
        make_fatal(FatalReason::BadRecord);
        break;
      }
      std::memcpy(&h, record, sizeof(h));
      if (h.size_kind != make_size_kind(kind, payload)) {
        make_fatal(FatalReason::BadRecord);   // the guest rewrote a published record
        break;
      }
    }
    const uint8_t* src = record + sizeof(RecordHeader);

    if (kind == RecordKind::Data && h.aux == 0) {
      // Most commands want no reply: dispatched here, without execute()'s reply handling.
      r.tail += total;
      const bool ok = m_dispatcher->dispatch(index, src, payload, nullptr);
      r.executed++;
      if (!ok) {
        make_fatal(FatalReason::DispatchFailed);
        break;
      }
    } else if (kind == RecordKind::Data) {
      r.tail += total;
      if (!execute(index, src, payload, h.aux))
        break;
    } else if (kind == RecordKind::Bulk) {
      BulkRef ref;
      if (payload != sizeof(ref)) {
        make_fatal(FatalReason::BadRecord);
        break;
      }
      std::memcpy(&ref, src, sizeof(ref));
      r.tail += total;
      const Region* region = ref.region < m_regions.size() ? &m_regions[ref.region] : nullptr;
      // A bulk record names one command, and no command is empty.
      if (!region || !region->base || ref.size == 0 || ref.size > m_limits.max_command_size ||
          ref.offset > region->size || ref.size > region->size - ref.offset) {
        make_fatal(FatalReason::BadBulkRef);
        break;
      }
      if (m_bulk_scratch_size < ref.size) {
        m_bulk_scratch = std::make_unique_for_overwrite<uint8_t[]>(size_t(ref.size));
        m_bulk_scratch_size = size_t(ref.size);
      }
      // Copy out first: the guest may rewrite its bulk memory while we decode.
      std::memcpy(m_bulk_scratch.get(), region->base + ref.offset, size_t(ref.size));
      if (!execute(index, m_bulk_scratch.get(), size_t(ref.size), h.aux))
        break;
    } else if (kind == RecordKind::Control) {
      ControlRequest request;
      if (payload != sizeof(request)) {
        make_fatal(FatalReason::BadRecord);
        break;
      }
      std::memcpy(&request, src, sizeof(request));
      r.tail += total;
      if (!control(index, request, h.aux))
        break;
    } else if (kind == RecordKind::Wait) {
      uint64_t seq;
      if (payload != sizeof(seq)) {
        make_fatal(FatalReason::BadRecord);
        break;
      }
      std::memcpy(&seq, src, sizeof(seq));
      r.tail += total;
      if (h.aux >= m_rings.size() || h.aux == index) {
        make_fatal(FatalReason::BadWaitTarget);
        break;
      }
      if (m_rings[h.aux].executed < seq) {
        r.blocked = true;
        r.wait_target = h.aux;
        r.wait_seq = seq;
        break;
      }
      r.executed++;
    } else {
      make_fatal(FatalReason::BadRecord);
      break;
    }
    count++;
    // Hand space back early so that a producer streaming a full ring never stalls.
    if (r.tail - r.published_tail >= size / 4)
      publish_progress(r);
  }
  return count;
}

bool HostContext::execute(uint32_t ring, const uint8_t* span, size_t size, uint32_t aux) {
  RingState& r = m_rings[ring];
  if (aux == 0) {
    bool ok = m_dispatcher->dispatch(ring, span, size, nullptr);
    r.executed++;
    if (!ok)
      make_fatal(FatalReason::DispatchFailed);
    return ok;
  }
  const uint32_t slot = aux - 1;
  if (slot >= m_geometry.reply_slot_count) {
    make_fatal(FatalReason::BadReplySlot);
    return false;
  }
  ReplySlotHeader* h = reply_slot_header(slot);
  Reply reply(reinterpret_cast<uint8_t*>(h) + kReplySlotHeaderSize, m_geometry.reply_slot_size);
  bool ok = m_dispatcher->dispatch(ring, span, size, &reply);
  r.executed++;
  if (!ok) {
    make_fatal(FatalReason::DispatchFailed);
    return false;
  }
  if (reply.overflowed()) {
    make_fatal(FatalReason::ReplyTooLarge);
    return false;
  }
  complete_reply(slot, reply);
  return true;
}

bool HostContext::control(uint32_t ring, const ControlRequest& request, uint32_t aux) {
  RingState& r = m_rings[ring];
  const auto op = ControlOp(request.op);
  if (op == ControlOp::RegionMapped) {
    if (aux != 0) {
      make_fatal(FatalReason::BadRecord);
      return false;
    }
    if (m_provider && request.region < m_regions.size() && m_regions[request.region].added)
      m_provider->mapped(request.region);
    r.executed++;
    return true;
  }
  if (op == ControlOp::ReleaseRegion) {
    // Only a reply region the host replaced may go: anything else is still referenced.
    if (aux != 0 || request.region >= m_regions.size() || !m_regions[request.region].retired) {
      make_fatal(FatalReason::BadRecord);
      return false;
    }
    free_region(request.region);
    r.executed++;
    return true;
  }
  if ((op != ControlOp::AddRegion && op != ControlOp::GetRegion) || aux == 0) {
    make_fatal(FatalReason::BadRecord);
    return false;
  }
  const uint32_t slot = aux - 1;
  if (slot >= m_geometry.reply_slot_count) {
    make_fatal(FatalReason::BadReplySlot);
    return false;
  }
  RegionGrant grant = {};
  Status status = kOk;
  std::string why;
  uint32_t id = 0;
  if (op == ControlOp::AddRegion) {
    id = add_region(request.size, &status, &why);
  } else if (request.region < m_regions.size() && m_regions[request.region].added) {
    id = request.region;
  } else {
    status = kInvalidArg;
    why = "region " + std::to_string(request.region) + " was never created";
  }
  if (id) {
    m_regions[id].granted = true;
    grant.region = id;
    grant.size = m_regions[id].size;
    if (!m_provider->share(id, &grant)) {
      status = kFail;
      why = "the host could not share region " + std::to_string(id);
      grant = {};
    }
  }
  grant.bulk_total = m_bulk_total;
  grant.bulk_limit = m_limits.max_bulk_size;
  grant.name[sizeof(grant.name) - 1] = 0;
  std::snprintf(grant.message, sizeof(grant.message), "%s", why.c_str());
  ReplySlotHeader* h = reply_slot_header(slot);
  Reply reply(reinterpret_cast<uint8_t*>(h) + kReplySlotHeaderSize, m_geometry.reply_slot_size);
  r.executed++;
  // The guest chose slots too small for the answer it asked for.
  if (!reply.write(&grant, sizeof(grant))) {
    make_fatal(FatalReason::ReplyTooLarge);
    return false;
  }
  reply.set_status(status);
  complete_reply(slot, reply);
  return true;
}

ReplySlotHeader* HostContext::reply_slot_header(uint32_t slot) const {
  return reinterpret_cast<ReplySlotHeader*>(m_base + m_geometry.replies_offset() + m_geometry.reply_stride() * slot);
}

void HostContext::complete_reply(uint32_t slot, const Reply& reply) {
  ReplySlotHeader* h = reply_slot_header(slot);
  store_release(h->size, reply.size());
  store_release(h->status, uint32_t(reply.status()));
  store_seq_cst(h->seq, ++m_reply_seq[slot]);
  wake_guest(&h->seq, &h->waiting);
}

void HostContext::wake_guest(uint32_t* word, const uint32_t* waiting) {
  // Pairs with the guest setting waiting before its last check of the word.
  if (!load_acquire(*waiting))
    return;
  address_wake_all(word);
  if (m_guest_waker)
    m_guest_waker();
}

void HostContext::check_wait_cycles() {
  // Blocked rings whose chain of waits comes back to itself can never run again.
  for (uint32_t start = 0; start < m_rings.size(); start++) {
    uint32_t at = start;
    for (size_t steps = 0; m_rings[at].blocked; steps++) {
      if (m_rings[m_rings[at].wait_target].executed >= m_rings[at].wait_seq)
        break;
      at = m_rings[at].wait_target;
      if (at == start || steps > m_rings.size()) {
        make_fatal(FatalReason::WaitCycle);
        return;
      }
    }
  }
}

bool HostContext::push_slot(uint32_t index, const void* data, size_t size) {
  if (index >= m_geometry.push_slot_count || size > kPushSlotPayload)
    return false;
  auto* slot = reinterpret_cast<PushSlot*>(m_base + m_geometry.push_offset()) + index;
  uint32_t& seq = m_push_seq[index];
  store_release(slot->seq, ++seq);  // odd: being written
  std::atomic_thread_fence(std::memory_order_release);
  std::memcpy(slot->data, data, size);
  store_release(slot->size, uint32_t(size));
  store_release(slot->seq, ++seq);
  return true;
}

void HostContext::signal_fence(uint32_t index, uint64_t value) {
  if (index >= m_geometry.fence_count)
    return;
  auto* fences = reinterpret_cast<uint64_t*>(m_base + m_geometry.fences_offset());
  store_release(fences[index], value);
  // Guests sleeping on the slot (GuestConnection::wait_fence_change) wake up: the futex
  // word is the value's low half (little-endian).
  address_wake_all(reinterpret_cast<uint32_t*>(&fences[index]));
}

}
