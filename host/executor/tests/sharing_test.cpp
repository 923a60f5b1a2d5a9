// SPDX-License-Identifier: MIT
// Shared resources between contexts in the executor (sharing.cpp, sharing_writes.cpp):
// two executors of this process are two contexts of one sharing instance, as the
// server's thread contexts are. What a context writes — creator or opener — reaches the
// other at its next Flush, Signal or Present; only what was written is copied (the
// registry's per-entry copy counters tell); a context keeps its own unpublished writes.
// Runs on the build's backend (wined3d under Wine); skipped without one.
#include <gtest/gtest.h>

#if defined(_WIN32)
#include <d3dcompiler.h>
#endif

#include <cstring>

#include "device_fixture.h"
#include "npt/sharing/registry.h"

namespace npt::executor::testing {
namespace {

constexpr UINT kSize = 8;

uint32_t rgba(float r, float g, float b) {
  auto byte = [](float v) { return uint32_t(v * 255.0f + 0.5f); };
  return byte(r) | byte(g) << 8 | byte(b) << 16 | 0xffu << 24;
}

// One context: a device through the wire and the calls these tests make.
struct Context {
  Harness h;
  protocol::ObjectId device = 0, context = 0;

  bool create() { return h.createDevice(&device, &context) == S_OK; }

  protocol::ObjectId sharedTexture(UINT misc, UINT bind = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE) {
    D3D11_TEXTURE2D_DESC desc = {kSize, kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT, bind, 0, misc};
    const protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateTexture2D(h.w(), device, &desc, 0, nullptr, id));
    h.runOk();
    return id;
  }
  protocol::ObjectId plainTexture(D3D11_USAGE usage, UINT bind, UINT cpu) {
    D3D11_TEXTURE2D_DESC desc = {kSize, kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, usage, bind, cpu, 0};
    const protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateTexture2D(h.w(), device, &desc, 0, nullptr, id));
    h.runOk();
    return id;
  }
  UINT64 sharedHandle(protocol::ObjectId texture) {
    EXPECT_TRUE(protocol::encode_IDXGIResource_GetSharedHandle(h.w(), texture));
    h.runOk();
    HRESULT hr = E_FAIL;
    UINT64 handle = 0;
    EXPECT_EQ(protocol::decodeReply_IDXGIResource_GetSharedHandle(h.replies().data(), h.replies().size(), &hr, &handle),
              protocol::ErrorCode::Ok);
    EXPECT_EQ(hr, S_OK);
    return handle;
  }
  protocol::ObjectId open(UINT64 handle) {
    const protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_OpenSharedResource(h.w(), device, handle, 0, __uuidof(ID3D11Texture2D), id));
    h.runOk();
    HRESULT hr = E_FAIL;
    D3D11_TEXTURE2D_DESC texture = {};
    D3D11_BUFFER_DESC buffer = {};
    EXPECT_EQ(protocol::decodeReply_ID3D11Device_OpenSharedResource(h.replies().data(), h.replies().size(), &hr, &texture,
                                                                    &buffer),
              protocol::ErrorCode::Ok);
    EXPECT_EQ(hr, S_OK);
    return id;
  }
  protocol::ObjectId renderTarget(protocol::ObjectId texture) {
    const protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateRenderTargetView(h.w(), device, texture, nullptr, id));
    h.runOk();
    return id;
  }
  void clear(protocol::ObjectId view, float r, float g, float b, protocol::ObjectId on = 0) {
    const FLOAT colour[4] = {r, g, b, 1};
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(h.w(), on ? on : context, view, colour));
    h.runOk();
  }
  void flush() {
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_Flush(h.w(), context));
    h.runOk();
  }
  // What the server does after every batch: fences, queries, refreshes.
  void afterBatch() { h.executor().pollQueries(); }
  // The texel at (0, 0), read back through a staging copy.
  uint32_t texel(protocol::ObjectId texture) {
    const protocol::ObjectId staging = plainTexture(D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, staging, texture));
    h.runOk();
    std::vector<uint8_t> bytes;
    // The host copies the bytes out and unmaps its backend at once; the staging texture
    // is never used again, so no Unmap follows.
    EXPECT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
    uint32_t value = 0;
    if (bytes.size() >= 4) std::memcpy(&value, bytes.data(), 4);
    return value;
  }
};

class SharingTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!backendAvailable(&why)) GTEST_SKIP() << "no D3D11 backend: " << why;
    ASSERT_TRUE(creator.create());
    ASSERT_TRUE(opener.create());
    std::string error;
    registry = sharing::Registry::open(sharing::Registry::instanceFromEnvironment(), &error);
    ASSERT_TRUE(registry) << error;
  }
  uint64_t copies(UINT64 handle) { return registry->copyCounters(handle).copies; }

  Context creator, opener;
  std::unique_ptr<sharing::Registry> registry;
};

