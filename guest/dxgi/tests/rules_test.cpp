// SPDX-License-Identifier: MIT
// Unit tests of the DXGI logic that needs no device: mode lists, FindClosestMatchingMode,
// swapchain validation. Expected values are Windows' (Wine's dxgi tests and Microsoft's
// documentation), cited per case.
#include <gtest/gtest.h>

#include "../mode_list.h"
#include "../swapchain_rules.h"

using namespace npt::guest::dxgi;

namespace {

DXGI_MODE_DESC mode(UINT w, UINT h, UINT hz, DXGI_FORMAT f = DXGI_FORMAT_R8G8B8A8_UNORM,
                    DXGI_MODE_SCANLINE_ORDER order = DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE,
                    DXGI_MODE_SCALING scaling = DXGI_MODE_SCALING_UNSPECIFIED) {
  DXGI_MODE_DESC m = {};
  m.Width = w;
  m.Height = h;
  m.RefreshRate = { hz, 1 };
  m.Format = f;
  m.ScanlineOrdering = order;
  m.Scaling = scaling;
  return m;
}

std::vector<DXGI_MODE_DESC> hostModes() {
  // Deliberately unsorted, two formats, one interlaced and one scaled mode.
  return {
    mode(1920, 1080, 60), mode(800, 600, 75), mode(800, 600, 60), mode(1280, 1024, 60),
    mode(1024, 768, 60, DXGI_FORMAT_B8G8R8A8_UNORM),
    mode(1920, 1080, 30, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_MODE_SCANLINE_ORDER_UPPER_FIELD_FIRST),
    mode(1280, 1024, 60, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE,
         DXGI_MODE_SCALING_CENTERED),
  };
}

}

TEST(ModeList, FiltersByFormatAndFlagsAndSorts) {
  auto modes = modesForFormat(hostModes(), DXGI_FORMAT_R8G8B8A8_UNORM, 0);
  ASSERT_EQ(modes.size(), 4u);
  EXPECT_EQ(modes[0].Width, 800u);
  EXPECT_EQ(modes[0].RefreshRate.Numerator, 60u);  // 800x600@60 before @75
  EXPECT_EQ(modes[1].RefreshRate.Numerator, 75u);
  EXPECT_EQ(modes[2].Width, 1280u);
  EXPECT_EQ(modes[3].Width, 1920u);
  EXPECT_EQ(modesForFormat(hostModes(), DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_ENUM_MODES_INTERLACED).size(), 5u);
  // test_output: the SCALING flag never lists fewer modes.
  EXPECT_EQ(modesForFormat(hostModes(), DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_ENUM_MODES_SCALING).size(), 5u);
  EXPECT_EQ(modesForFormat(hostModes(), DXGI_FORMAT_B8G8R8A8_UNORM, 0).size(), 1u);
  // test_output: format 0 lists nothing.
  EXPECT_TRUE(modesForFormat(hostModes(), DXGI_FORMAT_UNKNOWN, 0).empty());
  EXPECT_TRUE(modesForFormat(hostModes(), DXGI_FORMAT_R32_FLOAT, 0).empty());
}

TEST(ModeList, SrgbSharesTheUnormModes) {
  auto modes = modesForFormat(hostModes(), DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 0);
  ASSERT_EQ(modes.size(), 4u);
  for (auto& m : modes)
    EXPECT_EQ(m.Format, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB);
}

