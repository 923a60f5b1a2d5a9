// SPDX-License-Identifier: MIT
// View descriptions against their resources (D3D11_*_VIEW_DESC documentation; Wine's
// test_create_shader_resource_view / test_create_rendertarget_view /
// test_create_depthstencil_view / test_create_unordered_access_view record Windows'
// E_INVALIDARG cases).

#include "test_helpers.h"

#include "npt/validation/view_desc.h"
#include "npt/validation/views.h"

using namespace npt::validation;

namespace {

ResourceShape texture2D(DXGI_FORMAT format, uint32_t mips, uint32_t slices, uint32_t bind, uint32_t misc = 0,
                        uint32_t samples = 1) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = 64;
  desc.Height = 64;
  desc.MipLevels = mips;
  desc.ArraySize = slices;
  desc.Format = format;
  desc.SampleDesc.Count = samples;
  desc.BindFlags = bind;
  desc.MiscFlags = misc;
  return shapeOf(desc);
}

ResourceShape buffer(uint32_t width, uint32_t bind, uint32_t misc = 0, uint32_t stride = 0) {
  D3D11_BUFFER_DESC desc{width, D3D11_USAGE_DEFAULT, bind, 0, misc, stride};
  return shapeOf(desc);
}

D3D11_SHADER_RESOURCE_VIEW_DESC srv2D(DXGI_FORMAT format, uint32_t first, uint32_t count) {
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = format;
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
  desc.Texture2D.MostDetailedMip = first;
  desc.Texture2D.MipLevels = count;
  return desc;
}

TEST(ShaderResourceView, DefaultAndExplicitViews) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1, D3D11_BIND_SHADER_RESOURCE);   // 7 mips
  EXPECT_PASS(validateShaderResourceView(tex, nullptr));
  auto desc = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM, 2, 5);
  EXPECT_PASS(validateShaderResourceView(tex, &desc));
  desc.Texture2D.MipLevels = UINT(-1);   // all remaining
  EXPECT_PASS(validateShaderResourceView(tex, &desc));
}

TEST(ShaderResourceView, BindFlagRequired) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_RENDER_TARGET);
  EXPECT_REJECT(validateShaderResourceView(tex, nullptr), ViewBindFlag, Fail);
}

TEST(ShaderResourceView, MipRange) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1, D3D11_BIND_SHADER_RESOURCE);
  auto desc = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM, 7, 1);
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewMipRange, Fail);
  desc = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM, 2, 6);
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewMipRange, Fail);
  desc = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0);
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewMipRange, Fail);
}

TEST(ShaderResourceView, ArrayRange) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 4, D3D11_BIND_SHADER_RESOURCE);
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
  desc.Texture2DArray = {0, 1, 1, 3};
  EXPECT_PASS(validateShaderResourceView(tex, &desc));
  desc.Texture2DArray = {0, 1, 2, 3};
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewArrayRange, Fail);
  desc.Texture2DArray = {0, 1, 4, 1};
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewArrayRange, Fail);
  desc.Texture2DArray = {0, 1, 0, 0};
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewArrayRange, Fail);
}

TEST(ShaderResourceView, DimensionMustMatchResource) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D;
  desc.Texture3D = {0, 1};
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewDimension, Fail);
  // A multisampled view of a single-sampled texture is valid (as on Windows).
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMS;
  EXPECT_PASS(validateShaderResourceView(tex, &desc));
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBE;
  desc.TextureCube = {0, 1};
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewDimension, Fail);
  desc.ViewDimension = D3D11_SRV_DIMENSION(42);
  EXPECT_REJECT(validateShaderResourceView(tex, &desc), ViewDimension, Fail);
  ResourceShape msaa = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_SHADER_RESOURCE, 0, 4);
  auto plain = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
  EXPECT_REJECT(validateShaderResourceView(msaa, &plain), ViewDimension, Fail);
  D3D11_SHADER_RESOURCE_VIEW_DESC ms{};
  ms.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  ms.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMS;
  EXPECT_PASS(validateShaderResourceView(msaa, &ms));
}

