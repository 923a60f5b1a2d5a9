// SPDX-License-Identifier: MIT
// Device creation, host info and backend selection through the wire.
#include "device_fixture.h"
#include "npt/protocol/host_info.h"

namespace npt::executor::testing {
namespace {

TEST(ExecutorBackend, MissingBackendIsAClearFatalErrorAtDeviceCreation) {
  // A backend name no build provides: the context stops with the backend's message.
  Harness h("d3dmetal");
  protocol::ObjectId device = 0, context = 0;
  EXPECT_EQ(h.createDevice(&device, &context), DXGI_ERROR_DEVICE_REMOVED);
  ASSERT_TRUE(h.executor().isFatal());
  EXPECT_EQ(h.executor().fatalError().code, FatalCode::Backend);
  EXPECT_NE(h.executor().fatalError().message.find("d3dmetal"), std::string::npos) << h.executor().fatalError().message;
  EXPECT_TRUE(h.logContains("E13002")) << "the backend error is logged when the context is created";
}

TEST_F(DeviceTest, CreateDeviceReachesTheBackend) {
  EXPECT_NE(h.executor().backendObject(device), nullptr);
  EXPECT_NE(h.executor().backendObject(context), nullptr);
  // The table's reference plus the device state's own.
  EXPECT_GE(h.refcount(device), 1u);
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(DeviceTest, CreateDeviceWithWrongSdkVersionReturnsInvalidArg) {
  protocol::ObjectId badDevice = 0, badContext = 0;
  EXPECT_EQ(h.createDevice(&badDevice, &badContext, D3D11_SDK_VERSION + 1), E_INVALIDARG);
  EXPECT_EQ(h.executor().backendObject(badDevice), nullptr);
  EXPECT_FALSE(h.executor().isFatal());
  // The ids stay registered until the guest destroys them.
  h.w().u32(protocol::packHeader(protocol::OpDestroyObject, 2));
  h.w().u32(badDevice);
  h.runOk();
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(DeviceTest, CreateDeviceWithUnknownFeatureLevelReturnsInvalidArg) {
  protocol::ObjectId badDevice = h.newId(), badContext = h.newId();
  const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL(0x1234)};
  ASSERT_TRUE(protocol::encode_D3D11CreateDevice(h.w(), 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, 1,
                                                 D3D11_SDK_VERSION, badDevice, badContext));
  h.runOk();
  HRESULT hr = S_OK;
  D3D_FEATURE_LEVEL level;
  ASSERT_EQ(protocol::decodeReply_D3D11CreateDevice(h.replies().data(), h.replies().size(), &hr, &level),
            protocol::ErrorCode::Ok);
  EXPECT_EQ(hr, E_INVALIDARG);
  EXPECT_EQ(h.executor().backendObject(badDevice), nullptr);
}

TEST_F(DeviceTest, QueryHostInfoDescribesTheBackendDevice) {
  ASSERT_TRUE(protocol::encode_QueryHostInfo(h.w()));
  h.runOk();
  std::vector<uint8_t> blob;
  ASSERT_EQ(protocol::decodeReply_QueryHostInfo(h.replies().data(), h.replies().size(), blob), protocol::ErrorCode::Ok);
  protocol::HostInfo info;
  ASSERT_EQ(protocol::parseHostInfo(blob.data(), blob.size(), &info), protocol::ErrorCode::Ok);
  EXPECT_GE(info.featureLevel, D3D_FEATURE_LEVEL_10_0);
  EXPECT_GT(info.features.size(), 5u);
  EXPECT_GT(info.formats.size(), 100u);
  const protocol::HostFormat* rgba = info.findFormat(DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_NE(rgba, nullptr);
  EXPECT_TRUE(rgba->support & D3D11_FORMAT_SUPPORT_RENDER_TARGET);
  EXPECT_NE(info.adapter.description[0], 0) << "the adapter has a name";
  RecordProperty("host_info_bytes", int(blob.size()));
  RecordProperty("outputs", int(info.outputs.size()));
}

}  // namespace
}  // namespace npt::executor::testing
