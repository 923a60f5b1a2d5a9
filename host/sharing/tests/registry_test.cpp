// SPDX-License-Identifier: MIT
// The sharing registry on its own: handles, references, names, keyed mutexes, copy
// counters, two openers of one instance (as two workers would be), and a hostile
// worker's garbage in the section.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

#if defined(_WIN32)
#include <windows.h>
#else
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "neptune/transport/wait.h"
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
    // Garbage holders name processes that may or may not exist: reclaiming must stay
    // in bounds whatever it finds.
    if (round % 10 == 0) (void)reader->reclaimDeadHolders();
    uint64_t fresh = reader->create(2, Kind::Buffer, 0, kDesc, 64, nullptr);
    if (fresh) reader->releaseReference(fresh);
  }
}

// A hostile worker that keeps rewriting the allocation lock's word with new values (each a
// new "holder", none there long enough to be taken over) holds an honest call for four
// take-over times, then the call goes on. The word is the header's sixth (the fuzzer's
// registry harness writes it at the same offset).
TEST(SharingRegistry, AHostileWorkerRewritingTheLockWordDelaysACallBoundedly) {
  std::vector<uint64_t> memory(Registry::sectionBytes() / sizeof(uint64_t) + 1);
  uint8_t* section = reinterpret_cast<uint8_t*>(memory.data());
  std::string error;
  const auto steal = std::chrono::milliseconds(20);
  auto registry = Registry::attach(section, Registry::sectionBytes(), true, &error,
                                   uint32_t(std::chrono::microseconds(steal).count()));
  ASSERT_TRUE(registry) << error;
  auto* lockWord = reinterpret_cast<std::atomic<uint32_t>*>(section + 20);
  std::atomic<bool> stop{false};
  std::thread hostile([&] {
    for (uint32_t value = 1; !stop; value++) {
      lockWord->store(value | 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  while (lockWord->load() == 0) std::this_thread::yield();
  std::atomic<bool> done{false};
  std::atomic<uint64_t> handle{0};
  const auto start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point ended;
  std::thread honest([&] {
    handle = registry->create(1, Kind::Buffer, 0, kDesc, 64, nullptr);
    ended = std::chrono::steady_clock::now();
    done = true;
  });
  const auto patience = start + std::chrono::seconds(10);
  while (!done && std::chrono::steady_clock::now() < patience) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const bool endedWhileHostile = done;
  stop = true;   // without the bound the call ends only now (the same holder for 20 ms)
  hostile.join();
  honest.join();
  ASSERT_TRUE(endedWhileHostile) << "the call waited for the hostile worker for 10 s";
  EXPECT_NE(handle.load(), 0u);
  EXPECT_GE(ended - start, 4 * steal) << "the lock was taken from changing holders at once";
  EntryInfo info;
  EXPECT_EQ(registry->lookup(handle, info), LookupError::Ok);
}

// The sections behind guest NT handles keep an entry live after its last reference (an
// orphan: the creator's context ended while another guest process holds a handle), until
// a guest says the last of them is gone; only a holder adds them, and never below zero.
TEST(SharingRegistry, GuestObjectsKeepAnEntryBeyondItsReferences) {
  Instance instance;
  std::string error;
  auto creator = Registry::open(instance, &error);
  ASSERT_TRUE(creator) << error;
  auto opener = Registry::open(instance, &error);
  ASSERT_TRUE(opener) << error;
  const uint64_t handle = creator->create(1, Kind::Texture2D, kFlagNtHandle, kDesc, 64 * 32 * 4, nullptr);
  ASSERT_NE(handle, 0u);
  EXPECT_TRUE(creator->addGuestObject(handle));
  EXPECT_TRUE(creator->addGuestObject(handle));
  EXPECT_EQ(creator->guestObjects(handle), 2u);
  EXPECT_FALSE(creator->orphaned(handle));

  creator->releaseReference(handle);
  EntryInfo info;
  ASSERT_EQ(opener->lookup(handle, info), LookupError::Ok) << "guest objects still name it";
  EXPECT_TRUE(opener->orphaned(handle));
  EXPECT_EQ(opener->orphans(), std::vector<uint64_t>{handle});
  EXPECT_FALSE(opener->addGuestObject(handle)) << "only a holder adds guest objects";
  ASSERT_EQ(opener->acquireReference(handle, Kind::Texture2D, true, info), LookupError::Ok) << "an orphan opens";
  EXPECT_FALSE(opener->orphaned(handle));
  EXPECT_TRUE(opener->releaseGuestObject(handle));
  EXPECT_TRUE(opener->releaseGuestObject(handle));
  EXPECT_FALSE(opener->releaseGuestObject(handle)) << "never below zero";
  EXPECT_EQ(opener->lookup(handle, info), LookupError::Ok) << "the opener's reference holds it";
  opener->releaseReference(handle);
  EXPECT_EQ(opener->lookup(handle, info), LookupError::NotShared);

  // The last guest object of an orphan frees it.
  const uint64_t second = creator->create(1, Kind::Fence, kFlagNtHandle, nullptr, 0, nullptr);
  ASSERT_TRUE(creator->addGuestObject(second));
  creator->releaseReference(second);
  ASSERT_EQ(opener->lookup(second, info), LookupError::Ok);
  EXPECT_TRUE(opener->releaseGuestObject(second));
  EXPECT_EQ(opener->lookup(second, info), LookupError::NotShared);
  EXPECT_FALSE(opener->releaseGuestObject(second));
  EXPECT_EQ(creator->liveEntries(), 0u);

  // Orphans are bounded: beyond kMaxOrphans an entry goes with its last reference.
  std::vector<uint64_t> handles;
  for (uint32_t i = 0; i <= kMaxOrphans; i++) {
    handles.push_back(creator->create(1, Kind::Buffer, kFlagNtHandle, kDesc, 16, nullptr));
    ASSERT_NE(handles.back(), 0u);
    ASSERT_TRUE(creator->addGuestObject(handles.back()));
  }
  for (uint64_t h : handles) creator->releaseReference(h);
  EXPECT_EQ(creator->orphans().size(), size_t(kMaxOrphans));
  EXPECT_EQ(creator->lookup(handles.back(), info), LookupError::NotShared);
  for (uint64_t h : handles) creator->releaseGuestObject(h);
  EXPECT_EQ(creator->liveEntries(), 0u);
}

// A hostile worker's count: out of bounds is malformed, and its entry goes with its last
// reference instead of staying forever.
TEST(SharingRegistry, AGarbageGuestObjectCountFreesTheEntry) {
  Instance instance;
  std::string error;
  auto registry = Registry::open(instance, &error);
  ASSERT_TRUE(registry) << error;
  const uint64_t handle = registry->create(1, Kind::Buffer, kFlagNtHandle, kDesc, 16, nullptr);
  ASSERT_TRUE(registry->addGuestObject(handle));
  // The count is the second word from the end of its entry record (registry.cpp).
  HandleParts parts;
  ASSERT_TRUE(decodeHandle(handle, parts));
  // The header is smaller than kCapacity bytes: the entry size is what the floor leaves.
  const uint64_t entryBytes = registry->rawSize() / kCapacity;
  const uint64_t headerBytes = registry->rawSize() - entryBytes * kCapacity;
  uint8_t* record = registry->rawData() + headerBytes + parts.index * entryBytes;
  uint32_t* count = reinterpret_cast<uint32_t*>(record + entryBytes - 8);
  ASSERT_EQ(*count, 1u) << "the layout changed: find the count again";
  *count = 0xffffffffu;
  EntryInfo info;
  EXPECT_EQ(registry->lookup(handle, info), LookupError::Malformed);
  EXPECT_FALSE(registry->releaseGuestObject(handle));
  registry->releaseReference(handle);
  EXPECT_EQ(registry->liveEntries(), 0u);
}

// The server process holds an orphan's content section open, so that it outlives the
// context that created it (on Windows a section goes with its last handle).
TEST(SharingRegistry, TheOrphanHolderKeepsAnOrphansContent) {
  Instance instance;
  std::string error;
  auto registry = Registry::open(instance, &error);
  ASSERT_TRUE(registry) << error;
  const uint64_t handle = registry->create(1, Kind::Buffer, kFlagNtHandle, kDesc, 4096, nullptr);
  ASSERT_TRUE(registry->addGuestObject(handle));
  const std::string name = Registry::contentName(instance, handle);
  {
    Section content = Section::create(name, 4096);
    ASSERT_TRUE(content.valid());
    std::memset(content.data(), 0x5a, 4096);
    EXPECT_FALSE(registry->waitUntilServerHolds(handle, 100)) << "no holder runs yet";
    OrphanContentHolder::start(instance);
    registry->releaseReference(handle);
    ASSERT_TRUE(registry->orphaned(handle));
    // The holder registers itself from its thread: until then the wait answers at once.
    bool held = false;
    for (int i = 0; i < 500 && !held; i++) {
      held = registry->waitUntilServerHolds(handle, 100);
      if (!held) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(held);
  }
  Section again = Section::open(name, 4096);
  ASSERT_TRUE(again.valid()) << "the content went with its creator";
  EXPECT_EQ(again.data()[4095], 0x5a);
  again = Section();
  EXPECT_TRUE(registry->releaseGuestObject(handle));
  EXPECT_EQ(registry->liveEntries(), 0u);
#if defined(_WIN32)
  // The holder closes the content of freed entries within a sweep or two.
  bool gone = false;
  for (int i = 0; i < 500 && !gone; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    gone = !Section::open(name, 4096).valid();
  }
  EXPECT_TRUE(gone);
#endif
}

TEST(SharingRegistry, InstanceFromEnvironmentKeepsDigitsOnly) {
#if defined(_WIN32)
  _putenv("NPT_SERVER_INSTANCE=12ab34\\..");
#else
  setenv("NPT_SERVER_INSTANCE", "12ab34/..", 1);
#endif
  EXPECT_EQ(Registry::instanceFromEnvironment(), "1234");
}

TEST(SharingRegistry, ASignalWakesAFenceWaiterInAnotherMapping) {
  Instance instance;
  std::string error;
  auto signaller = Registry::open(instance, &error);
  auto waiter = Registry::open(instance, &error);
  ASSERT_TRUE(signaller && waiter) << error;
  const uint64_t fence = signaller->create(1, Kind::Fence, kFlagNtHandle, nullptr, 0, nullptr);
  ASSERT_NE(fence, 0u);
  // Nothing signalled: the wait sleeps (no busy return) where the system has an address
  // wait across processes.
  const uint32_t quiet = waiter->syncEpoch().load();
  auto start = std::chrono::steady_clock::now();
  waiter->waitForSyncEpoch(quiet, 100000);
  if (npt::transport::address_wait_is_cross_process()) {
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
  }

  std::atomic<bool> sleeping{false};
  std::chrono::steady_clock::time_point woken;
  std::thread thread([&] {
    const uint32_t seen = waiter->syncEpoch().load();
    sleeping = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (waiter->fenceValue(fence)->load() < 7 && std::chrono::steady_clock::now() < deadline)
      waiter->waitForSyncEpoch(seen, 10000000);
    woken = std::chrono::steady_clock::now();
  });
  while (!sleeping) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto signalled = std::chrono::steady_clock::now();
  signaller->setFenceValue(fence, 7);
  thread.join();
  EXPECT_EQ(waiter->fenceValue(fence)->load(), 7u);
  // Woken by the signal, not by the 10 s timeout.
  EXPECT_LT(woken - signalled, std::chrono::seconds(2));
  EXPECT_NE(waiter->syncEpoch().load(), quiet);
}

TEST(SharingRegistry, ASignalMakesAWakeCallOnlyWhenSomeoneSleeps) {
  Instance instance;
  std::string error;
  auto signaller = Registry::open(instance, &error);
  auto waiter = Registry::open(instance, &error);
  ASSERT_TRUE(signaller && waiter) << error;
  const uint64_t fence = signaller->create(1, Kind::Fence, kFlagNtHandle, nullptr, 0, nullptr);
  ASSERT_NE(fence, 0u);

  // Nobody sleeps: the epoch moves, no wake system call. Timed against the same number
  // of wake calls (what every signal cost before sleepers were counted).
  constexpr int kSignals = 20000;
  const uint64_t wakesBefore = signaller->syncWakeCalls();
  const uint32_t epochBefore = signaller->syncEpoch().load();
  auto start = std::chrono::steady_clock::now();
  for (int i = 1; i <= kSignals; i++) signaller->setFenceValue(fence, uint64_t(i));
  const double skippedNs = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(signaller->syncWakeCalls(), wakesBefore);
  EXPECT_EQ(signaller->syncEpoch().load(), epochBefore + kSignals);
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < kSignals; i++) {
    signaller->setFenceValue(fence, uint64_t(i));
    npt::transport::address_wake_all(reinterpret_cast<uint32_t*>(&signaller->syncEpoch()));
  }
  const double wakingNs = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  std::printf("signal without sleepers: %.0f ns; with the wake call every signal made before: %.0f ns (%.1fx)\n",
              skippedNs / kSignals, wakingNs / kSignals, wakingNs / skippedNs);
  RecordProperty("signal_ns_without_wake", int(skippedNs / kSignals));
  RecordProperty("signal_ns_with_wake", int(wakingNs / kSignals));

  // A sleeper (in another mapping) is counted while it sleeps, and the signal wakes it.
  std::chrono::steady_clock::time_point woken;
  std::thread thread([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (waiter->fenceValue(fence)->load() != 1000000 && std::chrono::steady_clock::now() < deadline)
      waiter->waitForSyncEpoch(waiter->syncEpoch().load(), 10000000);
    woken = std::chrono::steady_clock::now();
  });
  const auto patience = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (signaller->syncWaiters() == 0 && std::chrono::steady_clock::now() < patience) std::this_thread::yield();
  EXPECT_EQ(signaller->syncWaiters(), 1u);
  const uint64_t wakesBeforeSleeper = signaller->syncWakeCalls();
  const auto signalled = std::chrono::steady_clock::now();
  signaller->setFenceValue(fence, 1000000);
  thread.join();
  EXPECT_EQ(signaller->syncWakeCalls(), wakesBeforeSleeper + 1);
  EXPECT_LT(woken - signalled, std::chrono::seconds(2));   // the signal woke it, not its timeout
  EXPECT_EQ(signaller->syncWaiters(), 0u);
  // The static form (the server's relay thread) is counted the same way.
  std::thread relay([&] {
    Registry::waitOnSyncEpoch(waiter->syncEpoch(), waiter->syncEpoch().load(), 10000000);
  });
  while (signaller->syncWaiters() == 0 && std::chrono::steady_clock::now() < patience) std::this_thread::yield();
  EXPECT_EQ(signaller->syncWaiters(), 1u);
  signaller->wakeSyncWaiters();
  relay.join();
  EXPECT_EQ(signaller->syncWakeCalls(), wakesBeforeSleeper + 2);
}

// Reclaiming the entries of a worker killed while it held them: the "worker" is a child
// process (fork natively; this test program started again under Wine/Windows) that
// takes a reference to the parent's entry, acquires the parent's keyed mutex, creates
// entries of its own (or fills the table) and is killed without any clean-up.
namespace {

[[noreturn]] void holdEntriesUntilKilled(const std::string& instance, uint64_t parentEntry, uint64_t mutexEntry,
                                         bool fillTable) {
  std::string error;
  auto registry = Registry::open(instance, &error);
  if (!registry) std::_Exit(2);
  EntryInfo info;
  if (registry->acquireReference(parentEntry, Kind::None, true, info) != LookupError::Ok) std::_Exit(3);
  if (mutexEntry && registry->tryAcquireKeyedMutex(mutexEntry, 77, 0) != AcquireResult::Acquired) std::_Exit(4);
  const uint64_t shared = registry->create(5, Kind::Texture2D, kFlagLegacyHandle, kDesc, 1024, u"held-by-child");
  const uint64_t own = registry->create(5, Kind::Fence, kFlagNtHandle, nullptr, 0, nullptr);
  if (fillTable)
    while (registry->create(5, Kind::Fence, 0, nullptr, 0, nullptr)) {
    }
  // The parent reads the child's handles from its own entry's words; the fence value last.
  registry->contentVersion(parentEntry)->store(own);
  registry->setFenceValue(parentEntry, shared);
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

const char kChildVariable[] = "NPT_TEST_SHARING_HOLDER";

struct Child {
#if defined(_WIN32)
  PROCESS_INFORMATION process{};
#else
  pid_t pid = -1;
#endif
  bool started = false;

  void start(const std::string& instance, uint64_t parentEntry, uint64_t mutexEntry, bool fillTable) {
#if defined(_WIN32)
    char value[128];
    std::snprintf(value, sizeof(value), "%s %llu %llu %d", instance.c_str(), (unsigned long long)parentEntry,
                  (unsigned long long)mutexEntry, fillTable ? 1 : 0);
    SetEnvironmentVariableA(kChildVariable, value);
    char exe[MAX_PATH];
    GetModuleFileNameA(nullptr, exe, MAX_PATH);
    std::string commandLine = std::string("\"") + exe +
                              "\" --gtest_also_run_disabled_tests --gtest_filter=SharingRegistryChild.DISABLED_HoldsEntriesUntilKilled";
    // The child's GoogleTest lines would mix with this test's output: they go nowhere.
    SECURITY_ATTRIBUTES inherit{sizeof(inherit), nullptr, TRUE};
    HANDLE nul = CreateFileA("NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, nullptr);
    STARTUPINFOA startup{sizeof(startup)};
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdOutput = nul;
    startup.hStdError = nul;
    started = CreateProcessA(exe, commandLine.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &startup, &process);
    if (nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
    SetEnvironmentVariableA(kChildVariable, nullptr);
#else
    pid = fork();
    if (pid == 0) holdEntriesUntilKilled(instance, parentEntry, mutexEntry, fillTable);
    started = pid > 0;
#endif
  }

  // Killed as a crashing or terminated worker is: no destructor, no clean-up.
  void kill() {
#if defined(_WIN32)
    TerminateProcess(process.hProcess, 9);
    WaitForSingleObject(process.hProcess, 10000);
    CloseHandle(process.hProcess);
    CloseHandle(process.hThread);
#else
    ::kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
#endif
    started = false;
  }

  ~Child() {
    if (started) kill();
  }
};

// Waits for the child's handles (the fence value of the parent's entry); 60 s: a Wine
// process start takes seconds on a loaded machine.
bool childHandles(Registry& registry, uint64_t parentEntry, uint64_t& shared, uint64_t& own) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    shared = registry.fenceValue(parentEntry)->load();
    if (shared) {
      own = registry.contentVersion(parentEntry)->load();
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

// The child's side of the two tests below (run only when they start it).
TEST(SharingRegistryChild, DISABLED_HoldsEntriesUntilKilled) {
#if defined(_WIN32)
  const char* value = std::getenv(kChildVariable);
  if (!value) GTEST_SKIP() << "started by the reclaim tests only";
  char instance[64] = {};
  unsigned long long parentEntry = 0, mutexEntry = 0;
  int fillTable = 0;
  ASSERT_EQ(std::sscanf(value, "%63s %llu %llu %d", instance, &parentEntry, &mutexEntry, &fillTable), 4);
  holdEntriesUntilKilled(instance, parentEntry, mutexEntry, fillTable != 0);
#else
  GTEST_SKIP() << "natively the child is forked";
#endif
}

TEST(SharingRegistry, AKilledWorkersEntriesComeBackOthersStay) {
  Instance instance;
  std::string error;
  auto parent = Registry::open(instance, &error);
  ASSERT_TRUE(parent) << error;
  const uint64_t mine = parent->create(1, Kind::Buffer, kFlagLegacyHandle, kDesc, 64, nullptr);
  const uint64_t mutex = parent->create(1, Kind::Texture2D, kFlagKeyedMutex | kFlagLegacyHandle, kDesc, 256, nullptr);
  const uint64_t bystander = parent->create(1, Kind::Fence, kFlagNtHandle, nullptr, 0, u"bystander");
  ASSERT_TRUE(mine && mutex && bystander);

  Child child;
  child.start(instance, mine, mutex, false);
  ASSERT_TRUE(child.started);
  uint64_t shared = 0, own = 0;
  ASSERT_TRUE(childHandles(*parent, mine, shared, own));
  EntryInfo info;
  ASSERT_EQ(parent->lookup(shared, info), LookupError::Ok);
  ASSERT_EQ(parent->lookup(own, info), LookupError::Ok);
  // The parent holds the child's shared texture too: it must outlive the child.
  ASSERT_EQ(parent->acquireReference(shared, Kind::Texture2D, false, info), LookupError::Ok);
  ASSERT_EQ(parent->holders(own).size(), 1u);
  const ProcessIdentity childIdentity = parent->holders(own)[0];
  EXPECT_NE(childIdentity, currentProcess());
  EXPECT_TRUE(processAlive(childIdentity));
  EXPECT_EQ(parent->holders(shared).size(), 2u);
  EXPECT_EQ(parent->holders(mine).size(), 2u);
  EXPECT_EQ(parent->liveEntries(), 5u);
  EXPECT_EQ(parent->tryAcquireKeyedMutex(mutex, 1, 0), AcquireResult::WrongKeyOrOwned);   // the child has it

  // While the child runs nothing is reclaimed.
  Reclaimed none = parent->reclaimDeadHolders();
  EXPECT_EQ(none.deadProcesses, 0u);
  EXPECT_EQ(parent->liveEntries(), 5u);

  child.kill();
  EXPECT_FALSE(processAlive(childIdentity));
  // The next context that opens the registry (a new worker) takes back what the dead
  // one held.
  auto next = Registry::open(instance, &error);
  ASSERT_TRUE(next) << error;
  EXPECT_EQ(next->lookup(own, info), LookupError::NotShared);   // only the child held it
  EXPECT_EQ(next->lookup(shared, info), LookupError::Ok);       // the parent's reference remains
  EXPECT_EQ(next->findByName(u"held-by-child"), shared);
  EXPECT_EQ(next->lookup(mine, info), LookupError::Ok);
  EXPECT_EQ(next->lookup(bystander, info), LookupError::Ok);
  EXPECT_EQ(next->liveEntries(), 4u);
  ASSERT_EQ(next->holders(shared).size(), 1u);
  EXPECT_EQ(next->holders(shared)[0], currentProcess());
  // Its keyed mutex is abandoned, as Windows reports a mutex whose owner died.
  EXPECT_EQ(parent->tryAcquireKeyedMutex(mutex, 1, 0), AcquireResult::Abandoned);
  // Nothing more to take back.
  Reclaimed again = parent->reclaimDeadHolders();
  EXPECT_EQ(again.deadProcesses, 0u);
  EXPECT_EQ(again.freedEntries, 0u);

  // The counts are right: one release each frees the parent's entries.
  parent->releaseReference(mine);
  EXPECT_EQ(parent->lookup(mine, info), LookupError::NotShared);
  parent->releaseReference(shared);
  EXPECT_EQ(parent->lookup(shared, info), LookupError::NotShared);
  EXPECT_EQ(parent->lookup(bystander, info), LookupError::Ok);
}

TEST(SharingRegistry, AFullTableTakesBackADeadWorkersEntries) {
  Instance instance;
  std::string error;
  auto parent = Registry::open(instance, &error);
  ASSERT_TRUE(parent) << error;
  const uint64_t mine = parent->create(1, Kind::Buffer, kFlagLegacyHandle, kDesc, 64, nullptr);
  ASSERT_NE(mine, 0u);
  Child child;
  child.start(instance, mine, 0, true);
  ASSERT_TRUE(child.started);
  uint64_t shared = 0, own = 0;
  ASSERT_TRUE(childHandles(*parent, mine, shared, own));
  EXPECT_EQ(parent->liveEntries(), kCapacity);
  // The child lives: the table is full.
  EXPECT_EQ(parent->create(1, Kind::Fence, 0, nullptr, 0, nullptr), 0u);
  child.kill();
  // Dead: creating takes its entries back (the reclaim reports what it found).
  const uint64_t fresh = parent->create(1, Kind::Fence, 0, nullptr, 0, nullptr);
  EXPECT_NE(fresh, 0u);
  EXPECT_EQ(parent->liveEntries(), 2u);
  EntryInfo info;
  EXPECT_EQ(parent->lookup(mine, info), LookupError::Ok);
  parent->releaseReference(mine);
  EXPECT_EQ(parent->lookup(mine, info), LookupError::NotShared);
}

#if !defined(_WIN32)

namespace {

std::string shmFile(const std::string& name) { return "/dev/shm/" + name; }
bool shmExists(const std::string& name) { return ::access(shmFile(name).c_str(), F_OK) == 0; }

// Sets a file's modification time an hour back (a crashed server's files are old).
void age(const std::string& name) {
  struct timespec times[2];
  times[0].tv_sec = times[1].tv_sec = std::time(nullptr) - 3600;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  ASSERT_EQ(::utimensat(AT_FDCWD, shmFile(name).c_str(), times, 0), 0) << name;
}

}  // namespace

TEST(SharingRegistry, FilesOfEndedServersAreRemovedByTheNextInstance) {
  // Instances no process has (as a crashed server's): a registry and a content file
  // nobody has open any more.
  Instance crashed, held, young, killed;
  const std::string crashedRegistry = Registry::registryName(crashed);
  const std::string crashedContent = Registry::contentName(crashed, encodeHandle(Kind::Texture2D, 3, 2));
  { ASSERT_TRUE(Section::create(crashedRegistry, 4096).valid()); }
  { ASSERT_TRUE(Section::create(crashedContent, 64).valid()); }
  age(crashedRegistry);
  age(crashedContent);
  // A name of another shape with the same prefix is not ours to remove.
  const std::string other = crashedRegistry + "-other";
  { ASSERT_TRUE(Section::create(other, 64).valid()); }
  age(other);
  // Open in this process (its lock held): kept however old.
  Section open = Section::create(Registry::registryName(held), 4096);
  ASSERT_TRUE(open.valid());
  age(Registry::registryName(held));
  // Unused but just made (its creator may not hold its lock yet): kept.
  { ASSERT_TRUE(Section::create(Registry::registryName(young), 4096).valid()); }
  // Held by a process that was killed: its lock went with it.
  const std::string killedRegistry = Registry::registryName(killed);
  const pid_t child = fork();
  if (child == 0) {
    Section section = Section::create(killedRegistry, 4096);
    if (!section.valid()) _exit(1);
    for (;;) pause();
  }
  ASSERT_GT(child, 0);
  for (int i = 0; i < 500 && !shmExists(killedRegistry); i++) usleep(2000);
  usleep(20000);   // the child takes its lock right after creating the file
  age(killedRegistry);
  EXPECT_FALSE(Section::removeIfUnused(killedRegistry, 60)) << "the child still holds it";
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);

  // The next instance's registry removes what ended servers left.
  Instance next;
  std::string error;
  auto registry = Registry::open(next, &error);
  ASSERT_TRUE(registry) << error;
  EXPECT_FALSE(shmExists(crashedRegistry));
  EXPECT_FALSE(shmExists(crashedContent));
  EXPECT_FALSE(shmExists(killedRegistry));
  EXPECT_TRUE(shmExists(other));
  EXPECT_TRUE(shmExists(Registry::registryName(held)));
  EXPECT_TRUE(shmExists(Registry::registryName(young)));
  // The section kept open still works.
  open.data()[0] = 7;
  EXPECT_EQ(open.data()[0], 7);
  Section::unlinkName(other);
}

#endif
