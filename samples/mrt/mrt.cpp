// SPDX-License-Identifier: MIT
// Sample 4: multiple render targets and blending. Two render targets bound at
// once with independent blend states (alpha blending on target 0, additive on
// target 1, alpha of target 0 preserved by a separate alpha blend), then the
// second target is sampled into the bottom-left quarter of the first.

#include "sample.h"
#include "mrt_hlsl.h"

#include <cstring>

namespace npt::samples {

  namespace {

    constexpr float ClearColour[4] = { 0.0f, 0.0f, 0.4f, 1.0f };
    constexpr float AccumClear[4] = { 0.0f, 0.0f, 0.0f, 1.0f };

    struct RectConstants {
      float bounds[4];
      float colour[4];
    };

    class MrtSample final : public Sample {
    public:
      const char* name() const override { return "mrt"; }

      Status init(SampleContext& sc) override {
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_rect", m_vsRect));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_rect", m_psRect));
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_inset", m_vsInset));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_inset", m_psInset));

        D3D11_TEXTURE2D_DESC desc = {};
        desc.Width = sc.width;
        desc.Height = sc.height;
        desc.MipLevels = 1;
        desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
        NPT_CHECK_HR(sc.device->CreateTexture2D(&desc, nullptr, m_accum.put()));
        NPT_CHECK_HR(sc.device->CreateRenderTargetView(m_accum.get(), nullptr, m_accumRtv.put()));
        NPT_CHECK_HR(sc.device->CreateShaderResourceView(m_accum.get(), nullptr, m_accumSrv.put()));

        D3D11_BLEND_DESC blend = {};
        blend.IndependentBlendEnable = TRUE;
        D3D11_RENDER_TARGET_BLEND_DESC& over = blend.RenderTarget[0];
        over.BlendEnable = TRUE;
        over.SrcBlend = D3D11_BLEND_SRC_ALPHA;
        over.DestBlend = D3D11_BLEND_INV_SRC_ALPHA;
        over.BlendOp = D3D11_BLEND_OP_ADD;
        over.SrcBlendAlpha = D3D11_BLEND_ZERO;   // keep the target's alpha at 1
        over.DestBlendAlpha = D3D11_BLEND_ONE;
        over.BlendOpAlpha = D3D11_BLEND_OP_ADD;
        over.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
        D3D11_RENDER_TARGET_BLEND_DESC& add = blend.RenderTarget[1];
        add.BlendEnable = TRUE;
        add.SrcBlend = add.DestBlend = D3D11_BLEND_ONE;
        add.BlendOp = D3D11_BLEND_OP_ADD;
        add.SrcBlendAlpha = add.DestBlendAlpha = D3D11_BLEND_ONE;
        add.BlendOpAlpha = D3D11_BLEND_OP_ADD;
        add.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
        NPT_CHECK_HR(sc.device->CreateBlendState(&blend, m_blend.put()));

        D3D11_SAMPLER_DESC sampler = {};
        sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
        sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
        sampler.MaxLOD = D3D11_FLOAT32_MAX;
        NPT_CHECK_HR(sc.device->CreateSamplerState(&sampler, m_sampler.put()));

        D3D11_BUFFER_DESC cbDesc = { sizeof(RectConstants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        // A small frame-driven drift that keeps the checked regions inside their rects.
        float drift = 0.01f * float(frame % 8);
        const RectConstants rects[2] = {
          { { -0.8f + drift, -0.2f, 0.2f + drift, 0.8f }, { 1.0f, 0.0f, 0.0f, 0.5f } },
          { { -0.2f - drift, -0.8f, 0.8f - drift, 0.2f }, { 0.0f, 1.0f, 0.0f, 0.5f } },
        };

        ID3D11RenderTargetView* targets[2] = { sc.targetView, m_accumRtv.get() };
        sc.context->ClearRenderTargetView(targets[0], ClearColour);
        sc.context->ClearRenderTargetView(targets[1], AccumClear);
        sc.context->OMSetRenderTargets(2, targets, nullptr);
        sc.context->OMSetBlendState(m_blend.get(), nullptr, 0xffffffffu);
        sc.setFullViewport();

        sc.context->IASetInputLayout(nullptr);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        sc.context->VSSetShader(m_vsRect.get(), nullptr, 0);
        sc.context->VSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->PSSetShader(m_psRect.get(), nullptr, 0);
        sc.context->PSSetConstantBuffers(0, 1, m_constants.addressOf());
        for (const RectConstants& rect : rects) {
          sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &rect, 0, 0);
          sc.context->Draw(4, 0);
        }

        // Target 1 must be unbound before it is sampled.
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.context->OMSetBlendState(nullptr, nullptr, 0xffffffffu);
        D3D11_VIEWPORT inset = { 0.0f, float(sc.height / 2), float(sc.width / 2), float(sc.height / 2), 0.0f, 1.0f };
        sc.context->RSSetViewports(1, &inset);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        sc.context->VSSetShader(m_vsInset.get(), nullptr, 0);
        sc.context->PSSetShader(m_psInset.get(), nullptr, 0);
        sc.context->PSSetShaderResources(0, 1, m_accumSrv.addressOf());
        sc.context->PSSetSamplers(0, 1, m_sampler.addressOf());
        sc.context->Draw(3, 0);

        ID3D11ShaderResourceView* none = nullptr;
        sc.context->PSSetShaderResources(0, 1, &none);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t, FrameCheck& check) override {
        // Target 0: red at 50% over the clear colour, then green at 50% over that.
        check.expectPixel(0.25f, 0.25f, { 128, 0, 51, 255 }, 2, "red over clear colour");
        check.expectPixel(0.5f, 0.5f, { 64, 128, 26, 255 }, 2, "green over red over clear colour");
        check.expectPixel(0.75f, 0.75f, { 0, 128, 51, 255 }, 2, "green over clear colour");
        check.expectPixel(0.9f, 0.1f, { 0, 0, 102, 255 }, 1, "clear colour outside both rectangles");
        // Inset (half scale, bottom-left) of target 1: 0.4 * colour added per rect.
        check.expectPixel(0.125f, 0.625f, { 102, 0, 0, 255 }, 1, "inset: red only, additive target");
        check.expectPixel(0.25f, 0.75f, { 102, 102, 0, 255 }, 1, "inset: red + green summed in the additive target");
        check.expectPixel(0.05f, 0.95f, { 0, 0, 0, 255 }, 1, "inset: additive target's clear colour");
        check.expectDistinctColours(6);
      }

    private:
      ComPtr<ID3D11VertexShader>       m_vsRect, m_vsInset;
      ComPtr<ID3D11PixelShader>        m_psRect, m_psInset;
      ComPtr<ID3D11Texture2D>          m_accum;
      ComPtr<ID3D11RenderTargetView>   m_accumRtv;
      ComPtr<ID3D11ShaderResourceView> m_accumSrv;
      ComPtr<ID3D11BlendState>         m_blend;
      ComPtr<ID3D11SamplerState>       m_sampler;
      ComPtr<ID3D11Buffer>             m_constants;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::MrtSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
