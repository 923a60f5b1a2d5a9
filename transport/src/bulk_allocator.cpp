// SPDX-License-Identifier: MIT
#include "neptune/transport/bulk_allocator.h"

namespace npt::transport {

namespace {

uint64_t rounded_size(uint64_t size) {
  return ((size ? size : 1) + BulkAllocator::kAlignment - 1) & ~(BulkAllocator::kAlignment - 1);
}

}

void BulkAllocator::init(uint32_t region, uint8_t* base, uint64_t size) {
  {
    std::lock_guard lock(m_mutex);
    m_regions.clear();
    m_bases.fill(nullptr);
  }
  add_region(region, base, size);
}

bool BulkAllocator::add_region(uint32_t region, uint8_t* base, uint64_t size) {
  std::lock_guard lock(m_mutex);
  if (region >= kMaxBulkRegions || m_bases[region] || !base)
    return false;
  Region r{ region, size & ~(kAlignment - 1), {} };
  if (r.size)
    r.free.emplace(0, r.size);
  m_bases[region] = base;
  m_regions.push_back(std::move(r));
  return true;
}

BulkAllocator::Region* BulkAllocator::find(uint32_t id) {
  for (Region& r : m_regions)
    if (r.id == id)
      return &r;
  return nullptr;
}

bool BulkAllocator::allocate(uint64_t size, BulkRef* out) {
  const uint64_t rounded = rounded_size(size);
  std::lock_guard lock(m_mutex);
  for (Region& region : m_regions) {
    for (auto it = region.free.begin(); it != region.free.end(); ++it) {
      if (it->second < rounded)
        continue;
      uint64_t offset = it->first;
      uint64_t remaining = it->second - rounded;
      region.free.erase(it);
      if (remaining)
        region.free.emplace(offset + rounded, remaining);
      *out = { region.id, 0, offset, size };
      return true;
    }
  }
  return false;
}

void BulkAllocator::free(const BulkRef& ref) {
  const uint64_t rounded = rounded_size(ref.size);
  std::lock_guard lock(m_mutex);
  Region* region = find(ref.region);
  if (!region)
    return;
  auto& free = region->free;
  auto [it, inserted] = free.emplace(ref.offset, rounded);
  if (!inserted)
    return;
  auto next = std::next(it);
  if (next != free.end() && it->first + it->second == next->first) {
    it->second += next->second;
    free.erase(next);
  }
  if (it != free.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == it->first) {
      prev->second += it->second;
      free.erase(it);
    }
  }
}

uint64_t BulkAllocator::free_bytes() const {
  std::lock_guard lock(m_mutex);
  uint64_t total = 0;
  for (const Region& region : m_regions)
    for (auto& [offset, size] : region.free)
      total += size;
  return total;
}

uint64_t BulkAllocator::size() const {
  std::lock_guard lock(m_mutex);
  uint64_t total = 0;
  for (const Region& region : m_regions)
    total += region.size;
  return total;
}

uint64_t BulkAllocator::largest_region() const {
  std::lock_guard lock(m_mutex);
  uint64_t largest = 0;
  for (const Region& region : m_regions)
    largest = region.size > largest ? region.size : largest;
  return largest;
}

uint32_t BulkAllocator::region_count() const {
  std::lock_guard lock(m_mutex);
  return uint32_t(m_regions.size());
}

}
