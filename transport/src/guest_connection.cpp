// SPDX-License-Identifier: MIT
#include "neptune/transport/guest_connection.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

#include "neptune/transport/handshake.h"
#include "neptune/transport/wait.h"

namespace npt::transport {

namespace {

// How long connect waits for the server's Welcome (each of its two reads):
// NPT_CONNECT_TIMEOUT_MS, default 5 s. A server that accepts but never answers fails the
// connection (and the guest's device creation) after that long instead of hanging.
int connect_timeout_ms() {
  char value[16] = {};
#if defined(_WIN32)
  if (!GetEnvironmentVariableA("NPT_CONNECT_TIMEOUT_MS", value, sizeof(value)))
    value[0] = 0;
#else
  if (const char* env = std::getenv("NPT_CONNECT_TIMEOUT_MS"))
    std::snprintf(value, sizeof(value), "%s", env);
#endif
  char* end = nullptr;
  const unsigned long ms = std::strtoul(value, &end, 10);
  if (end == value || *end || ms == 0 || ms > 600000)
    return 5000;
  return int(ms);
}

// Doorbells and liveness through the connection socket; replies wake us through a
// futex on Linux, or through wake bytes on the socket where futexes cannot reach the
// host (PE code under Wine).
class SocketChannel final : public GuestChannel {
public:
  SocketChannel(Socket socket, bool socket_wake)
  : m_socket(std::move(socket)), m_socket_wake(socket_wake) {}

  void doorbell(uint32_t* word) override {
    if (m_socket_wake)
      m_socket.send_byte_nonblocking(kDoorbell);
    else
      address_wake_all(word);
  }

  bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
    if (!m_socket_wake) {
      address_wait(word, expected, timeout_us);
      if (load_acquire(*word) != expected)
        return true;
      return m_socket.peer_alive();
    }
    std::lock_guard lock(m_mutex);
    if (load_acquire(*word) != expected)
      return true;
    int r = m_socket.wait_readable(int((timeout_us + 999) / 1000));
    if (r < 0)
      return false;
    return r == 0 || m_socket.drain();
  }

#if !defined(_WIN32)
  int receive_region_descriptor(uint32_t region, int timeout_ms) override {
    std::lock_guard lock(m_mutex);
    RegionFdMessage message = {};
    int fd = -1;
    if (!m_socket.recv_with_fd(&message, sizeof(message), &fd, timeout_ms))
      return -1;
    if (message.magic != kRegionFdMagic || message.region != region) {
      if (fd >= 0)
        ::close(fd);
      return -1;
    }
    return fd;
  }
#endif

private:
  Socket m_socket;
  bool m_socket_wake;
  std::mutex m_mutex;   // one thread at a time sleeps on the socket
};

#if defined(_WIN32)
// Windows guests without cross-process futexes (real Windows): the doorbell and the
// reply wakeups are named events the worker shares, a kernel round trip each way with no
// relay through the server parent; the socket only says whether the host is alive.
class EventChannel final : public GuestChannel {
public:
  EventChannel(Socket socket, HANDLE doorbell, HANDLE wake)
  : m_socket(std::move(socket)), m_doorbell(doorbell), m_wake(wake) {}
  ~EventChannel() override {
    CloseHandle(m_doorbell);
    CloseHandle(m_wake);
  }

  void doorbell(uint32_t*) override { SetEvent(m_doorbell); }

  bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
    if (load_acquire(*word) != expected)
      return true;
    // Auto-reset: a wake meant for another waiting thread costs that thread one slice.
    if (WaitForSingleObject(m_wake, DWORD((timeout_us + 999) / 1000)) == WAIT_OBJECT_0)
      return true;
    if (load_acquire(*word) != expected)
      return true;
    std::lock_guard lock(m_mutex);
    return m_socket.peer_alive();
  }

private:
  Socket m_socket;
  HANDLE m_doorbell;
  HANDLE m_wake;
  std::mutex m_mutex;   // peer_alive reads the socket
};
#endif

