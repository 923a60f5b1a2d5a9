// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "image.h"

namespace npt::samples {

  // Assertions a sample makes about one frame under --check. Positions are
  // given as fractions of the frame so the checks hold at any --size.
  class FrameCheck {
  public:
    explicit FrameCheck(const Image& image) : m_image(image) { }

    // |channel - expected| <= tolerance for r, g, b and a.
    void expectPixel(float fx, float fy, Rgba8 expected, int tolerance, const char* what);
    // Absolute pixel coordinates, for samples whose layout is in pixels.
    void expectPixelXY(uint32_t x, uint32_t y, Rgba8 expected, int tolerance, const char* what);
    // At least one channel differs from `unexpected` by more than tolerance.
    void expectPixelNot(float fx, float fy, Rgba8 unexpected, int tolerance, const char* what);
    void expectDistinctColours(uint32_t atLeast);
    // For facts the sample measured itself (query results, readbacks).
    void expect(bool condition, const std::string& what);

    Rgba8 pixel(float fx, float fy) const;
    const std::vector<std::string>& failures() const { return m_failures; }

  private:
    const Image&             m_image;
    std::vector<std::string> m_failures;

    void pixelAt(float fx, float fy, uint32_t& x, uint32_t& y) const;
  };

  bool nearColour(Rgba8 a, Rgba8 b, int tolerance);

}
