// SPDX-License-Identifier: MIT
// The catalogue's creations (d3d11_catalogue.h): resources, views, states, shaders, input
// layouts, queries. Every row answers E_INVALIDARG on Windows and creates nothing.
#include "d3d11_catalogue.h"

namespace npt::test::catalogue {
namespace {

#define ROW(name, hr, oracle, ...) Row{name, hr, oracle, [](Env& e, IUnknown** out) -> HRESULT { __VA_ARGS__ }}

// ---- buffers: 64 bytes, DEFAULT, vertex buffer, edited by the row

HRESULT createBuffer(Env& e, IUnknown** out, const D3D11_BUFFER_DESC& desc, const D3D11_SUBRESOURCE_DATA* data = nullptr) {
  ID3D11Buffer* buffer = nullptr;
  return into(e.device->CreateBuffer(&desc, data, &buffer), buffer, out);
}
#define BUFFER_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_BUFFER_DESC d = { 64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 }; \
      __VA_ARGS__; return createBuffer(e, out, d);)

const Row kBuffers[] = {
  BUFFER_ROW("BufferByteWidthZero", kWineAgrees, d.ByteWidth = 0),
  BUFFER_ROW("BufferConstantNotMultipleOf16", kWineAgrees, d.ByteWidth = 17; d.BindFlags = D3D11_BIND_CONSTANT_BUFFER),
  BUFFER_ROW("BufferDynamicReadAccess", kWineAgrees, d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  BUFFER_ROW("BufferDynamicWithoutCpuWrite", kWineAgrees, d.Usage = D3D11_USAGE_DYNAMIC),
  BUFFER_ROW("BufferDynamicUnorderedAccess", kWineAgrees, d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
             d.BindFlags = D3D11_BIND_UNORDERED_ACCESS),
  BUFFER_ROW("BufferStagingWithBindFlags", kWineAgrees, d.Usage = D3D11_USAGE_STAGING; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  BUFFER_ROW("BufferStagingWithoutCpuAccess", kWineAgrees, d.Usage = D3D11_USAGE_STAGING; d.BindFlags = 0),
  BUFFER_ROW("BufferDefaultWithCpuAccess", kWineAgrees, d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE),
  BUFFER_ROW("BufferImmutableWithCpuAccess", kWineAgrees, d.Usage = D3D11_USAGE_IMMUTABLE; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  BUFFER_ROW("BufferUsageOutOfRange", kWineAgrees, d.Usage = D3D11_USAGE(4)),
  BUFFER_ROW("BufferUnknownBindFlag", kDocumentedOnly, d.BindFlags |= 0x10000000u),
  BUFFER_ROW("BufferDepthStencilBind", kDocumentedOnly, d.BindFlags = D3D11_BIND_DEPTH_STENCIL),
  BUFFER_ROW("BufferStructuredWithoutStride", kWineAgrees, d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
             d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED),
  BUFFER_ROW("BufferStructuredStrideNotMultipleOf4", kWineAgrees, d.ByteWidth = 60; d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
             d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 6),
  BUFFER_ROW("BufferStructuredWidthNotMultipleOfStride", kWineAgrees, d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
             d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 12),
  BUFFER_ROW("BufferStructuredStrideAbove2048", kDocumentedOnly, d.ByteWidth = 4096; d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
             d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 4096),
  BUFFER_ROW("BufferStructuredAndRawViews", kWineAgrees, d.BindFlags = D3D11_BIND_SHADER_RESOURCE; d.StructureByteStride = 16;
             d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS),
  BUFFER_ROW("BufferGenerateMips", kWineAgrees, d.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
             d.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS),
  BUFFER_ROW("BufferTextureCubeFlag", kDocumentedOnly, d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE),
  BUFFER_ROW("BufferUnknownMiscFlag", kDocumentedOnly, d.MiscFlags = 0x40000000u),
  BUFFER_ROW("BufferRawViewsOnVertexBufferOnly", kWineAgrees, d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS),
  BUFFER_ROW("BufferImmutableWithoutData", kDocumentedOnly, d.Usage = D3D11_USAGE_IMMUTABLE),
  ROW("BufferNullDesc", E_INVALIDARG, kDocumentedOnly,
      ID3D11Buffer* b = nullptr; return into(e.device->CreateBuffer(nullptr, nullptr, &b), b, out);),
  ROW("BufferInitialDataWithoutMemory", E_INVALIDARG, kWineAgrees,
      D3D11_BUFFER_DESC d = { 64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
      D3D11_SUBRESOURCE_DATA data = { nullptr, 0, 0 }; return createBuffer(e, out, d, &data);),
};

// ---- 2D textures: 64x64 R8G8B8A8_UNORM, one mip, DEFAULT, shader resource, edited by the row

D3D11_TEXTURE2D_DESC texture2DDesc() {
  D3D11_TEXTURE2D_DESC d = {};
  d.Width = d.Height = 64;
  d.MipLevels = d.ArraySize = 1;
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  d.SampleDesc.Count = 1;
  d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  return d;
}
HRESULT createTexture2D(Env& e, IUnknown** out, const D3D11_TEXTURE2D_DESC& desc, const D3D11_SUBRESOURCE_DATA* data = nullptr) {
  ID3D11Texture2D* texture = nullptr;
  return into(e.device->CreateTexture2D(&desc, data, &texture), texture, out);
}
#define TEX2D_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_TEXTURE2D_DESC d = texture2DDesc(); __VA_ARGS__; return createTexture2D(e, out, d);)

const Row kTextures2D[] = {
  TEX2D_ROW("Texture2DWidthZero", kWineAgrees, d.Width = 0),
  TEX2D_ROW("Texture2DHeightZero", kWineAgrees, d.Height = 0),
  TEX2D_ROW("Texture2DArraySizeZero", kWineAgrees, d.ArraySize = 0),
  TEX2D_ROW("Texture2DWidthAbove16384", kWineAgrees, d.Width = 16385; d.MipLevels = 1),
  TEX2D_ROW("Texture2DArraySizeAbove2048", kDocumentedOnly, d.ArraySize = 2049),
  TEX2D_ROW("Texture2DMoreMipsThanTheChain", kDocumentedOnly, d.MipLevels = 8),
  TEX2D_ROW("Texture2DFormatUnknown", kWineAgrees, d.Format = DXGI_FORMAT_UNKNOWN),
  TEX2D_ROW("Texture2DFormatOutOfRange", kWineAgrees, d.Format = DXGI_FORMAT(0x1000)),
  TEX2D_ROW("Texture2DSampleCountZero", kDocumentedOnly, d.SampleDesc.Count = 0),
  TEX2D_ROW("Texture2DSampleCount33", kWineAgrees, d.SampleDesc.Count = 33),
  TEX2D_ROW("Texture2DQualityWithOneSample", kDocumentedOnly, d.SampleDesc.Quality = 1),
  TEX2D_ROW("Texture2DMsaaQualityAboveLevels", kWineAgrees, d.SampleDesc = {4, 1000}; d.BindFlags = D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DMsaaThreeSamples", kWineAgrees, d.SampleDesc = {3, 0}; d.BindFlags = D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DMsaaWithMips", kDocumentedOnly, d.SampleDesc = {4, 0}; d.MipLevels = 0; d.BindFlags = D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DMsaaStaging", kDocumentedOnly, d.SampleDesc = {4, 0}; d.Usage = D3D11_USAGE_STAGING; d.BindFlags = 0;
            d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  TEX2D_ROW("Texture2DMsaaUnorderedAccess", kDocumentedOnly, d.SampleDesc = {4, 0}; d.BindFlags = D3D11_BIND_UNORDERED_ACCESS),
  TEX2D_ROW("Texture2DStandardPattern32Samples", kWineAgrees, d.SampleDesc = {32, UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN)};
            d.BindFlags = D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DDepthFormatRenderTarget", kWineAgrees, d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
            d.BindFlags = D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DDepthFormatShaderResource", kDocumentedOnly, d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
            d.BindFlags = D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE),
  TEX2D_ROW("Texture2DColorFormatDepthStencil", kWineAgrees, d.BindFlags = D3D11_BIND_DEPTH_STENCIL),
  TEX2D_ROW("Texture2DBc1ThreeByThree", kWineAgrees, d.Width = d.Height = 3; d.Format = DXGI_FORMAT_BC1_UNORM),
  TEX2D_ROW("Texture2DBc1RenderTarget", kWineAgrees, d.Format = DXGI_FORMAT_BC1_UNORM; d.BindFlags = D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DBc3UnorderedAccess", kDocumentedOnly, d.Format = DXGI_FORMAT_BC3_UNORM; d.BindFlags = D3D11_BIND_UNORDERED_ACCESS),
  TEX2D_ROW("Texture2DCubeNotSquare", kDocumentedOnly, d.Height = 32; d.ArraySize = 6; d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE),
  TEX2D_ROW("Texture2DCubeFiveSlices", kWineAgrees, d.ArraySize = 5; d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE),
  TEX2D_ROW("Texture2DGenerateMipsWithoutRenderTarget", kWineAgrees, d.MipLevels = 0;
            d.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS),
  TEX2D_ROW("Texture2DStructuredFlag", kDocumentedOnly, d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED),
  TEX2D_ROW("Texture2DConstantBufferBind", kDocumentedOnly, d.BindFlags = D3D11_BIND_CONSTANT_BUFFER),
  TEX2D_ROW("Texture2DVertexBufferBind", kDocumentedOnly, d.BindFlags = D3D11_BIND_VERTEX_BUFFER),
  TEX2D_ROW("Texture2DDynamicRenderTarget", kWineAgrees, d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
            d.BindFlags = D3D11_BIND_RENDER_TARGET),
  TEX2D_ROW("Texture2DDynamicReadAccess", kWineAgrees, d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  TEX2D_ROW("Texture2DStagingWithBind", kWineAgrees, d.Usage = D3D11_USAGE_STAGING; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  TEX2D_ROW("Texture2DStagingWithoutCpuAccess", kWineAgrees, d.Usage = D3D11_USAGE_STAGING; d.BindFlags = 0),
  TEX2D_ROW("Texture2DUsageOutOfRange", kWineAgrees, d.Usage = D3D11_USAGE(7)),
  TEX2D_ROW("Texture2DUnknownBindFlag", kDocumentedOnly, d.BindFlags |= 0x20000000u),
  TEX2D_ROW("Texture2DImmutableWithoutData", kDocumentedOnly, d.Usage = D3D11_USAGE_IMMUTABLE),
  ROW("Texture2DMsaaWithInitialData", E_INVALIDARG, kDocumentedOnly,
      static const uint32_t texels[64 * 64] = {};
      D3D11_TEXTURE2D_DESC d = texture2DDesc(); d.SampleDesc = {4, 0}; d.BindFlags = D3D11_BIND_RENDER_TARGET;
      D3D11_SUBRESOURCE_DATA data = { texels, 64 * 4, 0 }; return createTexture2D(e, out, d, &data);),
  ROW("Texture2DInitialDataWithoutMemory", E_INVALIDARG, kWineAgrees,
      D3D11_TEXTURE2D_DESC d = texture2DDesc(); D3D11_SUBRESOURCE_DATA data = { nullptr, 256, 0 };
      return createTexture2D(e, out, d, &data);),
  ROW("Texture2DNullDesc", E_INVALIDARG, kDocumentedOnly,
      ID3D11Texture2D* t = nullptr; return into(e.device->CreateTexture2D(nullptr, nullptr, &t), t, out);),
};

// ---- 1D and 3D textures

HRESULT createTexture1D(Env& e, IUnknown** out, const D3D11_TEXTURE1D_DESC& desc) {
  ID3D11Texture1D* texture = nullptr;
  return into(e.device->CreateTexture1D(&desc, nullptr, &texture), texture, out);
}
#define TEX1D_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_TEXTURE1D_DESC d = { 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, \
      D3D11_BIND_SHADER_RESOURCE, 0, 0 }; __VA_ARGS__; return createTexture1D(e, out, d);)
HRESULT createTexture3D(Env& e, IUnknown** out, const D3D11_TEXTURE3D_DESC& desc) {
  ID3D11Texture3D* texture = nullptr;
  return into(e.device->CreateTexture3D(&desc, nullptr, &texture), texture, out);
}
#define TEX3D_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_TEXTURE3D_DESC d = { 16, 16, 16, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, \
      D3D11_BIND_SHADER_RESOURCE, 0, 0 }; __VA_ARGS__; return createTexture3D(e, out, d);)

const Row kTextures1D3D[] = {
  TEX1D_ROW("Texture1DWidthZero", kWineAgrees, d.Width = 0),
  TEX1D_ROW("Texture1DWidthAbove16384", kWineAgrees, d.Width = 16385),
  TEX1D_ROW("Texture1DArraySizeZero", kWineAgrees, d.ArraySize = 0),
  TEX1D_ROW("Texture1DArraySizeAbove2048", kDocumentedOnly, d.ArraySize = 2049),
  TEX1D_ROW("Texture1DCubeFlag", kDocumentedOnly, d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE),
  TEX1D_ROW("Texture1DFormatUnknown", kWineAgrees, d.Format = DXGI_FORMAT_UNKNOWN),
  TEX1D_ROW("Texture1DDepthFormatRenderTarget", kWineAgrees, d.Format = DXGI_FORMAT_D32_FLOAT;
            d.BindFlags = D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_RENDER_TARGET),
  TEX1D_ROW("Texture1DBlockCompressed", kWineAgrees, d.Format = DXGI_FORMAT_BC1_UNORM),
  TEX1D_ROW("Texture1DMoreMipsThanTheChain", kDocumentedOnly, d.MipLevels = 8),
  TEX1D_ROW("Texture1DStagingWithBind", kDocumentedOnly, d.Usage = D3D11_USAGE_STAGING; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
  TEX3D_ROW("Texture3DDepthZero", kWineAgrees, d.Depth = 0),
  TEX3D_ROW("Texture3DDepthAbove2048", kDocumentedOnly, d.Depth = 2049),
  TEX3D_ROW("Texture3DWidthAbove2048", kDocumentedOnly, d.Width = 2049),
  TEX3D_ROW("Texture3DCubeFlag", kDocumentedOnly, d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE),
  TEX3D_ROW("Texture3DDepthStencilBind", kWineAgrees, d.Format = DXGI_FORMAT_D32_FLOAT; d.BindFlags = D3D11_BIND_DEPTH_STENCIL),
  TEX3D_ROW("Texture3DFormatUnknown", kWineAgrees, d.Format = DXGI_FORMAT_UNKNOWN),
  TEX3D_ROW("Texture3DMoreMipsThanTheChain", kDocumentedOnly, d.MipLevels = 6),
  TEX3D_ROW("Texture3DDynamicReadAccess", kDocumentedOnly, d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ),
};

// ---- views against their resources

HRESULT srv(Env& e, IUnknown** out, ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* desc) {
  ID3D11ShaderResourceView* view = nullptr;
  HRESULT hr = e.device->CreateShaderResourceView(resource, desc, &view);
  if (resource)
    resource->Release();
  return into(hr, view, out);
}
HRESULT rtv(Env& e, IUnknown** out, ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC* desc) {
  ID3D11RenderTargetView* view = nullptr;
  HRESULT hr = e.device->CreateRenderTargetView(resource, desc, &view);
  if (resource)
    resource->Release();
  return into(hr, view, out);
}
HRESULT dsv(Env& e, IUnknown** out, ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc) {
  ID3D11DepthStencilView* view = nullptr;
  HRESULT hr = e.device->CreateDepthStencilView(resource, desc, &view);
  if (resource)
    resource->Release();
  return into(hr, view, out);
}
HRESULT uav(Env& e, IUnknown** out, ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc) {
  ID3D11UnorderedAccessView* view = nullptr;
  HRESULT hr = e.device->CreateUnorderedAccessView(resource, desc, &view);
  if (resource)
    resource->Release();
  return into(hr, view, out);
}

// A 64x64 texture with 4 mips and 3 slices, bound every way a color format allows.
ID3D11Texture2D* viewable(Env& e) {
  return e.texture2D(64, 64, DXGI_FORMAT_R8G8B8A8_UNORM,
                     D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS, 4, 3);
}
#define SRV_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_SHADER_RESOURCE_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R8G8B8A8_UNORM; \
      d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY; d.Texture2DArray.MipLevels = 4; d.Texture2DArray.ArraySize = 3; \
      __VA_ARGS__; return srv(e, out, viewable(e), &d);)
#define RTV_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_RENDER_TARGET_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R8G8B8A8_UNORM; \
      d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY; d.Texture2DArray.ArraySize = 3; \
      __VA_ARGS__; return rtv(e, out, viewable(e), &d);)
#define UAV_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_UNORDERED_ACCESS_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R8G8B8A8_UNORM; \
      d.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2DARRAY; d.Texture2DArray.ArraySize = 3; \
      __VA_ARGS__; return uav(e, out, viewable(e), &d);)
ID3D11Texture2D* depthTexture(Env& e) {
  return e.texture2D(64, 64, DXGI_FORMAT_R24G8_TYPELESS, D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE, 2, 2);
}
#define DSV_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_DEPTH_STENCIL_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT; \
      d.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DARRAY; d.Texture2DArray.ArraySize = 2; \
      __VA_ARGS__; return dsv(e, out, depthTexture(e), &d);)
// A raw/structured-capable buffer: 256 bytes.
ID3D11Buffer* viewableBuffer(Env& e) {
  return e.buffer(256, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS);
}
ID3D11Buffer* structuredBuffer(Env& e) {
  return e.buffer(256, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16);
}
#define BUFFER_SRV_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_SHADER_RESOURCE_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R32_FLOAT; \
      d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER; d.Buffer.NumElements = 64; \
      __VA_ARGS__; return srv(e, out, viewableBuffer(e), &d);)
