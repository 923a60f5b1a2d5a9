// SPDX-License-Identifier: MIT
// Resources, views, clears, copies, Map/Unmap and UpdateSubresource: each valid call
// reaches the backend (pixels prove it), each invalid one is stopped as documented.
#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

std::vector<uint8_t> solid(size_t pixels, uint32_t rgba) {
  std::vector<uint8_t> bytes(pixels * 4);
  for (size_t i = 0; i < pixels; i++) std::memcpy(&bytes[i * 4], &rgba, 4);
  return bytes;
}

protocol::Payload bulkPayload(const NPT_BULK_REF& ref) {
  return protocol::Payload::bulkRef({ref.Region, ref.Offset, ref.Size});
}

TEST_F(DeviceTest, ClearCopyAndMapReadBackTheClearColour) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  protocol::ObjectId rtv = renderTarget(texture);
  ASSERT_NE(h.executor().backendObject(rtv), nullptr);
  clear(rtv, 1.0f, 0.0f, 0.0f, 1.0f);
  EXPECT_EQ(readBack(texture, 4, 4), solid(16, 0xff0000ffu));
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(DeviceTest, InvalidTextureDescCreatesNothingAndLaterUsesAreDropped) {
  protocol::ObjectId texture = texture2D(0, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  EXPECT_EQ(h.executor().backendObject(texture), nullptr);
  EXPECT_TRUE(h.logContains("E2001")) << "TextureDimension is logged";
  uint64_t dropped = h.executor().droppedCalls();
  protocol::ObjectId rtv = renderTarget(texture);
  EXPECT_EQ(h.executor().backendObject(rtv), nullptr);
  EXPECT_GT(h.executor().droppedCalls(), dropped);
  EXPECT_FALSE(h.executor().isFatal());
}

// The guest answered S_OK for both creations: the embedder hears of each refusal (the server
// counts them in the control block, where the guest runtime logs them) with the refusing rule.
TEST_F(DeviceTest, RefusedCreationsAreReportedWithTheirRule) {
  ASSERT_TRUE(h.refusedCreations().empty());
  protocol::ObjectId texture = texture2D(0, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  ASSERT_EQ(h.refusedCreations().size(), 1u);
  EXPECT_EQ(h.refusedCreations()[0].object, texture);
  EXPECT_EQ(h.refusedCreations()[0].rule, 2001u) << "TextureDimension";
  protocol::ObjectId rtv = renderTarget(texture);
  ASSERT_EQ(h.refusedCreations().size(), 2u);
  EXPECT_EQ(h.refusedCreations()[1].object, rtv);
  // A valid creation is not reported.
  texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  EXPECT_EQ(h.refusedCreations().size(), 2u);
}

TEST_F(DeviceTest, RenderTargetViewOfATextureWithoutTheBindFlagIsRefused) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
  ASSERT_NE(h.executor().backendObject(texture), nullptr);
  protocol::ObjectId rtv = renderTarget(texture);
  EXPECT_EQ(h.executor().backendObject(rtv), nullptr);
  EXPECT_TRUE(h.logContains("E4001")) << "ViewBindFlag";
}

TEST_F(DeviceTest, InitialDataReachesTheTexture) {
  std::vector<uint8_t> pixels = solid(4, 0x80402010u);
  NPT_SUBRESOURCE_DATA data = {h.stage(0, pixels.data(), uint32_t(pixels.size())), 8, 0};
  protocol::ObjectId texture = texture2D(2, 2, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                                         DXGI_FORMAT_R8G8B8A8_UNORM, &data);
  ASSERT_NE(h.executor().backendObject(texture), nullptr);
  EXPECT_EQ(readBack(texture, 2, 2), pixels);
}

TEST_F(DeviceTest, InitialDataShorterThanTheFootprintIsFatal) {
  std::vector<uint8_t> pixels(12);
  NPT_SUBRESOURCE_DATA data = {h.stage(0, pixels.data(), uint32_t(pixels.size())), 8, 0};
  texture2D(2, 2, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, DXGI_FORMAT_R8G8B8A8_UNORM, &data);
  ASSERT_TRUE(h.executor().isFatal());
  EXPECT_EQ(h.executor().fatalError().code, FatalCode::Validation);
  EXPECT_NE(h.executor().fatalError().message.find("E3002"), std::string::npos) << h.executor().fatalError().message;
}

TEST_F(DeviceTest, BulkReferenceOutsideTheContextMemoryIsFatal) {
  NPT_SUBRESOURCE_DATA data = {NPT_BULK_REF{0, uint32_t(h.bulk().size() - 8), 16}, 8, 0};
  texture2D(2, 2, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, DXGI_FORMAT_R8G8B8A8_UNORM, &data);
  ASSERT_TRUE(h.executor().isFatal());
  EXPECT_EQ(h.executor().fatalError().code, FatalCode::BulkReference);
}

TEST_F(DeviceTest, UpdateSubresourceWritesTheBoxAndAnOutOfBoundsBoxIsDropped) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  clear(renderTarget(texture), 0, 0, 0, 0);
  std::vector<uint8_t> green = solid(4, 0xff00ff00u);
  D3D11_BOX box = {1, 1, 0, 3, 3, 1};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_UpdateSubresource(
      h.w(), context, texture, 0, &box, protocol::Payload::inlineBytes(green.data(), uint32_t(green.size())), 8, 0));
  h.runOk();
  D3D11_BOX outside = {3, 3, 0, 5, 5, 1};
  uint64_t dropped = h.executor().droppedCalls();
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_UpdateSubresource(
      h.w(), context, texture, 0, &outside, protocol::Payload::inlineBytes(green.data(), uint32_t(green.size())), 8, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 1);
  std::vector<uint8_t> pixels = readBack(texture, 4, 4);
  ASSERT_EQ(pixels.size(), 64u);
  for (UINT y = 0; y < 4; y++)
    for (UINT x = 0; x < 4; x++) {
      uint32_t value;
      std::memcpy(&value, &pixels[(y * 4 + x) * 4], 4);
      bool inside = x >= 1 && x < 3 && y >= 1 && y < 3;
      EXPECT_EQ(value, inside ? 0xff00ff00u : 0u) << x << "," << y;
    }
}