// A hostile guest asks for the shared handle of a 1D or 3D texture it created with
// D3D11_RESOURCE_MISC_SHARED (our guest never does: its DXGI face shows them no shared
// flags). The host refuses: the registry's desc and the section's layout describe 2D
// textures and buffers only, and an opener would take the entry for a 2D texture.
TEST_F(SharingTest, OneAndThreeDimensionalTexturesAreNeverShared) {
  Context& c = creator;
  const uint32_t before = registry->liveEntries();
  const protocol::ObjectId volume = c.h.newId(), line = c.h.newId();
  const D3D11_TEXTURE3D_DESC volumeDesc = {kSize, kSize, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                                           D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_SHARED};
  const D3D11_TEXTURE1D_DESC lineDesc = {kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                                         D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_SHARED};
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateTexture3D(c.h.w(), c.device, &volumeDesc, 0, nullptr, volume));
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateTexture1D(c.h.w(), c.device, &lineDesc, 0, nullptr, line));
  c.h.runOk();
  for (const protocol::ObjectId texture : {volume, line}) {
    ASSERT_TRUE(protocol::encode_IDXGIResource_GetSharedHandle(c.h.w(), texture));
    c.h.runOk();
    HRESULT hr = S_OK;
    UINT64 handle = 1;
    ASSERT_EQ(protocol::decodeReply_IDXGIResource_GetSharedHandle(c.h.replies().data(), c.h.replies().size(), &hr, &handle),
              protocol::ErrorCode::Ok);
    EXPECT_EQ(hr, E_INVALIDARG) << "texture " << texture;
    EXPECT_EQ(handle, 0u);
  }
  EXPECT_EQ(registry->liveEntries(), before) << "an entry was registered";
  EXPECT_FALSE(c.h.executor().isFatal()) << "a refusal, not a protocol violation";
}

TEST_F(SharingTest, AnOpenersWritesReachTheCreatorAtItsFlush) {
  const protocol::ObjectId texture = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  creator.clear(creator.renderTarget(texture), 1, 0, 0);
  const UINT64 handle = creator.sharedHandle(texture);
  const protocol::ObjectId opened = opener.open(handle);
  EXPECT_EQ(opener.texel(opened), rgba(1, 0, 0));

  const protocol::ObjectId view = opener.renderTarget(opened);
  opener.clear(view, 0, 1, 0);
  opener.afterBatch();
  creator.afterBatch();
  EXPECT_EQ(creator.texel(texture), rgba(1, 0, 0)) << "published before the opener's Flush";
  opener.flush();
  creator.afterBatch();
  EXPECT_EQ(creator.texel(texture), rgba(0, 1, 0)) << "the opener's clear did not reach the creator";
  EXPECT_FALSE(creator.h.executor().isFatal());
  EXPECT_FALSE(opener.h.executor().isFatal());
}

TEST_F(SharingTest, OnlyWrittenResourcesAreCopied) {
  const protocol::ObjectId first = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId second = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId firstView = creator.renderTarget(first);
  const UINT64 firstHandle = creator.sharedHandle(first), secondHandle = creator.sharedHandle(second);
  const protocol::ObjectId firstOpened = opener.open(firstHandle);
  opener.open(secondHandle);
  const uint64_t firstBefore = copies(firstHandle), secondBefore = copies(secondHandle);

  // Flushes and batches without writes copy nothing.
  creator.flush();
  opener.flush();
  opener.afterBatch();
  creator.afterBatch();
  EXPECT_EQ(copies(firstHandle), firstBefore);
  EXPECT_EQ(copies(secondHandle), secondBefore);

  // A clear of the first: one publish by the creator, one refresh by the opener.
  creator.clear(firstView, 0, 0, 1);
  creator.flush();
  opener.afterBatch();
  EXPECT_EQ(copies(firstHandle), firstBefore + 2);
  EXPECT_EQ(copies(secondHandle), secondBefore);
  EXPECT_EQ(opener.texel(firstOpened), rgba(0, 0, 1));
  // Reading a shared texture (a copy source) is no write.
  opener.flush();
  creator.afterBatch();
  EXPECT_EQ(copies(firstHandle), firstBefore + 2);
}

