// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "neptune/transport/layout.h"

// Guest-side sub-allocator of the bulk regions: region 0, and the regions the host added
// after connect. The host never trusts it: every BulkRef is checked against the region
// size the host knows.
namespace npt::transport {

class BulkAllocator {
public:
  static constexpr uint64_t kAlignment = 64;

  BulkAllocator() = default;
  BulkAllocator(uint32_t region, uint8_t* base, uint64_t size) { init(region, base, size); }
  // Forgets every region and starts over with this one.
  void init(uint32_t region, uint8_t* base, uint64_t size);
  // One more region (id below kMaxBulkRegions, not in use yet); allocations try the
  // regions in the order they were added.
  bool add_region(uint32_t region, uint8_t* base, uint64_t size);

  bool allocate(uint64_t size, BulkRef* out);
  void free(const BulkRef& ref);

  uint8_t* pointer(const BulkRef& ref) const {
    return ref.region < kMaxBulkRegions ? m_bases[ref.region] + ref.offset : nullptr;
  }
  uint64_t free_bytes() const;
  // Bytes of all regions together.
  uint64_t size() const;
  // The largest single allocation any region could ever hold.
  uint64_t largest_region() const;
  uint32_t region_count() const;
  // Whether region id is one of this allocator's (not a region the host made for replies).
  bool holds(uint32_t id) const { return id < kMaxBulkRegions && m_bases[id] != nullptr; }

private:
  struct Region {
    uint32_t id;
    uint64_t size;
    std::map<uint64_t, uint64_t> free;   // offset → size, coalesced
  };
  Region* find(uint32_t id);

  mutable std::mutex m_mutex;
  std::vector<Region> m_regions;
  // Written before a region hands out its first reference, read without the lock.
  std::array<uint8_t*, kMaxBulkRegions> m_bases{};
};

}
