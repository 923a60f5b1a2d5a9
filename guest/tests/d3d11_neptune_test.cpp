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