TEST_F(SharingTest, UnpublishedWritesOfAContextAreNotOverwrittenByARefresh) {
  const protocol::ObjectId texture = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId creatorView = creator.renderTarget(texture);
  const protocol::ObjectId opened = opener.open(creator.sharedHandle(texture));
  const protocol::ObjectId openerView = opener.renderTarget(opened);

  opener.clear(openerView, 0, 0, 1);        // written, not yet published
  creator.clear(creatorView, 1, 1, 0);
  creator.flush();
  opener.afterBatch();
  EXPECT_EQ(opener.texel(opened), rgba(0, 0, 1)) << "a refresh overwrote the opener's own clear";
  // The later publication wins, whole.
  opener.flush();
  creator.afterBatch();
  EXPECT_EQ(creator.texel(texture), rgba(0, 0, 1));
}

TEST_F(SharingTest, ACommandListWritesWhenItIsExecuted) {
  const protocol::ObjectId texture = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId view = creator.renderTarget(texture);
  const UINT64 handle = creator.sharedHandle(texture);
  const protocol::ObjectId opened = opener.open(handle);
  const protocol::ObjectId deferred = creator.h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDeferredContext(creator.h.w(), creator.device, 0, deferred));
  creator.h.runOk();
  auto record = [&](float red) {
    const protocol::ObjectId list = creator.h.newId();
    creator.clear(view, red, 0, 1, deferred);
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_FinishCommandList(creator.h.w(), deferred, FALSE, list));
    creator.h.runOk();
    return list;
  };
  // Two lists of one deferred context (created after sharing began: both are known).
  const protocol::ObjectId first = record(1);
  const protocol::ObjectId second = record(0);
  const uint64_t before = copies(handle);
  creator.flush();
  EXPECT_EQ(copies(handle), before) << "recording alone wrote nothing";
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ExecuteCommandList(creator.h.w(), creator.context, second, FALSE));
  creator.h.runOk();
  creator.flush();
  EXPECT_EQ(copies(handle), before + 1);
  opener.afterBatch();
  EXPECT_EQ(opener.texel(opened), rgba(0, 0, 1));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ExecuteCommandList(creator.h.w(), creator.context, first, FALSE));
  creator.h.runOk();
  creator.flush();
  opener.afterBatch();
  EXPECT_EQ(opener.texel(opened), rgba(1, 0, 1));
  EXPECT_FALSE(creator.h.executor().isFatal());
}

// A deferred context created while this context tracks writes (a resource is shared
// already) records known lists from the start: its first list writes only what it wrote.
TEST_F(SharingTest, ADeferredContextCreatedAfterSharingIsKnownFromItsFirstList) {
  const protocol::ObjectId written = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId untouched = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId view = creator.renderTarget(written);
  const UINT64 writtenHandle = creator.sharedHandle(written), untouchedHandle = creator.sharedHandle(untouched);
  const protocol::ObjectId deferred = creator.h.newId(), list = creator.h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDeferredContext(creator.h.w(), creator.device, 0, deferred));
  creator.h.runOk();
  creator.clear(view, 1, 0, 1, deferred);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_FinishCommandList(creator.h.w(), deferred, FALSE, list));
  creator.h.runOk();
  creator.flush();
  const uint64_t writtenBefore = copies(writtenHandle), untouchedBefore = copies(untouchedHandle);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ExecuteCommandList(creator.h.w(), creator.context, list, FALSE));
  creator.h.runOk();
  creator.flush();
  EXPECT_EQ(copies(writtenHandle), writtenBefore + 1);
  EXPECT_EQ(copies(untouchedHandle), untouchedBefore) << "the first list of a deferred context wrote everything";
  EXPECT_FALSE(creator.h.executor().isFatal());
}

TEST_F(SharingTest, AKeyedMutexReleasedWithoutWritesCopiesNothing) {
  const protocol::ObjectId texture = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX);
  const protocol::ObjectId view = creator.renderTarget(texture);
  const UINT64 handle = creator.sharedHandle(texture);
  auto acquire = [](Context& c, protocol::ObjectId resource, UINT64 key) {
    EXPECT_TRUE(protocol::encode_IDXGIKeyedMutex_AcquireSync(c.h.w(), resource, key, 1000));
    c.h.runOk();
    HRESULT hr = E_FAIL;
    EXPECT_EQ(protocol::decodeReply_IDXGIKeyedMutex_AcquireSync(c.h.replies().data(), c.h.replies().size(), &hr),
              protocol::ErrorCode::Ok);
    return hr;
  };
  auto release = [](Context& c, protocol::ObjectId resource, UINT64 key) {
    EXPECT_TRUE(protocol::encode_IDXGIKeyedMutex_ReleaseSync(c.h.w(), resource, key));
    c.h.runOk();
  };
  ASSERT_EQ(acquire(creator, texture, 0), S_OK);
  creator.clear(view, 0, 1, 1);
  release(creator, texture, 1);
  const protocol::ObjectId opened = opener.open(handle);
  // Opening copied the creator's clear in; from now on nobody writes.
  const uint64_t before = copies(handle);
  ASSERT_EQ(acquire(opener, opened, 1), S_OK);
  EXPECT_EQ(opener.texel(opened), rgba(0, 1, 1));
  release(opener, opened, 0);   // read only: nothing to publish
  ASSERT_EQ(acquire(creator, texture, 0), S_OK);
  release(creator, texture, 1);
  EXPECT_EQ(copies(handle), before) << "a release without writes published, or an acquire refreshed for nothing";
}

