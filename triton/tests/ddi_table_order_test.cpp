// SPDX-License-Identifier: MIT
// Table-order test: every member of every DDI function table sits at
// index * sizeof(void*), and every table is exactly as long as the reference
// says, so a missing, extra or reordered member fails. The (table, member,
// index) list comes from the documentation (ddi_table_order.inc).

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "triton/ddi/ddi.h"

namespace {

struct TableMember {
  const char* table;
  const char* member;
  std::size_t index;
  std::size_t offset;
  std::size_t memberSize;
};

struct TableSize {
  const char* table;
  std::size_t documentedMembers;
  std::size_t declaredBytes;
};

#define TRITON_DDI_TABLE_MEMBER(T, m, i) \
  TableMember{#T, #m, i, offsetof(triton::ddi::T, m), sizeof(triton::ddi::T::m)},
#define TRITON_DDI_TABLE_SIZE(T, n)
const TableMember kMembers[] = {
#include "ddi_table_order.inc"
};
#undef TRITON_DDI_TABLE_MEMBER
#undef TRITON_DDI_TABLE_SIZE

#define TRITON_DDI_TABLE_MEMBER(T, m, i)
#define TRITON_DDI_TABLE_SIZE(T, n) TableSize{#T, n, sizeof(triton::ddi::T)},
const TableSize kTables[] = {
#include "ddi_table_order.inc"
};
#undef TRITON_DDI_TABLE_MEMBER
#undef TRITON_DDI_TABLE_SIZE

TEST(DdiTableOrder, EveryMemberSitsAtItsDocumentedIndex) {
  for (const TableMember& m : kMembers) {
    EXPECT_EQ(m.offset, m.index * sizeof(void*)) << m.table << "::" << m.member;
    EXPECT_EQ(m.memberSize, sizeof(void*)) << m.table << "::" << m.member << " is not a pointer";
  }
}

TEST(DdiTableOrder, EveryTableHasExactlyItsDocumentedMembers) {
  std::map<std::string, std::vector<std::size_t>> indices;
  for (const TableMember& m : kMembers)
    indices[m.table].push_back(m.index);

  for (const TableSize& t : kTables) {
    SCOPED_TRACE(t.table);
    const std::vector<std::size_t>& listed = indices[t.table];
    ASSERT_EQ(listed.size(), t.documentedMembers);
    // Indices are 0..n-1 without gaps or repeats.
    std::set<std::size_t> unique(listed.begin(), listed.end());
    ASSERT_EQ(unique.size(), listed.size());
    EXPECT_EQ(*unique.rbegin(), t.documentedMembers - 1);
    // No undocumented member hides at the end of the declaration.
    EXPECT_EQ(t.declaredBytes, t.documentedMembers * sizeof(void*));
  }
}

// The member counts the reference gives, one table per line; reported so a
// reader of the test log sees them.
TEST(DdiTableOrder, MemberCountsPerTable) {
  const std::map<std::string, std::size_t> expected = {
      {"D3D10DDI_DEVICEFUNCS", 101},
      {"D3D10_1DDI_DEVICEFUNCS", 103},
      {"D3D11DDI_DEVICEFUNCS", 150},
      {"D3D11_1DDI_DEVICEFUNCS", 155},
      {"D3DWDDM1_3DDI_DEVICEFUNCS", 164},
      {"D3DWDDM2_0DDI_DEVICEFUNCS", 168},
      {"D3DWDDM2_1DDI_DEVICEFUNCS", 170},
      {"D3D10DDI_ADAPTERFUNCS", 3},
      {"D3D10_2DDI_ADAPTERFUNCS", 5},
      {"D3D10DDI_CORELAYER_DEVICECALLBACKS", 26},
      {"D3D11DDI_CORELAYER_DEVICECALLBACKS", 40},
      {"D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS", 42},
      {"D3DDDI_DEVICECALLBACKS", 65},
      {"D3DDDI_ADAPTERCALLBACKS", 3},
      {"DXGI_DDI_BASE_FUNCTIONS", 7},
      {"DXGI1_1_DDI_BASE_FUNCTIONS", 8},
      {"DXGI1_2_DDI_BASE_FUNCTIONS", 15},
      {"DXGI1_3_DDI_BASE_FUNCTIONS", 18},
      {"DXGI1_4_DDI_BASE_FUNCTIONS", 21},
      {"DXGI1_5_DDI_BASE_FUNCTIONS", 22},
      {"DXGI1_6_1_DDI_BASE_FUNCTIONS", 22},
      {"DXGI_DDI_BASE_CALLBACKS", 5},
  };
  ASSERT_EQ(std::size(kTables), expected.size());
  for (const TableSize& t : kTables) {
    auto it = expected.find(t.table);
    ASSERT_NE(it, expected.end()) << t.table;
    EXPECT_EQ(t.documentedMembers, it->second) << t.table;
    EXPECT_EQ(t.declaredBytes / sizeof(void*), it->second) << t.table;
    RecordProperty(t.table, static_cast<int>(t.documentedMembers));
  }
}

// Spot checks that tie the index list to behaviour-relevant facts: each newer
// device table keeps the older table's prefix (the runtime relies on it when it
// calls through a shared prefix), and the 11.1 additions come last.
TEST(DdiTableOrder, NewerDeviceTablesExtendTheOlderPrefix) {
  using namespace triton::ddi;
  EXPECT_EQ(offsetof(D3D10_1DDI_DEVICEFUNCS, pfnSetTextFilterSize), offsetof(D3D10DDI_DEVICEFUNCS, pfnSetTextFilterSize));
  EXPECT_EQ(offsetof(D3D11DDI_DEVICEFUNCS, pfnResourceConvertRegion), offsetof(D3D10_1DDI_DEVICEFUNCS, pfnResourceConvertRegion));
  EXPECT_EQ(offsetof(D3D11_1DDI_DEVICEFUNCS, pfnRecycleDestroyCommandList), offsetof(D3D11DDI_DEVICEFUNCS, pfnRecycleDestroyCommandList));
  EXPECT_EQ(offsetof(D3D11_1DDI_DEVICEFUNCS, pfnDiscard), sizeof(D3D11DDI_DEVICEFUNCS));
  EXPECT_EQ(offsetof(D3D11_1DDI_DEVICEFUNCS, pfnClearView) + sizeof(void*), sizeof(D3D11_1DDI_DEVICEFUNCS));
  // WDDM 1.3 keeps the whole 11.1 table (two member types changed) and appends nine.
  EXPECT_EQ(offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnClearView), offsetof(D3D11_1DDI_DEVICEFUNCS, pfnClearView));
  EXPECT_EQ(offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnCheckMultisampleQualityLevels),
            offsetof(D3D11_1DDI_DEVICEFUNCS, pfnCheckMultisampleQualityLevels));
  EXPECT_EQ(offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnUpdateTileMappings), sizeof(D3D11_1DDI_DEVICEFUNCS));
  EXPECT_EQ(offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnSetMarkerMode) + sizeof(void*), sizeof(D3DWDDM1_3DDI_DEVICEFUNCS));
  EXPECT_EQ(offsetof(D3D11DDI_CORELAYER_DEVICECALLBACKS, pfnStateHsSrvCb), sizeof(D3D10DDI_CORELAYER_DEVICECALLBACKS));
  // WDDM 2.0 keeps the whole 1.3 table (twelve member types changed in place) and
  // appends four; 2.1 keeps 2.0's and appends two; the 2.0 core-layer callbacks extend
  // the D3D11 ones, which the driver reads through the D3D11 type.
  EXPECT_EQ(offsetof(D3DWDDM2_0DDI_DEVICEFUNCS, pfnFlush), offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnFlush));
  EXPECT_EQ(offsetof(D3DWDDM2_0DDI_DEVICEFUNCS, pfnCreateQuery), offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnCreateQuery));
  EXPECT_EQ(offsetof(D3DWDDM2_0DDI_DEVICEFUNCS, pfnCreateUnorderedAccessView),
            offsetof(D3DWDDM1_3DDI_DEVICEFUNCS, pfnCreateUnorderedAccessView));
  EXPECT_EQ(offsetof(D3DWDDM2_0DDI_DEVICEFUNCS, pfnSetHardwareProtection), sizeof(D3DWDDM1_3DDI_DEVICEFUNCS));
  EXPECT_EQ(offsetof(D3DWDDM2_1DDI_DEVICEFUNCS, pfnAcquireResource), sizeof(D3DWDDM2_0DDI_DEVICEFUNCS));
  EXPECT_EQ(offsetof(D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS, pfnCreateContextCb),
            sizeof(D3D11DDI_CORELAYER_DEVICECALLBACKS));
  EXPECT_EQ(offsetof(DXGI1_3_DDI_BASE_FUNCTIONS, pfnBlt1), offsetof(DXGI1_2_DDI_BASE_FUNCTIONS, pfnBlt1));
  EXPECT_EQ(sizeof(DXGI1_1_DDI_BASE_FUNCTIONS), sizeof(DXGI_DDI_BASE_FUNCTIONS) + sizeof(void*));
  // DXGI 1.4 appends three members to the 1.3 table; 1.5 retypes OfferResources in place
  // and appends ReclaimResources1; 1.6.1 is 1.5's layout with two members retyped.
  EXPECT_EQ(offsetof(DXGI1_4_DDI_BASE_FUNCTIONS, pfnTrimResidencySet), sizeof(DXGI1_3_DDI_BASE_FUNCTIONS));
  EXPECT_EQ(offsetof(DXGI1_4_DDI_BASE_FUNCTIONS, pfnCheckPresentDurationSupport),
            offsetof(DXGI1_3_DDI_BASE_FUNCTIONS, pfnCheckPresentDurationSupport));
  EXPECT_EQ(offsetof(DXGI1_5_DDI_BASE_FUNCTIONS, pfnOfferResources1), offsetof(DXGI1_4_DDI_BASE_FUNCTIONS, pfnOfferResources));
  EXPECT_EQ(offsetof(DXGI1_5_DDI_BASE_FUNCTIONS, pfnReclaimResources1), sizeof(DXGI1_4_DDI_BASE_FUNCTIONS));
  EXPECT_EQ(offsetof(DXGI1_6_1_DDI_BASE_FUNCTIONS, pfnPresent1), offsetof(DXGI1_5_DDI_BASE_FUNCTIONS, pfnPresent1));
  EXPECT_EQ(sizeof(DXGI1_6_1_DDI_BASE_FUNCTIONS), sizeof(DXGI1_5_DDI_BASE_FUNCTIONS));
}

}  // namespace