TEST(ShaderResourceView, CubeRanges) {
  ResourceShape cube = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 12, D3D11_BIND_SHADER_RESOURCE,
                                 D3D11_RESOURCE_MISC_TEXTURECUBE);
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBEARRAY;
  desc.TextureCubeArray = {0, 1, 6, 1};
  EXPECT_PASS(validateShaderResourceView(cube, &desc));
  desc.TextureCubeArray = {0, 1, 7, 1};
  EXPECT_REJECT(validateShaderResourceView(cube, &desc), ViewCubeRange, Fail);
  desc.TextureCubeArray = {0, 1, 0, 3};
  EXPECT_REJECT(validateShaderResourceView(cube, &desc), ViewCubeRange, Fail);
  // NumCubes -1: the whole cubes from the first face on (two from face 0, one from face 6,
  // none from face 7).
  desc.TextureCubeArray = {0, 1, 0, UINT32_MAX};
  EXPECT_PASS(validateShaderResourceView(cube, &desc));
  desc.TextureCubeArray = {0, 1, 6, UINT32_MAX};
  EXPECT_PASS(validateShaderResourceView(cube, &desc));
  desc.TextureCubeArray = {0, 1, 7, UINT32_MAX};
  EXPECT_REJECT(validateShaderResourceView(cube, &desc), ViewCubeRange, Fail);
}

TEST(ShaderResourceView, FormatCompatibility) {
  ResourceShape typed = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  auto srgb = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 0, 1);
  EXPECT_REJECT(validateShaderResourceView(typed, &srgb), ViewFormat, Fail);   // typed resource: same format only
  ResourceShape typeless = texture2D(DXGI_FORMAT_R8G8B8A8_TYPELESS, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_PASS(validateShaderResourceView(typeless, &srgb));
  auto other = srv2D(DXGI_FORMAT_R32_FLOAT, 0, 1);
  EXPECT_REJECT(validateShaderResourceView(typeless, &other), ViewFormat, Fail);
  auto stillTypeless = srv2D(DXGI_FORMAT_R8G8B8A8_TYPELESS, 0, 1);
  EXPECT_REJECT(validateShaderResourceView(typeless, &stillTypeless), ViewFormat, Fail);
  EXPECT_REJECT(validateShaderResourceView(typeless, nullptr), ViewFormat, Fail);
  // Depth data is read through the partially typeless formats.
  ResourceShape depth = texture2D(DXGI_FORMAT_R24G8_TYPELESS, 1, 1,
                                  D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_DEPTH_STENCIL);
  auto depthView = srv2D(DXGI_FORMAT_R24_UNORM_X8_TYPELESS, 0, 1);
  EXPECT_PASS(validateShaderResourceView(depth, &depthView));
}

TEST(ShaderResourceView, BufferElementRanges) {
  ResourceShape typed = buffer(256, D3D11_BIND_SHADER_RESOURCE);
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
  desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
  desc.Buffer.FirstElement = 4;
  desc.Buffer.NumElements = 12;
  EXPECT_PASS(validateShaderResourceView(typed, &desc));
  desc.Buffer.NumElements = 13;
  EXPECT_REJECT(validateShaderResourceView(typed, &desc), ViewBufferRange, Fail);
  desc.Buffer.FirstElement = 0xffffffffu;   // no wrap-around
  desc.Buffer.NumElements = 2;
  EXPECT_REJECT(validateShaderResourceView(typed, &desc), ViewBufferRange, Fail);
  desc.Format = DXGI_FORMAT_BC1_UNORM;
  EXPECT_REJECT(validateShaderResourceView(typed, &desc), ViewFormat, Fail);
  EXPECT_REJECT(validateShaderResourceView(typed, nullptr), ViewFormat, Fail);

  ResourceShape structured = buffer(256, D3D11_BIND_SHADER_RESOURCE, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 32);
  EXPECT_PASS(validateShaderResourceView(structured, nullptr));
  desc.Format = DXGI_FORMAT_UNKNOWN;
  desc.Buffer.FirstElement = 0;
  desc.Buffer.NumElements = 8;
  EXPECT_PASS(validateShaderResourceView(structured, &desc));
  desc.Buffer.NumElements = 9;
  EXPECT_REJECT(validateShaderResourceView(structured, &desc), ViewBufferRange, Fail);
  desc.Format = DXGI_FORMAT_R32_UINT;
  desc.Buffer.NumElements = 1;
  EXPECT_REJECT(validateShaderResourceView(structured, &desc), ViewStructuredBuffer, Fail);
}

