// SPDX-License-Identifier: MIT
// The presenter's modes (Windows build, wined3d under Wine with Xvfb): NPT_PRESENT=window
// shows the back buffer in a Win32 window through a swapchain of the context's device,
// with no CPU copy, and the pixels read back from the screen through GDI are the frame's;
// NPT_PRESENT_COPY=cpu is the baseline with two CPU copies per frame; none does nothing.
#include <windows.h>

#include <cstdio>
#include <cstdlib>
#include <cwchar>

#include "device_fixture.h"
#include "../src/presenter.h"

namespace npt::executor::testing {
namespace {

uint64_t fnv1a64(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (uint8_t byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
  return hash;
}

// An opaque gradient (RGBA): distinct rows and columns catch flips and swizzles.
std::vector<uint8_t> gradient(uint32_t width, uint32_t height, uint8_t blue) {
  std::vector<uint8_t> pixels(size_t(width) * height * 4);
  for (uint32_t y = 0; y < height; y++)
    for (uint32_t x = 0; x < width; x++) {
      uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
      p[0] = uint8_t(x * 4);
      p[1] = uint8_t(y * 5);
      p[2] = blue;
      p[3] = 255;
    }
  return pixels;
}

std::string checksumText(const std::vector<uint8_t>& rgba) {
  char text[40];
  std::snprintf(text, sizeof(text), "%016llx", (unsigned long long)fnv1a64(rgba));
  return text;
}

// Sets presenter variables for the executor created in its scope.
struct PresentEnvironment {
  PresentEnvironment(const char* mode, const char* copy) {
    _putenv_s("NPT_PRESENT", mode);
    _putenv_s("NPT_PRESENT_COPY", copy);
    _putenv_s("NPT_PRESENT_LOG", "1");
  }
  ~PresentEnvironment() {
    _putenv_s("NPT_PRESENT", "");
    _putenv_s("NPT_PRESENT_COPY", "");
    _putenv_s("NPT_PRESENT_LOG", "");
  }
};

std::string logText(const Harness& h) {
  std::string text;
  for (const std::string& line : h.logLines()) text += line + "\n";
  return text;
}

class PresenterTest : public ::testing::Test {
protected:
  // Presents two gradient frames of a 64x48 RGBA texture; returns their checksums.
  void presentTwoFrames(Harness& h, std::vector<std::string>* checksums) {
    protocol::ObjectId device = 0, context = 0;
    ASSERT_EQ(h.createDevice(&device, &context), S_OK);
    D3D11_TEXTURE2D_DESC desc = {64, 48, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_RENDER_TARGET, 0, 0};
    protocol::ObjectId texture = h.newId();
    ASSERT_TRUE(protocol::encode_ID3D11Device_CreateTexture2D(h.w(), device, &desc, 0, nullptr, texture));
    for (uint8_t blue : {uint8_t(40), uint8_t(200)}) {
      std::vector<uint8_t> pixels = gradient(64, 48, blue);
      NPT_BULK_REF ref = h.stage(0, pixels.data(), uint32_t(pixels.size()));
      protocol::Payload data = protocol::Payload::bulkRef({ref.Region, ref.Offset, ref.Size});
      ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_UpdateSubresource(h.w(), context, texture, 0, nullptr, data,
                                                                          64 * 4, 0));
      ASSERT_TRUE(protocol::encode_PresentBuffer(h.w(), texture, 0, 0));
      h.runOk();
      checksums->push_back(checksumText(pixels));
    }
  }
};

TEST_F(PresenterTest, WindowShowsTheFramesWithoutCpuCopies) {
  std::string why;
  if (!backendAvailable(&why)) GTEST_SKIP() << why;
  PresentEnvironment environment("window", "");
  Harness h;
  std::vector<std::string> checksums;
  presentTwoFrames(h, &checksums);
  ASSERT_FALSE(h.executor().isFatal()) << h.executor().fatalError().message;
  for (size_t frame = 0; frame < checksums.size(); frame++) {
    const std::string line = "present: frame " + std::to_string(frame + 1) + " texture";
    // The frame, the copies so far (none), and what the screen shows: the same pixels.
    std::string expected = "checksum " + checksums[frame] + " cpu-copies 0 window 64x48 checksum " + checksums[frame];
    EXPECT_TRUE(h.logContains(expected)) << "frame " << frame + 1 << ": " << expected << "\nlog:\n" << logText(h);
  }
  EXPECT_FALSE(h.logContains("headless from now on"));
}

TEST_F(PresenterTest, CpuCopyPathCountsTwoCopiesPerFrame) {
  std::string why;
  if (!backendAvailable(&why)) GTEST_SKIP() << why;
  PresentEnvironment environment("window", "cpu");
  Harness h;
  std::vector<std::string> checksums;
  presentTwoFrames(h, &checksums);
  ASSERT_FALSE(h.executor().isFatal()) << h.executor().fatalError().message;
  for (size_t frame = 0; frame < checksums.size(); frame++) {
    // Two copies per frame (read back, upload) so far, and the screen shows the frame exactly.
    std::string expected = "checksum " + checksums[frame] + " cpu-copies " + std::to_string(2 * (frame + 1)) +
                           " window 64x48 checksum " + checksums[frame];
    EXPECT_TRUE(h.logContains(expected)) << "frame " << frame + 1 << ": " << expected << "\nlog:\n" << logText(h);
  }
  EXPECT_FALSE(h.logContains("headless from now on"));
}

// Visible presenter windows of this process.
int presenterWindowCount() {
  struct Count {
    static BOOL CALLBACK visit(HWND window, LPARAM counter) {
      DWORD process = 0;
      GetWindowThreadProcessId(window, &process);
      wchar_t name[64] = {};
      GetClassNameW(window, name, 64);
      if (process == GetCurrentProcessId() && IsWindowVisible(window) && wcscmp(name, L"NeptunePresenter") == 0)
        ++*reinterpret_cast<int*>(counter);
      return TRUE;
    }
  };
  int count = 0;
  EnumWindows(Count::visit, reinterpret_cast<LPARAM>(&count));
  return count;
}

TEST_F(PresenterTest, EachSwapchainHasItsOwnWindow) {
  std::string why;
  if (!backendAvailable(&why)) GTEST_SKIP() << why;
  PresentEnvironment environment("window", "");
  Harness h;
  protocol::ObjectId device = 0, context = 0;
  ASSERT_EQ(h.createDevice(&device, &context), S_OK);
  // Two guest swapchains' back buffers of different sizes, presented in turns.
  struct BackBuffer {
    uint32_t width, height;
    protocol::ObjectId id;
  } a{64, 48, h.newId()}, b{40, 24, h.newId()}, c{32, 32, h.newId()};
  for (BackBuffer* buffer : {&a, &b, &c}) {
    D3D11_TEXTURE2D_DESC desc = {buffer->width, buffer->height, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0},
                                 D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, 0};
    ASSERT_TRUE(protocol::encode_ID3D11Device_CreateTexture2D(h.w(), device, &desc, 0, nullptr, buffer->id));
  }
  std::vector<std::string> expected;
  auto present = [&](const BackBuffer& buffer, uint8_t blue) {
    std::vector<uint8_t> pixels = gradient(buffer.width, buffer.height, blue);
    NPT_BULK_REF ref = h.stage(0, pixels.data(), uint32_t(pixels.size()));
    protocol::Payload data = protocol::Payload::bulkRef({ref.Region, ref.Offset, ref.Size});
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_UpdateSubresource(h.w(), context, buffer.id, 0, nullptr, data,
                                                                        buffer.width * 4, 0));
    ASSERT_TRUE(protocol::encode_PresentBuffer(h.w(), buffer.id, 0, 0));
    h.runOk();
    // The frame, no CPU copy, and the screen shows exactly it in a window of the buffer's size.
    const std::string size = std::to_string(buffer.width) + "x" + std::to_string(buffer.height);
    expected.push_back("texture " + std::to_string(buffer.id) + " " + size + " interval 0 flags 0x0 checksum " +
                       checksumText(pixels) + " cpu-copies 0 window " + size + " checksum " + checksumText(pixels));
  };
  present(a, 40);
  present(b, 90);
  present(a, 200);
  present(b, 140);
  ASSERT_FALSE(h.executor().isFatal()) << h.executor().fatalError().message;
  for (size_t frame = 0; frame < expected.size(); frame++)
    EXPECT_TRUE(h.logContains("present: frame " + std::to_string(frame + 1) + " " + expected[frame]))
        << "frame " << frame + 1 << ": " << expected[frame] << "\nlog:\n" << logText(h);
  EXPECT_EQ(presenterWindowCount(), 2);

