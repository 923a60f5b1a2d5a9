// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npt::image {

// An 8-bit RGBA image, rows tightly packed: what the samples read back and the
// presenter captures, so frames from two runs can be compared byte for byte.
struct RgbaImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4 bytes

  uint32_t pixel(uint32_t x, uint32_t y) const;
};

struct ImageResult {
  bool ok = false;
  std::string error;  // why, when !ok
};

ImageResult write_png(const std::string& path, const RgbaImage& image);
std::optional<RgbaImage> read_png(const std::string& path, std::string* error);

// The first pixel (row-major) where two same-sized images differ.
struct PixelDifference {
  uint32_t x = 0;
  uint32_t y = 0;
  uint32_t expected = 0;  // RGBA packed as R | G << 8 | B << 16 | A << 24
  uint32_t actual = 0;
  uint64_t differing_pixels = 0;
};

// Returns nothing when the images are identical; a size mismatch is reported as
// a difference at (0, 0) with differing_pixels = UINT64_MAX.
std::optional<PixelDifference> compare(const RgbaImage& expected, const RgbaImage& actual);

}  // namespace npt::image
