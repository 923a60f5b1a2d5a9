// SPDX-License-Identifier: MIT
// The native server's window (NPT_PRESENT=window, SDL2), without a D3D11 backend: frames
// from memory reach the window, and what the window system shows is read back. SDL's
// memory-only drivers (dummy, offscreen) read back through the renderer; under X11 (the
// Xvfb of scripts/test) the pixels come back from the X server with XGetImage.
#include <gtest/gtest.h>

#include <cstdlib>

#include <SDL.h>

#include "../src/presenter_window.h"

namespace npt::executor::testing {
namespace {

std::vector<uint8_t> gradient(uint32_t width, uint32_t height) {
  std::vector<uint8_t> pixels(size_t(width) * height * 4);
  for (uint32_t y = 0; y < height; y++)
    for (uint32_t x = 0; x < width; x++) {
      uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
      p[0] = uint8_t(x * 4);
      p[1] = uint8_t(y * 5);
      p[2] = uint8_t(255 - x - y);
      p[3] = 255;
    }
  return pixels;
}

// Two frames; the second is wider when `resize` (the window follows the back buffer).
void showAndReadBack(const char* driver, bool resize = true) {
  setenv("SDL_VIDEODRIVER", driver, 1);
  std::string why;
  std::unique_ptr<PresentWindow> window = openPresentWindow(0, &why);
  unsetenv("SDL_VIDEODRIVER");
  if (!window) GTEST_SKIP() << "SDL video driver " << driver << ": " << why;
  PresentStats stats;
  for (uint32_t frame = 0; frame < 2; frame++) {
    const uint32_t frameWidth = resize ? 64 + 16 * frame : 64;
    std::vector<uint8_t> pixels = gradient(frameWidth, 48);
    pixels[frame * 4] ^= 0xff;  // the frames differ even at one size
    ASSERT_EQ(window->showPixels(pixels, frameWidth, 48, stats), "");
    std::vector<uint8_t> shown;
    uint32_t width = 0, height = 0;
    ASSERT_EQ(window->readScreen(shown, &width, &height), "");
    EXPECT_EQ(width, frameWidth);
    EXPECT_EQ(height, 48u);
    size_t first = 0;
    while (first < shown.size() && first < pixels.size() && shown[first] == pixels[first]) first++;
    EXPECT_TRUE(shown == pixels) << driver << ": frame " << frame << " differs on the screen from byte " << first
                                 << " (pixel " << first / 4 << ")";
  }
  EXPECT_EQ(stats.cpuCopies, 2u);  // one upload per frame from memory
}

TEST(PresenterSdlTest, DummyDriverShowsFramesFromMemory) { showAndReadBack("dummy"); }

// SDL 2.26's offscreen driver keeps its EGL surface at the window's first size.
TEST(PresenterSdlTest, OffscreenDriverShowsFramesFromMemory) { showAndReadBack("offscreen", false); }

TEST(PresenterSdlTest, X11WindowShowsFramesFromMemory) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no DISPLAY (scripts/test runs an Xvfb)";
  showAndReadBack("x11");
}

}  // namespace
}  // namespace npt::executor::testing
