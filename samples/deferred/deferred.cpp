// SPDX-License-Identifier: MIT
// Sample 9: deferred contexts. Each frame two worker threads record command
// lists on their own deferred contexts (state, Map(WRITE_DISCARD) of a
// dynamic constant buffer, draws) while the main thread waits; the immediate
// context then executes both lists in order and draws on top, re-binding its
// state because ExecuteCommandList(..., FALSE) resets it.

#include "sample.h"
#include "deferred_hlsl.h"

#include <cstdio>
#include <cstring>
#include <thread>

namespace npt::samples {

  namespace {

    constexpr uint32_t Workers = 2;
    constexpr uint32_t BarsPerWorker = 4;
    constexpr uint32_t Bars = Workers * BarsPerWorker;

    struct RectConstants {
      float bounds[4];
      float colour[4];
    };

    void barColour(uint32_t bar, uint32_t frame, float colour[4]) {
      colour[0] = float((bar * 32 + frame * 8) % 256) / 255.0f;
      colour[1] = float((255 - bar * 24) % 256) / 255.0f;
      colour[2] = float((bar * 50 + frame * 30) % 256) / 255.0f;
      colour[3] = 1.0f;
    }

    // Everything one worker owns: its deferred context and its own dynamic
    // constant buffer (deferred contexts may only Map dynamic resources with DISCARD).
    struct Worker {
      ComPtr<ID3D11DeviceContext> context;
      ComPtr<ID3D11Buffer>        constants;
      ComPtr<ID3D11CommandList>   commands;
      Status                      status;
    };

    class DeferredSample final : public Sample {
    public:
      const char* name() const override { return "deferred"; }

      Status init(SampleContext& sc) override {
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_rect", m_vs));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_rect", m_ps));

        D3D11_BUFFER_DESC cbDesc = { sizeof(RectConstants), D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER,
          D3D11_CPU_ACCESS_WRITE, 0, 0 };
        for (Worker& worker : m_workers) {
          NPT_CHECK_HR(sc.device->CreateDeferredContext(0, worker.context.put()));
          NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, worker.constants.put()));
        }
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        // The first list clears; both lists draw their bars.
        std::thread threads[Workers];
        for (uint32_t i = 0; i < Workers; i++)
          threads[i] = std::thread([this, &sc, frame, i] { m_workers[i].status = record(sc, m_workers[i], i, frame); });
        for (std::thread& thread : threads)
          thread.join();

        for (Worker& worker : m_workers) {
          NPT_CHECK_STATUS(worker.status);
          sc.context->ExecuteCommandList(worker.commands.get(), FALSE);
          worker.commands.reset();
        }

        // State was reset to defaults by ExecuteCommandList: bind again.
        bindPipeline(sc, sc.context, m_constants.get());
        RectConstants strip = { { -1.0f, -0.1f, 1.0f, 0.1f }, { 1.0f, 1.0f, 1.0f, 1.0f } };
        NPT_CHECK_STATUS(drawRect(sc.context, m_constants.get(), strip));
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t frame, FrameCheck& check) override {
        for (uint32_t bar = 0; bar < Bars; bar++) {
          float c[4];
          barColour(bar, frame, c);
          auto unorm = [](float v) { return uint8_t(v * 255.0f + 0.5f); };
          char what[80];
          std::snprintf(what, sizeof(what), "bar %u (recorded by worker %u) has its colour", bar, bar / BarsPerWorker);
          check.expectPixel((float(bar) + 0.5f) / Bars, 0.25f, { unorm(c[0]), unorm(c[1]), unorm(c[2]), 255 }, 1, what);
        }
        check.expectPixel(0.5f, 0.5f, { 255, 255, 255, 255 }, 0, "immediate context's strip drawn after the command lists");
        check.expectPixel(0.5f, 0.9f, { 0, 0, 0, 255 }, 0, "the first command list's clear below the bars");
      }

    private:
      void bindPipeline(SampleContext& sc, ID3D11DeviceContext* context, ID3D11Buffer* constants) {
        context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        D3D11_VIEWPORT viewport = { 0.0f, 0.0f, float(sc.width), float(sc.height), 0.0f, 1.0f };
        context->RSSetViewports(1, &viewport);
        context->IASetInputLayout(nullptr);
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        context->VSSetShader(m_vs.get(), nullptr, 0);
        context->VSSetConstantBuffers(0, 1, &constants);
        context->PSSetShader(m_ps.get(), nullptr, 0);
        context->PSSetConstantBuffers(0, 1, &constants);
      }

      Status drawRect(ID3D11DeviceContext* context, ID3D11Buffer* constants, const RectConstants& rect) {
        D3D11_MAPPED_SUBRESOURCE mapped = {};
        NPT_CHECK_HR(context->Map(constants, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped));
        std::memcpy(mapped.pData, &rect, sizeof(rect));
        context->Unmap(constants, 0);
        context->Draw(4, 0);
        return Status::ok();
      }

      // Runs on a worker thread; touches only the worker's own objects.
      Status record(SampleContext& sc, Worker& worker, uint32_t index, uint32_t frame) {
        ID3D11DeviceContext* context = worker.context.get();
        if (index == 0) {
          const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
          context->ClearRenderTargetView(sc.targetView, black);
        }
        bindPipeline(sc, context, worker.constants.get());
        for (uint32_t i = 0; i < BarsPerWorker; i++) {
          uint32_t bar = index * BarsPerWorker + i;
          RectConstants rect = { { -1.0f + 2.0f * float(bar) / Bars, -0.6f, -1.0f + 2.0f * float(bar + 1) / Bars, 1.0f }, {} };
          barColour(bar, frame, rect.colour);
          NPT_CHECK_STATUS(drawRect(context, worker.constants.get(), rect));
        }
        NPT_CHECK_HR(context->FinishCommandList(FALSE, worker.commands.put()));
        return Status::ok();
      }

      ComPtr<ID3D11VertexShader> m_vs;
      ComPtr<ID3D11PixelShader>  m_ps;
      ComPtr<ID3D11Buffer>       m_constants;
      Worker                     m_workers[Workers];
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::DeferredSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
