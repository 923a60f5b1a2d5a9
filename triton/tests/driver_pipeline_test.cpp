// SPDX-License-Identifier: MIT
// More of the pipeline through the DDI, each scene compared with the same scene drawn
// directly on the system d3d11: a sampled texture (SRV, sampler, initial data), a
// compute shader writing a UAV, and depth testing with an occlusion query.

#include <gtest/gtest.h>

#include <cstring>

#include "driver_test_support.h"

namespace triton::test {
namespace {

constexpr const char* kVertexShader = "vkd3d/vkd3d_0009_44272e4b5582.dxbc";          // POSITION -> SV_POSITION
constexpr const char* kPixelShaderConstant = "vkd3d/vkd3d_0004_5463946b1053.dxbc";   // cb0[0]
constexpr const char* kPixelShaderSample = "vkd3d/vkd3d_0185_5eb85925c424.dxbc";     // t0.Sample(s0, pos / (640, 480))
constexpr const char* kComputeShader = "vkd3d/vkd3d_0206_34fed16759d7.dxbc";         // u0[tid.xy] = cb0[0].x, 4x4 groups
constexpr const char* kGeometryShaderStreamOut = "vkd3d/vkd3d_0231_6ae63b211c50.dxbc";  // point -> one constant triangle

constexpr UINT kSize = 64;
const D3D11_INPUT_ELEMENT_DESC kLayout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0}};

// A triangle covering the whole viewport, and two overlapping ones at different depths.
constexpr float kFullScreen[] = {-1, -1, 0.5f, 1, -1, 3, 0.5f, 1, 3, -1, 0.5f, 1};
constexpr float kNear[] = {-0.8f, -0.8f, 0.3f, 1, -0.2f, 0.6f, 0.3f, 1, 0.4f, -0.8f, 0.3f, 1};
constexpr float kFar[] = {-0.4f, -0.6f, 0.7f, 1, 0.2f, 0.8f, 0.7f, 1, 0.8f, -0.6f, 0.7f, 1};
constexpr float kRed[4] = {1, 0, 0, 1};
constexpr float kGreen[4] = {0, 1, 0, 1};

// 64x64 RGBA8 texels, all different (the shader samples the top-left tenth of it).
constexpr UINT kTextureSize = 64;
std::vector<uint32_t> textureTexels() {
  std::vector<uint32_t> texels(kTextureSize * kTextureSize);
  for (UINT y = 0; y < kTextureSize; ++y)
    for (UINT x = 0; x < kTextureSize; ++x)
      texels[y * kTextureSize + x] = 0xff000000u | (x * 4u) << 16 | (y * 4u) << 8 | ((x + y) * 2u);
  return texels;
}

std::vector<uint8_t> packRows(const void* data, UINT rowPitch, UINT width, UINT height, UINT bytesPerPixel) {
  std::vector<uint8_t> out(width * height * bytesPerPixel);
  for (UINT y = 0; y < height; ++y)
    std::memcpy(out.data() + y * width * bytesPerPixel, static_cast<const uint8_t*>(data) + y * rowPitch,
                width * bytesPerPixel);
  return out;
}

D3D11_TEXTURE2D_DESC texture2D(UINT size, DXGI_FORMAT format, D3D11_USAGE usage, UINT bind, UINT cpu) {
  return D3D11_TEXTURE2D_DESC{size, size, 1, 1, format, {1, 0}, usage, bind, cpu, 0};
}

const D3D11_SAMPLER_DESC kLinearClamp{D3D11_FILTER_MIN_MAG_MIP_LINEAR, D3D11_TEXTURE_ADDRESS_CLAMP,
                                      D3D11_TEXTURE_ADDRESS_CLAMP, D3D11_TEXTURE_ADDRESS_CLAMP, 0, 1,
                                      D3D11_COMPARISON_NEVER, {0, 0, 0, 0}, 0, D3D11_FLOAT32_MAX};
const D3D11_DEPTH_STENCIL_DESC kDepthLess{TRUE, D3D11_DEPTH_WRITE_MASK_ALL, D3D11_COMPARISON_LESS, FALSE, 0xff, 0xff,
                                          {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS},
                                          {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS}};

// Reference side --------------------------------------------------------------------

struct Direct {
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  Direct() { EXPECT_EQ(createReferenceDeviceAt(D3D_FEATURE_LEVEL_11_0, device, context), S_OK); }

