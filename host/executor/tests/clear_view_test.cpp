// SPDX-License-Identifier: MIT
// ID3D11DeviceContext1::ClearView of unordered-access views: the colour reaches the
// backend converted as the ClearView documentation says for the view's format (integer
// formats take the floats as integral values: rounded toward zero, clamped to the channel,
// NaN -> 0), read back through the sync Map.
#include <cmath>
#include <cstring>
#include <limits>

#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

class ClearViewTest : public DeviceTest {
protected:
  // Clears a 2x1 UAV texture of `format` with ClearView (whole view) and reads it back.
  std::vector<uint8_t> clearAndRead(DXGI_FORMAT format, const FLOAT color[4]) {
    protocol::ObjectId texture = texture2D(2, 1, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, format);
    protocol::ObjectId uav = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateUnorderedAccessView(h.w(), device, texture, nullptr, uav));
    h.runOk();
    EXPECT_NE(h.executor().backendObject(uav), nullptr) << "the backend refused the UAV";
    uint64_t dropped = h.executor().droppedCalls();
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext1_ClearView(h.w(), context, uav, color, nullptr, 0));
    h.runOk();
    EXPECT_EQ(h.executor().droppedCalls(), dropped);
    EXPECT_FALSE(h.executor().isFatal());
    return readBack(texture, 2, 1, format);
  }
};

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST_F(ClearViewTest, UnsignedIntegerViewsGetTheIntegralValues) {
  const FLOAT color[4] = {235.7f, -5.0f, 300.0f, kNaN};
  std::vector<uint8_t> texels = clearAndRead(DXGI_FORMAT_R8G8B8A8_UINT, color);
  ASSERT_EQ(texels.size(), 8u);
  for (int texel = 0; texel < 2; texel++) {
    EXPECT_EQ(texels[texel * 4 + 0], 235) << "rounded toward zero";
    EXPECT_EQ(texels[texel * 4 + 1], 0) << "clamped to the channel's range";
    EXPECT_EQ(texels[texel * 4 + 2], 255) << "clamped to the channel's range";
    EXPECT_EQ(texels[texel * 4 + 3], 0) << "NaN";
  }
}

TEST_F(ClearViewTest, SignedIntegerViewsGetTheIntegralValues) {
  const FLOAT color[4] = {-200.9f, -3.9f, kInfinity, -kInfinity};
  std::vector<uint8_t> texels = clearAndRead(DXGI_FORMAT_R8G8B8A8_SINT, color);
  ASSERT_EQ(texels.size(), 8u);
  for (int texel = 0; texel < 2; texel++) {
    EXPECT_EQ(int8_t(texels[texel * 4 + 0]), -128);
    EXPECT_EQ(int8_t(texels[texel * 4 + 1]), -3);
    EXPECT_EQ(int8_t(texels[texel * 4 + 2]), 127);
    EXPECT_EQ(int8_t(texels[texel * 4 + 3]), -128);
  }
  const FLOAT wide[4] = {-7.5f, 0, 0, 0};
  texels = clearAndRead(DXGI_FORMAT_R32_SINT, wide);
  ASSERT_EQ(texels.size(), 8u);
  int32_t value;
  std::memcpy(&value, texels.data(), 4);
  EXPECT_EQ(value, -7);
  const FLOAT large[4] = {4294967040.0f, 0, 0, 0};   // 2^32 - 256, exact as a float
  texels = clearAndRead(DXGI_FORMAT_R32_UINT, large);
  ASSERT_EQ(texels.size(), 8u);
  uint32_t unsignedValue;
  std::memcpy(&unsignedValue, texels.data() + 4, 4);
  EXPECT_EQ(unsignedValue, 4294967040u);
}

TEST_F(ClearViewTest, FloatViewsGetTheColour) {
  const FLOAT color[4] = {1.0f, 0.0f, 1.0f, 1.0f};
  std::vector<uint8_t> texels = clearAndRead(DXGI_FORMAT_R8G8B8A8_UNORM, color);
  ASSERT_EQ(texels.size(), 8u);
  for (int texel = 0; texel < 2; texel++) {
    EXPECT_EQ(texels[texel * 4 + 0], 255);
    EXPECT_EQ(texels[texel * 4 + 1], 0);
    EXPECT_EQ(texels[texel * 4 + 2], 255);
    EXPECT_EQ(texels[texel * 4 + 3], 255);
  }
}

// ClearUnorderedAccessViewUint writes the lower bits of each value that fit the channel:
// values wider than an 8-bit channel (and a negative one, as the guest's two's complement)
// lose their high bits on every backend.
TEST_F(ClearViewTest, UintClearsKeepTheLowBitsOfValuesWiderThanTheChannel) {
  const UINT values[4] = {0x1FFu, 0xFFFFFF80u, 3u, 0x100u};
  for (DXGI_FORMAT format : {DXGI_FORMAT_R8G8B8A8_UINT, DXGI_FORMAT_R8G8B8A8_SINT}) {
    protocol::ObjectId texture = texture2D(2, 1, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, format);
    protocol::ObjectId uav = h.newId();
    ASSERT_TRUE(protocol::encode_ID3D11Device_CreateUnorderedAccessView(h.w(), device, texture, nullptr, uav));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ClearUnorderedAccessViewUint(h.w(), context, uav, values));
    h.runOk();
    const std::vector<uint8_t> texels = readBack(texture, 2, 1, format);
    EXPECT_EQ(texels, std::vector<uint8_t>({0xFF, 0x80, 0x03, 0x00, 0xFF, 0x80, 0x03, 0x00}))
        << "format " << unsigned(format);
  }
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(ClearViewTest, ViewsOtherThanRenderTargetsAndUnorderedAccessAreDropped) {
  protocol::ObjectId texture = texture2D(2, 1, D3D11_USAGE_DEFAULT,
                                         D3D11_BIND_UNORDERED_ACCESS | D3D11_BIND_SHADER_RESOURCE, 0,
                                         DXGI_FORMAT_R8G8B8A8_UINT);
  protocol::ObjectId uav = h.newId(), srv = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateUnorderedAccessView(h.w(), device, texture, nullptr, uav));
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateShaderResourceView(h.w(), device, texture, nullptr, srv));
  const FLOAT zero[4] = {};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext1_ClearView(h.w(), context, uav, zero, nullptr, 0));
  h.runOk();
  uint64_t dropped = h.executor().droppedCalls();
  const FLOAT color[4] = {9, 9, 9, 9};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext1_ClearView(h.w(), context, srv, color, nullptr, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 1);
  EXPECT_TRUE(h.logContains("ClearView"));
  EXPECT_EQ(readBack(texture, 2, 1, DXGI_FORMAT_R8G8B8A8_UINT), std::vector<uint8_t>(8, 0));
  EXPECT_FALSE(h.executor().isFatal());
}

}  // namespace
}  // namespace npt::executor::testing
