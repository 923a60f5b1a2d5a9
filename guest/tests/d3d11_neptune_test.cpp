// SPDX-License-Identifier: MIT
// Neptune-only expectations of the guest runtime (skipped against Wine's d3d11):
// round trips counted by the device's statistics (INptDevice) — device creation and
// a steady-state frame — and the failure without a server.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include <d3dcompiler.h>

#include "d3d11_test_env.h"
#include "dxbc/interfaces.h"
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

// Each deferred context records on a transport ring of its own (Runtime::acquireDeferredStream:
// rings 1..4 of Runtime::defaultGeometry), ordered after ring 0 where objects are created and
// destroyed; more deferred contexts than rings share them. Six threads record at once, each
// creating and releasing a source buffer per round on the device while its deferred
// context copies from it: every command list must leave the last round's bytes.
TEST(NeptuneRuntime, DeferredContextsRecordOnRingsOfTheirOwn) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  constexpr int kContexts = 6;
  constexpr int kRounds = 60;
  constexpr UINT kBytes = 256;
  D3D11_BUFFER_DESC gpuDesc = { kBytes, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0 };
  D3D11_BUFFER_DESC stagingDesc = { kBytes, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
  ID3D11DeviceContext* deferred[kContexts] = {};
  ID3D11Buffer* targets[kContexts] = {};
  ID3D11CommandList* lists[kContexts] = {};
  for (int i = 0; i < kContexts; i++) {
    ASSERT_EQ(device->CreateDeferredContext(0, &deferred[i]), S_OK);
    ASSERT_EQ(device->CreateBuffer(&gpuDesc, nullptr, &targets[i]), S_OK);
  }
  auto deferredRings = [&] { return statisticsOf(device).rings & ~uint64_t(1); };
  ASSERT_EQ(deferredRings(), 0u);

  // Two deferred contexts: two rings.
  std::vector<uint8_t> first(kBytes, 0x11);
  deferred[0]->UpdateSubresource(targets[0], 0, nullptr, first.data(), 0, 0);
  deferred[1]->UpdateSubresource(targets[1], 0, nullptr, first.data(), 0, 0);
  uint64_t two = deferredRings();
  EXPECT_EQ(__builtin_popcountll(two), 2) << std::hex << two;

  auto valueOf = [](int context, int round) { return uint8_t(context * 37 + round); };
  std::vector<std::thread> threads;
  for (int i = 0; i < kContexts; i++)
    threads.emplace_back([&, i] {
      std::vector<uint8_t> bytes(kBytes);
      for (int round = 0; round < kRounds; round++) {
        std::fill(bytes.begin(), bytes.end(), valueOf(i, round));
        D3D11_SUBRESOURCE_DATA init = { bytes.data(), 0, 0 };
        ID3D11Buffer* source = nullptr;
        if (FAILED(device->CreateBuffer(&gpuDesc, &init, &source)))
          return;
        deferred[i]->CopyResource(targets[i], source);
        source->Release();   // its DestroyObject must wait for the copy on the deferred ring
      }
      deferred[i]->FinishCommandList(FALSE, &lists[i]);
    });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(deferredRings(), 0x1eu) << "six deferred contexts over the four deferred rings";

  ID3D11Buffer* staging = nullptr;
  ASSERT_EQ(device->CreateBuffer(&stagingDesc, nullptr, &staging), S_OK);
  for (int i = 0; i < kContexts; i++) {
    ASSERT_NE(lists[i], nullptr) << i;
    context->ExecuteCommandList(lists[i], FALSE);
    context->CopyResource(staging, targets[i]);
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
    const uint8_t* got = static_cast<const uint8_t*>(mapped.pData);
    EXPECT_EQ(got[0], valueOf(i, kRounds - 1)) << "context " << i;
    EXPECT_EQ(got[kBytes - 1], valueOf(i, kRounds - 1)) << "context " << i;
    context->Unmap(staging, 0);
  }

  staging->Release();
  for (int i = 0; i < kContexts; i++) {
    lists[i]->Release();
    deferred[i]->Release();
    targets[i]->Release();
  }
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

// More than the first bulk region (64 MiB, Runtime::defaultGeometry) in one command: a
// texture's initial data and an UpdateSubresource of 72 MiB each. The command stream asks
// the host for another region (GuestConnection::grow_bulk); the readback, larger than
// region 0 too, comes through the ring's own reply region. Every byte is compared.
TEST(NeptuneRuntime, UploadsLargerThanTheFirstBulkRegionArriveWhole) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  const UINT width = 4096, height = 4608;   // 72 MiB of 4-byte texels
  const uint64_t bytes = uint64_t(width) * height * 4;
  ASSERT_GT(bytes, uint64_t(64) << 20);
  auto pattern = [&](uint32_t seed) {
    std::vector<uint32_t> texels(size_t(width) * height);
    uint32_t x = seed;
    for (uint32_t& t : texels) {
      x = x * 1664525u + 1013904223u;
      t = x;
    }
    return texels;
  };
  D3D11_TEXTURE2D_DESC desc = { width, height, 1, 1, DXGI_FORMAT_R8G8B8A8_UINT, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_SHADER_RESOURCE, 0, 0 };
  D3D11_TEXTURE2D_DESC stagingDesc = desc;
  stagingDesc.Usage = D3D11_USAGE_STAGING;
  stagingDesc.BindFlags = 0;
  stagingDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  ID3D11Texture2D* staging = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&stagingDesc, nullptr, &staging), S_OK);
  auto readBackEquals = [&](ID3D11Texture2D* texture, const std::vector<uint32_t>& expected) {
    context->CopyResource(staging, texture);
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    if (context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped) != S_OK)
      return false;
    bool same = mapped.RowPitch >= width * 4;
    for (UINT row = 0; same && row < height; row++)
      same = std::memcmp(static_cast<const uint8_t*>(mapped.pData) + size_t(row) * mapped.RowPitch,
                         expected.data() + size_t(row) * width, size_t(width) * 4) == 0;
    context->Unmap(staging, 0);
    return same;
  };

  const uint64_t bulkBefore = statisticsOf(device).bulkBytes;
  std::vector<uint32_t> first = pattern(1);
  D3D11_SUBRESOURCE_DATA init = { first.data(), width * 4, 0 };
  ID3D11Texture2D* texture = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&desc, &init, &texture), S_OK);
  EXPECT_TRUE(readBackEquals(texture, first)) << "initial data larger than region 0";

  std::vector<uint32_t> second = pattern(2);
  context->UpdateSubresource(texture, 0, nullptr, second.data(), width * 4, 0);
  EXPECT_TRUE(readBackEquals(texture, second)) << "an UpdateSubresource larger than region 0";
  EXPECT_GE(statisticsOf(device).bulkBytes - bulkBefore, 2 * bytes) << "both went through bulk memory";
  EXPECT_EQ(device->GetDeviceRemovedReason(), S_OK);

  texture->Release();
  staging->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

