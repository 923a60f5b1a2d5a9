// SPDX-License-Identifier: MIT
// Sample 8: a draw-call-heavy scene. 100x100 quads, one DrawIndexed each
// (10,000 draws per frame), alternating between two pixel shaders on every
// draw, with a constant buffer update per row: per-draw API cost dominates,
// which is what remoting overhead is measured on.

#include "quad_grid.h"
#include "sample.h"
#include "many_draws_hlsl.h"

namespace npt::samples {

  namespace {

    void rowColour(uint32_t row, uint32_t frame, float colour[4]) {
      colour[0] = float((row * 2 + frame * 3) % 256) / 255.0f;
      colour[1] = float(255 - row * 2) / 255.0f;
      colour[2] = float((frame * 20) % 256) / 255.0f;
      colour[3] = 1.0f;
    }

    class ManyDrawsSample final : public Sample {
    public:
      const char* name() const override { return "many_draws"; }

      Status init(SampleContext& sc) override {
        NPT_CHECK_STATUS(m_grid.create(sc, kShaderSource, kShaderSourceName));
        D3D11_BUFFER_DESC cbDesc = { 16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        sc.context->ClearRenderTargetView(sc.targetView, black);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();
        m_grid.bind(sc.context, m_constants.get());

        uint32_t draws = 0;
        for (uint32_t row = 0; row < QuadGrid::Size; row++) {
          float colour[4];
          rowColour(row, frame, colour);
          sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, colour, 0, 0);
          draws += m_grid.drawRow(sc.context, row);
        }
        m_draws = draws;
        return Status::ok();
      }

      void check(const SampleContext& sc, uint32_t frame, FrameCheck& check) override {
        QuadGrid::check(sc, frame, m_draws, rowColour, check);
      }

    private:
      QuadGrid             m_grid;
      ComPtr<ID3D11Buffer> m_constants;
      uint32_t             m_draws = 0;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::ManyDrawsSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
