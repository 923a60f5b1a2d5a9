// SPDX-License-Identifier: MIT
#include "dxbc/container.h"

#include "byte_io.h"

namespace dxbc {

void ContainerWriter::addChunk(FourCC tag, std::span<const uint8_t> payload) {
  m_chunks.push_back(Chunk{tag, std::vector<uint8_t>(payload.begin(), payload.end())});
}

void ContainerWriter::addChunk(FourCC tag, std::vector<uint8_t>&& payload) {
  m_chunks.push_back(Chunk{tag, std::move(payload)});
}

static uint64_t alignedSize(uint64_t size) { return (size + 3) & ~uint64_t(3); }

size_t ContainerWriter::containerSize() const {
  uint64_t size = kContainerHeaderSize + 4 * uint64_t(m_chunks.size());
  for (const Chunk& chunk : m_chunks)
    size += kChunkHeaderSize + alignedSize(chunk.payload.size());
  return size_t(size);
}

Status ContainerWriter::write(std::vector<uint8_t>& out) const {
  const uint64_t total = containerSize();
  if (total > 0xffffffffu || m_chunks.size() > kMaxChunkCount)
    return Status::fail(ErrorCode::TooLarge, "container would exceed 4 GiB or the chunk limit");

  out.assign(size_t(total), 0);
  uint8_t* p = out.data();
  storeLE32(p, tag::DXBC);
  storeLE32(p + 20, 1);
  storeLE32(p + 24, uint32_t(total));
  storeLE32(p + 28, uint32_t(m_chunks.size()));

  uint64_t offset = kContainerHeaderSize + 4 * uint64_t(m_chunks.size());
  for (size_t i = 0; i < m_chunks.size(); ++i) {
    const Chunk& chunk = m_chunks[i];
    storeLE32(p + kContainerHeaderSize + 4 * i, uint32_t(offset));
    storeLE32(p + offset, chunk.tag);
    storeLE32(p + offset + 4, uint32_t(alignedSize(chunk.payload.size())));
    if (!chunk.payload.empty())
      std::memcpy(p + offset + kChunkHeaderSize, chunk.payload.data(), chunk.payload.size());
    offset += kChunkHeaderSize + alignedSize(chunk.payload.size());
  }
  updateContainerChecksum(out);
  return Status::success();
}

}  // namespace dxbc
