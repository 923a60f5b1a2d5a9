#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <windows.h>

// The memory a map hands to the application. For a DYNAMIC buffer large enough to be
// worth it, the pages are write-watched (VirtualAlloc MEM_WRITE_WATCH, which Windows
// and Wine implement): the kernel (Wine: ntdll's fault handler) records which pages the
// application wrote since the map began, so Unmap sends only those instead of the
// whole buffer (design.md decision 3: NO_OVERWRITE appends must stay cheap).
// Everything else is plain heap memory and Unmap sends all of it.
namespace npt::guest {

struct WrittenRange {
  uint32_t offset = 0;
  uint32_t size = 0;
};

class MapBytes {
public:
  // Buffers from this size on get write-watched pages: below it the whole buffer costs
  // no more on the wire than a few pages, and each watched allocation takes 64 KiB of
  // address space.
  static constexpr size_t kWatchFromBytes = 16 * 1024;

  MapBytes() = default;
  MapBytes(const MapBytes&) = delete;
  MapBytes& operator=(const MapBytes&) = delete;
  ~MapBytes() { release(); }

  // `size` zeroed bytes; `watchWrites`: try write-watched pages (falls back to the heap).
  void allocate(size_t size, bool watchWrites);
  // As std::vector::assign(size, 0): plain memory, zeroed.
  void assign(size_t size, uint8_t value) { release(); m_heap.assign(size, value); }
  uint8_t* data() { return m_watched ? m_watched : m_heap.data(); }
  const uint8_t* data() const { return m_watched ? m_watched : m_heap.data(); }
  size_t size() const { return m_watched ? m_size : m_heap.size(); }
  bool empty() const { return size() == 0; }
  bool watched() const { return m_watched != nullptr; }

  // Forgets the writes so far (a map begins).
  void resetWrites();
  // The byte ranges written since resetWrites, page-granular, clipped to size(), merged
  // when adjacent, in increasing order. False when they cannot be told (plain memory,
  // or more than `maxRanges` ranges): the caller sends everything.
  bool writtenRanges(std::vector<WrittenRange>& ranges, size_t maxRanges) const;

private:
  void release();

  std::vector<uint8_t> m_heap;
  uint8_t* m_watched = nullptr;   // VirtualAlloc'd, MEM_WRITE_WATCH
  size_t m_size = 0;
  size_t m_reserved = 0;          // whole pages
};

}
