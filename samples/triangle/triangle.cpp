// SPDX-License-Identifier: MIT
// Sample 1: clear + triangle. The smallest complete pipeline: input layout,
// vertex buffer, constant buffer, viewport, one Draw.

#include "sample.h"
#include "triangle_hlsl.h"

#include <cmath>

namespace npt::samples {

  namespace {

    constexpr float ClearColour[4] = { 0.1f, 0.1f, 0.3f, 1.0f };
    constexpr Rgba8 ClearRgba = { 26, 26, 77, 255 };

    struct Vertex {
      float position[2];
      float colour[3];
    };

    class TriangleSample final : public Sample {
    public:
      const char* name() const override { return "triangle"; }

      Status init(SampleContext& sc) override {
        ComPtr<ID3DBlob> vsBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs, &vsBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_main", m_ps));

        const D3D11_INPUT_ELEMENT_DESC elements[] = {
          { "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT,    0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
          { "COLOR",    0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 8, D3D11_INPUT_PER_VERTEX_DATA, 0 },
        };
        NPT_CHECK_HR(sc.device->CreateInputLayout(elements, 2,
          vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

        // Centroid at the origin so the centre pixel is covered at every angle.
        const Vertex vertices[] = {
          { {  0.0f,    0.8f }, { 1.0f, 0.0f, 0.0f } },
          { {  0.693f, -0.4f }, { 0.0f, 1.0f, 0.0f } },
          { { -0.693f, -0.4f }, { 0.0f, 0.0f, 1.0f } },
        };
        D3D11_BUFFER_DESC vbDesc = { sizeof(vertices), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        D3D11_SUBRESOURCE_DATA vbData = { vertices, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&vbDesc, &vbData, m_vertices.put()));

        D3D11_BUFFER_DESC cbDesc = { 16 * 2, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        // float2x2 in a cbuffer: two registers, column-major by default.
        float angle = float(frame) * 0.15f;
        float c = std::cos(angle), s = std::sin(angle);
        const float rotation[8] = { c, s, 0.0f, 0.0f, -s, c, 0.0f, 0.0f };
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, rotation, 0, 0);

        sc.context->ClearRenderTargetView(sc.targetView, ClearColour);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();

        UINT stride = sizeof(Vertex), offset = 0;
        sc.context->IASetInputLayout(m_layout.get());
        sc.context->IASetVertexBuffers(0, 1, m_vertices.addressOf(), &stride, &offset);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        sc.context->VSSetShader(m_vs.get(), nullptr, 0);
        sc.context->VSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->PSSetShader(m_ps.get(), nullptr, 0);
        sc.context->Draw(3, 0);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t, FrameCheck& check) override {
        check.expectPixel(0.02f, 0.02f, ClearRgba, 1, "top-left corner shows the clear colour");
        check.expectPixel(0.98f, 0.98f, ClearRgba, 1, "bottom-right corner shows the clear colour");
        // The centroid gets a third of each vertex colour: about (85,85,85).
        check.expectPixel(0.5f, 0.5f, { 85, 85, 85, 255 }, 12, "centre pixel is the triangle's centroid colour");
        check.expectDistinctColours(64);
      }

    private:
      ComPtr<ID3D11VertexShader> m_vs;
      ComPtr<ID3D11PixelShader>  m_ps;
      ComPtr<ID3D11InputLayout>  m_layout;
      ComPtr<ID3D11Buffer>       m_vertices;
      ComPtr<ID3D11Buffer>       m_constants;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::TriangleSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
