// SPDX-License-Identifier: MIT
// ID3D11Device1 / ID3D11DeviceContext1 through the API-level runtime on Triton on the
// Neptune guest runtime, each case run the same way on the system d3d11 (Wine's) and
// compared: 11.1 state objects, constant-buffer ranges (*SetConstantBuffers1, read by a
// compute shader), ClearView, CopySubresourceRegion1/UpdateSubresource1 with their flags,
// discards, a deferred context of CreateDeferredContext1.

#include <array>
#include <cstring>
#include <vector>

#include <d3d11_1.h>

#include "cs_constants.h"
#include "runtime_test_support.h"

namespace triton::test {
namespace {

using Microsoft::WRL::ComPtr;

constexpr D3D_FEATURE_LEVEL kLevel = D3D_FEATURE_LEVEL_11_0;

struct Device1 {
  ComPtr<ID3D11Device1> device;
  ComPtr<ID3D11DeviceContext1> context;
};

Device1 create1(const Loaded& loaded) {
  Device1 out;
  ComPtr<ID3D11DeviceContext> context;
  ComPtr<ID3D11Device> device = createDevice(loaded, kLevel, &context);
  if (device) {
    device.As(&out.device);
    context.As(&out.context);
  }
  return out;
}

// Both devices: the runtime's (Triton) and the system's (direct).
struct Pair {
  Loaded runtime = loadRuntime();
  Loaded system = loadSystem();
  Device1 ours = create1(runtime);
  Device1 direct = create1(system);
  bool ok() const { return ours.device && ours.context && direct.device && direct.context; }
};

// RGBA32F texels of a texture (the first row of `width`), through a staging copy.
std::vector<float> readTexels(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11Texture2D* texture,
                              UINT width, UINT height = 1) {
  D3D11_TEXTURE2D_DESC desc{};
  texture->GetDesc(&desc);
  desc.Usage = D3D11_USAGE_STAGING;
  desc.BindFlags = 0;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  desc.MiscFlags = 0;
  ComPtr<ID3D11Texture2D> staging;
  std::vector<float> out;
  if (FAILED(device->CreateTexture2D(&desc, nullptr, &staging)))
    return out;
  context->CopyResource(staging.Get(), texture);
  D3D11_MAPPED_SUBRESOURCE mapped{};
  if (context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped) != S_OK)
    return out;
  for (UINT y = 0; y < height; ++y) {
    const float* row = reinterpret_cast<const float*>(static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch);
    out.insert(out.end(), row, row + width * 4);
  }
  context->Unmap(staging.Get(), 0);
  return out;
}

ComPtr<ID3D11Texture2D> floatTexture(ID3D11Device* device, UINT width, UINT height, UINT bind) {
  const D3D11_TEXTURE2D_DESC desc{width, height, 1, 1, DXGI_FORMAT_R32G32B32A32_FLOAT, {1, 0}, D3D11_USAGE_DEFAULT,
                                  bind, 0, 0};
  ComPtr<ID3D11Texture2D> texture;
  EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &texture), S_OK);
  return texture;
}

