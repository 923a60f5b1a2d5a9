// SPDX-License-Identifier: MIT
#include "dxgi_blit.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "dxbc/asm/assembler.h"

namespace triton::driver {

extern const char kBlitVertexShader[];   // dxgi_blit_shaders.cpp
extern const char kBlitPixelShader[];

namespace {

using Microsoft::WRL::ComPtr;

// Everything of the immediate context's state the blit replaces, taken with the
// getters (which AddRef) and put back with the setters.
class SavedPipeline {
public:
  explicit SavedPipeline(ID3D11DeviceContext* c) : c_(c) {
    c->IAGetInputLayout(&layout_);
    c->IAGetPrimitiveTopology(&topology_);
    vs_.save(c, &ID3D11DeviceContext::VSGetShader);
    hs_.save(c, &ID3D11DeviceContext::HSGetShader);
    ds_.save(c, &ID3D11DeviceContext::DSGetShader);
    gs_.save(c, &ID3D11DeviceContext::GSGetShader);
    ps_.save(c, &ID3D11DeviceContext::PSGetShader);
    c->VSGetConstantBuffers(0, 1, &vsConstants_);
    c->PSGetShaderResources(0, 1, &psResource_);
    c->PSGetSamplers(0, 1, &psSampler_);
    c->RSGetState(&rasterizer_);
    viewportCount_ = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
    c->RSGetViewports(&viewportCount_, viewports_);
    c->OMGetRenderTargetsAndUnorderedAccessViews(D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, rtvs_, &dsv_, 0,
                                                 D3D11_PS_CS_UAV_REGISTER_COUNT, uavs_);
    c->OMGetBlendState(&blend_, blendFactor_, &sampleMask_);
    c->OMGetDepthStencilState(&depthStencil_, &stencilRef_);
    c->GetPredication(&predicate_, &predicateValue_);
  }

  ~SavedPipeline() {
    ID3D11DeviceContext* c = c_;
    c->IASetInputLayout(layout_);
    c->IASetPrimitiveTopology(topology_);
    vs_.restore(c, &ID3D11DeviceContext::VSSetShader);
    hs_.restore(c, &ID3D11DeviceContext::HSSetShader);
    ds_.restore(c, &ID3D11DeviceContext::DSSetShader);
    gs_.restore(c, &ID3D11DeviceContext::GSSetShader);
    ps_.restore(c, &ID3D11DeviceContext::PSSetShader);
    c->VSSetConstantBuffers(0, 1, &vsConstants_);
    c->PSSetShaderResources(0, 1, &psResource_);
    c->PSSetSamplers(0, 1, &psSampler_);
    c->RSSetState(rasterizer_);
    c->RSSetViewports(viewportCount_, viewports_);
    // Render targets as a prefix, UAVs after them, as they were; counters kept (-1).
    UINT rtvCount = 0;
    for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; ++i)
      if (rtvs_[i])
        rtvCount = i + 1;
    UINT firstUav = D3D11_PS_CS_UAV_REGISTER_COUNT, uavEnd = 0;
    for (UINT i = 0; i < D3D11_PS_CS_UAV_REGISTER_COUNT; ++i)
      if (uavs_[i]) {
        firstUav = std::min(firstUav, i);
        uavEnd = i + 1;
      }
    if (uavEnd == 0) {
      c->OMSetRenderTargets(rtvCount, rtvs_, dsv_);
    } else {
      UINT keep[D3D11_PS_CS_UAV_REGISTER_COUNT];
      std::fill(std::begin(keep), std::end(keep), UINT(-1));
      c->OMSetRenderTargetsAndUnorderedAccessViews(rtvCount, rtvs_, dsv_, firstUav, uavEnd - firstUav,
                                                   uavs_ + firstUav, keep);
    }
    c->OMSetBlendState(blend_, blendFactor_, sampleMask_);
    c->OMSetDepthStencilState(depthStencil_, stencilRef_);
    c->SetPredication(predicate_, predicateValue_);
    release(layout_, vsConstants_, psResource_, psSampler_, rasterizer_, dsv_, blend_, depthStencil_, predicate_);
    for (ID3D11RenderTargetView* view : rtvs_)
      release(view);
    for (ID3D11UnorderedAccessView* view : uavs_)
      release(view);
  }

  SavedPipeline(const SavedPipeline&) = delete;
  SavedPipeline& operator=(const SavedPipeline&) = delete;

private:
  template <class... Objects>
  static void release(Objects*... objects) {
    (void(objects ? objects->Release() : 0), ...);
  }

