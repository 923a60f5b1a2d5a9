// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "npt/objects/object_table.h"

using namespace npt::objects;

namespace {

// A backend object that records how often the table releases it.
struct FakeObject : IUnknown {
  int* releases;
  explicit FakeObject(int* counter) : releases(counter) {}
  virtual ~FakeObject() = default;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID, void** out) override {
    *out = nullptr;
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return 2; }
  ULONG STDMETHODCALLTYPE Release() override {
    ++*releases;
    return 0;
  }
};

struct ObjectTableTest : ::testing::Test {
  int releases = 0;
  FakeObject a{&releases}, b{&releases}, c{&releases};
};

TEST_F(ObjectTableTest, CreateAddRefReleaseDestroysOnLastRelease) {
  ObjectTable table;
  ASSERT_TRUE(table.insert(7, ObjectType::Buffer, &a, 256).ok());
  uint32_t count = 0;
  ASSERT_TRUE(table.addRef(7, &count).ok());
  EXPECT_EQ(count, 2u);
  ASSERT_TRUE(table.release(7, &count).ok());
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(releases, 0);
  EXPECT_EQ(table.memoryInUse(), 256u);
  ASSERT_TRUE(table.release(7, &count).ok());
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(releases, 1);
  EXPECT_EQ(table.liveObjects(), 0u);
  EXPECT_EQ(table.memoryInUse(), 0u);
}

TEST_F(ObjectTableTest, UseAfterReleaseIsDetected) {
  ObjectTable table;
  ASSERT_TRUE(table.insert(3, ObjectType::SamplerState, &a, 0).ok());
  ASSERT_TRUE(table.release(3).ok());
  TableResult result = table.addRef(3);
  EXPECT_EQ(result.error, TableError::UseAfterRelease);
  EXPECT_TRUE(result.fatal());
  EXPECT_EQ(result.hr(), DXGI_ERROR_DEVICE_REMOVED);
  ObjectInfo* info = nullptr;
  EXPECT_EQ(table.lookup(3, InterfaceId::ID3D11SamplerState, &info).error, TableError::UseAfterRelease);
  EXPECT_EQ(table.release(3).error, TableError::UseAfterRelease);
  EXPECT_EQ(releases, 1);   // never released twice
}

TEST_F(ObjectTableTest, UnknownAndNullIds) {
  ObjectTable table;
  ObjectInfo* info = nullptr;
  EXPECT_EQ(table.lookup(99, InterfaceId::IUnknown, &info).error, TableError::UnknownId);
  EXPECT_EQ(table.lookup(kNullObject, InterfaceId::IUnknown, &info).error, TableError::NullId);
  EXPECT_EQ(table.insert(kNullObject, ObjectType::Buffer, &a, 0).error, TableError::NullId);
}

TEST_F(ObjectTableTest, IdReuseOnlyAfterDestruction) {
  ObjectTable table;
  ASSERT_TRUE(table.insert(5, ObjectType::Buffer, &a, 0).ok());
  EXPECT_EQ(table.insert(5, ObjectType::Texture2D, &b, 0).error, TableError::IdInUse);
  ASSERT_TRUE(table.release(5).ok());
  ASSERT_TRUE(table.insert(5, ObjectType::Texture2D, &b, 0).ok());
  ObjectInfo* info = nullptr;
  ASSERT_TRUE(table.lookup(5, InterfaceId::ID3D11Texture2D, &info).ok());
  EXPECT_EQ(info->object, &b);
}

TEST_F(ObjectTableTest, WrongTypeIsRejected) {
  ObjectTable table;
  ASSERT_TRUE(table.insert(1, ObjectType::Buffer, &a, 0).ok());
  ObjectInfo* info = nullptr;
  EXPECT_TRUE(table.lookup(1, InterfaceId::ID3D11Resource, &info).ok());
  EXPECT_TRUE(table.lookup(1, InterfaceId::ID3D11Buffer, &info).ok());
  TableResult wrong = table.lookup(1, InterfaceId::ID3D11Texture2D, &info);
  EXPECT_EQ(wrong.error, TableError::WrongType);
  EXPECT_TRUE(wrong.fatal());
  EXPECT_NE(wrong.message.find("Buffer"), std::string::npos);
  EXPECT_EQ(table.lookup(1, InterfaceId::ID3D11ShaderResourceView, &info).error, TableError::WrongType);
}

