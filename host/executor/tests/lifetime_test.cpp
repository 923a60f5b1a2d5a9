// SPDX-License-Identifier: MIT
// Object lifetime: DestroyObject releases the backend object; a fatal context releases
// everything it created. Reference counts are probed on the backend objects.
#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

void destroy(Harness& h, protocol::ObjectId id) {
  h.w().u32(protocol::packHeader(protocol::OpDestroyObject, 2));
  h.w().u32(id);
  h.runOk();
}

TEST_F(DeviceTest, DestroyObjectReleasesTheBackendObject) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  IUnknown* object = h.executor().backendObject(texture);
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(object->AddRef(), 2u) << "the table holds exactly one reference";
  size_t live = h.executor().liveObjects();
  destroy(h, texture);
  EXPECT_EQ(h.executor().liveObjects(), live - 1);
  EXPECT_EQ(h.executor().backendObject(texture), nullptr);
  EXPECT_EQ(object->Release(), 0u) << "our probe reference was the last one";
}

TEST_F(DeviceTest, AViewKeepsItsResourceAliveAfterTheGuestReleasedTheResource) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  protocol::ObjectId rtv = renderTarget(texture);
  destroy(h, texture);
  // The backend view still references its texture, so clearing through it is valid.
  clear(rtv, 0, 1, 0, 1);
  EXPECT_FALSE(h.executor().isFatal());
  // Using the released id is a protocol error: the decoder refuses it.
  const FLOAT color[4] = {};
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(h.w(), context, texture, color));
  EXPECT_EQ(h.run().code, protocol::ErrorCode::UnknownObject);
}

TEST_F(DeviceTest, FatalContextReleasesEverything) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  protocol::ObjectId rtv = renderTarget(texture);
  D3D11_BUFFER_DESC desc = {64, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  protocol::ObjectId buffer = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &desc, 0, nullptr, buffer));
  h.runOk();
  std::vector<IUnknown*> probes;
  for (protocol::ObjectId id : {texture, rtv, buffer, context, device}) {
    IUnknown* object = h.executor().backendObject(id);
    ASSERT_NE(object, nullptr) << id;
    object->AddRef();
    probes.push_back(object);
  }
  // A protocol violation (initial data outside the context's memory): the context stops.
  NPT_SUBRESOURCE_DATA outside = {NPT_BULK_REF{0, uint32_t(h.bulk().size() - 8), 64}, 64, 0};
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &desc, 1, &outside, h.newId()));
  h.runOk();
  ASSERT_TRUE(h.executor().isFatal());
  EXPECT_EQ(h.executor().liveObjects(), 0u);
  // Children first; the immediate context shares the device's count in D3D11.
  EXPECT_EQ(probes[0]->Release(), 0u) << "texture";
  EXPECT_EQ(probes[1]->Release(), 0u) << "render target view";
  EXPECT_EQ(probes[2]->Release(), 0u) << "buffer";
  probes[3]->Release();
  EXPECT_EQ(probes[4]->Release(), 0u) << "device";
  // Later commands do nothing.
  clear(rtv, 1, 1, 1, 1);
  EXPECT_EQ(h.executor().liveObjects(), 0u);
}

TEST_F(DeviceTest, DestroyingTheDeviceIdKeepsItsChildrenUsable) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  protocol::ObjectId rtv = renderTarget(texture);
  IUnknown* backendDevice = h.executor().backendObject(device);
  ASSERT_NE(backendDevice, nullptr);
  destroy(h, device);
  // As in D3D11, children keep their device: the context and the view still work.
  clear(rtv, 0, 0, 0, 1);
  EXPECT_FALSE(h.executor().isFatal());
  backendDevice->AddRef();
  EXPECT_GE(backendDevice->Release(), 1u) << "the device lives while its children do";
}

}  // namespace
}  // namespace npt::executor::testing
