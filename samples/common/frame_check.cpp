// SPDX-License-Identifier: MIT
#include "frame_check.h"

#include <cstdio>
#include <cstdlib>

namespace npt::samples {

  namespace {

    std::string describe(const char* what, uint32_t x, uint32_t y, Rgba8 got, const char* relation, Rgba8 want, int tolerance) {
      char text[256];
      std::snprintf(text, sizeof(text), "%s: pixel (%u,%u) is %u,%u,%u,%u, %s %u,%u,%u,%u (tolerance %d)",
        what, x, y, got.r, got.g, got.b, got.a, relation, want.r, want.g, want.b, want.a, tolerance);
      return text;
    }

  }

  bool nearColour(Rgba8 a, Rgba8 b, int tolerance) {
    return std::abs(int(a.r) - int(b.r)) <= tolerance
        && std::abs(int(a.g) - int(b.g)) <= tolerance
        && std::abs(int(a.b) - int(b.b)) <= tolerance
        && std::abs(int(a.a) - int(b.a)) <= tolerance;
  }

  void FrameCheck::pixelAt(float fx, float fy, uint32_t& x, uint32_t& y) const {
    x = uint32_t(fx * float(m_image.width()));
    y = uint32_t(fy * float(m_image.height()));
    if (x >= m_image.width())  x = m_image.width() - 1;
    if (y >= m_image.height()) y = m_image.height() - 1;
  }

  Rgba8 FrameCheck::pixel(float fx, float fy) const {
    uint32_t x, y;
    pixelAt(fx, fy, x, y);
    return m_image.at(x, y);
  }

  void FrameCheck::expectPixel(float fx, float fy, Rgba8 expected, int tolerance, const char* what) {
    uint32_t x, y;
    pixelAt(fx, fy, x, y);
    Rgba8 got = m_image.at(x, y);
    if (!nearColour(got, expected, tolerance))
      m_failures.push_back(describe(what, x, y, got, "expected", expected, tolerance));
  }

  void FrameCheck::expectPixelXY(uint32_t x, uint32_t y, Rgba8 expected, int tolerance, const char* what) {
    if (x >= m_image.width() || y >= m_image.height()) {
      m_failures.push_back(std::string(what) + ": pixel outside the frame");
      return;
    }
    Rgba8 got = m_image.at(x, y);
    if (!nearColour(got, expected, tolerance))
      m_failures.push_back(describe(what, x, y, got, "expected", expected, tolerance));
  }

  void FrameCheck::expectPixelNot(float fx, float fy, Rgba8 unexpected, int tolerance, const char* what) {
    uint32_t x, y;
    pixelAt(fx, fy, x, y);
    Rgba8 got = m_image.at(x, y);
    if (nearColour(got, unexpected, tolerance))
      m_failures.push_back(describe(what, x, y, got, "must differ from", unexpected, tolerance));
  }

  void FrameCheck::expectDistinctColours(uint32_t atLeast) {
    uint32_t count = m_image.distinctColours(atLeast);
    if (count < atLeast) {
      char text[96];
      std::snprintf(text, sizeof(text), "frame has %u distinct colours, expected at least %u", count, atLeast);
      m_failures.push_back(text);
    }
  }

  void FrameCheck::expect(bool condition, const std::string& what) {
    if (!condition)
      m_failures.push_back(what);
  }

}
