// SPDX-License-Identifier: MIT
// Proves the Windows test layer: a D3D11 device on the system d3d11.dll (Wine's
// wined3d under Wine) draws a triangle offscreen, and the readback has the
// triangle's colour inside it and the clear colour outside it.
#include <d3d11.h>
#include <d3dcompiler.h>
#include <gtest/gtest.h>
#include <wrl/client.h>

#include <cstring>

using Microsoft::WRL::ComPtr;

namespace {

constexpr UINT kSize = 64;

constexpr char kShaderSource[] = R"(
struct VsOut { float4 position : SV_Position; float4 color : COLOR; };
VsOut vs_main(uint id : SV_VertexID) {
  // The lower-left half of the viewport; the hypotenuse is moved by half a pixel
  // (1/64 in clip space at 64x64) so that no pixel centre lies on an edge.
  const float e = 1.0 / 64.0;
  VsOut o;
  // Wine 8's HLSL compiler has no ternary operator; select with arithmetic.
  float2 select = float2(float(id == 2), float(id == 1));
  o.position = float4(-1.0 + select * (2.0 + e), 0.0, 1.0);
  o.color = float4(0.0, 1.0, 0.0, 1.0);
  return o;
}
float4 ps_main(VsOut i) : SV_Target { return i.color; }
)";

ComPtr<ID3DBlob> compile(const char* entry, const char* profile) {
  ComPtr<ID3DBlob> code, errors;
  HRESULT hr = D3DCompile(kShaderSource, sizeof(kShaderSource) - 1, "triangle.hlsl", nullptr,
                          nullptr, entry, profile, 0, 0, &code, &errors);
  EXPECT_EQ(hr, S_OK) << (errors ? static_cast<const char*>(errors->GetBufferPointer()) : "");
  return code;
}

class D3D11Triangle : public ::testing::Test {
 protected:
  void SetUp() override {
    D3D_FEATURE_LEVEL level{};
    HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                                   D3D11_SDK_VERSION, &device, &level, &context);
    ASSERT_EQ(hr, S_OK);
    ASSERT_GE(level, D3D_FEATURE_LEVEL_10_0);
  }

  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
};

TEST_F(D3D11Triangle, DrawsOffscreenAndReadsBackExpectedPixels) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = desc.Height = kSize;
  desc.MipLevels = desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = D3D11_USAGE_DEFAULT;
  desc.BindFlags = D3D11_BIND_RENDER_TARGET;
  ComPtr<ID3D11Texture2D> target;
  ASSERT_EQ(device->CreateTexture2D(&desc, nullptr, &target), S_OK);
  ComPtr<ID3D11RenderTargetView> rtv;
  ASSERT_EQ(device->CreateRenderTargetView(target.Get(), nullptr, &rtv), S_OK);

  auto vs_code = compile("vs_main", "vs_4_0");
  auto ps_code = compile("ps_main", "ps_4_0");
  ASSERT_TRUE(vs_code && ps_code);
  ComPtr<ID3D11VertexShader> vs;
  ComPtr<ID3D11PixelShader> ps;
  ASSERT_EQ(device->CreateVertexShader(vs_code->GetBufferPointer(), vs_code->GetBufferSize(),
                                       nullptr, &vs), S_OK);
  ASSERT_EQ(device->CreatePixelShader(ps_code->GetBufferPointer(), ps_code->GetBufferSize(),
                                      nullptr, &ps), S_OK);

  const float clear[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  context->ClearRenderTargetView(rtv.Get(), clear);
  context->OMSetRenderTargets(1, rtv.GetAddressOf(), nullptr);
  D3D11_VIEWPORT viewport{0, 0, float(kSize), float(kSize), 0, 1};
  context->RSSetViewports(1, &viewport);
  context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  context->VSSetShader(vs.Get(), nullptr, 0);
  context->PSSetShader(ps.Get(), nullptr, 0);
  context->Draw(3, 0);

  desc.Usage = D3D11_USAGE_STAGING;
  desc.BindFlags = 0;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  ComPtr<ID3D11Texture2D> staging;
  ASSERT_EQ(device->CreateTexture2D(&desc, nullptr, &staging), S_OK);
  context->CopyResource(staging.Get(), target.Get());
  D3D11_MAPPED_SUBRESOURCE mapped{};
  ASSERT_EQ(context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  auto pixel = [&](UINT x, UINT y) {
    uint32_t value;
    std::memcpy(&value, static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch + x * 4, 4);
    return value;
  };
  // Covered: pixels with x <= y (row 0 at the top). RGBA8 read as little-endian: 0xAABBGGRR.
  constexpr uint32_t kGreen = 0xff00ff00, kRed = 0xff0000ff;
  EXPECT_EQ(pixel(0, kSize - 1), kGreen);
  EXPECT_EQ(pixel(8, kSize - 8), kGreen);
  EXPECT_EQ(pixel(kSize - 1, 0), kRed);
  EXPECT_EQ(pixel(kSize - 4, kSize - 8), kRed);
  EXPECT_EQ(pixel(20, 20), kGreen);
  EXPECT_EQ(pixel(21, 20), kRed);
  size_t green = 0, red = 0;
  for (UINT y = 0; y < kSize; ++y)
    for (UINT x = 0; x < kSize; ++x) {
      uint32_t p = pixel(x, y);
      green += p == kGreen;
      red += p == kRed;
    }
  context->Unmap(staging.Get(), 0);
  EXPECT_EQ(green + red, size_t(kSize) * kSize) << "only the two colours may appear";
  EXPECT_EQ(green, size_t(kSize) * (kSize + 1) / 2);
}

}  // namespace