TEST(ModeList, TwoCallProtocol) {
  auto modes = modesForFormat(hostModes(), DXGI_FORMAT_R8G8B8A8_UNORM, 0);
  DXGI_MODE_DESC out[8] = {};
  UINT count = 0;
  // test_output: NULL count is an invalid call, with or without a buffer.
  EXPECT_EQ(copyModeList(modes, nullptr, out), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(copyModeList<DXGI_MODE_DESC>(modes, nullptr, nullptr), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(out[0].Height, 0u);
  EXPECT_EQ(copyModeList<DXGI_MODE_DESC>(modes, &count, nullptr), S_OK);
  EXPECT_EQ(count, 4u);
  count = 0;
  EXPECT_EQ(copyModeList(modes, &count, out), DXGI_ERROR_MORE_DATA);
  EXPECT_EQ(out[0].Height, 0u);
  count = 3;
  EXPECT_EQ(copyModeList(modes, &count, out), DXGI_ERROR_MORE_DATA);
  EXPECT_EQ(count, 3u);
  count = 9;
  EXPECT_EQ(copyModeList(modes, &count, out), S_OK);
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(out[3].Width, 1920u);
}

TEST(ModeList, FindClosestMatchingModeValidation) {
  auto modes = hostModes();
  DXGI_MODE_DESC wanted = {}, closest = {};
  // test_find_closest_matching_mode: a zeroed mode without a device is an invalid call,
  // with a concerned device it succeeds.
  EXPECT_EQ(findClosestMatchingMode(modes, wanted, false, 1920, 1080, &closest), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(findClosestMatchingMode(modes, wanted, true, 1920, 1080, &closest), S_OK);
  EXPECT_EQ(closest.Width, 1920u);  // the desktop size is preferred
  wanted = mode(800, 0, 60);
  EXPECT_EQ(findClosestMatchingMode(modes, wanted, false, 1920, 1080, &closest), DXGI_ERROR_INVALID_CALL);
  wanted = mode(0, 600, 60);
  EXPECT_EQ(findClosestMatchingMode(modes, wanted, false, 1920, 1080, &closest), DXGI_ERROR_INVALID_CALL);
  wanted = mode(800, 600, 60, DXGI_FORMAT_UNKNOWN);
  EXPECT_EQ(findClosestMatchingMode(modes, wanted, false, 1920, 1080, &closest), DXGI_ERROR_INVALID_CALL);
  wanted = mode(800, 600, 60, DXGI_FORMAT_R32_FLOAT);
  EXPECT_EQ(findClosestMatchingMode(modes, wanted, false, 1920, 1080, &closest), DXGI_ERROR_NOT_FOUND);
}

TEST(ModeList, FindClosestMatchingModeChoice) {
  auto modes = hostModes();
  auto listed = modesForFormat(modes, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
  DXGI_MODE_DESC closest = {};
  for (const auto& m : listed) {
    // Every listed mode matches itself, and matches with size +-1 or an unspecified rate.
    ASSERT_EQ(findClosestMatchingMode(modes, m, false, 1920, 1080, &closest), S_OK);
    EXPECT_EQ(memcmp(&closest, &m, sizeof(m)), 0);
    DXGI_MODE_DESC nearby = m;
    nearby.Width -= 1; nearby.Height -= 1;
    ASSERT_EQ(findClosestMatchingMode(modes, nearby, false, 1920, 1080, &closest), S_OK);
    EXPECT_EQ(closest.Width * closest.Height, m.Width * m.Height);
    nearby = m;
    nearby.RefreshRate = { 0, 0 };
    ASSERT_EQ(findClosestMatchingMode(modes, nearby, false, 1920, 1080, &closest), S_OK);
    EXPECT_EQ(closest.Width, m.Width);
    EXPECT_GT(closest.RefreshRate.Numerator, 0u);
  }
  // 10x10 gives the lowest resolution; 800x600 at 70 Hz the 75 Hz mode.
  ASSERT_EQ(findClosestMatchingMode(modes, mode(10, 10, 60), false, 1920, 1080, &closest), S_OK);
  EXPECT_EQ(closest.Width, 800u);
  ASSERT_EQ(findClosestMatchingMode(modes, mode(800, 600, 70), false, 1920, 1080, &closest), S_OK);
  EXPECT_EQ(closest.RefreshRate.Numerator, 75u);
  // An interlaced request prefers the interlaced mode, a scaled one the scaled mode.
  ASSERT_EQ(findClosestMatchingMode(modes, mode(1920, 1080, 0, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                DXGI_MODE_SCANLINE_ORDER_UPPER_FIELD_FIRST),
                                    false, 1920, 1080, &closest), S_OK);
  EXPECT_EQ(closest.ScanlineOrdering, DXGI_MODE_SCANLINE_ORDER_UPPER_FIELD_FIRST);
  ASSERT_EQ(findClosestMatchingMode(modes, mode(1280, 1024, 60, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED, DXGI_MODE_SCALING_CENTERED),
                                    false, 1920, 1080, &closest), S_OK);
  EXPECT_EQ(closest.Scaling, DXGI_MODE_SCALING_CENTERED);
  // An unspecified ordering prefers progressive modes.
  ASSERT_EQ(findClosestMatchingMode(modes, mode(1920, 1080, 0, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED), false, 1920, 1080, &closest), S_OK);
  EXPECT_EQ(closest.ScanlineOrdering, DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE);
}

namespace {

DXGI_SWAP_CHAIN_DESC1 desc1(DXGI_SWAP_EFFECT effect, UINT buffers, DXGI_FORMAT format = DXGI_FORMAT_R8G8B8A8_UNORM) {
  DXGI_SWAP_CHAIN_DESC1 d = {};
  d.Width = 640;
  d.Height = 480;
  d.Format = format;
  d.SampleDesc = { 1, 0 };
  d.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
  d.BufferCount = buffers;
  d.Scaling = DXGI_SCALING_STRETCH;
  d.SwapEffect = effect;
  d.AlphaMode = DXGI_ALPHA_MODE_UNSPECIFIED;
  return d;
}

SwapChainCaps caps() {
  SwapChainCaps c;
  c.qualityLevels = [](DXGI_FORMAT, UINT count) -> UINT { return count == 1 ? 1 : count == 4 ? 8 : 0; };
  c.tearingSupported = true;
  return c;
}

}

TEST(SwapChainRules, BufferCountsPerModel) {
  // test_swapchain_parameters: (buffer count, effect) -> hr.
  struct Case { UINT count; DXGI_SWAP_EFFECT effect; HRESULT hr; } cases[] = {
    {0, DXGI_SWAP_EFFECT_DISCARD, DXGI_ERROR_INVALID_CALL}, {1, DXGI_SWAP_EFFECT_DISCARD, S_OK},
    {2, DXGI_SWAP_EFFECT_DISCARD, S_OK}, {16, DXGI_SWAP_EFFECT_DISCARD, S_OK},
    {17, DXGI_SWAP_EFFECT_DISCARD, DXGI_ERROR_INVALID_CALL},
    {1, DXGI_SWAP_EFFECT_SEQUENTIAL, S_OK}, {16, DXGI_SWAP_EFFECT_SEQUENTIAL, S_OK},
    {17, DXGI_SWAP_EFFECT_SEQUENTIAL, DXGI_ERROR_INVALID_CALL},
    {0, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, DXGI_ERROR_INVALID_CALL},
    {1, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, DXGI_ERROR_INVALID_CALL},
    {2, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, S_OK}, {16, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, S_OK},
    {17, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, DXGI_ERROR_INVALID_CALL},
    {1, DXGI_SWAP_EFFECT_FLIP_DISCARD, DXGI_ERROR_INVALID_CALL}, {2, DXGI_SWAP_EFFECT_FLIP_DISCARD, S_OK},
    {17, DXGI_SWAP_EFFECT_FLIP_DISCARD, DXGI_ERROR_INVALID_CALL},
    {2, DXGI_SWAP_EFFECT(2), DXGI_ERROR_INVALID_CALL}, {2, DXGI_SWAP_EFFECT(5), DXGI_ERROR_INVALID_CALL},
  };
  for (const Case& c : cases)
    EXPECT_EQ(validateSwapChainDesc(desc1(c.effect, c.count), SwapChainTarget::Hwnd, caps()), c.hr)
        << "count " << c.count << " effect " << c.effect;
}

TEST(SwapChainRules, FormatsPerModel) {
  // test_swapchain_formats.
  const DXGI_SWAP_EFFECT bitblt = DXGI_SWAP_EFFECT_DISCARD, flip = DXGI_SWAP_EFFECT_FLIP_DISCARD;
  EXPECT_EQ(validateSwapChainDesc(desc1(bitblt, 2, DXGI_FORMAT_UNKNOWN), SwapChainTarget::Hwnd, caps()), E_INVALIDARG);
  EXPECT_EQ(validateSwapChainDesc(desc1(flip, 2, DXGI_FORMAT_UNKNOWN), SwapChainTarget::Hwnd, caps()), E_INVALIDARG);
  for (DXGI_FORMAT f : {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_R10G10B10A2_UNORM,
                        DXGI_FORMAT_R16G16B16A16_FLOAT}) {
    EXPECT_EQ(validateSwapChainDesc(desc1(bitblt, 2, f), SwapChainTarget::Hwnd, caps()), S_OK) << f;
    EXPECT_EQ(validateSwapChainDesc(desc1(flip, 2, f), SwapChainTarget::Hwnd, caps()), S_OK) << f;
  }
  for (DXGI_FORMAT f : {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB}) {
    EXPECT_EQ(validateSwapChainDesc(desc1(bitblt, 2, f), SwapChainTarget::Hwnd, caps()), S_OK) << f;
    EXPECT_EQ(validateSwapChainDesc(desc1(flip, 2, f), SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL) << f;
  }
  EXPECT_EQ(validateSwapChainDesc(desc1(flip, 2, DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM), SwapChainTarget::Hwnd, caps()),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateSwapChainDesc(desc1(bitblt, 2, DXGI_FORMAT_R32_FLOAT), SwapChainTarget::Hwnd, caps()),
            DXGI_ERROR_INVALID_CALL);
}

TEST(SwapChainRules, MultisamplingFlagsScalingAlpha) {
  // test_swapchain_parameters "multisampling": flip models refuse 4x, BitBlt accepts it
  // when the device has quality levels.
  auto d = desc1(DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 4);
  d.SampleDesc.Count = 4;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);
  d.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), S_OK);
  d.SampleDesc.Count = 2;  // no quality levels
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);

  d = desc1(DXGI_SWAP_EFFECT_DISCARD, 2);
  d.Flags = DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);
  d.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), S_OK);
  d.Flags = DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), S_OK);
  SwapChainCaps noTearing = caps();
  noTearing.tearingSupported = false;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, noTearing), DXGI_ERROR_INVALID_CALL);
  d.Flags = 0x4000;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);

  d = desc1(DXGI_SWAP_EFFECT_DISCARD, 2);
  d.Scaling = DXGI_SCALING_NONE;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);
  d.SwapEffect = DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), S_OK);
  d.Scaling = DXGI_SCALING_ASPECT_RATIO_STRETCH;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Composition, caps()), S_OK);

  d = desc1(DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 2);
  d.AlphaMode = DXGI_ALPHA_MODE_PREMULTIPLIED;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Composition, caps()), S_OK);
  d.AlphaMode = DXGI_ALPHA_MODE_IGNORE;
  d.Stereo = TRUE;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), DXGI_ERROR_INVALID_CALL);

  // Composition swap chains: flip model and an explicit size only.
  d = desc1(DXGI_SWAP_EFFECT_DISCARD, 2);
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Composition, caps()), DXGI_ERROR_INVALID_CALL);
  d = desc1(DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 2);
  d.Width = 0;
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Composition, caps()), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateSwapChainDesc(d, SwapChainTarget::Hwnd, caps()), S_OK);
}