// 64 constants, constant i = (i, i + 0.25, i + 0.5, i + 0.75).
ComPtr<ID3D11Buffer> constants64(ID3D11Device* device) {
  std::array<float, 64 * 4> values{};
  for (UINT i = 0; i < 64; ++i)
    for (UINT c = 0; c < 4; ++c)
      values[i * 4 + c] = float(i) + 0.25f * float(c);
  const D3D11_BUFFER_DESC desc{sizeof(values), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA init{values.data(), 0, 0};
  ComPtr<ID3D11Buffer> buffer;
  EXPECT_EQ(device->CreateBuffer(&desc, &init, &buffer), S_OK);
  return buffer;
}

// The compute shader's four texels with cb0 bound through `bind` on `context` (which
// may be a deferred context: then its command list runs on the immediate one).
template <class Bind>
std::vector<float> dispatchConstants(const Device1& d, ID3D11DeviceContext1* context, Bind bind) {
  ComPtr<ID3D11ComputeShader> cs;
  EXPECT_EQ(d.device->CreateComputeShader(cs_constants, cs_constants_size, nullptr, &cs), S_OK);
  ComPtr<ID3D11Buffer> cb = constants64(d.device.Get());
  ComPtr<ID3D11Texture2D> target = floatTexture(d.device.Get(), 4, 1, D3D11_BIND_UNORDERED_ACCESS);
  ComPtr<ID3D11UnorderedAccessView> uav;
  EXPECT_EQ(d.device->CreateUnorderedAccessView(target.Get(), nullptr, &uav), S_OK);
  context->CSSetShader(cs.Get(), nullptr, 0);
  bind(context, cb.Get());
  context->CSSetUnorderedAccessViews(0, 1, uav.GetAddressOf(), nullptr);
  context->Dispatch(1, 1, 1);
  if (context != d.context.Get()) {
    ComPtr<ID3D11CommandList> list;
    EXPECT_EQ(context->FinishCommandList(FALSE, &list), S_OK);
    d.context->ExecuteCommandList(list.Get(), FALSE);
  }
  return readTexels(d.device.Get(), d.context.Get(), target.Get(), 4);
}

TEST(RuntimeDevice1, InterfacesAreTheSameObjects) {
  Pair p;
  ASSERT_TRUE(p.ok());
  ComPtr<ID3D11DeviceContext1> immediate1;
  p.ours.device->GetImmediateContext1(&immediate1);
  EXPECT_EQ(immediate1.Get(), p.ours.context.Get());
  ComPtr<ID3D11Device> base;
  p.ours.context->GetDevice(&base);
  ComPtr<ID3D11Device1> again;
  ASSERT_EQ(base.As(&again), S_OK);
  EXPECT_EQ(again.Get(), p.ours.device.Get());
  ComPtr<ID3D11DeviceContext1> deferred;
  ASSERT_EQ(p.ours.device->CreateDeferredContext1(0, &deferred), S_OK);
  EXPECT_EQ(deferred->GetType(), D3D11_DEVICE_CONTEXT_DEFERRED);
  ComPtr<ID3D11DeviceContext> deferredBase;
  EXPECT_EQ(deferred.As(&deferredBase), S_OK);
  EXPECT_EQ(p.ours.device->CreateDeferredContext1(1, &deferred), E_INVALIDARG);
}

TEST(RuntimeDevice1, StateObjectsKeepTheirD3D11_1Members) {
  Pair p;
  ASSERT_TRUE(p.ok());
  D3D11_BLEND_DESC1 blend{};
  blend.RenderTarget[0] = {TRUE, FALSE, D3D11_BLEND_SRC_ALPHA, D3D11_BLEND_INV_SRC_ALPHA, D3D11_BLEND_OP_ADD,
                           D3D11_BLEND_ONE, D3D11_BLEND_ZERO, D3D11_BLEND_OP_ADD, D3D11_LOGIC_OP_NOOP, 0xf};
  // Without independent blend, target 0's description is every target's: GetDesc1 says
  // so, as the system d3d11's does.
  D3D11_BLEND_DESC1 directBack{};
  {
    ComPtr<ID3D11BlendState1> state;
    ASSERT_EQ(p.direct.device->CreateBlendState1(&blend, &state), S_OK);
    state->GetDesc1(&directBack);
  }
  for (const Device1* d : {&p.ours, &p.direct}) {
    ComPtr<ID3D11BlendState1> state;
    ASSERT_EQ(d->device->CreateBlendState1(&blend, &state), S_OK);
    D3D11_BLEND_DESC1 back1{};
    state->GetDesc1(&back1);
    EXPECT_EQ(std::memcmp(&back1, &directBack, sizeof(back1)), 0);
    EXPECT_EQ(std::memcmp(&back1.RenderTarget[7], &blend.RenderTarget[0], sizeof(blend.RenderTarget[0])), 0);
    D3D11_BLEND_DESC back{};
    state->GetDesc(&back);
    EXPECT_EQ(back.RenderTarget[0].SrcBlend, D3D11_BLEND_SRC_ALPHA);
    EXPECT_EQ(back.RenderTarget[0].RenderTargetWriteMask, 0xf);
    // A plain CreateBlendState gives a state that is also an ID3D11BlendState1.
    ComPtr<ID3D11BlendState> plain;
    ASSERT_EQ(d->device->CreateBlendState(&back, &plain), S_OK);
    ComPtr<ID3D11BlendState1> plain1;
    ASSERT_EQ(plain.As(&plain1), S_OK);
    plain1->GetDesc1(&back1);
    EXPECT_FALSE(back1.RenderTarget[0].LogicOpEnable);
  }
  // A logic op together with blending is invalid (D3D11_RENDER_TARGET_BLEND_DESC1); the
  // runtime refuses it, as Windows' does (Wine's d3d11 accepts it).
  D3D11_BLEND_DESC1 bad = blend;
  bad.RenderTarget[0].LogicOpEnable = TRUE;
  ComPtr<ID3D11BlendState1> refused;
  EXPECT_EQ(p.ours.device->CreateBlendState1(&bad, &refused), E_INVALIDARG);
  EXPECT_FALSE(refused);

  D3D11_RASTERIZER_DESC1 raster{D3D11_FILL_SOLID, D3D11_CULL_FRONT, TRUE, 2, 0.5f, 1.0f, FALSE, TRUE, FALSE, FALSE, 0};
  ComPtr<ID3D11RasterizerState1> rs;
  ASSERT_EQ(p.ours.device->CreateRasterizerState1(&raster, &rs), S_OK);
  D3D11_RASTERIZER_DESC1 rsBack{};
  rs->GetDesc1(&rsBack);
  EXPECT_EQ(std::memcmp(&rsBack, &raster, sizeof(raster)), 0);
  D3D11_RASTERIZER_DESC rs0{};
  rs->GetDesc(&rs0);
  EXPECT_EQ(rs0.CullMode, D3D11_CULL_FRONT);
  EXPECT_EQ(rs0.DepthBias, 2);
  // A forced sample count at 11_0: only where D3D11_OPTIONS allows it (it does not here).
  raster.ForcedSampleCount = 4;
  D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
  ASSERT_EQ(p.ours.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options, sizeof(options)), S_OK);
  EXPECT_EQ(p.ours.device->CreateRasterizerState1(&raster, &rs),
            options.UAVOnlyRenderingForcedSampleCount ? S_OK : E_INVALIDARG);
}

