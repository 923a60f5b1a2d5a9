// SPDX-License-Identifier: MIT
#pragma once

// An in-process host for tests and benchmarks: the guest library and HostContext share
// a heap mapping and talk through the same records as across processes; a host thread
// plays the worker (poll, announce idle, sleep until the doorbell).
#include <atomic>
#include <cstdlib>
#if defined(_WIN32)
#include <malloc.h>
#endif
#include <cstring>
#include <memory>
#include <thread>

#include "neptune/transport/guest_connection.h"
#include "neptune/transport/host_context.h"
#include "neptune/transport/wait.h"

namespace npt::transport::testing {

class InProcessHost {
public:
  InProcessHost(const Geometry& g, Dispatcher* dispatcher, HostLimits limits = {})
  : m_geometry(g) {
    m_size = size_t(g.total_size());
#if defined(_WIN32)
    m_memory = static_cast<uint8_t*>(_aligned_malloc(m_size, kPageSize));
#else
    m_memory = static_cast<uint8_t*>(std::aligned_alloc(kPageSize, m_size));
#endif
    std::memset(m_memory, 0, m_size);
    HostContext::initialize_memory(m_memory, g, 0);
    m_host = std::make_unique<HostContext>(m_memory, g, limits, dispatcher);
  }
  ~InProcessHost() {
    stop();
    m_guest.reset();
    m_host.reset();
#if defined(_WIN32)
    _aligned_free(m_memory);
#else
    std::free(m_memory);
#endif
  }

  GuestConnection& guest() {
    if (!m_guest) {
      auto channel = std::make_unique<Channel>(this);
      GuestConnection::attach(m_memory, m_size, std::move(channel), &m_guest, m_host_adds_regions);
    }
    return *m_guest;
  }
  // Bulk regions after connect, created by provider (before guest() is first called).
  void add_regions_through(RegionProvider* provider) {
    m_host->set_region_provider(provider);
    m_host_adds_regions = true;
  }

  HostContext& host() { return *m_host; }
  uint8_t* memory() { return m_memory; }
  ControlBlock* control() { return reinterpret_cast<ControlBlock*>(m_memory); }
  RingHeader* ring_header(uint32_t i) {
    return reinterpret_cast<RingHeader*>(m_memory + m_geometry.rings_offset() + m_geometry.ring_stride() * i);
  }
  uint8_t* ring_data(uint32_t i) { return reinterpret_cast<uint8_t*>(ring_header(i)) + kRingHeaderSize; }

  void start(uint32_t spin_us = 20) {
    m_running = true;
    m_thread = std::thread([this, spin_us] { loop(spin_us); });
  }
  void stop() {
    if (!m_running.exchange(false))
      return;
    ring_bell();
    m_thread.join();
  }
  uint64_t doorbells() const { return m_doorbells.load(); }

private:
  class Channel final : public GuestChannel {
  public:
    explicit Channel(InProcessHost* host) : m_host(host) {}
    void doorbell(uint32_t*) override { m_host->ring_bell(); }
    bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
      address_wait(word, expected, timeout_us);
      return true;
    }
  private:
    InProcessHost* m_host;
  };

  void ring_bell() {
    m_doorbells++;
    std::atomic_ref<uint32_t>(m_bell).fetch_add(1);
    address_wake_all(&m_bell);
  }

  void loop(uint32_t spin_us) {
    constexpr size_t kBatch = 4096;
    while (m_running) {
      // A full batch: more may be published already, go on at once.
      if (m_host->process(kBatch) == kBatch)
        continue;
      if (m_host->fatal() != FatalReason::None) {
        // Keep waiting for stop(); a fatal context does nothing more.
        address_wait(&m_bell, load_acquire(m_bell), 10000);
        continue;
      }
      // Caught up: as the worker (host/server/worker.cpp), pause before each read of the
      // heads, which pulls the line the producer is writing.
      uint64_t deadline = now_ns() + spin_us * 1000ull;
      bool work = false;
      do {
        for (int i = 0; i < kHostPollPauses; i++)
          cpu_relax();
        work = m_host->has_work();
      } while (!work && now_ns() < deadline);
      if (work)
        continue;
      uint32_t bell = load_acquire(m_bell);
      if (!m_host->enter_idle())
        continue;
      address_wait(&m_bell, bell, 100000);
      m_host->leave_idle();
    }
  }

  Geometry m_geometry;
  size_t m_size = 0;
  uint8_t* m_memory = nullptr;
  std::unique_ptr<HostContext> m_host;
  std::unique_ptr<GuestConnection> m_guest;
  bool m_host_adds_regions = false;
  std::thread m_thread;
  std::atomic<bool> m_running{false};
  std::atomic<uint64_t> m_doorbells{0};
  uint32_t m_bell = 0;
};

// Deterministic content: record n of a stream, byte i.
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return x;
}

inline void fill_pattern(uint8_t* dst, size_t size, uint64_t seed) {
  uint64_t w = mix64(seed);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::memcpy(dst + i, &w, 8);
    w = w * 6364136223846793005ull + 1442695040888963407ull;
  }
  for (; i < size; i++)
    dst[i] = uint8_t(w >> (8 * (i & 7)));
}

inline bool check_pattern(const uint8_t* src, size_t size, uint64_t seed) {
  uint64_t w = mix64(seed);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    if (std::memcmp(src + i, &w, 8) != 0)
      return false;
    w = w * 6364136223846793005ull + 1442695040888963407ull;
  }
  for (; i < size; i++)
    if (src[i] != uint8_t(w >> (8 * (i & 7))))
      return false;
  return true;
}

}
