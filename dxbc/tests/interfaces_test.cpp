// SPDX-License-Identifier: MIT
// dxbc/interfaces.h: the IFCE chunk written and read back, every truncation and a sample
// of corruptions refused without reading outside the payload, interface declarations
// from tokens, and the chunk a driver synthesizes from them.

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "dxbc/container.h"
#include "dxbc/fourcc.h"
#include "dxbc/interfaces.h"

namespace {

dxbc::InterfacesChunk sample() {
  dxbc::InterfacesChunk chunk;
  chunk.types = {{"cAmbient", 0, 1, 0, 0}, {"cDirectional", 1, 2, 1, 1}, {"cPoint", 2, 3, 0, 0}};
  chunk.instances = {{"g_ambient", 0, 0, 0, 0, dxbc::kNoInstanceBinding, dxbc::kNoInstanceBinding},
                     {"g_sun", 1, 0, 0, 2, 3, 1}};
  chunk.slots = {{1, {0, 1, 2}, {0, 1, 2}}, {2, {1, 2}, {4, 5}}};
  chunk.slotCount = 3;
  return chunk;
}

TEST(Interfaces, ChunkRoundTrips) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(dxbc::writeInterfacesChunk(sample(), bytes).ok());
  EXPECT_EQ(bytes.size() % 4, 0u);
  dxbc::InterfacesChunk back;
  ASSERT_TRUE(dxbc::parseInterfacesChunk(bytes, back).ok());
  const dxbc::InterfacesChunk want = sample();
  ASSERT_EQ(back.types.size(), want.types.size());
  for (size_t i = 0; i < want.types.size(); ++i) {
    EXPECT_EQ(back.types[i].name, want.types[i].name);
    EXPECT_EQ(back.types[i].id, want.types[i].id);
    EXPECT_EQ(back.types[i].constantBufferStride, want.types[i].constantBufferStride);
    EXPECT_EQ(back.types[i].textureCount, want.types[i].textureCount);
  }
  ASSERT_EQ(back.instances.size(), 2u);
  EXPECT_EQ(back.instances[1].name, "g_sun");
  EXPECT_EQ(back.instances[1].constantBufferOffset, 2u);
  EXPECT_EQ(back.instances[1].texture, 3u);
  EXPECT_EQ(back.instances[0].texture, dxbc::kNoInstanceBinding);
  EXPECT_EQ(back.slotCount, 3u);
  ASSERT_EQ(back.slots.size(), 2u);
  EXPECT_EQ(back.slots[1].slotCount, 2u);
  EXPECT_EQ(back.slots[1].tableIds, (std::vector<uint32_t>{4, 5}));
  // Slot 2 lies in the second range: cPoint (type 2) selects table 5 there.
  uint32_t table = 0;
  EXPECT_TRUE(dxbc::functionTableFor(back, 2, 2, table));
  EXPECT_EQ(table, 5u);
  EXPECT_TRUE(dxbc::functionTableFor(back, 0, 2, table));
  EXPECT_EQ(table, 2u);
  EXPECT_FALSE(dxbc::functionTableFor(back, 1, 0, table)) << "cAmbient is not accepted in slots 1-2";
  EXPECT_FALSE(dxbc::functionTableFor(back, 3, 1, table)) << "no slot 3";
  ASSERT_NE(dxbc::findClassType(back, "cDirectional"), nullptr);
  EXPECT_EQ(dxbc::findClassType(back, "cSpot"), nullptr);
}

TEST(Interfaces, HostileChunksAreRefused) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(dxbc::writeInterfacesChunk(sample(), bytes).ok());
  dxbc::InterfacesChunk out;
  // Every truncation up to the last name's NUL (only alignment padding follows it): the
  // names sit at the end, so each such prefix cuts something needed.
  size_t contentEnd = bytes.size();
  while (contentEnd > 0 && bytes[contentEnd - 1] == 0)
    --contentEnd;
  ++contentEnd;   // the last name's NUL
  for (size_t size = 0; size < contentEnd; ++size) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
    EXPECT_FALSE(dxbc::parseInterfacesChunk(prefix, out).ok()) << size;
  }
  // Random corruptions parse or fail, never read outside (checked under ASan in the native build).
  std::mt19937 random(7);
  for (int i = 0; i < 5000; ++i) {
    std::vector<uint8_t> corrupt = bytes;
    corrupt[random() % corrupt.size()] = uint8_t(random());
    corrupt[random() % corrupt.size()] = uint8_t(random());
    (void)dxbc::parseInterfacesChunk(corrupt, out);
  }
  // Huge counts are refused before anything is allocated.
  std::vector<uint8_t> huge = bytes;
  huge[0] = huge[1] = huge[2] = 0xff;
  EXPECT_FALSE(dxbc::parseInterfacesChunk(huge, out).ok());
}