TEST(RuntimeDevice1, ConstantBufferRangesMatchTheSystemD3D11) {
  Pair p;
  ASSERT_TRUE(p.ok());
  auto ranged = [](ID3D11DeviceContext1* c, ID3D11Buffer* cb) {
    const UINT first = 16, num = 16;
    c->CSSetConstantBuffers1(0, 1, &cb, &first, &num);
  };
  const std::vector<float> ours = dispatchConstants(p.ours, p.ours.context.Get(), ranged);
  const std::vector<float> direct = dispatchConstants(p.direct, p.direct.context.Get(), ranged);
  ASSERT_EQ(ours.size(), 16u);
  EXPECT_EQ(ours, direct);
  EXPECT_EQ(ours[0], 16.0f);   // cb0[0] is constant 16
  EXPECT_EQ(ours[13], 19.25f);

  // The getters report the range, and a buffer bound whole as 4096 constants from 0 (the
  // most a shader sees), as the system d3d11 does.
  for (const Device1* d : {&p.ours, &p.direct}) {
    ComPtr<ID3D11Buffer> got;
    UINT first = 99, num = 99;
    d->context->CSGetConstantBuffers1(0, 1, &got, &first, &num);
    EXPECT_TRUE(got);
    EXPECT_EQ(first, 16u);
    EXPECT_EQ(num, 16u);
    ComPtr<ID3D11Buffer> cb = constants64(d->device.Get());
    d->context->CSSetConstantBuffers(1, 1, cb.GetAddressOf());
    got.Reset();
    d->context->CSGetConstantBuffers1(1, 1, &got, &first, &num);
    EXPECT_EQ(got.Get(), cb.Get());
    EXPECT_EQ(first, 0u);
    EXPECT_EQ(num, 4096u);
  }

  // A range that is not in 16-constant units is dropped: the earlier binding stays.
  auto odd = [](ID3D11DeviceContext1* c, ID3D11Buffer* cb) {
    const UINT first = 16, num = 16, oddFirst = 3;
    c->CSSetConstantBuffers1(0, 1, &cb, &first, &num);
    c->CSSetConstantBuffers1(0, 1, &cb, &oddFirst, &num);
  };
  EXPECT_EQ(dispatchConstants(p.ours, p.ours.context.Get(), odd)[0], 16.0f);

  // Recorded on a deferred context of CreateDeferredContext1 (driver command lists).
  ComPtr<ID3D11DeviceContext1> deferred;
  ASSERT_EQ(p.ours.device->CreateDeferredContext1(0, &deferred), S_OK);
  auto ranged32 = [](ID3D11DeviceContext1* c, ID3D11Buffer* cb) {
    const UINT first = 32, num = 32;
    c->CSSetConstantBuffers1(0, 1, &cb, &first, &num);
  };
  const std::vector<float> recorded = dispatchConstants(p.ours, deferred.Get(), ranged32);
  ComPtr<ID3D11DeviceContext1> directDeferred;
  ASSERT_EQ(p.direct.device->CreateDeferredContext1(0, &directDeferred), S_OK);
  EXPECT_EQ(recorded, dispatchConstants(p.direct, directDeferred.Get(), ranged32));
  ASSERT_EQ(recorded.size(), 16u);
  EXPECT_EQ(recorded[4], 33.0f);
  EXPECT_EQ(p.ours.device->GetDeviceRemovedReason(), S_OK);
}