#define BUFFER_UAV_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_UNORDERED_ACCESS_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R32_FLOAT; \
      d.ViewDimension = D3D11_UAV_DIMENSION_BUFFER; d.Buffer.NumElements = 64; \
      __VA_ARGS__; return uav(e, out, viewableBuffer(e), &d);)

const Row kViews[] = {
  SRV_ROW("SrvMostDetailedMipPastTheEnd", kWineAgrees, d.Texture2DArray.MostDetailedMip = 4; d.Texture2DArray.MipLevels = 1),
  SRV_ROW("SrvMipLevelsPastTheEnd", kWineAgrees, d.Texture2DArray.MostDetailedMip = 2; d.Texture2DArray.MipLevels = 3),
  SRV_ROW("SrvMipLevelsZero", kWineAgrees, d.Texture2DArray.MipLevels = 0),
  SRV_ROW("SrvArraySlicesPastTheEnd", kWineAgrees, d.Texture2DArray.FirstArraySlice = 2; d.Texture2DArray.ArraySize = 2),
  SRV_ROW("SrvArraySizeZero", kWineAgrees, d.Texture2DArray.ArraySize = 0),
  SRV_ROW("SrvDimension3DOf2D", kWineAgrees, d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D; d.Texture3D.MipLevels = 1),
  SRV_ROW("SrvDimensionBufferOfTexture", kWineAgrees, d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER; d.Buffer.NumElements = 4),
  SRV_ROW("SrvDimensionUnknown", kWineAgrees, d.ViewDimension = D3D11_SRV_DIMENSION_UNKNOWN),
  SRV_ROW("SrvDimensionOutOfRange", kWineAgrees, d.ViewDimension = D3D11_SRV_DIMENSION(40)),
  SRV_ROW("SrvFormatOfAnotherFamily", kWineAgrees, d.Format = DXGI_FORMAT_R32_FLOAT),
  SRV_ROW("SrvTypelessFormat", kWineAgrees, d.Format = DXGI_FORMAT_R8G8B8A8_TYPELESS),
  SRV_ROW("SrvCubeOfSixSlicelessTexture", kWineAgrees, d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBE; d.TextureCube.MipLevels = 1),
  ROW("SrvWithoutShaderResourceBind", E_INVALIDARG, kDocumentedOnly,
      return srv(e, out, e.texture2D(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET), nullptr);),
  ROW("SrvNullResource", E_INVALIDARG, kWineAgrees, return srv(e, out, nullptr, nullptr);),
  ROW("SrvOfTypelessTextureWithoutDesc", E_INVALIDARG, kWineAgrees,
      return srv(e, out, e.texture2D(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_BIND_SHADER_RESOURCE), nullptr);),
  ROW("SrvOfBufferWithoutDesc", E_INVALIDARG, kWineAgrees, return srv(e, out, viewableBuffer(e), nullptr);),
  BUFFER_SRV_ROW("SrvBufferZeroElements", kWineAgrees, d.Buffer.NumElements = 0),
  BUFFER_SRV_ROW("SrvBufferElementsPastTheEnd", kWineAgrees, d.Buffer.FirstElement = 60; d.Buffer.NumElements = 8),
  BUFFER_SRV_ROW("SrvBufferFormatUnknown", kWineAgrees, d.Format = DXGI_FORMAT_UNKNOWN),
  BUFFER_SRV_ROW("SrvBufferExRawWithoutRawViews", kDocumentedOnly, d.Format = DXGI_FORMAT_R32_TYPELESS;
                 d.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX; d.BufferEx.NumElements = 64;
                 d.BufferEx.Flags = D3D11_BUFFEREX_SRV_FLAG_RAW),
  ROW("SrvStructuredBufferWithFormat", E_INVALIDARG, kWineAgrees,
      D3D11_SHADER_RESOURCE_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R32_FLOAT; d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
      d.Buffer.NumElements = 16; return srv(e, out, structuredBuffer(e), &d);),
  ROW("SrvStructuredBufferElementsPastTheEnd", E_INVALIDARG, kWineAgrees,
      D3D11_SHADER_RESOURCE_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_UNKNOWN; d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
      d.Buffer.NumElements = 17; return srv(e, out, structuredBuffer(e), &d);),

  RTV_ROW("RtvMipSlicePastTheEnd", kWineAgrees, d.Texture2DArray.MipSlice = 4),
  RTV_ROW("RtvArraySlicesPastTheEnd", kWineAgrees, d.Texture2DArray.FirstArraySlice = 1; d.Texture2DArray.ArraySize = 3),
  RTV_ROW("RtvArraySizeZero", kWineAgrees, d.Texture2DArray.ArraySize = 0),
  RTV_ROW("RtvDimension1DOf2D", kWineAgrees, d.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1D),
  RTV_ROW("RtvDimensionUnknown", kWineAgrees, d.ViewDimension = D3D11_RTV_DIMENSION_UNKNOWN),
  RTV_ROW("RtvFormatOfAnotherFamily", kWineAgrees, d.Format = DXGI_FORMAT_R16G16_FLOAT),
  RTV_ROW("RtvTypelessFormat", kWineAgrees, d.Format = DXGI_FORMAT_R8G8B8A8_TYPELESS),
  RTV_ROW("RtvDepthFormat", kWineAgrees, d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT),
  ROW("RtvWithoutRenderTargetBind", E_INVALIDARG, kDocumentedOnly,
      return rtv(e, out, e.texture2D(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE), nullptr);),
  ROW("RtvNullResource", E_INVALIDARG, kWineAgrees, return rtv(e, out, nullptr, nullptr);),
  ROW("RtvOfTypelessTextureWithoutDesc", E_INVALIDARG, kWineAgrees,
      return rtv(e, out, e.texture2D(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_BIND_RENDER_TARGET), nullptr);),

  DSV_ROW("DsvMipSlicePastTheEnd", kWineAgrees, d.Texture2DArray.MipSlice = 2),
  DSV_ROW("DsvArraySlicesPastTheEnd", kWineAgrees, d.Texture2DArray.FirstArraySlice = 1; d.Texture2DArray.ArraySize = 2),
  DSV_ROW("DsvColorFormat", kDocumentedOnly, d.Format = DXGI_FORMAT_R8G8B8A8_UNORM),
  DSV_ROW("DsvFormatOfAnotherFamily", kDocumentedOnly, d.Format = DXGI_FORMAT_D32_FLOAT),
  DSV_ROW("DsvTypelessFormat", kWineAgrees, d.Format = DXGI_FORMAT_R24G8_TYPELESS),
  DSV_ROW("DsvUnknownFlags", kDocumentedOnly, d.Flags = 0x4),
  DSV_ROW("DsvDimension3D", kWineAgrees, d.ViewDimension = D3D11_DSV_DIMENSION(8)),
  DSV_ROW("DsvDimensionUnknown", kWineAgrees, d.ViewDimension = D3D11_DSV_DIMENSION_UNKNOWN),
  ROW("DsvWithoutDepthStencilBind", E_INVALIDARG, kDocumentedOnly,
      return dsv(e, out, e.texture2D(16, 16, DXGI_FORMAT_R32_TYPELESS, D3D11_BIND_SHADER_RESOURCE), nullptr);),
  ROW("DsvNullResource", E_INVALIDARG, kDocumentedOnly, return dsv(e, out, nullptr, nullptr);),
  ROW("DsvOfTypelessTextureWithoutDesc", E_INVALIDARG, kWineAgrees, return dsv(e, out, depthTexture(e), nullptr);),

  UAV_ROW("UavMipSlicePastTheEnd", kWineAgrees, d.Texture2DArray.MipSlice = 4),
  UAV_ROW("UavArraySlicesPastTheEnd", kWineAgrees, d.Texture2DArray.FirstArraySlice = 3; d.Texture2DArray.ArraySize = 1),
  UAV_ROW("UavDimensionUnknown", kWineAgrees, d.ViewDimension = D3D11_UAV_DIMENSION_UNKNOWN),
  UAV_ROW("UavFormatOfAnotherFamily", kWineAgrees, d.Format = DXGI_FORMAT_R32_UINT),
  UAV_ROW("UavTypelessFormat", kWineAgrees, d.Format = DXGI_FORMAT_R8G8B8A8_TYPELESS),
  ROW("UavWithoutUnorderedAccessBind", E_INVALIDARG, kDocumentedOnly,
      return uav(e, out, e.texture2D(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE), nullptr);),
  ROW("UavNullResource", E_INVALIDARG, kDocumentedOnly, return uav(e, out, nullptr, nullptr);),
  BUFFER_UAV_ROW("UavBufferZeroElements", kDocumentedOnly, d.Buffer.NumElements = 0),
  BUFFER_UAV_ROW("UavBufferElementsPastTheEnd", kWineAgrees, d.Buffer.FirstElement = 1; d.Buffer.NumElements = 64),
  BUFFER_UAV_ROW("UavBufferRawWithoutRawViews", kDocumentedOnly, d.Format = DXGI_FORMAT_R32_TYPELESS;
                 d.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW),
  BUFFER_UAV_ROW("UavBufferAppendOnTypedBuffer", kDocumentedOnly, d.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_APPEND),
  BUFFER_UAV_ROW("UavBufferUnknownFlags", kDocumentedOnly, d.Buffer.Flags = 0x40),
  ROW("UavStructuredBufferWithFormat", E_INVALIDARG, kWineAgrees,
      D3D11_UNORDERED_ACCESS_VIEW_DESC d = {}; d.Format = DXGI_FORMAT_R32_FLOAT; d.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
      d.Buffer.NumElements = 16; return uav(e, out, structuredBuffer(e), &d);),
};

