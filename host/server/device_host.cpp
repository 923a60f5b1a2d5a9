// SPDX-License-Identifier: MIT
#include "device_host.h"
#include "hello_checks.h"
#include "protocol_identity.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "neptune/transport/handshake.h"
#include "neptune/transport/host_context.h"
#include "neptune/transport/wait.h"

namespace npt::server {

using namespace npt::transport;
using namespace npt::transport::device;

namespace {

// A worker asked to end gets this long to finish its command and clean up.
constexpr uint64_t kQuitGraceNs = 250ull * 1000000;

}

uint64_t parse_device_size(const char* text) {
  if (!text || !*text)
    return 0;
  char* end = nullptr;
  uint64_t v = std::strtoull(text, &end, 0);
  uint64_t unit = 1;
  if (*end == 'K' || *end == 'k') unit = 1ull << 10;
  else if (*end == 'M' || *end == 'm') unit = 1ull << 20;
  else if (*end == 'G' || *end == 'g') unit = 1ull << 30;
  else if (*end != 0) return 0;
  if (unit != 1 && end[1] != 0)
    return 0;
  if (v > (1ull << 40) / unit)
    return 0;
  return v * unit;
}

void DeviceHost::lay_out() {
  const uint32_t slots = slot_count_for(m_config);
  std::memset(m_base, 0, size_t(data_offset(slots)));
  m_slots = std::vector<Slot>(slots);
  for (uint32_t i = 0; i < slots; i++) {
    m_slots[i].generation = 1;
    store_release(slot_memory(i)->generation, 1u);
  }
  std::memset(m_chunk_owners, 0, size_t(DeviceChunks::table_bytes(m_size)));
  m_chunks = DeviceChunks(m_chunk_owners, data_offset(slots), m_size);
  write_header();
}

// The header is the host's: rewritten at every tick, never read back, so garbage a guest
// writes into it lasts one tick at most.
void DeviceHost::write_header() {
  auto* h = reinterpret_cast<DeviceHeader*>(m_base);
  store_release(h->magic, kDeviceMagic);
  store_release(h->layout_version, kDeviceLayoutVersion);
  store_release(h->region_size, m_size);
  store_release(h->slot_count, slot_count());
  store_release(h->slot_stride, kSlotStride);
  store_release(h->slots_offset, kSlotsOffset);
  store_release(h->data_offset, data_offset(slot_count()));
  store_release(h->transport_version, kVersion);
  store_release(h->host_pid, m_host_pid);
  store_release(h->server_instance, m_instance);
  store_release(h->state, uint32_t(kDeviceServing));
  store_release(h->doorbell_peer, m_doorbell_peer);
  store_release(h->doorbell_rings, m_doorbell_rings);
  beat();
}

void DeviceHost::doorbell_rang(uint64_t rings) {
  m_doorbell_rings += rings;
  store_release(reinterpret_cast<DeviceHeader*>(m_base)->doorbell_rings, m_doorbell_rings);
  // The doorbell does not say whose: every active worker looks at its own counter (the
  // offsets are the host's own copies, never read back from the device).
  for (const Slot& s : m_slots)
    if (s.phase == Phase::Active)
      address_wake_all(reinterpret_cast<uint32_t*>(m_base + s.context_offset + offsetof(ControlBlock, doorbell)));
}

void DeviceHost::beat() {
  std::atomic_ref<uint64_t>(reinterpret_cast<DeviceHeader*>(m_base)->heartbeat).fetch_add(1, std::memory_order_release);
}

uint32_t DeviceHost::active_contexts() const {
  uint32_t n = 0;
  for (const Slot& s : m_slots)
    n += s.phase == Phase::Active || s.phase == Phase::Ending;
  return n;
}

void DeviceHost::tick() {
  write_header();
  const uint64_t now = now_ns();
  for (uint32_t i = 0; i < slot_count(); i++)
    look_at(i, now);
}

bool DeviceHost::lease_renewed(Slot& s, uint32_t index, uint64_t now) {
  const uint64_t beat = load_relaxed(slot_memory(index)->guest_heartbeat);
  if (beat != s.heartbeat) {
    s.heartbeat = beat;
    s.heartbeat_at_ns = now;
    return true;
  }
  return now - s.heartbeat_at_ns <= uint64_t(m_config.lease_ms) * 1000000;
}

void DeviceHost::look_at(uint32_t index, uint64_t now) {
  Slot& s = m_slots[index];
  DeviceSlot* m = slot_memory(index);
  switch (s.phase) {
    case Phase::Free: {
      const uint32_t claim = load_acquire(m->claim);
      if (!claim)
        return;
      s.phase = Phase::Claimed;
      s.claim = claim;
      s.heartbeat = load_relaxed(m->guest_heartbeat);
      s.heartbeat_at_ns = now;
      store_release(m->served_claim, claim);
      store_release(m->state, uint32_t(kSlotClaimed));
      return;
    }
    case Phase::Claimed:
    case Phase::Refused:
      // A claim that changes, a release or an expired lease: nobody will take the answer.
      if (load_acquire(m->claim) != s.claim || load_acquire(m->release) || !lease_renewed(s, index, now)) {
        if (m_config.verbose)
          std::fprintf(stderr, "neptune-server: device slot %u taken back before a context\n", index);
        reclaim(index);
      } else if (s.phase == Phase::Claimed && load_acquire(m->request) == 1) {
        handshake(index);
      }
      return;
    case Phase::Active: {
      bool clean = false;
      if (worker_ended(index, &clean)) {
        mark_removed(s, clean ? uint32_t(FatalReason::GuestDisconnected) : uint32_t(FatalReason::WorkerDied));
        if (!clean || m_config.verbose)
          std::fprintf(stderr, "neptune-server: device slot %u: worker ended%s\n", index, clean ? "" : " abnormally");
        reclaim(index);
      } else if (load_acquire(m->release)) {
        end_context(index, uint32_t(FatalReason::GuestDisconnected), now);
      } else if (load_acquire(m->claim) != s.claim || load_acquire(m->request) != 1) {
        std::fprintf(stderr, "neptune-server: device slot %u: the guest changed its claim; ending its context\n", index);
        end_context(index, uint32_t(FatalReason::GuestLeaseExpired), now);
      } else if (!lease_renewed(s, index, now)) {
        std::fprintf(stderr, "neptune-server: device slot %u: lease expired (no heartbeat for %u ms); ending its "
                     "context\n", index, m_config.lease_ms);
        end_context(index, uint32_t(FatalReason::GuestLeaseExpired), now);
      } else if (m_config.watchdog_ms) {
        run_watchdog(s, index, now);
      }
      return;
    }
    case Phase::Ending: {
      bool clean = false;
      if (worker_ended(index, &clean)) {
        reclaim(index);
      } else if (s.ending_at_ns && now - s.ending_at_ns > kQuitGraceNs) {
        terminate_worker(index);
        s.ending_at_ns = 0;   // once; reaped on a later tick
      }
      return;
    }
  }
}

void DeviceHost::handshake(uint32_t index) {
  Slot& s = m_slots[index];
  DeviceSlot* m = slot_memory(index);
  // One copy out of guest-writable memory; everything below reads the copy.
  Hello hello;
  std::memcpy(&hello, m->hello, sizeof(hello));
  Welcome welcome = {};
  welcome.magic = kWelcomeMagic;
  auto refuse = [&](ConnectError e, const std::string& why) {
    welcome.error = uint32_t(e);
    std::snprintf(welcome.message, sizeof(welcome.message), "%s", why.c_str());
    if (m_config.verbose || e == ConnectError::ProtocolMismatch || e == ConnectError::ServerError ||
        e == ConnectError::ServerMemoryExhausted)
      std::fprintf(stderr, "neptune-server: device slot %u: refused a guest: %s\n", index, why.c_str());
    answer(index, welcome, kSlotRefused);
    s.phase = Phase::Refused;
  };
  if (hello.magic == kHelloMagic && hello.version >= 4 &&
      (hello.hello_size < sizeof(Hello) || hello.hello_size > kHelloMaxBytes))
    return refuse(ConnectError::BadMagic, "malformed Hello (its size is out of bounds)");
  const ProtocolIdentity own_protocol = executor_protocol();
  const ProtocolIdentity* protocol = m_config.dispatch == DispatchMode::Executor ? &own_protocol : nullptr;
  // This slot counts among the active ones only once accepted.
  if (auto refusal = check_hello(hello, nullptr, active_contexts(), m_config.max_contexts, protocol))
    return refuse(*refusal, hello_refusal_message(hello, *refusal, protocol));
  welcome.version = negotiate_version(hello);
  const uint32_t granted = granted_offers(hello, kHelloBulkRegions);

  npt_host_geometry g = { hello.ring_count, hello.ring_size, hello.reply_slot_count, hello.reply_slot_size,
                          hello.push_slot_count, hello.fence_count, hello.bulk_size };
  const char* message = nullptr;
  if (uint32_t e = npt_host_check_geometry(&g, &m_config.limits, &message); e != 0) {
    char text[256];
    std::snprintf(text, sizeof(text), "%s (limits: %u rings of %u bytes, %u reply slots, %llu bulk bytes)", message,
                  m_config.limits.max_rings, m_config.limits.max_ring_size, m_config.limits.max_reply_slots,
                  (unsigned long long)m_config.limits.max_bulk_size);
    return refuse(ConnectError(e), text);
  }
  // The context's shared memory and bulk regions lie in the device, sized once by --size.
  MemoryBudget::Reservation memory;
  if (std::string why; !m_budget.reserve(context_memory(g, m_config.limits, m_config.worker_memory, false), &memory, &why)) {
    return refuse(ConnectError::ServerMemoryExhausted, why);
  }
  const uint64_t size = Geometry::align_up(npt_host_shared_memory_size(&g), kChunkSize);
  const uint64_t offset = m_chunks.allocate(index, size);
  if (!offset) {
    char text[200];
    std::snprintf(text, sizeof(text), "the device has no room for the context: %llu bytes asked, %llu free of %llu",
                  (unsigned long long)size, (unsigned long long)m_chunks.free_bytes(), (unsigned long long)m_size);
    return refuse(ConnectError::ServerError, text);
  }
  std::memset(m_base + offset, 0, size_t(size));
  const Geometry geometry = geometry_from_hello(hello);
  HostContext::initialize_memory(m_base + offset, geometry, 0);

  s.context_offset = offset;
  s.context_size = size;
  s.memory = std::move(memory);
  s.reply_slots = g.reply_slot_count;
  s.replies_offset = geometry.replies_offset();
  s.reply_stride = geometry.reply_stride();
  s.last_progress = 0;
  s.progress_at_ns = now_ns();
  s.cpu_at_ns = 0;
  store_release(m->context_offset, offset);
  store_release(m->context_size, size);
  // The Welcome goes first, as on the Windows server's socket: starting a Wine process can
  // take seconds on a loaded machine, the guest's handshake should not wait for it (its
  // first call does). The worker's pid appears in the slot and the control block after.
  welcome.flags = kWelcomeDevice | ((granted & kHelloBulkRegions) ? uint32_t(kWelcomeBulkRegions) : 0u);
  welcome.shm_size = size;
  answer(index, welcome, kSlotActive);
  s.phase = Phase::Active;

  WorkerSpec spec;
  spec.slot = index;
  spec.context_offset = offset;
  spec.context_size = size;
  spec.geometry = g;
  uint32_t pid = 0;
  std::string error;
  if (!launch_worker(spec, &pid, &error)) {
    std::fprintf(stderr, "neptune-server: device slot %u: cannot start a worker: %s\n", index, error.c_str());
    // As a worker that died at once; reclaimed at the next tick.
    mark_removed(s, uint32_t(FatalReason::WorkerDied));
    s.phase = Phase::Ending;
    s.ending_at_ns = 0;
    return;
  }
  store_release(reinterpret_cast<ControlBlock*>(m_base + offset)->worker_pid, pid);
  store_release(m->worker_pid, pid);
  if (m_config.verbose)
    std::fprintf(stderr, "neptune-server: device slot %u: context at 0x%llx (%llu bytes) in worker %u\n", index,
                 (unsigned long long)offset, (unsigned long long)size, pid);
}

void DeviceHost::answer(uint32_t index, const Welcome& welcome, SlotState state) {
  DeviceSlot* m = slot_memory(index);
  std::memcpy(m->welcome, &welcome, sizeof(welcome));
  store_release(m->answered, 1u);
  store_release(m->state, uint32_t(state));
}

void DeviceHost::mark_removed(Slot& s, uint32_t reason) {
  auto* control = reinterpret_cast<ControlBlock*>(m_base + s.context_offset);
  // The worker's own reason stays when it declared the context fatal first.
  if (load_acquire(control->device_state) == kDeviceAlive)
    store_release(control->fatal_reason, reason);
  store_seq_cst(control->device_state, uint32_t(kDeviceRemovedState));
  address_wake_all(&control->device_state);
  for (uint32_t i = 0; i < s.reply_slots; i++)
    address_wake_all(reinterpret_cast<uint32_t*>(m_base + s.context_offset + s.replies_offset + s.reply_stride * i));
}

void DeviceHost::end_context(uint32_t index, uint32_t reason, uint64_t now) {
  Slot& s = m_slots[index];
  mark_removed(s, reason);
  request_quit(index);
  s.phase = Phase::Ending;
  s.ending_at_ns = now;
}

void DeviceHost::reclaim(uint32_t index) {
  Slot& s = m_slots[index];
  DeviceSlot* m = slot_memory(index);
  store_release(m->state, uint32_t(kSlotReclaiming));
  const uint32_t generation = s.generation + 1;
  store_release(m->generation, generation);
  // No worker of this slot runs now: everything it owns goes back.
  m_chunks.free_all(index);
  std::memset(m->regions, 0, sizeof(m->regions));
  store_release(m->context_offset, uint64_t(0));
  store_release(m->context_size, uint64_t(0));
  store_release(m->worker_pid, 0u);
  store_release(m->served_claim, 0u);
  store_release(m->answered, 0u);
  store_release(m->request, 0u);
  store_release(m->release, 0u);
  store_release(m->guest_heartbeat, uint64_t(0));
  store_release(m->claim, 0u);
  store_release(m->state, uint32_t(kSlotFree));
  s = Slot();
  s.generation = generation;
}

// As the socket servers' watchdog (server.cpp, context_supervisor_win32.cpp).
void DeviceHost::run_watchdog(Slot& s, uint32_t index, uint64_t now) {
  DeviceWorkerWords* w = worker_words(index);
  if (!w)
    return;
  const uint64_t cpu = load_relaxed(w->cpu_ns);
  if (!load_acquire(w->running)) {
    s.progress_at_ns = now;
    s.cpu_at_ns = cpu;
    return;
  }
  const uint64_t progress = load_relaxed(w->progress);
  const bool expired = now - s.progress_at_ns > uint64_t(m_config.watchdog_ms) * 1000000;
  if (progress != s.last_progress || (expired && !worker_looks_hung(now - s.progress_at_ns, cpu - s.cpu_at_ns))) {
    s.last_progress = progress;
    s.progress_at_ns = now;
    s.cpu_at_ns = cpu;
  } else if (expired) {
    std::fprintf(stderr, "neptune-server: device slot %u: worker made no progress for %u ms; terminating it\n", index,
                 m_config.watchdog_ms);
    mark_removed(s, uint32_t(FatalReason::WorkerHung));
    terminate_worker(index);
    s.phase = Phase::Ending;
    s.ending_at_ns = 0;
  }
}

void DeviceHost::stop_all() {
  auto* h = reinterpret_cast<DeviceHeader*>(m_base);
  store_release(h->state, uint32_t(kDeviceStopped));
  for (uint32_t i = 0; i < slot_count(); i++) {
    Slot& s = m_slots[i];
    if (s.phase != Phase::Active && s.phase != Phase::Ending)
      continue;
    mark_removed(s, uint32_t(FatalReason::WorkerDied));
    terminate_worker(i);
  }
}

}