  // The guest releases swapchain A: its window closes at the next present; C gets its own.
  h.w().u32(protocol::packHeader(protocol::OpDestroyObject, 2));
  h.w().u32(a.id);
  h.runOk();
  present(c, 70);
  EXPECT_TRUE(h.logContains("present: frame 5 " + expected[4])) << expected[4] << "\nlog:\n" << logText(h);
  EXPECT_EQ(presenterWindowCount(), 2);
  EXPECT_FALSE(h.executor().isFatal());
  EXPECT_FALSE(h.logContains("headless from now on"));
}

TEST_F(PresenterTest, NoneDoesNothing) {
  std::string why;
  if (!backendAvailable(&why)) GTEST_SKIP() << why;
  PresentEnvironment environment("none", "");
  Harness h;
  std::vector<std::string> checksums;
  presentTwoFrames(h, &checksums);
  EXPECT_FALSE(h.logContains("present: frame"));
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(PresenterTest, HeadlessLogsWithoutAWindow) {
  std::string why;
  if (!backendAvailable(&why)) GTEST_SKIP() << why;
  PresentEnvironment environment("headless", "");
  Harness h;
  std::vector<std::string> checksums;
  presentTwoFrames(h, &checksums);
  EXPECT_TRUE(h.logContains("checksum " + checksums[1] + " cpu-copies 0"));
  EXPECT_FALSE(h.logContains(" window "));
}

TEST(PresentModeTest, ParsesTheThreeModes) {
  PresentMode mode = PresentMode::None;
  EXPECT_TRUE(parsePresentMode(nullptr, &mode));
  EXPECT_EQ(mode, PresentMode::Headless);
  EXPECT_TRUE(parsePresentMode("window", &mode));
  EXPECT_EQ(mode, PresentMode::Window);
  EXPECT_TRUE(parsePresentMode("none", &mode));
  EXPECT_EQ(mode, PresentMode::None);
  EXPECT_FALSE(parsePresentMode("fullscreen", &mode));
}

}  // namespace
}  // namespace npt::executor::testing
