// SPDX-License-Identifier: MIT
// Shared resources through the DDI (CreateResource with D3D10_DDI_RESOURCE_MISC_SHARED,
// OpenResource) with the Neptune guest runtime as Triton's target: this program starts a
// neptune-server.exe, and every harness device is its own Neptune context of that
// server. The harness plays the kernel (pfnAllocateCb keeps the private data, which
// OpenResource on the other device receives), as Windows does between processes.
//
//   TRITON_DRIVER          the driver DLL (default: this build's)
//   NPT_TEST_D3D11         the Neptune guest d3d11.dll (Triton's target; a copy named
//                          neptune_d3d11.dll, so it never meets Wine's d3d11.dll)
//   NPT_SERVER_BIN         the server to start

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "neptune_server_env.h"
#include "triton/harness/runtime.h"

namespace triton::test {
namespace {

namespace ddi = triton::ddi;
namespace harness = triton::harness;

std::string driverPath() {
  const char* env = std::getenv("TRITON_DRIVER");
  return env ? env : TRITON_DRIVER_PATH;
}

constexpr UINT kSize = 32;

uint32_t texel(UINT x, UINT y) { return 0xff000000u | (y << 12) | (x << 2) | 1u; }

class DriverSharing : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK) << driverPath();
    ASSERT_EQ(adapter.open(*driver), S_OK);
    const UINT version = harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
    ASSERT_EQ(producer.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version, ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
    ASSERT_EQ(consumer.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version, ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
  }

  // Reads a kSize x kSize RGBA8 texture of `device` back through a staging copy.
  std::vector<uint32_t> readBack(harness::Device& device, const harness::Resource& texture) {
    const D3D11_TEXTURE2D_DESC desc{kSize, kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_STAGING,
                                    0, D3D11_CPU_ACCESS_READ, 0};
    harness::Resource staging = device.createTexture2D(desc);
    std::vector<uint32_t> texels;
    if (!staging)
      return texels;
    device.copyRegion(staging, 0, 0, 0, texture, 0);
    ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
    TRITON_DDI(device, pfnStagingResourceMap)(device.handle(), staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
    if (device.takeError() == S_OK && mapped.pData) {
      for (UINT y = 0; y < kSize; ++y) {
        const auto* row = reinterpret_cast<const uint32_t*>(static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch);
        texels.insert(texels.end(), row, row + kSize);
      }
      TRITON_DDI(device, pfnStagingResourceUnmap)(device.handle(), staging.handle, 0);
    }
    device.destroyResource(staging);
    return texels;
  }

  std::unique_ptr<harness::Driver> driver;
  harness::Adapter adapter;
  harness::Device producer, consumer;
};

TEST_F(DriverSharing, ASharedTextureOpensOnAnotherDevice) {
  std::vector<uint32_t> texels(kSize * kSize);
  for (UINT y = 0; y < kSize; ++y)
    for (UINT x = 0; x < kSize; ++x)
      texels[y * kSize + x] = texel(x, y);
  const D3D11_TEXTURE2D_DESC desc{kSize, kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, 0,
                                  D3D11_RESOURCE_MISC_SHARED};
  const D3D11_SUBRESOURCE_DATA initial{texels.data(), kSize * 4, 0};
  const size_t kernelBefore = harness::kernelResourceCount();
  harness::Resource shared = producer.createTexture2D(desc, &initial);
  ASSERT_EQ(producer.takeError(), S_OK);
  harness::KernelResource kernel;
  ASSERT_TRUE(harness::kernelResourceOf(shared, &kernel)) << "a shared resource gets a kernel resource";
  EXPECT_NE(kernel.handle, 0u);
  EXPECT_EQ(kernel.resourceData.size(), 16u);   // the record: magic, version, target handle
  ASSERT_EQ(kernel.allocations.size(), 1u);
  EXPECT_EQ(kernel.allocationData[0], kernel.resourceData);
  // The runtime resolves a shared resource before another device reads it.
  ddi::DXGI_DDI_ARG_RESOLVESHAREDRESOURCE resolve{reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(producer.handle().pDrvPrivate),
                                                  reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(shared.handle.pDrvPrivate)};
  EXPECT_EQ(producer.dxgi1_2.pfnResolveSharedResource(&resolve), S_OK);

  harness::Resource opened = consumer.openResource(kernel);
  ASSERT_TRUE(opened);
  ASSERT_EQ(consumer.takeError(), S_OK);
  EXPECT_EQ(readBack(consumer, opened), texels);

  consumer.destroyResource(opened);
  EXPECT_EQ(harness::kernelResourceCount(), kernelBefore + 1) << "an opened resource does not free the kernel resource";
  producer.destroyResource(shared);
  EXPECT_EQ(harness::kernelResourceCount(), kernelBefore) << "destroying the shared resource frees it";
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0);
}

TEST_F(DriverSharing, SharedBuffersOpenToo) {
  const UINT words[8] = {1, 2, 3, 5, 8, 13, 21, 34};
  const D3D11_BUFFER_DESC desc{sizeof(words), D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                               D3D11_RESOURCE_MISC_SHARED, 0};
  const D3D11_SUBRESOURCE_DATA initial{words, 0, 0};
  harness::Resource shared = producer.createBuffer(desc, &initial);
  ASSERT_EQ(producer.takeError(), S_OK);
  harness::KernelResource kernel;
  ASSERT_TRUE(harness::kernelResourceOf(shared, &kernel));
  producer.funcs11_1.pfnFlush(producer.handle(), 0);
  harness::Resource opened = consumer.openResource(kernel);
  ASSERT_EQ(consumer.takeError(), S_OK);
  const D3D11_BUFFER_DESC stagingDesc{sizeof(words), D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  harness::Resource staging = consumer.createBuffer(stagingDesc);
  TRITON_DDI(consumer, pfnResourceCopy)(consumer.handle(), staging.handle, opened.handle);
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  TRITON_DDI(consumer, pfnStagingResourceMap)(consumer.handle(), staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  ASSERT_EQ(consumer.takeError(), S_OK);
  EXPECT_EQ(std::memcmp(mapped.pData, words, sizeof(words)), 0);
  TRITON_DDI(consumer, pfnStagingResourceUnmap)(consumer.handle(), staging.handle, 0);
  consumer.destroyResource(staging);
  consumer.destroyResource(opened);
  producer.destroyResource(shared);
}

// A record naming a resource the server never shared: the target refuses, the runtime
// hears it, and nothing is constructed.
TEST_F(DriverSharing, AnUnknownHandleIsRefused) {
  harness::KernelResource forged;
  forged.handle = 1;
  const UINT32 record[4] = {0x52535254, 1, 0x7ffffff3, 0};   // magic, version, handle 0x7ffffff3
  forged.resourceData.assign(reinterpret_cast<const uint8_t*>(record), reinterpret_cast<const uint8_t*>(record) + 16);
  forged.allocations = {2};
  forged.allocationData = {forged.resourceData};
  harness::Resource opened = consumer.openResource(forged);
  EXPECT_NE(consumer.takeError(), S_OK);
}

}  // namespace
}  // namespace triton::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new triton::test::NeptuneServer("triton-sharing-test"));
  return RUN_ALL_TESTS();
}