TEST_F(ObjectTableTest, QueryInterfaceFollowsInterfaceChains) {
  ObjectTable table;
  ASSERT_TRUE(table.insert(1, ObjectType::Texture2D, &a, 0).ok());
  uint32_t count = 0;
  EXPECT_TRUE(table.queryInterface(1, __uuidof(ID3D11Resource)).ok());
  EXPECT_TRUE(table.queryInterface(1, __uuidof(IDXGISurface1)).ok());
  EXPECT_TRUE(table.queryInterface(1, __uuidof(ID3D11Texture2D1)).ok());
  EXPECT_TRUE(table.queryInterface(1, __uuidof(IUnknown)).ok());
  TableResult none = table.queryInterface(1, __uuidof(ID3D11Buffer));
  EXPECT_EQ(none.error, TableError::NoInterface);
  EXPECT_FALSE(none.fatal());
  EXPECT_EQ(none.hr(), E_NOINTERFACE);
  // Unknown GUIDs are E_NOINTERFACE too, not fatal.
  GUID unknown{0x12345678, 1, 2, {1, 2, 3, 4, 5, 6, 7, 8}};
  EXPECT_EQ(table.queryInterface(1, unknown).error, TableError::NoInterface);
  // Four successful QIs added four references.
  ASSERT_TRUE(table.addRef(1, &count).ok());
  EXPECT_EQ(count, 6u);
}

// lookup keeps recent hits: a hit must never outlive the object's last public reference,
// its destruction, the reuse of its id, a colliding id or clear().
TEST_F(ObjectTableTest, RepeatedLookupsFollowReleaseDestructionAndReuse) {
  ObjectTable table;
  ObjectInfo* info = nullptr;
  ASSERT_TRUE(table.insert(4, ObjectType::Buffer, &a, 0).ok());
  ASSERT_TRUE(table.insert(20, ObjectType::Texture2D, &b, 0).ok());   // 20 shares 4's place in 16 slots
  for (int round = 0; round < 3; round++) {
    ASSERT_TRUE(table.lookup(4, InterfaceId::ID3D11Buffer, &info).ok());
    EXPECT_EQ(info->object, &a);
    ASSERT_TRUE(table.lookup(20, InterfaceId::ID3D11Texture2D, &info).ok());
    EXPECT_EQ(info->object, &b);
  }
  EXPECT_EQ(table.lookup(4, InterfaceId::ID3D11Texture2D, &info).error, TableError::WrongType);
  EXPECT_EQ(table.findUsable(4, InterfaceId::ID3D11Texture2D), nullptr);
  ASSERT_TRUE(table.lookup(4, InterfaceId::ID3D11Buffer, &info).ok());
  ASSERT_NE(table.findUsable(4, InterfaceId::ID3D11Buffer), nullptr);
  EXPECT_EQ(table.findUsable(4, InterfaceId::ID3D11Buffer)->object, &a);
  ASSERT_TRUE(table.release(4).ok());
  EXPECT_EQ(table.findUsable(4, InterfaceId::ID3D11Buffer), nullptr);
  EXPECT_EQ(table.lookup(4, InterfaceId::ID3D11Buffer, &info).error, TableError::UseAfterRelease);
  ASSERT_TRUE(table.insert(4, ObjectType::SamplerState, &c, 0).ok());
  ASSERT_TRUE(table.lookup(4, InterfaceId::ID3D11SamplerState, &info).ok());
  EXPECT_EQ(info->object, &c);
  EXPECT_EQ(table.lookup(4, InterfaceId::ID3D11Buffer, &info).error, TableError::WrongType);
  // A view keeps 20 alive past its last public reference: alive, but not usable.
  const ObjectId texture[] = {20};
  ASSERT_TRUE(table.insert(21, ObjectType::ShaderResourceView, &a, 0, texture).ok());
  ASSERT_TRUE(table.lookup(20, InterfaceId::ID3D11Texture2D, &info).ok());
  ASSERT_TRUE(table.release(20).ok());
  EXPECT_EQ(table.findUsable(20, InterfaceId::ID3D11Texture2D), nullptr);
  EXPECT_EQ(table.lookup(20, InterfaceId::ID3D11Texture2D, &info).error, TableError::UseAfterRelease);
  table.clear();   // clear() forgets the ids as well
  EXPECT_EQ(table.lookup(20, InterfaceId::ID3D11Texture2D, &info).error, TableError::UnknownId);
  EXPECT_EQ(table.lookup(4, InterfaceId::ID3D11SamplerState, &info).error, TableError::UnknownId);
  EXPECT_EQ(releases, 4);
}

