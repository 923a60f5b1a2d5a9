// SPDX-License-Identifier: MIT
// Sample 3: instancing with dynamic vertex and constant buffers. Every frame
// the per-instance buffer is refilled in two batches: the first with
// Map(WRITE_DISCARD), the second appended with Map(WRITE_NO_OVERWRITE) behind
// data the first draw still reads; the batch cbuffer is discarded per batch.

#include "sample.h"
#include "instancing_hlsl.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace npt::samples {

  namespace {

    constexpr float ClearColour[4] = { 0.05f, 0.05f, 0.05f, 1.0f };
    constexpr uint32_t Columns = 16;
    constexpr uint32_t Rows = 8;
    constexpr uint32_t BatchSize = Columns * Rows / 2;
    constexpr uint32_t Batches = 2;
    constexpr float BatchTints[Batches][4] = { { 1.0f, 1.0f, 1.0f, 1.0f }, { 1.0f, 0.5f, 1.0f, 1.0f } };

    struct Instance {
      float offset[2];
      float colour[4];
    };

    struct BatchConstants {
      float halfSize[2];
      float cosSin[2];
      float tint[4];
    };

    // Shared by render() and check() so the expectation is computed, not copied.
    void instanceColour(uint32_t index, uint32_t frame, float colour[4]) {
      colour[0] = float((index * 37 + frame * 5) % 256) / 255.0f;
      colour[1] = float((index * 91) % 256) / 255.0f;
      colour[2] = float((index * 13 + frame * 17) % 256) / 255.0f;
      colour[3] = 1.0f;
    }

    uint8_t toUnorm8(float v) {
      return uint8_t(std::lround(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f));
    }

    class InstancingSample final : public Sample {
    public:
      const char* name() const override { return "instancing"; }

      Status init(SampleContext& sc) override {
        ComPtr<ID3DBlob> vsBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs, &vsBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_main", m_ps));

        const D3D11_INPUT_ELEMENT_DESC elements[] = {
          { "POSITION",       0, DXGI_FORMAT_R32G32_FLOAT,       0, 0, D3D11_INPUT_PER_VERTEX_DATA,   0 },
          { "INSTANCE_POS",   0, DXGI_FORMAT_R32G32_FLOAT,       1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1 },
          { "INSTANCE_COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 1, 8, D3D11_INPUT_PER_INSTANCE_DATA, 1 },
        };
        NPT_CHECK_HR(sc.device->CreateInputLayout(elements, 3,
          vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

        const float quad[4][2] = { { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 } };
        D3D11_BUFFER_DESC quadDesc = { sizeof(quad), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        D3D11_SUBRESOURCE_DATA quadData = { quad, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&quadDesc, &quadData, m_quad.put()));

        D3D11_BUFFER_DESC instDesc = { sizeof(Instance) * BatchSize * Batches, D3D11_USAGE_DYNAMIC,
          D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&instDesc, nullptr, m_instances.put()));

        D3D11_BUFFER_DESC cbDesc = { sizeof(BatchConstants), D3D11_USAGE_DYNAMIC,
          D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        sc.context->ClearRenderTargetView(sc.targetView, ClearColour);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();

        ID3D11Buffer* buffers[2] = { m_quad.get(), m_instances.get() };
        UINT strides[2] = { 8, sizeof(Instance) };
        UINT offsets[2] = { 0, 0 };
        sc.context->IASetInputLayout(m_layout.get());
        sc.context->IASetVertexBuffers(0, 2, buffers, strides, offsets);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        sc.context->VSSetShader(m_vs.get(), nullptr, 0);
        sc.context->VSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->PSSetShader(m_ps.get(), nullptr, 0);

        for (uint32_t batch = 0; batch < Batches; batch++) {
          // The first batch renames the buffer; later batches append to it
          // while earlier draws may still be reading: that is NO_OVERWRITE's promise.
          D3D11_MAP mapType = batch == 0 ? D3D11_MAP_WRITE_DISCARD : D3D11_MAP_WRITE_NO_OVERWRITE;
          D3D11_MAPPED_SUBRESOURCE mapped = {};
          NPT_CHECK_HR(sc.context->Map(m_instances.get(), 0, mapType, 0, &mapped));
          Instance* instances = static_cast<Instance*>(mapped.pData) + batch * BatchSize;
          for (uint32_t i = 0; i < BatchSize; i++) {
            uint32_t index = batch * BatchSize + i;
            instances[i].offset[0] = -1.0f + (float(index % Columns) + 0.5f) * 2.0f / Columns;
            instances[i].offset[1] =  1.0f - (float(index / Columns) + 0.5f) * 2.0f / Rows;
            instanceColour(index, frame, instances[i].colour);
          }
          sc.context->Unmap(m_instances.get(), 0);

          NPT_CHECK_HR(sc.context->Map(m_constants.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped));
          float angle = 0.2f * float(frame) + (batch ? 0.4f : 0.0f);
          BatchConstants constants = { { 0.75f / Columns, 0.75f / Rows },
            { std::cos(angle), std::sin(angle) },
            { BatchTints[batch][0], BatchTints[batch][1], BatchTints[batch][2], BatchTints[batch][3] } };
          std::memcpy(mapped.pData, &constants, sizeof(constants));
          sc.context->Unmap(m_constants.get(), 0);

          sc.context->DrawInstanced(4, BatchSize, 0, batch * BatchSize);
        }
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t frame, FrameCheck& check) override {
        // Each instance's centre is covered at every angle; its colour is exact
        // up to float-to-unorm rounding.
        for (uint32_t index : { 0u, 5u, 17u, 63u, 64u, 100u, 127u }) {
          float colour[4];
          instanceColour(index, frame, colour);
          const float* tint = BatchTints[index / BatchSize];
          Rgba8 expected = { toUnorm8(colour[0] * tint[0]), toUnorm8(colour[1] * tint[1]),
                             toUnorm8(colour[2] * tint[2]), 255 };
          char what[64];
          std::snprintf(what, sizeof(what), "instance %u has its per-instance colour", index);
          check.expectPixel((float(index % Columns) + 0.5f) / Columns, (float(index / Columns) + 0.5f) / Rows,
            expected, 1, what);
        }
        check.expectPixel(0.0f, 0.0f, { 13, 13, 13, 255 }, 1, "the gap between instances shows the clear colour");
        check.expectDistinctColours(64);
      }

    private:
      ComPtr<ID3D11VertexShader> m_vs;
      ComPtr<ID3D11PixelShader>  m_ps;
      ComPtr<ID3D11InputLayout>  m_layout;
      ComPtr<ID3D11Buffer>       m_quad, m_instances, m_constants;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::InstancingSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
