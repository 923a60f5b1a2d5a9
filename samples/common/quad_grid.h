// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <d3d11.h>

#include "com_ptr.h"
#include "frame_check.h"
#include "sample.h"
#include "status.h"

namespace npt::samples {

  // The draw-call-heavy scene many_draws and deferred_draws share: Size x Size quads,
  // one DrawIndexed each, the odd columns drawn with a second pixel shader (so every
  // draw changes pipeline state), each row's colour in constant buffer b0. The shader
  // source names vs_main, ps_plain and ps_swizzled (the latter returns .bgra).
  class QuadGrid {
  public:
    static constexpr uint32_t Size = 100;

    using RowColour = void (*)(uint32_t row, uint32_t frame, float colour[4]);

    Status create(const SampleContext& sc, const char* shaderSource, const char* shaderSourceName);

    // Input assembly, vertex shader and the row constant buffer; render target and
    // viewport are the caller's.
    void bind(ID3D11DeviceContext* context, ID3D11Buffer* rowConstants) const;

    // One row's quads; returns how many draws that was.
    uint32_t drawRow(ID3D11DeviceContext* context, uint32_t row) const;

    // The frame has `draws` draws and a sample of quads shows its row's colour.
    // With rowsPerWorker, a failure also names the worker that recorded the row.
    static void check(const SampleContext& sc, uint32_t frame, uint32_t draws, RowColour rowColour,
                      FrameCheck& check, uint32_t rowsPerWorker = 0);

  private:
    ComPtr<ID3D11VertexShader> m_vs;
    ComPtr<ID3D11PixelShader>  m_psPlain, m_psSwizzled;
    ComPtr<ID3D11InputLayout>  m_layout;
    ComPtr<ID3D11Buffer>       m_vertices, m_indices;
  };

}