TEST(ShaderResourceView, RawBuffers) {
  ResourceShape raw = buffer(256, D3D11_BIND_SHADER_RESOURCE, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R32_TYPELESS;
  desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
  desc.BufferEx = {0, 64, D3D11_BUFFEREX_SRV_FLAG_RAW};
  EXPECT_PASS(validateShaderResourceView(raw, &desc));
  desc.BufferEx.NumElements = 65;
  EXPECT_REJECT(validateShaderResourceView(raw, &desc), ViewBufferRange, Fail);
  desc.BufferEx.NumElements = 64;
  desc.Format = DXGI_FORMAT_R32_UINT;
  EXPECT_REJECT(validateShaderResourceView(raw, &desc), ViewRawBuffer, Fail);
  ResourceShape notRaw = buffer(256, D3D11_BIND_SHADER_RESOURCE);
  desc.Format = DXGI_FORMAT_R32_TYPELESS;
  EXPECT_REJECT(validateShaderResourceView(notRaw, &desc), ViewRawBuffer, Fail);
  desc.BufferEx.Flags = 0x2;
  EXPECT_REJECT(validateShaderResourceView(raw, &desc), ViewFlags, Fail);
}

TEST(RenderTargetView, Rules) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R8G8B8A8_TYPELESS, 3, 4, D3D11_BIND_RENDER_TARGET);
  D3D11_RENDER_TARGET_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
  desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
  desc.Texture2DArray = {2, 1, 3};
  EXPECT_PASS(validateRenderTargetView(tex, &desc));
  desc.Texture2DArray = {3, 0, 1};
  EXPECT_REJECT(validateRenderTargetView(tex, &desc), ViewMipRange, Fail);
  desc.Texture2DArray = {0, 2, 3};
  EXPECT_REJECT(validateRenderTargetView(tex, &desc), ViewArrayRange, Fail);
  desc.Texture2DArray = {0, 0, 1};
  desc.Format = DXGI_FORMAT_R8G8B8A8_TYPELESS;
  EXPECT_REJECT(validateRenderTargetView(tex, &desc), ViewFormat, Fail);
  EXPECT_REJECT(validateRenderTargetView(tex, nullptr), ViewFormat, Fail);
  ResourceShape srvOnly = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_REJECT(validateRenderTargetView(srvOnly, nullptr), ViewBindFlag, Fail);
}

// Wine's d3d11 suite (test_render_target_views, test_texture): a desc whose format is
// UNKNOWN takes the resource's format, which must then be typed.
TEST(RenderTargetView, UnknownFormatInADescIsTheResourceFormat) {
  D3D11_RENDER_TARGET_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_UNKNOWN;
  desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
  EXPECT_PASS(validateRenderTargetView(texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_RENDER_TARGET), &desc));
  EXPECT_REJECT(validateRenderTargetView(texture2D(DXGI_FORMAT_R8G8B8A8_TYPELESS, 1, 1, D3D11_BIND_RENDER_TARGET), &desc),
                ViewFormat, Fail);
}

TEST(RenderTargetView, Texture3DDepthSlices) {
  D3D11_TEXTURE3D_DESC desc3{};
  desc3.Width = 32;
  desc3.Height = 32;
  desc3.Depth = 16;
  desc3.MipLevels = 2;
  desc3.Format = DXGI_FORMAT_R16G16B16A16_FLOAT;
  desc3.BindFlags = D3D11_BIND_RENDER_TARGET;
  ResourceShape vol = shapeOf(desc3);
  D3D11_RENDER_TARGET_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R16G16B16A16_FLOAT;
  desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
  desc.Texture3D = {1, 0, UINT(-1)};
  EXPECT_PASS(validateRenderTargetView(vol, &desc));
  desc.Texture3D = {1, 4, 5};   // mip 1 has 8 slices
  EXPECT_REJECT(validateRenderTargetView(vol, &desc), ViewDepthRange, Fail);
}

