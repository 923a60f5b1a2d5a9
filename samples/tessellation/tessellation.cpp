// SPDX-License-Identifier: MIT
// Sample 12: tessellation with hull and domain shaders (both SM5 assembly).
// Two quad patches: patch 0 is tessellated with a factor that grows with the
// frame (2, 4, 6), patch 1 with factor 1. The domain shader bows each patch's
// top edge upwards by 0.3 * sin(pi * u), which only shows where there are
// vertices to move: the left patch grows an arch, the right one stays flat.

#include "sample.h"
#include "tessellation_hlsl.h"
#include "tessellation_hs_asm.h"
#include "tessellation_ds_asm.h"

#include <cstdio>
#include <vector>

namespace npt::samples {

  namespace {

    constexpr Rgba8 Background = { 0, 0, 0, 255 };
    constexpr float PatchTop = 0.2f;
    constexpr float PatchBottom = -0.6f;
    constexpr float Bow = 0.3f;

    float tessFactorFor(uint32_t frame) {
      return 2.0f + 2.0f * float(frame % 3);
    }

    class TessellationSample final : public Sample {
    public:
      const char* name() const override { return "tessellation"; }

      Status init(SampleContext& sc) override {
        std::vector<uint8_t> hsBytecode, dsBytecode;
        NPT_CHECK_STATUS(sc.assemble(kHSAsm, kHSAsmName, hsBytecode));
        NPT_CHECK_STATUS(sc.assemble(kDSAsm, kDSAsmName, dsBytecode));
        NPT_CHECK_HR(sc.device->CreateHullShader(hsBytecode.data(), hsBytecode.size(), nullptr, m_hs.put()));
        NPT_CHECK_HR(sc.device->CreateDomainShader(dsBytecode.data(), dsBytecode.size(), nullptr, m_ds.put()));

        ComPtr<ID3DBlob> vsBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs, &vsBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_main", m_ps));
        const D3D11_INPUT_ELEMENT_DESC element = { "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 };
        NPT_CHECK_HR(sc.device->CreateInputLayout(&element, 1,
          vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

        // Two patches: top-left, top-right, bottom-left, bottom-right each.
        const float points[2][4][2] = {
          { { -0.9f, PatchTop }, { -0.1f, PatchTop }, { -0.9f, PatchBottom }, { -0.1f, PatchBottom } },
          { {  0.1f, PatchTop }, {  0.9f, PatchTop }, {  0.1f, PatchBottom }, {  0.9f, PatchBottom } },
        };
        D3D11_BUFFER_DESC vbDesc = { sizeof(points), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        D3D11_SUBRESOURCE_DATA vbData = { points, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&vbDesc, &vbData, m_patches.put()));

        D3D11_BUFFER_DESC cbDesc = { 16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));

        // The domain's winding depends on the mapping; culling is beside the point here.
        D3D11_RASTERIZER_DESC raster = {};
        raster.FillMode = D3D11_FILL_SOLID;
        raster.CullMode = D3D11_CULL_NONE;
        raster.DepthClipEnable = TRUE;
        NPT_CHECK_HR(sc.device->CreateRasterizerState(&raster, m_raster.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        const float constants[4] = { tessFactorFor(frame), 0.0f, 0.0f, 0.0f };
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, constants, 0, 0);

        const float clear[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        sc.context->ClearRenderTargetView(sc.targetView, clear);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.setFullViewport();
        sc.context->RSSetState(m_raster.get());

        UINT stride = 8, offset = 0;
        sc.context->IASetInputLayout(m_layout.get());
        sc.context->IASetVertexBuffers(0, 1, m_patches.addressOf(), &stride, &offset);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST);
        sc.context->VSSetShader(m_vs.get(), nullptr, 0);
        sc.context->HSSetShader(m_hs.get(), nullptr, 0);
        sc.context->HSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->DSSetShader(m_ds.get(), nullptr, 0);
        sc.context->PSSetShader(m_ps.get(), nullptr, 0);
        sc.context->Draw(8, 0);

        sc.context->HSSetShader(nullptr, nullptr, 0);
        sc.context->DSSetShader(nullptr, nullptr, 0);
        sc.context->RSSetState(nullptr);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t, FrameCheck& check) override {
        auto fx = [](float x) { return (x + 1.0f) * 0.5f; };
        auto fy = [](float y) { return (1.0f - y) * 0.5f; };
        // An even factor puts a vertex at u = 0.5, the top of the arch (y = 0.5).
        check.expectPixelNot(fx(-0.5f), fy(PatchTop + Bow - 0.06f), Background, 0, "tessellated patch: arch reaches up to y = 0.5");
        check.expectPixel(fx(-0.5f), fy(PatchTop + Bow + 0.06f), Background, 0, "tessellated patch: nothing above the arch");
        // Factor 1: only the corners exist, so the top edge stays straight.
        check.expectPixel(fx(0.5f), fy(PatchTop + 0.1f), Background, 0, "untessellated patch: top edge stays flat");
        check.expectPixelNot(fx(0.5f), fy(PatchTop - 0.1f), Background, 0, "untessellated patch: covered below its top edge");
        // Domain colour near the bottom-left corner: u ~ 0, v ~ 1 -> (0, 1, 1).
        Rgba8 corner = check.pixel(fx(-0.87f), fy(PatchBottom + 0.03f));
        check.expect(corner.r < 24 && corner.g > 230 && corner.b > 230,
          "tessellated patch: bottom-left corner has the domain colour (u=0, v=1)");
        check.expectDistinctColours(16);
      }

    private:
      ComPtr<ID3D11VertexShader>    m_vs;
      ComPtr<ID3D11HullShader>      m_hs;
      ComPtr<ID3D11DomainShader>    m_ds;
      ComPtr<ID3D11PixelShader>     m_ps;
      ComPtr<ID3D11InputLayout>     m_layout;
      ComPtr<ID3D11Buffer>          m_patches, m_constants;
      ComPtr<ID3D11RasterizerState> m_raster;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::TessellationSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