TEST_F(DeviceTest, MapForReadingADefaultTextureReturnsInvalidArg) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  std::vector<uint8_t> bytes;
  EXPECT_EQ(h.map(context, texture, 0, D3D11_MAP_READ, bytes), E_INVALIDARG);
  EXPECT_TRUE(bytes.empty());
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(DeviceTest, MapTwiceWithoutUnmapReturnsInvalidArg) {
  protocol::ObjectId staging = texture2D(4, 4, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  std::vector<uint8_t> bytes;
  EXPECT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
  EXPECT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), E_INVALIDARG);
}

TEST_F(DeviceTest, LargeReadbacksTravelThroughBulkMemory) {
  protocol::ObjectId texture = texture2D(256, 256, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  clear(renderTarget(texture), 0.0f, 0.0f, 1.0f, 1.0f);
  protocol::ObjectId staging = texture2D(256, 256, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, staging, texture));
  h.runOk();
  std::vector<uint8_t> bytes;
  UINT rowPitch = 0;
  bool viaBulk = false;
  ASSERT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes, &rowPitch, &viaBulk), S_OK);
  EXPECT_TRUE(viaBulk);
  EXPECT_EQ(rowPitch, 1024u);
  EXPECT_EQ(bytes, solid(256 * 256, 0xffff0000u));
}

TEST_F(DeviceTest, StagedDynamicWritesArriveWithUnmap) {
  D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  protocol::ObjectId buffer = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &desc, 0, nullptr, buffer));
  h.runOk();
  std::vector<uint8_t> data(256);
  for (size_t i = 0; i < data.size(); i++) data[i] = uint8_t(i * 7);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, nullptr,
                                                         protocol::Payload::inlineBytes(data.data(), 256)));
  h.runOk();
  D3D11_BUFFER_DESC stagingDesc = {256, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  protocol::ObjectId staging = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &stagingDesc, 0, nullptr, staging));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, staging, buffer));
  h.runOk();
  std::vector<uint8_t> bytes;
  ASSERT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
  EXPECT_EQ(bytes, data);
  // An Unmap whose bytes disagree with the subresource size is a protocol violation.
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, nullptr,
                                                         protocol::Payload::inlineBytes(data.data(), 255)));
  h.runOk();
  EXPECT_TRUE(h.executor().isFatal());
}

// A write-watching guest sends only the byte ranges the application wrote: the host
// writes them with the application's map type (NO_OVERWRITE keeps everything else) and
// leaves the other bytes alone.
TEST_F(DeviceTest, RangedNoOverwriteUnmapKeepsTheRest) {
  D3D11_BUFFER_DESC desc = {64 * 1024, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  protocol::ObjectId buffer = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &desc, 0, nullptr, buffer));
  std::vector<uint8_t> expected(desc.ByteWidth);
  for (size_t i = 0; i < expected.size(); i++) expected[i] = uint8_t(i * 13 + 1);
  // The whole buffer once (DISCARD; 64 KiB travel in bulk memory)...
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, nullptr,
                                                         bulkPayload(h.stage(0, expected.data(), desc.ByteWidth))));
  h.runOk();
  // ...then two ranges appended with NO_OVERWRITE, their bytes concatenated.
  const NPT_BYTE_RANGE ranges[2] = {{4096, 100}, {40000, 3000}};
  std::vector<uint8_t> written;
  for (const NPT_BYTE_RANGE& range : ranges)
    for (UINT i = 0; i < range.Size; i++) {
      expected[range.Offset + i] = uint8_t(0xA5 ^ i);
      written.push_back(expected[range.Offset + i]);
    }
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, buffer, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 2,
                                                         ranges, protocol::Payload::inlineBytes(written.data(),
                                                                                                written.size())));
  h.runOk();
  ASSERT_FALSE(h.executor().isFatal());
  D3D11_BUFFER_DESC stagingDesc = {desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  protocol::ObjectId staging = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &stagingDesc, 0, nullptr, staging));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, staging, buffer));
  h.runOk();
  std::vector<uint8_t> bytes;
  ASSERT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
  EXPECT_TRUE(bytes == expected);
}

