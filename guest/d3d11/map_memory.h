// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <windows.h>

// The memory a map hands to the application. For a DYNAMIC subresource large enough to
// be worth it, the pages are write-watched (VirtualAlloc MEM_WRITE_WATCH, which Windows
// and Wine implement): the kernel (Wine: ntdll's fault handler) records which pages the
// application wrote since the map began, so Unmap sends only those instead of the
// whole subresource (design.md decision 3: NO_OVERWRITE appends must stay cheap).
// Smaller ones are plain heap memory: their Unmap sends the bytes that differ from the
// contents at Map (changedRanges), which the host applies to its mirror of them.
namespace npt::guest {

struct WrittenRange {
  uint32_t offset = 0;
  uint32_t size = 0;
};

class MapBytes {
public:
  // Subresources from this size on get write-watched pages: below it a page is a large
  // part of the whole, and each watched allocation takes 64 KiB of address space. Below
  // it the host mirrors DYNAMIC subresources (host/executor kMirroredDynamicBytes, the
  // same size), so Unmaps may send changed bytes only.
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

// The byte ranges where `now` differs from `before` (both `size` bytes), in increasing
// order; ranges closer than a range's own wire cost (8 bytes) are merged. False when
// they would cost as much as the whole (more than `maxRanges` ranges, or bytes plus
// range headers not below `size`), with `ranges` empty: the caller sends everything.
bool changedRanges(const uint8_t* before, const uint8_t* now, size_t size, std::vector<WrittenRange>& ranges,
                   size_t maxRanges);

}
