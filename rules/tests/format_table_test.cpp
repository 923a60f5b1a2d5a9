// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <set>

#include "npt/validation/format_table.h"
#include "npt/validation/size_math.h"

using namespace npt::validation;

namespace {

TEST(FormatTable, CoversEveryDxgiFormat) {
  // 1..115 are contiguous in DXGI; 130..132 the 4:2:2/4:4:0/4:4:4 video formats; 189..191.
  for (uint32_t value = 1; value <= 115; value++) EXPECT_NE(lookupFormat(value), nullptr) << value;
  for (uint32_t value = 130; value <= 132; value++) EXPECT_NE(lookupFormat(value), nullptr) << value;
  for (uint32_t value = 189; value <= 191; value++) EXPECT_NE(lookupFormat(value), nullptr) << value;
  EXPECT_EQ(lookupFormat(0u), nullptr);
  EXPECT_EQ(lookupFormat(116u), nullptr);
  EXPECT_EQ(lookupFormat(0xffffffffu), nullptr);
  EXPECT_EQ(formatTableEnd() - formatTableBegin(), 115 + 3 + 3);
}

TEST(FormatTable, EntriesAreConsistent) {
  for (const FormatInfo* f = formatTableBegin(); f != formatTableEnd(); f++) {
    SCOPED_TRACE(f->name);
    EXPECT_EQ(lookupFormat(f->format), f);
    if (!f->is(FormatD3D12Only)) {
      EXPECT_GT(f->blockBytes, 0);
    }
    EXPECT_GE(f->blockWidth, 1);
    EXPECT_GE(f->blockHeight, 1);
    if (f->is(FormatCompressed)) {
      EXPECT_EQ(f->blockWidth, 4);
      EXPECT_EQ(f->blockHeight, 4);
    }
    // A family is always a typeless format or the format itself.
    if (f->family != DXGI_FORMAT_UNKNOWN) {
      const FormatInfo* family = lookupFormat(f->family);
      ASSERT_NE(family, nullptr);
      EXPECT_TRUE(family == f || family->is(FormatTypeless)) << family->name;
    }
    EXPECT_FALSE(f->is(FormatVertex) && f->is(FormatTypeless));
    EXPECT_FALSE(f->is(FormatRenderable) && (f->is(FormatDepth) || f->is(FormatCompressed)));
  }
}

TEST(FormatTable, KnownLayouts) {
  struct Expect {
    DXGI_FORMAT format;
    uint8_t bytes, bw, bh;
  };
  const Expect expects[] = {
    {DXGI_FORMAT_R32G32B32A32_FLOAT, 16, 1, 1}, {DXGI_FORMAT_R32G32B32_UINT, 12, 1, 1},
    {DXGI_FORMAT_R8G8B8A8_UNORM, 4, 1, 1},      {DXGI_FORMAT_R16_FLOAT, 2, 1, 1},
    {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 8, 1, 1}, {DXGI_FORMAT_BC1_UNORM, 8, 4, 4},
    {DXGI_FORMAT_BC4_SNORM, 8, 4, 4},           {DXGI_FORMAT_BC7_UNORM_SRGB, 16, 4, 4},
    {DXGI_FORMAT_BC6H_SF16, 16, 4, 4},          {DXGI_FORMAT_R8G8_B8G8_UNORM, 4, 2, 1},
    {DXGI_FORMAT_YUY2, 4, 2, 1},                {DXGI_FORMAT_Y216, 8, 2, 1},
    {DXGI_FORMAT_B4G4R4A4_UNORM, 2, 1, 1},      {DXGI_FORMAT_R1_UNORM, 1, 8, 1},
  };
  for (const Expect& e : expects) {
    const FormatInfo* f = lookupFormat(e.format);
    ASSERT_NE(f, nullptr);
    SCOPED_TRACE(f->name);
    EXPECT_EQ(f->blockBytes, e.bytes);
    EXPECT_EQ(f->blockWidth, e.bw);
    EXPECT_EQ(f->blockHeight, e.bh);
  }
}

TEST(FormatTable, Families) {
  EXPECT_TRUE(formatsShareFamily(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB));
  EXPECT_TRUE(formatsShareFamily(DXGI_FORMAT_R24G8_TYPELESS, DXGI_FORMAT_D24_UNORM_S8_UINT));
  EXPECT_TRUE(formatsShareFamily(DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_D32_FLOAT));
  EXPECT_FALSE(formatsShareFamily(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM));
  EXPECT_FALSE(formatsShareFamily(DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R16G16_FLOAT));
  EXPECT_TRUE(formatsCopyCompatible(DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R32G32_UINT));
  EXPECT_TRUE(formatsCopyCompatible(DXGI_FORMAT_R32G32B32A32_UINT, DXGI_FORMAT_BC7_UNORM));
  EXPECT_FALSE(formatsCopyCompatible(DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R32G32B32A32_UINT));
  EXPECT_FALSE(formatsCopyCompatible(DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_BC7_UNORM));
}

TEST(SizeMath, Footprints) {
  uint64_t rowBytes = 0, rows = 0;
  ASSERT_TRUE(mipFootprint(*lookupFormat(DXGI_FORMAT_BC1_UNORM), 10, 6, rowBytes, rows));
  EXPECT_EQ(rowBytes, 3u * 8);   // ceil(10/4) blocks
  EXPECT_EQ(rows, 2u);
  ASSERT_TRUE(mipFootprint(*lookupFormat(DXGI_FORMAT_NV12), 64, 32, rowBytes, rows));
  EXPECT_EQ(rowBytes, 64u);
  EXPECT_EQ(rows, 48u);   // luma + half-height chroma
  ASSERT_TRUE(mipFootprint(*lookupFormat(DXGI_FORMAT_P010), 64, 32, rowBytes, rows));
  EXPECT_EQ(rowBytes, 128u);
  ASSERT_TRUE(mipFootprint(*lookupFormat(DXGI_FORMAT_YUY2), 5, 3, rowBytes, rows));
  EXPECT_EQ(rowBytes, 12u);
  EXPECT_EQ(rows, 3u);
}

TEST(SizeMath, ReadExtentOverflow) {
  uint64_t extent = 0;
  ASSERT_TRUE(readExtent(16, 4, 2, 32, 256, extent));
  EXPECT_EQ(extent, 256u + 3 * 32 + 16);
  EXPECT_FALSE(readExtent(16, 4, UINT64_MAX, 32, 1ull << 40, extent));
  ASSERT_TRUE(readExtent(UINT64_MAX, 1, 1, 0, 0, extent));
  EXPECT_EQ(extent, UINT64_MAX);
  EXPECT_FALSE(readExtent(UINT64_MAX, 2, 1, 1, 0, extent));
  uint64_t product = 0;
  EXPECT_FALSE(checkedMul(1ull << 40, 1ull << 30, product));
}

}  // namespace