TEST(SwapChainRules, BackBufferUsageAndAccess) {
  // test_swapchain_parameters: buffer 0 is BACK_BUFFER (+DISCARD_ON_PRESENT for DISCARD),
  // later buffers READ_ONLY; DISCARD models expose buffer 0 only.
  EXPECT_EQ(backBufferUsage(DXGI_USAGE_RENDER_TARGET_OUTPUT, DXGI_SWAP_EFFECT_DISCARD, 0),
            DXGI_USAGE_RENDER_TARGET_OUTPUT | DXGI_USAGE_BACK_BUFFER | DXGI_USAGE_DISCARD_ON_PRESENT);
  EXPECT_EQ(backBufferUsage(DXGI_USAGE_RENDER_TARGET_OUTPUT, DXGI_SWAP_EFFECT_SEQUENTIAL, 1),
            DXGI_USAGE_RENDER_TARGET_OUTPUT | DXGI_USAGE_BACK_BUFFER | DXGI_USAGE_READ_ONLY);
  EXPECT_EQ(backBufferUsage(0, DXGI_SWAP_EFFECT_DISCARD, 0), DXGI_USAGE_BACK_BUFFER | DXGI_USAGE_DISCARD_ON_PRESENT);
  EXPECT_EQ(accessibleBufferCount(DXGI_SWAP_EFFECT_DISCARD, 16), 1u);
  EXPECT_EQ(accessibleBufferCount(DXGI_SWAP_EFFECT_FLIP_DISCARD, 16), 1u);
  EXPECT_EQ(accessibleBufferCount(DXGI_SWAP_EFFECT_SEQUENTIAL, 3), 3u);
  EXPECT_EQ(accessibleBufferCount(DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 16), 16u);
}

