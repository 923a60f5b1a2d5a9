// SPDX-License-Identifier: MIT
// Small DYNAMIC subresources (under kMirroredDynamicBytes) are mirrored on the host: an
// Unmap may carry only the bytes that changed since the guest's previous one, even with
// WRITE_DISCARD, and every byte of the guest's map memory is what the GPU then reads
// (initial data included). Read back through a staging copy.
#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

class DynamicMirrorTest : public DeviceTest {
protected:
  std::vector<uint8_t> readBuffer(protocol::ObjectId buffer, UINT size) {
    D3D11_BUFFER_DESC stagingDesc = {size, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
    protocol::ObjectId staging = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &stagingDesc, 0, nullptr, staging));
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, staging, buffer));
    h.runOk();
    std::vector<uint8_t> bytes;
    EXPECT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, staging, 0, D3D11_MAP_READ, 0, nullptr,
                                                           protocol::Payload::none()));
    h.runOk();
    return bytes;
  }

  // An Unmap of `type` carrying `ranges` of `contents` (the guest's whole map memory).
  void unmapChanged(protocol::ObjectId resource, D3D11_MAP type, const std::vector<NPT_BYTE_RANGE>& ranges,
                    const std::vector<uint8_t>& contents) {
    std::vector<uint8_t> changed;
    for (const NPT_BYTE_RANGE& range : ranges)
      changed.insert(changed.end(), contents.begin() + range.Offset, contents.begin() + range.Offset + range.Size);
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, resource, 0, type, UINT(ranges.size()),
                                                           ranges.data(),
                                                           protocol::Payload::inlineBytes(changed.data(), changed.size())));
    h.runOk();
    ASSERT_FALSE(h.executor().isFatal());
  }
};

TEST_F(DynamicMirrorTest, ChangedBytesAfterDiscardKeepTheRestOfTheGuestsMemory) {
  const UINT size = 4096;
  std::vector<uint8_t> contents(size);
  for (UINT i = 0; i < size; i++) contents[i] = uint8_t(i * 7 + 1);
  D3D11_BUFFER_DESC desc = {size, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  NPT_SUBRESOURCE_DATA data = {h.stage(0, contents.data(), size), 0, 0};
  protocol::ObjectId buffer = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &desc, 1, &data, buffer));
  h.runOk();
  // DISCARD that changed 8 bytes: the rest is the initial data, as in the guest's memory.
  for (UINT i = 100; i < 108; i++) contents[i] = 0xEE;
  unmapChanged(buffer, D3D11_MAP_WRITE_DISCARD, {{100, 8}}, contents);
  EXPECT_TRUE(readBuffer(buffer, size) == contents);
  // Again, twice: each DISCARD renames, each keeps every byte the guest holds.
  for (UINT i = 0; i < 4; i++) contents[i] = 0x11;
  unmapChanged(buffer, D3D11_MAP_WRITE_DISCARD, {{0, 4}}, contents);
  for (UINT i = 4000; i < 4096; i++) contents[i] = 0x22;
  unmapChanged(buffer, D3D11_MAP_WRITE_DISCARD, {{4000, 96}}, contents);
  EXPECT_TRUE(readBuffer(buffer, size) == contents);
  // NO_OVERWRITE writes the changed bytes only.
  contents[2000] = 0x33;
  unmapChanged(buffer, D3D11_MAP_WRITE_NO_OVERWRITE, {{2000, 1}}, contents);
  EXPECT_TRUE(readBuffer(buffer, size) == contents);
}

TEST_F(DynamicMirrorTest, SmallDynamicTexturesAreMirroredToo) {
  // 8x8 RGBA: 256 bytes tightly packed; the mirror starts as zeros without initial data.
  protocol::ObjectId texture = texture2D(8, 8, D3D11_USAGE_DYNAMIC, D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE);
  std::vector<uint8_t> contents(256, 0);
  for (UINT i = 64; i < 96; i++) contents[i] = uint8_t(i);   // row 2
  unmapChanged(texture, D3D11_MAP_WRITE_DISCARD, {{64, 32}}, contents);
  for (UINT i = 224; i < 256; i++) contents[i] = 0x44;   // row 7
  unmapChanged(texture, D3D11_MAP_WRITE_DISCARD, {{224, 32}}, contents);
  EXPECT_TRUE(readBack(texture, 8, 8) == contents);
}

}  // namespace
}  // namespace npt::executor::testing
