#pragma once

#include <cstdint>

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
  uint8_t* try_reserve(RecordKind kind, uint32_t aux, uint32_t payload);
  void commit();

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
};

}
