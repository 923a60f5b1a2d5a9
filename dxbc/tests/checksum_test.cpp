// SPDX-License-Identifier: MIT
// The DXBC checksum: the corpus pins it down; these tests make sure the corpus exercises
// both final-block layouts and that every payload byte influences the result.

#include <gtest/gtest.h>

#include "corpus.h"
#include "dxbc/dxbc.h"

namespace dxbc::test {
namespace {

TEST(Checksum, CorpusCoversBothFinalBlockLayouts) {
  const auto files = corpusFiles();
  if (files.empty())
    GTEST_SKIP() << "corpus not found";
  size_t shortTail = 0, longTail = 0;
  for (const std::string& path : files) {
    const std::vector<uint8_t> bytes = readBytes(path);
    ASSERT_GE(bytes.size(), 32u);
    Checksum stored;
    for (int i = 0; i < 4; ++i)
      stored[i] = uint32_t(bytes[4 + 4 * i]) | (uint32_t(bytes[5 + 4 * i]) << 8) |
                  (uint32_t(bytes[6 + 4 * i]) << 16) | (uint32_t(bytes[7 + 4 * i]) << 24);
    ASSERT_EQ(computeContainerChecksum(bytes), stored) << path;
    ((bytes.size() - 20) % 64 >= 56 ? longTail : shortTail)++;
  }
  EXPECT_GT(shortTail, 0u);
  EXPECT_GT(longTail, 0u);
}

TEST(Checksum, EveryByteMatters) {
  for (size_t size : {0u, 1u, 55u, 56u, 63u, 64u, 119u, 120u, 200u}) {
    std::vector<uint8_t> payload(size);
    for (size_t i = 0; i < size; ++i)
      payload[i] = uint8_t(i * 7 + 3);
    const Checksum base = computeChecksumOfPayload(payload);
    for (size_t i = 0; i < size; ++i) {
      payload[i] ^= 0x10;
      EXPECT_NE(computeChecksumOfPayload(payload), base) << size << "/" << i;
      payload[i] ^= 0x10;
    }
    // Length is part of the hash: a trailing zero byte changes it.
    std::vector<uint8_t> longer = payload;
    longer.push_back(0);
    EXPECT_NE(computeChecksumOfPayload(longer), base);
  }
}

TEST(Checksum, UpdateInPlaceMatchesReader) {
  std::vector<uint8_t> bytes(64, 0);
  EXPECT_TRUE(updateContainerChecksum(bytes));
  EXPECT_EQ(computeContainerChecksum(bytes)[0],
            uint32_t(bytes[4]) | (uint32_t(bytes[5]) << 8) | (uint32_t(bytes[6]) << 16) |
                (uint32_t(bytes[7]) << 24));
  std::vector<uint8_t> tiny(10, 0);
  EXPECT_FALSE(updateContainerChecksum(tiny));
}

}  // namespace
}  // namespace dxbc::test
