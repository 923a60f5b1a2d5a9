// SPDX-License-Identifier: MIT
// ID3DDeviceContextState and SwapDeviceContextState, against Wine's d3d11 (the
// reference) and Neptune's: argument checks, the object's COM face, getters answering
// the swapped-in state, references, and draws that use state restored by a swap
// (pixels read back), so the host's context really holds what the getters say.
#include <gtest/gtest.h>

#include <d3dcompiler.h>

#include <cstring>
#include <string>
#include <vector>

#include "d3d11_test_env.h"

using npt::test::D3D11Under;
using npt::test::refcount;

namespace {

const char kFullscreenVs[] =
    "float4 main(uint id : SV_VertexID) : SV_Position {\n"
    "  float2 p = float2((id << 1) & 2, id & 2);\n"
    "  return float4(p * float2(2, -2) + float2(-1, 1), 0, 1);\n"
    "}\n";
const char kConstantColorPs[] =
    "cbuffer c : register(b0) { float4 color; };\n"
    "float4 main() : SV_Target { return color; }\n";

ID3DBlob* compile(const char* source, const char* profile) {
  ID3DBlob* code = nullptr;
  ID3DBlob* errors = nullptr;
  HRESULT hr = D3DCompile(source, std::strlen(source), "context_state_test", nullptr, nullptr, "main", profile, 0, 0, &code, &errors);
  if (errors)
    errors->Release();
  return SUCCEEDED(hr) ? code : nullptr;
}

class ContextState : public ::testing::Test {
protected:
  void SetUp() override {
    D3D11Under& under = D3D11Under::get();
    ASSERT_TRUE(under.ready()) << under.error();
    ID3D11Device* plain = nullptr;
    ID3D11DeviceContext* plainContext = nullptr;
    ASSERT_EQ(under.createDevice(&plain, &plainContext), S_OK);
    ASSERT_EQ(plain->QueryInterface(__uuidof(ID3D11Device1), reinterpret_cast<void**>(&device)), S_OK);
    ASSERT_EQ(plainContext->QueryInterface(__uuidof(ID3D11DeviceContext1), reinterpret_cast<void**>(&context)), S_OK);
    plainContext->Release();
    plain->Release();
  }
  void TearDown() override {
    if (context)
      context->Release();
    if (device) {
      EXPECT_EQ(device->Release(), 0u) << "a test leaked a device reference";
    }
  }

  ID3DDeviceContextState* makeState() {
    const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0 };
    ID3DDeviceContextState* state = nullptr;
    EXPECT_EQ(device->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION, __uuidof(ID3D11Device1), nullptr, &state), S_OK);
    return state;
  }

  ID3D11Buffer* makeConstants(const float color[4]) {
    D3D11_BUFFER_DESC desc = { 16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
    D3D11_SUBRESOURCE_DATA data = { color, 0, 0 };
    ID3D11Buffer* buffer = nullptr;
    EXPECT_EQ(device->CreateBuffer(&desc, &data, &buffer), S_OK);
    return buffer;
  }

  ID3D11Device1* device = nullptr;
  ID3D11DeviceContext1* context = nullptr;
};

}

TEST_F(ContextState, CreationChecksItsArguments) {
  const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0 };
  ID3DDeviceContextState* state = reinterpret_cast<ID3DDeviceContextState*>(1);
  D3D_FEATURE_LEVEL chosen = D3D_FEATURE_LEVEL(0);
  // Validation only: S_FALSE and the level it would have.
  EXPECT_EQ(device->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION, __uuidof(ID3D11Device1), &chosen, nullptr), S_FALSE);
  EXPECT_EQ(chosen, D3D_FEATURE_LEVEL_11_0);
  EXPECT_EQ(device->CreateDeviceContextState(0, nullptr, 0, D3D11_SDK_VERSION, __uuidof(ID3D11Device1), nullptr, &state), E_INVALIDARG);
  EXPECT_EQ(state, nullptr);
  // Documented: the emulated interface is one of the D3D10/D3D11 device interfaces
  // (Wine 8 accepts any IID).
  if (D3D11Under::get().neptune()) {
    state = reinterpret_cast<ID3DDeviceContextState*>(1);
    EXPECT_EQ(device->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION, __uuidof(IUnknown), nullptr, &state), E_INVALIDARG);
    EXPECT_EQ(state, nullptr);
  }
  state = nullptr;

  // The chosen level is the first one of the list the device supports.
  const D3D_FEATURE_LEVEL several[] = { D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_11_0 };
  EXPECT_EQ(device->CreateDeviceContextState(0, several, 2, D3D11_SDK_VERSION, __uuidof(ID3D11Device), &chosen, &state), S_OK);
  EXPECT_EQ(chosen, D3D_FEATURE_LEVEL_10_1);
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->Release(), 0u);
}

