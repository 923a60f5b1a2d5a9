// Neptune-only expectations of the guest runtime (skipped against Wine's d3d11):
// round trips counted by the device's statistics (INptDevice) — device creation and
// a steady-state frame — and the failure without a server.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "d3d11_test_env.h"
#include "private_interfaces.h"

using npt::guest::StatisticsSnapshot;
using npt::test::D3D11Under;

namespace {

StatisticsSnapshot statisticsOf(ID3D11Device* device) {
  StatisticsSnapshot s;
  INptDevice* npt = nullptr;
  if (SUCCEEDED(device->QueryInterface(npt::guest::kIID_INptDevice, reinterpret_cast<void**>(&npt)))) {
    npt->GetStatistics(&s);
    npt->Release();
  }
  return s;
}

}

TEST(NeptuneRuntime, DeviceCreationTakesAtMostThreeRoundTrips) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ASSERT_TRUE(under.ready()) << under.error();
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  INptDevice* npt = nullptr;
  ASSERT_EQ(device->QueryInterface(npt::guest::kIID_INptDevice, reinterpret_cast<void**>(&npt)), S_OK);
  EXPECT_NE(npt->GetObjectId(), 0u);
  npt->Release();
  StatisticsSnapshot s = statisticsOf(device);
  // The first device of the process pays QueryHostInfo too: 2 on a new connection,
  // 1 afterwards (the handshake is a socket exchange, not a ring round trip).
  EXPECT_GE(s.syncRoundTrips, 1u);
  EXPECT_LE(s.syncRoundTrips, 3u);
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