// ---- state objects

HRESULT blend(Env& e, IUnknown** out, const D3D11_BLEND_DESC& desc) {
  ID3D11BlendState* state = nullptr;
  return into(e.device->CreateBlendState(&desc, &state), state, out);
}
#define BLEND_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_BLEND_DESC d = {}; auto& rt = d.RenderTarget[0]; rt.BlendEnable = TRUE; \
      rt.SrcBlend = rt.SrcBlendAlpha = D3D11_BLEND_ONE; rt.DestBlend = rt.DestBlendAlpha = D3D11_BLEND_ZERO; \
      rt.BlendOp = rt.BlendOpAlpha = D3D11_BLEND_OP_ADD; rt.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL; \
      __VA_ARGS__; return blend(e, out, d);)
HRESULT depthStencil(Env& e, IUnknown** out, const D3D11_DEPTH_STENCIL_DESC& desc) {
  ID3D11DepthStencilState* state = nullptr;
  return into(e.device->CreateDepthStencilState(&desc, &state), state, out);
}
#define DEPTH_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_DEPTH_STENCIL_DESC d = {}; d.DepthEnable = TRUE; \
      d.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL; d.DepthFunc = D3D11_COMPARISON_LESS; d.StencilEnable = TRUE; \
      d.StencilReadMask = d.StencilWriteMask = 0xff; \
      d.FrontFace = d.BackFace = { D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS }; \
      __VA_ARGS__; return depthStencil(e, out, d);)
