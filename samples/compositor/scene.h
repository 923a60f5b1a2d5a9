// SPDX-License-Identifier: MIT
#pragma once

// What the compositor sample draws, shared by its three roles (compositor.cpp): two
// animated scenes (A and B, each half the frame wide) and their composition (A left,
// B right, texel for texel). Each scene stamps its frame counter into two opposite
// corner pixels after drawing, so a composed frame tells which frame of each producer it
// shows: both corners of a scene must carry the compositor's own frame number, else the
// frame is torn (corners differ), stale (older) or out of order (newer, or going back).

#include "sample.h"

namespace npt::samples::compositor {

  constexpr uint32_t kScenes = 2;

  // The stamp of `frame` for `scene`: 16 bits of counter in r/g, the scene in b.
  Rgba8 stampColour(uint32_t scene, uint32_t frame);

  class SceneRenderer {
  public:
    Status init(const SampleContext& sc);
    // Draws `scene` of `frame` into `target` (width x height) and stamps its corners.
    void render(ID3D11DeviceContext* context, ID3D11Texture2D* target, ID3D11RenderTargetView* view,
                uint32_t width, uint32_t height, uint32_t scene, uint32_t frame);

  private:
    ComPtr<ID3D11VertexShader> m_vs;
    ComPtr<ID3D11PixelShader>  m_ps;
    ComPtr<ID3D11Buffer>       m_constants;
  };

  class Composer {
  public:
    Status init(const SampleContext& sc);
    // Composes scene A (left) and B (right), each (width / 2) x height, into `target`.
    void compose(ID3D11DeviceContext* context, ID3D11RenderTargetView* target, uint32_t width, uint32_t height,
                 ID3D11ShaderResourceView* sceneA, ID3D11ShaderResourceView* sceneB);

  private:
    ComPtr<ID3D11VertexShader> m_vs;
    ComPtr<ID3D11PixelShader>  m_ps;
    ComPtr<ID3D11Buffer>       m_constants;
  };

  // A scene texture (RGBA8, render target + shader resource) with its two views.
  struct SceneTarget {
    ComPtr<ID3D11Texture2D>          texture;
    ComPtr<ID3D11RenderTargetView>   rtv;
    ComPtr<ID3D11ShaderResourceView> srv;
  };
  Status createSceneTarget(ID3D11Device* device, uint32_t width, uint32_t height, UINT miscFlags,
                           SceneTarget& out);

  // Reads both scenes' stamps from a composed frame and names what is wrong with them
  // (torn, stale, out of order) given the frame the compositor composed and the counters
  // of the previous composed frame (updated). Empty when both show exactly `frame`.
  std::string stampProblems(const FrameCheck& check, uint32_t width, uint32_t height, uint32_t frame,
                            int32_t previous[kScenes]);

}