// A large DYNAMIC buffer's map memory is write-watched: an Unmap sends the pages the
// application wrote during that map, not the whole buffer (NO_OVERWRITE appends to a
// 1 MiB vertex buffer cost a page each, not a megabyte), and the GPU sees every byte.
TEST(NeptuneRuntime, DynamicUnmapsSendOnlyTheWrittenPages) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  constexpr UINT kSize = 1u << 20;
  D3D11_BUFFER_DESC desc = { kSize, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
  ID3D11Buffer* buffer = nullptr;
  ASSERT_EQ(device->CreateBuffer(&desc, nullptr, &buffer), S_OK);
  auto sent = [&] {
    StatisticsSnapshot s = statisticsOf(device);
    return s.bytes + s.bulkBytes;
  };
  std::vector<uint8_t> expected(kSize);
  for (UINT i = 0; i < kSize; i++)
    expected[i] = uint8_t(i * 7 + i / 4096);

  // The first DISCARD map writes everything: all of it travels.
  uint64_t before = sent();
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
  std::memcpy(mapped.pData, expected.data(), kSize);
  context->Unmap(buffer, 0);
  EXPECT_GE(sent() - before, uint64_t(kSize));

  // 16 appends of 256 bytes, one of them across a page boundary: a page or two each.
  before = sent();
  for (UINT draw = 0; draw < 16; draw++) {
    const UINT offset = draw * 3 * 4096 + (draw == 5 ? 4096 - 100 : 300);
    for (UINT i = 0; i < 256; i++)
      expected[offset + i] = uint8_t(0xC0 ^ draw ^ i);
    ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped), S_OK);
    std::memcpy(static_cast<uint8_t*>(mapped.pData) + offset, expected.data() + offset, 256);
    context->Unmap(buffer, 0);
  }
  const uint64_t appended = sent() - before;
  EXPECT_LE(appended, uint64_t(17 * 4096 + 16 * 128)) << "pages written plus command overhead, not 16 MiB";
  EXPECT_GE(appended, uint64_t(17 * 4096));

  // The GPU holds every byte: the first upload and the appends.
  D3D11_BUFFER_DESC stagingDesc = { kSize, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
  ID3D11Buffer* staging = nullptr;
  ASSERT_EQ(device->CreateBuffer(&stagingDesc, nullptr, &staging), S_OK);
  context->CopyResource(staging, buffer);
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(std::memcmp(mapped.pData, expected.data(), kSize), 0);
  context->Unmap(staging, 0);

  // A map that writes nothing sends nothing; a DISCARD that writes one page sends one.
  before = sent();
  ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped), S_OK);
  context->Unmap(buffer, 0);
  EXPECT_EQ(sent(), before);
  ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
  std::memset(mapped.pData, 0x3c, 1000);
  context->Unmap(buffer, 0);
  EXPECT_LE(sent() - before, uint64_t(4096 + 128));
  context->CopyResource(staging, buffer);
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(static_cast<const uint8_t*>(mapped.pData)[999], 0x3c);   // the rest is undefined after DISCARD
  context->Unmap(staging, 0);

  staging->Release();
  buffer->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