HRESULT rasterizer(Env& e, IUnknown** out, const D3D11_RASTERIZER_DESC& desc) {
  ID3D11RasterizerState* state = nullptr;
  return into(e.device->CreateRasterizerState(&desc, &state), state, out);
}
#define RASTER_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_RASTERIZER_DESC d = {}; d.FillMode = D3D11_FILL_SOLID; \
      d.CullMode = D3D11_CULL_BACK; d.DepthClipEnable = TRUE; __VA_ARGS__; return rasterizer(e, out, d);)
HRESULT sampler(Env& e, IUnknown** out, const D3D11_SAMPLER_DESC& desc) {
  ID3D11SamplerState* state = nullptr;
  return into(e.device->CreateSamplerState(&desc, &state), state, out);
}
#define SAMPLER_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_SAMPLER_DESC d = {}; d.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR; \
      d.AddressU = d.AddressV = d.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP; d.MaxAnisotropy = 1; \
      d.ComparisonFunc = D3D11_COMPARISON_NEVER; d.MaxLOD = D3D11_FLOAT32_MAX; __VA_ARGS__; return sampler(e, out, d);)

const Row kStates[] = {
  BLEND_ROW("BlendSrcBlendZero", kDocumentedOnly, rt.SrcBlend = D3D11_BLEND(0)),
  BLEND_ROW("BlendSrcBlendOutOfRange", kDocumentedOnly, rt.SrcBlend = D3D11_BLEND(20)),
  BLEND_ROW("BlendDestBlendOutOfRange", kDocumentedOnly, rt.DestBlend = D3D11_BLEND(99)),
  BLEND_ROW("BlendOpZero", kDocumentedOnly, rt.BlendOp = D3D11_BLEND_OP(0)),
  BLEND_ROW("BlendOpOutOfRange", kDocumentedOnly, rt.BlendOp = D3D11_BLEND_OP(6)),
  BLEND_ROW("BlendAlphaOpOutOfRange", kDocumentedOnly, rt.BlendOpAlpha = D3D11_BLEND_OP(9)),
  BLEND_ROW("BlendAlphaUsesColorFactor", kDocumentedOnly, rt.SrcBlendAlpha = D3D11_BLEND_SRC_COLOR),
  BLEND_ROW("BlendAlphaUsesInverseDestColor", kDocumentedOnly, rt.DestBlendAlpha = D3D11_BLEND_INV_DEST_COLOR),
  BLEND_ROW("BlendWriteMaskAboveFourBits", kDocumentedOnly, rt.RenderTargetWriteMask = 0x10),
  BLEND_ROW("BlendIndependentTargetInvalid", kDocumentedOnly, d.IndependentBlendEnable = TRUE;
            d.RenderTarget[3] = rt; d.RenderTarget[3].BlendOp = D3D11_BLEND_OP(0)),
  ROW("BlendNullDesc", E_INVALIDARG, kWineAgrees,
      ID3D11BlendState* s = nullptr; return into(e.device->CreateBlendState(nullptr, &s), s, out);),
  DEPTH_ROW("DepthWriteMaskOutOfRange", kDocumentedOnly, d.DepthWriteMask = D3D11_DEPTH_WRITE_MASK(2)),
  DEPTH_ROW("DepthFuncZero", kDocumentedOnly, d.DepthFunc = D3D11_COMPARISON_FUNC(0)),
  DEPTH_ROW("DepthFuncOutOfRange", kDocumentedOnly, d.DepthFunc = D3D11_COMPARISON_FUNC(9)),
  DEPTH_ROW("StencilFailOpZero", kDocumentedOnly, d.FrontFace.StencilFailOp = D3D11_STENCIL_OP(0)),
  DEPTH_ROW("StencilPassOpOutOfRange", kDocumentedOnly, d.BackFace.StencilPassOp = D3D11_STENCIL_OP(9)),
  DEPTH_ROW("StencilDepthFailOpOutOfRange", kDocumentedOnly, d.FrontFace.StencilDepthFailOp = D3D11_STENCIL_OP(12)),
  DEPTH_ROW("StencilFuncZero", kDocumentedOnly, d.BackFace.StencilFunc = D3D11_COMPARISON_FUNC(0)),
  ROW("DepthStencilNullDesc", E_INVALIDARG, kWineAgrees,
      ID3D11DepthStencilState* s = nullptr; return into(e.device->CreateDepthStencilState(nullptr, &s), s, out);),
  RASTER_ROW("RasterizerFillModeZero", kDocumentedOnly, d.FillMode = D3D11_FILL_MODE(0)),
  RASTER_ROW("RasterizerFillModeOutOfRange", kDocumentedOnly, d.FillMode = D3D11_FILL_MODE(4)),
  RASTER_ROW("RasterizerCullModeZero", kDocumentedOnly, d.CullMode = D3D11_CULL_MODE(0)),
  RASTER_ROW("RasterizerCullModeOutOfRange", kDocumentedOnly, d.CullMode = D3D11_CULL_MODE(4)),
  ROW("RasterizerNullDesc", E_INVALIDARG, kWineAgrees,
      ID3D11RasterizerState* s = nullptr; return into(e.device->CreateRasterizerState(nullptr, &s), s, out);),
  SAMPLER_ROW("SamplerFilterOutOfRange", kDocumentedOnly, d.Filter = D3D11_FILTER(0x7f)),
  SAMPLER_ROW("SamplerAddressZero", kDocumentedOnly, d.AddressU = D3D11_TEXTURE_ADDRESS_MODE(0)),
  SAMPLER_ROW("SamplerAddressOutOfRange", kDocumentedOnly, d.AddressV = D3D11_TEXTURE_ADDRESS_MODE(6)),
  SAMPLER_ROW("SamplerAddressWOutOfRange", kDocumentedOnly, d.AddressW = D3D11_TEXTURE_ADDRESS_MODE(99)),
  SAMPLER_ROW("SamplerAnisotropyAbove16", kDocumentedOnly, d.Filter = D3D11_FILTER_ANISOTROPIC; d.MaxAnisotropy = 17),
  SAMPLER_ROW("SamplerComparisonFuncZero", kDocumentedOnly, d.Filter = D3D11_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR;
              d.ComparisonFunc = D3D11_COMPARISON_FUNC(0)),
  SAMPLER_ROW("SamplerMipLodBiasBelowMinimum", kDocumentedOnly, d.MipLODBias = -16.5f),
  SAMPLER_ROW("SamplerMipLodBiasAboveMaximum", kDocumentedOnly, d.MipLODBias = 16.0f),
  SAMPLER_ROW("SamplerMinLodAboveMaxLod", kDocumentedOnly, d.MinLOD = 4.0f; d.MaxLOD = 2.0f),
  ROW("SamplerNullDesc", E_INVALIDARG, kWineAgrees,
      ID3D11SamplerState* s = nullptr; return into(e.device->CreateSamplerState(nullptr, &s), s, out);),
};

