// SPDX-License-Identifier: MIT
// Sample 11: geometry shader with stream output. Points go through a
// gs_5_0 shader (assembly, stream_output_gs.asm) that expands each into a
// quad; the quads are rasterized into the left half and at the same time
// captured by stream output. A second pass draws the captured vertices,
// shifted into the right half with inverted colours. The vertex count comes
// from an SO_STATISTICS query (NumPrimitivesWritten * 3), which the check
// also verifies: DrawAuto would be the natural call, but it is a stub in
// Wine 8's d3d11 (draws nothing), and Wine is the reference backend.

#include "sample.h"
#include "stream_output_hlsl.h"
#include "stream_output_gs_asm.h"

#include <cstdio>
#include <vector>

namespace npt::samples {

  namespace {

    constexpr uint32_t Columns = 4;
    constexpr uint32_t Rows = 3;
    constexpr uint32_t Points = Columns * Rows;
    constexpr uint32_t CapturedStride = 32;                 // float4 position + float4 colour
    constexpr uint32_t CapturedVertices = Points * 6;       // a strip of 4 is captured as 2 triangles

    struct Point {
      float centre[2];
      float colour[4];
    };

    Point pointFor(uint32_t i) {
      return { { -0.8f + 0.2f * float(i % Columns), 0.5f - 0.5f * float(i / Columns) },
               { float(i * 20 % 256) / 255.0f, float(255 - i * 15) / 255.0f, float((i * 67) % 256) / 255.0f, 1.0f } };
    }

    Rgba8 toRgba(const float c[4], bool inverted) {
      auto unorm = [&](float v) { return uint8_t((inverted ? 1.0f - v : v) * 255.0f + 0.5f); };
      return { unorm(c[0]), unorm(c[1]), unorm(c[2]), 255 };
    }

    class StreamOutputSample final : public Sample {
    public:
      const char* name() const override { return "stream_output"; }

      Status init(SampleContext& sc) override {
        std::vector<uint8_t> gsBytecode;
        NPT_CHECK_STATUS(sc.assemble(kGSAsm, kGSAsmName, gsBytecode));
        const D3D11_SO_DECLARATION_ENTRY soEntries[] = {
          { 0, "SV_Position", 0, 0, 4, 0 },
          { 0, "COLOR",       0, 0, 4, 0 },
        };
        UINT soStride = CapturedStride;
        NPT_CHECK_HR(sc.device->CreateGeometryShaderWithStreamOutput(gsBytecode.data(), gsBytecode.size(),
          soEntries, 2, &soStride, 1, 0, nullptr, m_gs.put()));

        ComPtr<ID3DBlob> pointsBytecode, capturedBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_points", m_vsPoints, &pointsBytecode));
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_captured", m_vsCaptured, &capturedBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_main", m_ps));

        const D3D11_INPUT_ELEMENT_DESC pointElements[] = {
          { "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT,       0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
          { "COLOR",    0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D11_INPUT_PER_VERTEX_DATA, 0 },
        };
        NPT_CHECK_HR(sc.device->CreateInputLayout(pointElements, 2,
          pointsBytecode->GetBufferPointer(), pointsBytecode->GetBufferSize(), m_pointLayout.put()));
        const D3D11_INPUT_ELEMENT_DESC capturedElements[] = {
          { "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0,  D3D11_INPUT_PER_VERTEX_DATA, 0 },
          { "COLOR",    0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D11_INPUT_PER_VERTEX_DATA, 0 },
        };
        NPT_CHECK_HR(sc.device->CreateInputLayout(capturedElements, 2,
          capturedBytecode->GetBufferPointer(), capturedBytecode->GetBufferSize(), m_capturedLayout.put()));

        std::vector<Point> points;
        for (uint32_t i = 0; i < Points; i++)
          points.push_back(pointFor(i));
        D3D11_BUFFER_DESC pointDesc = { UINT(points.size() * sizeof(Point)), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        D3D11_SUBRESOURCE_DATA pointData = { points.data(), 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&pointDesc, &pointData, m_points.put()));

        D3D11_BUFFER_DESC soDesc = { CapturedVertices * CapturedStride, D3D11_USAGE_DEFAULT,
          D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&soDesc, nullptr, m_captured.put()));

        D3D11_BUFFER_DESC cbDesc = { 16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));

