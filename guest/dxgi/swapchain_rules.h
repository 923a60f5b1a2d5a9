// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

#include <dxgi1_6.h>

// The validation Windows' DXGI runtime does for swap chains, as pure functions of
// the descriptions (checked by Wine's dxgi tests: test_swapchain_parameters,
// test_swapchain_formats, test_swapchain_present, test_frame_latency_event). The
// swapchain object calls these before it touches the device or the wire.
namespace npt::guest::dxgi {

constexpr UINT kMaxBufferCount = 16;      // DXGI_MAX_SWAP_CHAIN_BUFFERS
constexpr UINT kMaxSyncInterval = 4;
constexpr UINT kDefaultFrameLatency = 3;  // IDXGIDevice1 default
constexpr UINT kMaxFrameLatency = 16;
constexpr UINT kDefaultWaitableFrameLatency = 1;  // swapchains with a waitable object

// Every DXGI_SWAP_CHAIN_FLAG_* value DXGI 1.6 defines.
constexpr UINT kKnownSwapChainFlags = 0x1fff;
// Every DXGI_PRESENT_* value DXGI 1.6 defines.
constexpr UINT kKnownPresentFlags = DXGI_PRESENT_TEST | DXGI_PRESENT_DO_NOT_SEQUENCE | DXGI_PRESENT_RESTART |
    DXGI_PRESENT_DO_NOT_WAIT | DXGI_PRESENT_STEREO_PREFER_RIGHT | DXGI_PRESENT_STEREO_TEMPORARY_MONO |
    DXGI_PRESENT_RESTRICT_TO_OUTPUT | DXGI_PRESENT_USE_DURATION | DXGI_PRESENT_ALLOW_TEARING;

enum class SwapChainTarget { Hwnd, Composition };

bool isFlipModel(DXGI_SWAP_EFFECT effect);
bool isKnownSwapEffect(DXGI_SWAP_EFFECT effect);

// Formats a swap chain's buffers may have: flip model R16G16B16A16_FLOAT, B8G8R8A8_UNORM,
// R8G8B8A8_UNORM, R10G10B10A2_UNORM; the BitBlt model additionally the sRGB variants
// and R10G10B10_XR_BIAS_A2_UNORM (display scan-out formats of the D3D11 format tables).
bool isSwapChainFormat(DXGI_FORMAT format, DXGI_SWAP_EFFECT effect);

// What the validation needs to know about the device and factory.
struct SwapChainCaps {
  // CheckMultisampleQualityLevels of the device (0: the sample count is unsupported).
  std::function<UINT(DXGI_FORMAT, UINT sampleCount)> qualityLevels;
  bool tearingSupported = false;          // IDXGIFactory5 PRESENT_ALLOW_TEARING
};

// CreateSwapChain / CreateSwapChainForHwnd / CreateSwapChainForComposition checks, in the
// order Windows applies them. Width/Height 0 are valid for HWND targets (the window's
// client size is used) and invalid for composition targets.
HRESULT validateSwapChainDesc(const DXGI_SWAP_CHAIN_DESC1& desc, SwapChainTarget target,
                              const SwapChainCaps& caps);

// DXGI_SWAP_CHAIN_DESC (DXGI 1.0) in the DXGI 1.2 form the swapchain keeps.
void splitSwapChainDesc(const DXGI_SWAP_CHAIN_DESC& desc, DXGI_SWAP_CHAIN_DESC1* desc1,
                        DXGI_SWAP_CHAIN_FULLSCREEN_DESC* fullscreen);

// DXGI_USAGE of back buffer `index` as IDXGIResource::GetUsage reports it: buffer 0 is
// the writable back buffer; later buffers are read-only (Windows 10); DISCARD swap
// chains add DISCARD_ON_PRESENT.
DXGI_USAGE backBufferUsage(DXGI_USAGE bufferUsage, DXGI_SWAP_EFFECT effect, UINT index);

// Buffers GetBuffer may return: only buffer 0 for DISCARD and FLIP_DISCARD, every
// buffer for SEQUENTIAL and FLIP_SEQUENTIAL.
UINT accessibleBufferCount(DXGI_SWAP_EFFECT effect, UINT bufferCount);

// Present/Present1 argument checks (before anything is presented).
struct PresentState {
  DXGI_SWAP_EFFECT effect;
  UINT swapChainFlags;
  bool windowed;
};
HRESULT validatePresent(const PresentState& state, UINT syncInterval, UINT flags);

// DXGI_PRESENT_PARAMETERS of Present1: dirty rectangles and the scroll rectangle must lie
// inside the back buffer; scrolling needs the flip-sequential or BitBlt-sequential model.
HRESULT validatePresentParameters(const DXGI_PRESENT_PARAMETERS* parameters, DXGI_SWAP_EFFECT effect,
                                  UINT width, UINT height);

// ResizeBuffers checks (besides outstanding references): buffer count for the model,
// format, and the flags that must not change (FRAME_LATENCY_WAITABLE_OBJECT,
// ALLOW_TEARING presence).
HRESULT validateResizeBuffers(const DXGI_SWAP_CHAIN_DESC1& current, UINT bufferCount,
                              DXGI_FORMAT format, UINT flags);

// SetHDRMetaData: NONE with no data, HDR10 with exactly a DXGI_HDR_METADATA_HDR10,
// HDR10PLUS with data; anything else E_INVALIDARG.
HRESULT validateHdrMetaData(DXGI_HDR_METADATA_TYPE type, UINT size, const void* metadata);

// CheckColorSpaceSupport of a swap chain with `format`: DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT
// flags. sRGB (G22 P709) for every format, linear (G10 P709) for FP16: the host
// presenter scans out nothing else (no HDR output yet).
UINT colorSpaceSupport(DXGI_FORMAT format, DXGI_COLOR_SPACE_TYPE colorSpace);

}
