// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>

#include "neptune/transport/device_layout.h"

// Who owns each chunk of a shared-memory device's data area: one byte per chunk, 0 free,
// else the owning slot + 1. Host-private memory shared by the server parent and its
// workers (never the guest's region): the parent allocates a context's memory, a worker
// its context's bulk regions, and the parent frees everything a slot owns once that
// slot's worker is gone. Claims are compare-exchanges chunk by chunk, so a worker killed
// while it allocates leaves only chunks of its own slot behind, which the parent frees.
namespace npt::server {

class DeviceChunks {
public:
  DeviceChunks() = default;
  DeviceChunks(uint8_t* owners, uint64_t data_offset, uint64_t region_size)
  : m_owners(owners), m_data_offset(data_offset),
    m_count(region_size > data_offset ? (region_size - data_offset) / transport::device::kChunkSize : 0) {}

  // Bytes the owner table needs for a device of region_size bytes.
  static uint64_t table_bytes(uint64_t region_size) { return region_size / transport::device::kChunkSize + 1; }

  // A device offset of size bytes (rounded up to chunks) owned by `slot`, or 0 when no
  // free range is that large.
  uint64_t allocate(uint32_t slot, uint64_t size) {
    const uint64_t n = (size + transport::device::kChunkSize - 1) / transport::device::kChunkSize;
    if (!n || n > m_count)
      return 0;
    const uint8_t owner = uint8_t(slot + 1);
    for (uint64_t start = 0; start + n <= m_count;) {
      uint64_t claimed = 0;
      while (claimed < n) {
        uint8_t expected = 0;
        if (!std::atomic_ref<uint8_t>(m_owners[start + claimed]).compare_exchange_strong(expected, owner))
          break;
        claimed++;
      }
      if (claimed == n)
        return m_data_offset + start * transport::device::kChunkSize;
      for (uint64_t i = 0; i < claimed; i++)
        std::atomic_ref<uint8_t>(m_owners[start + i]).store(0);
      start += claimed + 1;
    }
    return 0;
  }

  // Frees the range allocate() returned for `slot` (chunks it does not own stay as they are).
  void free(uint32_t slot, uint64_t offset, uint64_t size) {
    if (offset < m_data_offset)
      return;
    const uint64_t first = (offset - m_data_offset) / transport::device::kChunkSize;
    const uint64_t n = (size + transport::device::kChunkSize - 1) / transport::device::kChunkSize;
    for (uint64_t i = first; i < first + n && i < m_count; i++) {
      uint8_t expected = uint8_t(slot + 1);
      std::atomic_ref<uint8_t>(m_owners[i]).compare_exchange_strong(expected, 0);
    }
  }

  // Frees every chunk of `slot` (its worker is gone); returns how many bytes.
  uint64_t free_all(uint32_t slot) {
    uint64_t freed = 0;
    for (uint64_t i = 0; i < m_count; i++) {
      uint8_t expected = uint8_t(slot + 1);
      if (std::atomic_ref<uint8_t>(m_owners[i]).compare_exchange_strong(expected, 0))
        freed += transport::device::kChunkSize;
    }
    return freed;
  }

  uint64_t free_bytes() const {
    uint64_t n = 0;
    for (uint64_t i = 0; i < m_count; i++)
      n += std::atomic_ref<uint8_t>(m_owners[i]).load(std::memory_order_relaxed) == 0;
    return n * transport::device::kChunkSize;
  }

private:
  uint8_t* m_owners = nullptr;
  uint64_t m_data_offset = 0;
  uint64_t m_count = 0;
};

}
