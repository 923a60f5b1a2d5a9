// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "rgba_image.h"

namespace {

using npt::image::RgbaImage;

RgbaImage gradient(uint32_t width, uint32_t height) {
  RgbaImage image{width, height, std::vector<uint8_t>(size_t(width) * height * 4)};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &image.pixels[(size_t(y) * width + x) * 4];
      p[0] = uint8_t(x * 7);
      p[1] = uint8_t(y * 13);
      p[2] = uint8_t(x ^ y);
      p[3] = uint8_t(255 - x);
    }
  return image;
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("npt-image-test-") + std::to_string(::getpid()) + "-" + name))
      .string();
}

TEST(RgbaImage, PngRoundTripKeepsEveryByteIncludingAlpha) {
  RgbaImage original = gradient(37, 19);
  std::string path = temp_path("roundtrip.png");
  auto written = npt::image::write_png(path, original);
  ASSERT_TRUE(written.ok) << written.error;

  std::string error;
  auto loaded = npt::image::read_png(path, &error);
  std::remove(path.c_str());
  ASSERT_TRUE(loaded) << error;
  EXPECT_EQ(loaded->width, 37u);
  EXPECT_EQ(loaded->height, 19u);
  EXPECT_EQ(loaded->pixels, original.pixels);
  EXPECT_FALSE(npt::image::compare(original, *loaded));
}

TEST(RgbaImage, CompareReportsFirstDifferenceInRowMajorOrderAndCount) {
  RgbaImage a = gradient(8, 8), b = a;
  b.pixels[(3 * 8 + 5) * 4 + 1] ^= 0x10;  // (5,3) green
  b.pixels[(6 * 8 + 1) * 4 + 3] ^= 0x01;  // (1,6) alpha
  auto diff = npt::image::compare(a, b);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->x, 5u);
  EXPECT_EQ(diff->y, 3u);
  EXPECT_EQ(diff->expected, a.pixel(5, 3));
  EXPECT_EQ(diff->actual, b.pixel(5, 3));
  EXPECT_NE(diff->expected, diff->actual);
  EXPECT_EQ(diff->differing_pixels, 2u);
}

TEST(RgbaImage, CompareReportsSizeMismatch) {
  auto diff = npt::image::compare(gradient(4, 4), gradient(4, 5));
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->differing_pixels, UINT64_MAX);
}

TEST(RgbaImage, ReadingANonPngFailsWithAReason) {
  std::string path = temp_path("not-a.png");
  std::ofstream(path) << "this is not a PNG file";
  std::string error;
  auto loaded = npt::image::read_png(path, &error);
  std::remove(path.c_str());
  EXPECT_FALSE(loaded);
  EXPECT_NE(error.find(path), std::string::npos);
}

TEST(RgbaImage, WritingAnInconsistentImageIsRefused) {
  RgbaImage broken{4, 4, std::vector<uint8_t>(10)};
  auto result = npt::image::write_png(temp_path("broken.png"), broken);
  EXPECT_FALSE(result.ok);
  EXPECT_FALSE(result.error.empty());
}

}  // namespace