// GetClassInstance hands out the class instances that shaders created with the linkage
// declare in their IFCE chunk (fxc writes it for shaders with interfaces; here a
// compiled shader gets one added): name, type and data location as declared, Created
// FALSE. Unknown names are invalid. Neptune only: Wine's GetClassInstance is a stub.
TEST(NeptuneRuntime, ClassInstancesDeclaredByShadersAreFoundByName) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune())
    GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  const char source[] = "float4 main() : SV_Target { return float4(1, 0, 0, 1); }\n";
  ID3DBlob* code = nullptr;
  ASSERT_EQ(D3DCompile(source, sizeof(source) - 1, "class_instances", nullptr, nullptr, "main", "ps_5_0", 0, 0, &code,
                       nullptr), S_OK);
  std::vector<uint8_t> bytecode(static_cast<const uint8_t*>(code->GetBufferPointer()),
                                static_cast<const uint8_t*>(code->GetBufferPointer()) + code->GetBufferSize());
  code->Release();
  dxbc::InterfacesChunk interfaces;
  interfaces.types.push_back({ "cAmbient", 0, 1, 0, 0 });
  interfaces.types.push_back({ "cTextured", 1, 2, 1, 1 });
  dxbc::ClassInstanceRecord ambient;
  ambient.name = "g_ambient";
  ambient.typeId = 0;
  ambient.constantBuffer = 1;
  ambient.constantBufferOffset = 0;
  dxbc::ClassInstanceRecord textured;
  textured.name = "g_textured";
  textured.typeId = 1;
  textured.constantBuffer = 1;
  textured.constantBufferOffset = 1;
  textured.texture = 3;
  textured.sampler = 2;
  interfaces.instances = { ambient, textured };
  ASSERT_TRUE(dxbc::addInterfacesChunk(bytecode, interfaces));

  ID3D11ClassLinkage* linkage = nullptr;
  ASSERT_EQ(device->CreateClassLinkage(&linkage), S_OK);
  ID3D11ClassInstance* instance = nullptr;
  EXPECT_EQ(linkage->GetClassInstance("g_textured", 0, &instance), E_INVALIDARG) << "no shader declares it yet";
  EXPECT_EQ(instance, nullptr);
  ID3D11PixelShader* shader = nullptr;
  ASSERT_EQ(device->CreatePixelShader(bytecode.data(), bytecode.size(), linkage, &shader), S_OK);

  ASSERT_EQ(linkage->GetClassInstance("g_textured", 0, &instance), S_OK);
  D3D11_CLASS_INSTANCE_DESC desc = {};
  instance->GetDesc(&desc);
  EXPECT_EQ(desc.InstanceId, 1u);
  EXPECT_EQ(desc.InstanceIndex, 0u);
  EXPECT_EQ(desc.TypeId, 1u);
  EXPECT_EQ(desc.ConstantBuffer, 1u);
  EXPECT_EQ(desc.BaseConstantBufferOffset, 1u);
  EXPECT_EQ(desc.BaseTexture, 3u);
  EXPECT_EQ(desc.BaseSampler, 2u);
  EXPECT_FALSE(desc.Created);
  char name[32] = {};
  SIZE_T length = sizeof(name);
  instance->GetInstanceName(name, &length);
  EXPECT_STREQ(name, "g_textured");
  EXPECT_EQ(length, sizeof("g_textured"));
  length = sizeof(name);
  instance->GetTypeName(name, &length);
  EXPECT_STREQ(name, "cTextured");
  ID3D11ClassLinkage* parent = nullptr;
  instance->GetClassLinkage(&parent);
  EXPECT_EQ(parent, linkage);
  parent->Release();

  ID3D11ClassInstance* none = reinterpret_cast<ID3D11ClassInstance*>(uintptr_t(1));
  EXPECT_EQ(linkage->GetClassInstance("g_missing", 0, &none), E_INVALIDARG);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(linkage->GetClassInstance("g_ambient", 1, &none), E_INVALIDARG);
  EXPECT_EQ(linkage->GetClassInstance(nullptr, 0, &none), E_INVALIDARG);
  ID3D11ClassInstance* ambientInstance = nullptr;
  ASSERT_EQ(linkage->GetClassInstance("g_ambient", 0, &ambientInstance), S_OK);
  // Binding it is an ordinary class-instance binding: the getters answer it, and the host
  // stays healthy (wined3d has no class instances: it refuses their creation, and the
  // host drops bindings of objects it could not create).
  context->PSSetShader(shader, &ambientInstance, 1);
  ID3D11ClassInstance* got = nullptr;
  UINT count = 1;
  ID3D11PixelShader* bound = nullptr;
  context->PSGetShader(&bound, &got, &count);
  EXPECT_EQ(bound, shader);
  EXPECT_EQ(got, ambientInstance);
  if (bound)
    bound->Release();
  if (got)
    got->Release();
  context->PSSetShader(nullptr, nullptr, 0);
  context->Flush();
  EXPECT_EQ(device->GetDeviceRemovedReason(), S_OK);

  ambientInstance->Release();
  instance->Release();
  shader->Release();
  linkage->Release();
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