// ClearView of a rectangle of a render target and of an unordered-access view; copies and
// updates with the D3D11.1 flags; discards.
TEST(RuntimeDevice1, ClearViewCopiesAndDiscardsMatchTheSystemD3D11) {
  Pair p;
  ASSERT_TRUE(p.ok());
  auto run = [](const Device1& d) {
    std::vector<float> out;
    ComPtr<ID3D11Texture2D> texture =
        floatTexture(d.device.Get(), 4, 4, D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS);
    ComPtr<ID3D11RenderTargetView> rtv;
    ComPtr<ID3D11UnorderedAccessView> uav;
    EXPECT_EQ(d.device->CreateRenderTargetView(texture.Get(), nullptr, &rtv), S_OK);
    EXPECT_EQ(d.device->CreateUnorderedAccessView(texture.Get(), nullptr, &uav), S_OK);
    const FLOAT red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};
    d.context->ClearRenderTargetView(rtv.Get(), red);
    const D3D11_RECT rect{1, 1, 3, 3};
    d.context->ClearView(rtv.Get(), green, &rect, 1);
    const D3D11_RECT corner{3, 3, 4, 4};
    d.context->ClearView(uav.Get(), blue, &corner, 1);
    std::vector<float> texels = readTexels(d.device.Get(), d.context.Get(), texture.Get(), 4, 4);
    out.insert(out.end(), texels.begin(), texels.end());

    // CopySubresourceRegion1 (NO_OVERWRITE) of the green square into a second texture,
    // UpdateSubresource1 (DISCARD) of a row.
    ComPtr<ID3D11Texture2D> second = floatTexture(d.device.Get(), 4, 4, D3D11_BIND_RENDER_TARGET);
    ComPtr<ID3D11RenderTargetView> secondRtv;
    EXPECT_EQ(d.device->CreateRenderTargetView(second.Get(), nullptr, &secondRtv), S_OK);
    d.context->ClearRenderTargetView(secondRtv.Get(), blue);
    const D3D11_BOX box{1, 1, 0, 3, 3, 1};
    d.context->CopySubresourceRegion1(second.Get(), 0, 0, 0, 0, texture.Get(), 0, &box, D3D11_COPY_NO_OVERWRITE);
    const float row[16] = {0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 0.25f, 0.25f, 0.25f,
                           0.125f, 0.125f, 0.125f, 0.125f, 2, 2, 2, 2};
    const D3D11_BOX rowBox{0, 3, 0, 4, 4, 1};
    d.context->UpdateSubresource1(second.Get(), 0, &rowBox, row, sizeof(row), 0, D3D11_COPY_DISCARD);
    texels = readTexels(d.device.Get(), d.context.Get(), second.Get(), 4, 4);
    out.insert(out.end(), texels.begin(), texels.end());

    // Discards: the contents are undefined afterwards; a clear makes them defined again.
    d.context->DiscardView(rtv.Get());
    d.context->DiscardResource(second.Get());
    const D3D11_RECT half{0, 0, 2, 4};
    d.context->DiscardView1(secondRtv.Get(), &half, 1);
    d.context->ClearRenderTargetView(rtv.Get(), blue);
    texels = readTexels(d.device.Get(), d.context.Get(), texture.Get(), 4, 1);
    out.insert(out.end(), texels.begin(), texels.end());
    return out;
  };
  const std::vector<float> ours = run(p.ours);
  const std::vector<float> direct = run(p.direct);
  ASSERT_EQ(ours.size(), size_t(4 * 4 * 4 * 2 + 16));
  EXPECT_EQ(ours, direct);
  EXPECT_EQ(p.ours.device->GetDeviceRemovedReason(), S_OK);
  // Known texels: (0,0) red; in the second texture (3,2) blue, row 3 the update, (0,0)
  // what the copy took from (1,1) of the first.
  using Texel = std::array<float, 4>;
  auto texel = [&](size_t image, UINT x, UINT y) {
    const size_t at = image * 64 + (y * 4 + x) * 4;
    return Texel{ours[at], ours[at + 1], ours[at + 2], ours[at + 3]};
  };
  EXPECT_EQ(texel(0, 0, 0), (Texel{1, 0, 0, 1}));
  EXPECT_EQ(texel(1, 3, 2), (Texel{0, 0, 1, 1}));
  EXPECT_EQ(texel(1, 1, 3), (Texel{0.25f, 0.25f, 0.25f, 0.25f}));
  EXPECT_EQ(texel(1, 0, 0), texel(0, 1, 1));
  // ClearView's rectangles: where the system d3d11 clears them (Wine 8's ClearView leaves
  // the view as it is, so the texels stay red both ways).
  if (direct[(1 * 4 + 1) * 4 + 1] == 1.0f) {
    EXPECT_EQ(texel(0, 1, 1), (Texel{0, 1, 0, 1}));
    EXPECT_EQ(texel(0, 3, 3), (Texel{0, 0, 1, 1}));
  } else {
    std::printf("[ note ] the system d3d11's ClearView changed nothing; the same through the runtime\n");
  }
}

// What the runtime does not offer says so.
TEST(RuntimeDevice1, ContextStatesAndSharingAreNotOffered) {
  Pair p;
  ASSERT_TRUE(p.ok());
  ComPtr<ID3DDeviceContextState> state;
  const D3D_FEATURE_LEVEL level = kLevel;
  EXPECT_EQ(p.ours.device->CreateDeviceContextState(0, &level, 1, D3D11_SDK_VERSION, __uuidof(ID3D11Device1),
                                                     nullptr, &state),
            E_NOTIMPL);
  EXPECT_FALSE(state);
  ComPtr<ID3D11Texture2D> opened;
  EXPECT_EQ(p.ours.device->OpenSharedResource1(HANDLE(0x40), __uuidof(ID3D11Texture2D), &opened), E_NOTIMPL);
}

}  // namespace
}  // namespace triton::test