// ---- shaders and input layouts

HRESULT vertexShader(Env& e, IUnknown** out, const void* code, SIZE_T size) {
  ID3D11VertexShader* shader = nullptr;
  return into(e.device->CreateVertexShader(code, size, nullptr, &shader), shader, out);
}
// The vertex shader's bytes with one changed at `offset` (the checksum no longer matches).
std::vector<uint8_t> alteredVertexShader(Env& e, size_t offset) {
  const auto* bytes = static_cast<const uint8_t*>(e.vertexShader->GetBufferPointer());
  std::vector<uint8_t> copy(bytes, bytes + e.vertexShader->GetBufferSize());
  if (offset < copy.size())
    copy[offset] ^= 0x5a;
  return copy;
}
HRESULT inputLayout(Env& e, IUnknown** out, const D3D11_INPUT_ELEMENT_DESC* elements, UINT count) {
  ID3D11InputLayout* layout = nullptr;
  return into(e.device->CreateInputLayout(elements, count, e.vertexShader->GetBufferPointer(), e.vertexShader->GetBufferSize(),
                                          &layout), layout, out);
}
#define LAYOUT_ROW(name, oracle, ...) \
  ROW(name, E_INVALIDARG, oracle, D3D11_INPUT_ELEMENT_DESC d[2] = { \
        { "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 }, \
        { "TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 16, D3D11_INPUT_PER_VERTEX_DATA, 0 } }; \
      __VA_ARGS__; return inputLayout(e, out, d, 2);)