TEST(SwapChainRules, DescSplit) {
  DXGI_SWAP_CHAIN_DESC d = {};
  d.BufferDesc = mode(800, 600, 60);
  d.SampleDesc = { 1, 0 };
  d.BufferCount = 2;
  d.Windowed = TRUE;
  d.SwapEffect = DXGI_SWAP_EFFECT_SEQUENTIAL;
  d.Flags = DXGI_SWAP_CHAIN_FLAG_ALLOW_MODE_SWITCH;
  DXGI_SWAP_CHAIN_DESC1 d1;
  DXGI_SWAP_CHAIN_FULLSCREEN_DESC fs;
  splitSwapChainDesc(d, &d1, &fs);
  // test_create_swapchain: a DXGI 1.0 swap chain reports STRETCH and alpha IGNORE.
  EXPECT_EQ(d1.Scaling, DXGI_SCALING_STRETCH);
  EXPECT_EQ(d1.AlphaMode, DXGI_ALPHA_MODE_IGNORE);
  EXPECT_EQ(d1.Width, 800u);
  EXPECT_EQ(d1.Flags, UINT(DXGI_SWAP_CHAIN_FLAG_ALLOW_MODE_SWITCH));
  EXPECT_EQ(fs.RefreshRate.Numerator, 60u);
  EXPECT_TRUE(fs.Windowed);
}

