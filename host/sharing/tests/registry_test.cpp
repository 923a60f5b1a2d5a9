// The sharing registry on its own: handles, references, names, keyed mutexes, copy
// counters, two openers of one instance (as two workers would be), and a hostile
// worker's garbage in the section.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "npt/sharing/registry.h"

using namespace npt::sharing;

namespace {

// Digits only, as NPT_SERVER_INSTANCE; far from real pids. The native registry file is
// removed when the test ends (Windows sections vanish with their last handle).
struct Instance {
  std::string name;
  Instance() {
    static std::atomic<uint32_t> counter{0};
    std::random_device random;
    name = "9" + std::to_string(random() % 1000000) + std::to_string(counter++);
  }
  ~Instance() { Section::unlinkName(Registry::registryName(name)); }
  operator const std::string&() const { return name; }
};

const uint32_t kDesc[kDescWords] = {64, 32, 1, 1, 28, 1, 0, 0, 8, 0, 2, 0};

}  // namespace

TEST(SharingRegistry, HandlesEncodeKindIndexGeneration) {
  uint64_t handle = encodeHandle(Kind::Texture2D, 17, 3);
  HandleParts parts;
  ASSERT_TRUE(decodeHandle(handle, parts));
  EXPECT_EQ(parts.kind, Kind::Texture2D);
  EXPECT_EQ(parts.index, 17u);
  EXPECT_EQ(parts.generation, 3u);
  EXPECT_EQ(handle & 0xf, 3u);   // the guest's view: the kind in the low bits
  EXPECT_FALSE(decodeHandle(0, parts));
  EXPECT_FALSE(decodeHandle(0x12345, parts));                          // bit 30 clear
  EXPECT_FALSE(decodeHandle(encodeHandle(Kind::Texture2D, 17, 0), parts));   // generation 0
  EXPECT_FALSE(decodeHandle(handle | (1ull << 40), parts));
  EXPECT_FALSE(decodeHandle((handle & ~0xfull) | 5, parts));          // unknown kind
  EXPECT_FALSE(decodeHandle(encodeHandle(Kind::Buffer, kCapacity, 1), parts));
}

TEST(SharingRegistry, TwoOpenersShareEntriesAndReferences) {
  Instance instance;
  std::string error;
  auto producer = Registry::open(instance, &error);
  ASSERT_TRUE(producer) << error;
  auto consumer = Registry::open(instance, &error);
  ASSERT_TRUE(consumer) << error;

  uint64_t handle = producer->create(1, Kind::Texture2D, kFlagLegacyHandle, kDesc, 64 * 32 * 4, nullptr);
  ASSERT_NE(handle, 0u);
  EntryInfo info;
  ASSERT_EQ(consumer->acquireReference(handle, Kind::Texture2D, false, info), LookupError::Ok);
  EXPECT_EQ(info.contentBytes, 64u * 32 * 4);
  EXPECT_EQ(std::memcmp(info.desc, kDesc, sizeof(kDesc)), 0);
  EXPECT_EQ(consumer->acquireReference(handle, Kind::Buffer, false, info), LookupError::WrongKind);
  EXPECT_EQ(consumer->acquireReference(handle + (1u << 14), Kind::None, false, info), LookupError::NotShared);
  EXPECT_EQ(consumer->acquireReference(0x1234, Kind::None, false, info), LookupError::BadHandle);

  // Fence values and content versions are the same words for both.
  producer->fenceValue(handle)->store(42);
  EXPECT_EQ(consumer->fenceValue(handle)->load(), 42u);

  // The entry lives while either holds a reference.
  producer->releaseReference(handle);
  EXPECT_EQ(consumer->lookup(handle, info), LookupError::Ok);
  consumer->releaseReference(handle);
  EXPECT_EQ(consumer->lookup(handle, info), LookupError::NotShared);
  EXPECT_EQ(consumer->acquireReference(handle, Kind::None, false, info), LookupError::NotShared);
  EXPECT_EQ(producer->fenceValue(handle), nullptr);

  // A new allocation of the same entry gets a new generation: the old handle stays dead.
  uint64_t again = producer->create(1, Kind::Texture2D, kFlagLegacyHandle, kDesc, 16, nullptr);
  ASSERT_NE(again, 0u);
  EXPECT_NE(again, handle);
  EXPECT_EQ(consumer->lookup(handle, info), LookupError::NotShared);
  producer->releaseReference(again);
}