// ps_5_0: dcl_function_body fb0..fb2, ft0 = {fb0}, ft1 = {fb1}, ft2 = {fb2},
// fp0[1][1] = {ft0, ft1}, fp1[2][1] = {ft1, ft2}.
std::vector<uint8_t> interfaceTokens() {
  const std::vector<uint32_t> words = {
      0x00000050 | (0u << 16), 0,   // version (pixel, 5.0), length patched below
      0x02000090, 0, 0x02000090, 1, 0x02000090, 2,
      0x04000091, 0, 1, 0, 0x04000091, 1, 1, 1, 0x04000091, 2, 1, 2,
      0x06000092, 0, 1, 0x00010002, 0, 1,
      0x06000092, 1, 1, 0x00020002, 1, 2,
      0x0100003e,   // ret
  };
  std::vector<uint32_t> program = words;
  program[1] = uint32_t(program.size());
  std::vector<uint8_t> bytes(program.size() * 4);
  std::memcpy(bytes.data(), program.data(), bytes.size());
  return bytes;
}

TEST(Interfaces, DeclarationsAndTheSynthesizedChunk) {
  dxbc::ShaderInterfaces declared;
  ASSERT_TRUE(dxbc::scanInterfaces(interfaceTokens(), declared).ok());
  EXPECT_EQ(declared.functionBodyCount, 3u);
  ASSERT_EQ(declared.tables.size(), 3u);
  EXPECT_EQ(declared.tables[2].bodies, (std::vector<uint32_t>{2}));
  ASSERT_EQ(declared.interfaces.size(), 2u);
  EXPECT_EQ(declared.interfaces[1].firstSlot, 1u);
  EXPECT_EQ(declared.interfaces[1].arrayLength, 2u);
  EXPECT_EQ(declared.interfaces[1].tables, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(declared.slotCount, 3u);

  dxbc::InterfacesChunk chunk;
  ASSERT_TRUE(dxbc::synthesizeInterfacesChunk(declared, chunk).ok());
  EXPECT_EQ(chunk.slotCount, 3u);
  ASSERT_EQ(chunk.types.size(), 3u);
  EXPECT_EQ(chunk.types[1].name, dxbc::functionTableClassName(1));
  uint32_t table = 0;
  EXPECT_TRUE(dxbc::functionTableFor(chunk, 2, 2, table));
  EXPECT_EQ(table, 2u);
  EXPECT_FALSE(dxbc::functionTableFor(chunk, 0, 2, table)) << "fp0 lists ft0 and ft1 only";

  // Into a container (replacing an IFCE it had), readable and checksummed.
  dxbc::ContainerWriter writer;
  writer.addChunk(dxbc::tag::SHEX, interfaceTokens());
  std::vector<uint8_t> container;
  ASSERT_TRUE(writer.write(container).ok());
  ASSERT_TRUE(dxbc::addInterfacesChunk(container, chunk).ok());
  ASSERT_TRUE(dxbc::addInterfacesChunk(container, chunk).ok());
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(container, reader).ok()) << "checksum recomputed";
  EXPECT_EQ(reader.chunkCount(), 2u);
  const dxbc::ChunkView* ifce = reader.find(dxbc::tag::IFCE);
  ASSERT_NE(ifce, nullptr);
  dxbc::InterfacesChunk back;
  EXPECT_TRUE(dxbc::parseInterfacesChunk(ifce->data, back).ok());
  EXPECT_EQ(back.slotCount, 3u);

  // A truncated declaration is refused.
  std::vector<uint8_t> broken = interfaceTokens();
  broken[4 * 20] = 0x92;
  broken[4 * 20 + 3] = 0x7f;   // dcl_interface claiming 127 tokens
  EXPECT_FALSE(dxbc::scanInterfaces(broken, declared).ok());
}

}  // namespace
