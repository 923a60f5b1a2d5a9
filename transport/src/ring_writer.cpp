// SPDX-License-Identifier: MIT
#include "neptune/transport/ring_writer.h"

#include <atomic>
#include <cstring>

namespace npt::transport {

RingWriter::RingWriter(RingHeader* header, uint8_t* data, uint32_t size)
: m_header(header), m_data(data), m_size(size) {
  m_head = load_acquire(header->head);
  m_cached_tail = load_acquire(header->tail);
}

uint64_t RingWriter::free_space(bool refresh) {
  if (refresh)
    m_cached_tail = load_acquire(m_header->tail);
  return m_size - (m_head - m_cached_tail);
}

uint8_t* RingWriter::reserve_slow(RecordKind kind, uint32_t aux, uint32_t payload) {
  const uint64_t total = align8(sizeof(RecordHeader) + payload);
  const uint64_t pos = m_head & (m_size - 1);
  const uint64_t contiguous = m_size - pos;
  // A record never straddles the end: pad to the start when it does not fit.
  const uint64_t pad = total > contiguous ? contiguous : 0;

  if (free_space(false) < pad + total && free_space(true) < pad + total)
    return nullptr;

  if (pad) {
    RecordHeader h = { make_size_kind(RecordKind::Pad, 0), 0 };
    std::memcpy(m_data + pos, &h, sizeof(h));
    m_head += pad;
  }

  RecordHeader h = { make_size_kind(kind, payload), aux };
  uint8_t* record = m_data + (m_head & (m_size - 1));
  std::memcpy(record, &h, sizeof(h));
  m_pending = uint32_t(total);
  return record + sizeof(RecordHeader);
}


}
