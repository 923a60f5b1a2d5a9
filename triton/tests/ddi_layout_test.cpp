// SPDX-License-Identifier: MIT
// Layout of the DDI declarations. The sizes and offsets are static_asserts
// (ddi_layout_checks.h): compiling this file is the check. The tests below
// exercise the declarations at run time the way a runtime and a driver use
// them: a table filled through one union member and read through another,
// signature entries walked with both strides.

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "ddi_layout_checks.h"

namespace {

using namespace triton::ddi;

void TRITON_APIENTRY recordDraw(D3D10DDI_HDEVICE device, UINT vertexCount, UINT startVertex) {
  auto* log = static_cast<std::vector<UINT>*>(device.pDrvPrivate);
  log->push_back(vertexCount);
  log->push_back(startVertex);
}

TEST(DdiLayout, DeviceTableReachedThroughCreateDeviceUnion) {
  D3D11_1DDI_DEVICEFUNCS table;
  std::memset(&table, 0, sizeof(table));
  D3D10DDIARG_CREATEDEVICE args{};
  args.p11_1DeviceFuncs = &table;

  // A driver that only knows the 11.0 table fills through p11DeviceFuncs; the
  // shared prefix puts pfnDraw in the same slot for the 11.1 reader.
  args.p11DeviceFuncs->pfnDraw = recordDraw;
  ASSERT_EQ(table.pfnDraw, &recordDraw);

  std::vector<UINT> log;
  D3D10DDI_HDEVICE device{&log};
  table.pfnDraw(device, 3, 7);
  EXPECT_EQ(log, (std::vector<UINT>{3, 7}));
}

TEST(DdiLayout, SignatureEntriesWalkWithBothStrides) {
  D3D11_1DDIARG_SIGNATURE_ENTRY2 entries11_1[3] = {};
  D3D10DDIARG_SIGNATURE_ENTRY entries10[3] = {};
  for (UINT i = 0; i < 3; ++i) {
    entries11_1[i] = {D3D10_SB_NAME_UNDEFINED, i, BYTE(0x1u << i), BYTE(i), D3D10_SB_REGISTER_COMPONENT_FLOAT32, D3D11_SB_OPERAND_MIN_PRECISION_DEFAULT};
    entries10[i] = {D3D10_SB_NAME_UNDEFINED, i + 10, BYTE(0xF)};
  }
  entries11_1[0].SystemValue = D3D10_SB_NAME_POSITION;

  D3D11_1DDIARG_STAGE_IO_SIGNATURES sigs{};
  sigs.pInputSignature = entries11_1;
  sigs.NumInputSignatureEntries = 3;
  // The deprecated (ENTRY) member aliases the same storage with the same stride:
  // a reader of the older type sees the same registers, masks and types.
  EXPECT_EQ(static_cast<void*>(sigs.pInputSignatureDeprecated), static_cast<void*>(entries11_1));
  EXPECT_EQ(sigs.pInputSignatureDeprecated[2].Register, 2u);
  EXPECT_EQ(sigs.pInputSignatureDeprecated[2].RegisterComponentType, D3D10_SB_REGISTER_COMPONENT_FLOAT32);
  const auto* bytes = reinterpret_cast<const unsigned char*>(sigs.pInputSignature);
  for (UINT i = 0; i < sigs.NumInputSignatureEntries; ++i) {
    UINT reg;
    std::memcpy(&reg, bytes + i * 20 + 4, sizeof(reg));
    EXPECT_EQ(reg, i);
    EXPECT_EQ(bytes[i * 20 + 8], 0x1u << i);
    EXPECT_EQ(bytes[i * 20 + 9], i);  // Stream
  }
  const auto* bytes10 = reinterpret_cast<const unsigned char*>(entries10);
  for (UINT i = 0; i < 3; ++i) {
    UINT reg;
    std::memcpy(&reg, bytes10 + i * 12 + 4, sizeof(reg));
    EXPECT_EQ(reg, i + 10);
  }
}

TEST(DdiLayout, ViewUnionsShareStorage) {
  D3D11DDIARG_CREATESHADERRESOURCEVIEW srv{};
  srv.ResourceDimension = D3D11DDIRESOURCE_BUFFEREX;
  srv.BufferEx.FirstElement = 5;
  srv.BufferEx.NumElements = 9;
  srv.BufferEx.Flags = 1;
  // Buffer views name the same words FirstElement/ElementOffset.
  EXPECT_EQ(srv.Buffer.ElementOffset, 5u);
  EXPECT_EQ(srv.Buffer.ElementWidth, 9u);
  EXPECT_EQ(srv.Tex2D.MostDetailedMip, 5u);
}

TEST(DdiLayout, PointerDataPacksIntoOneWord) {
  D3D11DDIARG_POINTERDATA data{};
  data.uCBOffset = 0xABC;
  data.uCBID = 5;
  data.uBaseSamp = 3;
  data.uBaseTex = 0x41;
  UINT word = 0;
  std::memcpy(&word, &data, sizeof(word));
  EXPECT_EQ(word, 0xABCu | (5u << 12) | (3u << 16) | (0x41u << 20));
}

TEST(DdiLayout, PresentFlagBitsPackIntoValue) {
  DXGI_DDI_PRESENT_FLAGS flags{};
  flags.Flip = 1;
  EXPECT_EQ(flags.Value, 0x2u);
  flags.Value = 0;
  flags.Blt = 1;
  flags.AllowTearing = 1;
  EXPECT_EQ(flags.Value, 0x11u);
  DXGI_DDI_ARG_BLT_FLAGS blt{};
  blt.Present = 1;
  EXPECT_EQ(blt.Value, 0x8u);
}

}  // namespace
