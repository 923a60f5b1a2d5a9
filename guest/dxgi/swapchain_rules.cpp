// SPDX-License-Identifier: MIT
#include "swapchain_rules.h"

namespace npt::guest::dxgi {

bool isFlipModel(DXGI_SWAP_EFFECT effect) {
  return effect == DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL || effect == DXGI_SWAP_EFFECT_FLIP_DISCARD;
}

bool isKnownSwapEffect(DXGI_SWAP_EFFECT effect) {
  return effect == DXGI_SWAP_EFFECT_DISCARD || effect == DXGI_SWAP_EFFECT_SEQUENTIAL || isFlipModel(effect);
}

bool isSwapChainFormat(DXGI_FORMAT format, DXGI_SWAP_EFFECT effect) {
  switch (format) {
    case DXGI_FORMAT_R16G16B16A16_FLOAT:
    case DXGI_FORMAT_B8G8R8A8_UNORM:
    case DXGI_FORMAT_R8G8B8A8_UNORM:
    case DXGI_FORMAT_R10G10B10A2_UNORM:
      return true;
    case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB:
    case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB:
    case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM:
      return !isFlipModel(effect);
    default:
      return false;
  }
}

namespace {

HRESULT validateBufferCount(DXGI_SWAP_EFFECT effect, UINT count) {
  UINT minimum = isFlipModel(effect) ? 2 : 1;
  return count >= minimum && count <= kMaxBufferCount ? S_OK : DXGI_ERROR_INVALID_CALL;
}

}

HRESULT validateSwapChainDesc(const DXGI_SWAP_CHAIN_DESC1& desc, SwapChainTarget target,
                              const SwapChainCaps& caps) {
  // An unknown format is an invalid argument before anything else (test_swapchain_formats).
  if (desc.Format == DXGI_FORMAT_UNKNOWN)
    return E_INVALIDARG;
  if (!isKnownSwapEffect(desc.SwapEffect))
    return DXGI_ERROR_INVALID_CALL;
  // Composition swap chains exist only in the flip model.
  if (target == SwapChainTarget::Composition && !isFlipModel(desc.SwapEffect))
    return DXGI_ERROR_INVALID_CALL;
  if (FAILED(validateBufferCount(desc.SwapEffect, desc.BufferCount)))
    return DXGI_ERROR_INVALID_CALL;
  if (!isSwapChainFormat(desc.Format, desc.SwapEffect))
    return DXGI_ERROR_INVALID_CALL;
  if (desc.Flags & ~kKnownSwapChainFlags)
    return DXGI_ERROR_INVALID_CALL;
  if (target == SwapChainTarget::Composition && (desc.Width == 0 || desc.Height == 0))
    return DXGI_ERROR_INVALID_CALL;

  if (isFlipModel(desc.SwapEffect)) {
    // The flip model presents the buffers themselves: no multisampled buffers.
    if (desc.SampleDesc.Count != 1 || desc.SampleDesc.Quality != 0)
      return DXGI_ERROR_INVALID_CALL;
  } else {
    if (desc.SampleDesc.Count == 0)
      return DXGI_ERROR_INVALID_CALL;
    UINT levels = caps.qualityLevels ? caps.qualityLevels(desc.Format, desc.SampleDesc.Count)
                                     : (desc.SampleDesc.Count == 1 ? 1 : 0);
    if (desc.SampleDesc.Quality >= levels)
      return DXGI_ERROR_INVALID_CALL;
    // Flags that only the flip model has.
    if (desc.Flags & (DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT | DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING))
      return DXGI_ERROR_INVALID_CALL;
    // Scaling NONE keeps the buffer unscaled on the window: a flip-model feature.
    if (desc.Scaling == DXGI_SCALING_NONE)
      return DXGI_ERROR_INVALID_CALL;
  }
  if ((desc.Flags & DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING) && !caps.tearingSupported)
    return DXGI_ERROR_INVALID_CALL;

  switch (desc.Scaling) {
    case DXGI_SCALING_STRETCH:
    case DXGI_SCALING_NONE:
      break;
    case DXGI_SCALING_ASPECT_RATIO_STRETCH:
      // Only composition and CoreWindow swap chains letterbox.
      if (target == SwapChainTarget::Hwnd)
        return DXGI_ERROR_INVALID_CALL;
      break;
    default:
      return DXGI_ERROR_INVALID_CALL;
  }
  switch (desc.AlphaMode) {
    case DXGI_ALPHA_MODE_UNSPECIFIED:
    case DXGI_ALPHA_MODE_IGNORE:
      break;
    case DXGI_ALPHA_MODE_PREMULTIPLIED:
    case DXGI_ALPHA_MODE_STRAIGHT:
      // A window cannot blend with what lies behind it; a composition visual can.
      if (target == SwapChainTarget::Hwnd)
        return DXGI_ERROR_INVALID_CALL;
      break;
    default:
      return DXGI_ERROR_INVALID_CALL;
  }
  // No stereo display is exposed (IsWindowedStereoEnabled is FALSE).
  if (desc.Stereo)
    return DXGI_ERROR_INVALID_CALL;
  return S_OK;
}

void splitSwapChainDesc(const DXGI_SWAP_CHAIN_DESC& desc, DXGI_SWAP_CHAIN_DESC1* desc1,
                        DXGI_SWAP_CHAIN_FULLSCREEN_DESC* fullscreen) {
  *desc1 = {};
  desc1->Width = desc.BufferDesc.Width;
  desc1->Height = desc.BufferDesc.Height;
  desc1->Format = desc.BufferDesc.Format;
  desc1->Stereo = FALSE;
  desc1->SampleDesc = desc.SampleDesc;
  desc1->BufferUsage = desc.BufferUsage;
  desc1->BufferCount = desc.BufferCount;
  desc1->Scaling = DXGI_SCALING_STRETCH;
  desc1->SwapEffect = desc.SwapEffect;
  desc1->AlphaMode = DXGI_ALPHA_MODE_IGNORE;
  desc1->Flags = desc.Flags;
  *fullscreen = {};
  fullscreen->RefreshRate = desc.BufferDesc.RefreshRate;
  fullscreen->ScanlineOrdering = desc.BufferDesc.ScanlineOrdering;
  fullscreen->Scaling = desc.BufferDesc.Scaling;
  fullscreen->Windowed = desc.Windowed;
}

DXGI_USAGE backBufferUsage(DXGI_USAGE bufferUsage, DXGI_SWAP_EFFECT effect, UINT index) {
  DXGI_USAGE usage = bufferUsage | DXGI_USAGE_BACK_BUFFER;
  if (effect == DXGI_SWAP_EFFECT_DISCARD)
    usage |= DXGI_USAGE_DISCARD_ON_PRESENT;
  if (index > 0)
    usage |= DXGI_USAGE_READ_ONLY;
  return usage;
}

UINT accessibleBufferCount(DXGI_SWAP_EFFECT effect, UINT bufferCount) {
  if (effect == DXGI_SWAP_EFFECT_DISCARD || effect == DXGI_SWAP_EFFECT_FLIP_DISCARD)
    return 1;
  return bufferCount;
}

HRESULT validatePresent(const PresentState& state, UINT syncInterval, UINT flags) {
  if (syncInterval > kMaxSyncInterval)
    return DXGI_ERROR_INVALID_CALL;
  if (flags & ~kKnownPresentFlags)
    return DXGI_ERROR_INVALID_CALL;
  if (flags & DXGI_PRESENT_ALLOW_TEARING) {
    // Tearing: a swap chain created for it, no vsync, windowed (docs of DXGI_PRESENT).
    if (!(state.swapChainFlags & DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING) || syncInterval != 0 || !state.windowed)
      return DXGI_ERROR_INVALID_CALL;
  }
  // Restricting to an output needs a swap chain that restricts its content.
  if ((flags & DXGI_PRESENT_RESTRICT_TO_OUTPUT) && !(state.swapChainFlags & DXGI_SWAP_CHAIN_FLAG_RESTRICTED_CONTENT))
    return DXGI_ERROR_INVALID_CALL;
  // Stereo flags need a stereo swap chain; none can be created here.
  if (flags & (DXGI_PRESENT_STEREO_PREFER_RIGHT | DXGI_PRESENT_STEREO_TEMPORARY_MONO))
    return DXGI_ERROR_INVALID_CALL;
  return S_OK;
}

namespace {

bool rectInside(const RECT& r, UINT width, UINT height) {
  return r.left >= 0 && r.top >= 0 && r.left <= r.right && r.top <= r.bottom &&
         UINT(r.right) <= width && UINT(r.bottom) <= height;
}

}

HRESULT validatePresentParameters(const DXGI_PRESENT_PARAMETERS* parameters, DXGI_SWAP_EFFECT effect,
                                  UINT width, UINT height) {
  if (!parameters)
    return DXGI_ERROR_INVALID_CALL;
  if (parameters->DirtyRectsCount && !parameters->pDirtyRects)
    return DXGI_ERROR_INVALID_CALL;
  for (UINT i = 0; i < parameters->DirtyRectsCount; i++)
    if (!rectInside(parameters->pDirtyRects[i], width, height))
      return DXGI_ERROR_INVALID_CALL;
  if (parameters->pScrollRect) {
    if (effect == DXGI_SWAP_EFFECT_DISCARD || effect == DXGI_SWAP_EFFECT_FLIP_DISCARD)
      return DXGI_ERROR_INVALID_CALL;
    if (!rectInside(*parameters->pScrollRect, width, height))
      return DXGI_ERROR_INVALID_CALL;
  }
  return S_OK;
}

HRESULT validateResizeBuffers(const DXGI_SWAP_CHAIN_DESC1& current, UINT bufferCount,
                              DXGI_FORMAT format, UINT flags) {
  if (bufferCount != 0 && FAILED(validateBufferCount(current.SwapEffect, bufferCount)))
    return DXGI_ERROR_INVALID_CALL;
  if (format != DXGI_FORMAT_UNKNOWN && !isSwapChainFormat(format, current.SwapEffect))
    return DXGI_ERROR_INVALID_CALL;
  if (flags & ~kKnownSwapChainFlags)
    return DXGI_ERROR_INVALID_CALL;
  const UINT fixedFlags = DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT | DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING;
  if ((flags & fixedFlags) != (current.Flags & fixedFlags))
    return DXGI_ERROR_INVALID_CALL;
  return S_OK;
}

HRESULT validateHdrMetaData(DXGI_HDR_METADATA_TYPE type, UINT size, const void* metadata) {
  switch (type) {
    case DXGI_HDR_METADATA_TYPE_NONE:
      return size == 0 && !metadata ? S_OK : E_INVALIDARG;
    case DXGI_HDR_METADATA_TYPE_HDR10:
      return size == sizeof(DXGI_HDR_METADATA_HDR10) && metadata ? S_OK : E_INVALIDARG;
    case DXGI_HDR_METADATA_TYPE_HDR10PLUS:
      return size != 0 && metadata ? S_OK : E_INVALIDARG;
    default:
      return E_INVALIDARG;
  }
}

UINT colorSpaceSupport(DXGI_FORMAT format, DXGI_COLOR_SPACE_TYPE colorSpace) {
  switch (colorSpace) {
    case DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709:
      return DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT;
    case DXGI_COLOR_SPACE_RGB_FULL_G10_NONE_P709:
      return format == DXGI_FORMAT_R16G16B16A16_FLOAT ? DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT : 0;
    default:
      return 0;
  }
}

}