TEST(NeptuneRuntime, SteadyStateFramesWaitForNothing) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);

  D3D11_BUFFER_DESC vbDesc = { 4096, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
  D3D11_BUFFER_DESC cbDesc = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
  D3D11_TEXTURE2D_DESC rtDesc = { 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0, 0 };
  ID3D11Buffer* vb = nullptr;
  ID3D11Buffer* cb = nullptr;
  ID3D11Texture2D* rt = nullptr;
  ID3D11RenderTargetView* rtv = nullptr;
  ID3D11Query* event = nullptr;
  D3D11_QUERY_DESC eventDesc = { D3D11_QUERY_EVENT, 0 };
  ASSERT_EQ(device->CreateBuffer(&vbDesc, nullptr, &vb), S_OK);
  ASSERT_EQ(device->CreateBuffer(&cbDesc, nullptr, &cb), S_OK);
  ASSERT_EQ(device->CreateTexture2D(&rtDesc, nullptr, &rt), S_OK);
  ASSERT_EQ(device->CreateRenderTargetView(rt, nullptr, &rtv), S_OK);
  ASSERT_EQ(device->CreateQuery(&eventDesc, &event), S_OK);

  StatisticsSnapshot before = statisticsOf(device);
  std::vector<float> constants(64, 0.5f);
  for (int frame = 0; frame < 20; frame++) {
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    ASSERT_EQ(context->Map(vb, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
    static_cast<float*>(mapped.pData)[0] = float(frame);
    context->Unmap(vb, 0);
    context->UpdateSubresource(cb, 0, nullptr, constants.data(), 0, 0);
    UINT stride = 16, offset = 0;
    context->IASetVertexBuffers(0, 1, &vb, &stride, &offset);
    context->VSSetConstantBuffers(0, 1, &cb);
    context->OMSetRenderTargets(1, &rtv, nullptr);
    const float color[4] = { 0.1f * frame, 0.2f, 0.3f, 1.0f };
    context->ClearRenderTargetView(rtv, color);
    context->End(event);
    BOOL done = FALSE;
    context->GetData(event, &done, sizeof(done), 0);   // a local read of the push slot
    context->Flush();
  }
  StatisticsSnapshot after = statisticsOf(device);
  EXPECT_EQ(after.syncRoundTrips, before.syncRoundTrips) << "no frame waits for the host";
  EXPECT_GE(after.commands - before.commands, 20u * 8u);   // Map itself sends nothing
  EXPECT_GT(after.bytes, before.bytes);

  // Everything recorded reached a healthy host: the event of the last frame completes.
  HRESULT hr = S_FALSE;
  BOOL done = FALSE;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((hr = context->GetData(event, &done, sizeof(done), 0)) == S_FALSE && std::chrono::steady_clock::now() < deadline)
    Sleep(1);
  EXPECT_EQ(hr, S_OK);
  EXPECT_EQ(device->GetDeviceRemovedReason(), S_OK);

  event->Release();
  rtv->Release();
  rt->Release();
  cb->Release();
  vb->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

// A staging subresource whose contents the guest has seen is mapped again without a
// round trip until the GPU may write it (a copy into it, a command list executed).
TEST(NeptuneRuntime, StagingMapsOfKnownContentsWaitForNothing) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  D3D11_BUFFER_DESC stagingDesc = { 64, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, 0, 0 };
  ID3D11Buffer* staging = nullptr;
  ASSERT_EQ(device->CreateBuffer(&stagingDesc, nullptr, &staging), S_OK);
  std::vector<uint8_t> source(64, 0x5a);
  D3D11_BUFFER_DESC sourceDesc = { 64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0 };
  D3D11_SUBRESOURCE_DATA init = { source.data(), 0, 0 };
  ID3D11Buffer* gpu = nullptr;
  ASSERT_EQ(device->CreateBuffer(&sourceDesc, &init, &gpu), S_OK);

  auto roundTrips = [&] { return statisticsOf(device).syncRoundTrips; };
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  uint64_t before = roundTrips();
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_WRITE, 0, &mapped), S_OK);
  EXPECT_EQ(roundTrips(), before + 1) << "unknown contents come from the host";
  for (int i = 0; i < 64; i++)
    static_cast<uint8_t*>(mapped.pData)[i] = uint8_t(i);
  context->Unmap(staging, 0);

  before = roundTrips();
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(roundTrips(), before) << "the guest wrote them itself";
  EXPECT_EQ(static_cast<const uint8_t*>(mapped.pData)[63], 63);
  context->Unmap(staging, 0);
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ_WRITE, 0, &mapped), S_OK);
  static_cast<uint8_t*>(mapped.pData)[0] = 0xee;
  context->Unmap(staging, 0);
  EXPECT_EQ(roundTrips(), before);

  // What the guest wrote without asking reached the host: copied out and back it stays.
  ID3D11Buffer* copy = nullptr;
  D3D11_BUFFER_DESC copyDesc = { 64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0 };
  ASSERT_EQ(device->CreateBuffer(&copyDesc, nullptr, &copy), S_OK);
  context->CopyResource(copy, staging);
  context->CopyResource(staging, gpu);
  before = roundTrips();
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(roundTrips(), before + 1) << "a copy into it makes the host's contents the truth";
  EXPECT_EQ(static_cast<const uint8_t*>(mapped.pData)[5], 0x5a);
  context->Unmap(staging, 0);
  context->CopyResource(staging, copy);
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(static_cast<const uint8_t*>(mapped.pData)[0], 0xee);
  EXPECT_EQ(static_cast<const uint8_t*>(mapped.pData)[63], 63);
  context->Unmap(staging, 0);

  // A command list may write any staging resource.
  ID3D11DeviceContext* deferred = nullptr;
  ASSERT_EQ(device->CreateDeferredContext(0, &deferred), S_OK);
  deferred->CopyResource(staging, gpu);
  ID3D11CommandList* list = nullptr;
  ASSERT_EQ(deferred->FinishCommandList(FALSE, &list), S_OK);
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);   // known again
  context->Unmap(staging, 0);
  context->ExecuteCommandList(list, FALSE);
  before = roundTrips();
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(roundTrips(), before + 1);
  EXPECT_EQ(static_cast<const uint8_t*>(mapped.pData)[0], 0x5a);
  context->Unmap(staging, 0);

  list->Release();
  deferred->Release();
  copy->Release();
  gpu->Release();
  staging->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