TEST(SwapChainRules, PresentArguments) {
  PresentState blt = { DXGI_SWAP_EFFECT_DISCARD, 0, true };
  // test_swapchain_present: sync intervals 0..4 are valid, 5..9 invalid calls.
  for (UINT i = 0; i < 10; i++)
    EXPECT_EQ(validatePresent(blt, i, 0), i <= 4 ? S_OK : DXGI_ERROR_INVALID_CALL) << i;
  EXPECT_EQ(validatePresent(blt, 0, DXGI_PRESENT_TEST), S_OK);
  EXPECT_EQ(validatePresent(blt, 0, DXGI_PRESENT_DO_NOT_WAIT), S_OK);
  EXPECT_EQ(validatePresent(blt, 0, 0x400), DXGI_ERROR_INVALID_CALL);
  // ALLOW_TEARING: only for a tearing swap chain, sync interval 0, windowed.
  EXPECT_EQ(validatePresent(blt, 0, DXGI_PRESENT_ALLOW_TEARING), DXGI_ERROR_INVALID_CALL);
  PresentState tearing = { DXGI_SWAP_EFFECT_FLIP_DISCARD, DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING, true };
  EXPECT_EQ(validatePresent(tearing, 0, DXGI_PRESENT_ALLOW_TEARING), S_OK);
  EXPECT_EQ(validatePresent(tearing, 1, DXGI_PRESENT_ALLOW_TEARING), DXGI_ERROR_INVALID_CALL);
  tearing.windowed = false;
  EXPECT_EQ(validatePresent(tearing, 0, DXGI_PRESENT_ALLOW_TEARING), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validatePresent(blt, 0, DXGI_PRESENT_RESTRICT_TO_OUTPUT), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validatePresent(blt, 0, DXGI_PRESENT_STEREO_PREFER_RIGHT), DXGI_ERROR_INVALID_CALL);

  DXGI_PRESENT_PARAMETERS params = {};
  EXPECT_EQ(validatePresentParameters(nullptr, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 640, 480), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validatePresentParameters(&params, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 640, 480), S_OK);
  RECT inside = { 0, 0, 640, 480 }, outside = { 0, 0, 641, 480 };
  params.DirtyRectsCount = 1;
  EXPECT_EQ(validatePresentParameters(&params, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 640, 480), DXGI_ERROR_INVALID_CALL);
  params.pDirtyRects = &inside;
  EXPECT_EQ(validatePresentParameters(&params, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 640, 480), S_OK);
  params.pDirtyRects = &outside;
  EXPECT_EQ(validatePresentParameters(&params, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 640, 480), DXGI_ERROR_INVALID_CALL);
  params = {};
  params.pScrollRect = &inside;
  EXPECT_EQ(validatePresentParameters(&params, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 640, 480), S_OK);
  EXPECT_EQ(validatePresentParameters(&params, DXGI_SWAP_EFFECT_FLIP_DISCARD, 640, 480), DXGI_ERROR_INVALID_CALL);
}

