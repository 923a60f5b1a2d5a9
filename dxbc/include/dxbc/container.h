// SPDX-License-Identifier: MIT
#pragma once

// Reading and writing DXBC containers.
//
// Layout: "DXBC" | checksum[16] | version=1 | totalSize | chunkCount | offsets[chunkCount]
// then per chunk: fourcc | size | payload[size]. The reader validates every offset and size
// against the buffer and rejects overlapping chunks before anything reads a payload.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dxbc/checksum.h"
#include "dxbc/fourcc.h"
#include "dxbc/status.h"

namespace dxbc {

constexpr uint32_t kContainerHeaderSize = 32;   // magic, checksum, version, size, count
constexpr uint32_t kChunkHeaderSize = 8;
constexpr uint32_t kMaxChunkCount = 4096;       // far beyond anything fxc writes

struct ChunkView {
  FourCC tag = 0;
  uint32_t offset = 0;                 // offset of the chunk header in the container
  std::span<const uint8_t> data;       // payload, inside the container buffer
};

struct ReadOptions {
  bool verifyChecksum = true;
  bool requireExactSize = true;        // header size must equal buffer size (else: <=)
};

// A validated view of a container. It does not own the bytes: keep the buffer alive.
class ContainerReader {
public:
  ContainerReader() = default;

  // Validates bytes and fills out. On failure out is left empty.
  static Status parse(std::span<const uint8_t> bytes, ContainerReader& out,
                      const ReadOptions& options = {});

  std::span<const uint8_t> bytes() const { return m_bytes; }
  const Checksum& storedChecksum() const { return m_checksum; }
  size_t chunkCount() const { return m_chunks.size(); }
  const ChunkView& chunk(size_t index) const { return m_chunks[index]; }
  const std::vector<ChunkView>& chunks() const { return m_chunks; }

  // First chunk with the tag, or nullptr.
  const ChunkView* find(FourCC tag) const;
  // First chunk with any of the tags (in chunk order), or nullptr.
  const ChunkView* findAny(std::span<const FourCC> tags) const;

private:
  std::span<const uint8_t> m_bytes;
  Checksum m_checksum{};
  std::vector<ChunkView> m_chunks;
};

// Builds a container from chunks in the order they were added.
class ContainerWriter {
public:
  // Copies payload. Payloads are padded to 4 bytes with zeros only if their size is
  // not a multiple of 4 (fxc's chunks always are).
  void addChunk(FourCC tag, std::span<const uint8_t> payload);
  void addChunk(FourCC tag, std::vector<uint8_t>&& payload);

  size_t chunkCount() const { return m_chunks.size(); }
  void clear() { m_chunks.clear(); }

  // Exact size write() will produce.
  size_t containerSize() const;

  // Serializes with header, chunk table and checksum; out is replaced.
  Status write(std::vector<uint8_t>& out) const;

private:
  struct Chunk {
    FourCC tag;
    std::vector<uint8_t> payload;
  };
  std::vector<Chunk> m_chunks;
};

}  // namespace dxbc