  // A shader stage: its shader and class instances.
  template <class ShaderType>
  struct Stage {
    ShaderType* shader = nullptr;
    ID3D11ClassInstance* instances[D3D11_SHADER_MAX_INTERFACES] = {};
    UINT instanceCount = D3D11_SHADER_MAX_INTERFACES;

    void save(ID3D11DeviceContext* c, void (STDMETHODCALLTYPE ID3D11DeviceContext::*get)(ShaderType**, ID3D11ClassInstance**, UINT*)) {
      (c->*get)(&shader, instances, &instanceCount);
    }
    void restore(ID3D11DeviceContext* c,
                 void (STDMETHODCALLTYPE ID3D11DeviceContext::*set)(ShaderType*, ID3D11ClassInstance* const*, UINT)) {
      (c->*set)(shader, instanceCount ? instances : nullptr, instanceCount);
      release(shader);
      for (UINT i = 0; i < instanceCount && i < D3D11_SHADER_MAX_INTERFACES; ++i)
        release(instances[i]);
    }
  };

  ID3D11DeviceContext* c_;
  ID3D11InputLayout* layout_ = nullptr;
  D3D11_PRIMITIVE_TOPOLOGY topology_{};
  Stage<ID3D11VertexShader> vs_;
  Stage<ID3D11HullShader> hs_;
  Stage<ID3D11DomainShader> ds_;
  Stage<ID3D11GeometryShader> gs_;
  Stage<ID3D11PixelShader> ps_;
  ID3D11Buffer* vsConstants_ = nullptr;
  ID3D11ShaderResourceView* psResource_ = nullptr;
  ID3D11SamplerState* psSampler_ = nullptr;
  ID3D11RasterizerState* rasterizer_ = nullptr;
  UINT viewportCount_ = 0;
  D3D11_VIEWPORT viewports_[D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE] = {};
  ID3D11RenderTargetView* rtvs_[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT] = {};
  ID3D11DepthStencilView* dsv_ = nullptr;
  ID3D11UnorderedAccessView* uavs_[D3D11_PS_CS_UAV_REGISTER_COUNT] = {};
  ID3D11BlendState* blend_ = nullptr;
  FLOAT blendFactor_[4] = {};
  UINT sampleMask_ = 0;
  ID3D11DepthStencilState* depthStencil_ = nullptr;
  UINT stencilRef_ = 0;
  ID3D11Predicate* predicate_ = nullptr;
  BOOL predicateValue_ = FALSE;
};

// The rotation as a 2x2 matrix over centred texture coordinates: the source
// coordinate a destination pixel samples (clockwise rotation of the source image).
void rotationMatrix(ddi::DXGI_DDI_MODE_ROTATION rotation, float m[4]) {
  static const float kMatrices[4][4] = {
      {1, 0, 0, 1},     // identity
      {0, 1, -1, 0},    // 90: dst(u, v) = src(v, 1 - u)
      {-1, 0, 0, -1},   // 180
      {0, -1, 1, 0},    // 270: dst(u, v) = src(1 - v, u)
  };
  int index = 0;
  switch (rotation) {
    case ddi::DXGI_DDI_MODE_ROTATION_ROTATE90: index = 1; break;
    case ddi::DXGI_DDI_MODE_ROTATION_ROTATE180: index = 2; break;
    case ddi::DXGI_DDI_MODE_ROTATION_ROTATE270: index = 3; break;
    default: break;
  }
  std::memcpy(m, kMatrices[index], sizeof(kMatrices[index]));
}

bool texture2D(ID3D11Resource* resource, D3D11_TEXTURE2D_DESC& desc) {
  ComPtr<ID3D11Texture2D> texture;
  if (!resource || FAILED(resource->QueryInterface(IID_PPV_ARGS(&texture))))
    return false;
  texture->GetDesc(&desc);
  return true;
}

}  // namespace

