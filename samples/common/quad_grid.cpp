// SPDX-License-Identifier: MIT
#include "quad_grid.h"

#include <cstdio>
#include <vector>

namespace npt::samples {

  Status QuadGrid::create(const SampleContext& sc, const char* shaderSource, const char* shaderSourceName) {
    ComPtr<ID3DBlob> vsBytecode;
    NPT_CHECK_STATUS(sc.createVertexShader(shaderSource, shaderSourceName, "vs_main", m_vs, &vsBytecode));
    NPT_CHECK_STATUS(sc.createPixelShader(shaderSource, shaderSourceName, "ps_plain", m_psPlain));
    NPT_CHECK_STATUS(sc.createPixelShader(shaderSource, shaderSourceName, "ps_swizzled", m_psSwizzled));

    const D3D11_INPUT_ELEMENT_DESC element = { "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 };
    NPT_CHECK_HR(sc.device->CreateInputLayout(&element, 1,
      vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

    // Four vertices per cell; each draw picks its cell with BaseVertexLocation.
    std::vector<float> vertices;
    const float cell = 2.0f / Size;
    for (uint32_t row = 0; row < Size; row++) {
      for (uint32_t column = 0; column < Size; column++) {
        float x0 = -1.0f + cell * float(column), x1 = x0 + cell;
        float y0 = 1.0f - cell * float(row), y1 = y0 - cell;
        for (float v : { x0, y0, x1, y0, x0, y1, x1, y1 })
          vertices.push_back(v);
      }
    }
    D3D11_BUFFER_DESC vbDesc = { UINT(vertices.size() * sizeof(float)), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
    D3D11_SUBRESOURCE_DATA vbData = { vertices.data(), 0, 0 };
    NPT_CHECK_HR(sc.device->CreateBuffer(&vbDesc, &vbData, m_vertices.put()));

    // (x0,y0) (x1,y0) (x0,y1) is clockwise on screen.
    const uint16_t indices[6] = { 0, 1, 2, 2, 1, 3 };
    D3D11_BUFFER_DESC ibDesc = { sizeof(indices), D3D11_USAGE_IMMUTABLE, D3D11_BIND_INDEX_BUFFER, 0, 0, 0 };
    D3D11_SUBRESOURCE_DATA ibData = { indices, 0, 0 };
    NPT_CHECK_HR(sc.device->CreateBuffer(&ibDesc, &ibData, m_indices.put()));
    return Status::ok();
  }

  void QuadGrid::bind(ID3D11DeviceContext* context, ID3D11Buffer* rowConstants) const {
    UINT stride = 8, offset = 0;
    ID3D11Buffer* vertices = m_vertices.get();
    context->IASetInputLayout(m_layout.get());
    context->IASetVertexBuffers(0, 1, &vertices, &stride, &offset);
    context->IASetIndexBuffer(m_indices.get(), DXGI_FORMAT_R16_UINT, 0);
    context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    context->VSSetShader(m_vs.get(), nullptr, 0);
    context->PSSetConstantBuffers(0, 1, &rowConstants);
  }

  uint32_t QuadGrid::drawRow(ID3D11DeviceContext* context, uint32_t row) const {
    for (uint32_t column = 0; column < Size; column++) {
      context->PSSetShader(column & 1 ? m_psSwizzled.get() : m_psPlain.get(), nullptr, 0);
      context->DrawIndexed(6, 0, INT((row * Size + column) * 4));
    }
    return Size;
  }

  void QuadGrid::check(const SampleContext& sc, uint32_t frame, uint32_t draws, RowColour rowColour,
                       FrameCheck& check, uint32_t rowsPerWorker) {
    char text[96];
    std::snprintf(text, sizeof(text), "%u draws in the frame, expected %u", draws, Size * Size);
    check.expect(draws == Size * Size, text);
    if (sc.width <= Size || sc.height <= Size) {
      check.expect(false, "--size must exceed 100x100 for per-quad checks");
      return;
    }
    auto unorm = [](float v) { return uint8_t(v * 255.0f + 0.5f); };
    // Cell centres are at least half a pixel inside their cell once cells exceed a pixel.
    for (uint32_t row = 0; row < Size; row += 9) {
      float c[4];
      rowColour(row, frame, c);
      for (uint32_t column = 0; column < Size; column += 7) {
        const Rgba8 expected = column & 1 ? Rgba8{ unorm(c[2]), unorm(c[1]), unorm(c[0]), 255 }
                                          : Rgba8{ unorm(c[0]), unorm(c[1]), unorm(c[2]), 255 };
        if (rowsPerWorker)
          std::snprintf(text, sizeof(text), "quad (%u,%u) (worker %u) has its row colour", column, row, row / rowsPerWorker);
        else
          std::snprintf(text, sizeof(text), "quad (%u,%u) has its row colour", column, row);
        check.expectPixel((float(column) + 0.5f) / Size, (float(row) + 0.5f) / Size, expected, 1, text);
      }
    }
  }

}
