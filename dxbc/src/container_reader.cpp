// SPDX-License-Identifier: MIT
#include "dxbc/container.h"

#include <algorithm>

#include "byte_io.h"

namespace dxbc {

Status ContainerReader::parse(std::span<const uint8_t> bytes, ContainerReader& out,
                              const ReadOptions& options) {
  out = ContainerReader();
  const uint64_t size = bytes.size();
  if (size < kContainerHeaderSize)
    return Status::fail(ErrorCode::TooSmall, "container shorter than its 32-byte header");
  const uint8_t* p = bytes.data();
  if (loadLE32(p) != tag::DXBC)
    return Status::fail(ErrorCode::BadMagic, "container does not start with DXBC");
  if (loadLE32(p + 20) != 1)
    return Status::fail(ErrorCode::BadVersion, "container format version is not 1", 20);

  const uint64_t declaredSize = loadLE32(p + 24);
  if (options.requireExactSize ? declaredSize != size
                               : (declaredSize > size || declaredSize < kContainerHeaderSize))
    return Status::fail(ErrorCode::SizeMismatch, "header size differs from buffer size", 24);
  bytes = bytes.first(size_t(declaredSize));

  const uint64_t count = loadLE32(p + 28);
  if (count > kMaxChunkCount || kContainerHeaderSize + 4 * count > declaredSize)
    return Status::fail(ErrorCode::TooManyChunks, "chunk table does not fit in the container", 28);
  const uint64_t tableEnd = kContainerHeaderSize + 4 * count;

  std::vector<ChunkView> chunks;
  chunks.reserve(size_t(count));
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t entryOffset = uint32_t(kContainerHeaderSize + 4 * i);
    const uint64_t offset = loadLE32(p + entryOffset);
    if (offset & 3)
      return Status::fail(ErrorCode::ChunkOffsetMisaligned, "chunk offset not 4-byte aligned",
                          entryOffset);
    if (offset < tableEnd)
      return Status::fail(ErrorCode::ChunkOverlap, "chunk overlaps the container header",
                          entryOffset);
    if (offset + kChunkHeaderSize > declaredSize)
      return Status::fail(ErrorCode::ChunkOffsetOutOfRange, "chunk header outside the container",
                          entryOffset);
    const uint64_t payloadSize = loadLE32(p + offset + 4);
    if (offset + kChunkHeaderSize + payloadSize > declaredSize)
      return Status::fail(ErrorCode::ChunkSizeOutOfRange, "chunk payload runs past the container",
                          uint32_t(offset + 4));
    ChunkView chunk;
    chunk.tag = loadLE32(p + offset);
    chunk.offset = uint32_t(offset);
    chunk.data = bytes.subspan(size_t(offset + kChunkHeaderSize), size_t(payloadSize));
    chunks.push_back(chunk);
  }

  // Overlap check on a copy sorted by offset; the table order is kept for callers.
  std::vector<ChunkView> sorted = chunks;
  std::sort(sorted.begin(), sorted.end(),
            [](const ChunkView& a, const ChunkView& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    const uint64_t prevEnd = uint64_t(sorted[i - 1].offset) + kChunkHeaderSize +
                             sorted[i - 1].data.size();
    if (sorted[i].offset < prevEnd)
      return Status::fail(ErrorCode::ChunkOverlap, "two chunks share bytes", sorted[i].offset);
  }

  Checksum stored;
  for (int i = 0; i < 4; ++i)
    stored[i] = loadLE32(p + 4 + 4 * i);
  if (options.verifyChecksum && computeContainerChecksum(bytes) != stored)
    return Status::fail(ErrorCode::BadChecksum, "stored checksum does not match contents", 4);

  out.m_bytes = bytes;
  out.m_checksum = stored;
  out.m_chunks = std::move(chunks);
  return Status::success();
}

const ChunkView* ContainerReader::find(FourCC tag) const {
  for (const ChunkView& chunk : m_chunks)
    if (chunk.tag == tag)
      return &chunk;
  return nullptr;
}

const ChunkView* ContainerReader::findAny(std::span<const FourCC> tags) const {
  for (const ChunkView& chunk : m_chunks)
    if (std::find(tags.begin(), tags.end(), chunk.tag) != tags.end())
      return &chunk;
  return nullptr;
}

}  // namespace dxbc