// Ranges the host cannot trust end the context: overlapping or unordered, empty, outside
// the subresource, or not adding up to the bytes received. So do a map type that is not
// the one the host mapped with, and ranges announced without any sent.
TEST_F(DeviceTest, BadUnmapRangesAreFatal) {
  struct Case {
    const char* what;
    std::vector<NPT_BYTE_RANGE> ranges;
    size_t bytes;
  };
  const Case cases[] = {
    {"overlap", {{0, 100}, {50, 100}}, 200},
    {"unordered", {{1000, 10}, {0, 10}}, 20},
    {"empty range", {{0, 0}}, 0},
    {"outside", {{4000, 200}}, 200},
    {"offset overflow", {{0xFFFFFFF0u, 0x20}}, 0x20},
    {"sizes disagree with the bytes", {{0, 10}, {20, 10}}, 21},
  };
  std::vector<uint8_t> data(4096, 0x5A);
  D3D11_BUFFER_DESC desc = {4096, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  for (const Case& c : cases) {
    Harness fresh;
    protocol::ObjectId freshDevice = 0, freshContext = 0;
    ASSERT_EQ(fresh.createDevice(&freshDevice, &freshContext), S_OK);
    protocol::ObjectId buffer = fresh.newId();
    ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(fresh.w(), freshDevice, &desc, 0, nullptr, buffer));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(fresh.w(), freshContext, buffer, 0,
                                                           D3D11_MAP_WRITE_NO_OVERWRITE, UINT(c.ranges.size()),
                                                           c.ranges.data(),
                                                           protocol::Payload::inlineBytes(data.data(), c.bytes)));
    fresh.runOk();
    EXPECT_TRUE(fresh.executor().isFatal()) << c.what;
  }
  // A read map unmapped as a write map.
  protocol::ObjectId staging = texture2D(4, 4, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
  std::vector<uint8_t> bytes;
  ASSERT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, staging, 0, D3D11_MAP_WRITE, 0, nullptr,
                                                         protocol::Payload::inlineBytes(data.data(), 64)));
  h.runOk();
  EXPECT_TRUE(h.executor().isFatal()) << "map type differs from the host's map";
}

// A guest that knows a staging subresource's contents maps it without a round trip: its
// Unmap brings the bytes to a subresource the host never mapped, written with WRITE (a
// read map the guest answered itself sends nothing). It is checked as the WRITE map it
// stands for: without CPU write access it is refused.
TEST_F(DeviceTest, GuestStagedStagingWritesArriveWithUnmap) {
  protocol::ObjectId staging = texture2D(4, 4, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
  const std::vector<uint8_t> data = solid(4 * 4, 0x80402010u);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, staging, 0, D3D11_MAP_WRITE, 0, nullptr,
                                                         protocol::Payload::inlineBytes(data.data(), data.size())));
  h.runOk();
  EXPECT_FALSE(h.executor().isFatal());
  std::vector<uint8_t> bytes;
  ASSERT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
  EXPECT_EQ(bytes, data);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, staging, 0, D3D11_MAP_READ, 0, nullptr,
                                                         protocol::Payload::none()));
  h.runOk();
  // Without CPU write access the same Unmap is a map the runtime would have refused.
  protocol::ObjectId readOnly = texture2D(4, 4, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  uint64_t dropped = h.executor().droppedCalls();
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, readOnly, 0, D3D11_MAP_WRITE, 0, nullptr,
                                                         protocol::Payload::inlineBytes(data.data(), data.size())));
  h.runOk();
  EXPECT_TRUE(h.executor().isFatal() || h.executor().droppedCalls() == dropped + 1);
}

TEST_F(DeviceTest, CopyBetweenMismatchedResourcesIsDropped) {
  protocol::ObjectId small = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  protocol::ObjectId large = texture2D(8, 8, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  uint64_t dropped = h.executor().droppedCalls();
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, small, large));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 1);
  EXPECT_TRUE(h.logContains("E9001"));
  D3D11_BOX box = {0, 0, 0, 9, 4, 1};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_CopySubresourceRegion(h.w(), context, small, 0, 0, 0, 0, large, 0, &box));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 2);
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(DeviceTest, CopySubresourceRegionMovesTheBox) {
  protocol::ObjectId source = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  protocol::ObjectId target = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  clear(renderTarget(source), 1, 1, 1, 1);
  clear(renderTarget(target), 0, 0, 0, 0);
  D3D11_BOX box = {0, 0, 0, 1, 1, 1};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_CopySubresourceRegion(h.w(), context, target, 0, 3, 3, 0, source, 0, &box));
  h.runOk();
  std::vector<uint8_t> pixels = readBack(target, 4, 4);
  ASSERT_EQ(pixels.size(), 64u);
  uint32_t corner, origin;
  std::memcpy(&corner, &pixels[(3 * 4 + 3) * 4], 4);
  std::memcpy(&origin, &pixels[0], 4);
  EXPECT_EQ(corner, 0xffffffffu);
  EXPECT_EQ(origin, 0u);
}

}  // namespace
}  // namespace npt::executor::testing