#if defined(_WIN32)
std::vector<uint8_t> compile(const char* source, const char* entry, const char* profile) {
  ID3DBlob* code = nullptr;
  HRESULT hr = D3DCompile(source, std::strlen(source), "sharing", nullptr, nullptr, entry, profile, 0, 0, &code, nullptr);
  if (FAILED(hr) || !code) return {};
  std::vector<uint8_t> bytes(static_cast<const uint8_t*>(code->GetBufferPointer()),
                             static_cast<const uint8_t*>(code->GetBufferPointer()) + code->GetBufferSize());
  code->Release();
  return bytes;
}

TEST_F(SharingTest, ADrawWritesTheBoundTargetsOnly) {
  const char* source = R"(
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 uv = float2((id << 1) & 2, id & 2);
  return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
float4 ps() : SV_Target { return float4(1, 0, 1, 1); }
)";
  Context& c = opener;
  const protocol::ObjectId drawn = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const protocol::ObjectId idle = creator.sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  const UINT64 drawnHandle = creator.sharedHandle(drawn), idleHandle = creator.sharedHandle(idle);
  // The opener draws into its copy of `drawn` while `idle` is only sampled-from state.
  const protocol::ObjectId target = c.open(drawnHandle);
  c.open(idleHandle);
  const std::vector<uint8_t> vsCode = compile(source, "vs", "vs_4_0"), psCode = compile(source, "ps", "ps_4_0");
  ASSERT_FALSE(vsCode.empty());
  ASSERT_FALSE(psCode.empty());
  const protocol::ObjectId vs = c.h.newId(), ps = c.h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateVertexShader(
      c.h.w(), c.device, protocol::Payload::inlineBytes(vsCode.data(), uint32_t(vsCode.size())), 0, vs));
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreatePixelShader(
      c.h.w(), c.device, protocol::Payload::inlineBytes(psCode.data(), uint32_t(psCode.size())), 0, ps));
  c.h.runOk();
  const protocol::ObjectId view = c.renderTarget(target);
  const D3D11_VIEWPORT viewport = {0, 0, kSize, kSize, 0, 1};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetPrimitiveTopology(c.h.w(), c.context,
                                                                           D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_VSSetShader(c.h.w(), c.context, vs, nullptr, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_PSSetShader(c.h.w(), c.context, ps, nullptr, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_OMSetRenderTargets(c.h.w(), c.context, 1, &view, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_RSSetViewports(c.h.w(), c.context, 1, &viewport));
  c.h.runOk();
  const uint64_t drawnBefore = copies(drawnHandle), idleBefore = copies(idleHandle);
  c.flush();
  EXPECT_EQ(copies(drawnHandle), drawnBefore) << "binding a target is no write";
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(c.h.w(), c.context, 3, 0));
  c.h.runOk();
  c.flush();
  EXPECT_EQ(copies(drawnHandle), drawnBefore + 1);
  EXPECT_EQ(copies(idleHandle), idleBefore);
  creator.afterBatch();
  EXPECT_EQ(creator.texel(drawn), rgba(1, 0, 1));

  // A target the blend state masks (RenderTargetWriteMask 0) is no write: nothing is
  // copied, and the creator's clear stays.
  creator.clear(creator.renderTarget(drawn), 0, 1, 0);
  creator.flush();
  c.afterBatch();
  EXPECT_EQ(c.texel(target), rgba(0, 1, 0));
  D3D11_BLEND_DESC blendDesc = {};
  blendDesc.RenderTarget[0].SrcBlend = blendDesc.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
  blendDesc.RenderTarget[0].DestBlend = blendDesc.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
  blendDesc.RenderTarget[0].BlendOp = blendDesc.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
  blendDesc.RenderTarget[0].RenderTargetWriteMask = 0;
  const protocol::ObjectId masked = c.h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBlendState(c.h.w(), c.device, &blendDesc, masked));
  const FLOAT factor[4] = {1, 1, 1, 1};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_OMSetBlendState(c.h.w(), c.context, masked, factor, ~0u));
  c.h.runOk();
  const uint64_t maskedBefore = copies(drawnHandle);
  auto drawAndFlush = [&] {
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(c.h.w(), c.context, 3, 0));
    c.h.runOk();
    c.flush();
  };
  drawAndFlush();
  EXPECT_EQ(copies(drawnHandle), maskedBefore) << "RenderTargetWriteMask 0";
  EXPECT_EQ(c.texel(target), rgba(0, 1, 0)) << "the masked draw changed the target";
  // The default blend state back: written again.
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_OMSetBlendState(c.h.w(), c.context, 0, factor, ~0u));
  c.h.runOk();
  drawAndFlush();
  EXPECT_EQ(copies(drawnHandle), maskedBefore + 1);
  creator.afterBatch();
  EXPECT_EQ(creator.texel(drawn), rgba(1, 0, 1));
}
// A draw whose depth-stencil view can write neither depth nor stencil (the state turns
// both off, or the view is read-only) does not write the shared depth texture behind it:
// nothing is copied at the Flush. With depth writes (the default state) it does.
TEST_F(SharingTest, ADepthStencilViewWithoutWritesIsNoWrite) {
  const char* source = "float4 vs(uint id : SV_VertexID) : SV_Position {\n"
                       "  float2 uv = float2((id << 1) & 2, id & 2);\n"
                       "  return float4(uv * float2(2, -2) + float2(-1, 1), 0.5, 1);\n"
                       "}\n";
  Context& c = opener;
  D3D11_TEXTURE2D_DESC desc = {kSize, kSize, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, {1, 0}, D3D11_USAGE_DEFAULT,
                               D3D11_BIND_DEPTH_STENCIL, 0, D3D11_RESOURCE_MISC_SHARED};
  const protocol::ObjectId texture = creator.h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateTexture2D(creator.h.w(), creator.device, &desc, 0, nullptr, texture));
  creator.h.runOk();
  const UINT64 handle = creator.sharedHandle(texture);
  const protocol::ObjectId target = c.open(handle);
  const std::vector<uint8_t> vsCode = compile(source, "vs", "vs_4_0");
  ASSERT_FALSE(vsCode.empty());
  const protocol::ObjectId vs = c.h.newId(), view = c.h.newId(), readOnly = c.h.newId(), off = c.h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateVertexShader(
      c.h.w(), c.device, protocol::Payload::inlineBytes(vsCode.data(), uint32_t(vsCode.size())), 0, vs));
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDepthStencilView(c.h.w(), c.device, target, nullptr, view));
  D3D11_DEPTH_STENCIL_VIEW_DESC readOnlyDesc = {};
  readOnlyDesc.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
  readOnlyDesc.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2D;
  readOnlyDesc.Flags = D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL;
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDepthStencilView(c.h.w(), c.device, target, &readOnlyDesc, readOnly));
  D3D11_DEPTH_STENCIL_DESC offDesc = {};
  offDesc.DepthEnable = FALSE;
  offDesc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
  offDesc.DepthFunc = D3D11_COMPARISON_LESS;
  offDesc.StencilEnable = FALSE;
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDepthStencilState(c.h.w(), c.device, &offDesc, off));
  const D3D11_VIEWPORT viewport = {0, 0, kSize, kSize, 0, 1};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetPrimitiveTopology(c.h.w(), c.context,
                                                                           D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_VSSetShader(c.h.w(), c.context, vs, nullptr, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_RSSetViewports(c.h.w(), c.context, 1, &viewport));
  c.h.runOk();
  auto drawAndFlush = [&](protocol::ObjectId dsv, protocol::ObjectId state) {
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_OMSetRenderTargets(c.h.w(), c.context, 0, nullptr, dsv));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_OMSetDepthStencilState(c.h.w(), c.context, state, 0));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(c.h.w(), c.context, 3, 0));
    c.h.runOk();
    c.flush();
  };
  const uint64_t before = copies(handle);
  drawAndFlush(view, off);
  EXPECT_EQ(copies(handle), before) << "depth and stencil off";
  drawAndFlush(readOnly, 0);
  EXPECT_EQ(copies(handle), before) << "a read-only view";
  drawAndFlush(view, 0);
  EXPECT_EQ(copies(handle), before + 1) << "the default state writes depth";
  EXPECT_FALSE(c.h.executor().isFatal());
  EXPECT_FALSE(creator.h.executor().isFatal());
}
#endif

}  // namespace
}  // namespace npt::executor::testing
