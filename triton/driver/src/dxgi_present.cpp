#include "dxgi_present.h"

#include <windows.h>

#include "log.h"
#include "private_interfaces.h"   // guest/core: INptDevice, the Neptune device's swapchain seam
#include "translate.h"

namespace triton::driver {

using Microsoft::WRL::ComPtr;

DxgiPresenter::DxgiPresenter(ID3D11Device* device, ID3D11DeviceContext* context,
                             const ddi::DXGI_DDI_BASE_CALLBACKS* callbacks, HANDLE runtimeDevice)
    : device_(device), context_(context), callbacks_(callbacks), runtimeDevice_(runtimeDevice), blitter_(device) {}

HRESULT DxgiPresenter::waitForFrameLatency() {
  bool waited = false;
  while (inFlight_.size() >= kMaxFramesInFlight) {
    const HRESULT hr = context_->GetData(inFlight_.front().Get(), nullptr, 0, 0);
    if (hr == S_OK) {
      inFlight_.pop_front();
      continue;
    }
    if (FAILED(hr))
      return runtimeError(hr);
    waited = true;
    Sleep(0);
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
