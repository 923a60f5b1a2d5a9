// SPDX-License-Identifier: MIT
// The harness plays the D3D11 runtime in front of the Triton DLL and draws a triangle
// with corpus shaders (stripped to tokens + name-less signature entries); the pixels
// must equal the same triangle drawn directly through Wine's d3d11.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include <cstring>

#include "driver_test_support.h"

namespace triton::test {
namespace {

// vs_4_0: POSITION -> SV_POSITION pass-through.
constexpr const char* kVertexShader = "vkd3d/vkd3d_0009_44272e4b5582.dxbc";
// ps_5_0: SV_Target = cb0[0].
constexpr const char* kPixelShaderConstant = "vkd3d/vkd3d_0004_5463946b1053.dxbc";
// ps_4_0: SV_Target = SV_Position (a different value per pixel).
constexpr const char* kPixelShaderPosition = "vkd3d/vkd3d_0010_97e840d6425b.dxbc";

constexpr UINT kSize = 64;
constexpr float kClearColor[4] = {0.1f, 0.2f, 0.3f, 1.0f};
constexpr float kConstantColor[4] = {0.25f, 0.5f, 0.75f, 1.0f};
// Clockwise in screen space: the default rasterizer state keeps it.
constexpr float kVertices[] = {-0.5f, -0.5f, 0.5f, 1.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.5f, -0.5f, 0.5f, 1.0f};
constexpr UINT kStride = 16;

struct Scene {
  const char* name;
  DXGI_FORMAT format;
  UINT bytesPerPixel;
  const char* pixelShader;
};

const Scene kScenes[] = {
    {"ConstantColorRgba8", DXGI_FORMAT_R8G8B8A8_UNORM, 4, kPixelShaderConstant},
    {"PositionRgba32f", DXGI_FORMAT_R32G32B32A32_FLOAT, 16, kPixelShaderPosition},
};

struct DrawCase {
  const InterfaceVersion* version;
  const Scene* scene;
  bool dropEntries;
};

std::string caseName(const ::testing::TestParamInfo<DrawCase>& info) {
  return std::string(info.param.version->name) + "_" + info.param.scene->name +
         (info.param.dropEntries ? "_EntriesDropped" : "");
}

D3D11_TEXTURE2D_DESC targetDesc(DXGI_FORMAT format) {
  return D3D11_TEXTURE2D_DESC{kSize, kSize, 1, 1, format, {1, 0}, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, 0};
}

D3D11_TEXTURE2D_DESC stagingDesc(DXGI_FORMAT format) {
  return D3D11_TEXTURE2D_DESC{kSize, kSize, 1, 1, format, {1, 0}, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0};
}

std::vector<uint8_t> packRows(const void* data, UINT rowPitch, UINT bytesPerPixel) {
  std::vector<uint8_t> out(kSize * kSize * bytesPerPixel);
  for (UINT y = 0; y < kSize; ++y)
    std::memcpy(out.data() + y * kSize * bytesPerPixel, static_cast<const uint8_t*>(data) + y * rowPitch,
                kSize * bytesPerPixel);
  return out;
}

const D3D11_INPUT_ELEMENT_DESC kLayout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0}};

