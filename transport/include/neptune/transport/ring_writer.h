// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "neptune/transport/layout.h"

// Guest side of one ring: the single producer. Not thread-safe by design: each
// recording thread (or deferred context) owns its ring.
namespace npt::transport {

class RingWriter {
public:
  RingWriter() = default;
  RingWriter(RingHeader* header, uint8_t* data, uint32_t size);

  // Largest payload that goes inline; bigger commands go out of line through bulk memory.
  uint32_t max_inline_payload() const { return m_size / 2 - sizeof(RecordHeader); }

  // Reserves a record with payload bytes; nullptr while the host has not freed enough
  // space. Exactly one reservation may be open; commit() publishes it.
  uint8_t* try_reserve(RecordKind kind, uint32_t aux, uint32_t payload) {
    const uint64_t total = align8(sizeof(RecordHeader) + payload);
    const uint64_t pos = m_head & (m_size - 1);
    // Fast path: fits before the end of the ring in the space already known free.
    if (total <= m_size - pos && m_size - (m_head - m_cached_tail) >= total) {
      RecordHeader h = { make_size_kind(kind, payload), aux };
      std::memcpy(m_data + pos, &h, sizeof(h));
      m_pending = uint32_t(total);
      return m_data + pos + sizeof(RecordHeader);
    }
    return reserve_slow(kind, aux, payload);
  }

  void commit() {
    m_head += m_pending;
    m_pending = 0;
    m_seq++;
    // Sequentially consistent (one xchg on x86): the guest's following read of the
    // host's idle word must not pass this store, or both sides could miss the doorbell.
    std::atomic_ref<uint64_t>(m_header->head).exchange(m_head, std::memory_order_seq_cst);
  }

  // Whether a record of payload bytes fits now (re-reads the host's tail).
  bool can_reserve(uint32_t payload) {
    const uint64_t total = align8(sizeof(RecordHeader) + payload);
    const uint64_t contiguous = m_size - (m_head & (m_size - 1));
    return free_space(true) >= (total > contiguous ? contiguous : 0) + total;
  }
  RingHeader* header() const { return m_header; }

  // Records submitted so far: the sequence number of the last one.
  uint64_t submitted() const { return m_seq; }
  uint64_t executed() const { return load_acquire(m_header->executed); }
  bool host_failed() const { return load_relaxed(m_header->state) != 0; }

private:
  RingHeader* m_header = nullptr;
  uint8_t* m_data = nullptr;
  uint32_t m_size = 0;
  uint64_t m_head = 0;
  uint64_t m_cached_tail = 0;
  uint64_t m_seq = 0;
  uint32_t m_pending = 0;

  uint64_t free_space(bool refresh);
  uint8_t* reserve_slow(RecordKind kind, uint32_t aux, uint32_t payload);
};

}