TEST(DepthStencilView, Rules) {
  ResourceShape depth = texture2D(DXGI_FORMAT_R32G8X24_TYPELESS, 1, 2, D3D11_BIND_DEPTH_STENCIL);
  D3D11_DEPTH_STENCIL_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
  desc.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DARRAY;
  desc.Flags = D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL;
  desc.Texture2DArray = {0, 0, 2};
  EXPECT_PASS(validateDepthStencilView(depth, &desc));
  desc.Flags = 0x4;
  EXPECT_REJECT(validateDepthStencilView(depth, &desc), ViewFlags, Fail);
  desc.Flags = 0;
  desc.Format = DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS;
  EXPECT_REJECT(validateDepthStencilView(depth, &desc), ViewFormat, Fail);
  desc.Format = DXGI_FORMAT_D32_FLOAT;   // wrong family
  EXPECT_REJECT(validateDepthStencilView(depth, &desc), ViewFormat, Fail);
  ResourceShape d32 = texture2D(DXGI_FORMAT_R32_TYPELESS, 1, 1, D3D11_BIND_DEPTH_STENCIL);
  D3D11_DEPTH_STENCIL_VIEW_DESC noStencil{};
  noStencil.Format = DXGI_FORMAT_D32_FLOAT;
  noStencil.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2D;
  noStencil.Flags = D3D11_DSV_READ_ONLY_STENCIL;
  EXPECT_REJECT(validateDepthStencilView(d32, &noStencil), ViewFlags, Fail);
  noStencil.Flags = 0;
  EXPECT_PASS(validateDepthStencilView(d32, &noStencil));
  noStencil.ViewDimension = D3D11_DSV_DIMENSION(7);
  EXPECT_REJECT(validateDepthStencilView(d32, &noStencil), ViewDimension, Fail);
}

TEST(UnorderedAccessView, Rules) {
  ResourceShape tex = texture2D(DXGI_FORMAT_R32_FLOAT, 2, 1, D3D11_BIND_UNORDERED_ACCESS);
  EXPECT_PASS(validateUnorderedAccessView(tex, nullptr));
  D3D11_UNORDERED_ACCESS_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R32_FLOAT;
  desc.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
  desc.Texture2D.MipSlice = 2;
  EXPECT_REJECT(validateUnorderedAccessView(tex, &desc), ViewMipRange, Fail);

  ResourceShape structured = buffer(256, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16);
  D3D11_UNORDERED_ACCESS_VIEW_DESC buf{};
  buf.Format = DXGI_FORMAT_UNKNOWN;
  buf.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
  buf.Buffer = {0, 16, D3D11_BUFFER_UAV_FLAG_APPEND};
  EXPECT_PASS(validateUnorderedAccessView(structured, &buf));
  buf.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER;
  EXPECT_REJECT(validateUnorderedAccessView(structured, &buf), ViewFlags, Fail);
  buf.Buffer.Flags = 0;
  buf.Buffer.NumElements = 17;
  EXPECT_REJECT(validateUnorderedAccessView(structured, &buf), ViewBufferRange, Fail);

  ResourceShape typed = buffer(256, D3D11_BIND_UNORDERED_ACCESS);
  D3D11_UNORDERED_ACCESS_VIEW_DESC counter{};
  counter.Format = DXGI_FORMAT_R32_UINT;
  counter.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
  counter.Buffer = {0, 64, D3D11_BUFFER_UAV_FLAG_COUNTER};
  EXPECT_REJECT(validateUnorderedAccessView(typed, &counter), ViewFlags, Fail);
  counter.Buffer.Flags = 0;
  EXPECT_PASS(validateUnorderedAccessView(typed, &counter));

  ResourceShape rtOnly = texture2D(DXGI_FORMAT_R32_FLOAT, 1, 1, D3D11_BIND_RENDER_TARGET);
  EXPECT_REJECT(validateUnorderedAccessView(rtOnly, nullptr), ViewBindFlag, Fail);
}

