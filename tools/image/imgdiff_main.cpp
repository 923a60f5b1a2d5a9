// SPDX-License-Identifier: MIT
// npt-imgdiff EXPECTED.png ACTUAL.png: exit 0 when the images are identical,
// 1 with the first differing pixel when they are not, 2 on unreadable input.
#include <cinttypes>
#include <cstdio>
#include <limits>

#include "rgba_image.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s EXPECTED.png ACTUAL.png\n", argv[0]);
    return 2;
  }
  std::string error;
  auto expected = npt::image::read_png(argv[1], &error);
  auto actual = expected ? npt::image::read_png(argv[2], &error) : std::nullopt;
  if (!expected || !actual) {
    std::fprintf(stderr, "npt-imgdiff: %s\n", error.c_str());
    return 2;
  }
  auto diff = npt::image::compare(*expected, *actual);
  if (!diff) {
    std::printf("identical %ux%u\n", expected->width, expected->height);
    return 0;
  }
  if (diff->differing_pixels == std::numeric_limits<uint64_t>::max()) {
    std::printf("size differs: %ux%u vs %ux%u\n", expected->width, expected->height,
                actual->width, actual->height);
    return 1;
  }
  std::printf("differs at (%u,%u): expected %08x actual %08x (RGBA little-endian), %" PRIu64
              " pixels differ\n",
              diff->x, diff->y, diff->expected, diff->actual, diff->differing_pixels);
  return 1;
}
