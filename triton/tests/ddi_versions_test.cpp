// SPDX-License-Identifier: MIT
// The interface/build numbers and the DXGI-table tests of versions.h, pinned to the
// values of the WDK's d3d10umddi.h "Versioning" section (triton/README.md, "Sources
// consulted"). The driver and its harness share these constants, so the driver tests
// check negotiation; this test checks the numbers themselves.

#include <gtest/gtest.h>

#include "triton/ddi/ddi.h"

namespace triton::ddi {
namespace {

TEST(DdiVersions, InterfaceWordsAreTheWdkOnes) {
  EXPECT_EQ(D3D10_0_DDI_INTERFACE_VERSION, 0x000A0001u);
  EXPECT_EQ(D3D10_1_DDI_INTERFACE_VERSION, 0x000A0002u);
  EXPECT_EQ(D3D10on9_DDI_INTERFACE_VERSION, 0x000A0000u);
  EXPECT_EQ(D3D10_0_7_DDI_INTERFACE_VERSION, 0x000A0009u);
  EXPECT_EQ(D3D10_1_7_DDI_INTERFACE_VERSION, 0x000A000Au);
  EXPECT_EQ(D3D11_0_vista_DDI_INTERFACE_VERSION, 0x000B0009u);
  EXPECT_EQ(D3D11_0_DDI_INTERFACE_VERSION, 0x000B000Au);
  EXPECT_EQ(D3D11_0_7_DDI_INTERFACE_VERSION, 0x000B000Bu);
  EXPECT_EQ(D3D11_1_DDI_INTERFACE_VERSION_RC, 0x000B000Eu);
  EXPECT_EQ(D3D11_1_DDI_INTERFACE_VERSION, 0x000B000Fu);
  EXPECT_EQ(D3DWDDM1_3_DDI_INTERFACE_VERSION, 0x000B0010u);
  // WDDM 2.0: minor 17 in the header's minor 5 (a preview table), 32 from its minor 6.
  EXPECT_EQ(D3DWDDM2_0_DDI_INTERFACE_VERSION_PREVIEW, 0x000B0011u);
  EXPECT_EQ(D3DWDDM2_0_DDI_INTERFACE_VERSION, 0x000B0020u);
  EXPECT_EQ(D3DWDDM2_1_DDI_INTERFACE_VERSION, 0x000B0022u);
}

TEST(DdiVersions, SupportedWordsCarryInterfaceAndBuild) {
  EXPECT_EQ(D3D11_0_vista_DDI_SUPPORTED, 0x000B000900000000ull);
  EXPECT_EQ(D3D11_0_DDI_SUPPORTED, 0x000B000A00020000ull);
  EXPECT_EQ(D3D11_0_7_DDI_SUPPORTED, 0x000B000B00020000ull);
  EXPECT_EQ(D3D11_1_DDI_SUPPORTED, 0x000B000F00000000ull);
  EXPECT_EQ(D3DWDDM1_3_DDI_SUPPORTED, 0x000B001000010000ull);
  EXPECT_EQ(D3DWDDM2_0_DDI_SUPPORTED, 0x000B002000090000ull);   // build 9: the 168-member table
  EXPECT_EQ(D3DWDDM2_1_DDI_SUPPORTED, 0x000B002200020000ull);
  EXPECT_EQ(makeDdiSupported(D3D10_0_DDI_INTERFACE_VERSION, D3D10_0_DDI_BUILD_VERSION), 0x000A000100040000ull);
  EXPECT_EQ(makeDdiSupported(D3D10_1_DDI_INTERFACE_VERSION, D3D10_1_DDI_BUILD_VERSION), 0x000A000200010000ull);
}

TEST(DdiVersions, EveryD3D11_0InterfaceSelectsThe11_0Table) {
  EXPECT_EQ(deviceTableFor(D3D11_0_vista_DDI_INTERFACE_VERSION), DeviceTableKind::D3D11_0);
  EXPECT_EQ(deviceTableFor(D3D11_0_DDI_INTERFACE_VERSION), DeviceTableKind::D3D11_0);
  EXPECT_EQ(deviceTableFor(D3D11_0_7_DDI_INTERFACE_VERSION), DeviceTableKind::D3D11_0);
  EXPECT_EQ(deviceTableFor(D3D11_1_DDI_INTERFACE_VERSION), DeviceTableKind::D3D11_1);
  EXPECT_EQ(deviceTableFor(D3D11_1_DDI_INTERFACE_VERSION_RC), DeviceTableKind::None);
  EXPECT_EQ(deviceTableFor(D3DWDDM1_3_DDI_INTERFACE_VERSION), DeviceTableKind::WDDM1_3);
  EXPECT_EQ(deviceTableFor(D3DWDDM2_0_DDI_INTERFACE_VERSION), DeviceTableKind::WDDM2_0);
  EXPECT_EQ(deviceTableFor(D3DWDDM2_1_DDI_INTERFACE_VERSION), DeviceTableKind::WDDM2_1);
  // The preview 2.0 interface's 175-member table is not implemented.
  EXPECT_EQ(deviceTableFor(D3DWDDM2_0_DDI_INTERFACE_VERSION_PREVIEW), DeviceTableKind::None);
}

// IS_DXGI1_1_BASE_FUNCTIONS reads the low word of Version: Vista's product version or'ed
// with the resolve level for D3D10, the level alone for D3D11.
TEST(DdiVersions, Dxgi1_1FollowsTheRuntimesLevel) {
  EXPECT_FALSE(isDxgi1_1BaseFunctions(D3D10_1_DDI_INTERFACE_VERSION, VISTA_GOLD_PRODUCT_VER | DXGI_QFE_1));
  EXPECT_TRUE(isDxgi1_1BaseFunctions(D3D10_1_DDI_INTERFACE_VERSION, VISTA_GOLD_PRODUCT_VER | DXGI_RESOLVE_SHARED_RESOURCE));
  EXPECT_FALSE(isDxgi1_1BaseFunctions(D3D10_1_DDI_INTERFACE_VERSION, DXGI_RESOLVE_SHARED_RESOURCE));
  EXPECT_FALSE(isDxgi1_1BaseFunctions(D3D11_0_DDI_INTERFACE_VERSION, D3D11_0_DDI_BUILD_VERSION << 16));
  EXPECT_TRUE(isDxgi1_1BaseFunctions(D3D11_0_DDI_INTERFACE_VERSION,
                                     (D3D11_0_DDI_BUILD_VERSION << 16) | DXGI_RESOLVE_SHARED_RESOURCE));
  EXPECT_EQ(dxgiTableFor(D3D11_0_7_DDI_INTERFACE_VERSION, 2u << 16), DxgiTableKind::Dxgi1_0);
  EXPECT_EQ(dxgiTableFor(D3D11_0_7_DDI_INTERFACE_VERSION, (2u << 16) | DXGI_RESOLVE_SHARED_RESOURCE),
            DxgiTableKind::Dxgi1_1);
}

// IS_DXGI1_2_BASE_FUNCTIONS and IS_DXGI_MULTIPLANE_OVERLAY_FUNCTIONS read the interface:
// 1.2 from the RC's minor on, overlays above it (so the released 11.1 has both).
TEST(DdiVersions, Dxgi1_2AndOverlaysFollowTheInterface) {
  EXPECT_EQ(dxgiTableFor(D3D11_1_DDI_INTERFACE_VERSION, 0), DxgiTableKind::Dxgi1_2);
  EXPECT_EQ(dxgiTableFor(D3D11_1_DDI_INTERFACE_VERSION_RC, 0), DxgiTableKind::Dxgi1_2);
  EXPECT_TRUE(isDxgiMultiplaneOverlayFunctions(D3D11_1_DDI_INTERFACE_VERSION, 0));
  EXPECT_FALSE(isDxgiMultiplaneOverlayFunctions(D3D11_1_DDI_INTERFACE_VERSION_RC, D3D11_1_DDI_BUILD_VERSION_RC << 16));
  EXPECT_FALSE(isDxgiMultiplaneOverlayFunctions(D3D11_0_7_DDI_INTERFACE_VERSION, 0xffffffffu));
  EXPECT_EQ(dxgiTableFor(D3DWDDM1_3_DDI_INTERFACE_VERSION, 0), DxgiTableKind::Dxgi1_3);
  // IS_DXGI1_4/1_5_BASE_FUNCTIONS: from the 2.0 and 2.1 interfaces on.
  EXPECT_EQ(dxgiTableFor(D3DWDDM2_0_DDI_INTERFACE_VERSION, D3DWDDM2_0_DDI_BUILD_VERSION << 16), DxgiTableKind::Dxgi1_4);
  EXPECT_EQ(dxgiTableFor(D3DWDDM2_1_DDI_INTERFACE_VERSION, D3DWDDM2_1_DDI_BUILD_VERSION << 16), DxgiTableKind::Dxgi1_5);
  EXPECT_EQ(dxgiTableFor(D3DWDDM2_0_DDI_INTERFACE_VERSION_PREVIEW, 0), DxgiTableKind::Dxgi1_3);
}

}  // namespace
}  // namespace triton::ddi
