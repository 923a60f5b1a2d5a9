// SPDX-License-Identifier: MIT
#include "dxgi_present.h"

#include <windows.h>

#include <cstdlib>

#include "log.h"
#include "private_interfaces.h"   // guest/core: INptDevice, the Neptune device's swapchain seam
#include "translate.h"

namespace triton::driver {

using Microsoft::WRL::ComPtr;

namespace {

// TRITON_MAX_FRAME_LATENCY: how many presented frames may be unfinished on the target
// when a Present returns (as IDXGIDevice1::SetMaximumFrameLatency, 1..16); anything else
// keeps DXGI's default, with a warning.
UINT frameLatencySetting() {
  const char* value = std::getenv("TRITON_MAX_FRAME_LATENCY");
  if (!value || !*value)
    return DxgiPresenter::kDefaultMaxFramesInFlight;
  char* end = nullptr;
  const unsigned long frames = std::strtoul(value, &end, 10);
  if (*end || frames < 1 || frames > DxgiPresenter::kLargestMaxFramesInFlight) {
    TRITON_LOG(Warn, "TRITON_MAX_FRAME_LATENCY=%s is not 1..%u: %u frames", value,
               DxgiPresenter::kLargestMaxFramesInFlight, DxgiPresenter::kDefaultMaxFramesInFlight);
    return DxgiPresenter::kDefaultMaxFramesInFlight;
  }
  return UINT(frames);
}

}  // namespace

DxgiPresenter::DxgiPresenter(ID3D11Device* device, ID3D11DeviceContext* context,
                             const ddi::DXGI_DDI_BASE_CALLBACKS* callbacks, HANDLE runtimeDevice)
    : device_(device), context_(context), callbacks_(callbacks), runtimeDevice_(runtimeDevice), blitter_(device),
      maxFramesInFlight_(frameLatencySetting()) {}

DxgiPresenter::~DxgiPresenter() {
  if (presents_)
    TRITON_LOG(Info, "presents: %llu, of which %llu waited for the target to finish an earlier frame (at most %u "
               "unfinished)", static_cast<unsigned long long>(presents_),
               static_cast<unsigned long long>(latencyWaits_), maxFramesInFlight_);
}

HRESULT DxgiPresenter::waitForFrameLatency() {
  bool waited = false;
  UINT polls = 0;
  while (inFlight_.size() >= maxFramesInFlight_) {
    const HRESULT hr = context_->GetData(inFlight_.front().Get(), nullptr, 0, 0);
    if (hr == S_OK) {
      inFlight_.pop_front();
      continue;
    }
    if (FAILED(hr))
      return runtimeError(hr);
    waited = true;
    // A frame usually finishes within the first yields; a slow host (or a vsync interval
    // of the host presenter) would otherwise keep this thread spinning for milliseconds.
    Sleep(++polls < 64 ? 0 : 1);
  }
  if (waited)
    ++latencyWaits_;
  return S_OK;
}

HRESULT DxgiPresenter::present(ID3D11Resource* surface, ddi::DXGI_DDI_FLIP_INTERVAL_TYPE interval, void* dxgiContext) {
  ComPtr<ID3D11Texture2D> texture;
  if (!surface || FAILED(surface->QueryInterface(IID_PPV_ARGS(&texture))))
    return E_INVALIDARG;
  HRESULT hr = waitForFrameLatency();
  if (FAILED(hr))
    return hr;

  ComPtr<INptDevice> neptune;
  if (SUCCEEDED(device_->QueryInterface(npt::guest::kIID_INptDevice, reinterpret_cast<void**>(neptune.GetAddressOf())))) {
    hr = neptune->PresentBuffer(texture.Get(), UINT(interval), 0);
    if (FAILED(hr))
      return runtimeError(hr);
  } else {
    context_->Flush();
  }
  const D3D11_QUERY_DESC event{D3D11_QUERY_EVENT, 0};
  ComPtr<ID3D11Query> query;
  hr = device_->CreateQuery(&event, &query);
  if (FAILED(hr))
    return runtimeError(hr);
  context_->End(query.Get());
  inFlight_.push_back(std::move(query));
  ++presents_;

  // The runtime's present accounting (frame statistics, its own queue): no kernel
  // allocation stands behind Triton's resources, so none is named.
  if (callbacks_ && callbacks_->pfnPresentCb) {
    ddi::DXGIDDICB_PRESENT cb{};
    cb.pDXGIContext = dxgiContext;
    hr = callbacks_->pfnPresentCb(runtimeDevice_, &cb);
    if (FAILED(hr))
      return hr;
  }
  return S_OK;
}

}  // namespace triton::driver
