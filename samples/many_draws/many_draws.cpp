// Sample 8: a draw-call-heavy scene. 100x100 quads, one DrawIndexed each
// (10,000 draws per frame), alternating between two pixel shaders on every
// draw, with a constant buffer update per row: per-draw API cost dominates,
// which is what remoting overhead is measured on.

#include "sample.h"
#include "many_draws_hlsl.h"

#include <cstdio>
#include <vector>

namespace npt::samples {

  namespace {

    constexpr uint32_t GridSize = 100;   // GridSize^2 draws per frame

    void rowColour(uint32_t row, uint32_t frame, float colour[4]) {
      colour[0] = float((row * 2 + frame * 3) % 256) / 255.0f;
      colour[1] = float(255 - row * 2) / 255.0f;
      colour[2] = float((frame * 20) % 256) / 255.0f;
      colour[3] = 1.0f;
    }

    Rgba8 expectedColour(uint32_t column, uint32_t row, uint32_t frame) {
      float c[4];
      rowColour(row, frame, c);
      auto unorm = [](float v) { return uint8_t(v * 255.0f + 0.5f); };
      return column & 1 ? Rgba8{ unorm(c[2]), unorm(c[1]), unorm(c[0]), 255 }
                        : Rgba8{ unorm(c[0]), unorm(c[1]), unorm(c[2]), 255 };
    }

    class ManyDrawsSample final : public Sample {
    public:
      const char* name() const override { return "many_draws"; }

      Status init(SampleContext& sc) override {
        ComPtr<ID3DBlob> vsBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs, &vsBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_plain", m_psPlain));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_swizzled", m_psSwizzled));

        const D3D11_INPUT_ELEMENT_DESC element = { "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 };
        NPT_CHECK_HR(sc.device->CreateInputLayout(&element, 1,
          vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

        // Four vertices per cell; each draw picks its cell with BaseVertexLocation.
        std::vector<float> vertices;
        const float cell = 2.0f / GridSize;
        for (uint32_t row = 0; row < GridSize; row++) {
          for (uint32_t column = 0; column < GridSize; column++) {
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

        D3D11_BUFFER_DESC cbDesc = { 16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        sc.context->ClearRenderTargetView(sc.targetView, black);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();

        UINT stride = 8, offset = 0;
        sc.context->IASetInputLayout(m_layout.get());
        sc.context->IASetVertexBuffers(0, 1, m_vertices.addressOf(), &stride, &offset);
        sc.context->IASetIndexBuffer(m_indices.get(), DXGI_FORMAT_R16_UINT, 0);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        sc.context->VSSetShader(m_vs.get(), nullptr, 0);
        sc.context->PSSetConstantBuffers(0, 1, m_constants.addressOf());

        uint32_t draws = 0;
        for (uint32_t row = 0; row < GridSize; row++) {
          float colour[4];
          rowColour(row, frame, colour);
          sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, colour, 0, 0);
          for (uint32_t column = 0; column < GridSize; column++) {
            sc.context->PSSetShader(column & 1 ? m_psSwizzled.get() : m_psPlain.get(), nullptr, 0);
            sc.context->DrawIndexed(6, 0, INT((row * GridSize + column) * 4));
            draws++;
          }
        }
        m_draws = draws;
        return Status::ok();
      }

      void check(const SampleContext& sc, uint32_t frame, FrameCheck& check) override {
        char text[96];
        std::snprintf(text, sizeof(text), "%u draws in the frame, expected %u", m_draws, GridSize * GridSize);
        check.expect(m_draws == GridSize * GridSize, text);
        if (sc.width <= GridSize || sc.height <= GridSize) {
          check.expect(false, "--size must exceed 100x100 for per-quad checks");
          return;
        }
        // Cell centres are at least half a pixel inside their cell once cells exceed a pixel.
        for (uint32_t row = 0; row < GridSize; row += 9) {
          for (uint32_t column = 0; column < GridSize; column += 7) {
            std::snprintf(text, sizeof(text), "quad (%u,%u) has its row colour", column, row);
            check.expectPixel((float(column) + 0.5f) / GridSize, (float(row) + 0.5f) / GridSize,
              expectedColour(column, row, frame), 1, text);
          }
        }
      }

    private:
      ComPtr<ID3D11VertexShader> m_vs;
      ComPtr<ID3D11PixelShader>  m_psPlain, m_psSwizzled;
      ComPtr<ID3D11InputLayout>  m_layout;
      ComPtr<ID3D11Buffer>       m_vertices, m_indices, m_constants;
      uint32_t                   m_draws = 0;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::ManyDrawsSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
