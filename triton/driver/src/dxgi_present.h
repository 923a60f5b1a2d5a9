// SPDX-License-Identifier: MIT
#pragma once

// The DXGI present path of one device (Present, the blits, identity rotation).
//
// Present shows the presented surface the way the Neptune guest's own swapchain does:
// when the target device is the Neptune guest runtime (it answers INptDevice), the
// surface's target texture goes to the host presenter with PresentBuffer (no round
// trip); any other target is flushed. Then the runtime's pfnPresentCb gets the present
// (its pDXGIContext, and no kernel allocations: Triton's resources have none, see
// triton/README.md "Presentation"). Run-ahead is bounded: an event query ends every
// presented frame on the target's immediate context, and a Present waits until fewer
// than maxFramesInFlight() earlier frames are unfinished: TRITON_MAX_FRAME_LATENCY
// (1..16), by default 3, DXGI's default maximum frame latency (the DDI does not carry the
// application's setting: on Windows the runtime and the kernel's present queue apply it).

#include <d3d11_1.h>
#include <wrl/client.h>

#include <deque>

#include "dxgi_blit.h"
#include "triton/ddi/ddi.h"

namespace triton::driver {

class DxgiPresenter {
public:
  static constexpr UINT kDefaultMaxFramesInFlight = 3;   // DXGI's default maximum frame latency
  static constexpr UINT kLargestMaxFramesInFlight = 16;  // IDXGIDevice1::SetMaximumFrameLatency's bound

  DxgiPresenter(ID3D11Device* device, ID3D11DeviceContext* context, const ddi::DXGI_DDI_BASE_CALLBACKS* callbacks,
                HANDLE runtimeDevice);
  ~DxgiPresenter();

  // Shows `surface` (a 2D texture of the target). E_INVALIDARG for anything else,
  // D3DDDIERR_DEVICEREMOVED once the target is lost, pfnPresentCb's failure.
  HRESULT present(ID3D11Resource* surface, ddi::DXGI_DDI_FLIP_INTERVAL_TYPE interval, void* dxgiContext);
  Blitter& blitter() { return blitter_; }

  UINT maxFramesInFlight() const { return maxFramesInFlight_; }
  UINT64 presents() const { return presents_; }
  UINT64 latencyWaits() const { return latencyWaits_; }

private:
  HRESULT waitForFrameLatency();

  ID3D11Device* device_;
  ID3D11DeviceContext* context_;
  const ddi::DXGI_DDI_BASE_CALLBACKS* callbacks_;
  HANDLE runtimeDevice_;
  Blitter blitter_;
  UINT maxFramesInFlight_;
  std::deque<Microsoft::WRL::ComPtr<ID3D11Query>> inFlight_;   // one event query per unfinished frame
  UINT64 presents_ = 0;
  UINT64 latencyWaits_ = 0;   // presents that had to wait for an earlier frame
};

}  // namespace triton::driver
