// SPDX-License-Identifier: MIT
// Sample 6: staging readback, CopySubresourceRegion, UpdateSubresource. No
// shaders: the frame is assembled purely from transfers, and every transfer
// is checked against a CPU model of the resources.
//
//  * texture A (64x64, DEFAULT) gets a 16x16 UpdateSubresource box per frame
//    (boxes accumulate, the CPU model follows);
//  * A is read back through a READ staging texture and compared to the model;
//  * a WRITE staging texture is filled by Map and copied into the frame;
//  * a buffer gets a boxed UpdateSubresource, a buffer-to-buffer
//    CopySubresourceRegion, and a staging readback;
//  * the frame: A at (0,0), the upload at the top-right, A's newest box at
//    the bottom-right, on a clear colour.

#include "sample.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace npt::samples {

  namespace {

    constexpr uint32_t TexSize = 64;
    constexpr uint32_t BoxSize = 16;
    constexpr uint32_t UploadSize = 32;
    constexpr uint32_t BufferSize = 256;
    constexpr float ClearColour[4] = { 0.5f, 0.5f, 0.5f, 1.0f };

    Rgba8 initialTexel(uint32_t x, uint32_t y) {
      return { uint8_t(x * 4), uint8_t(y * 4), 128, 255 };
    }

    Rgba8 boxTexel(uint32_t x, uint32_t y, uint32_t frame) {
      return { uint8_t(x * 16), uint8_t(255 - y * 16), uint8_t(frame * 40), 255 };
    }

    Rgba8 uploadTexel(uint32_t x, uint32_t y, uint32_t frame) {
      bool on = ((x / 4) + (y / 4) + frame) & 1;
      return on ? Rgba8{ 255, 255, uint8_t(frame * 30), 255 } : Rgba8{ 20, 20, 20, 255 };
    }

    void boxOrigin(uint32_t frame, uint32_t& x, uint32_t& y) {
      x = (frame * 8) % (TexSize - BoxSize);
      y = 8 + (frame * 4) % 40;
    }

    uint8_t bufferByte(uint32_t i, uint32_t frame) {
      return uint8_t(i * 7 + frame * 13);
    }

    class CopySample final : public Sample {
    public:
      const char* name() const override { return "copy"; }

      Status init(SampleContext& sc) override {
        if (sc.width < 2 * TexSize || sc.height < TexSize + BoxSize)
          return Status::fail("the copy sample needs --size of at least 128x80");

        m_model.resize(TexSize * TexSize);
        for (uint32_t y = 0; y < TexSize; y++)
          for (uint32_t x = 0; x < TexSize; x++)
            m_model[y * TexSize + x] = initialTexel(x, y);

        D3D11_TEXTURE2D_DESC desc = {};
        desc.Width = desc.Height = TexSize;
        desc.MipLevels = 1;
        desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
        D3D11_SUBRESOURCE_DATA initial = { m_model.data(), TexSize * 4, 0 };
        NPT_CHECK_HR(sc.device->CreateTexture2D(&desc, &initial, m_texture.put()));

        desc.Usage = D3D11_USAGE_STAGING;
        desc.BindFlags = 0;
        desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
        NPT_CHECK_HR(sc.device->CreateTexture2D(&desc, nullptr, m_readback.put()));

        desc.Width = desc.Height = UploadSize;
        desc.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
        NPT_CHECK_HR(sc.device->CreateTexture2D(&desc, nullptr, m_upload.put()));

        D3D11_BUFFER_DESC bufferDesc = { BufferSize, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
        std::vector<uint8_t> zeros(BufferSize, 0);
        D3D11_SUBRESOURCE_DATA zeroData = { zeros.data(), 0, 0 };
        NPT_CHECK_HR(sc.device->CreateBuffer(&bufferDesc, &zeroData, m_buffer.put()));
        NPT_CHECK_HR(sc.device->CreateBuffer(&bufferDesc, &zeroData, m_bufferCopy.put()));
        bufferDesc.Usage = D3D11_USAGE_STAGING;
        bufferDesc.BindFlags = 0;
        bufferDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
        NPT_CHECK_HR(sc.device->CreateBuffer(&bufferDesc, nullptr, m_bufferReadback.put()));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        NPT_CHECK_STATUS(updateTexture(sc, frame));
        NPT_CHECK_STATUS(verifyTexture(sc));
        NPT_CHECK_STATUS(fillUpload(sc, frame));
        NPT_CHECK_STATUS(exerciseBuffers(sc, frame));

        sc.context->ClearRenderTargetView(sc.targetView, ClearColour);
        sc.context->CopySubresourceRegion(sc.target, 0, 0, 0, 0, m_texture.get(), 0, nullptr);
        sc.context->CopySubresourceRegion(sc.target, 0, sc.width - UploadSize, 0, 0, m_upload.get(), 0, nullptr);

        uint32_t bx, by;
        boxOrigin(frame, bx, by);
        D3D11_BOX box = { bx, by, 0, bx + BoxSize, by + BoxSize, 1 };
        sc.context->CopySubresourceRegion(sc.target, 0, sc.width - BoxSize, sc.height - BoxSize, 0,
          m_texture.get(), 0, &box);
        return Status::ok();
      }

      void check(const SampleContext& sc, uint32_t frame, FrameCheck& check) override {
        check.expect(m_textureMismatch.empty(), "staging readback of texture A: " + m_textureMismatch);
        check.expect(m_bufferMismatch.empty(), "staging readback of the copied buffer: " + m_bufferMismatch);

        // Transfers are exact: tolerance 0 everywhere.
        for (uint32_t y = 0; y < TexSize; y += 5)
          for (uint32_t x = 0; x < TexSize; x += 5)
            check.expectPixelXY(x, y, m_model[y * TexSize + x], 0, "texture A copied to (0,0)");
        for (uint32_t y = 0; y < UploadSize; y += 3)
          for (uint32_t x = 0; x < UploadSize; x += 3)
            check.expectPixelXY(sc.width - UploadSize + x, y, uploadTexel(x, y, frame), 0, "WRITE staging texture copied to the top-right");
        for (uint32_t y = 0; y < BoxSize; y++)
          for (uint32_t x = 0; x < BoxSize; x++)
            check.expectPixelXY(sc.width - BoxSize + x, sc.height - BoxSize + y, boxTexel(x, y, frame), 0,
              "this frame's UpdateSubresource box copied to the bottom-right");
        check.expectPixelXY(sc.width / 2 + 4, sc.height - 4, { 128, 128, 128, 255 }, 0, "clear colour between the copies");
      }

    private:
      Status updateTexture(SampleContext& sc, uint32_t frame) {
        uint32_t bx, by;
        boxOrigin(frame, bx, by);
        std::vector<Rgba8> texels(BoxSize * BoxSize);
        for (uint32_t y = 0; y < BoxSize; y++) {
          for (uint32_t x = 0; x < BoxSize; x++) {
            texels[y * BoxSize + x] = boxTexel(x, y, frame);
            m_model[(by + y) * TexSize + bx + x] = boxTexel(x, y, frame);
          }
        }
        D3D11_BOX box = { bx, by, 0, bx + BoxSize, by + BoxSize, 1 };
        sc.context->UpdateSubresource(m_texture.get(), 0, &box, texels.data(), BoxSize * 4, 0);
        return Status::ok();
      }

      Status verifyTexture(SampleContext& sc) {
        sc.context->CopyResource(m_readback.get(), m_texture.get());
        D3D11_MAPPED_SUBRESOURCE mapped = {};
        NPT_CHECK_HR(sc.context->Map(m_readback.get(), 0, D3D11_MAP_READ, 0, &mapped));
        m_textureMismatch.clear();
        for (uint32_t y = 0; y < TexSize && m_textureMismatch.empty(); y++) {
          const uint8_t* row = static_cast<const uint8_t*>(mapped.pData) + size_t(y) * mapped.RowPitch;
          if (std::memcmp(row, &m_model[y * TexSize], TexSize * 4) != 0)
            m_textureMismatch = "row " + std::to_string(y) + " differs from the CPU model";
        }
        sc.context->Unmap(m_readback.get(), 0);
        return Status::ok();
      }

      Status fillUpload(SampleContext& sc, uint32_t frame) {
        D3D11_MAPPED_SUBRESOURCE mapped = {};
        NPT_CHECK_HR(sc.context->Map(m_upload.get(), 0, D3D11_MAP_WRITE, 0, &mapped));
        for (uint32_t y = 0; y < UploadSize; y++) {
          Rgba8* row = reinterpret_cast<Rgba8*>(static_cast<uint8_t*>(mapped.pData) + size_t(y) * mapped.RowPitch);
          for (uint32_t x = 0; x < UploadSize; x++)
            row[x] = uploadTexel(x, y, frame);
        }
        sc.context->Unmap(m_upload.get(), 0);
        return Status::ok();
      }

      Status exerciseBuffers(SampleContext& sc, uint32_t frame) {
        // Boxed update of bytes [16, 80), then copy [0, 96) to offset 128 of the second buffer.
        uint8_t bytes[64];
        for (uint32_t i = 0; i < sizeof(bytes); i++)
          bytes[i] = bufferByte(i, frame);
        D3D11_BOX update = { 16, 0, 0, 16 + sizeof(bytes), 1, 1 };
        sc.context->UpdateSubresource(m_buffer.get(), 0, &update, bytes, 0, 0);
        D3D11_BOX copy = { 0, 0, 0, 96, 1, 1 };
        sc.context->CopySubresourceRegion(m_bufferCopy.get(), 0, 128, 0, 0, m_buffer.get(), 0, &copy);
        sc.context->CopyResource(m_bufferReadback.get(), m_bufferCopy.get());

        D3D11_MAPPED_SUBRESOURCE mapped = {};
        NPT_CHECK_HR(sc.context->Map(m_bufferReadback.get(), 0, D3D11_MAP_READ, 0, &mapped));
        const uint8_t* data = static_cast<const uint8_t*>(mapped.pData);
        m_bufferMismatch.clear();
        for (uint32_t i = 0; i < BufferSize && m_bufferMismatch.empty(); i++) {
          // Expected layout of the copy: zeros, [144, 208) this frame's bytes, zeros.
          uint8_t expected = (i >= 144 && i < 208) ? bufferByte(i - 144, frame) : 0;
          if (data[i] != expected) {
            char text[96];
            std::snprintf(text, sizeof(text), "byte %u is %u, expected %u", i, data[i], expected);
            m_bufferMismatch = text;
          }
        }
        sc.context->Unmap(m_bufferReadback.get(), 0);
        return Status::ok();
      }

      std::vector<Rgba8>      m_model;
      std::string             m_textureMismatch, m_bufferMismatch;
      ComPtr<ID3D11Texture2D> m_texture, m_readback, m_upload;
      ComPtr<ID3D11Buffer>    m_buffer, m_bufferCopy, m_bufferReadback;
    };

  }

}

int main(int argc, char** argv) {
  npt::samples::CopySample sample;
  return npt::samples::runSample(sample, argc, argv);
}
