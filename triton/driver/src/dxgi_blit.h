// SPDX-License-Identifier: MIT
#pragma once

// DXGI Blt/Blt1 that a copy cannot do: stretching, format conversion and rotation (also
// of a multisampled source: a resolve that stretches, converts or rotates).
// They draw: one triangle over the destination rectangle (as a viewport) sampling the
// source rectangle, with the blit shaders (dxgi_blit_shaders.cpp, assembled at first
// use). The target immediate context's pipeline state is saved before and restored
// after, because the runtime does not re-send state around a DXGI Blt.

#include <d3d11_1.h>
#include <wrl/client.h>

#include "triton/ddi/dxgiddi.h"

namespace triton::driver {

struct BlitRect {
  UINT left, top, right, bottom;
};

class Blitter {
public:
  explicit Blitter(ID3D11Device* device) : device_(device) {}

  // Draws source subresource `srcSub` (rectangle `srcRect`) into the destination
  // subresource's rectangle `dstRect`. Both must be 2D textures, the source's format one
  // the target samples, the destination's one it renders
  // to (E_NOTIMPL otherwise; E_INVALIDARG for rectangles or subresources outside the
  // textures; nothing drawn either way). A source without SHADER_RESOURCE binding or with
  // several samples is copied or resolved into a scratch texture first; a destination
  // without RENDER_TARGET binding is drawn through a scratch render target. `linear`
  // selects linear filtering (a stretch) over point sampling.
  HRESULT blit(ID3D11DeviceContext* context, ID3D11Resource* dst, UINT dstSub, const BlitRect& dstRect,
               ID3D11Resource* src, UINT srcSub, const BlitRect& srcRect, ddi::DXGI_DDI_MODE_ROTATION rotation,
               bool linear);

private:
  HRESULT createPipeline();

  ID3D11Device* device_;
  Microsoft::WRL::ComPtr<ID3D11VertexShader> vs_;
  Microsoft::WRL::ComPtr<ID3D11PixelShader> ps_;
  Microsoft::WRL::ComPtr<ID3D11SamplerState> point_, linear_;
  Microsoft::WRL::ComPtr<ID3D11Buffer> constants_;
  Microsoft::WRL::ComPtr<ID3D11RasterizerState> rasterizer_;
};

}  // namespace triton::driver