bool power_of_two(uint64_t v) { return v && !(v & (v - 1)); }

// Where this process opens a host's shared-memory name: a Linux server's file through
// Wine's Z: drive, a Windows server's mapping name as it is.
std::string local_path_of(const char* name) {
#if defined(_WIN32)
  if (name[0] != '/')
    return name;
  std::string path = std::string("Z:") + name;
  for (char& c : path)
    if (c == '/')
      c = '\\';
  return path;
#else
  return name;
#endif
}

}

GuestConnection::~GuestConnection() {
  // Regions the channel mapped go back to it while it exists (the members go after this).
  for (uint32_t region = 1; region < kMaxBulkRegions; region++)
    if (m_region_maps[region].by_channel)
      unmap_region(region);
}

void GuestConnection::unmap_region(uint32_t region) {
  RegionMap& map = m_region_maps[region];
  if (map.by_channel && m_channel)
    m_channel->unmap_region(region);
  map = RegionMap();
}

Status GuestConnection::attach(uint8_t* base, size_t size, std::unique_ptr<GuestChannel> channel,
                               std::unique_ptr<GuestConnection>* out, bool bulk_regions) {
  std::unique_ptr<GuestConnection> c(new GuestConnection());
  c->m_channel = std::move(channel);
  c->m_can_add_regions = bulk_regions;
  Status s = c->init(base, size);
  if (s == kOk)
    *out = std::move(c);
  return s;
}

Status GuestConnection::init(uint8_t* base, size_t size) {
  if (size < kPageSize)
    return kInvalidArg;
  auto* control = reinterpret_cast<ControlBlock*>(base);
  if (load_acquire(control->magic) != kMagic || control->version != kVersion)
    return kInvalidArg;
  Geometry g;
  g.ring_count = control->ring_count;
  g.ring_size = control->ring_size;
  g.reply_slot_count = control->reply_slot_count;
  g.reply_slot_size = control->reply_slot_size;
  g.push_slot_count = control->push_slot_count;
  g.fence_count = control->fence_count;
  g.bulk_size = control->bulk_size;
  if (!g.ring_count || !power_of_two(g.ring_size) || g.ring_size < 256 || g.reply_slot_count > 64 ||
      g.total_size() > size || g.bulk_offset() != control->bulk_offset)
    return kInvalidArg;

  m_base = base;
  m_control = control;
  m_geometry = g;
  m_rings.resize(g.ring_count);
  for (uint32_t i = 0; i < g.ring_count; i++) {
    uint8_t* r = base + g.rings_offset() + g.ring_stride() * i;
    m_rings[i].writer = RingWriter(reinterpret_cast<RingHeader*>(r), r + kRingHeaderSize, g.ring_size);
  }
  m_bulk.init(0, base + g.bulk_offset(), g.bulk_size);
  m_free_slots = g.reply_slot_count == 64 ? ~0ull : ((1ull << g.reply_slot_count) - 1);
  return kOk;
}

