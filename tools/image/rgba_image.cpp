// SPDX-License-Identifier: MIT
#include "rgba_image.h"

#include <png.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

namespace npt::image {

namespace {

struct FileCloser {
  void operator()(FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<FILE, FileCloser>;

bool valid_size(const RgbaImage& image) {
  return image.width != 0 && image.height != 0 &&
         image.pixels.size() == uint64_t(image.width) * image.height * 4;
}

}  // namespace

uint32_t RgbaImage::pixel(uint32_t x, uint32_t y) const {
  const uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

ImageResult write_png(const std::string& path, const RgbaImage& image) {
  if (!valid_size(image))
    return {false, "image size does not match its pixel buffer"};
  File file(std::fopen(path.c_str(), "wb"));
  if (!file)
    return {false, "cannot open " + path + " for writing: " + std::strerror(errno)};

  png_image png;
  std::memset(&png, 0, sizeof(png));
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_stdio(&png, file.get(), 0, image.pixels.data(), 0, nullptr)) {
    ImageResult result{false, std::string("libpng: ") + png.message};
    png_image_free(&png);
    return result;
  }
  return {true, {}};
}

std::optional<RgbaImage> read_png(const std::string& path, std::string* error) {
  png_image png;
  std::memset(&png, 0, sizeof(png));
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) {
    if (error) *error = path + ": " + png.message;
    png_image_free(&png);
    return std::nullopt;
  }
  png.format = PNG_FORMAT_RGBA;
  RgbaImage image;
  image.width = png.width;
  image.height = png.height;
  image.pixels.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr)) {
    if (error) *error = path + ": " + png.message;
    png_image_free(&png);
    return std::nullopt;
  }
  return image;
}

std::optional<PixelDifference> compare(const RgbaImage& expected, const RgbaImage& actual) {
  if (expected.width != actual.width || expected.height != actual.height ||
      expected.pixels.size() != actual.pixels.size()) {
    PixelDifference size_mismatch;
    size_mismatch.differing_pixels = std::numeric_limits<uint64_t>::max();
    return size_mismatch;
  }
  std::optional<PixelDifference> first;
  for (uint32_t y = 0; y < expected.height; ++y) {
    for (uint32_t x = 0; x < expected.width; ++x) {
      uint32_t e = expected.pixel(x, y), a = actual.pixel(x, y);
      if (e == a) continue;
      if (!first) first = PixelDifference{x, y, e, a, 0};
      ++first->differing_pixels;
    }
  }
  return first;
}

}  // namespace npt::image
