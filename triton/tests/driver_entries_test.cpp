// SPDX-License-Identifier: MIT
// Every member of the tables Triton fills, with its status (no entry is
// silently ignored). The member lists come from ddi_table_order.inc (the reference
// pages); the statuses from the driver's own list (driver/src/entry_status.cpp). The
// test prints one line per member, checks that every offered member has an entry and
// every member of a newer runtime's table stays null, that the list names only real
// members, and that the unsupported and nothing-to-do entries behave as listed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "driver_test_support.h"
#include "entry_status.h"

namespace triton::test {
namespace {

using driver::EntryStatus;

struct Member {
  const char* table;
  const char* member;
  size_t index;
};

constexpr Member kMembers[] = {
#define TRITON_DDI_TABLE_MEMBER(table, member, index) {#table, #member, index},
#define TRITON_DDI_TABLE_SIZE(table, count)
#include "ddi_table_order.inc"
#undef TRITON_DDI_TABLE_MEMBER
#undef TRITON_DDI_TABLE_SIZE
};

EntryStatus statusOf(const char* table, const char* member, const char** reason) {
  if (const driver::EntryNote* note = driver::entryNoteFor(table, member)) {
    *reason = note->reason;
    return note->status;
  }
  *reason = "";
  return EntryStatus::Translated;
}

struct Counts {
  unsigned translated = 0, partial = 0, nothingToDo = 0, unsupported = 0, notOffered = 0;
  bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Counts& c) {
  return out << c.translated << " translated, " << c.partial << " partial, " << c.nothingToDo << " nothing to do, "
             << c.unsupported << " unsupported, " << c.notOffered << " not offered";
}

// Prints and checks one table; returns the counts. Members from `firstNew` on (what the
// table adds to the one it extends) must be classified explicitly: a note, not the
// default "translated".
Counts listTable(const char* table, const std::vector<const void*>& entries, size_t firstNew = SIZE_MAX) {
  Counts counts;
  size_t members = 0;
  for (const Member& m : kMembers) {
    if (std::strcmp(m.table, table) != 0)
      continue;
    ++members;
    const char* reason = nullptr;
    const EntryStatus status = statusOf(table, m.member, &reason);
    if (m.index >= firstNew)
      EXPECT_NE(driver::entryNoteFor(table, m.member), nullptr) << table << "::" << m.member << " is unclassified";
    std::printf("%-28s %-48s %-14s %s\n", table, m.member, driver::entryStatusName(status), reason);
    EXPECT_LT(m.index, entries.size());
    if (m.index >= entries.size())
      continue;
    if (status == EntryStatus::NotOffered)
      EXPECT_EQ(entries[m.index], nullptr) << table << "::" << m.member << " belongs to a newer runtime's table";
    else
      EXPECT_NE(entries[m.index], nullptr) << table << "::" << m.member << " has no entry";
    switch (status) {
      case EntryStatus::Translated: ++counts.translated; break;
      case EntryStatus::Partial: ++counts.partial; break;
      case EntryStatus::NothingToDo: ++counts.nothingToDo; break;
      case EntryStatus::Unsupported: ++counts.unsupported; break;
      case EntryStatus::NotOffered: ++counts.notOffered; break;
    }
  }
  EXPECT_EQ(members, entries.size()) << table;
  return counts;
}

class DriverEntries : public DriverTest {};

TEST_F(DriverEntries, EveryDeviceTableMemberHasAStatus) {
  harness::Device d11;
  ASSERT_EQ(d11.create(adapter, kD3D11_0.interfaceVersion, kD3D11_0.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0), S_OK);
  const Counts c11 = listTable("D3D11DDI_DEVICEFUNCS", harness::tableEntries(d11.funcs11));
  EXPECT_EQ(c11, (Counts{143, 2, 5, 0, 0}));
  std::printf("D3D11DDI_DEVICEFUNCS: %u members\n", c11.translated + c11.partial + c11.nothingToDo + c11.unsupported);
  const Counts x11 = listTable("DXGI1_1_DDI_BASE_FUNCTIONS", harness::tableEntries(d11.dxgi1_1));
  EXPECT_EQ(x11, (Counts{6, 1, 0, 1, 0}));
  // A D3D11.0 runtime below the resolve level hands over the DXGI 1.0 table.
  harness::Device d11Base;
  ASSERT_EQ(d11Base.create(adapter, kD3D11_0.interfaceVersion, kD3D11_0.version & 0xffff0000u,
                           ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const Counts x10 = listTable("DXGI_DDI_BASE_FUNCTIONS", harness::tableEntries(d11Base.dxgi1_0));
  EXPECT_EQ(x10, (Counts{5, 1, 0, 1, 0}));

  harness::Device d11_1;
  ASSERT_EQ(d11_1.create(adapter, kD3D11_1.interfaceVersion, kD3D11_1.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const Counts c11_1 = listTable("D3D11_1DDI_DEVICEFUNCS", harness::tableEntries(d11_1.funcs11_1));
  EXPECT_EQ(c11_1, (Counts{147, 2, 6, 0, 0}));
  const Counts x11_1 = listTable("DXGI1_2_DDI_BASE_FUNCTIONS", harness::tableEntries(d11_1.dxgi1_2));
  EXPECT_EQ(x11_1, (Counts{8, 2, 0, 5, 0}));

  // WDDM 1.3: the 11.1 statuses, the seven tiled-resource members unsupported (no tier in
  // GetCaps), SetMarker nothing to do, SetMarkerMode partial (PROFILE refused); DXGI 1.3
  // adds Present1 (translated), CheckPresentDurationSupport (nothing to do), one more
  // overlay member (unsupported) and two reserved members (null).
  harness::Device wddm1_3;
  ASSERT_EQ(wddm1_3.create(adapter, kWddm1_3.interfaceVersion, kWddm1_3.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const Counts c1_3 = listTable("D3DWDDM1_3DDI_DEVICEFUNCS", harness::tableEntries(wddm1_3.funcsWddm1_3), 155);
  EXPECT_EQ(c1_3, (Counts{147, 3, 7, 7, 0}));
  const Counts x1_3 = listTable("DXGI1_3_DDI_BASE_FUNCTIONS", harness::tableEntries(wddm1_3.dxgi1_3));
  EXPECT_EQ(x1_3, (Counts{9, 2, 1, 4, 2}));

  // WDDM 2.0: the 1.3 statuses; of the twelve retyped members, the three view creations
  // (a plane slice but 0), the rasterizer (conservative rasterization) and CreateResource
  // (texture layouts, hardware protection) become partial; the four appended members:
  // SetHardwareProtection and GetResourceLayout unsupported, RetrieveShaderComment nothing
  // to do, SetHardwareProtectionState partial. WDDM 2.1 adds AcquireResource (nothing to
  // do) and ReleaseResource (translated: a flush).
  harness::Device wddm2_0;
  ASSERT_EQ(wddm2_0.create(adapter, kWddm2_0.interfaceVersion, kWddm2_0.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const Counts c2_0 = listTable("D3DWDDM2_0DDI_DEVICEFUNCS", harness::tableEntries(wddm2_0.funcsWddm2_0), 164);
  EXPECT_EQ(c2_0, (Counts{142, 9, 8, 9, 0}));
  // The twelve retyped members have entries of their own (the 1.3 entries take other
  // arguments); every other member of the 1.3 prefix is the 1.3 entry.
  const std::vector<const void*> e1_3 = harness::tableEntries(wddm1_3.funcsWddm1_3);
  const std::vector<const void*> e2_0 = harness::tableEntries(wddm2_0.funcsWddm2_0);
  const std::set<std::string> retyped = {"pfnFlush",
                                         "pfnRelocateDeviceFuncs",
                                         "pfnCreateResource",   // same type; checks TextureLayout
                                         "pfnCalcPrivateShaderResourceViewSize",
                                         "pfnCreateShaderResourceView",
                                         "pfnCalcPrivateRenderTargetViewSize",
                                         "pfnCreateRenderTargetView",
                                         "pfnCalcPrivateRasterizerStateSize",
                                         "pfnCreateRasterizerState",
                                         "pfnCalcPrivateQuerySize",
                                         "pfnCreateQuery",
                                         "pfnCalcPrivateUnorderedAccessViewSize",
                                         "pfnCreateUnorderedAccessView"};
  for (const Member& m : kMembers)
    if (std::strcmp(m.table, "D3DWDDM1_3DDI_DEVICEFUNCS") == 0) {
      if (retyped.count(m.member))
        EXPECT_NE(e2_0[m.index], e1_3[m.index]) << m.member << " needs a 2.0 entry";
      else
        EXPECT_EQ(e2_0[m.index], e1_3[m.index]) << m.member << " is the 1.3 entry";
    }
  harness::Device wddm2_1;
  ASSERT_EQ(wddm2_1.create(adapter, kWddm2_1.interfaceVersion, kWddm2_1.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const Counts c2_1 = listTable("D3DWDDM2_1DDI_DEVICEFUNCS", harness::tableEntries(wddm2_1.funcsWddm2_1), 168);
  EXPECT_EQ(c2_1, (Counts{143, 9, 9, 9, 0}));
  const std::vector<const void*> e2_1 = harness::tableEntries(wddm2_1.funcsWddm2_1);
  for (size_t i = 0; i < e2_0.size(); ++i)
    if (i != offsetof(ddi::D3DWDDM2_0DDI_DEVICEFUNCS, pfnRelocateDeviceFuncs) / sizeof(void*))
      EXPECT_EQ(e2_1[i], e2_0[i]) << "2.1 keeps the 2.0 entry at " << i;
  // DXGI 1.4 (WDDM 2.0): the 1.3 statuses, TrimResidencySet nothing to do (nothing is
  // resident), the two overlay additions unsupported. DXGI 1.5 (WDDM 2.1): OfferResources1
  // in OfferResources' place and ReclaimResources1 appended, both translated (contents kept).
  const Counts x1_4 = listTable("DXGI1_4_DDI_BASE_FUNCTIONS", harness::tableEntries(wddm2_0.dxgi1_4), 18);
  EXPECT_EQ(x1_4, (Counts{9, 2, 2, 6, 2}));
  const Counts x1_5 = listTable("DXGI1_5_DDI_BASE_FUNCTIONS", harness::tableEntries(wddm2_1.dxgi1_5), 18);
  EXPECT_EQ(x1_5, (Counts{10, 2, 2, 6, 2}));
  std::printf("DXGI1_4: %s\nDXGI1_5: %s\n", ::testing::PrintToString(x1_4).c_str(),
              ::testing::PrintToString(x1_5).c_str());
  std::printf("D3D11.0: %s\nD3D11.1: %s\nWDDM1.3: %s\nWDDM2.0: %s\nWDDM2.1: %s\nDXGI1_0: %s\nDXGI1_1: %s\n"
              "DXGI1_2: %s\nDXGI1_3: %s\n",
              ::testing::PrintToString(c11).c_str(), ::testing::PrintToString(c11_1).c_str(),
              ::testing::PrintToString(c1_3).c_str(), ::testing::PrintToString(c2_0).c_str(),
              ::testing::PrintToString(c2_1).c_str(), ::testing::PrintToString(x10).c_str(),
              ::testing::PrintToString(x11).c_str(), ::testing::PrintToString(x11_1).c_str(),
              ::testing::PrintToString(x1_3).c_str());
}

TEST_F(DriverEntries, TheListNamesOnlyRealMembers) {
  const char* tables[] = {"D3D11DDI_DEVICEFUNCS",       "D3D11_1DDI_DEVICEFUNCS",     "D3DWDDM1_3DDI_DEVICEFUNCS",
                          "D3DWDDM2_0DDI_DEVICEFUNCS",  "D3DWDDM2_1DDI_DEVICEFUNCS",  "DXGI_DDI_BASE_FUNCTIONS",
                          "DXGI1_1_DDI_BASE_FUNCTIONS", "DXGI1_2_DDI_BASE_FUNCTIONS", "DXGI1_3_DDI_BASE_FUNCTIONS",
                          "DXGI1_4_DDI_BASE_FUNCTIONS", "DXGI1_5_DDI_BASE_FUNCTIONS"};
  for (const driver::EntryNote& note : driver::entryNotes()) {
    bool found = false;
    for (const Member& m : kMembers)
      for (const char* table : tables)
        found |= std::strcmp(m.table, table) == 0 && std::strcmp(m.member, note.member) == 0 &&
                 (!note.tables || std::strncmp(table, note.tables, std::strlen(note.tables)) == 0);
    EXPECT_TRUE(found) << note.member << " is in no table Triton fills" << (note.tables ? " (of those it names)" : "");
    EXPECT_GT(std::strlen(note.reason), 0u) << note.member << " needs its reason";
  }
}

// A deferred context gets the device's entries, member for member.
TEST_F(DriverEntries, DeferredContextTablesEqualTheDeviceTables) {
  for (const InterfaceVersion* v : {&kD3D11_0, &kD3D11_1, &kWddm1_3, &kWddm2_0, &kWddm2_1}) {
    harness::Device device;
    ASSERT_EQ(device.create(adapter, v->interfaceVersion, v->version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0), S_OK);
    harness::DeferredContext context;
    ASSERT_EQ(context.create(device), S_OK) << v->name;
    if (device.isWddm2_1())
      EXPECT_EQ(harness::tableEntries(context.funcsWddm2_1), harness::tableEntries(device.funcsWddm2_1));
    else if (device.isWddm2_0())
      EXPECT_EQ(harness::tableEntries(context.funcsWddm2_0), harness::tableEntries(device.funcsWddm2_0));
    else if (device.isWddm1_3())
      EXPECT_EQ(harness::tableEntries(context.funcsWddm1_3), harness::tableEntries(device.funcsWddm1_3));
    else if (device.is11_1())
      EXPECT_EQ(harness::tableEntries(context.funcs11_1), harness::tableEntries(device.funcs11_1));
    else
      EXPECT_EQ(harness::tableEntries(context.funcs11), harness::tableEntries(device.funcs11));
  }
}

// What the list calls unsupported says so; what it calls nothing-to-do reports nothing.
TEST_F(DriverEntries, ListedBehaviourHolds) {
  harness::Device device;
  ASSERT_EQ(device.create(adapter, kD3D11_1.interfaceVersion, kD3D11_1.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();

  // Exclusive fullscreen (a display mode for a primary) is refused as the Neptune
  // swapchain refuses it; leaving it (no resource) has nothing to undo.
  const D3D11_TEXTURE2D_DESC primaryDesc{16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                         D3D11_BIND_RENDER_TARGET, 0, 0};
  harness::Resource primary = device.createTexture2D(primaryDesc);
  ddi::DXGI_DDI_ARG_SETDISPLAYMODE mode{reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(h.pDrvPrivate),
                                        reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(primary.handle.pDrvPrivate), 0};
  EXPECT_EQ(device.dxgi1_2.pfnSetDisplayMode(&mode), DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
  mode.hResource = 0;
  EXPECT_EQ(device.dxgi1_2.pfnSetDisplayMode(&mode), S_OK);
  device.destroyResource(primary);
  // The overlay entries refuse before reading their (opaque) arguments.
  EXPECT_EQ(device.dxgi1_2.pfnGetMultiplaneOverlayCaps(nullptr), E_NOTIMPL);
  EXPECT_EQ(device.dxgi1_2.pfnGetMultiplaneOverlayFilterRange(nullptr), E_NOTIMPL);
  EXPECT_EQ(device.dxgi1_2.pfnCheckMultiplaneOverlaySupport(nullptr), E_NOTIMPL);
  EXPECT_EQ(device.dxgi1_2.pfnPresentMultiplaneOverlay(nullptr), E_NOTIMPL);

  ddi::D3D11_1DDI_DEVICEFUNCS copy = device.funcs11_1;
  device.funcs11_1.pfnRelocateDeviceFuncs(h, &copy);
  device.funcs11_1.pfnShaderResourceViewReadAfterWriteHazard(h, ddi::D3D10DDI_HSHADERRESOURCEVIEW{},
                                                             ddi::D3D10DDI_HRESOURCE{});
  device.funcs11_1.pfnResourceReadAfterWriteHazard(h, ddi::D3D10DDI_HRESOURCE{});
  device.funcs11_1.pfnSetTextFilterSize(h, 2, 2);
  device.funcs11_1.pfnRecycleCommandList(h, ddi::D3D11DDI_HCOMMANDLIST{});
  EXPECT_EQ(device.takeError(), S_OK);
}

// WDDM 1.3: the members the caps report absent answer E_NOTIMPL through pfnSetErrorCb
// (each call, whatever its arguments: the runtime has no handle to pass them), tiled
// resources are never created, markers have nothing to do until PROFILE, which is refused.
TEST_F(DriverEntries, Wddm1_3ListedBehaviourHolds) {
  harness::Device device;
  ASSERT_EQ(device.create(adapter, kWddm1_3.interfaceVersion, kWddm1_3.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  ddi::D3DWDDM1_3DDI_DEVICEFUNCS& f = device.funcsWddm1_3;
  const ddi::D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE coordinate{};
  const ddi::D3DWDDM1_3DDI_TILE_REGION_SIZE region{1, FALSE, 1, 1, 1};
  const UINT rangeFlags = 0, offsets = 0, counts = 1;
  f.pfnUpdateTileMappings(h, {}, 1, &coordinate, &region, {}, 1, &rangeFlags, &offsets, &counts, 0);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  f.pfnCopyTileMappings(h, {}, &coordinate, {}, &coordinate, &region, 0);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  f.pfnCopyTiles(h, {}, &coordinate, &region, {}, 0, ddi::D3DWDDM1_3DDI_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  static const UINT tileData[16384] = {};   // one 64 KiB tile
  f.pfnUpdateTiles(h, {}, &coordinate, &region, tileData, 0);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  f.pfnTiledResourceBarrier(h, ddi::D3D10DDI_HT_RESOURCE, nullptr, ddi::D3D10DDI_HT_RESOURCE, nullptr);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  UINT packedMips = 7, packedTiles = 7;
  f.pfnGetMipPacking(h, {}, &packedMips, &packedTiles);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  EXPECT_EQ(packedMips, 0u);
  EXPECT_EQ(packedTiles, 0u);
  f.pfnResizeTilePool(h, {}, 65536);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);

  // No tiled resource or tile pool is created: the flags are refused, not dropped.
  for (UINT misc : {UINT(ddi::D3DWDDM1_3DDI_RESOURCE_MISC_TILED), UINT(ddi::D3DWDDM1_3DDI_RESOURCE_MISC_TILE_POOL)}) {
    const ddi::D3D10DDI_MIPINFO mip{65536, 1, 1, 65536, 1, 1};
    ddi::D3D11DDIARG_CREATERESOURCE args{};
    args.pMipInfoList = &mip;
    args.ResourceDimension = ddi::D3D10DDIRESOURCE_BUFFER;
    args.Usage = ddi::D3D10_DDI_USAGE_DEFAULT;
    args.BindFlags = misc == ddi::D3DWDDM1_3DDI_RESOURCE_MISC_TILED ? UINT(ddi::D3D10_DDI_BIND_SHADER_RESOURCE) : 0u;
    args.MiscFlags = misc;
    args.Format = DXGI_FORMAT_UNKNOWN;
    args.SampleDesc = {1, 0};
    args.MipLevels = 1;
    args.ArraySize = 1;
    const SIZE_T size = f.pfnCalcPrivateResourceSize(h, &args);
    ASSERT_GT(size, 0u);
    std::vector<uint64_t> memory(size / sizeof(uint64_t) + 1);
    f.pfnCreateResource(h, &args, ddi::D3D10DDI_HRESOURCE{memory.data()}, ddi::D3D10DDI_HRTRESOURCE{});
    EXPECT_EQ(device.takeError(), E_INVALIDARG) << std::hex << misc;
  }

  // Both return nothing (the WDK header's VOID): the refusal reaches the runtime through
  // pfnSetErrorCb.
  f.pfnSetMarkerMode(h, ddi::D3DWDDM1_3DDI_MARKER_TYPE_NONE, 0);
  f.pfnSetMarker(h);
  EXPECT_EQ(device.takeError(), S_OK);
  f.pfnSetMarkerMode(h, ddi::D3DWDDM1_3DDI_MARKER_TYPE_PROFILE, 0);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  ddi::D3DWDDM1_3DDI_DEVICEFUNCS copy = f;
  f.pfnRelocateDeviceFuncs(h, &copy);
  EXPECT_EQ(device.takeError(), S_OK);

  // DXGI 1.3: no overlay group caps; no custom present durations (both closest 0).
  EXPECT_EQ(device.dxgi1_3.pfnGetMultiplaneOverlayGroupCaps(nullptr), E_NOTIMPL);
  ddi::DXGI_DDI_ARG_CHECKPRESENTDURATIONSUPPORT duration{reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(h.pDrvPrivate), 0,
                                                         166666, 7, 7};
  EXPECT_EQ(device.dxgi1_3.pfnCheckPresentDurationSupport(&duration), S_OK);
  EXPECT_EQ(duration.ClosestSmallerDuration, 0u);
  EXPECT_EQ(duration.ClosestLargerDuration, 0u);
}

// WDDM 2.0 and 2.1: what the 2.0 arguments add is translated (engines) or refused as
// listed (plane slices, conservative rasterization, layouts, protection), and a refused
// creation leaves nothing behind; the appended members behave as their statuses say.
TEST_F(DriverEntries, Wddm2_xListedBehaviourHolds) {
  harness::Device device;
  ASSERT_EQ(device.create(adapter, kWddm2_1.interfaceVersion, kWddm2_1.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  ddi::D3DWDDM2_1DDI_DEVICEFUNCS& f = device.funcsWddm2_1;

  // Flush names engines: every defined combination flushes the one target queue.
  for (UINT engines : {0x0u, 0x1u, 0x2u, 0x4u, 0x8u, 0xfu})
    EXPECT_EQ(f.pfnFlush(h, engines, 0), TRUE) << engines;
  EXPECT_EQ(device.takeError(), S_OK);
  EXPECT_EQ(f.pfnFlush(h, 0x10, 0), FALSE);
  EXPECT_EQ(device.takeError(), E_INVALIDARG);

  // Views: plane 0 is the 11.0 view; any other plane is refused and nothing is created.
  const D3D11_TEXTURE2D_DESC desc{8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS,
                                  0, 0};
  harness::Resource texture = device.createTexture2D(desc);
  ASSERT_TRUE(texture);
  ASSERT_EQ(device.takeError(), S_OK);
  std::vector<uint64_t> memory(64);
  for (UINT plane : {0u, 1u}) {
    SCOPED_TRACE(plane);
    const HRESULT expected = plane ? E_NOTIMPL : S_OK;
    ddi::D3DWDDM2_0DDIARG_CREATESHADERRESOURCEVIEW srv{texture.handle, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                       ddi::D3D10DDIRESOURCE_TEXTURE2D};
    srv.Tex2D = {0, 0, 1, 1, plane};
    ASSERT_LE(f.pfnCalcPrivateShaderResourceViewSize(h, &srv), memory.size() * sizeof(uint64_t));
    std::fill(memory.begin(), memory.end(), 0);
    f.pfnCreateShaderResourceView(h, &srv, ddi::D3D10DDI_HSHADERRESOURCEVIEW{memory.data()}, {});
    EXPECT_EQ(device.takeError(), expected);
    if (plane == 0)
      f.pfnDestroyShaderResourceView(h, ddi::D3D10DDI_HSHADERRESOURCEVIEW{memory.data()});
    else
      EXPECT_EQ(std::count(memory.begin(), memory.end(), 0u), std::ptrdiff_t(memory.size())) << "nothing constructed";

    ddi::D3DWDDM2_0DDIARG_CREATERENDERTARGETVIEW rtv{texture.handle, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                     ddi::D3D10DDIRESOURCE_TEXTURE2D};
    rtv.Tex2D = {0, 0, 1, plane};
    ASSERT_LE(f.pfnCalcPrivateRenderTargetViewSize(h, &rtv), memory.size() * sizeof(uint64_t));
    std::fill(memory.begin(), memory.end(), 0);
    f.pfnCreateRenderTargetView(h, &rtv, ddi::D3D10DDI_HRENDERTARGETVIEW{memory.data()}, {});
    EXPECT_EQ(device.takeError(), expected);
    if (plane == 0)
      f.pfnDestroyRenderTargetView(h, ddi::D3D10DDI_HRENDERTARGETVIEW{memory.data()});

    ddi::D3DWDDM2_0DDIARG_CREATEUNORDEREDACCESSVIEW uav{texture.handle, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                        ddi::D3D10DDIRESOURCE_TEXTURE2D};
    uav.Tex2D = {0, 0, 1, plane};
    ASSERT_LE(f.pfnCalcPrivateUnorderedAccessViewSize(h, &uav), memory.size() * sizeof(uint64_t));
    std::fill(memory.begin(), memory.end(), 0);
    f.pfnCreateUnorderedAccessView(h, &uav, ddi::D3D11DDI_HUNORDEREDACCESSVIEW{memory.data()}, {});
    EXPECT_EQ(device.takeError(), expected);
    if (plane == 0)
      f.pfnDestroyUnorderedAccessView(h, ddi::D3D11DDI_HUNORDEREDACCESSVIEW{memory.data()});
  }

  // Conservative rasterization has no tier: refused; off, the 11.1 state.
  for (auto mode : {ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_OFF, ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_ON}) {
    const ddi::D3DWDDM2_0DDI_RASTERIZER_DESC raster{ddi::D3D10_DDI_FILL_SOLID, ddi::D3D10_DDI_CULL_BACK, FALSE, 0, 0, 0,
                                                    TRUE, FALSE, FALSE, FALSE, 0, mode};
    ASSERT_LE(f.pfnCalcPrivateRasterizerStateSize(h, &raster), memory.size() * sizeof(uint64_t));
    std::fill(memory.begin(), memory.end(), 0);
    f.pfnCreateRasterizerState(h, &raster, ddi::D3D10DDI_HRASTERIZERSTATE{memory.data()}, {});
    EXPECT_EQ(device.takeError(), mode ? E_NOTIMPL : S_OK) << mode;
    if (!mode)
      f.pfnDestroyRasterizerState(h, ddi::D3D10DDI_HRASTERIZERSTATE{memory.data()});
  }

  // Queries on named engines: an event query on the copy engine signals like any other.
  for (UINT engines : {UINT(ddi::D3DWDDM2_0DDI_CONTEXTTYPE_ALL), UINT(ddi::D3DWDDM2_0DDI_CONTEXTTYPE_COPY), 0x20u}) {
    const ddi::D3DWDDM2_0DDIARG_CREATEQUERY query{ddi::D3D10DDI_QUERY_EVENT, 0, engines};
    ASSERT_LE(f.pfnCalcPrivateQuerySize(h, &query), memory.size() * sizeof(uint64_t));
    std::fill(memory.begin(), memory.end(), 0);
    const ddi::D3D10DDI_HQUERY handle{memory.data()};
    f.pfnCreateQuery(h, &query, handle, {});
    if (engines == 0x20u) {
      EXPECT_EQ(device.takeError(), E_INVALIDARG);
      continue;
    }
    ASSERT_EQ(device.takeError(), S_OK) << engines;
    f.pfnQueryEnd(h, handle);
    EXPECT_EQ(f.pfnFlush(h, engines, 0), TRUE);
    BOOL done = FALSE;
    HRESULT hr = DXGI_DDI_ERR_WASSTILLDRAWING;
    for (int i = 0; i < 2000 && hr == DXGI_DDI_ERR_WASSTILLDRAWING; ++i) {
      f.pfnQueryGetData(h, handle, &done, sizeof(done), 0);
      hr = device.takeError();
      if (hr == DXGI_DDI_ERR_WASSTILLDRAWING)
        Sleep(1);
    }
    EXPECT_EQ(hr, S_OK) << engines;
    EXPECT_EQ(done, TRUE) << engines;
    f.pfnDestroyQuery(h, handle);
  }

  // Texture layouts other than UNDEFINED and hardware-protected resources are refused.
  const ddi::D3D10DDI_MIPINFO mip{8, 8, 1, 8, 8, 1};
  for (int refused = 0; refused < 3; ++refused) {
    ddi::D3D11DDIARG_CREATERESOURCE args{};
    args.pMipInfoList = &mip;
    args.ResourceDimension = ddi::D3D10DDIRESOURCE_TEXTURE2D;
    args.Usage = ddi::D3D10_DDI_USAGE_DEFAULT;
    args.BindFlags = ddi::D3D10_DDI_BIND_SHADER_RESOURCE;
    args.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    args.SampleDesc = {1, 0};
    args.MipLevels = 1;
    args.ArraySize = 1;
    if (refused == 0)
      args.TextureLayout = ddi::D3DWDDM2_0DDI_TL_ROW_MAJOR;
    else if (refused == 1)
      args.TextureLayout = ddi::D3DWDDM2_0DDI_TL_STANDARD_SWIZZLE_64K_TILE;
    else
      args.MiscFlags = ddi::D3DWDDM2_0DDI_RESOURCE_MISC_HW_PROTECTED;
    const SIZE_T size = f.pfnCalcPrivateResourceSize(h, &args);
    ASSERT_GT(size, 0u);
    std::vector<uint64_t> resourceMemory(size / sizeof(uint64_t) + 1);
    f.pfnCreateResource(h, &args, ddi::D3D10DDI_HRESOURCE{resourceMemory.data()}, {});
    EXPECT_EQ(device.takeError(), E_INVALIDARG) << refused;
  }

  // Hardware protection: none to set; turning it off is what the device already is.
  f.pfnSetHardwareProtection(h, texture.handle, TRUE);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  f.pfnSetHardwareProtectionState(h, FALSE);
  EXPECT_EQ(device.takeError(), S_OK);
  f.pfnSetHardwareProtectionState(h, TRUE);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);

  // Layouts are opaque: the answer is defined, and refused.
  ddi::D3DKMT_HANDLE allocation = 7;
  auto layout = ddi::D3DWDDM2_0DDI_TL_ROW_MAJOR;
  UINT transition = 7;
  ddi::D3DWDDM2_0DDI_SUBRESOURCE_LAYOUT subresource{};
  subresource.RowPitch = 7;
  f.pfnGetResourceLayout(h, texture.handle, 1, &allocation, &layout, &transition, &subresource);
  EXPECT_EQ(device.takeError(), E_NOTIMPL);
  EXPECT_EQ(allocation, 0u);
  EXPECT_EQ(layout, ddi::D3DWDDM2_0DDI_TL_UNDEFINED);
  EXPECT_EQ(transition, 0u);
  EXPECT_EQ(subresource.RowPitch, 0u);

  // A shader's driver comment is empty; the length query says one character.
  const std::vector<uint8_t> container = readCorpusFile("vkd3d/vkd3d_0009_44272e4b5582.dxbc");
  harness::StrippedShader stripped;
  if (!container.empty() && harness::stripShader(container, stripped)) {
    harness::Shader shader = device.createShader(harness::ShaderStage::Vertex, stripped);
    ASSERT_TRUE(shader);
    SIZE_T characters = 0;
    EXPECT_EQ(f.pfnRetrieveShaderComment(h, shader.handle, nullptr, &characters), S_OK);
    EXPECT_EQ(characters, 1u);
    WCHAR comment[4] = {'x', 'x', 'x', 'x'};
    characters = 4;
    EXPECT_EQ(f.pfnRetrieveShaderComment(h, shader.handle, comment, &characters), S_OK);
    EXPECT_EQ(characters, 1u);
    EXPECT_EQ(comment[0], WCHAR(0));
    device.destroy(shader);
  }
  SIZE_T characters = 1;
  EXPECT_EQ(f.pfnRetrieveShaderComment(h, ddi::D3D10DDI_HSHADER{}, nullptr, &characters), E_INVALIDARG);

  // WDDM 2.1: acquire needs nothing, release submits; neither reports anything.
  f.pfnAcquireResource(h, texture.handle, nullptr);
  f.pfnReleaseResource(h, texture.handle, nullptr);
  f.pfnReleaseResource(h, ddi::D3D10DDI_HRESOURCE{}, nullptr);
  ddi::D3DWDDM2_1DDI_DEVICEFUNCS copy = f;
  f.pfnRelocateDeviceFuncs(h, &copy);
  ddi::D3DWDDM2_0DDI_DEVICEFUNCS copy2_0 = device.funcsWddm2_0;
  harness::Device wddm2_0;
  ASSERT_EQ(wddm2_0.create(adapter, kWddm2_0.interfaceVersion, kWddm2_0.version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  wddm2_0.funcsWddm2_0.pfnRelocateDeviceFuncs(wddm2_0.handle(), &copy2_0);
  EXPECT_EQ(wddm2_0.takeError(), S_OK);
  device.destroyResource(texture);
  EXPECT_EQ(device.takeError(), S_OK);
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0) << "the driver created no engine context of its own";
}

}  // namespace
}  // namespace triton::test