// What the runtime does not remote is not offered, whatever the host's backend has:
// CPU access to DEFAULT resources (so Write/ReadFromSubresource have nothing to act on)
// and tiled resources.
TEST(NeptuneRuntime, FeaturesOfferOnlyWhatIsRemoted) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ASSERT_EQ(under.createDevice(&device), S_OK);
  // A backend without the 11.1/11.2 option queries (wined3d) fails them; one with them
  // (DXVK) has its CPU-mapped DEFAULT resources and tiled resources masked.
  D3D11_FEATURE_DATA_D3D11_OPTIONS1 options1 = {};
  if (SUCCEEDED(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options1, sizeof(options1)))) {
    EXPECT_EQ(options1.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
    EXPECT_FALSE(options1.MapOnDefaultBuffers);
  }
  D3D11_FEATURE_DATA_D3D11_OPTIONS2 options2 = {};
  if (SUCCEEDED(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS2, &options2, sizeof(options2)))) {
    EXPECT_FALSE(options2.MapOnDefaultTextures);
    EXPECT_EQ(options2.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
  }
  D3D11_TEXTURE2D_DESC desc = { 4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT, 0,
                                D3D11_CPU_ACCESS_READ, 0 };
  ID3D11Texture2D* texture = reinterpret_cast<ID3D11Texture2D*>(1);
  EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &texture), E_INVALIDARG);
  EXPECT_EQ(texture, nullptr);
  EXPECT_EQ(device->Release(), 0u);
}

// Flush1's event and EnqueueSetEvent are set once the GPU finished the work before
// them, and the caller never waits for the host (no sync round trip).
TEST(NeptuneRuntime, CompletionEventsAreSetWithoutWaiting) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  ID3D11DeviceContext3* context3 = nullptr;
  ASSERT_EQ(context->QueryInterface(__uuidof(ID3D11DeviceContext3), reinterpret_cast<void**>(&context3)), S_OK);
  IDXGIDevice3* dxgi = nullptr;
  ASSERT_EQ(device->QueryInterface(__uuidof(IDXGIDevice3), reinterpret_cast<void**>(&dxgi)), S_OK);
  D3D11_TEXTURE2D_DESC desc = { 256, 256, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0, 0 };
  ID3D11Texture2D* target = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&desc, nullptr, &target), S_OK);
  ID3D11RenderTargetView* rtv = nullptr;
  ASSERT_EQ(device->CreateRenderTargetView(target, nullptr, &rtv), S_OK);

  HANDLE flushed = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  HANDLE enqueued = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  uint64_t before = statisticsOf(device).syncRoundTrips;
  const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
  context->ClearRenderTargetView(rtv, color);
  context3->Flush1(D3D11_CONTEXT_TYPE_ALL, flushed);
  context->ClearRenderTargetView(rtv, color);
  EXPECT_EQ(dxgi->EnqueueSetEvent(enqueued), S_OK);
  EXPECT_EQ(dxgi->EnqueueSetEvent(nullptr), E_INVALIDARG);
  EXPECT_EQ(statisticsOf(device).syncRoundTrips, before) << "nobody waited for the host";
  EXPECT_EQ(WaitForSingleObject(flushed, 10000), DWORD(WAIT_OBJECT_0));
  EXPECT_EQ(WaitForSingleObject(enqueued, 10000), DWORD(WAIT_OBJECT_0));

  // The events' queries are the device's own: they neither hold it nor outlive it.
  HANDLE pending = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  context->ClearRenderTargetView(rtv, color);
  EXPECT_EQ(dxgi->EnqueueSetEvent(pending), S_OK);
  CloseHandle(flushed);
  CloseHandle(enqueued);
  rtv->Release();
  target->Release();
  dxgi->Release();
  context3->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
  EXPECT_EQ(WaitForSingleObject(pending, 10000), DWORD(WAIT_OBJECT_0)) << "set at the latest when the device goes";
  CloseHandle(pending);
}

// Run with NPT_SERVER naming a socket nobody serves (guest/tests/meson.build).
TEST(NoServer, DeviceCreationFailsWithEFailPromptly) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ASSERT_TRUE(under.ready()) << under.error();
  ID3D11Device* device = reinterpret_cast<ID3D11Device*>(1);
  ID3D11DeviceContext* context = reinterpret_cast<ID3D11DeviceContext*>(1);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(under.createDevice(&device, &context), E_FAIL);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  EXPECT_EQ(device, nullptr);
  EXPECT_EQ(context, nullptr);
}
