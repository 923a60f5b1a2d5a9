// SPDX-License-Identifier: MIT
// What a removed device answers (Neptune only: Wine's d3d11 is never removed). Run as
// its own test (guest/tests/meson.build) because removal ends the process's connection:
// the server it starts has NPT_FENCE_TIMEOUT_MS=200, so a GPU Wait on a value nobody
// signals removes the device the way Windows' TDR does.
//
// Windows: every creation that reaches the driver fails with DXGI_ERROR_DEVICE_REMOVED
// and a NULL out pointer; argument validation, the NULL-out S_FALSE answer and
// deduplicated state objects are the runtime's own and answer as before.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include <d3dcompiler.h>

#include "d3d11_test_env.h"

using npt::test::D3D11Under;

namespace {

template<typename T>
T* sentinel() {
  return reinterpret_cast<T*>(uintptr_t(0x1));
}

}

TEST(DeviceRemoved, CreationsFailWithDeviceRemovedAndNullOuts) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ASSERT_TRUE(under.ready()) << under.error();
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  ID3D11Device5* device5 = nullptr;
  ID3D11DeviceContext4* context4 = nullptr;
  ASSERT_EQ(device->QueryInterface(__uuidof(ID3D11Device5), reinterpret_cast<void**>(&device5)), S_OK);
  ASSERT_EQ(context->QueryInterface(__uuidof(ID3D11DeviceContext4), reinterpret_cast<void**>(&context4)), S_OK);

  // Made while the device is alive.
  D3D11_TEXTURE2D_DESC texDesc = { 16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                   D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS, 0, 0 };
  ID3D11Texture2D* texture = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&texDesc, nullptr, &texture), S_OK);
  D3D11_TEXTURE2D_DESC depthDesc = { 16, 16, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                     D3D11_BIND_DEPTH_STENCIL, 0, 0 };
  ID3D11Texture2D* depth = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&depthDesc, nullptr, &depth), S_OK);
  D3D11_BLEND_DESC blendDesc = {};
  blendDesc.RenderTarget[0].SrcBlend = D3D11_BLEND_ONE;
  blendDesc.RenderTarget[0].DestBlend = D3D11_BLEND_ZERO;
  blendDesc.RenderTarget[0].BlendOp = D3D11_BLEND_OP_ADD;
  blendDesc.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
  blendDesc.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
  blendDesc.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
  blendDesc.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
  ID3D11BlendState* blend = nullptr;
  ASSERT_EQ(device->CreateBlendState(&blendDesc, &blend), S_OK);
  ID3D11ClassLinkage* linkage = nullptr;
  ASSERT_EQ(device->CreateClassLinkage(&linkage), S_OK);
  ID3D11DeviceContext* deferred = nullptr;
  ASSERT_EQ(device->CreateDeferredContext(0, &deferred), S_OK);
  D3D11_BUFFER_DESC stagingDesc = { 16, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
  ID3D11Buffer* staging = nullptr;
  ASSERT_EQ(device->CreateBuffer(&stagingDesc, nullptr, &staging), S_OK);
  ID3D11Fence* fence = nullptr;
  ASSERT_EQ(device5->CreateFence(0, D3D11_FENCE_FLAG_NONE, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
  EXPECT_EQ(device->GetDeviceRemovedReason(), S_OK);
  ID3D11Device4* device4 = nullptr;
  ASSERT_EQ(device->QueryInterface(__uuidof(ID3D11Device4), reinterpret_cast<void**>(&device4)), S_OK);
  HANDLE removedEvent = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  HANDLE unregisteredEvent = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  DWORD cookie = 0, otherCookie = 0;
  EXPECT_EQ(device4->RegisterDeviceRemovedEvent(nullptr, &cookie), E_INVALIDARG);
  ASSERT_EQ(device4->RegisterDeviceRemovedEvent(removedEvent, &cookie), S_OK);
  ASSERT_EQ(device4->RegisterDeviceRemovedEvent(unregisteredEvent, &otherCookie), S_OK);
  EXPECT_NE(cookie, otherCookie);
  device4->UnregisterDeviceRemoved(otherCookie);
  Sleep(50);
  EXPECT_EQ(WaitForSingleObject(removedEvent, 0), DWORD(WAIT_TIMEOUT)) << "a live device sets no event";

  // A Wait nobody satisfies: the host removes the context after NPT_FENCE_TIMEOUT_MS.
  ASSERT_EQ(context4->Wait(fence, 1), S_OK);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), DXGI_ERROR_DEVICE_REMOVED);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(WaitForSingleObject(removedEvent, 5000), DWORD(WAIT_OBJECT_0)) << "the registered event says it";
  EXPECT_EQ(WaitForSingleObject(unregisteredEvent, 0), DWORD(WAIT_TIMEOUT)) << "an unregistered one does not";
  HANDLE lateEvent = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  DWORD lateCookie = 0;
  EXPECT_EQ(device4->RegisterDeviceRemovedEvent(lateEvent, &lateCookie), S_OK);
  EXPECT_EQ(WaitForSingleObject(lateEvent, 0), DWORD(WAIT_OBJECT_0)) << "registered after the removal: set at once";
  device4->UnregisterDeviceRemoved(lateCookie);
  device4->UnregisterDeviceRemoved(cookie);
  CloseHandle(lateEvent);
  CloseHandle(unregisteredEvent);
  CloseHandle(removedEvent);
  device4->Release();
  HRESULT reason = device->GetDeviceRemovedReason();
  EXPECT_TRUE(reason == DXGI_ERROR_DEVICE_REMOVED || reason == DXGI_ERROR_DEVICE_HUNG) << std::hex << reason;

  const HRESULT removed = DXGI_ERROR_DEVICE_REMOVED;
  D3D11_BUFFER_DESC bufferDesc = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
  ID3D11Buffer* buffer = sentinel<ID3D11Buffer>();
  EXPECT_EQ(device->CreateBuffer(&bufferDesc, nullptr, &buffer), removed);
  EXPECT_EQ(buffer, nullptr);
  // Validation and the validate-only form never reach the driver.
  EXPECT_EQ(device->CreateBuffer(&bufferDesc, nullptr, nullptr), S_FALSE);
  D3D11_BUFFER_DESC badDesc = bufferDesc;
  badDesc.ByteWidth = 0;
  buffer = sentinel<ID3D11Buffer>();
  EXPECT_EQ(device->CreateBuffer(&badDesc, nullptr, &buffer), E_INVALIDARG);
  EXPECT_EQ(buffer, nullptr);

  D3D11_TEXTURE1D_DESC tex1Desc = { 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0 };
  ID3D11Texture1D* tex1 = sentinel<ID3D11Texture1D>();
  EXPECT_EQ(device->CreateTexture1D(&tex1Desc, nullptr, &tex1), removed);
  EXPECT_EQ(tex1, nullptr);
  ID3D11Texture2D* tex2 = sentinel<ID3D11Texture2D>();
  EXPECT_EQ(device->CreateTexture2D(&texDesc, nullptr, &tex2), removed);
  EXPECT_EQ(tex2, nullptr);
  D3D11_TEXTURE3D_DESC tex3Desc = { 4, 4, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0 };
  ID3D11Texture3D* tex3 = sentinel<ID3D11Texture3D>();
  EXPECT_EQ(device->CreateTexture3D(&tex3Desc, nullptr, &tex3), removed);
  EXPECT_EQ(tex3, nullptr);

  ID3D11ShaderResourceView* srv = sentinel<ID3D11ShaderResourceView>();
  EXPECT_EQ(device->CreateShaderResourceView(texture, nullptr, &srv), removed);
  EXPECT_EQ(srv, nullptr);
  ID3D11RenderTargetView* rtv = sentinel<ID3D11RenderTargetView>();
  EXPECT_EQ(device->CreateRenderTargetView(texture, nullptr, &rtv), removed);
  EXPECT_EQ(rtv, nullptr);
  ID3D11UnorderedAccessView* uav = sentinel<ID3D11UnorderedAccessView>();
  EXPECT_EQ(device->CreateUnorderedAccessView(texture, nullptr, &uav), removed);
  EXPECT_EQ(uav, nullptr);
  ID3D11DepthStencilView* dsv = sentinel<ID3D11DepthStencilView>();
  EXPECT_EQ(device->CreateDepthStencilView(depth, nullptr, &dsv), removed);
  EXPECT_EQ(dsv, nullptr);

  // Valid bytecode (invalid bytecode is refused by validation first, as on Windows): the
  // removal is answered before anything is sent.
  auto compile = [](const char* source, const char* profile) {
    ID3DBlob* code = nullptr;
    EXPECT_EQ(D3DCompile(source, std::strlen(source), "removed", nullptr, nullptr, "main", profile, 0, 0, &code, nullptr), S_OK);
    return code;
  };
  ID3DBlob* vsCode = compile("float4 main(float4 p : POSITION) : SV_Position { return p; }", "vs_4_0");
  ID3DBlob* psCode = compile("float4 main() : SV_Target { return 0; }", "ps_4_0");
  ID3DBlob* csCode = compile("[numthreads(1, 1, 1)] void main() {}", "cs_5_0");
  ASSERT_TRUE(vsCode && psCode && csCode);
  ID3D11VertexShader* vs = sentinel<ID3D11VertexShader>();
  EXPECT_EQ(device->CreateVertexShader(vsCode->GetBufferPointer(), vsCode->GetBufferSize(), nullptr, &vs), removed);
  EXPECT_EQ(vs, nullptr);
  ID3D11PixelShader* ps = sentinel<ID3D11PixelShader>();
  EXPECT_EQ(device->CreatePixelShader(psCode->GetBufferPointer(), psCode->GetBufferSize(), nullptr, &ps), removed);
  EXPECT_EQ(ps, nullptr);
  ID3D11ComputeShader* cs = sentinel<ID3D11ComputeShader>();
  EXPECT_EQ(device->CreateComputeShader(csCode->GetBufferPointer(), csCode->GetBufferSize(), nullptr, &cs), removed);
  EXPECT_EQ(cs, nullptr);
  D3D11_INPUT_ELEMENT_DESC element = { "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 };
  ID3D11InputLayout* layout = sentinel<ID3D11InputLayout>();
  EXPECT_EQ(device->CreateInputLayout(&element, 1, vsCode->GetBufferPointer(), vsCode->GetBufferSize(), &layout), removed);
  EXPECT_EQ(layout, nullptr);
  vsCode->Release();
  psCode->Release();
  csCode->Release();
  ID3D11ClassLinkage* linkage2 = sentinel<ID3D11ClassLinkage>();
  EXPECT_EQ(device->CreateClassLinkage(&linkage2), removed);
  EXPECT_EQ(linkage2, nullptr);
  ID3D11ClassInstance* instance = sentinel<ID3D11ClassInstance>();
  EXPECT_EQ(linkage->CreateClassInstance("Light", 0, 0, 0, 0, &instance), removed);
  EXPECT_EQ(instance, nullptr);

  // A description the device already has answers with that object; a new one fails.
  ID3D11BlendState* sameBlend = nullptr;
  EXPECT_EQ(device->CreateBlendState(&blendDesc, &sameBlend), S_OK);
  EXPECT_EQ(sameBlend, blend);
  if (sameBlend)
    sameBlend->Release();
  blendDesc.AlphaToCoverageEnable = TRUE;
  ID3D11BlendState* newBlend = sentinel<ID3D11BlendState>();
  EXPECT_EQ(device->CreateBlendState(&blendDesc, &newBlend), removed);
  EXPECT_EQ(newBlend, nullptr);
  D3D11_SAMPLER_DESC samplerDesc = { D3D11_FILTER_MIN_MAG_MIP_POINT, D3D11_TEXTURE_ADDRESS_CLAMP, D3D11_TEXTURE_ADDRESS_CLAMP,
                                     D3D11_TEXTURE_ADDRESS_CLAMP, 0.0f, 1, D3D11_COMPARISON_NEVER, { 0, 0, 0, 0 }, 0.0f, D3D11_FLOAT32_MAX };
  ID3D11SamplerState* sampler = sentinel<ID3D11SamplerState>();
  EXPECT_EQ(device->CreateSamplerState(&samplerDesc, &sampler), removed);
  EXPECT_EQ(sampler, nullptr);

  D3D11_QUERY_DESC queryDesc = { D3D11_QUERY_EVENT, 0 };
  ID3D11Query* query = sentinel<ID3D11Query>();
  EXPECT_EQ(device->CreateQuery(&queryDesc, &query), removed);
  EXPECT_EQ(query, nullptr);
  D3D11_QUERY_DESC predicateDesc = { D3D11_QUERY_OCCLUSION_PREDICATE, 0 };
  ID3D11Predicate* predicate = sentinel<ID3D11Predicate>();
  EXPECT_EQ(device->CreatePredicate(&predicateDesc, &predicate), removed);
  EXPECT_EQ(predicate, nullptr);
  ID3D11DeviceContext* deferred2 = sentinel<ID3D11DeviceContext>();
  EXPECT_EQ(device->CreateDeferredContext(0, &deferred2), removed);
  EXPECT_EQ(deferred2, nullptr);
  ID3D11CommandList* list = sentinel<ID3D11CommandList>();
  EXPECT_EQ(deferred->FinishCommandList(FALSE, &list), removed);
  EXPECT_EQ(list, nullptr);

  ID3D11Device1* device1 = nullptr;
  ASSERT_EQ(device->QueryInterface(__uuidof(ID3D11Device1), reinterpret_cast<void**>(&device1)), S_OK);
  const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0 };
  ID3DDeviceContextState* state = sentinel<ID3DDeviceContextState>();
  EXPECT_EQ(device1->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION, __uuidof(ID3D11Device1), nullptr, &state), removed);
  EXPECT_EQ(state, nullptr);
  device1->Release();

  EXPECT_EQ(device->GetDeviceRemovedReason(), reason) << "the reason stays";

  fence->Release();
  staging->Release();
  deferred->Release();
  linkage->Release();
  blend->Release();
  depth->Release();
  texture->Release();
  context4->Release();
  device5->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}