const Row kShaders[] = {
  ROW("VertexShaderGarbageBytes", E_INVALIDARG, kWineAgrees,
      uint8_t garbage[64]; for (int i = 0; i < 64; i++) garbage[i] = uint8_t(i * 37 + 11);
      return vertexShader(e, out, garbage, sizeof(garbage));),
  ROW("VertexShaderZeroLength", E_INVALIDARG, kWineAgrees,
      return vertexShader(e, out, e.vertexShader->GetBufferPointer(), 0);),
  ROW("VertexShaderNullBytecode", E_INVALIDARG, kWineAgrees, return vertexShader(e, out, nullptr, 64);),
  ROW("VertexShaderTruncated", E_INVALIDARG, kWineAgrees,
      return vertexShader(e, out, e.vertexShader->GetBufferPointer(), e.vertexShader->GetBufferSize() / 2);),
  ROW("VertexShaderFromPixelShaderBytecode", E_INVALIDARG, kWineAgrees,
      return vertexShader(e, out, e.pixelShader->GetBufferPointer(), e.pixelShader->GetBufferSize());),
  ROW("PixelShaderFromVertexShaderBytecode", E_INVALIDARG, kWineAgrees,
      ID3D11PixelShader* s = nullptr;
      return into(e.device->CreatePixelShader(e.vertexShader->GetBufferPointer(), e.vertexShader->GetBufferSize(), nullptr, &s),
                  s, out);),
  ROW("ComputeShaderFromPixelShaderBytecode", E_INVALIDARG, kWineAgrees,
      ID3D11ComputeShader* s = nullptr;
      return into(e.device->CreateComputeShader(e.pixelShader->GetBufferPointer(), e.pixelShader->GetBufferSize(), nullptr, &s),
                  s, out);),
  ROW("GeometryShaderFromVertexShaderBytecode", E_INVALIDARG, kWineAgrees,
      ID3D11GeometryShader* s = nullptr;
      return into(e.device->CreateGeometryShader(e.vertexShader->GetBufferPointer(), e.vertexShader->GetBufferSize(), nullptr, &s),
                  s, out);),
  ROW("VertexShaderBadMagic", E_INVALIDARG, kWineAgrees,
      std::vector<uint8_t> code = alteredVertexShader(e, 0); return vertexShader(e, out, code.data(), code.size());),
  ROW("VertexShaderChecksumMismatch", E_INVALIDARG, kDocumentedOnly,
      std::vector<uint8_t> code = alteredVertexShader(e, e.vertexShader->GetBufferSize() - 8);
      return vertexShader(e, out, code.data(), code.size());),
  ROW("StreamOutputRasterizedStreamOutOfRange", E_INVALIDARG, kWineAgrees,
      D3D11_SO_DECLARATION_ENTRY entry = { 0, "SV_Position", 0, 0, 4, 0 }; UINT stride = 16; ID3D11GeometryShader* s = nullptr;
      return into(e.device->CreateGeometryShaderWithStreamOutput(e.vertexShader->GetBufferPointer(), e.vertexShader->GetBufferSize(),
                                                                 &entry, 1, &stride, 1, 5, nullptr, &s), s, out);),
  ROW("StreamOutputTooManyStrides", E_INVALIDARG, kDocumentedOnly,
      D3D11_SO_DECLARATION_ENTRY entry = { 0, "SV_Position", 0, 0, 4, 0 }; UINT strides[5] = { 16, 16, 16, 16, 16 };
      ID3D11GeometryShader* s = nullptr;
      return into(e.device->CreateGeometryShaderWithStreamOutput(e.vertexShader->GetBufferPointer(), e.vertexShader->GetBufferSize(),
                                                                 &entry, 1, strides, 5, 0, nullptr, &s), s, out);),
  LAYOUT_ROW("InputLayoutSemanticNotInShader", kWineAgrees, d[1].SemanticName = "NORMAL"),
  LAYOUT_ROW("InputLayoutSemanticIndexNotInShader", kWineAgrees, d[1].SemanticIndex = 3),
  LAYOUT_ROW("InputLayoutSlotAbove31", kDocumentedOnly, d[1].InputSlot = 32),
  LAYOUT_ROW("InputLayoutPerVertexStepRate", kDocumentedOnly, d[1].InstanceDataStepRate = 1),
  LAYOUT_ROW("InputLayoutClassOutOfRange", kDocumentedOnly, d[1].InputSlotClass = D3D11_INPUT_CLASSIFICATION(2)),
  LAYOUT_ROW("InputLayoutNullSemanticName", kWineAgrees, d[1].SemanticName = nullptr),
  LAYOUT_ROW("InputLayoutFormatUnknown", kWineAgrees, d[1].Format = DXGI_FORMAT_UNKNOWN),
  LAYOUT_ROW("InputLayoutFormatNotAVertexFormat", kWineAgrees, d[1].Format = DXGI_FORMAT_BC1_UNORM),
  LAYOUT_ROW("InputLayoutUnalignedOffset", kWineAgrees, d[1].AlignedByteOffset = 18),
  LAYOUT_ROW("InputLayoutMixedClassesInOneSlot", kDocumentedOnly, d[1].InputSlotClass = D3D11_INPUT_PER_INSTANCE_DATA;
             d[1].InstanceDataStepRate = 1),
  LAYOUT_ROW("InputLayoutDuplicateElement", kWineAgrees, d[1] = d[0]; d[1].AlignedByteOffset = 16),
  LAYOUT_ROW("InputLayoutMissingShaderInput", kWineAgrees, d[1] = d[0]; d[1].SemanticName = "POSITION"; d[1].SemanticIndex = 0;
             d[0].SemanticName = "COLOR"),
  ROW("InputLayoutGarbageBytecode", E_INVALIDARG, kDocumentedOnly,
      D3D11_INPUT_ELEMENT_DESC d = { "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 };
      uint8_t garbage[64] = {}; ID3D11InputLayout* layout = nullptr;
      return into(e.device->CreateInputLayout(&d, 1, garbage, sizeof(garbage), &layout), layout, out);),
  ROW("InputLayoutNullElementsWithCount", E_INVALIDARG, kWineAgrees, return inputLayout(e, out, nullptr, 2);),
};

// ---- queries, predicates, counters, deferred contexts

HRESULT query(Env& e, IUnknown** out, D3D11_QUERY type, UINT misc) {
  const D3D11_QUERY_DESC desc = { type, misc };
  ID3D11Query* q = nullptr;
  return into(e.device->CreateQuery(&desc, &q), q, out);
}
HRESULT predicate(Env& e, IUnknown** out, D3D11_QUERY type) {
  const D3D11_QUERY_DESC desc = { type, 0 };
  ID3D11Predicate* p = nullptr;
  return into(e.device->CreatePredicate(&desc, &p), p, out);
}

const Row kQueries[] = {
  ROW("QueryTypeOutOfRange", E_INVALIDARG, kWineAgrees, return query(e, out, D3D11_QUERY(100), 0);),
  ROW("QueryTypeNegative", E_INVALIDARG, kWineAgrees, return query(e, out, D3D11_QUERY(-1), 0);),
  ROW("QueryUnknownMiscFlag", E_INVALIDARG, kDocumentedOnly, return query(e, out, D3D11_QUERY_OCCLUSION, 0x2);),
  ROW("QueryNullDesc", E_INVALIDARG, kWineAgrees,
      ID3D11Query* q = nullptr; return into(e.device->CreateQuery(nullptr, &q), q, out);),
  ROW("PredicateOfTimestamp", E_INVALIDARG, kWineAgrees, return predicate(e, out, D3D11_QUERY_TIMESTAMP);),
  ROW("PredicateOfEvent", E_INVALIDARG, kWineAgrees, return predicate(e, out, D3D11_QUERY_EVENT);),
  ROW("PredicateOfPipelineStatistics", E_INVALIDARG, kWineAgrees, return predicate(e, out, D3D11_QUERY_PIPELINE_STATISTICS);),
  ROW("PredicateNullDesc", E_INVALIDARG, kWineAgrees,
      ID3D11Predicate* p = nullptr; return into(e.device->CreatePredicate(nullptr, &p), p, out);),
};

INSTANTIATE_TEST_SUITE_P(Buffers, RowTest, ::testing::ValuesIn(kBuffers), rowName);
INSTANTIATE_TEST_SUITE_P(Textures2D, RowTest, ::testing::ValuesIn(kTextures2D), rowName);
INSTANTIATE_TEST_SUITE_P(Textures1D3D, RowTest, ::testing::ValuesIn(kTextures1D3D), rowName);
INSTANTIATE_TEST_SUITE_P(Views, RowTest, ::testing::ValuesIn(kViews), rowName);
INSTANTIATE_TEST_SUITE_P(States, RowTest, ::testing::ValuesIn(kStates), rowName);
INSTANTIATE_TEST_SUITE_P(Shaders, RowTest, ::testing::ValuesIn(kShaders), rowName);
INSTANTIATE_TEST_SUITE_P(Queries, RowTest, ::testing::ValuesIn(kQueries), rowName);

}  // namespace
}  // namespace npt::test::catalogue
