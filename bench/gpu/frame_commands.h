// SPDX-License-Identifier: MIT
#pragma once
// many_draws' frame as wire commands (samples/many_draws, samples/common/quad_grid.cpp),
// shared by the in-process executor mode and the neptune-server mode of gpu-frame-bench.

#include <cstdint>
#include <functional>

#include "npt/d3d11_api.h"
#include "npt_encode.h"

namespace npt::bench::gpu {

constexpr uint32_t kGrid = 100;   // quads per row and per column, as samples/many_draws

// The frame's shaders in SM5 assembly (the host has no HLSL compiler; dxbc/asm assembles
// them and derives the signatures from the declarations: input v0 -> TEXCOORD0, o0 with
// position -> SV_Position, pixel o0 -> SV_Target0). The odd columns use the swizzled pixel
// shader, so every draw changes pipeline state.
inline constexpr const char* kVertexShader = R"(vs_5_0
dcl_globalFlags refactoringAllowed
dcl_input v0.xy
dcl_output_siv o0.xyzw, position
mov o0.xy, v0.xyxx
mov o0.zw, l(0, 0, 0, 1.000000)
ret
)";
inline constexpr const char* kPixelShaderPlain = R"(ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_output o0.xyzw
mov o0.xyzw, cb0[0].xyzw
ret
)";
inline constexpr const char* kPixelShaderSwizzled = R"(ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_output o0.xyzw
mov o0.xyzw, cb0[0].zyxw
ret
)";

// The row colour of a frame: changes every frame, so the check sees this frame's writes.
inline void rowColour(uint32_t row, uint32_t frame, float out[4]) {
  out[0] = float(row) / float(kGrid - 1);
  out[1] = float(frame % 16) / 15.0f;
  out[2] = 0.5f;
  out[3] = 1.0f;
}

// The guest ids the frame uses.
struct FrameObjects {
  protocol::ObjectId context = 0, rtv = 0, layout = 0, vertices = 0, indices = 0, vs = 0, psPlain = 0,
                     psSwizzled = 0, rowConstants = 0;
};

// Encodes frame `frame` (without a readback) at the writer's end; `rowDone` runs after each
// row, where a guest submits its batch once it grew past its threshold.
inline void encodeFrame(protocol::CommandWriter& w, const FrameObjects& o, uint32_t frame, UINT width, UINT height,
                        const std::function<void()>& rowDone = {}) {
  using namespace npt::protocol;
  const float clear[4] = {0, 0, 0, 1};
  D3D11_VIEWPORT viewport = {0, 0, float(width), float(height), 0, 1};
  UINT stride = 8, offset = 0;
  encode_ID3D11DeviceContext_ClearRenderTargetView(w, o.context, o.rtv, clear);
  encode_ID3D11DeviceContext_OMSetRenderTargets(w, o.context, 1, &o.rtv, 0);
  encode_ID3D11DeviceContext_RSSetViewports(w, o.context, 1, &viewport);
  encode_ID3D11DeviceContext_IASetInputLayout(w, o.context, o.layout);
  encode_ID3D11DeviceContext_IASetVertexBuffers(w, o.context, 0, 1, &o.vertices, &stride, &offset);
  encode_ID3D11DeviceContext_IASetIndexBuffer(w, o.context, o.indices, DXGI_FORMAT_R16_UINT, 0);
  encode_ID3D11DeviceContext_IASetPrimitiveTopology(w, o.context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  encode_ID3D11DeviceContext_VSSetShader(w, o.context, o.vs, nullptr, 0);
  encode_ID3D11DeviceContext_PSSetConstantBuffers(w, o.context, 0, 1, &o.rowConstants);
  for (uint32_t row = 0; row < kGrid; row++) {
    float colour[4];
    rowColour(row, frame, colour);
    encode_ID3D11DeviceContext_UpdateSubresource(w, o.context, o.rowConstants, 0, nullptr,
                                                 Payload::inlineBytes(colour, sizeof(colour)), 0, 0);
    for (uint32_t column = 0; column < kGrid; column++) {
      encode_ID3D11DeviceContext_PSSetShader(w, o.context, column & 1 ? o.psSwizzled : o.psPlain, nullptr, 0);
      encode_ID3D11DeviceContext_DrawIndexed(w, o.context, 6, 0, INT((row * kGrid + column) * 4));
    }
    if (rowDone) rowDone();
  }
}

// The 1-pixel box of cell (0,0)'s centre that every mode reads back.
inline D3D11_BOX checkedPixelBox(UINT width, UINT height) {
  return D3D11_BOX{width / kGrid / 2, height / kGrid / 2, 0, width / kGrid / 2 + 1, height / kGrid / 2 + 1, 1};
}

// The frame's render target and its one-pixel readback texture (RGBA8).
inline D3D11_TEXTURE2D_DESC textureDesc(UINT width, UINT height, D3D11_USAGE usage, UINT bind, UINT cpu) {
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = width;
  desc.Height = height;
  desc.MipLevels = 1;
  desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = usage;
  desc.BindFlags = bind;
  desc.CPUAccessFlags = cpu;
  return desc;
}

}  // namespace npt::bench::gpu