Status GuestConnection::connect(const char* address, const Geometry& geometry,
                                std::unique_ptr<GuestConnection>* out, std::string* error,
                                const ProtocolIdentity& protocol) {
  auto fail = [&](Status s, const char* message) {
    if (error)
      *error = message;
    return s;
  };

  Hello hello = hello_for(geometry, protocol);

  Socket socket;
  // Every guest can map regions added after connect; a server that does not grant it
  // leaves this guest with region 0.
  const uint32_t common_offers = kHelloBulkRegions;
#if defined(_WIN32)
  // Rendezvous file written by the server: "<tcp port> <token>".
  FILE* f = std::fopen(address, "r");
  if (!f)
    return fail(kDeviceRemoved, "cannot open the server's rendezvous file");
  unsigned port = 0;
  char token[64] = {};
  int fields = std::fscanf(f, "%u %63s", &port, token);
  std::fclose(f);
  if (fields != 2 || port == 0 || port > 65535)
    return fail(kDeviceRemoved, "malformed rendezvous file");
  std::memcpy(hello.token, token, sizeof(token));
  // Under Wine on Linux, futexes reach the native server; elsewhere named events (where
  // the server grants them) or the socket wake us.
  hello.flags = common_offers | (address_wait_is_cross_process() ? 0u : uint32_t(kHelloSocketWake | kHelloEventWake));
  // NPT_TRANSPORT_NO_EVENT_WAKE=1 leaves events out of the offer: the socket path (the
  // parent's relay in a process-mode server), for tests and diagnosis.
  char no_events[4] = {};
  if (GetEnvironmentVariableA("NPT_TRANSPORT_NO_EVENT_WAKE", no_events, sizeof(no_events)) && no_events[0] == '1')
    hello.flags &= ~uint32_t(kHelloEventWake);
  socket = Socket::connect_tcp_loopback(uint16_t(port));
#else
  hello.flags = common_offers | kHelloFdPassing;
  socket = Socket::connect_unix(address);
#endif
  if (!socket.valid())
    return fail(kDeviceRemoved, "cannot connect to the server");
  if (!socket.send_all(&hello, sizeof(hello)))
    return fail(kDeviceRemoved, "handshake send failed");

  // The Welcome is read in two parts: the version-2 prefix, which holds a refusal's
  // reason in every version (an older server's whole Welcome), then the rest.
  Welcome welcome = {};
  SharedMapping mapping;
#if defined(_WIN32)
  // A loaded server may take a while to accept (handshakes are read in turn).
  if (!socket.recv_all(&welcome, kWelcomeVersion2Bytes, connect_timeout_ms()))
    return fail(kDeviceRemoved, "no answer from the server");
#else
  int fd = -1;
  if (!socket.recv_with_fd(&welcome, kWelcomeVersion2Bytes, &fd, connect_timeout_ms()))
    return fail(kDeviceRemoved, "no answer from the server");
#endif
  auto close_memory = [&] {
#if !defined(_WIN32)
    if (fd >= 0)
      ::close(fd);
#endif
  };
  welcome.message[sizeof(welcome.message) - 1] = 0;
  welcome.path[sizeof(welcome.path) - 1] = 0;
  if (welcome.magic != kWelcomeMagic) {
    close_memory();
    return fail(kDeviceRemoved, "not a Neptune server");
  }
  if (welcome.error != uint32_t(ConnectError::None)) {
    close_memory();
    return fail(refusal_status(ConnectError(welcome.error)), welcome.message);
  }
  if (!socket.recv_all(reinterpret_cast<uint8_t*>(&welcome) + kWelcomeVersion2Bytes,
                       sizeof(welcome) - kWelcomeVersion2Bytes, connect_timeout_ms())) {
    close_memory();
    return fail(kDeviceRemoved, "the server's Welcome ended early (a server older than transport version 3?)");
  }
  // Only what was offered may be granted, and only a version both speak chosen.
  uint32_t offered_welcome_flags = kWelcomePath;
  if (hello.flags & kHelloFdPassing)
    offered_welcome_flags |= kWelcomeFd;
  if (hello.flags & kHelloSocketWake)
    offered_welcome_flags |= kWelcomeSocketWake;
  if (hello.flags & kHelloEventWake)
    offered_welcome_flags |= kWelcomeEventWake;
  if (hello.flags & kHelloBulkRegions)
    offered_welcome_flags |= kWelcomeBulkRegions;
  if (welcome.version < kMinVersion || welcome.version > kVersion || (welcome.flags & ~offered_welcome_flags) ||
      welcome.reserved != 0) {
    close_memory();
    return fail(kDeviceRemoved, "the server answered with a version or features this guest did not offer");
  }
  if ((hello.flags & kHelloSocketWake) && !(welcome.flags & (kWelcomeSocketWake | kWelcomeEventWake))) {
    close_memory();
    return fail(kDeviceRemoved, "the server grants no wakeup this guest can use (socket or events)");
  }

#if defined(_WIN32)
  // A Linux server's file, reached through Wine's Z: drive, or a Windows server's
  // named mapping.
  mapping = SharedMapping::map_path(local_path_of(welcome.path).c_str(), size_t(welcome.shm_size));
  uint8_t ack = kMappedAck;
  socket.send_all(&ack, 1);
#else
  if (fd < 0)
    return fail(kDeviceRemoved, "server sent no memory");
  mapping = SharedMapping::map_fd(fd, size_t(welcome.shm_size));
  ::close(fd);
#endif
  if (!mapping.valid())
    return fail(kDeviceRemoved, "cannot map the shared memory");

  std::unique_ptr<GuestConnection> c(new GuestConnection());
#if defined(_WIN32)
  if (welcome.flags & kWelcomeEventWake) {
    std::string doorbell_name = std::string(welcome.path) + kDoorbellEventSuffix;
    std::string wake_name = std::string(welcome.path) + kWakeEventSuffix;
    HANDLE doorbell = OpenEventA(EVENT_MODIFY_STATE, FALSE, doorbell_name.c_str());
    HANDLE wake = OpenEventA(SYNCHRONIZE | EVENT_MODIFY_STATE, FALSE, wake_name.c_str());
    if (!doorbell || !wake) {
      if (doorbell)
        CloseHandle(doorbell);
      if (wake)
        CloseHandle(wake);
      return fail(kDeviceRemoved, "cannot open the server's wake events");
    }
    c->m_channel = std::make_unique<EventChannel>(std::move(socket), doorbell, wake);
    c->m_wake_mode = "event";
  }
#endif
  if (!c->m_channel) {
    const bool socket_wake = (welcome.flags & kWelcomeSocketWake) != 0;
    c->m_channel = std::make_unique<SocketChannel>(std::move(socket), socket_wake);
    c->m_wake_mode = socket_wake ? "socket" : "futex";
  }
  c->m_can_add_regions = (welcome.flags & kWelcomeBulkRegions) != 0;
  Status s = c->init(mapping.data(), mapping.size());
  if (s != kOk)
    return fail(kDeviceRemoved, "server laid out the memory inconsistently");
  c->m_mapping = std::move(mapping);
  c->m_shared_name = welcome.path;
  *out = std::move(c);
  return kOk;
}