  ComPtr<ID3D11Buffer> buffer(UINT size, UINT bind, const void* data) {
    ComPtr<ID3D11Buffer> b;
    const D3D11_BUFFER_DESC desc{size, D3D11_USAGE_DEFAULT, bind, 0, 0, 0};
    const D3D11_SUBRESOURCE_DATA init{data, 0, 0};
    EXPECT_EQ(device->CreateBuffer(&desc, data ? &init : nullptr, &b), S_OK);
    return b;
  }
  std::vector<uint8_t> readback(ID3D11Texture2D* texture, UINT size, DXGI_FORMAT format, UINT bpp) {
    ComPtr<ID3D11Texture2D> staging;
    const D3D11_TEXTURE2D_DESC desc = texture2D(size, format, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
    EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &staging), S_OK);
    context->CopyResource(staging.Get(), texture);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    EXPECT_EQ(context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
    std::vector<uint8_t> out = packRows(mapped.pData, mapped.RowPitch, size, size, bpp);
    context->Unmap(staging.Get(), 0);
    return out;
  }
  void bindGeometry(const std::vector<uint8_t>& vs, ID3D11Buffer* vb, ComPtr<ID3D11InputLayout>& layout,
                    ComPtr<ID3D11VertexShader>& shader) {
    EXPECT_EQ(device->CreateVertexShader(vs.data(), vs.size(), nullptr, &shader), S_OK);
    EXPECT_EQ(device->CreateInputLayout(kLayout, 1, vs.data(), vs.size(), &layout), S_OK);
    const UINT stride = 16, offset = 0;
    context->IASetInputLayout(layout.Get());
    context->IASetVertexBuffers(0, 1, &vb, &stride, &offset);
    context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    context->VSSetShader(shader.Get(), nullptr, 0);
    const D3D11_VIEWPORT viewport{0, 0, float(kSize), float(kSize), 0, 1};
    context->RSSetViewports(1, &viewport);
  }
};

// Triton side -----------------------------------------------------------------------

class DriverPipeline : public DriverTest, public ::testing::WithParamInterface<const InterfaceVersion*> {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    vsContainer = readCorpusFile(kVertexShader);
    if (vsContainer.empty())
      GTEST_SKIP() << "DXBC corpus not found";
    ASSERT_EQ(device.create(adapter, GetParam()->interfaceVersion, GetParam()->version,
                            ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
              S_OK);
    h = device.handle();
  }

  harness::Shader shader(harness::ShaderStage stage, const std::vector<uint8_t>& container) {
    harness::StrippedShader stripped;
    EXPECT_TRUE(harness::stripShader(container, stripped));
    return device.createShader(stage, stripped);
  }
  harness::Resource buffer(UINT size, UINT bind, const void* data) {
    const D3D11_BUFFER_DESC desc{size, D3D11_USAGE_DEFAULT, bind, 0, 0, 0};
    const D3D11_SUBRESOURCE_DATA init{data, 0, 0};
    return device.createBuffer(desc, data ? &init : nullptr);
  }
  std::vector<uint8_t> readback(const harness::Resource& texture, UINT size, DXGI_FORMAT format, UINT bpp) {
    harness::Resource staging =
        device.createTexture2D(texture2D(size, format, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ));
    TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, texture.handle);
    ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
    TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
    EXPECT_EQ(device.takeError(), S_OK);
    std::vector<uint8_t> out;
    if (mapped.pData)
      out = packRows(mapped.pData, mapped.RowPitch, size, size, bpp);
    TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);
    device.destroyResource(staging);
    return out;
  }
  void bindGeometry(const harness::Resource& vb, harness::ElementLayout& layout, harness::Shader& vs) {
    vs = shader(harness::ShaderStage::Vertex, vsContainer);
    layout = device.createElementLayout(kLayout, vsContainer);
    const UINT stride = 16, offset = 0;
    TRITON_DDI(device, pfnIaSetInputLayout)(h, layout.handle);
    TRITON_DDI(device, pfnIaSetVertexBuffers)(h, 0, 1, &vb.handle, &stride, &offset);
    TRITON_DDI(device, pfnIaSetTopology)(h, ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    TRITON_DDI(device, pfnVsSetShader)(h, vs.handle);
    const ddi::D3D10_DDI_VIEWPORT viewport{0, 0, float(kSize), float(kSize), 0, 1};
    TRITON_DDI(device, pfnSetViewports)(h, 1, 0, &viewport);
  }

  std::vector<uint8_t> vsContainer;
  harness::Device device;
  ddi::D3D10DDI_HDEVICE h{};
};