TEST_F(ObjectTableTest, ViewKeepsResourceAliveAfterPublicRelease) {
  ObjectTable table;
  ASSERT_TRUE(table.insert(10, ObjectType::Texture2D, &a, 1024).ok());
  const ObjectId deps[] = {10};
  ASSERT_TRUE(table.insert(11, ObjectType::ShaderResourceView, &b, 0, deps).ok());
  ASSERT_TRUE(table.release(10).ok());
  EXPECT_EQ(releases, 0);   // the view still holds the texture
  ObjectInfo* info = nullptr;
  EXPECT_EQ(table.lookup(10, InterfaceId::ID3D11Resource, &info).error, TableError::UseAfterRelease);
  // GetResource hands the texture out again.
  ObjectId resource = 0;
  ASSERT_TRUE(table.acquireDependency(11, 0, &resource).ok());
  EXPECT_EQ(resource, 10u);
  EXPECT_TRUE(table.lookup(10, InterfaceId::ID3D11Texture2D, &info).ok());
  ASSERT_TRUE(table.release(10).ok());
  ASSERT_TRUE(table.release(11).ok());   // view dies, then the texture
  EXPECT_EQ(releases, 2);
  EXPECT_EQ(table.liveObjects(), 0u);
  EXPECT_EQ(table.memoryInUse(), 0u);
}

TEST_F(ObjectTableTest, DependencyMustBeAlive) {
  ObjectTable table;
  const ObjectId deps[] = {42};
  EXPECT_EQ(table.insert(1, ObjectType::RenderTargetView, &a, 0, deps).error, TableError::BadDependency);
  EXPECT_EQ(table.liveObjects(), 0u);
  EXPECT_EQ(releases, 0);   // the caller keeps ownership on failure
}

TEST_F(ObjectTableTest, ObjectQuota) {
  ObjectQuotas quotas;
  quotas.maxObjects = 2;
  ObjectTable table(quotas);
  ASSERT_TRUE(table.insert(1, ObjectType::BlendState, &a, 0).ok());
  ASSERT_TRUE(table.insert(2, ObjectType::BlendState, &b, 0).ok());
  TableResult result = table.insert(3, ObjectType::BlendState, &c, 0);
  EXPECT_EQ(result.error, TableError::ObjectQuota);
  EXPECT_TRUE(result.fatal());
  EXPECT_NE(result.message.find("limit 2"), std::string::npos);
  ASSERT_TRUE(table.release(1).ok());
  EXPECT_TRUE(table.insert(3, ObjectType::BlendState, &c, 0).ok());
}

TEST_F(ObjectTableTest, MemoryQuotaIsOverflowSafe) {
  ObjectQuotas quotas;
  quotas.maxMemoryBytes = 1000;
  ObjectTable table(quotas);
  ASSERT_TRUE(table.insert(1, ObjectType::Buffer, &a, 600).ok());
  EXPECT_EQ(table.insert(2, ObjectType::Buffer, &b, 401).error, TableError::MemoryQuota);
  EXPECT_EQ(table.insert(2, ObjectType::Buffer, &b, UINT64_MAX).error, TableError::MemoryQuota);
  EXPECT_TRUE(table.insert(2, ObjectType::Buffer, &b, 400).ok());
  EXPECT_EQ(table.memoryInUse(), 1000u);
}

TEST_F(ObjectTableTest, RefcountOverflowIsFatal) {
  ObjectQuotas quotas;
  quotas.maxPublicRefs = 3;
  ObjectTable table(quotas);
  ASSERT_TRUE(table.insert(1, ObjectType::Query, &a, 0).ok());
  ASSERT_TRUE(table.addRef(1).ok());
  ASSERT_TRUE(table.addRef(1).ok());
  EXPECT_EQ(table.addRef(1).error, TableError::RefcountOverflow);
}

TEST_F(ObjectTableTest, ClearReleasesEverythingOnce) {
  int count = 0;
  {
    ObjectTable table;
    FakeObject tex{&count}, view{&count}, view2{&count};
    ASSERT_TRUE(table.insert(1, ObjectType::Texture2D, &tex, 0).ok());
    const ObjectId deps[] = {1};
    ASSERT_TRUE(table.insert(2, ObjectType::RenderTargetView, &view, 0, deps).ok());
    ASSERT_TRUE(table.insert(3, ObjectType::ShaderResourceView, &view2, 0, deps).ok());
    ASSERT_TRUE(table.addRef(1).ok());
    table.clear();
    EXPECT_EQ(count, 3);
    EXPECT_EQ(table.liveObjects(), 0u);
  }
  EXPECT_EQ(count, 3);   // the destructor finds nothing left to release
}