ReplySlotHeader* GuestConnection::reply_slot(uint32_t index) const {
  return reinterpret_cast<ReplySlotHeader*>(m_base + m_geometry.replies_offset() + m_geometry.reply_stride() * index);
}

void GuestConnection::ring_doorbell_slow() {
  uint32_t expected = kHostIdle;
  if (std::atomic_ref<uint32_t>(m_control->host_state).compare_exchange_strong(expected, kHostBusy)) {
    std::atomic_ref<uint32_t>(m_control->doorbell).fetch_add(1);
    m_channel->doorbell(&m_control->doorbell);
  }
}

Status GuestConnection::pause_for_host(uint32_t round) {
  if (status() != kOk)
    return kDeviceRemoved;
  if (round < 64) {
    cpu_relax();
    return kOk;
  }
  // Waiting for a reply slot another thread holds, or for bulk memory other rings hold.
  // Sleeping (rather than yielding in a loop) lets the host drain a large batch: yielding
  // measured 3x the CPU time in the ring stress test on 2 loaded cores.
  ring_doorbell();
  uint32_t state = load_relaxed(m_control->device_state);
  if (!m_channel->block(&m_control->device_state, state, round < 256 ? 50 : 1000)) {
    m_lost = true;
    return kDeviceRemoved;
  }
  return kOk;
}

