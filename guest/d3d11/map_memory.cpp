// SPDX-License-Identifier: MIT
#include "map_memory.h"

#include "log.h"

namespace npt::guest {

namespace {

size_t pageSize() {
  static const size_t size = [] {
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return size_t(info.dwPageSize);
  }();
  return size;
}

}

void MapBytes::allocate(size_t size, bool watchWrites) {
  release();
  if (watchWrites && size) {
    const size_t page = pageSize();
    const size_t reserved = (size + page - 1) / page * page;
    void* memory = VirtualAlloc(nullptr, reserved, MEM_RESERVE | MEM_COMMIT | MEM_WRITE_WATCH, PAGE_READWRITE);
    if (memory) {
      m_watched = static_cast<uint8_t*>(memory);
      m_size = size;
      m_reserved = reserved;
      return;   // committed pages are zero
    }
    NPT_WARN("no write-watched memory for a %zu-byte dynamic buffer (error %lu): its Unmaps send all of it", size,
             GetLastError());
  }
  m_heap.assign(size, 0);
}

void MapBytes::release() {
  if (m_watched)
    VirtualFree(m_watched, 0, MEM_RELEASE);
  m_watched = nullptr;
  m_size = m_reserved = 0;
  m_heap.clear();
}

void MapBytes::resetWrites() {
  if (m_watched)
    ResetWriteWatch(m_watched, m_reserved);
}

bool changedRanges(const uint8_t* before, const uint8_t* now, size_t size, std::vector<WrittenRange>& ranges,
                   size_t maxRanges) {
  constexpr size_t kRangeCost = 8;   // an NPT_BYTE_RANGE on the wire
  ranges.clear();
  size_t total = 0;
  size_t i = 0;
  while (i < size) {
    if (before[i] == now[i]) {
      i++;
      continue;
    }
    size_t end = i + 1;
    // Extend over differing bytes and over equal runs shorter than a range's cost.
    for (size_t equal = 0; end < size; end++) {
      if (before[end] != now[end]) {
        equal = 0;
        continue;
      }
      if (++equal > kRangeCost) {
        end -= equal - 1;
        break;
      }
    }
    if (end > size) end = size;
    while (end > i && before[end - 1] == now[end - 1]) end--;
    if (ranges.size() == maxRanges) {
      ranges.clear();
      return false;
    }
    ranges.push_back({ uint32_t(i), uint32_t(end - i) });
    total += end - i;
    i = end;
  }
  if (total + ranges.size() * kRangeCost < size)
    return true;
  ranges.clear();
  return false;
}

bool MapBytes::writtenRanges(std::vector<WrittenRange>& ranges, size_t maxRanges) const {
  ranges.clear();
  if (!m_watched)
    return false;
  // Asked in windows of at most kChunk pages, so the address array never overflows
  // (GetWriteWatch would stop at its capacity without saying which pages remain).
  constexpr size_t kChunk = 256;
  void* addresses[kChunk];
  const size_t page = pageSize();
  for (size_t start = 0; start < m_reserved; start += kChunk * page) {
    const size_t window = m_reserved - start < kChunk * page ? m_reserved - start : kChunk * page;
    ULONG_PTR count = kChunk;
    DWORD granularity = 0;
    if (GetWriteWatch(0, m_watched + start, window, addresses, &count, &granularity) != 0) {
      NPT_WARN("GetWriteWatch failed (error %lu): the whole buffer is sent", GetLastError());
      return false;
    }
    for (ULONG_PTR i = 0; i < count; i++) {
      const size_t offset = size_t(static_cast<uint8_t*>(addresses[i]) - m_watched);
      if (offset >= m_size)
        continue;
      const size_t end = offset + granularity < m_size ? offset + granularity : m_size;
      if (!ranges.empty() && ranges.back().offset + ranges.back().size == offset) {
        ranges.back().size = uint32_t(end - ranges.back().offset);
        continue;
      }
      if (ranges.size() == maxRanges)
        return false;
      ranges.push_back({ uint32_t(offset), uint32_t(end - offset) });
    }
  }
  return true;
}

}
