// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace npt::samples {

  struct Rgba8 {
    uint8_t r, g, b, a;
  };

  // A frame as read back from the GPU: tightly packed RGBA8 rows, top row first.
  class Image {
  public:
    Image() = default;
    Image(uint32_t width, uint32_t height)
    : m_width(width), m_height(height), m_pixels(size_t(width) * height) { }

    uint32_t width() const { return m_width; }
    uint32_t height() const { return m_height; }

    Rgba8& at(uint32_t x, uint32_t y) { return m_pixels[size_t(y) * m_width + x]; }
    const Rgba8& at(uint32_t x, uint32_t y) const { return m_pixels[size_t(y) * m_width + x]; }

    const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(m_pixels.data()); }
    uint8_t* bytes() { return reinterpret_cast<uint8_t*>(m_pixels.data()); }
    size_t byteSize() const { return m_pixels.size() * sizeof(Rgba8); }

    uint64_t checksum() const;

    // Number of distinct colours, counting stops at `limit` to stay cheap.
    uint32_t distinctColours(uint32_t limit) const;

  private:
    uint32_t           m_width = 0;
    uint32_t           m_height = 0;
    std::vector<Rgba8> m_pixels;
  };

}