TEST_P(DriverPipeline, SampledTexture) {
  const std::vector<uint8_t> psContainer = readCorpusFile(kPixelShaderSample);
  const std::vector<uint32_t> texels = textureTexels();
  const D3D11_SUBRESOURCE_DATA texelData{texels.data(), kTextureSize * 4, 0};
  const D3D11_TEXTURE2D_DESC textureDesc =
      texture2D(kTextureSize, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_IMMUTABLE, D3D11_BIND_SHADER_RESOURCE, 0);
  const D3D11_TEXTURE2D_DESC targetDesc =
      texture2D(kSize, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);

  // Through Triton.
  harness::Resource texture = device.createTexture2D(textureDesc, &texelData);
  harness::ShaderResourceView srv = device.createShaderResourceView(texture, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::SamplerState sampler = device.createSampler(kLinearClamp);
  harness::Resource target = device.createTexture2D(targetDesc);
  harness::RenderTargetView rtv = device.createRenderTargetView(target, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource vb = buffer(sizeof(kFullScreen), D3D11_BIND_VERTEX_BUFFER, kFullScreen);
  harness::ElementLayout layout;
  harness::Shader vs;
  bindGeometry(vb, layout, vs);
  harness::Shader ps = shader(harness::ShaderStage::Pixel, psContainer);
  ASSERT_TRUE(texture && srv && sampler && target && rtv && vb && layout && vs && ps);
  ASSERT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnPsSetShader)(h, ps.handle);
  TRITON_DDI(device, pfnPsSetShaderResources)(h, 0, 1, &srv.handle);
  TRITON_DDI(device, pfnPsSetSamplers)(h, 0, 1, &sampler.handle);
  TRITON_DDI(device, pfnSetRenderTargets)(h, &rtv.handle, 1, 0, ddi::D3D10DDI_HDEPTHSTENCILVIEW{}, nullptr, nullptr,
                                          0, 0, 0, 0);
  TRITON_DDI(device, pfnDraw)(h, 3, 0);
  const std::vector<uint8_t> viaTriton = readback(target, kSize, DXGI_FORMAT_R8G8B8A8_UNORM, 4);
  EXPECT_EQ(device.takeError(), S_OK);

  // Directly.
  Direct direct;
  ComPtr<ID3D11Texture2D> dTexture, dTarget;
  ComPtr<ID3D11ShaderResourceView> dSrv;
  ComPtr<ID3D11SamplerState> dSampler;
  ComPtr<ID3D11RenderTargetView> dRtv;
  ComPtr<ID3D11PixelShader> dPs;
  ASSERT_EQ(direct.device->CreateTexture2D(&textureDesc, &texelData, &dTexture), S_OK);
  ASSERT_EQ(direct.device->CreateShaderResourceView(dTexture.Get(), nullptr, &dSrv), S_OK);
  ASSERT_EQ(direct.device->CreateSamplerState(&kLinearClamp, &dSampler), S_OK);
  ASSERT_EQ(direct.device->CreateTexture2D(&targetDesc, nullptr, &dTarget), S_OK);
  ASSERT_EQ(direct.device->CreateRenderTargetView(dTarget.Get(), nullptr, &dRtv), S_OK);
  ASSERT_EQ(direct.device->CreatePixelShader(psContainer.data(), psContainer.size(), nullptr, &dPs), S_OK);
  ComPtr<ID3D11Buffer> dVb = direct.buffer(sizeof(kFullScreen), D3D11_BIND_VERTEX_BUFFER, kFullScreen);
  ComPtr<ID3D11InputLayout> dLayout;
  ComPtr<ID3D11VertexShader> dVs;
  direct.bindGeometry(vsContainer, dVb.Get(), dLayout, dVs);
  direct.context->PSSetShader(dPs.Get(), nullptr, 0);
  direct.context->PSSetShaderResources(0, 1, dSrv.GetAddressOf());
  direct.context->PSSetSamplers(0, 1, dSampler.GetAddressOf());
  direct.context->OMSetRenderTargets(1, dRtv.GetAddressOf(), nullptr);
  direct.context->Draw(3, 0);
  const std::vector<uint8_t> reference = direct.readback(dTarget.Get(), kSize, DXGI_FORMAT_R8G8B8A8_UNORM, 4);

  EXPECT_TRUE(viaTriton == reference);
  // Linear filtering between different texels: more than a handful of distinct colours.
  std::vector<uint32_t> pixels(kSize * kSize);
  std::memcpy(pixels.data(), viaTriton.data(), std::min(viaTriton.size(), pixels.size() * 4));
  std::sort(pixels.begin(), pixels.end());
  EXPECT_GT(std::unique(pixels.begin(), pixels.end()) - pixels.begin(), 100);

  device.destroy(ps); device.destroy(vs); device.destroy(layout); device.destroy(rtv);
  device.destroy(sampler); device.destroy(srv);
  for (harness::Resource* r : {&vb, &target, &texture})
    device.destroyResource(*r);
  EXPECT_EQ(device.errorCount(), 0u);
}

TEST_P(DriverPipeline, ComputeWritesUnorderedAccessView) {
  const std::vector<uint8_t> csContainer = readCorpusFile(kComputeShader);
  constexpr UINT kTexels = 16;
  const float value[4] = {0.75f, 0, 0, 0};
  const D3D11_TEXTURE2D_DESC desc =
      texture2D(kTexels, DXGI_FORMAT_R32_FLOAT, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0);

  harness::Resource texture = device.createTexture2D(desc);
  harness::UnorderedAccessView uav = device.createUnorderedAccessView(texture, DXGI_FORMAT_R32_FLOAT);
  harness::Resource cb = buffer(16, D3D11_BIND_CONSTANT_BUFFER, value);
  harness::Shader cs = shader(harness::ShaderStage::Compute, csContainer);
  ASSERT_TRUE(texture && uav && cb && cs);
  ASSERT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnCsSetShader)(h, cs.handle);
  TRITON_DDI(device, pfnCsSetUnorderedAccessViews)(h, 0, 1, &uav.handle, nullptr);
  device.setConstantBuffers(harness::ShaderStage::Compute, 0, std::span(&cb.handle, 1));
  TRITON_DDI(device, pfnDispatch)(h, kTexels / 4, kTexels / 4, 1);
  const std::vector<uint8_t> viaTriton = readback(texture, kTexels, DXGI_FORMAT_R32_FLOAT, 4);
  EXPECT_EQ(device.takeError(), S_OK);

  Direct direct;
  ComPtr<ID3D11Texture2D> dTexture;
  ComPtr<ID3D11UnorderedAccessView> dUav;
  ComPtr<ID3D11ComputeShader> dCs;
  ASSERT_EQ(direct.device->CreateTexture2D(&desc, nullptr, &dTexture), S_OK);
  ASSERT_EQ(direct.device->CreateUnorderedAccessView(dTexture.Get(), nullptr, &dUav), S_OK);
  ASSERT_EQ(direct.device->CreateComputeShader(csContainer.data(), csContainer.size(), nullptr, &dCs), S_OK);
  ComPtr<ID3D11Buffer> dCb = direct.buffer(16, D3D11_BIND_CONSTANT_BUFFER, value);
  direct.context->CSSetShader(dCs.Get(), nullptr, 0);
  direct.context->CSSetUnorderedAccessViews(0, 1, dUav.GetAddressOf(), nullptr);
  direct.context->CSSetConstantBuffers(0, 1, dCb.GetAddressOf());
  direct.context->Dispatch(kTexels / 4, kTexels / 4, 1);
  const std::vector<uint8_t> reference = direct.readback(dTexture.Get(), kTexels, DXGI_FORMAT_R32_FLOAT, 4);

  EXPECT_TRUE(viaTriton == reference);
  ASSERT_EQ(viaTriton.size(), kTexels * kTexels * 4);
  for (UINT i = 0; i < kTexels * kTexels; ++i) {
    float texel;
    std::memcpy(&texel, viaTriton.data() + i * 4, 4);
    ASSERT_EQ(texel, 0.75f) << "texel " << i;
  }
  device.destroy(cs); device.destroy(uav);
  device.destroyResource(cb);
  device.destroyResource(texture);
  EXPECT_EQ(device.errorCount(), 0u);
}

