// SPDX-License-Identifier: MIT
// The cases entry_status.cpp names for Discard, ClearView, CreateSampler and CreateQuery:
// what Triton does with each (driver_entries_test lists the statuses).

#include <gtest/gtest.h>

#include <cstring>

#include "driver_test_support.h"

namespace triton::test {
namespace {

class DriverEntryCases : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_EQ(device.create(adapter, kD3D11_1.interfaceVersion, kD3D11_1.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
              S_OK);
    h = device.handle();
  }
  harness::Device device;
  ddi::D3D10DDI_HDEVICE h{};
};

// Discard of a resource with rectangles: the API discards whole resources only, so the
// contents stay (one of the undefined contents a discard allows); no error.
TEST_F(DriverEntryCases, DiscardOfResourceRectanglesKeepsTheContents) {
  const uint32_t texels[4] = {0xff0000ffu, 0xff00ff00u, 0xffff0000u, 0xffffffffu};
  const D3D11_SUBRESOURCE_DATA init{texels, 8, 0};
  harness::Resource texture = device.createTexture2D(
      D3D11_TEXTURE2D_DESC{2, 2, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                           D3D11_BIND_RENDER_TARGET, 0, 0},
      &init);
  harness::Resource staging = device.createTexture2D(D3D11_TEXTURE2D_DESC{
      2, 2, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0});
  ASSERT_TRUE(texture && staging);
  const ddi::D3D10_DDI_RECT rect{0, 0, 1, 1};
  device.funcs11_1.pfnDiscard(h, ddi::D3D10DDI_HT_RESOURCE, texture.handle.pDrvPrivate, &rect, 1);
  EXPECT_EQ(device.takeError(), S_OK);
  device.funcs11_1.pfnResourceCopy(h, staging.handle, texture.handle);
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  device.funcs11_1.pfnStagingResourceMap(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  ASSERT_EQ(device.takeError(), S_OK);
  ASSERT_NE(mapped.pData, nullptr);
  for (UINT y = 0; y < 2; ++y)
    EXPECT_EQ(std::memcmp(static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch, texels + y * 2, 8), 0);
  device.funcs11_1.pfnStagingResourceUnmap(h, staging.handle, 0);
  // Whole-resource discard is the API's DiscardResource.
  device.funcs11_1.pfnDiscard(h, ddi::D3D10DDI_HT_RESOURCE, texture.handle.pDrvPrivate, nullptr, 0);
  EXPECT_EQ(device.takeError(), S_OK);
  device.destroyResource(staging);
  device.destroyResource(texture);
}

// Video views: Triton offers no video device, so no such handle can exist; the handle
// types are invalid arguments (the view memory below is no object of Triton's).
TEST_F(DriverEntryCases, VideoViewHandleTypesAreInvalidArguments) {
  uint64_t notAView[8] = {};
  const FLOAT colour[4] = {0, 0, 0, 0};
  device.funcs11_1.pfnClearView(h, ddi::D3D11_1DDI_HT_VIDEOPROCESSOROUTPUTVIEW, notAView, colour, nullptr, 0);
  EXPECT_EQ(device.takeError(), E_INVALIDARG);
  for (ddi::D3D11DDI_HANDLETYPE type : {ddi::D3D11_1DDI_HT_VIDEODECODEROUTPUTVIEW, ddi::D3D11_1DDI_HT_VIDEOPROCESSORINPUTVIEW,
                                        ddi::D3D11_1DDI_HT_VIDEOPROCESSOROUTPUTVIEW}) {
    device.funcs11_1.pfnDiscard(h, type, notAView, nullptr, 0);
    EXPECT_EQ(device.takeError(), E_INVALIDARG) << type;
  }
}

// The two cases that stay partial report E_NOTIMPL; the named counters are also refused by
// CheckCounter, which is what a runtime asks first.
TEST_F(DriverEntryCases, TextFilterAndNamedCountersAreNotTranslated) {
  D3D11_SAMPLER_DESC text{};
  text.Filter = D3D11_FILTER(ddi::D3D10_DDI_FILTER_TEXT_1BIT);
  text.AddressU = text.AddressV = text.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
  text.MaxLOD = D3D11_FLOAT32_MAX;
  device.createSampler(text);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  harness::Query counter = device.createQuery(ddi::D3D10DDI_COUNTER_GPU_IDLE);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  ddi::D3D10DDI_COUNTER_TYPE type{};
  UINT active = 0;
  device.funcs11_1.pfnCheckCounter(h, ddi::D3D10DDI_COUNTER_GPU_IDLE, &type, &active, nullptr, nullptr, nullptr,
                                   nullptr, nullptr, nullptr);
  EXPECT_EQ(device.takeError(), DXGI_DDI_ERR_UNSUPPORTED);
}

}  // namespace
}  // namespace triton::test
