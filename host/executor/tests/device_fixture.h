// SPDX-License-Identifier: MIT
#pragma once

// A harness with one device created through the wire; skips when this build has no
// usable backend (native builds without DXVK-native).

#include "executor_harness.h"
#include "npt/backends/backend.h"

namespace npt::executor::testing {

inline bool backendAvailable(std::string* why) {
  std::unique_ptr<backends::Backend> backend;
  backends::BackendStatus status = backends::openBackend(nullptr, backend);
  if (!status.ok()) {
    *why = status.message;
    return false;
  }
  backends::DeviceObjects objects;
  status = backend->createDevice(backends::DeviceRequest{}, objects);
  if (!status.ok()) {
    *why = status.message;
    return false;
  }
  objects.immediateContext->Release();
  objects.device->Release();
  return true;
}

class DeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!backendAvailable(&why)) GTEST_SKIP() << "no D3D11 backend: " << why;
    ASSERT_EQ(h.createDevice(&device, &context), S_OK);
  }

  protocol::ObjectId texture2D(UINT width, UINT height, D3D11_USAGE usage, UINT bind, UINT cpu,
                               DXGI_FORMAT format = DXGI_FORMAT_R8G8B8A8_UNORM, const NPT_SUBRESOURCE_DATA* data = nullptr) {
    D3D11_TEXTURE2D_DESC desc = {};
    desc.Width = width;
    desc.Height = height;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Usage = usage;
    desc.BindFlags = bind;
    desc.CPUAccessFlags = cpu;
    protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateTexture2D(h.w(), device, &desc, data ? 1 : 0, data, id));
    h.runOk();
    return id;
  }

  protocol::ObjectId renderTarget(protocol::ObjectId texture) {
    protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device_CreateRenderTargetView(h.w(), device, texture, nullptr, id));
    h.runOk();
    return id;
  }

  void clear(protocol::ObjectId rtv, float r, float g, float b, float a) {
    const FLOAT color[4] = {r, g, b, a};
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(h.w(), context, rtv, color));
    h.runOk();
  }

  // Copies `texture` into a new staging texture and maps it for reading.
  std::vector<uint8_t> readBack(protocol::ObjectId texture, UINT width, UINT height,
                                DXGI_FORMAT format = DXGI_FORMAT_R8G8B8A8_UNORM) {
    protocol::ObjectId staging = texture2D(width, height, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, format);
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_CopyResource(h.w(), context, staging, texture));
    h.runOk();
    std::vector<uint8_t> bytes;
    EXPECT_EQ(h.map(context, staging, 0, D3D11_MAP_READ, bytes), S_OK);
    EXPECT_TRUE(protocol::encode_ID3D11DeviceContext_Unmap(h.w(), context, staging, 0, D3D11_MAP_READ, 0, nullptr, protocol::Payload::none()));
    h.runOk();
    return bytes;
  }

  Harness h;
  protocol::ObjectId device = 0;
  protocol::ObjectId context = 0;
};

}  // namespace npt::executor::testing
