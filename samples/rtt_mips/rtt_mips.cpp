// SPDX-License-Identifier: MIT
// Sample 5: render to texture, GenerateMips, sampling. A 128x128 texture with
// a full mip chain is rendered into (level 0 only), its chain is generated
// on the GPU, and five panels show levels 0, 1, 3, 5 and 7 (the 1x1 average).

#include "sample.h"
#include "rtt_mips_hlsl.h"

namespace npt::samples {

  namespace {

    constexpr uint32_t SceneSize = 128;
    constexpr uint32_t SceneLevels = 8;  // 128 .. 1
    constexpr float Green[4] = { 0.0f, 1.0f, 0.0f, 1.0f };

    struct RectConstants {
      float bounds[4];
      float colour[4];
    };

    // The mip levels shown, each through its own single-level view.
    constexpr uint32_t PanelLevels[] = { 0, 1, 3, 5, 7 };
    constexpr uint32_t PanelCount = sizeof(PanelLevels) / sizeof(PanelLevels[0]);

    class RttMipsSample final : public Sample {
    public:
      const char* name() const override { return "rtt_mips"; }

      Status init(SampleContext& sc) override {
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_rect", m_vsRect));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_rect", m_psRect));
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_panel", m_vsPanel));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_panel", m_psPanel));

        D3D11_TEXTURE2D_DESC desc = {};
        desc.Width = desc.Height = SceneSize;
        desc.MipLevels = SceneLevels;
        desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
        desc.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS;
        NPT_CHECK_HR(sc.device->CreateTexture2D(&desc, nullptr, m_scene.put()));

        D3D11_RENDER_TARGET_VIEW_DESC rtv = {};
        rtv.Format = desc.Format;
        rtv.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
        rtv.Texture2D.MipSlice = 0;
        NPT_CHECK_HR(sc.device->CreateRenderTargetView(m_scene.get(), &rtv, m_sceneRtv.put()));
        NPT_CHECK_HR(sc.device->CreateShaderResourceView(m_scene.get(), nullptr, m_sceneSrv.put()));
        for (uint32_t i = 0; i < PanelCount; i++) {
          D3D11_SHADER_RESOURCE_VIEW_DESC srv = {};
          srv.Format = desc.Format;
          srv.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
          srv.Texture2D.MostDetailedMip = PanelLevels[i];
          srv.Texture2D.MipLevels = 1;
          NPT_CHECK_HR(sc.device->CreateShaderResourceView(m_scene.get(), &srv, m_levelSrvs[i].put()));
        }

        D3D11_SAMPLER_DESC sampler = {};
        sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
        sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
        sampler.MaxLOD = D3D11_FLOAT32_MAX;
        NPT_CHECK_HR(sc.device->CreateSamplerState(&sampler, m_sampler.put()));

        D3D11_BUFFER_DESC rectDesc = { sizeof(RectConstants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&rectDesc, nullptr, m_rectConstants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        renderScene(sc, frame);
        sc.context->GenerateMips(m_sceneSrv.get());
        renderPanels(sc);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t, FrameCheck& check) override {
        // Level 0 panel (left half): red left, green right of the scene.
        check.expectPixel(0.1f, 0.9f, { 255, 0, 0, 255 }, 1, "level 0 panel: red half of the scene");
        check.expectPixel(0.4f, 0.9f, { 0, 255, 0, 255 }, 1, "level 0 panel: green half of the scene");
        // Level 7 is the 1x1 average: red half less the blue square, green half, 1/64 blue.
        check.expectPixel(0.75f, 0.875f, { 124, 128, 4, 255 }, 3, "level 7 panel: average of the whole scene");
        // Level 5 (4x4) still separates the halves: its left column is reddish.
        Rgba8 level5 = check.pixel(0.52f, 0.68f);
        check.expect(level5.r > level5.g, "level 5 panel: left column is still mostly red");
        check.expectDistinctColours(32);
      }

    private:
      void drawRect(SampleContext& sc, const RectConstants& rect) {
        sc.context->UpdateSubresource(m_rectConstants.get(), 0, nullptr, &rect, 0, 0);
        sc.context->Draw(4, 0);
      }

      void renderScene(SampleContext& sc, uint32_t frame) {
        ID3D11RenderTargetView* rtv = m_sceneRtv.get();
        sc.context->ClearRenderTargetView(rtv, Green);
        sc.context->OMSetRenderTargets(1, &rtv, nullptr);
        D3D11_VIEWPORT viewport = { 0.0f, 0.0f, float(SceneSize), float(SceneSize), 0.0f, 1.0f };
        sc.context->RSSetViewports(1, &viewport);

        sc.context->IASetInputLayout(nullptr);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        sc.context->VSSetShader(m_vsRect.get(), nullptr, 0);
        sc.context->VSSetConstantBuffers(0, 1, m_rectConstants.addressOf());
        sc.context->PSSetShader(m_psRect.get(), nullptr, 0);
        sc.context->PSSetConstantBuffers(0, 1, m_rectConstants.addressOf());

        drawRect(sc, { { -1.0f, -1.0f, 0.0f, 1.0f }, { 1.0f, 0.0f, 0.0f, 1.0f } });
        // A 16x16 blue square (1/64 of the scene) wandering inside the red half.
        float x = -0.9f + 0.05f * float(frame % 10);
        drawRect(sc, { { x, 0.5f, x + 0.25f, 0.75f }, { 0.0f, 0.0f, 1.0f, 1.0f } });

        // The scene must not be bound as a target while its mips are generated and sampled.
        sc.context->OMSetRenderTargets(0, nullptr, nullptr);
      }

      void renderPanels(SampleContext& sc) {
        const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        sc.context->ClearRenderTargetView(sc.targetView, black);
        sc.context->OMSetRenderTargets(1, &sc.targetView, nullptr);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        sc.context->VSSetShader(m_vsPanel.get(), nullptr, 0);
        sc.context->PSSetShader(m_psPanel.get(), nullptr, 0);
        sc.context->PSSetSamplers(0, 1, m_sampler.addressOf());

        float w = float(sc.width), h = float(sc.height);
        // Level 0 fills the left half; the others stack in the right half.
        const D3D11_VIEWPORT viewports[PanelCount] = {
          { 0.0f,  0.0f,      w / 2, h,     0.0f, 1.0f },
          { w / 2, 0.0f,      w / 2, h / 4, 0.0f, 1.0f },
          { w / 2, h / 4,     w / 2, h / 4, 0.0f, 1.0f },
          { w / 2, h / 2,     w / 2, h / 4, 0.0f, 1.0f },
          { w / 2, 3 * h / 4, w / 2, h / 4, 0.0f, 1.0f },
        };
        for (uint32_t i = 0; i < PanelCount; i++) {
          sc.context->PSSetShaderResources(0, 1, m_levelSrvs[i].addressOf());
          sc.context->RSSetViewports(1, &viewports[i]);
          sc.context->Draw(3, 0);
        }

        ID3D11ShaderResourceView* none = nullptr;
        sc.context->PSSetShaderResources(0, 1, &none);
      }

      ComPtr<ID3D11VertexShader>       m_vsRect, m_vsPanel;
      ComPtr<ID3D11PixelShader>        m_psRect, m_psPanel;
      ComPtr<ID3D11Texture2D>          m_scene;
      ComPtr<ID3D11RenderTargetView>   m_sceneRtv;
      ComPtr<ID3D11ShaderResourceView> m_sceneSrv;
      ComPtr<ID3D11ShaderResourceView> m_levelSrvs[PanelCount];
      ComPtr<ID3D11SamplerState>       m_sampler;
      ComPtr<ID3D11Buffer>             m_rectConstants;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::RttMipsSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