HRESULT Blitter::createPipeline() {
  if (vs_)
    return S_OK;
  std::vector<uint8_t> vs, ps;
  if (!dxbc::sm::assembleContainer(kBlitVertexShader, vs).ok || !dxbc::sm::assembleContainer(kBlitPixelShader, ps).ok)
    return E_FAIL;   // fixed texts: the drawn-blit tests of driver_dxgi_test fail if they stop assembling
  HRESULT hr = device_->CreateVertexShader(vs.data(), vs.size(), nullptr, &vs_);
  if (SUCCEEDED(hr))
    hr = device_->CreatePixelShader(ps.data(), ps.size(), nullptr, &ps_);
  D3D11_SAMPLER_DESC sampler{};
  sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
  sampler.ComparisonFunc = D3D11_COMPARISON_NEVER;
  sampler.MaxLOD = D3D11_FLOAT32_MAX;
  sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
  if (SUCCEEDED(hr))
    hr = device_->CreateSamplerState(&sampler, &point_);
  sampler.Filter = D3D11_FILTER_MIN_MAG_LINEAR_MIP_POINT;
  if (SUCCEEDED(hr))
    hr = device_->CreateSamplerState(&sampler, &linear_);
  D3D11_BUFFER_DESC constants{32, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  if (SUCCEEDED(hr))
    hr = device_->CreateBuffer(&constants, nullptr, &constants_);
  D3D11_RASTERIZER_DESC rasterizer{};
  rasterizer.FillMode = D3D11_FILL_SOLID;
  rasterizer.CullMode = D3D11_CULL_NONE;
  rasterizer.DepthClipEnable = TRUE;
  if (SUCCEEDED(hr))
    hr = device_->CreateRasterizerState(&rasterizer, &rasterizer_);
  if (FAILED(hr))
    vs_.Reset();   // try again next time
  return hr;
}

HRESULT Blitter::blit(ID3D11DeviceContext* context, ID3D11Resource* dst, UINT dstSub, const BlitRect& dstRect,
                      ID3D11Resource* src, UINT srcSub, const BlitRect& srcRect, ddi::DXGI_DDI_MODE_ROTATION rotation,
                      bool linear) {
  D3D11_TEXTURE2D_DESC dstDesc{}, srcDesc{};
  if (!texture2D(dst, dstDesc) || !texture2D(src, srcDesc))
    return E_INVALIDARG;
  if (dstSub >= dstDesc.MipLevels * dstDesc.ArraySize || srcSub >= srcDesc.MipLevels * srcDesc.ArraySize)
    return E_INVALIDARG;
  UINT dstMip = dstSub % dstDesc.MipLevels, dstSlice = dstSub / dstDesc.MipLevels;
  UINT srcMip = srcSub % srcDesc.MipLevels, srcSlice = srcSub / srcDesc.MipLevels;
  const UINT srcWidth = std::max(1u, srcDesc.Width >> srcMip), srcHeight = std::max(1u, srcDesc.Height >> srcMip);
  const UINT dstWidth = std::max(1u, dstDesc.Width >> dstMip), dstHeight = std::max(1u, dstDesc.Height >> dstMip);
  if (srcRect.left >= srcRect.right || srcRect.top >= srcRect.bottom || srcRect.right > srcWidth ||
      srcRect.bottom > srcHeight || dstRect.left >= dstRect.right || dstRect.top >= dstRect.bottom ||
      dstRect.right > dstWidth || dstRect.bottom > dstHeight)
    return E_INVALIDARG;
  // The draw samples the source and renders to the destination: formats the target
  // cannot sample (typeless, depth) or render to (block-compressed, ...) are out of reach.
  // (A multisampled source is resolved as the plain Resolve blt does: wined3d resolves
  // without reporting MULTISAMPLE_RESOLVE support, so that bit is not asked for.)
  UINT srcSupport = 0, dstSupport = 0;
  if (FAILED(device_->CheckFormatSupport(srcDesc.Format, &srcSupport)) ||
      FAILED(device_->CheckFormatSupport(dstDesc.Format, &dstSupport)) ||
      !(srcSupport & D3D11_FORMAT_SUPPORT_SHADER_SAMPLE) || !(dstSupport & D3D11_FORMAT_SUPPORT_RENDER_TARGET))
    return E_NOTIMPL;   // the caller reports it

  HRESULT hr = createPipeline();
  if (FAILED(hr))
    return hr;

  // A source the draw cannot sample as it is (not bound as a shader resource, or
  // multisampled: the shader reads one sample) is first copied, or resolved, into a
  // single-sampled scratch texture of the source subresource's size.
  ComPtr<ID3D11Texture2D> srcScratch;
  if (!(srcDesc.BindFlags & D3D11_BIND_SHADER_RESOURCE) || srcDesc.SampleDesc.Count != 1) {
    const D3D11_TEXTURE2D_DESC scratch{srcWidth, srcHeight, 1, 1, srcDesc.Format, {1, 0}, D3D11_USAGE_DEFAULT,
                                       D3D11_BIND_SHADER_RESOURCE, 0, 0};
    if (FAILED(device_->CreateTexture2D(&scratch, nullptr, &srcScratch)))
      return E_NOTIMPL;
    if (srcDesc.SampleDesc.Count > 1)
      context->ResolveSubresource(srcScratch.Get(), 0, src, srcSub, srcDesc.Format);
    else
      context->CopySubresourceRegion(srcScratch.Get(), 0, 0, 0, 0, src, srcSub, nullptr);
    src = srcScratch.Get();
    srcDesc = scratch;
    srcMip = srcSlice = 0;
  }
  // A destination the draw cannot render to (not bound as a render target) gets a scratch
  // render target holding its subresource; drawn into, it is copied back whole, so the
  // pixels outside the rectangle stay as they were.
  ID3D11Resource* const finalDst = dst;
  const UINT finalDstSub = dstSub;
  ComPtr<ID3D11Texture2D> dstScratch;
  if (!(dstDesc.BindFlags & D3D11_BIND_RENDER_TARGET)) {
    const D3D11_TEXTURE2D_DESC scratch{dstWidth, dstHeight, 1, 1, dstDesc.Format, dstDesc.SampleDesc,
                                       D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, 0};
    if (FAILED(device_->CreateTexture2D(&scratch, nullptr, &dstScratch)))
      return E_NOTIMPL;
    context->CopySubresourceRegion(dstScratch.Get(), 0, 0, 0, 0, dst, dstSub, nullptr);
    dst = dstScratch.Get();
    dstDesc = scratch;
    dstSub = dstMip = dstSlice = 0;
  }

  D3D11_RENDER_TARGET_VIEW_DESC rtvDesc{};
  rtvDesc.Format = dstDesc.Format;
  if (dstDesc.SampleDesc.Count > 1) {
    rtvDesc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY;
    rtvDesc.Texture2DMSArray = {dstSlice, 1};
  } else {
    rtvDesc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
    rtvDesc.Texture2DArray = {dstMip, dstSlice, 1};
  }
  D3D11_SHADER_RESOURCE_VIEW_DESC srvDesc{};
  srvDesc.Format = srcDesc.Format;
  srvDesc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
  srvDesc.Texture2DArray = {srcMip, 1, srcSlice, 1};
  ComPtr<ID3D11RenderTargetView> rtv;
  ComPtr<ID3D11ShaderResourceView> srv;
  hr = device_->CreateRenderTargetView(dst, &rtvDesc, &rtv);
  if (SUCCEEDED(hr))
    hr = device_->CreateShaderResourceView(src, &srvDesc, &srv);
  if (FAILED(hr))
    return hr;

  // cb0[0]: the source rectangle in normalized coordinates; cb0[1]: the rotation.
  float constants[8] = {float(srcRect.left) / float(srcWidth), float(srcRect.top) / float(srcHeight),
                        float(srcRect.right - srcRect.left) / float(srcWidth),
                        float(srcRect.bottom - srcRect.top) / float(srcHeight)};
  rotationMatrix(rotation, constants + 4);

  SavedPipeline saved(context);
  context->UpdateSubresource(constants_.Get(), 0, nullptr, constants, 0, 0);
  context->IASetInputLayout(nullptr);
  context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  context->VSSetShader(vs_.Get(), nullptr, 0);
  context->HSSetShader(nullptr, nullptr, 0);
  context->DSSetShader(nullptr, nullptr, 0);
  context->GSSetShader(nullptr, nullptr, 0);
  context->PSSetShader(ps_.Get(), nullptr, 0);
  ID3D11Buffer* cb = constants_.Get();
  context->VSSetConstantBuffers(0, 1, &cb);
  ID3D11RenderTargetView* target = rtv.Get();
  context->OMSetRenderTargets(1, &target, nullptr);   // before the SRV: the source may have been a target
  ID3D11ShaderResourceView* view = srv.Get();
  context->PSSetShaderResources(0, 1, &view);
  ID3D11SamplerState* sampler = linear ? linear_.Get() : point_.Get();
  context->PSSetSamplers(0, 1, &sampler);
  context->RSSetState(rasterizer_.Get());
  const D3D11_VIEWPORT viewport{float(dstRect.left), float(dstRect.top), float(dstRect.right - dstRect.left),
                                float(dstRect.bottom - dstRect.top), 0.0f, 1.0f};
  context->RSSetViewports(1, &viewport);
  context->OMSetBlendState(nullptr, nullptr, 0xffffffff);
  context->OMSetDepthStencilState(nullptr, 0);
  context->SetPredication(nullptr, FALSE);
  context->Draw(3, 0);
  // The source must not stay bound as an SRV when the saved render targets come back.
  ID3D11ShaderResourceView* none = nullptr;
  context->PSSetShaderResources(0, 1, &none);
  if (dstScratch)
    context->CopySubresourceRegion(finalDst, finalDstSub, 0, 0, 0, dstScratch.Get(), 0, nullptr);
  return S_OK;
}

}  // namespace triton::driver
