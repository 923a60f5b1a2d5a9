// SPDX-License-Identifier: MIT
#pragma once

// The synthetic "game frame" of the protocol benchmarks: ~5,000 calls of state
// setters, constant-buffer updates and draws, and the objects they use.

#include "npt/protocol/handle_table.h"
#include "npt/protocol/writer.h"
#include "npt_encode.h"
#include "npt_ids.h"

namespace npt::protocol::bench {

  constexpr ObjectId kContext = 1;
  constexpr ObjectId kFirstBuffer = 100;    // 64 constant/vertex/index buffers
  constexpr ObjectId kFirstSrv = 200;       // 64 shader resource views
  constexpr ObjectId kFirstSampler = 300;   // 4 samplers
  constexpr ObjectId kVs = 400, kPs = 401, kLayout = 402, kBlend = 403, kDepth = 404, kRaster = 405;

  inline void registerObjects(HandleTable& t) {
    t.create(kContext, Iface_ID3D11DeviceContext);
    for (ObjectId i = 0; i < 64; i++) t.create(kFirstBuffer + i, Iface_ID3D11Buffer);
    for (ObjectId i = 0; i < 64; i++) t.create(kFirstSrv + i, Iface_ID3D11ShaderResourceView);
    for (ObjectId i = 0; i < 4; i++) t.create(kFirstSampler + i, Iface_ID3D11SamplerState);
    t.create(kVs, Iface_ID3D11VertexShader);
    t.create(kPs, Iface_ID3D11PixelShader);
    t.create(kLayout, Iface_ID3D11InputLayout);
    t.create(kBlend, Iface_ID3D11BlendState);
    t.create(kDepth, Iface_ID3D11DepthStencilState);
    t.create(kRaster, Iface_ID3D11RasterizerState);
  }

  // 500 draws x 10 calls = 5,000 commands: per draw a material/state change
  // mix typical of a forward renderer.
  inline size_t encodeFrame(CommandWriter& w, size_t& commands) {
    w.clear();
    commands = 0;
    float constants[64] = { };
    for (uint32_t draw = 0; draw < 500; draw++) {
      ObjectId vb = kFirstBuffer + (draw % 16), ib = kFirstBuffer + 16 + (draw % 8);
      ObjectId cb = kFirstBuffer + 32 + (draw % 4);
      ObjectId srv[2] = { kFirstSrv + (draw % 64), kFirstSrv + ((draw + 7) % 64) };
      ObjectId sampler = kFirstSampler + (draw % 4);
      UINT stride = 32, offset = 0;
      constants[0] = float(draw);
      encode_ID3D11DeviceContext_IASetVertexBuffers(w, kContext, 0, 1, &vb, &stride, &offset);
      encode_ID3D11DeviceContext_IASetIndexBuffer(w, kContext, ib, DXGI_FORMAT_R16_UINT, 0);
      encode_ID3D11DeviceContext_VSSetShader(w, kContext, kVs, nullptr, 0);
      encode_ID3D11DeviceContext_PSSetShader(w, kContext, kPs, nullptr, 0);
      encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, cb, 0, nullptr,
        Payload::inlineBytes(constants, sizeof(constants)), 0, 0);
      encode_ID3D11DeviceContext_VSSetConstantBuffers(w, kContext, 0, 1, &cb);
      encode_ID3D11DeviceContext_PSSetShaderResources(w, kContext, 0, 2, srv);
      encode_ID3D11DeviceContext_PSSetSamplers(w, kContext, 0, 1, &sampler);
      encode_ID3D11DeviceContext_OMSetDepthStencilState(w, kContext, kDepth, draw & 1);
      encode_ID3D11DeviceContext_DrawIndexed(w, kContext, 36 + draw, draw * 3, 0);
      commands += 10;
    }
    return w.size();
  }

}