TEST(SwapChainRules, ResizeBuffersArguments) {
  auto d = desc1(DXGI_SWAP_EFFECT_FLIP_DISCARD, 2);
  d.Flags = DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT;
  EXPECT_EQ(validateResizeBuffers(d, 0, DXGI_FORMAT_UNKNOWN, d.Flags), S_OK);
  EXPECT_EQ(validateResizeBuffers(d, 1, DXGI_FORMAT_UNKNOWN, d.Flags), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateResizeBuffers(d, 17, DXGI_FORMAT_UNKNOWN, d.Flags), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateResizeBuffers(d, 3, DXGI_FORMAT_B8G8R8A8_UNORM, d.Flags), S_OK);
  EXPECT_EQ(validateResizeBuffers(d, 3, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, d.Flags), DXGI_ERROR_INVALID_CALL);
  // The waitable-object flag cannot be added or removed by ResizeBuffers.
  EXPECT_EQ(validateResizeBuffers(d, 0, DXGI_FORMAT_UNKNOWN, 0), DXGI_ERROR_INVALID_CALL);
  d.Flags = 0;
  EXPECT_EQ(validateResizeBuffers(d, 0, DXGI_FORMAT_UNKNOWN, DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(validateResizeBuffers(d, 0, DXGI_FORMAT_UNKNOWN, DXGI_SWAP_CHAIN_FLAG_ALLOW_MODE_SWITCH), S_OK);
}

TEST(SwapChainRules, HdrMetadataAndColorSpaces) {
  DXGI_HDR_METADATA_HDR10 hdr10 = {};
  EXPECT_EQ(validateHdrMetaData(DXGI_HDR_METADATA_TYPE_NONE, 0, nullptr), S_OK);
  EXPECT_EQ(validateHdrMetaData(DXGI_HDR_METADATA_TYPE_NONE, sizeof(hdr10), &hdr10), E_INVALIDARG);
  EXPECT_EQ(validateHdrMetaData(DXGI_HDR_METADATA_TYPE_HDR10, sizeof(hdr10), &hdr10), S_OK);
  EXPECT_EQ(validateHdrMetaData(DXGI_HDR_METADATA_TYPE_HDR10, sizeof(hdr10) - 1, &hdr10), E_INVALIDARG);
  EXPECT_EQ(validateHdrMetaData(DXGI_HDR_METADATA_TYPE_HDR10, sizeof(hdr10), nullptr), E_INVALIDARG);
  EXPECT_EQ(validateHdrMetaData(DXGI_HDR_METADATA_TYPE(7), 0, nullptr), E_INVALIDARG);

  EXPECT_EQ(colorSpaceSupport(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709),
            UINT(DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT));
  EXPECT_EQ(colorSpaceSupport(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_COLOR_SPACE_RGB_FULL_G10_NONE_P709), 0u);
  EXPECT_EQ(colorSpaceSupport(DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_COLOR_SPACE_RGB_FULL_G10_NONE_P709),
            UINT(DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT));
  EXPECT_EQ(colorSpaceSupport(DXGI_FORMAT_R10G10B10A2_UNORM, DXGI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020), 0u);
}