        D3D11_QUERY_DESC query = { D3D11_QUERY_SO_STATISTICS, 0 };
        NPT_CHECK_HR(sc.device->CreateQuery(&query, m_soStatistics.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        const float clear[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        const float constants[4] = { halfSize(frame), 0.0f, 0.0f, 0.0f };
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, constants, 0, 0);
        sc.context->ClearRenderTargetView(sc.targetView, clear);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();

        // Pass 1: points -> GS quads, rasterized and captured.
        UINT stride = sizeof(Point), offset = 0;
        sc.context->IASetInputLayout(m_pointLayout.get());
        sc.context->IASetVertexBuffers(0, 1, m_points.addressOf(), &stride, &offset);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
        sc.context->VSSetShader(m_vsPoints.get(), nullptr, 0);
        sc.context->GSSetShader(m_gs.get(), nullptr, 0);
        sc.context->GSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->PSSetShader(m_ps.get(), nullptr, 0);
        UINT soOffset = 0;   // restart capturing at the start of the buffer every frame
        sc.context->SOSetTargets(1, m_captured.addressOf(), &soOffset);
        sc.context->Begin(m_soStatistics.get());
        sc.context->Draw(Points, 0);
        sc.context->End(m_soStatistics.get());
        ID3D11Buffer* noBuffer = nullptr;
        sc.context->SOSetTargets(1, &noBuffer, &soOffset);
        sc.context->GSSetShader(nullptr, nullptr, 0);
        NPT_CHECK_STATUS(readStatistics(sc));

        // Pass 2: the captured triangles, as many as the GPU says it wrote.
        stride = CapturedStride;
        sc.context->IASetInputLayout(m_capturedLayout.get());
        sc.context->IASetVertexBuffers(0, 1, m_captured.addressOf(), &stride, &offset);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        sc.context->VSSetShader(m_vsCaptured.get(), nullptr, 0);
        UINT64 written = m_statistics.NumPrimitivesWritten;
        sc.context->Draw(UINT(written < CapturedVertices / 3 ? written : CapturedVertices / 3) * 3, 0);
        sc.context->IASetVertexBuffers(0, 1, &noBuffer, &stride, &offset);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t frame, FrameCheck& check) override {
        char text[128];
        std::snprintf(text, sizeof(text), "SO_STATISTICS: %llu primitives written, %llu needed; expected %u of each",
          static_cast<unsigned long long>(m_statistics.NumPrimitivesWritten),
          static_cast<unsigned long long>(m_statistics.PrimitivesStorageNeeded), Points * 2);
        check.expect(m_statistics.NumPrimitivesWritten == Points * 2 && m_statistics.PrimitivesStorageNeeded == Points * 2, text);

        float h = halfSize(frame);
        for (uint32_t i = 0; i < Points; i++) {
          Point p = pointFor(i);
          float fx = (p.centre[0] + 1.0f) * 0.5f, fy = (1.0f - p.centre[1]) * 0.5f;
          std::snprintf(text, sizeof(text), "quad %u rasterized from the geometry shader", i);
          check.expectPixel(fx, fy, toRgba(p.colour, false), 1, text);
          std::snprintf(text, sizeof(text), "quad %u redrawn from the stream output buffer", i);
          check.expectPixel(fx + 0.5f, fy, toRgba(p.colour, true), 1, text);
          // Just outside the quad's corner: empty, so the GS honoured the half-size.
          check.expectPixel(fx + (h * 0.5f) + 0.02f, fy + (h * 0.5f) + 0.02f, { 0, 0, 0, 255 }, 0,
            "background just outside a quad");
        }
      }

    private:
      static float halfSize(uint32_t frame) {
        return 0.04f + 0.01f * float(frame % 4);
      }

      Status readStatistics(SampleContext& sc) {
        UINT size = m_soStatistics->GetDataSize();
        if (size != sizeof(m_statistics))
          return Status::fail("SO_STATISTICS query has an unexpected data size");
        for (uint32_t attempt = 0; attempt < 1000000; attempt++) {
          HRESULT hr = sc.context->GetData(m_soStatistics.get(), &m_statistics, size, 0);
          if (hr == S_OK)
            return Status::ok();
          if (FAILED(hr))
            return Status::hresult("GetData(SO_STATISTICS)", hr);
          Sleep(0);
        }
        return Status::fail("SO_STATISTICS result never became available");
      }

      ComPtr<ID3D11GeometryShader>        m_gs;
      ComPtr<ID3D11VertexShader>          m_vsPoints, m_vsCaptured;
      ComPtr<ID3D11PixelShader>           m_ps;
      ComPtr<ID3D11InputLayout>           m_pointLayout, m_capturedLayout;
      ComPtr<ID3D11Buffer>                m_points, m_captured, m_constants;
      ComPtr<ID3D11Query>                 m_soStatistics;
      D3D11_QUERY_DATA_SO_STATISTICS      m_statistics = {};
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::StreamOutputSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
