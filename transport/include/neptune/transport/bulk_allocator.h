#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "neptune/transport/layout.h"

// Guest-side sub-allocator of a bulk region. The host never trusts it: every BulkRef
// is checked against the region size the host knows.
namespace npt::transport {

class BulkAllocator {
public:
  static constexpr uint64_t kAlignment = 64;

  BulkAllocator() = default;
  BulkAllocator(uint32_t region, uint8_t* base, uint64_t size) { init(region, base, size); }
  void init(uint32_t region, uint8_t* base, uint64_t size);

  bool allocate(uint64_t size, BulkRef* out);
  void free(const BulkRef& ref);

  uint8_t* pointer(const BulkRef& ref) const { return m_base + ref.offset; }
  uint64_t free_bytes() const;
  uint64_t size() const { return m_size; }

private:
  mutable std::mutex m_mutex;
  uint32_t m_region = 0;
  uint8_t* m_base = nullptr;
  uint64_t m_size = 0;
  std::map<uint64_t, uint64_t> m_free;   // offset → size, coalesced
};

}