TEST_F(ObjectTableTest, DestructorReleasesLeftovers) {
  {
    ObjectTable table;
    ASSERT_TRUE(table.insert(1, ObjectType::Buffer, &a, 0).ok());
    ASSERT_TRUE(table.insert(2, ObjectType::Buffer, &b, 0).ok());
  }
  EXPECT_EQ(releases, 2);
}

TEST_F(ObjectTableTest, TombstonesAreBounded) {
  ObjectQuotas quotas;
  quotas.maxTombstones = 2;
  ObjectTable table(quotas);
  FakeObject objects[3] = {FakeObject(&releases), FakeObject(&releases), FakeObject(&releases)};
  for (ObjectId id = 1; id <= 3; id++) {
    ASSERT_TRUE(table.insert(id, ObjectType::Buffer, &objects[id - 1], 0).ok());
    ASSERT_TRUE(table.release(id).ok());
  }
  ObjectInfo* info = nullptr;
  EXPECT_EQ(table.lookup(1, InterfaceId::IUnknown, &info).error, TableError::UnknownId);   // forgotten
  EXPECT_EQ(table.lookup(3, InterfaceId::IUnknown, &info).error, TableError::UseAfterRelease);
}

TEST(ObjectTypes, EveryInterfaceHasAGuidAndName) {
  for (size_t i = 0; i < size_t(InterfaceId::Count); i++) {
    InterfaceId iface = InterfaceId(i);
    EXPECT_STRNE(interfaceName(iface), "?");
  }
  InterfaceId out;
  ASSERT_TRUE(interfaceFromGuid(__uuidof(ID3D11Device5), out));
  EXPECT_EQ(out, InterfaceId::ID3D11Device5);
  ASSERT_TRUE(interfaceFromGuid(__uuidof(IDXGIResource1), out));
  EXPECT_EQ(out, InterfaceId::IDXGIResource1);
  EXPECT_TRUE(objectImplements(ObjectType::Predicate, InterfaceId::ID3D11Query));
  EXPECT_FALSE(objectImplements(ObjectType::Query, InterfaceId::ID3D11Predicate));
  EXPECT_FALSE(objectImplements(ObjectType::Buffer, InterfaceId::IDXGISurface));
}

}  // namespace

#include "npt/objects/resource_record.h"
#include "npt/validation/context_calls.h"

namespace {

using npt::validation::Rule;

TEST(ResourceRecord, MapStateFollowsValidatedMapUnmap) {
  int releases = 0;
  FakeObject staging(&releases), sampler(&releases);
  ObjectTable table;
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = desc.Height = 16;
  desc.MipLevels = 2;
  desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = D3D11_USAGE_STAGING;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  const auto shape = npt::validation::shapeOf(desc);
  ASSERT_TRUE(table.insert(1, objectTypeFor(shape.dimension), &staging, 2048, {},
                           std::make_unique<ResourceRecord>(shape)).ok());
  ASSERT_TRUE(table.insert(2, ObjectType::SamplerState, &sampler, 0).ok());

  ObjectInfo* info = nullptr;
  ResourceRecord* record = nullptr;
  ASSERT_TRUE(lookupResource(table, 1, &info, &record).ok());
  EXPECT_EQ(info->type, ObjectType::Texture2D);
  EXPECT_EQ(record->shape().mipLevels, 2u);

  EXPECT_TRUE(npt::validation::validateMap(record->shape(), 1, D3D11_MAP_READ, 0, record->isMapped(1)).passed());
  record->setMapped(1, true);
  EXPECT_EQ(npt::validation::validateMap(record->shape(), 1, D3D11_MAP_READ, 0, record->isMapped(1)).rule(),
            Rule::MapAlreadyMapped);
  EXPECT_TRUE(npt::validation::validateUnmap(record->shape(), 1, record->isMapped(1)).passed());
  record->setMapped(1, false);
  EXPECT_EQ(npt::validation::validateUnmap(record->shape(), 1, record->isMapped(1)).rule(), Rule::UnmapNotMapped);
  EXPECT_FALSE(record->isMapped(99));   // out of range is never mapped

  // A sampler is not a resource.
  EXPECT_EQ(lookupResource(table, 2, &info, &record).error, TableError::WrongType);
  // A resource inserted without its shape cannot be used by resource calls.
  FakeObject bare(&releases);
  ASSERT_TRUE(table.insert(3, ObjectType::Buffer, &bare, 0).ok());
  EXPECT_EQ(lookupResource(table, 3, &info, &record).error, TableError::WrongType);
}

}  // namespace
