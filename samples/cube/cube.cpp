// SPDX-License-Identifier: MIT
// Sample 2: textured, mipmapped, indexed cube with depth. A 64x64 texture with
// a full mip chain (each level tinted differently, so mip selection shows), an
// index buffer, a D32 depth buffer and culling off so only depth hides the
// back faces; a far backdrop drawn after the cube proves the depth test.

#include "sample.h"
#include "math.h"
#include "cube_hlsl.h"

#include <vector>

namespace npt::samples {

  namespace {

    constexpr float ClearColour[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    constexpr Rgba8 BackdropRgba = { 64, 128, 191, 255 };
    constexpr uint32_t TextureSize = 64;
    constexpr uint32_t MipLevels = 7;

    struct Vertex {
      float position[3];
      float uv[2];
    };

    class CubeSample final : public Sample {
    public:
      const char* name() const override { return "cube"; }

      Status init(SampleContext& sc) override {
        ComPtr<ID3DBlob> vsBytecode;
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_cube", m_vsCube, &vsBytecode));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_cube", m_psCube));
        NPT_CHECK_STATUS(sc.createVertexShader(kShaderSource, kShaderSourceName, "vs_backdrop", m_vsBackdrop));
        NPT_CHECK_STATUS(sc.createPixelShader(kShaderSource, kShaderSourceName, "ps_backdrop", m_psBackdrop));

        const D3D11_INPUT_ELEMENT_DESC elements[] = {
          { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0,  D3D11_INPUT_PER_VERTEX_DATA, 0 },
          { "TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT,    0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 },
        };
        NPT_CHECK_HR(sc.device->CreateInputLayout(elements, 2,
          vsBytecode->GetBufferPointer(), vsBytecode->GetBufferSize(), m_layout.put()));

        NPT_CHECK_STATUS(createGeometry(sc));
        NPT_CHECK_STATUS(createTexture(sc));

        D3D11_SAMPLER_DESC sampler = {};
        sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
        sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_WRAP;
        sampler.MaxLOD = D3D11_FLOAT32_MAX;
        sampler.ComparisonFunc = D3D11_COMPARISON_NEVER;
        NPT_CHECK_HR(sc.device->CreateSamplerState(&sampler, m_sampler.put()));

        NPT_CHECK_STATUS(sc.createDepthBuffer(DXGI_FORMAT_D32_FLOAT, m_depth, m_depthView));

        D3D11_DEPTH_STENCIL_DESC depthState = {};
        depthState.DepthEnable = TRUE;
        depthState.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
        depthState.DepthFunc = D3D11_COMPARISON_LESS;
        NPT_CHECK_HR(sc.device->CreateDepthStencilState(&depthState, m_depthState.put()));

        D3D11_RASTERIZER_DESC raster = {};
        raster.FillMode = D3D11_FILL_SOLID;
        raster.CullMode = D3D11_CULL_NONE;
        raster.DepthClipEnable = TRUE;
        NPT_CHECK_HR(sc.device->CreateRasterizerState(&raster, m_raster.put()));

        D3D11_BUFFER_DESC cbDesc = { sizeof(Mat4), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&cbDesc, nullptr, m_constants.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        float aspect = float(sc.width) / float(sc.height);
        Mat4 world = Mat4::rotationY(0.3f + 0.11f * float(frame)) * Mat4::rotationX(0.5f + 0.07f * float(frame));
        Mat4 wvp = world * Mat4::translation(0.0f, 0.0f, 4.0f)
                 * Mat4::perspective(1.0f, aspect, 0.5f, 20.0f);
        sc.context->UpdateSubresource(m_constants.get(), 0, nullptr, &wvp, 0, 0);

        sc.context->ClearRenderTargetView(sc.targetView, ClearColour);
        sc.context->ClearDepthStencilView(m_depthView.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
        sc.context->OMSetRenderTargets(1, &sc.targetView, m_depthView.get());
        sc.context->OMSetDepthStencilState(m_depthState.get(), 0);
        sc.context->RSSetState(m_raster.get());
        sc.setFullViewport();

        UINT stride = sizeof(Vertex), offset = 0;
        sc.context->IASetInputLayout(m_layout.get());
        sc.context->IASetVertexBuffers(0, 1, m_vertices.addressOf(), &stride, &offset);
        sc.context->IASetIndexBuffer(m_indices.get(), DXGI_FORMAT_R16_UINT, 0);
        sc.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        sc.context->VSSetShader(m_vsCube.get(), nullptr, 0);
        sc.context->VSSetConstantBuffers(0, 1, m_constants.addressOf());
        sc.context->PSSetShader(m_psCube.get(), nullptr, 0);
        sc.context->PSSetShaderResources(0, 1, m_textureView.addressOf());
        sc.context->PSSetSamplers(0, 1, m_sampler.addressOf());
        sc.context->DrawIndexed(36, 0, 0);

        // The backdrop is drawn last on purpose: only depth keeps it off the cube.
        sc.context->IASetInputLayout(nullptr);
        sc.context->VSSetShader(m_vsBackdrop.get(), nullptr, 0);
        sc.context->PSSetShader(m_psBackdrop.get(), nullptr, 0);
        sc.context->Draw(3, 0);
        return Status::ok();
      }

      void check(const SampleContext&, uint32_t, FrameCheck& check) override {
        check.expectPixel(0.02f, 0.02f, BackdropRgba, 1, "backdrop fills the corner around the cube");
        check.expectPixelNot(0.5f, 0.5f, BackdropRgba, 2, "the cube, not the backdrop, is in the centre (depth test)");
        check.expectPixelNot(0.5f, 0.5f, { 0, 0, 0, 255 }, 2, "the cube centre is textured, not the clear colour");
        check.expectDistinctColours(16);
      }

    private:
      Status createGeometry(SampleContext& sc) {
        // Six faces, four vertices each so every face gets its own UVs.
        static const float corners[6][4][3] = {
          { { -1, -1, -1 }, { -1,  1, -1 }, {  1,  1, -1 }, {  1, -1, -1 } },
          { {  1, -1,  1 }, {  1,  1,  1 }, { -1,  1,  1 }, { -1, -1,  1 } },
          { { -1, -1,  1 }, { -1,  1,  1 }, { -1,  1, -1 }, { -1, -1, -1 } },
          { {  1, -1, -1 }, {  1,  1, -1 }, {  1,  1,  1 }, {  1, -1,  1 } },
          { { -1,  1, -1 }, { -1,  1,  1 }, {  1,  1,  1 }, {  1,  1, -1 } },
          { { -1, -1,  1 }, { -1, -1, -1 }, {  1, -1, -1 }, {  1, -1,  1 } },
        };
        // UVs beyond 1 repeat the texture so faces at a slant reach lower mips.
        static const float uvs[4][2] = { { 0, 3 }, { 0, 0 }, { 3, 0 }, { 3, 3 } };

        std::vector<Vertex> vertices;
        std::vector<uint16_t> indices;
        for (uint16_t face = 0; face < 6; face++) {
          for (int c = 0; c < 4; c++) {
            vertices.push_back({ { corners[face][c][0], corners[face][c][1], corners[face][c][2] },
                                 { uvs[c][0], uvs[c][1] } });
          }
          uint16_t base = uint16_t(face * 4);
          for (uint16_t i : { 0, 1, 2, 0, 2, 3 })
            indices.push_back(uint16_t(base + i));
        }

        D3D11_BUFFER_DESC vbDesc = { UINT(vertices.size() * sizeof(Vertex)), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        D3D11_SUBRESOURCE_DATA vbData = { vertices.data(), 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&vbDesc, &vbData, m_vertices.put()));

        D3D11_BUFFER_DESC ibDesc = { UINT(indices.size() * sizeof(uint16_t)), D3D11_USAGE_IMMUTABLE, D3D11_BIND_INDEX_BUFFER, 0, 0, 0 };
        D3D11_SUBRESOURCE_DATA ibData = { indices.data(), 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&ibDesc, &ibData, m_indices.put()));
        return Status::ok();
      }

      Status createTexture(SampleContext& sc) {
        // Every level is uploaded (not generated) and tinted by its level, so
        // which mip the sampler picks is visible in the image.
        static const Rgba8 tints[MipLevels] = {
          { 255, 255, 255, 255 }, { 255, 200, 120, 255 }, { 120, 255, 120, 255 },
          { 120, 200, 255, 255 }, { 255, 120, 255, 255 }, { 255, 255, 120, 255 },
          { 200, 200, 200, 255 },
        };
        std::vector<std::vector<Rgba8>> levels(MipLevels);
        D3D11_SUBRESOURCE_DATA data[MipLevels];
        for (uint32_t level = 0; level < MipLevels; level++) {
          uint32_t size = TextureSize >> level;
          uint32_t cell = size >= 8 ? size / 8 : 1;
          levels[level].resize(size * size);
          for (uint32_t y = 0; y < size; y++) {
            for (uint32_t x = 0; x < size; x++) {
              bool dark = ((x / cell) + (y / cell)) & 1;
              Rgba8 tint = tints[level];
              uint8_t scale = dark ? 90 : 255;
              levels[level][y * size + x] = { uint8_t(tint.r * scale / 255), uint8_t(tint.g * scale / 255),
                                              uint8_t(tint.b * scale / 255), 255 };
            }
          }
          data[level] = { levels[level].data(), size * 4, 0 };
        }

        D3D11_TEXTURE2D_DESC desc = {};
        desc.Width = desc.Height = TextureSize;
        desc.MipLevels = MipLevels;
        desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.Usage = D3D11_USAGE_IMMUTABLE;
        desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
        NPT_CHECK_HR(sc.device->CreateTexture2D(&desc, data, m_texture.put()));
        NPT_CHECK_HR(sc.device->CreateShaderResourceView(m_texture.get(), nullptr, m_textureView.put()));
        return Status::ok();
      }

      ComPtr<ID3D11VertexShader>       m_vsCube, m_vsBackdrop;
      ComPtr<ID3D11PixelShader>        m_psCube, m_psBackdrop;
      ComPtr<ID3D11InputLayout>        m_layout;
      ComPtr<ID3D11Buffer>             m_vertices, m_indices, m_constants;
      ComPtr<ID3D11Texture2D>          m_texture, m_depth;
      ComPtr<ID3D11ShaderResourceView> m_textureView;
      ComPtr<ID3D11DepthStencilView>   m_depthView;
      ComPtr<ID3D11SamplerState>       m_sampler;
      ComPtr<ID3D11DepthStencilState>  m_depthState;
      ComPtr<ID3D11RasterizerState>    m_raster;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::CubeSample sample;
  return npt::samples::runSample(sample, argc, argv);
}
