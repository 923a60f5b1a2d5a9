// SPDX-License-Identifier: MIT
// Sample 10: compute shader with UAVs and structured buffers, then an
// indirect draw. A cs_5_0 shader (assembly, compute_cs.asm) reads particle
// seeds from a structured buffer, writes per-instance data into a raw UAV
// buffer and builds DrawInstancedIndirect arguments with atomics in a second
// raw UAV; the draw then consumes both without a CPU round trip. The
// arguments are also read back through a staging buffer and checked.

#include "sample.h"
#include "compute_hlsl.h"
#include "compute_cs_asm.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace npt::samples {

  namespace {

    constexpr uint32_t Particles = 64;           // one thread group of 64
    constexpr uint32_t InstanceStride = 24;      // float2 pos + float4 colour
    constexpr float ClearColour[4] = { 0.0f, 0.0f, 0.0f, 1.0f };

    struct Seed {
      float centre[2];
      float radius;
      float speed;
    };

    struct Constants {
      uint32_t frame;
      uint32_t drawCount;
      uint32_t pad[2];
    };

    // 8x8 grid of orbits; quads never leave their cell, so they never overlap.
    Seed seedFor(uint32_t i) {
      return { { -0.875f + 0.25f * float(i % 8), 0.875f - 0.25f * float(i / 8) }, 0.05f, 0.1f + 0.01f * float(i % 5) };
    }

    uint32_t drawCountFor(uint32_t frame) {
      return 16 + (frame * 5) % 48;
    }

    void particlePosition(uint32_t i, uint32_t frame, float& x, float& y) {
      Seed seed = seedFor(i);
      float angle = float(frame) * seed.speed + float(i) * 0.7f;
      x = seed.centre[0] + seed.radius * std::sin(angle);
      y = seed.centre[1] + seed.radius * std::cos(angle);
    }

    Rgba8 particleColour(uint32_t i) {
      float t = float(i) * 0.015873f;
      return { uint8_t(t * 255.0f + 0.5f), uint8_t((1.0f - t) * 255.0f + 0.5f), 128, 255 };
    }

    class ComputeSample final : public Sample {
    public:
      const char* name() const override { return "compute"; }

      Status init(SampleContext& sc) override {
        std::vector<uint8_t> csBytecode;
        NPT_CHECK_STATUS(sc.assemble(kCSAsm, kCSAsmName, csBytecode));
        NPT_CHECK_HR(sc.device->CreateComputeShader(csBytecode.data(), csBytecode.size(), nullptr, m_cs.put()));

        ComPtr<ID3DBlob> vsBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs, &vsBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_main", m_ps));
        const D3D11_INPUT_ELEMENT_DESC elements[] = {
          { "INSTANCE_POS",   0, DXGI_FORMAT_R32G32_FLOAT,       0, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1 },
          { "INSTANCE_COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D11_INPUT_PER_INSTANCE_DATA, 1 },
        };
        NPT_CHECK_HR(sc.device->CreateInputLayout(elements, 2,
          vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

        // Seeds: a structured buffer read through an SRV.
        std::vector<Seed> seeds;
        for (uint32_t i = 0; i < Particles; i++)
          seeds.push_back(seedFor(i));
        D3D11_BUFFER_DESC seedDesc = { UINT(seeds.size() * sizeof(Seed)), D3D11_USAGE_IMMUTABLE,
          D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, sizeof(Seed) };
        D3D11_SUBRESOURCE_DATA seedData = { seeds.data(), 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&seedDesc, &seedData, m_seeds.put()));
        D3D11_SHADER_RESOURCE_VIEW_DESC seedView = {};
        seedView.Format = DXGI_FORMAT_UNKNOWN;
        seedView.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
        seedView.Buffer.FirstElement = 0;
        seedView.Buffer.NumElements = Particles;
        NPT_CHECK_HR(sc.device->CreateShaderResourceView(m_seeds.get(), &seedView, m_seedsSrv.put()));

        // Instances: written as a raw UAV, read as a vertex buffer.
        D3D11_BUFFER_DESC instanceDesc = { Particles * InstanceStride, D3D11_USAGE_DEFAULT,
          D3D11_BIND_UNORDERED_ACCESS | D3D11_BIND_VERTEX_BUFFER, 0, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&instanceDesc, nullptr, m_instances.put()));
        NPT_CHECK_STATUS(createRawUav(sc, m_instances.get(), Particles * InstanceStride / 4, m_instancesUav));

        // Indirect arguments: a raw UAV too.
        D3D11_BUFFER_DESC argsDesc = { 16, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0,
          D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&argsDesc, nullptr, m_args.put()));
        NPT_CHECK_STATUS(createRawUav(sc, m_args.get(), 4, m_argsUav));
        D3D11_BUFFER_DESC readbackDesc = { 16, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&readbackDesc, nullptr, m_argsReadback.put()));

        D3D11_BUFFER_DESC cbDesc = { sizeof(Constants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        Constants constants = { frame, drawCountFor(frame), { 0, 0 } };
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &constants, 0, 0);

        const UINT zeros[4] = { 0, 0, 0, 0 };
        sc.context->ClearUnorderedAccessViewUint(m_argsUav.get(), zeros);

        ID3D11UnorderedAccessView* uavs[2] = { m_instancesUav.get(), m_argsUav.get() };
        sc.context->CSSetShader(m_cs.get(), nullptr, 0);
        sc.context->CSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->CSSetShaderResources(0, 1, m_seedsSrv.addressOf());
        sc.context->CSSetUnorderedAccessViews(0, 2, uavs, nullptr);
        sc.context->Dispatch(1, 1, 1);
        // The instance buffer cannot be a vertex buffer while it is bound as a UAV.
        ID3D11UnorderedAccessView* noUavs[2] = { nullptr, nullptr };
        sc.context->CSSetUnorderedAccessViews(0, 2, noUavs, nullptr);

        sc.context->ClearRenderTargetView(sc.targetView, ClearColour);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();
        UINT stride = InstanceStride, offset = 0;
        sc.context->IASetInputLayout(m_layout.get());
        sc.context->IASetVertexBuffers(0, 1, m_instances.addressOf(), &stride, &offset);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        sc.context->VSSetShader(m_vs.get(), nullptr, 0);
        sc.context->PSSetShader(m_ps.get(), nullptr, 0);
        sc.context->DrawInstancedIndirect(m_args.get(), 0);
        ID3D11Buffer* noBuffer = nullptr;
        sc.context->IASetVertexBuffers(0, 1, &noBuffer, &stride, &offset);

        sc.context->CopyResource(m_argsReadback.get(), m_args.get());
        D3D11_MAPPED_SUBRESOURCE mapped = {};
        NPT_CHECK_HR(sc.context->Map(m_argsReadback.get(), 0, D3D11_MAP_READ, 0, &mapped));
        std::memcpy(m_argsSeen, mapped.pData, sizeof(m_argsSeen));
        sc.context->Unmap(m_argsReadback.get(), 0);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t frame, FrameCheck& check) override {
        uint32_t count = drawCountFor(frame);
        char text[160];
        std::snprintf(text, sizeof(text), "indirect arguments %u,%u,%u,%u, expected 4,%u,0,0",
          m_argsSeen[0], m_argsSeen[1], m_argsSeen[2], m_argsSeen[3], count);
        check.expect(m_argsSeen[0] == 4 && m_argsSeen[1] == count && m_argsSeen[2] == 0 && m_argsSeen[3] == 0, text);

        // Drawn particles sit where the CPU puts them; the first one past the
        // count is not drawn.
        for (uint32_t i : { 0u, 1u, 7u, 9u, count - 1, count }) {
          if (i >= Particles)
            continue;
          float x, y;
          particlePosition(i, frame, x, y);
          std::snprintf(text, sizeof(text), "particle %u %s", i, i < count ? "drawn at its orbit position" : "beyond the indirect count is not drawn");
          Rgba8 expected = i < count ? particleColour(i) : Rgba8{ 0, 0, 0, 255 };
          check.expectPixel((x + 1.0f) * 0.5f, (1.0f - y) * 0.5f, expected, 1, text);
        }
      }

    private:
      Status createRawUav(SampleContext& sc, ID3D11Buffer* buffer, UINT words, ComPtr<ID3D11UnorderedAccessView>& uav) {
        D3D11_UNORDERED_ACCESS_VIEW_DESC desc = {};
        desc.Format = DXGI_FORMAT_R32_TYPELESS;
        desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
        desc.Buffer.FirstElement = 0;
        desc.Buffer.NumElements = words;
        desc.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
        NPT_CHECK_HR(sc.device->CreateUnorderedAccessView(buffer, &desc, uav.put()));
        return Status::ok();
      }

      ComPtr<ID3D11ComputeShader>       m_cs;
      ComPtr<ID3D11VertexShader>        m_vs;
      ComPtr<ID3D11PixelShader>         m_ps;
      ComPtr<ID3D11InputLayout>         m_layout;
      ComPtr<ID3D11Buffer>              m_seeds, m_instances, m_args, m_argsReadback, m_constants;
      ComPtr<ID3D11ShaderResourceView>  m_seedsSrv;
      ComPtr<ID3D11UnorderedAccessView> m_instancesUav, m_argsUav;
      uint32_t                          m_argsSeen[4] = {};
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::ComputeSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