TEST(SharingRegistry, NtHandlesAndNames) {
  Instance instance;
  std::string error;
  auto registry = Registry::open(instance, &error);
  ASSERT_TRUE(registry) << error;
  const char16_t name[] = u"Local\\neptune-test-surface";
  uint64_t handle = registry->create(1, Kind::Texture2D, kFlagNtHandle, kDesc, 256, name);
  ASSERT_NE(handle, 0u);
  bool taken = false;
  EXPECT_EQ(registry->create(2, Kind::Buffer, kFlagNtHandle, kDesc, 16, name, &taken), 0u);
  EXPECT_TRUE(taken);
  EXPECT_EQ(registry->findByName(name), handle);
  EXPECT_EQ(registry->findByName(u"other"), 0u);
  EntryInfo info;
  // An NT-handle-only resource opens through OpenSharedResource1 (ntOpen) only.
  EXPECT_EQ(registry->acquireReference(handle, Kind::Texture2D, false, info), LookupError::NeedsNtOpen);
  EXPECT_EQ(registry->acquireReference(handle, Kind::Texture2D, true, info), LookupError::Ok);
  registry->releaseReference(handle);
  registry->releaseReference(handle);
  EXPECT_EQ(registry->findByName(name), 0u);
}

TEST(SharingRegistry, TableIsBounded) {
  Instance instance;
  std::string error;
  auto registry = Registry::open(instance, &error);
  ASSERT_TRUE(registry) << error;
  std::vector<uint64_t> handles;
  for (uint32_t i = 0; i < kCapacity; i++) {
    uint64_t h = registry->create(1, Kind::Fence, 0, nullptr, 0, nullptr);
    ASSERT_NE(h, 0u) << i;
    handles.push_back(h);
  }
  EXPECT_EQ(registry->create(1, Kind::Fence, 0, nullptr, 0, nullptr), 0u);
  EXPECT_EQ(registry->liveEntries(), kCapacity);
  registry->releaseReference(handles[7]);
  EXPECT_NE(registry->create(1, Kind::Fence, 0, nullptr, 0, nullptr), 0u);
  EXPECT_EQ(registry->create(1, Kind::Fence, 0, nullptr, kMaxContentBytes + 1, nullptr), 0u);
}

TEST(SharingRegistry, KeyedMutexFollowsKeys) {
  Instance instance;
  std::string error;
  auto a = Registry::open(instance, &error);
  auto b = Registry::open(instance, &error);
  ASSERT_TRUE(a && b) << error;
  uint64_t handle = a->create(1, Kind::Texture2D, kFlagKeyedMutex | kFlagLegacyHandle, kDesc, 256, nullptr);
  // Ownerless: only key 0 acquires.
  EXPECT_EQ(b->tryAcquireKeyedMutex(handle, 2, 1), AcquireResult::WrongKeyOrOwned);
  EXPECT_EQ(a->tryAcquireKeyedMutex(handle, 1, 0), AcquireResult::Acquired);
  EXPECT_EQ(b->tryAcquireKeyedMutex(handle, 2, 0), AcquireResult::WrongKeyOrOwned);   // owned
  EXPECT_FALSE(b->releaseKeyedMutex(handle, 2, 1));                                 // not the owner
  EXPECT_TRUE(a->releaseKeyedMutex(handle, 1, 1));
  EXPECT_EQ(a->tryAcquireKeyedMutex(handle, 1, 0), AcquireResult::WrongKeyOrOwned); // released to key 1
  EXPECT_EQ(b->tryAcquireKeyedMutex(handle, 2, 1), AcquireResult::Acquired);
  // The owner goes away holding it: the next acquirer learns it.
  b->abandonKeyedMutex(handle, 2);
  EXPECT_EQ(a->tryAcquireKeyedMutex(handle, 1, 1), AcquireResult::Abandoned);
  EXPECT_EQ(a->tryAcquireKeyedMutex(0x1234, 1, 0), AcquireResult::BadHandle);
}

