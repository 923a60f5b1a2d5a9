#include "neptune/transport/bulk_allocator.h"

namespace npt::transport {

void BulkAllocator::init(uint32_t region, uint8_t* base, uint64_t size) {
  std::lock_guard lock(m_mutex);
  m_region = region;
  m_base = base;
  m_size = size & ~(kAlignment - 1);
  m_free.clear();
  if (m_size)
    m_free.emplace(0, m_size);
}

bool BulkAllocator::allocate(uint64_t size, BulkRef* out) {
  if (size == 0)
    size = 1;
  uint64_t rounded = (size + kAlignment - 1) & ~(kAlignment - 1);
  std::lock_guard lock(m_mutex);
  for (auto it = m_free.begin(); it != m_free.end(); ++it) {
    if (it->second < rounded)
      continue;
    uint64_t offset = it->first;
    uint64_t remaining = it->second - rounded;
    m_free.erase(it);
    if (remaining)
      m_free.emplace(offset + rounded, remaining);
    *out = { m_region, 0, offset, size };
    return true;
  }
  return false;
}

void BulkAllocator::free(const BulkRef& ref) {
  uint64_t rounded = ((ref.size ? ref.size : 1) + kAlignment - 1) & ~(kAlignment - 1);
  std::lock_guard lock(m_mutex);
  auto [it, inserted] = m_free.emplace(ref.offset, rounded);
  if (!inserted)
    return;
  auto next = std::next(it);
  if (next != m_free.end() && it->first + it->second == next->first) {
    it->second += next->second;
    m_free.erase(next);
  }
  if (it != m_free.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == it->first) {
      prev->second += it->second;
      m_free.erase(it);
    }
  }
}

uint64_t BulkAllocator::free_bytes() const {
  std::lock_guard lock(m_mutex);
  uint64_t total = 0;
  for (auto& [offset, size] : m_free)
    total += size;
  return total;
}

}