template<typename Ready>
Status GuestConnection::pause_for_ring(uint32_t ring, uint32_t round, Ready ready) {
  if (status() != kOk)
    return kDeviceRemoved;
  // The host hands space back a quarter ring at a time: a short spin often sees it.
  if (round < 64) {
    cpu_relax();
    return kOk;
  }
  ring_doorbell();
  RingHeader* h = m_rings[ring].writer.header();
  const uint32_t seen = load_acquire(h->progress);
  store_seq_cst(h->progress_waiting, 1u);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  bool alive = true;
  // Sleep in short slices: an older host never wakes us, and the server's parent marks a
  // dead worker's context removed without touching this word.
  if (!ready() && status() == kOk)
    alive = m_channel->block(&h->progress, seen, 1000);
  store_release(h->progress_waiting, 0u);
  if (!alive) {
    m_lost = true;
    return kDeviceRemoved;
  }
  return kOk;
}

Status GuestConnection::publish(uint32_t ring, RecordKind kind, uint32_t aux, const void* payload, uint32_t size) {
  RingWriter& writer = m_rings[ring].writer;
  uint8_t* dst;
  for (uint32_t round = 0; !(dst = writer.try_reserve(kind, aux, size)); round++) {
    if (Status s = pause_for_ring(ring, round, [&] { return writer.can_reserve(size); }); s != kOk)
      return s;
  }
  std::memcpy(dst, payload, size);
  writer.commit();
  ring_doorbell();
  return kOk;
}

void GuestConnection::reclaim_bulk(Ring& ring) {
  uint64_t executed = ring.writer.executed();
  while (!ring.in_flight_bulk.empty() && ring.in_flight_bulk.front().first <= executed) {
    m_bulk.free(ring.in_flight_bulk.front().second);
    ring.in_flight_bulk.pop_front();
  }
}

Status GuestConnection::publish_span(uint32_t ring, uint32_t aux, const void* span, size_t size) {
  if (ring >= m_rings.size())
    return kInvalidArg;
  if (Status s = status(); s != kOk)
    return s;
  Ring& r = m_rings[ring];
  if (size <= r.writer.max_inline_payload())
    return publish(ring, RecordKind::Data, aux, span, uint32_t(size));

  // A call reserved capacity before claiming its reply slot (a region request needs one).
  if (aux == 0) {
    if (Status s = reserve_bulk_capacity(ring, size); s != kOk)
      return s;
  } else if (size > m_bulk.largest_region()) {
    return kOutOfMemory;
  }
  BulkRef ref;
  for (uint32_t round = 0;; round++) {
    reclaim_bulk(r);
    if (m_bulk.allocate(size, &ref))
      break;
    // This ring's commands hold memory: sleep until the host executed the oldest. Another
    // ring's commands may hold it instead; all we can do then is let the host run.
    Status s = kOk;
    if (!r.in_flight_bulk.empty()) {
      const uint64_t oldest = r.in_flight_bulk.front().first;
      s = pause_for_ring(ring, round, [&] { return r.writer.executed() >= oldest; });
    } else {
      s = pause_for_host(round);
    }
    if (s != kOk)
      return s;
    if (round > 100000)
      return kOutOfMemory;
  }
  std::memcpy(m_bulk.pointer(ref), span, size);
  Status s = publish(ring, RecordKind::Bulk, aux, &ref, sizeof(ref));
  if (s != kOk) {
    m_bulk.free(ref);
    return s;
  }
  r.in_flight_bulk.emplace_back(r.writer.submitted(), ref);
  return kOk;
}

Status GuestConnection::wait_for(uint32_t ring, uint32_t target_ring, uint64_t seq) {
  if (ring >= m_rings.size() || target_ring >= m_rings.size() || ring == target_ring)
    return kInvalidArg;
  if (Status s = status(); s != kOk)
    return s;
  return publish(ring, RecordKind::Wait, target_ring, &seq, sizeof(seq));
}