// The same scene through the API, on the system d3d11.
std::vector<uint8_t> drawDirect(const Scene& scene, const std::vector<uint8_t>& vs, const std::vector<uint8_t>& ps) {
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  EXPECT_EQ(createReferenceDevice(device, context), S_OK);
  ComPtr<ID3D11Texture2D> target, staging;
  ComPtr<ID3D11RenderTargetView> rtv;
  const D3D11_TEXTURE2D_DESC td = targetDesc(scene.format), sd = stagingDesc(scene.format);
  EXPECT_EQ(device->CreateTexture2D(&td, nullptr, &target), S_OK);
  EXPECT_EQ(device->CreateTexture2D(&sd, nullptr, &staging), S_OK);
  EXPECT_EQ(device->CreateRenderTargetView(target.Get(), nullptr, &rtv), S_OK);
  ComPtr<ID3D11Buffer> vb, cb;
  const D3D11_BUFFER_DESC vbd{sizeof(kVertices), D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA vbData{kVertices, 0, 0};
  const D3D11_BUFFER_DESC cbd{16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA cbData{kConstantColor, 0, 0};
  EXPECT_EQ(device->CreateBuffer(&vbd, &vbData, &vb), S_OK);
  EXPECT_EQ(device->CreateBuffer(&cbd, &cbData, &cb), S_OK);
  ComPtr<ID3D11VertexShader> vertexShader;
  ComPtr<ID3D11PixelShader> pixelShader;
  ComPtr<ID3D11InputLayout> layout;
  EXPECT_EQ(device->CreateVertexShader(vs.data(), vs.size(), nullptr, &vertexShader), S_OK);
  EXPECT_EQ(device->CreatePixelShader(ps.data(), ps.size(), nullptr, &pixelShader), S_OK);
  EXPECT_EQ(device->CreateInputLayout(kLayout, 1, vs.data(), vs.size(), &layout), S_OK);

  context->ClearRenderTargetView(rtv.Get(), kClearColor);
  context->IASetInputLayout(layout.Get());
  const UINT stride = kStride, offset = 0;
  context->IASetVertexBuffers(0, 1, vb.GetAddressOf(), &stride, &offset);
  context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  context->VSSetShader(vertexShader.Get(), nullptr, 0);
  context->PSSetShader(pixelShader.Get(), nullptr, 0);
  context->PSSetConstantBuffers(0, 1, cb.GetAddressOf());
  const D3D11_VIEWPORT viewport{0, 0, float(kSize), float(kSize), 0, 1};
  context->RSSetViewports(1, &viewport);
  context->OMSetRenderTargets(1, rtv.GetAddressOf(), nullptr);
  context->Draw(3, 0);
  context->CopyResource(staging.Get(), target.Get());
  D3D11_MAPPED_SUBRESOURCE mapped{};
  EXPECT_EQ(context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  std::vector<uint8_t> pixels = packRows(mapped.pData, mapped.RowPitch, scene.bytesPerPixel);
  context->Unmap(staging.Get(), 0);
  return pixels;
}

class DriverDraw : public DriverTest, public ::testing::WithParamInterface<DrawCase> {};

TEST_P(DriverDraw, TriangleMatchesDirectD3D11) {
  const DrawCase& c = GetParam();
  const std::vector<uint8_t> vsContainer = readCorpusFile(kVertexShader);
  const std::vector<uint8_t> psContainer = readCorpusFile(c.scene->pixelShader);
  if (vsContainer.empty() || psContainer.empty())
    GTEST_SKIP() << "DXBC corpus not found";

  harness::Device device;
  ASSERT_EQ(device.create(adapter, c.version->interfaceVersion, c.version->version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();

  harness::Resource target = device.createTexture2D(targetDesc(c.scene->format));
  harness::Resource staging = device.createTexture2D(stagingDesc(c.scene->format));
  harness::RenderTargetView rtv = device.createRenderTargetView(target, c.scene->format);
  const D3D11_BUFFER_DESC vbd{sizeof(kVertices), D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA vbData{kVertices, 0, 0};
  harness::Resource vb = device.createBuffer(vbd, &vbData);
  // A dynamic constant buffer written through the runtime's discard-map entry.
  const D3D11_BUFFER_DESC cbd{16, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  harness::Resource cb = device.createBuffer(cbd);
  ASSERT_TRUE(target && staging && rtv && vb && cb);
  ASSERT_EQ(device.takeError(), S_OK);

  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  TRITON_DDI(device, pfnDynamicConstantBufferMapDiscard)(h, cb.handle, 0, ddi::D3D10_DDI_MAP_WRITE_DISCARD, 0, &mapped);
  ASSERT_EQ(device.takeError(), S_OK);
  ASSERT_NE(mapped.pData, nullptr);
  std::memcpy(mapped.pData, kConstantColor, sizeof(kConstantColor));
  TRITON_DDI(device, pfnDynamicConstantBufferUnmap)(h, cb.handle, 0);

  harness::StrippedShader vs, ps;
  ASSERT_TRUE(harness::stripShader(vsContainer, vs));
  ASSERT_TRUE(harness::stripShader(psContainer, ps));
  vs.dropEntries = ps.dropEntries = c.dropEntries;
  harness::Shader vertexShader = device.createShader(harness::ShaderStage::Vertex, vs);
  harness::Shader pixelShader = device.createShader(harness::ShaderStage::Pixel, ps);
  harness::ElementLayout layout = device.createElementLayout(kLayout, vsContainer);
  ASSERT_TRUE(vertexShader && pixelShader && layout);
  ASSERT_EQ(device.takeError(), S_OK);

  float clear[4] = {kClearColor[0], kClearColor[1], kClearColor[2], kClearColor[3]};
  TRITON_DDI(device, pfnClearRenderTargetView)(h, rtv.handle, clear);
  TRITON_DDI(device, pfnIaSetInputLayout)(h, layout.handle);
  const UINT stride = kStride, offset = 0;
  TRITON_DDI(device, pfnIaSetVertexBuffers)(h, 0, 1, &vb.handle, &stride, &offset);
  TRITON_DDI(device, pfnIaSetTopology)(h, ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  TRITON_DDI(device, pfnVsSetShader)(h, vertexShader.handle);
  TRITON_DDI(device, pfnPsSetShader)(h, pixelShader.handle);
  device.setConstantBuffers(harness::ShaderStage::Pixel, 0, std::span(&cb.handle, 1));
  const ddi::D3D10_DDI_VIEWPORT viewport{0, 0, float(kSize), float(kSize), 0, 1};
  TRITON_DDI(device, pfnSetViewports)(h, 1, 0, &viewport);
  TRITON_DDI(device, pfnSetRenderTargets)(h, &rtv.handle, 1, 0, ddi::D3D10DDI_HDEPTHSTENCILVIEW{}, nullptr, nullptr,
                                          0, 0, 0, 0);
  TRITON_DDI(device, pfnDraw)(h, 3, 0);
  TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, target.handle);
  TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  ASSERT_EQ(device.takeError(), S_OK);
  const std::vector<uint8_t> viaTriton = packRows(mapped.pData, mapped.RowPitch, c.scene->bytesPerPixel);
  TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);

  // The direct rendering depends on the scene alone: drawn once per scene (a reference
  // device costs seconds under Wine), compared by every interface version's case.
  static std::map<const Scene*, std::vector<uint8_t>> directByScene;
  if (!directByScene.count(c.scene))
    directByScene[c.scene] = drawDirect(*c.scene, vsContainer, psContainer);
  const std::vector<uint8_t>& direct = directByScene[c.scene];
  ASSERT_EQ(viaTriton.size(), direct.size());
  EXPECT_TRUE(viaTriton == direct) << "pixels differ from the direct D3D11 rendering";
  // The WDDM 2.x tables (their retyped view, query, rasterizer and flush members) draw
  // exactly what the WDDM 1.3 table drew for the same scene (drawCases runs 1.3 first).
  static std::map<std::string, std::vector<uint8_t>> viaWddm1_3;
  const std::string scene = std::string(c.scene->name) + (c.dropEntries ? "_EntriesDropped" : "");
  if (c.version == &kWddm1_3)
    viaWddm1_3[scene] = viaTriton;
  if (c.version == &kWddm2_0 || c.version == &kWddm2_1) {
    ASSERT_EQ(viaWddm1_3.count(scene), 1u) << "the WDDM 1.3 case runs first";
    EXPECT_TRUE(viaTriton == viaWddm1_3[scene]) << "pixels differ from the WDDM 1.3 table's";
  }

  // Not a trivially equal pair: the corner keeps the clear color, the centre is drawn.
  const UINT bpp = c.scene->bytesPerPixel;
  const uint8_t* centre = viaTriton.data() + (kSize / 2 * kSize + kSize / 2) * bpp;
  if (c.scene->format == DXGI_FORMAT_R8G8B8A8_UNORM) {
    EXPECT_EQ(viaTriton[0], 26);     // 0.1 * 255
    EXPECT_EQ(centre[0], 64);        // 0.25 * 255, rounded
    EXPECT_EQ(centre[1], 128);
    EXPECT_EQ(centre[2], 191);
    EXPECT_EQ(centre[3], 255);
  } else {
    float corner[4], centreValue[4];
    std::memcpy(corner, viaTriton.data(), 16);
    std::memcpy(centreValue, centre, 16);
    EXPECT_FLOAT_EQ(corner[0], kClearColor[0]);
    EXPECT_FLOAT_EQ(centreValue[0], kSize / 2 + 0.5f);   // SV_Position is the pixel centre
    EXPECT_FLOAT_EQ(centreValue[1], kSize / 2 + 0.5f);
  }

  device.destroy(layout);
  device.destroy(pixelShader);
  device.destroy(vertexShader);
  device.destroy(rtv);
  for (harness::Resource* r : {&cb, &vb, &staging, &target})
    device.destroyResource(*r);
  EXPECT_EQ(device.errorCount(), 0u);
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0) << "the driver called a kernel-thunk or DXGI callback";
}

std::vector<DrawCase> drawCases() {
  std::vector<DrawCase> cases;
  for (const InterfaceVersion* v : {&kD3D11_0, &kD3D11_1, &kWddm1_3, &kWddm2_0, &kWddm2_1})
    for (const Scene& s : kScenes)
      for (bool drop : {false, true})
        cases.push_back({v, &s, drop});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverDraw, ::testing::ValuesIn(drawCases()), caseName);

}  // namespace
}  // namespace triton::test
