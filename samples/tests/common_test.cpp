// SPDX-License-Identifier: MIT
// Unit tests of the sample framework pieces that do not need a GPU.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "checksum.h"
#include "frame_check.h"
#include "image.h"
#include "options.h"

using namespace npt::samples;

namespace {

  std::string parse(std::vector<const char*> args, Options& options) {
    args.insert(args.begin(), "sample.exe");
    return parseOptions(int(args.size()), const_cast<char**>(args.data()), options);
  }

}

TEST(SampleChecksum, MatchesPublishedFnv1a64Vectors) {
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

TEST(SampleChecksum, ChainsLikeOneBuffer) {
  const char* text = "foobar";
  EXPECT_EQ(fnv1a64(text + 3, 3, fnv1a64(text, 3)), fnv1a64(text, 6));
}

TEST(SampleOptions, Defaults) {
  Options options;
  EXPECT_EQ(parse({}, options), "");
  EXPECT_EQ(options.frames, 3u);
  EXPECT_EQ(options.width, 256u);
  EXPECT_EQ(options.height, 256u);
  EXPECT_TRUE(options.outDir.empty());
  EXPECT_FALSE(options.check);
}

TEST(SampleOptions, ParsesEveryOption) {
  Options options;
  EXPECT_EQ(parse({ "--frames", "12", "--size", "320x200", "--out", "C:\\out", "--raw",
                    "--shaders", "D:\\s", "--check", "--quiet" }, options), "");
  EXPECT_EQ(options.frames, 12u);
  EXPECT_EQ(options.width, 320u);
  EXPECT_EQ(options.height, 200u);
  EXPECT_EQ(options.outDir, "C:\\out");
  EXPECT_EQ(options.shaderDir, "D:\\s");
  EXPECT_TRUE(options.raw);
  EXPECT_TRUE(options.check);
  EXPECT_TRUE(options.quiet);
}

TEST(SampleOptions, RejectsMalformedValues) {
  Options options;
  EXPECT_NE(parse({ "--frames" }, options), "");
  EXPECT_NE(parse({ "--frames", "0" }, options), "");
  EXPECT_NE(parse({ "--frames", "3x" }, options), "");
  EXPECT_NE(parse({ "--size", "64" }, options), "");
  EXPECT_NE(parse({ "--size", "0x64" }, options), "");
  EXPECT_NE(parse({ "--size", "64x" }, options), "");
  EXPECT_NE(parse({ "--size", "99999x64" }, options), "");
  EXPECT_NE(parse({ "--raw" }, options), "");
  EXPECT_NE(parse({ "--bogus" }, options), "");
}

TEST(SampleImage, ChecksumCoversEveryPixel) {
  Image a(4, 3), b(4, 3);
  EXPECT_EQ(a.checksum(), b.checksum());
  b.at(3, 2).a = 1;
  EXPECT_NE(a.checksum(), b.checksum());
  EXPECT_EQ(a.checksum(), fnv1a64(a.bytes(), 4 * 3 * 4));
}

TEST(SampleImage, CountsDistinctColoursUpToLimit) {
  Image image(8, 1);
  EXPECT_EQ(image.distinctColours(100), 1u);
  for (uint32_t x = 0; x < 8; x++)
    image.at(x, 0) = { uint8_t(x), 0, 0, 255 };
  EXPECT_EQ(image.distinctColours(100), 8u);
  EXPECT_EQ(image.distinctColours(5), 5u);
}

TEST(SampleFrameCheck, ReportsMismatchesWithPosition) {
  Image image(10, 10);
  image.at(5, 5) = { 200, 100, 50, 255 };
  FrameCheck check(image);
  check.expectPixel(0.55f, 0.55f, { 201, 99, 50, 255 }, 1, "within tolerance");
  EXPECT_TRUE(check.failures().empty());
  check.expectPixel(0.55f, 0.55f, { 205, 100, 50, 255 }, 1, "outside tolerance");
  ASSERT_EQ(check.failures().size(), 1u);
  EXPECT_NE(check.failures()[0].find("(5,5)"), std::string::npos);
  check.expectPixelNot(0.0f, 0.0f, { 0, 0, 0, 0 }, 0, "clear pixel");
  check.expectPixelXY(10, 0, { 0, 0, 0, 0 }, 0, "outside the frame");
  check.expectDistinctColours(3);
  check.expect(false, "measured fact");
  EXPECT_EQ(check.failures().size(), 5u);
}

TEST(SampleFrameCheck, FractionsClampToTheFrame) {
  Image image(4, 4);
  image.at(3, 3) = { 1, 2, 3, 4 };
  FrameCheck check(image);
  Rgba8 corner = check.pixel(1.0f, 1.0f);
  EXPECT_EQ(corner.r, 1);
  EXPECT_EQ(corner.a, 4);
}