Status GuestConnection::claim_reply_slot(uint32_t* slot) {
  // The count of slots is the limit of pending replies.
  uint64_t slots = m_free_slots.load();
  for (uint32_t round = 0;; round++) {
    if (slots) {
      *slot = uint32_t(__builtin_ctzll(slots));
      if (m_free_slots.compare_exchange_weak(slots, slots & ~(1ull << *slot)))
        return kOk;
      continue;
    }
    if (Status s = pause_for_host(round); s != kOk)
      return s;
    slots = m_free_slots.load();
  }
}

Status GuestConnection::call(uint32_t ring, const void* span, size_t size,
                             void* reply, size_t capacity, size_t* reply_size) {
  if (ring >= m_rings.size())
    return kInvalidArg;
  if (size > m_rings[ring].writer.max_inline_payload()) {
    if (Status s = reserve_bulk_capacity(ring, size); s != kOk)
      return s;
  }
  uint32_t slot;
  if (Status s = claim_reply_slot(&slot); s != kOk)
    return s;

  ReplySlotHeader* h = reply_slot(slot);
  uint32_t old_seq = load_acquire(h->seq);
  Status s = publish_span(ring, slot + 1, span, size);
  if (s == kOk)
    s = wait_reply(slot, old_seq);
  if (s == kOk) {
    uint32_t n = load_relaxed(h->size);
    if (n > m_geometry.reply_slot_size || n > capacity) {
      s = kInvalidArg;
    } else {
      std::memcpy(reply, reinterpret_cast<uint8_t*>(h) + kReplySlotHeaderSize, n);
      if (reply_size)
        *reply_size = n;
      s = Status(load_relaxed(h->status));
    }
  }
  m_free_slots.fetch_or(1ull << slot);
  return s;
}

Status GuestConnection::wait_reply(uint32_t slot, uint32_t old_seq) {
  ReplySlotHeader* h = reply_slot(slot);
  // Spin first: a spinning round trip costs well under a microsecond, a blocking one
  // 10 µs natively and ~100 µs under Wine.
  uint64_t deadline = 0;
  for (uint32_t i = 0; m_options.spin_us; i++) {
    if (load_acquire(h->seq) != old_seq)
      return kOk;
    if ((i & 63) == 0) {
      uint64_t now = now_ns();
      if (!deadline)
        deadline = now + uint64_t(m_options.spin_us) * 1000;
      else if (now >= deadline)
        break;
    }
    cpu_relax();
  }
  for (;;) {
    store_seq_cst(h->waiting, 1u);
    if (load_acquire(h->seq) != old_seq)
      break;
    if (status() != kOk) {
      store_release(h->waiting, 0u);
      return kDeviceRemoved;
    }
    if (!m_channel->block(&h->seq, old_seq, m_options.block_slice_us)) {
      m_lost = true;
      store_release(h->waiting, 0u);
      return kDeviceRemoved;
    }
    if (load_acquire(h->seq) != old_seq)
      break;
  }
  store_release(h->waiting, 0u);
  return kOk;
}

Status GuestConnection::finish(uint32_t ring) {
  if (ring >= m_rings.size())
    return kInvalidArg;
  RingWriter& w = m_rings[ring].writer;
  for (uint32_t round = 0; w.executed() < w.submitted(); round++) {
    if (Status s = pause_for_ring(ring, round, [&] { return w.executed() >= w.submitted(); }); s != kOk)
      return s;
  }
  reclaim_bulk(m_rings[ring]);
  return status();
}

bool GuestConnection::read_push_slot(uint32_t index, void* out, size_t capacity, size_t* size, uint32_t* version) const {
  if (index >= m_geometry.push_slot_count)
    return false;
  auto* slot = reinterpret_cast<PushSlot*>(m_base + m_geometry.push_offset()) + index;
  for (;;) {
    uint32_t s1 = load_acquire(slot->seq);
    if (s1 & 1) {
      cpu_relax();
      continue;
    }
    uint32_t n = load_relaxed(slot->size);
    if (n > sizeof(slot->data) || n > capacity)
      return false;
    std::memcpy(out, slot->data, n);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (load_relaxed(slot->seq) != s1)
      continue;
    if (size)
      *size = n;
    if (version)
      *version = s1 / 2;
    return true;
  }
}