TEST_F(ContextState, IsADeviceChildHoldingItsDevice) {
  ULONG deviceRefs = refcount(device);
  ID3DDeviceContextState* state = makeState();
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(refcount(state), 1u);
  EXPECT_EQ(refcount(device), deviceRefs + 1);
  ID3D11DeviceChild* child = nullptr;
  ASSERT_EQ(state->QueryInterface(__uuidof(ID3D11DeviceChild), reinterpret_cast<void**>(&child)), S_OK);
  EXPECT_EQ(static_cast<IUnknown*>(child), static_cast<IUnknown*>(state));
  child->Release();
  ID3D11Device* parent = nullptr;
  state->GetDevice(&parent);
  EXPECT_EQ(static_cast<IUnknown*>(parent), static_cast<IUnknown*>(static_cast<ID3D11Device*>(device)));
  parent->Release();
  EXPECT_EQ(state->Release(), 0u);
  EXPECT_EQ(refcount(device), deviceRefs);
}

TEST_F(ContextState, SwapParksAndRestoresEveryBinding) {
  const float red[4] = { 1.0f, 0.0f, 0.0f, 1.0f };
  ID3D11Buffer* constants = makeConstants(red);
  D3D11_SAMPLER_DESC samplerDesc = { D3D11_FILTER_MIN_MAG_MIP_POINT, D3D11_TEXTURE_ADDRESS_CLAMP, D3D11_TEXTURE_ADDRESS_CLAMP,
                                     D3D11_TEXTURE_ADDRESS_CLAMP, 0.0f, 1, D3D11_COMPARISON_NEVER, { 0, 0, 0, 0 }, 0.0f, D3D11_FLOAT32_MAX };
  ID3D11SamplerState* sampler = nullptr;
  ASSERT_EQ(device->CreateSamplerState(&samplerDesc, &sampler), S_OK);
  const D3D11_VIEWPORT viewport = { 0.0f, 0.0f, 4.0f, 4.0f, 0.0f, 1.0f };
  context->PSSetConstantBuffers(1, 1, &constants);
  context->PSSetSamplers(2, 1, &sampler);
  context->RSSetViewports(1, &viewport);
  const D3D11_RECT scissor = { 1, 1, 3, 3 };
  context->RSSetScissorRects(1, &scissor);
  context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  const float factor[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
  context->OMSetBlendState(nullptr, factor, 0xf);
  ULONG constantRefs = refcount(constants);

  ID3DDeviceContextState* fresh = makeState();
  ASSERT_NE(fresh, nullptr);
  ID3DDeviceContextState* original = nullptr;
  context->SwapDeviceContextState(fresh, &original);
  ASSERT_NE(original, nullptr) << "the device's own state is an object too";
  EXPECT_NE(original, fresh);
  // Bindings parked in a state object stay invisible to public counts, and so is the
  // context's hold on the active state object.
  EXPECT_EQ(refcount(constants), constantRefs);
  EXPECT_EQ(refcount(fresh), 1u);
  EXPECT_EQ(refcount(original), 1u) << "the caller's reference only";

  // The fresh state is the default state.
  ID3D11Buffer* buffer = reinterpret_cast<ID3D11Buffer*>(1);
  context->PSGetConstantBuffers(1, 1, &buffer);
  EXPECT_EQ(buffer, nullptr);
  ID3D11SamplerState* gotSampler = reinterpret_cast<ID3D11SamplerState*>(1);
  context->PSGetSamplers(2, 1, &gotSampler);
  EXPECT_EQ(gotSampler, nullptr);
  UINT viewports = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
  D3D11_VIEWPORT got[D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE] = {};
  context->RSGetViewports(&viewports, got);
  EXPECT_EQ(viewports, 0u) << "on output: how many are bound";
  UINT scissors = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
  D3D11_RECT gotRects[D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE] = {};
  context->RSGetScissorRects(&scissors, gotRects);
  EXPECT_EQ(scissors, 0u);
  D3D11_PRIMITIVE_TOPOLOGY topology = D3D11_PRIMITIVE_TOPOLOGY_POINTLIST;
  context->IAGetPrimitiveTopology(&topology);
  EXPECT_EQ(topology, D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
  float gotFactor[4] = {};
  UINT mask = 0;
  context->OMGetBlendState(nullptr, gotFactor, &mask);
  EXPECT_EQ(gotFactor[0], 1.0f);
  EXPECT_EQ(mask, 0xffffffffu);

  // Something of its own in the fresh state.
  context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_LINELIST);

  ID3DDeviceContextState* back = nullptr;
  context->SwapDeviceContextState(original, &back);
  EXPECT_EQ(back, fresh);
  context->PSGetConstantBuffers(1, 1, &buffer);
  EXPECT_EQ(buffer, constants);
  if (buffer && buffer != reinterpret_cast<ID3D11Buffer*>(1))
    buffer->Release();
  context->PSGetSamplers(2, 1, &gotSampler);
  EXPECT_EQ(gotSampler, sampler);
  if (gotSampler && gotSampler != reinterpret_cast<ID3D11SamplerState*>(1))
    gotSampler->Release();
  viewports = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
  context->RSGetViewports(&viewports, got);
  EXPECT_EQ(viewports, 1u);
  EXPECT_EQ(got[0].Width, 4.0f);
  scissors = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
  context->RSGetScissorRects(&scissors, gotRects);
  EXPECT_EQ(scissors, 1u);
  EXPECT_EQ(gotRects[0].right, 3);
  context->IAGetPrimitiveTopology(&topology);
  EXPECT_EQ(topology, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  context->OMGetBlendState(nullptr, gotFactor, &mask);
  EXPECT_EQ(gotFactor[0], 0.5f);
  EXPECT_EQ(mask, 0xfu);

  // And the fresh state kept its own.
  ID3DDeviceContextState* again = nullptr;
  context->SwapDeviceContextState(fresh, &again);
  EXPECT_EQ(again, original);
  context->IAGetPrimitiveTopology(&topology);
  EXPECT_EQ(topology, D3D11_PRIMITIVE_TOPOLOGY_LINELIST);
  ID3DDeviceContextState* last = nullptr;
  context->SwapDeviceContextState(original, &last);
  EXPECT_EQ(last, fresh);

  // A NULL state changes nothing and returns no previous state.
  ID3DDeviceContextState* none = reinterpret_cast<ID3DDeviceContextState*>(1);
  context->SwapDeviceContextState(nullptr, &none);
  EXPECT_EQ(none, nullptr);
  context->IAGetPrimitiveTopology(&topology);
  EXPECT_EQ(topology, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);

  context->ClearState();
  for (ID3DDeviceContextState* s : { last, again, back, original })
    if (s)
      s->Release();
  EXPECT_EQ(fresh->Release(), 0u);
  sampler->Release();
  EXPECT_EQ(constants->Release(), 0u);
}

TEST_F(ContextState, DrawsUseTheSwappedInState) {
  ID3DBlob* vsCode = compile(kFullscreenVs, "vs_4_0");
  ID3DBlob* psCode = compile(kConstantColorPs, "ps_4_0");
  ASSERT_NE(vsCode, nullptr);
  ASSERT_NE(psCode, nullptr);
  ID3D11VertexShader* vs = nullptr;
  ID3D11PixelShader* ps = nullptr;
  ASSERT_EQ(device->CreateVertexShader(vsCode->GetBufferPointer(), vsCode->GetBufferSize(), nullptr, &vs), S_OK);
  ASSERT_EQ(device->CreatePixelShader(psCode->GetBufferPointer(), psCode->GetBufferSize(), nullptr, &ps), S_OK);
  vsCode->Release();
  psCode->Release();

  D3D11_TEXTURE2D_DESC targetDesc = { 4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                      D3D11_BIND_RENDER_TARGET, 0, 0 };
  ID3D11Texture2D* target = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&targetDesc, nullptr, &target), S_OK);
  ID3D11RenderTargetView* rtv = nullptr;
  ASSERT_EQ(device->CreateRenderTargetView(target, nullptr, &rtv), S_OK);
  D3D11_TEXTURE2D_DESC stagingDesc = targetDesc;
  stagingDesc.Usage = D3D11_USAGE_STAGING;
  stagingDesc.BindFlags = 0;
  stagingDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  ID3D11Texture2D* staging = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&stagingDesc, nullptr, &staging), S_OK);
  auto pixel = [&]() {
    context->CopyResource(staging, target);
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    uint32_t value = 0;
    if (SUCCEEDED(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped))) {
      std::memcpy(&value, static_cast<const uint8_t*>(mapped.pData) + mapped.RowPitch + 4, 4);
      context->Unmap(staging, 0);
    }
    return value;
  };

  const float red[4] = { 1.0f, 0.0f, 0.0f, 1.0f };
  const float green[4] = { 0.0f, 1.0f, 0.0f, 1.0f };
  ID3D11Buffer* redConstants = makeConstants(red);
  ID3D11Buffer* greenConstants = makeConstants(green);
  const D3D11_VIEWPORT viewport = { 0.0f, 0.0f, 4.0f, 4.0f, 0.0f, 1.0f };
  auto bindPipeline = [&](ID3D11Buffer* constants) {
    context->VSSetShader(vs, nullptr, 0);
    context->PSSetShader(ps, nullptr, 0);
    context->PSSetConstantBuffers(0, 1, &constants);
    context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    context->RSSetViewports(1, &viewport);
    context->OMSetRenderTargets(1, &rtv, nullptr);
  };

  // The device's state draws red; a state object's draws green.
  bindPipeline(redConstants);
  ID3DDeviceContextState* greenState = makeState();
  ASSERT_NE(greenState, nullptr);
  ID3DDeviceContextState* deviceState = nullptr;
  context->SwapDeviceContextState(greenState, &deviceState);
  ASSERT_NE(deviceState, nullptr);
  bindPipeline(greenConstants);

  const float black[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
  ID3DDeviceContextState* previous = nullptr;
  context->SwapDeviceContextState(deviceState, &previous);   // back to red, nothing bound again
  context->ClearRenderTargetView(rtv, black);
  context->Draw(3, 0);
  EXPECT_EQ(pixel(), 0xff0000ffu) << "the restored state draws red";
  if (previous)
    previous->Release();

  context->SwapDeviceContextState(greenState, &previous);
  context->ClearRenderTargetView(rtv, black);
  context->Draw(3, 0);
  EXPECT_EQ(pixel(), 0xff00ff00u) << "the state object's pipeline draws green";
  if (previous)
    previous->Release();

  // Swapped back: the green state keeps its bindings while parked, then goes.
  context->SwapDeviceContextState(deviceState, &previous);
  if (previous)
    previous->Release();
  context->ClearState();
  deviceState->Release();
  EXPECT_EQ(greenState->Release(), 0u);
  EXPECT_EQ(greenConstants->Release(), 0u);
  EXPECT_EQ(redConstants->Release(), 0u);
  staging->Release();
  rtv->Release();
  target->Release();
  ps->Release();
  vs->Release();
}
