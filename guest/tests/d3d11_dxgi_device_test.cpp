// SPDX-License-Identifier: MIT
// IDXGIDevice::CreateSurface on the D3D11 device, against Wine's d3d11/dxgi (the
// reference) and Neptune's: surfaces are single-mip 2D textures bound as the DXGI usage
// says, device children like any texture.
#include <gtest/gtest.h>

#include "d3d11_test_env.h"

using npt::test::D3D11Under;
using npt::test::refcount;

TEST(DxgiDeviceFace, CreateSurfaceMakesTexturesOfTheUsage) {
  D3D11Under& under = D3D11Under::get();
  ASSERT_TRUE(under.ready()) << under.error();
  ID3D11Device* device = nullptr;
  ASSERT_EQ(under.createDevice(&device), S_OK);
  IDXGIDevice* dxgi = nullptr;
  ASSERT_EQ(device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgi)), S_OK);

  DXGI_SURFACE_DESC desc = { 64, 32, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 } };
  ULONG deviceRefs = refcount(device);
  IDXGISurface* surfaces[2] = {};
  ASSERT_EQ(dxgi->CreateSurface(&desc, 2, DXGI_USAGE_RENDER_TARGET_OUTPUT | DXGI_USAGE_SHADER_INPUT, nullptr, surfaces), S_OK);
  ASSERT_NE(surfaces[0], nullptr);
  ASSERT_NE(surfaces[1], nullptr);
  EXPECT_NE(surfaces[0], surfaces[1]);
  EXPECT_EQ(refcount(device), deviceRefs + 2) << "each surface holds the device";
  for (IDXGISurface* surface : surfaces) {
    EXPECT_EQ(refcount(surface), 1u);
    DXGI_SURFACE_DESC got = {};
    EXPECT_EQ(surface->GetDesc(&got), S_OK);
    EXPECT_EQ(got.Width, 64u);
    EXPECT_EQ(got.Height, 32u);
    EXPECT_EQ(got.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
    EXPECT_EQ(got.SampleDesc.Count, 1u);
    ID3D11Texture2D* texture = nullptr;
    ASSERT_EQ(surface->QueryInterface(__uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture)), S_OK);
    D3D11_TEXTURE2D_DESC tdesc = {};
    texture->GetDesc(&tdesc);
    EXPECT_EQ(tdesc.MipLevels, 1u);
    EXPECT_EQ(tdesc.ArraySize, 1u);
    EXPECT_EQ(tdesc.Usage, D3D11_USAGE_DEFAULT);
    EXPECT_EQ(tdesc.BindFlags, UINT(D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE));
    EXPECT_EQ(tdesc.CPUAccessFlags, 0u);
    // Usable as what it is bound for.
    ID3D11RenderTargetView* rtv = nullptr;
    EXPECT_EQ(device->CreateRenderTargetView(texture, nullptr, &rtv), S_OK);
    if (rtv)
      rtv->Release();
    texture->Release();
  }
  EXPECT_EQ(surfaces[0]->Release(), 0u);
  EXPECT_EQ(surfaces[1]->Release(), 0u);
  EXPECT_EQ(refcount(device), deviceRefs);

  dxgi->Release();
  EXPECT_EQ(device->Release(), 0u);
}