uint64_t GuestConnection::fence_value(uint32_t index) const {
  if (index >= m_geometry.fence_count)
    return 0;
  auto* fences = reinterpret_cast<uint64_t*>(m_base + m_geometry.fences_offset());
  return load_acquire(fences[index]);
}

void GuestConnection::wait_fence_change(uint32_t index, uint64_t seen, uint32_t timeout_us) const {
  if (index >= m_geometry.fence_count)
    return;
  auto* fences = reinterpret_cast<uint64_t*>(m_base + m_geometry.fences_offset());
  // The futex word is the value's low half (little-endian); a value that changed only in
  // its high half is seen at the timeout.
  if (load_acquire(fences[index]) != seen)
    return;
  m_channel->wait_word(reinterpret_cast<const uint32_t*>(&fences[index]), uint32_t(seen), timeout_us);
}

void GuestChannel::wait_word(const uint32_t* word, uint32_t expected, uint32_t timeout_us) {
  address_wait(word, expected, timeout_us);
}

}

namespace npt::transport {

Status GuestConnection::control_call(uint32_t ring, const ControlRequest& request, RegionGrant* grant,
                                     Status* answer) {
  if (ring >= m_rings.size())
    return kInvalidArg;
  if (m_geometry.reply_slot_size < sizeof(RegionGrant))
    return kOutOfMemory;   // the answer would not fit the slots this guest chose
  uint32_t slot;
  if (Status s = claim_reply_slot(&slot); s != kOk)
    return s;
  ReplySlotHeader* h = reply_slot(slot);
  uint32_t old_seq = load_acquire(h->seq);
  Status s = publish(ring, RecordKind::Control, slot + 1, &request, sizeof(request));
  if (s == kOk)
    s = wait_reply(slot, old_seq);
  if (s == kOk) {
    if (load_relaxed(h->size) != sizeof(RegionGrant)) {
      s = kFail;
    } else {
      std::memcpy(grant, reinterpret_cast<uint8_t*>(h) + kReplySlotHeaderSize, sizeof(RegionGrant));
      grant->name[sizeof(grant->name) - 1] = 0;
      grant->message[sizeof(grant->message) - 1] = 0;
      *answer = Status(load_relaxed(h->status));
    }
  }
  m_free_slots.fetch_or(1ull << slot);
  return s;
}

uint8_t* GuestConnection::map_region(uint32_t ring, const RegionGrant& grant) {
  if (grant.region == 0 || grant.region >= kMaxBulkRegions || !grant.size || m_region_maps[grant.region].valid())
    return nullptr;
  RegionMap& map = m_region_maps[grant.region];
  if (m_channel->maps_regions()) {
    // Mapped by whoever made the connection (a kernel blob), never by the grant's name.
    map.base = m_channel->map_region(grant.region, grant.size);
    map.size = map.base ? grant.size : 0;
    map.by_channel = map.base != nullptr;
    return map.base;
  }
  SharedMapping mapping;
  if (grant.share == kRegionByDescriptor) {
#if !defined(_WIN32)
    int fd = m_channel->receive_region_descriptor(grant.region, 5000);
    if (fd < 0)
      return nullptr;
    mapping = SharedMapping::map_fd(fd, size_t(grant.size));
    ::close(fd);
#endif
  } else if (grant.share == kRegionByName && grant.name[0]) {
    mapping = SharedMapping::map_path(local_path_of(grant.name).c_str(), size_t(grant.size));
    // A file is removed once mapped, so that nobody else can open it.
    if (grant.name[0] == '/') {
      ControlRequest mapped = { uint32_t(ControlOp::RegionMapped), grant.region, 0 };
      publish(ring, RecordKind::Control, 0, &mapped, sizeof(mapped));
    }
  }
  if (!mapping.valid())
    return nullptr;
  map.base = mapping.data();
  map.size = mapping.size();
  map.shared = std::move(mapping);
  return map.base;
}

Status GuestConnection::add_bulk_region(uint32_t ring, uint64_t size, std::string* error) {
  auto fail = [&](Status s, const std::string& message) {
    if (error)
      *error = message;
    return s;
  };
  if (!m_can_add_regions)
    return fail(kOutOfMemory, "the server adds no bulk regions (only region 0 of " +
                                  std::to_string(m_geometry.bulk_size) + " bytes)");
  if (Status s = status(); s != kOk)
    return s;
  std::lock_guard lock(m_region_mutex);
  ControlRequest request = { uint32_t(ControlOp::AddRegion), 0, size };
  RegionGrant grant = {};
  Status answer = kOk;
  Status s = control_call(ring, request, &grant, &answer);
  if (s != kOk)
    return s == kOutOfMemory ? fail(s, "reply slots too small for a region grant") : s;
  if (answer != kOk)
    return fail(answer, grant.message);
  uint8_t* base = map_region(ring, grant);
  if (!base)
    return fail(kFail, "cannot map bulk region " + std::to_string(grant.region));
  if (!m_bulk.add_region(grant.region, base, grant.size))
    return fail(kFail, "bulk region " + std::to_string(grant.region) + " was granted twice");
  return kOk;
}

Status GuestConnection::reserve_bulk_capacity(uint32_t ring, uint64_t size, std::string* error) {
  return size <= m_bulk.largest_region() ? kOk : grow_bulk(ring, size, error);
}

Status GuestConnection::grow_bulk(uint32_t ring, uint64_t size, std::string* error) {
  const uint64_t preferred = size > m_geometry.bulk_size ? size : m_geometry.bulk_size;
  Status s = add_bulk_region(ring, preferred, error);
  if (s == kOutOfMemory && preferred > size && m_can_add_regions)
    s = add_bulk_region(ring, size, error);
  return s;
}

const uint8_t* GuestConnection::region_bytes(uint32_t ring, uint32_t region, uint64_t offset, uint64_t size) {
  auto bounded = [&](const uint8_t* base, uint64_t region_size) -> const uint8_t* {
    if (!base || offset > region_size || size > region_size - offset)
      return nullptr;
    return base + offset;
  };
  if (region == 0)
    return bounded(m_base + m_geometry.bulk_offset(), m_geometry.bulk_size);
  if (region >= kMaxBulkRegions)
    return nullptr;
  std::lock_guard lock(m_region_mutex);
  if (!m_region_maps[region].valid() && m_can_add_regions && status() == kOk) {
    ControlRequest request = { uint32_t(ControlOp::GetRegion), region, 0 };
    RegionGrant grant = {};
    Status answer = kOk;
    if (control_call(ring, request, &grant, &answer) != kOk || answer != kOk || grant.region != region)
      return nullptr;
    map_region(ring, grant);
  }
  const RegionMap& m = m_region_maps[region];
  if (m.valid() && !m_bulk.holds(region) && ring < m_rings.size())
    note_reply_region(ring, region);
  return bounded(m.base, m.size);
}

void GuestConnection::note_reply_region(uint32_t ring, uint32_t region) {
  uint32_t& current = m_rings[ring].reply_region;
  const uint32_t outgrown = current;
  current = region;
  if (!outgrown || outgrown == region || !m_region_maps[outgrown].valid())
    return;
  // The host answers this ring's replies from `region` now and the guest read every reply
  // from the old one already (one call at a time per ring): unmap it, then let the host free it.
  unmap_region(outgrown);
  ControlRequest release = { uint32_t(ControlOp::ReleaseRegion), outgrown, 0 };
  publish(ring, RecordKind::Control, 0, &release, sizeof(release));
}

}