// Planar formats ("Direct3D 11 video formats" tables; D3D11_TEX2D_SRV1.PlaneSlice): each
// plane is viewed in its own format, the 11.0 descs choosing the plane by that format.
TEST(PlanarViews, EachPlaneInItsOwnFormat) {
  const uint32_t bind = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS;
  ResourceShape nv12 = texture2D(DXGI_FORMAT_NV12, 1, 1, bind);
  for (DXGI_FORMAT format : {DXGI_FORMAT_R8_UNORM, DXGI_FORMAT_R8_UINT, DXGI_FORMAT_R8G8_UNORM, DXGI_FORMAT_R8G8_UINT}) {
    auto srv = srv2D(format, 0, 1);
    EXPECT_PASS(validateShaderResourceView(nv12, &srv));
    D3D11_RENDER_TARGET_VIEW_DESC rtv{};
    rtv.Format = format;
    rtv.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
    EXPECT_PASS(validateRenderTargetView(nv12, &rtv));
    D3D11_UNORDERED_ACCESS_VIEW_DESC uav{};
    uav.Format = format;
    uav.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
    EXPECT_PASS(validateUnorderedAccessView(nv12, &uav));
  }
  // No default view, no format of the whole surface or of another family.
  EXPECT_REJECT(validateShaderResourceView(nv12, nullptr), ViewFormat, Fail);
  EXPECT_REJECT(validateRenderTargetView(nv12, nullptr), ViewFormat, Fail);
  EXPECT_REJECT(validateUnorderedAccessView(nv12, nullptr), ViewFormat, Fail);
  for (DXGI_FORMAT format : {DXGI_FORMAT_NV12, DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8_SNORM}) {
    auto srv = srv2D(format, 0, 1);
    EXPECT_REJECT(validateShaderResourceView(nv12, &srv), ViewFormat, Fail);
  }
  ResourceShape p010 = texture2D(DXGI_FORMAT_P010, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  auto luma = srv2D(DXGI_FORMAT_R16_UNORM, 0, 1), chroma = srv2D(DXGI_FORMAT_R16G16_UNORM, 0, 1),
       bytes = srv2D(DXGI_FORMAT_R8_UNORM, 0, 1);
  EXPECT_PASS(validateShaderResourceView(p010, &luma));
  EXPECT_PASS(validateShaderResourceView(p010, &chroma));
  EXPECT_REJECT(validateShaderResourceView(p010, &bytes), ViewFormat, Fail);
  ResourceShape opaque = texture2D(DXGI_FORMAT_420_OPAQUE, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_REJECT(validateShaderResourceView(opaque, &bytes), ViewFormat, Fail);
}

TEST(PlanarViews, PlaneSliceMustBeThePlaneOfTheFormat) {
  ResourceShape nv12 = texture2D(DXGI_FORMAT_NV12, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_EQ(planeOfViewFormat(DXGI_FORMAT_NV12, DXGI_FORMAT_R8_UNORM), 0);
  EXPECT_EQ(planeOfViewFormat(DXGI_FORMAT_NV12, DXGI_FORMAT_R8G8_UINT), 1);
  EXPECT_EQ(planeOfViewFormat(DXGI_FORMAT_P016, DXGI_FORMAT_R16G16_UINT), 1);
  EXPECT_EQ(planeOfViewFormat(DXGI_FORMAT_NV11, DXGI_FORMAT_R8_UINT), 0);
  EXPECT_EQ(planeOfViewFormat(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8_UNORM), -1);
  EXPECT_PASS(validateViewPlane(nv12, DXGI_FORMAT_R8_UNORM, 0));
  EXPECT_PASS(validateViewPlane(nv12, DXGI_FORMAT_R8G8_UNORM, 1));
  EXPECT_REJECT(validateViewPlane(nv12, DXGI_FORMAT_R8_UNORM, 1), ViewPlaneSlice, Fail);
  EXPECT_REJECT(validateViewPlane(nv12, DXGI_FORMAT_R8G8_UNORM, 0), ViewPlaneSlice, Fail);
  EXPECT_REJECT(validateViewPlane(nv12, DXGI_FORMAT_R8G8_UNORM, 2), ViewPlaneSlice, Fail);
  ResourceShape p010 = texture2D(DXGI_FORMAT_P010, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_PASS(validateViewPlane(p010, DXGI_FORMAT_R16G16_UNORM, 1));
  EXPECT_REJECT(validateViewPlane(p010, DXGI_FORMAT_R16_UNORM, 1), ViewPlaneSlice, Fail);
  // Resources that are not planar have plane 0 only (E_INVALIDARG otherwise).
  ResourceShape rgba = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_PASS(validateViewPlane(rgba, DXGI_FORMAT_R8G8B8A8_UNORM, 0));
  EXPECT_REJECT(validateViewPlane(rgba, DXGI_FORMAT_R8G8B8A8_UNORM, 1), ViewPlaneSlice, Fail);
}

}  // namespace

// A null desc: the whole resource, as the view's GetDesc reports it on Windows (Wine's
// test_create_shader_resource_view / test_create_unordered_access_view: a structured
// buffer's default view has UNKNOWN format and all its elements; a typed buffer has none).
TEST(ViewDescCompletion, DefaultViewsOfBuffers) {
  const ResourceShape structured =
      buffer(1024, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4);
  D3D11_SHADER_RESOURCE_VIEW_DESC srv{};
  ASSERT_TRUE(completeShaderResourceViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>(structured, nullptr, &srv));
  EXPECT_EQ(srv.Format, DXGI_FORMAT_UNKNOWN);
  EXPECT_EQ(srv.ViewDimension, D3D11_SRV_DIMENSION_BUFFER);
  EXPECT_EQ(srv.Buffer.FirstElement, 0u);
  EXPECT_EQ(srv.Buffer.NumElements, 256u);
  D3D11_UNORDERED_ACCESS_VIEW_DESC uav{};
  uav.Buffer.Flags = 7;
  ASSERT_TRUE(completeUnorderedAccessViewDesc<D3D11_UNORDERED_ACCESS_VIEW_DESC>(structured, nullptr, &uav));
  EXPECT_EQ(uav.ViewDimension, D3D11_UAV_DIMENSION_BUFFER);
  EXPECT_EQ(uav.Buffer.NumElements, 256u);
  EXPECT_EQ(uav.Buffer.Flags, 0u);

  const ResourceShape typed = buffer(1024, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET);
  EXPECT_FALSE(completeShaderResourceViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>(typed, nullptr, &srv));
  D3D11_RENDER_TARGET_VIEW_DESC rtv{};
  EXPECT_FALSE(completeRenderTargetViewDesc<D3D11_RENDER_TARGET_VIEW_DESC>(structured, nullptr, &rtv));
}

TEST(ViewDescCompletion, TexturesResolveRemainingCountsAndFormats) {
  const ResourceShape texture = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 5, 3, D3D11_BIND_SHADER_RESOURCE);
  D3D11_SHADER_RESOURCE_VIEW_DESC srv{};
  ASSERT_TRUE(completeShaderResourceViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>(texture, nullptr, &srv));
  EXPECT_EQ(srv.ViewDimension, D3D11_SRV_DIMENSION_TEXTURE2DARRAY);
  EXPECT_EQ(srv.Texture2DArray.MipLevels, 5u);
  EXPECT_EQ(srv.Texture2DArray.ArraySize, 3u);

  D3D11_SHADER_RESOURCE_VIEW_DESC given = srv2D(DXGI_FORMAT_UNKNOWN, 2, UINT32_MAX);
  given.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
  given.Texture2DArray.FirstArraySlice = 1;
  given.Texture2DArray.ArraySize = UINT32_MAX;
  ASSERT_TRUE(completeShaderResourceViewDesc(texture, &given, &srv));
  EXPECT_EQ(srv.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
  EXPECT_EQ(srv.Texture2DArray.MipLevels, 3u);
  EXPECT_EQ(srv.Texture2DArray.ArraySize, 2u);

  // A typeless texture needs a typed view format; a depth format's SRV format is one.
  const ResourceShape typeless = texture2D(DXGI_FORMAT_R24G8_TYPELESS, 1, 1, D3D11_BIND_SHADER_RESOURCE);
  EXPECT_FALSE(completeShaderResourceViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>(typeless, nullptr, &srv));
  given = srv2D(DXGI_FORMAT_R24_UNORM_X8_TYPELESS, 0, 1);
  EXPECT_TRUE(completeShaderResourceViewDesc(typeless, &given, &srv));

  given = srv2D(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 2);
  EXPECT_FALSE(completeShaderResourceViewDesc(texture, &given, &srv));
}