TEST(SharingRegistry, CopyCountersPerEntryAndInstance) {
  Instance instance;
  std::string error;
  auto a = Registry::open(instance, &error);
  auto b = Registry::open(instance, &error);
  ASSERT_TRUE(a && b) << error;
  uint64_t handle = a->create(1, Kind::Buffer, kFlagLegacyHandle, kDesc, 4096, nullptr);
  a->countCopy(handle, 4096);
  b->countCopy(handle, 4096);
  EXPECT_EQ(b->copyCounters(handle).copies, 2u);
  EXPECT_EQ(a->copyCounters().bytes, 8192u);
}

TEST(SharingRegistry, ContentSectionsAreNamedFromTheHandle) {
  Instance instance;
  uint64_t handle = encodeHandle(Kind::Texture2D, 5, 9);
  std::string name = Registry::contentName(instance, handle);
  EXPECT_NE(name.find(instance.name + "-share-5-9"), std::string::npos);
  bool created = false;
  Section a = Section::create(name, 8192, &created);
  ASSERT_TRUE(a.valid());
  EXPECT_TRUE(created);
  Section b = Section::open(name, 8192);
  ASSERT_TRUE(b.valid());
  a.data()[4000] = 0x5a;
  EXPECT_EQ(b.data()[4000], 0x5a);
  EXPECT_FALSE(Section::open(name + "x", 16).valid());
  Section::unlinkName(name);
}

TEST(SharingRegistry, AFreedEntryTakesItsContentName) {
  Instance instance;
  std::string error;
  auto registry = Registry::open(instance, &error);
  ASSERT_TRUE(registry) << error;
  uint64_t handle = registry->create(1, Kind::Buffer, kFlagLegacyHandle, kDesc, 4096, nullptr);
  const std::string name = Registry::contentName(instance, handle);
  {
    Section content = Section::create(name, 4096);
    ASSERT_TRUE(content.valid());
    registry->releaseReference(handle);
#if !defined(_WIN32)
    // Natively the file is gone at once; on Windows the section lives while mapped.
    EXPECT_FALSE(Section::open(name, 4096).valid());
#endif
  }
  EXPECT_FALSE(Section::open(name, 4096).valid());
}

TEST(SharingRegistry, GarbageFromAHostileWorkerNeverCrashesAReader) {
  Instance instance;
  std::string error;
  auto writer = Registry::open(instance, &error);
  auto reader = Registry::open(instance, &error);
  ASSERT_TRUE(writer && reader) << error;
  std::vector<uint64_t> handles;
  for (int i = 0; i < 16; i++)
    handles.push_back(writer->create(1, i % 2 ? Kind::Fence : Kind::Texture2D, kFlagLegacyHandle, kDesc, 1024,
                                     i == 3 ? u"named" : nullptr));
  // Random bytes over everything after the header (entries only: the header is checked
  // at open), many rounds; every reader call must stay in bounds and answer something.
  std::mt19937 random(1234);
  const size_t headerBytes = 128;
  for (int round = 0; round < 200; round++) {
    uint8_t* raw = writer->rawData();
    for (int k = 0; k < 64; k++) {
      size_t at = headerBytes + random() % (writer->rawSize() - headerBytes);
      raw[at] = uint8_t(random());
    }
    for (uint64_t h : handles) {
      EntryInfo info;
      LookupError e = reader->lookup(h, info);
      if (e == LookupError::Ok) {
        EXPECT_LE(info.contentBytes, kMaxContentBytes);
        EXPECT_EQ(info.kind, Kind(h & 0xf));
      }
      if (reader->acquireReference(h, Kind::None, true, info) == LookupError::Ok) reader->releaseReference(h);
      reader->tryAcquireKeyedMutex(h, 2, random() % 2);
      if (auto* value = reader->fenceValue(h)) (void)value->load();
    }
    reader->findByName(u"named");
    (void)reader->liveEntries();
    uint64_t fresh = reader->create(2, Kind::Buffer, 0, kDesc, 64, nullptr);
    if (fresh) reader->releaseReference(fresh);
  }
}

TEST(SharingRegistry, InstanceFromEnvironmentKeepsDigitsOnly) {
#if defined(_WIN32)
  _putenv("NPT_SERVER_INSTANCE=12ab34\\..");
#else
  setenv("NPT_SERVER_INSTANCE", "12ab34/..", 1);
#endif
  EXPECT_EQ(Registry::instanceFromEnvironment(), "1234");
}