TEST_P(DriverPipeline, DepthTestAndOcclusionQuery) {
  const std::vector<uint8_t> psContainer = readCorpusFile(kPixelShaderConstant);
  const D3D11_TEXTURE2D_DESC targetDesc =
      texture2D(kSize, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  const D3D11_TEXTURE2D_DESC depthDesc =
      texture2D(kSize, DXGI_FORMAT_D32_FLOAT, D3D11_USAGE_DEFAULT, D3D11_BIND_DEPTH_STENCIL, 0);
  float vertices[24];
  std::memcpy(vertices, kNear, sizeof(kNear));
  std::memcpy(vertices + 12, kFar, sizeof(kFar));
  const float black[4] = {0, 0, 0, 1};

  // Through Triton: the near triangle first, then the far one, partly hidden.
  harness::Resource target = device.createTexture2D(targetDesc);
  harness::RenderTargetView rtv = device.createRenderTargetView(target, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource depth = device.createTexture2D(depthDesc);
  harness::DepthStencilView dsv = device.createDepthStencilView(depth, DXGI_FORMAT_D32_FLOAT);
  harness::DepthStencilState depthState = device.createDepthStencilState(kDepthLess);
  harness::Resource vb = buffer(sizeof(vertices), D3D11_BIND_VERTEX_BUFFER, vertices);
  harness::Resource cb = buffer(16, D3D11_BIND_CONSTANT_BUFFER, kRed);
  harness::Query occlusion = device.createQuery(ddi::D3D10DDI_QUERY_OCCLUSION);
  harness::ElementLayout layout;
  harness::Shader vs;
  bindGeometry(vb, layout, vs);
  harness::Shader ps = shader(harness::ShaderStage::Pixel, psContainer);
  ASSERT_TRUE(target && rtv && depth && dsv && depthState && vb && cb && occlusion && layout && vs && ps);
  ASSERT_EQ(device.takeError(), S_OK);
  float clear[4] = {black[0], black[1], black[2], black[3]};
  TRITON_DDI(device, pfnClearRenderTargetView)(h, rtv.handle, clear);
  TRITON_DDI(device, pfnClearDepthStencilView)(h, dsv.handle, ddi::D3D10_DDI_CLEAR_DEPTH, 1.0f, 0);
  TRITON_DDI(device, pfnSetDepthStencilState)(h, depthState.handle, 0);
  TRITON_DDI(device, pfnPsSetShader)(h, ps.handle);
  device.setConstantBuffers(harness::ShaderStage::Pixel, 0, std::span(&cb.handle, 1));
  TRITON_DDI(device, pfnSetRenderTargets)(h, &rtv.handle, 1, 0, dsv.handle, nullptr, nullptr, 0, 0, 0, 0);
  TRITON_DDI(device, pfnDraw)(h, 3, 0);
  device.updateSubresourceUP(cb, 0, kGreen, 0, 0);
  TRITON_DDI(device, pfnQueryBegin)(h, occlusion.handle);
  TRITON_DDI(device, pfnDraw)(h, 3, 3);
  TRITON_DDI(device, pfnQueryEnd)(h, occlusion.handle);
  UINT64 samples = 0;
  HRESULT hr = DXGI_DDI_ERR_WASSTILLDRAWING;
  for (int i = 0; i < 5000 && hr == DXGI_DDI_ERR_WASSTILLDRAWING; ++i) {
    TRITON_DDI(device, pfnQueryGetData)(h, occlusion.handle, &samples, sizeof(samples), 0);
    hr = device.takeError();
    if (hr == DXGI_DDI_ERR_WASSTILLDRAWING)
      Sleep(1);
  }
  EXPECT_EQ(hr, S_OK);
  const std::vector<uint8_t> viaTriton = readback(target, kSize, DXGI_FORMAT_R8G8B8A8_UNORM, 4);
  EXPECT_EQ(device.takeError(), S_OK);

  // Directly.
  Direct direct;
  ComPtr<ID3D11Texture2D> dTarget, dDepth;
  ComPtr<ID3D11RenderTargetView> dRtv;
  ComPtr<ID3D11DepthStencilView> dDsv;
  ComPtr<ID3D11DepthStencilState> dDepthState;
  ComPtr<ID3D11PixelShader> dPs;
  ComPtr<ID3D11Query> dOcclusion;
  const D3D11_QUERY_DESC queryDesc{D3D11_QUERY_OCCLUSION, 0};
  ASSERT_EQ(direct.device->CreateTexture2D(&targetDesc, nullptr, &dTarget), S_OK);
  ASSERT_EQ(direct.device->CreateRenderTargetView(dTarget.Get(), nullptr, &dRtv), S_OK);
  ASSERT_EQ(direct.device->CreateTexture2D(&depthDesc, nullptr, &dDepth), S_OK);
  ASSERT_EQ(direct.device->CreateDepthStencilView(dDepth.Get(), nullptr, &dDsv), S_OK);
  ASSERT_EQ(direct.device->CreateDepthStencilState(&kDepthLess, &dDepthState), S_OK);
  ASSERT_EQ(direct.device->CreatePixelShader(psContainer.data(), psContainer.size(), nullptr, &dPs), S_OK);
  ASSERT_EQ(direct.device->CreateQuery(&queryDesc, &dOcclusion), S_OK);
  ComPtr<ID3D11Buffer> dVb = direct.buffer(sizeof(vertices), D3D11_BIND_VERTEX_BUFFER, vertices);
  ComPtr<ID3D11Buffer> dCb = direct.buffer(16, D3D11_BIND_CONSTANT_BUFFER, kRed);
  ComPtr<ID3D11InputLayout> dLayout;
  ComPtr<ID3D11VertexShader> dVs;
  direct.bindGeometry(vsContainer, dVb.Get(), dLayout, dVs);
  direct.context->ClearRenderTargetView(dRtv.Get(), black);
  direct.context->ClearDepthStencilView(dDsv.Get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
  direct.context->OMSetDepthStencilState(dDepthState.Get(), 0);
  direct.context->PSSetShader(dPs.Get(), nullptr, 0);
  direct.context->PSSetConstantBuffers(0, 1, dCb.GetAddressOf());
  direct.context->OMSetRenderTargets(1, dRtv.GetAddressOf(), dDsv.Get());
  direct.context->Draw(3, 0);
  direct.context->UpdateSubresource(dCb.Get(), 0, nullptr, kGreen, 0, 0);
  direct.context->Begin(dOcclusion.Get());
  direct.context->Draw(3, 3);
  direct.context->End(dOcclusion.Get());
  UINT64 directSamples = 0;
  while (direct.context->GetData(dOcclusion.Get(), &directSamples, sizeof(directSamples), 0) == S_FALSE)
    Sleep(0);
  const std::vector<uint8_t> reference = direct.readback(dTarget.Get(), kSize, DXGI_FORMAT_R8G8B8A8_UNORM, 4);

  EXPECT_TRUE(viaTriton == reference);
  EXPECT_EQ(samples, directSamples);
  EXPECT_GT(samples, 0u);
  // Red and green both visible: the far triangle is only partly hidden.
  size_t red = 0, green = 0;
  for (size_t i = 0; i + 3 < viaTriton.size(); i += 4) {
    red += viaTriton[i] == 255 && viaTriton[i + 1] == 0;
    green += viaTriton[i] == 0 && viaTriton[i + 1] == 255;
  }
  EXPECT_GT(red, 0u);
  EXPECT_GT(green, 0u);
  EXPECT_LT(samples, green + red) << "hidden samples do not pass";

  device.destroy(ps); device.destroy(vs); device.destroy(layout); device.destroy(occlusion);
  device.destroy(depthState); device.destroy(dsv); device.destroy(rtv);
  for (harness::Resource* r : {&cb, &vb, &depth, &target})
    device.destroyResource(*r);
  EXPECT_EQ(device.errorCount(), 0u);
}

// Stream output: a geometry shader turns one point into a triangle whose three
// positions are captured through the DDI's register/mask declaration and read back.
TEST_P(DriverPipeline, StreamOutputCapturesGeometryShaderOutput) {
  const std::vector<uint8_t> gsContainer = readCorpusFile(kGeometryShaderStreamOut);
  const UINT stride = 16, offset = 0;
  const D3D11_BUFFER_DESC soDesc{3 * 16, D3D11_USAGE_DEFAULT, D3D11_BIND_STREAM_OUTPUT, 0, 0, 0};
  const D3D11_BUFFER_DESC stagingDesc{3 * 16, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  const float expected[12] = {-1, 1, 0, 1, 3, 1, 0, 1, -1, -3, 0, 1};   // the shader's constants

  harness::Resource vb = buffer(sizeof(kNear), D3D11_BIND_VERTEX_BUFFER, kNear);
  harness::Resource so = device.createBuffer(soDesc);
  harness::Resource staging = device.createBuffer(stagingDesc);
  harness::ElementLayout layout;
  harness::Shader vs;
  bindGeometry(vb, layout, vs);
  harness::StrippedShader stripped;
  ASSERT_TRUE(harness::stripShader(gsContainer, stripped));
  const ddi::D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY entry{0, 0, 0, 0xf};   // stream 0, o0.xyzw, slot 0
  harness::Shader gs = device.createGeometryShaderWithStreamOutput(stripped, std::span(&entry, 1),
                                                                   std::span(&stride, 1), D3D11_SO_NO_RASTERIZED_STREAM);
  ASSERT_TRUE(vb && so && staging && layout && vs && gs);
  ASSERT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnIaSetTopology)(h, ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_POINTLIST);
  TRITON_DDI(device, pfnGsSetShader)(h, gs.handle);
  TRITON_DDI(device, pfnSoSetTargets)(h, 1, 0, &so.handle, &offset);
  TRITON_DDI(device, pfnDraw)(h, 1, 0);
  TRITON_DDI(device, pfnSoSetTargets)(h, 0, 1, nullptr, nullptr);
  TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, so.handle);
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  ASSERT_EQ(device.takeError(), S_OK);
  float captured[12] = {};
  std::memcpy(captured, mapped.pData, sizeof(captured));
  TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);

  // Directly.
  Direct direct;
  ComPtr<ID3D11Buffer> dVb = direct.buffer(sizeof(kNear), D3D11_BIND_VERTEX_BUFFER, kNear);
  ComPtr<ID3D11Buffer> dSo, dStaging;
  ASSERT_EQ(direct.device->CreateBuffer(&soDesc, nullptr, &dSo), S_OK);
  ASSERT_EQ(direct.device->CreateBuffer(&stagingDesc, nullptr, &dStaging), S_OK);
  ComPtr<ID3D11InputLayout> dLayout;
  ComPtr<ID3D11VertexShader> dVs;
  direct.bindGeometry(vsContainer, dVb.Get(), dLayout, dVs);
  const D3D11_SO_DECLARATION_ENTRY dEntry{0, "SV_Position", 0, 0, 4, 0};
  ComPtr<ID3D11GeometryShader> dGs;
  ASSERT_EQ(direct.device->CreateGeometryShaderWithStreamOutput(gsContainer.data(), gsContainer.size(), &dEntry, 1,
                                                                &stride, 1, D3D11_SO_NO_RASTERIZED_STREAM, nullptr, &dGs),
            S_OK);
  direct.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
  direct.context->GSSetShader(dGs.Get(), nullptr, 0);
  direct.context->SOSetTargets(1, dSo.GetAddressOf(), &offset);
  direct.context->Draw(1, 0);
  direct.context->SOSetTargets(0, nullptr, nullptr);
  direct.context->CopyResource(dStaging.Get(), dSo.Get());
  D3D11_MAPPED_SUBRESOURCE dMapped{};
  ASSERT_EQ(direct.context->Map(dStaging.Get(), 0, D3D11_MAP_READ, 0, &dMapped), S_OK);
  float reference[12] = {};
  std::memcpy(reference, dMapped.pData, sizeof(reference));
  direct.context->Unmap(dStaging.Get(), 0);

  for (UINT i = 0; i < 12; ++i) {
    EXPECT_EQ(captured[i], reference[i]) << "component " << i;
    EXPECT_EQ(captured[i], expected[i]) << "component " << i;
  }

  device.destroy(gs); device.destroy(vs); device.destroy(layout);
  for (harness::Resource* r : {&staging, &so, &vb})
    device.destroyResource(*r);
  EXPECT_EQ(device.errorCount(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverPipeline, ::testing::Values(&kD3D11_0, &kD3D11_1, &kWddm2_0),
                         [](const ::testing::TestParamInfo<const InterfaceVersion*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace triton::test
