// Sample 14: draw-heavy multi-threaded recording. many_draws' 100x100 grid of quads
// (10,000 DrawIndexed, a pixel shader switch on every draw, a constant buffer
// update per row) recorded by four worker threads, each on its own deferred
// context: 25 rows each, one Map(WRITE_DISCARD) of the worker's own dynamic
// constant buffer per row. The immediate context clears, then executes the four
// command lists in row order. This is the workload on which driver command lists
// (threads encoding in parallel) are compared with a runtime's single-threaded
// emulation (bench/triton).

#include "sample.h"
#include "deferred_draws_hlsl.h"

#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace npt::samples {

  namespace {

    constexpr uint32_t GridSize = 100;   // GridSize^2 draws per frame
    constexpr uint32_t Workers = 4;
    constexpr uint32_t RowsPerWorker = GridSize / Workers;

    void rowColour(uint32_t row, uint32_t frame, float colour[4]) {
      colour[0] = float((row * 2 + frame * 5) % 256) / 255.0f;
      colour[1] = float(255 - row * 2) / 255.0f;
      colour[2] = float((frame * 40 + row) % 256) / 255.0f;
      colour[3] = 1.0f;
    }

    Rgba8 expectedColour(uint32_t column, uint32_t row, uint32_t frame) {
      float c[4];
      rowColour(row, frame, c);
      auto unorm = [](float v) { return uint8_t(v * 255.0f + 0.5f); };
      return column & 1 ? Rgba8{ unorm(c[2]), unorm(c[1]), unorm(c[0]), 255 }
                        : Rgba8{ unorm(c[0]), unorm(c[1]), unorm(c[2]), 255 };
    }

    // What one worker thread owns: its deferred context, its dynamic constant buffer
    // (a deferred context maps only dynamic resources, with DISCARD) and its list.
    struct Worker {
      ComPtr<ID3D11DeviceContext> context;
      ComPtr<ID3D11Buffer>        constants;
      ComPtr<ID3D11CommandList>   commands;
      uint32_t                    draws = 0;
      Status                      status;
    };

    class DeferredDrawsSample final : public Sample {
    public:
      const char* name() const override { return "deferred_draws"; }

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

        D3D11_BUFFER_DESC cbDesc = { 16, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
        for (Worker& worker : m_workers) {
          NPT_CHECK_HR(sc.device->CreateDeferredContext(0, worker.context.put()));
          NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, worker.constants.put()));
        }
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        std::thread threads[Workers];
        for (uint32_t i = 0; i < Workers; i++)
          threads[i] = std::thread([this, &sc, frame, i] { m_workers[i].status = record(sc, m_workers[i], i, frame); });
        for (std::thread& thread : threads)
          thread.join();

        const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        sc.context->ClearRenderTargetView(sc.targetView, black);
        m_draws = 0;
        for (Worker& worker : m_workers) {
          NPT_CHECK_STATUS(worker.status);
          sc.context->ExecuteCommandList(worker.commands.get(), FALSE);
          worker.commands.reset();
          m_draws += worker.draws;
        }
        return Status::ok();
      }

      void check(const SampleContext& sc, uint32_t frame, FrameCheck& check) override {
        char text[96];
        std::snprintf(text, sizeof(text), "%u draws recorded in the frame, expected %u", m_draws, GridSize * GridSize);
        check.expect(m_draws == GridSize * GridSize, text);
        if (sc.width <= GridSize || sc.height <= GridSize) {
          check.expect(false, "--size must exceed 100x100 for per-quad checks");
          return;
        }
        // Cell centres are at least half a pixel inside their cell once cells exceed a pixel.
        for (uint32_t row = 0; row < GridSize; row += 9) {
          for (uint32_t column = 0; column < GridSize; column += 7) {
            std::snprintf(text, sizeof(text), "quad (%u,%u) (worker %u) has its row colour", column, row,
                          row / RowsPerWorker);
            check.expectPixel((float(column) + 0.5f) / GridSize, (float(row) + 0.5f) / GridSize,
              expectedColour(column, row, frame), 1, text);
          }
        }
      }

    private:
      // Runs on a worker thread; touches only the worker's own objects (and shares
      // the immutable ones). A deferred context starts from the default state.
      Status record(SampleContext& sc, Worker& worker, uint32_t index, uint32_t frame) {
        ID3D11DeviceContext* context = worker.context.get();
        context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        D3D11_VIEWPORT viewport = { 0.0f, 0.0f, float(sc.width), float(sc.height), 0.0f, 1.0f };
        context->RSSetViewports(1, &viewport);

        UINT stride = 8, offset = 0;
        context->IASetInputLayout(m_layout.get());
        context->IASetVertexBuffers(0, 1, m_vertices.addressOf(), &stride, &offset);
        context->IASetIndexBuffer(m_indices.get(), DXGI_FORMAT_R16_UINT, 0);
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        context->VSSetShader(m_vs.get(), nullptr, 0);
        context->PSSetConstantBuffers(0, 1, worker.constants.addressOf());

        worker.draws = 0;
        for (uint32_t row = index * RowsPerWorker; row < (index + 1) * RowsPerWorker; row++) {
          D3D11_MAPPED_SUBRESOURCE mapped = {};
          NPT_CHECK_HR(context->Map(worker.constants.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped));
          rowColour(row, frame, static_cast<float*>(mapped.pData));
          context->Unmap(worker.constants.get(), 0);
          for (uint32_t column = 0; column < GridSize; column++) {
            context->PSSetShader(column & 1 ? m_psSwizzled.get() : m_psPlain.get(), nullptr, 0);
            context->DrawIndexed(6, 0, INT((row * GridSize + column) * 4));
            worker.draws++;
          }
        }
        NPT_CHECK_HR(context->FinishCommandList(FALSE, worker.commands.put()));
        return Status::ok();
      }

      ComPtr<ID3D11VertexShader> m_vs;
      ComPtr<ID3D11PixelShader>  m_psPlain, m_psSwizzled;
      ComPtr<ID3D11InputLayout>  m_layout;
      ComPtr<ID3D11Buffer>       m_vertices, m_indices;
      Worker                     m_workers[Workers];
      uint32_t                   m_draws = 0;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::DeferredDrawsSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
