// SPDX-License-Identifier: MIT
// DYNAMIC Unmaps send only what the application changed: small subresources
// (under 16 KiB, mirrored by the host) send the bytes that differ from the map memory at
// Map, also after WRITE_DISCARD and from deferred contexts; DYNAMIC textures from 16 KiB
// on send the pages written. Counted with the device statistics, every byte read back
// from the GPU. Neptune only.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "d3d11_test_env.h"
#include "private_interfaces.h"

namespace {

using npt::test::D3D11Under;

uint64_t sentBytes(ID3D11Device* device) {
  INptDevice* npt = nullptr;
  if (FAILED(device->QueryInterface(npt::guest::kIID_INptDevice, reinterpret_cast<void**>(&npt))) || !npt) return 0;
  npt::guest::StatisticsSnapshot s;
  npt->GetStatistics(&s);
  npt->Release();
  return s.bytes + s.bulkBytes;
}

std::vector<uint8_t> readBuffer(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11Buffer* buffer, UINT size) {
  D3D11_BUFFER_DESC desc = { size, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
  ID3D11Buffer* staging = nullptr;
  std::vector<uint8_t> bytes;
  if (FAILED(device->CreateBuffer(&desc, nullptr, &staging))) return bytes;
  context->CopyResource(staging, buffer);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  if (SUCCEEDED(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped))) {
    bytes.assign(static_cast<const uint8_t*>(mapped.pData), static_cast<const uint8_t*>(mapped.pData) + size);
    context->Unmap(staging, 0);
  }
  staging->Release();
  return bytes;
}

// An Unmap's command with a few ranges: header, ranges and payload reference.
constexpr uint64_t kUnmapOverhead = 128;

TEST(NeptuneRuntime, SmallDynamicUnmapsSendOnlyWhatChanged) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune()) GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  constexpr UINT kSize = 4096;
  std::vector<uint8_t> expected(kSize);
  for (UINT i = 0; i < kSize; i++) expected[i] = uint8_t(i * 13 + 5);
  D3D11_BUFFER_DESC desc = { kSize, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
  D3D11_SUBRESOURCE_DATA initial = { expected.data(), 0, 0 };
  ID3D11Buffer* buffer = nullptr;
  ASSERT_EQ(device->CreateBuffer(&desc, &initial, &buffer), S_OK);

  // DISCARD rewriting the whole buffer with 16 bytes changed: those 16 travel, and the
  // GPU holds every byte (the host writes its mirror of the rest).
  uint64_t before = sentBytes(device);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  for (UINT i = 1000; i < 1016; i++) expected[i] = 0xA0;
  ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
  std::memcpy(mapped.pData, expected.data(), kSize);
  context->Unmap(buffer, 0);
  EXPECT_LE(sentBytes(device) - before, 16 + kUnmapOverhead);
  EXPECT_TRUE(readBuffer(device, context, buffer, kSize) == expected);

  // NO_OVERWRITE appending 4 bytes at two places: 8 bytes of data.
  before = sentBytes(device);
  ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped), S_OK);
  auto* memory = static_cast<uint8_t*>(mapped.pData);
  for (UINT i = 0; i < 4; i++) memory[i] = expected[i] = 0x11;
  for (UINT i = 4092; i < 4096; i++) memory[i] = expected[i] = 0x22;
  context->Unmap(buffer, 0);
  EXPECT_LE(sentBytes(device) - before, 8 + kUnmapOverhead);
  EXPECT_TRUE(readBuffer(device, context, buffer, kSize) == expected);

  // A DISCARD that changes nothing sends nothing: the GPU already holds those bytes.
  before = sentBytes(device);
  ASSERT_EQ(context->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
  std::memcpy(mapped.pData, expected.data(), kSize);
  context->Unmap(buffer, 0);
  EXPECT_EQ(sentBytes(device), before);
  EXPECT_TRUE(readBuffer(device, context, buffer, kSize) == expected);

  // A deferred context's map: the bytes that differ from the guest's copy are recorded,
  // and the executed list leaves every byte as the application wrote it.
  ID3D11DeviceContext* deferred = nullptr;
  ASSERT_EQ(device->CreateDeferredContext(0, &deferred), S_OK);
  before = sentBytes(device);
  for (UINT i = 2048; i < 2056; i++) expected[i] = 0x5C;
  ASSERT_EQ(deferred->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
  std::memcpy(mapped.pData, expected.data(), kSize);
  deferred->Unmap(buffer, 0);
  ID3D11CommandList* list = nullptr;
  ASSERT_EQ(deferred->FinishCommandList(FALSE, &list), S_OK);
  context->ExecuteCommandList(list, FALSE);
  EXPECT_LE(sentBytes(device) - before, 8 + 3 * kUnmapOverhead) << "the list's commands included";
  EXPECT_TRUE(readBuffer(device, context, buffer, kSize) == expected);

  // A small constant-buffer-like map rewritten whole from a deferred context, twice per
  // list (ranges would cost more than the bytes: the whole buffer travels each time).
  std::vector<uint8_t> small(32, 0);
  D3D11_BUFFER_DESC smallDesc = { 32, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0 };
  ID3D11Buffer* smallBuffer = nullptr;
  ASSERT_EQ(device->CreateBuffer(&smallDesc, nullptr, &smallBuffer), S_OK);
  for (int round = 1; round <= 2; round++) {
    for (UINT i = 0; i < 32; i++) small[i] = uint8_t(round * 40 + i);
    ASSERT_EQ(deferred->Map(smallBuffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
    std::memcpy(mapped.pData, small.data(), small.size());
    deferred->Unmap(smallBuffer, 0);
  }
  list->Release();
  ASSERT_EQ(deferred->FinishCommandList(FALSE, &list), S_OK);
  context->ExecuteCommandList(list, FALSE);
  EXPECT_TRUE(readBuffer(device, context, smallBuffer, 32) == small);
  smallBuffer->Release();

  list->Release();
  deferred->Release();
  buffer->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

TEST(NeptuneRuntime, DynamicTextureUnmapsSendOnlyTheWrittenPages) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune()) GTEST_SKIP() << "Neptune only";
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ASSERT_EQ(under.createDevice(&device, &context), S_OK);
  // 256x256 RGBA: 256 KiB, 1 KiB per row.
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = desc.Height = 256;
  desc.MipLevels = desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = D3D11_USAGE_DYNAMIC;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
  ID3D11Texture2D* texture = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&desc, nullptr, &texture), S_OK);
  // Two rows written after DISCARD (rows 10 and 11: one page): about a page travels.
  uint64_t before = sentBytes(device);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  ASSERT_EQ(context->Map(texture, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), S_OK);
  ASSERT_GE(mapped.RowPitch, 1024u);
  for (UINT row = 10; row < 12; row++)
    std::memset(static_cast<uint8_t*>(mapped.pData) + row * mapped.RowPitch, int(0x40 + row), 1024);
  context->Unmap(texture, 0);
  const uint64_t sent = sentBytes(device) - before;
  EXPECT_LE(sent, 2 * 4096 + kUnmapOverhead) << "the written pages, not 256 KiB";
  EXPECT_GE(sent, 2048u);
  // Those rows reach the GPU (the rest is undefined after DISCARD, as on Windows).
  desc.Usage = D3D11_USAGE_STAGING;
  desc.BindFlags = 0;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  ID3D11Texture2D* staging = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&desc, nullptr, &staging), S_OK);
  context->CopyResource(staging, texture);
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  for (UINT row = 10; row < 12; row++) {
    const uint8_t* line = static_cast<const uint8_t*>(mapped.pData) + row * mapped.RowPitch;
    EXPECT_EQ(line[0], 0x40 + row);
    EXPECT_EQ(line[1023], 0x40 + row);
  }
  context->Unmap(staging, 0);
  staging->Release();
  texture->Release();
  context->Release();
  EXPECT_EQ(device->Release(), 0u);
}

}  // namespace
