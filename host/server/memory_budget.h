// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "neptune/host.h"

// The server-wide bound on what guests can make the host allocate (--max-memory). Every
// context is admitted with a reservation of the most it may ever hold: its shared memory,
// the bulk regions it may still add, and its resource memory quota (each enforced per
// context, host_api.cpp and host/objects), plus what its worker holds whatever the guest
// does (--worker-memory: the process, the backend's device). A guest whose reservation does not fit beside
// the others' is refused (ConnectError::ServerMemoryExhausted); what was promised to the
// contexts already admitted stays theirs, however many guests knock. The reservation is
// returned when the context's worker is gone.
namespace npt::server {

// The most one context may make the host allocate.
struct ContextMemory {
  uint64_t shared = 0;      // rings, replies, push slots, fences, bulk region 0
  uint64_t later_bulk = 0;  // bulk regions it may add after connect (up to the bulk limit)
  uint64_t objects = 0;     // resources, the object tables' quota
  uint64_t worker = 0;      // the worker's own memory

  uint64_t total() const { return shared + later_bulk + objects + worker; }
};

// `shared_in_host`: false where the context's shared memory and bulk regions lie in
// memory the server allocated once for every context (a shared-memory device's file).
inline ContextMemory context_memory(const npt_host_geometry& geometry, const npt_host_limits& limits,
                                    uint64_t worker, bool shared_in_host = true) {
  ContextMemory memory;
  memory.worker = worker;
  if (shared_in_host) {
    memory.shared = npt_host_shared_memory_size(&geometry);
    memory.later_bulk = limits.max_bulk_size > geometry.bulk_size ? limits.max_bulk_size - geometry.bulk_size : 0;
  }
  memory.objects = limits.max_object_memory;
  return memory;
}

class MemoryBudget {
public:
  // What one admitted context holds of the budget; given back when destroyed.
  class Reservation {
  public:
    Reservation() = default;
    Reservation(Reservation&& other) noexcept { *this = std::move(other); }
    Reservation& operator=(Reservation&& other) noexcept {
      if (this != &other) {
        give_back();
        m_budget = other.m_budget;
        m_bytes = other.m_bytes;
        other.m_budget = nullptr;
        other.m_bytes = 0;
      }
      return *this;
    }
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    ~Reservation() { give_back(); }

    uint64_t bytes() const { return m_bytes; }

  private:
    friend class MemoryBudget;
    Reservation(MemoryBudget* budget, uint64_t bytes) : m_budget(budget), m_bytes(bytes) {}
    void give_back() {
      if (m_budget) {
        m_budget->m_reserved -= m_bytes;
        m_budget->m_contexts--;
      }
      m_budget = nullptr;
      m_bytes = 0;
    }
    MemoryBudget* m_budget = nullptr;
    uint64_t m_bytes = 0;
  };

  // 0: the host's physical memory.
  explicit MemoryBudget(uint64_t limit) : m_limit(limit ? limit : host_physical_memory()) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // The reservation, or false and the refusal's text when it does not fit.
  bool reserve(const ContextMemory& memory, Reservation* out, std::string* refusal) {
    const uint64_t bytes = memory.total();
    if (bytes > m_limit || m_reserved > m_limit - bytes) {
      char text[320];
      std::snprintf(text, sizeof(text),
                    "server memory exhausted: a context reserves %llu MiB (shared %llu, bulk regions %llu, "
                    "resources %llu, worker %llu); %u contexts hold %llu of the server's %llu MiB (--max-memory)",
                    mib(bytes), mib(memory.shared), mib(memory.later_bulk), mib(memory.objects), mib(memory.worker),
                    m_contexts, mib(m_reserved), mib(m_limit));
      *refusal = text;
      return false;
    }
    m_reserved += bytes;
    m_contexts++;
    *out = Reservation(this, bytes);
    return true;
  }

  uint64_t limit() const { return m_limit; }
  uint64_t reserved() const { return m_reserved; }
  uint32_t contexts() const { return m_contexts; }

  static uint64_t host_physical_memory();

private:
  static unsigned long long mib(uint64_t bytes) { return (unsigned long long)((bytes + (1u << 20) - 1) >> 20); }

  uint64_t m_limit;
  uint64_t m_reserved = 0;
  uint32_t m_contexts = 0;
};

}  // namespace npt::server
