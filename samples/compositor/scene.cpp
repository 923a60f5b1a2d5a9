// SPDX-License-Identifier: MIT
#include "scene.h"
#include "compositor_hlsl.h"

namespace npt::samples::compositor {

  namespace {

    struct Parameters {
      float tint[4];
      float band[4];
    };

    constexpr float kTints[kScenes][4] = { { 1.0f, 0.5f, 0.2f, 1.0f }, { 0.2f, 0.9f, 0.6f, 1.0f } };
    constexpr uint32_t kBandWidth = 6;

    void drawFullscreen(ID3D11DeviceContext* context, ID3D11VertexShader* vs, ID3D11PixelShader* ps,
                        ID3D11Buffer* constants, uint32_t width, uint32_t height) {
      D3D11_VIEWPORT viewport = { 0.0f, 0.0f, float(width), float(height), 0.0f, 1.0f };
      context->RSSetViewports(1, &viewport);
      context->IASetInputLayout(nullptr);
      context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
      context->VSSetShader(vs, nullptr, 0);
      context->PSSetShader(ps, nullptr, 0);
      context->PSSetConstantBuffers(0, 1, &constants);
      context->Draw(3, 0);
    }

    uint32_t stampCounter(Rgba8 pixel) { return uint32_t(pixel.r) | uint32_t(pixel.g) << 8; }

  }

  Rgba8 stampColour(uint32_t scene, uint32_t frame) {
    return { uint8_t(frame & 0xff), uint8_t((frame >> 8) & 0xff), uint8_t(0x40 + 0x80 * scene), 255 };
  }

  Status createSceneTarget(ID3D11Device* device, uint32_t width, uint32_t height, UINT miscFlags,
                           SceneTarget& out) {
    D3D11_TEXTURE2D_DESC desc = { width, height, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
      D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0, miscFlags };
    NPT_CHECK_HR(device->CreateTexture2D(&desc, nullptr, out.texture.put()));
    NPT_CHECK_HR(device->CreateRenderTargetView(out.texture.get(), nullptr, out.rtv.put()));
    NPT_CHECK_HR(device->CreateShaderResourceView(out.texture.get(), nullptr, out.srv.put()));
    return Status::ok();
  }

  Status SceneRenderer::init(const SampleContext& sc) {
    NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs));
    NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_scene", m_ps));
    D3D11_BUFFER_DESC desc = { sizeof(Parameters), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
    NPT_CHECK_HR(sc.device->CreateBuffer(&desc, nullptr, m_constants.put()));
    return Status::ok();
  }

  void SceneRenderer::render(ID3D11DeviceContext* context, ID3D11Texture2D* target, ID3D11RenderTargetView* view,
                             uint32_t width, uint32_t height, uint32_t scene, uint32_t frame) {
    // A moves right by 3 px a frame, B left by 5: consecutive frames differ everywhere the band was.
    const uint32_t travel = width > kBandWidth ? width - kBandWidth : 1;
    const uint32_t left = scene == 0 ? (frame * 3) % travel : travel - 1 - (frame * 5) % travel;
    Parameters parameters = { { kTints[scene][0], kTints[scene][1], kTints[scene][2], kTints[scene][3] },
      { float(left), float(left + kBandWidth), 0.0f, 0.0f } };
    context->UpdateSubresource(m_constants.get(), 0, nullptr, &parameters, 0, 0);
    context->OMSetRenderTargets(1, &view, nullptr);
    drawFullscreen(context, m_vs.get(), m_ps.get(), m_constants.get(), width, height);
    context->OMSetRenderTargets(0, nullptr, nullptr);
    // The stamps, written after the scene on the same context: a reader that sees a stamp
    // of frame N sees all of frame N's drawing.
    const Rgba8 stamp = stampColour(scene, frame);
    const D3D11_BOX corners[2] = { { 0, 0, 0, 1, 1, 1 }, { width - 1, height - 1, 0, width, height, 1 } };
    for (const D3D11_BOX& box : corners)
      context->UpdateSubresource(target, 0, &box, &stamp, 4, 4);
  }

  Status Composer::init(const SampleContext& sc) {
    NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_main", m_vs));
    NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_compose", m_ps));
    D3D11_BUFFER_DESC desc = { sizeof(Parameters), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
    NPT_CHECK_HR(sc.device->CreateBuffer(&desc, nullptr, m_constants.put()));
    return Status::ok();
  }

  void Composer::compose(ID3D11DeviceContext* context, ID3D11RenderTargetView* target, uint32_t width,
                         uint32_t height, ID3D11ShaderResourceView* sceneA, ID3D11ShaderResourceView* sceneB) {
    Parameters parameters = { { 0.0f, 0.0f, 0.0f, 0.0f }, { float(width / 2), 0.0f, 0.0f, 0.0f } };
    context->UpdateSubresource(m_constants.get(), 0, nullptr, &parameters, 0, 0);
    context->OMSetRenderTargets(1, &target, nullptr);
    ID3D11ShaderResourceView* scenes[2] = { sceneA, sceneB };
    context->PSSetShaderResources(0, 2, scenes);
    drawFullscreen(context, m_vs.get(), m_ps.get(), m_constants.get(), width, height);
    ID3D11ShaderResourceView* none[2] = {};
    context->PSSetShaderResources(0, 2, none);
    context->OMSetRenderTargets(0, nullptr, nullptr);
  }

  std::string stampProblems(const FrameCheck& check, uint32_t width, uint32_t height, uint32_t frame,
                            int32_t previous[kScenes]) {
    std::string problems;
    const uint32_t half = width / 2;
    for (uint32_t scene = 0; scene < kScenes; scene++) {
      // Fractions that land on the exact corner pixels of the scene's half.
      const uint32_t x0 = scene * half, x1 = x0 + half - 1;
      const Rgba8 first = check.pixel((float(x0) + 0.5f) / float(width), 0.5f / float(height));
      const Rgba8 last = check.pixel((float(x1) + 0.5f) / float(width), (float(height) - 0.5f) / float(height));
      const std::string name = scene == 0 ? "scene A" : "scene B";
      const uint32_t shown = stampCounter(first), shownLast = stampCounter(last);
      const uint32_t expected = frame & 0xffff;
      if (first.b != stampColour(scene, 0).b || last.b != stampColour(scene, 0).b)
        problems += name + ": no stamp in its corners; ";
      else if (shown != shownLast)
        problems += name + ": torn (corners show frames " + std::to_string(shown) + " and " +
                    std::to_string(shownLast) + "); ";
      else if (previous[scene] >= 0 && int32_t(shown) < previous[scene])
        problems += name + ": out of order (frame " + std::to_string(shown) + " after " +
                    std::to_string(previous[scene]) + "); ";
      else if (shown < expected)
        problems += name + ": stale (frame " + std::to_string(shown) + " instead of " + std::to_string(expected) + "); ";
      else if (shown > expected)
        problems += name + ": out of order (frame " + std::to_string(shown) + " before " + std::to_string(expected) + "); ";
      previous[scene] = int32_t(shown);
    }
    return problems;
  }

}
