// SPDX-License-Identifier: MIT
// Sample 14: draw-heavy multi-threaded recording. many_draws' 100x100 grid of quads
// (10,000 DrawIndexed, a pixel shader switch on every draw, a constant buffer
// update per row) recorded by four worker threads, each on its own deferred
// context: 25 rows each, one Map(WRITE_DISCARD) of the worker's own dynamic
// constant buffer per row. The immediate context clears, then executes the four
// command lists in row order. This is the workload on which driver command lists
// (threads encoding in parallel) are compared with a runtime's single-threaded
// emulation (bench/triton).

#include "quad_grid.h"
#include "sample.h"
#include "deferred_draws_hlsl.h"

#include <thread>

namespace npt::samples {

  namespace {

    constexpr uint32_t Workers = 4;
    constexpr uint32_t RowsPerWorker = QuadGrid::Size / Workers;

    void rowColour(uint32_t row, uint32_t frame, float colour[4]) {
      colour[0] = float((row * 2 + frame * 5) % 256) / 255.0f;
      colour[1] = float(255 - row * 2) / 255.0f;
      colour[2] = float((frame * 40 + row) % 256) / 255.0f;
      colour[3] = 1.0f;
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
        NPT_CHECK_STATUS(m_grid.create(sc, kShaderSource, kShaderSourceName));
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
        QuadGrid::check(sc, frame, m_draws, rowColour, check, RowsPerWorker);
      }

    private:
      // Runs on a worker thread; touches only the worker's own objects (and shares
      // the immutable ones). A deferred context starts from the default state.
      Status record(SampleContext& sc, Worker& worker, uint32_t index, uint32_t frame) {
        ID3D11DeviceContext* context = worker.context.get();
        context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        D3D11_VIEWPORT viewport = { 0.0f, 0.0f, float(sc.width), float(sc.height), 0.0f, 1.0f };
        context->RSSetViewports(1, &viewport);

        m_grid.bind(context, worker.constants.get());

        worker.draws = 0;
        for (uint32_t row = index * RowsPerWorker; row < (index + 1) * RowsPerWorker; row++) {
          D3D11_MAPPED_SUBRESOURCE mapped = {};
          NPT_CHECK_HR(context->Map(worker.constants.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped));
          rowColour(row, frame, static_cast<float*>(mapped.pData));
          context->Unmap(worker.constants.get(), 0);
          worker.draws += m_grid.drawRow(context, row);
        }
        NPT_CHECK_HR(context->FinishCommandList(FALSE, worker.commands.put()));
        return Status::ok();
      }

      QuadGrid m_grid;
      Worker   m_workers[Workers];
      uint32_t m_draws = 0;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::DeferredDrawsSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
