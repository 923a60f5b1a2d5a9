// SPDX-License-Identifier: MIT
// (f) The sharing registry (host/sharing) of an honest worker, over a section a hostile
// worker of the same server instance writes as it likes: an initial image from the bytes,
// then honest calls through the public API interleaved with hostile writes, some of them
// made by a second thread while an honest call runs (registry_input.h).
//
// The section is private heap memory of exactly the registry's size (Registry::attach):
// ASan reports any access past it, and no other process sees it.
//
// What must hold whatever the section holds (registry.h): no crash, no access outside the
// section, no endless loop (libFuzzer's -timeout), every handle the registry hands out is
// well formed and of the kind asked, and lookup/acquireReference answer Ok only with a
// snapshot that passes the registry's own validation. When nothing writes the section
// during a call ("quiet"), also what each call promises: a created entry is exactly what
// was asked (one reference, this process its only holder), a free entry is found when
// one exists, the lock is free again after every call, read-only calls answer the same
// twice, counters move by what the call adds, an Ok lookup's entry is in bounds as the
// section holds it, an orphan handed out is an orphan, and reclaiming never drops this
// (live) process's own holder records.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "npt/sharing/registry.h"
#include "registry_input.h"

namespace npt::fuzz {

namespace {

using namespace npt::sharing;

// Where the harness reads the section itself (registry.cpp's RegistryHeader and
// EntryRecord; checked once per process against what the registry writes, selfCheck).
constexpr size_t kLockOffset = 20;                 // header: magic, version, capacity, entrySize, ready, lock
constexpr size_t kStateOffset = 0, kGenerationOffset = 4, kKindOffset = 8, kFlagsOffset = 12;
constexpr size_t kReferencesOffset = 20, kContentBytesOffset = 24, kNameOffset = 80;
constexpr size_t kGuestObjectsFromEnd = 8;
constexpr uint32_t kMaxCount = 1u << 20;           // references and guest objects (registry.cpp)
constexpr uint32_t kLockStealUs = 200;   // one honest thread here: nobody live holds it that long

struct Reader {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  bool done() const { return pos >= size; }
  uint64_t take(size_t bytes) {
    uint64_t value = 0;
    for (size_t i = 0; i < bytes; i++)
      value |= uint64_t(pos < size ? data[pos++] : 0) << (8 * i);
    return value;
  }
  uint8_t u8() { return uint8_t(take(1)); }
  uint16_t u16() { return uint16_t(take(2)); }
  uint32_t u32() { return uint32_t(take(4)); }
  uint64_t u64() { return take(8); }
};

class Run {
public:
  Run(std::vector<uint64_t>& words) : m_memory(reinterpret_cast<uint8_t*>(words.data())), m_size(words.size() * 8) {
    m_entryBytes = m_size / kCapacity;
    m_headerBytes = m_size - m_entryBytes * kCapacity;
  }

  std::string broken;
  uint32_t code = 0;

  bool attach(bool asOpener) {
    std::string error;
    m_registry = Registry::attach(m_memory, m_size, !asOpener, &error, kLockStealUs);
    if (!m_registry) {
      code = 1;
      return false;
    }
    if (m_registry->rawData() != m_memory || m_registry->rawSize() != m_size)
      return fail("rawData/rawSize are not the attached memory");
    return true;
  }

  Registry& registry() { return *m_registry; }

  uint32_t word(size_t offset) const {
    uint32_t value;
    std::memcpy(&value, m_memory + offset, 4);
    return value;
  }
  uint64_t word64(size_t offset) const {
    uint64_t value;
    std::memcpy(&value, m_memory + offset, 8);
    return value;
  }
  size_t entryOffset(uint32_t index) const { return m_headerBytes + size_t(index) * m_entryBytes; }
  uint32_t lockWord() const { return word(kLockOffset); }
  bool anyFree() const {
    for (uint32_t i = 0; i < kCapacity; i++)
      if (word(entryOffset(i) + kStateOffset) == 0) return true;
    return false;
  }
  uint32_t liveCount() const {
    uint32_t n = 0;
    for (uint32_t i = 0; i < kCapacity; i++) n += word(entryOffset(i) + kStateOffset) == 1;
    return n;
  }

  // The honest worker's own process identity, as the registry records holders.
  static bool isSelf(const ProcessIdentity& identity) { return identity == currentProcess(); }

  bool fail(const std::string& what) {
    if (broken.empty()) broken = what;
    return false;
  }

  // ---- checks that hold whatever the section holds, also during hostile writes ----

  bool wellFormed(uint64_t handle, Kind kind, const char* who) {
    if (!handle) return true;
    HandleParts parts;
    if (!decodeHandle(handle, parts))
      return fail(std::string(who) + " handed out a malformed handle " + std::to_string(handle));
    if (kind != Kind::None && parts.kind != kind)
      return fail(std::string(who) + " handed out a handle of another kind");
    return true;
  }

  bool validSnapshot(uint64_t handle, const EntryInfo& info, const char* who) {
    HandleParts parts;
    if (!decodeHandle(handle, parts)) return fail(std::string(who) + " answered Ok for a malformed handle");
    if (info.handle != handle) return fail(std::string(who) + " answered Ok with another handle");
    if (info.kind != parts.kind) return fail(std::string(who) + " answered Ok with another kind than the handle's");
    if (info.contentBytes > kMaxContentBytes) return fail(std::string(who) + " answered Ok with content over 1 GiB");
    return true;
  }

  bool inSection(const void* pointer, size_t bytes, const char* who) {
    if (!pointer) return true;
    const auto* p = static_cast<const uint8_t*>(pointer);
    if (p < m_memory || p + bytes > m_memory + m_size || reinterpret_cast<uintptr_t>(p) % bytes)
      return fail(std::string(who) + " returned a word outside the section or misaligned");
    return true;
  }

  bool live(uint64_t handle) { return m_registry->fenceValue(handle) != nullptr; }

  // ---- quiet checks: the section as an Ok lookup left it passes validation ----

  bool entryInBounds(uint64_t handle, const char* who) {
    HandleParts parts;
    decodeHandle(handle, parts);
    const size_t at = entryOffset(parts.index);
    const uint32_t references = word(at + kReferencesOffset);
    const uint32_t objects = word(at + m_entryBytes - kGuestObjectsFromEnd);
    if (word(at + kStateOffset) != 1 || word(at + kGenerationOffset) != parts.generation ||
        word(at + kKindOffset) != uint32_t(parts.kind))
      return fail(std::string(who) + " answered Ok for an entry the handle does not name");
    if (references > kMaxCount || objects > kMaxCount || (!references && !objects))
      return fail(std::string(who) + " answered Ok for an entry with out-of-bounds counts");
    if (word64(at + kContentBytesOffset) > kMaxContentBytes)
      return fail(std::string(who) + " answered Ok for an entry with content over 1 GiB");
    if (word(at + kFlagsOffset) & kFlagNamed) {
      bool terminated = false;
      for (uint32_t i = 0; i < kNameUnits && !terminated; i++) {
        char16_t unit;
        std::memcpy(&unit, m_memory + at + kNameOffset + 2 * i, 2);
        terminated = unit == 0;
      }
      if (!terminated) return fail(std::string(who) + " answered Ok for a named entry without a terminator");
    }
    return true;
  }

  // Once per process: the offsets above are where the registry writes.
  static bool selfCheck(std::string& error) {
    std::vector<uint64_t> words(Registry::sectionBytes() / 8);
    Run run(words);
    if (!run.attach(false)) {
      error = "attach refused fresh memory";
      return false;
    }
    Registry& r = run.registry();
    const char16_t name[] = u"self-check";
    const uint64_t handle = r.create(7, Kind::Texture2D, kFlagNtHandle, nullptr, 1234, name);
    HandleParts parts;
    if (!decodeHandle(handle, parts) || !r.addGuestObject(handle)) {
      error = "the self-check's entry was not created";
      return false;
    }
    const size_t at = run.entryOffset(parts.index);
    if (run.word(16) != 1 || run.lockWord() != 0 || run.word(at + kStateOffset) != 1 ||
        run.word(at + kGenerationOffset) != parts.generation || run.word(at + kKindOffset) != uint32_t(Kind::Texture2D) ||
        run.word(at + kFlagsOffset) != (kFlagNtHandle | kFlagNamed) || run.word(at + kReferencesOffset) != 1 ||
        run.word64(at + kContentBytesOffset) != 1234 || run.word(at + run.m_entryBytes - kGuestObjectsFromEnd) != 1 ||
        std::memcmp(run.m_memory + at + kNameOffset, name, sizeof(name)) != 0) {
      error = "the registry's layout changed: update the offsets in registry_harness.cpp";
      return false;
    }
    return true;
  }

  uint8_t* memory() const { return m_memory; }
  size_t size() const { return m_size; }
  size_t entryBytes() const { return m_entryBytes; }

private:
  uint8_t* m_memory;
  size_t m_size;
  size_t m_entryBytes = 0;
  size_t m_headerBytes = 0;
  std::unique_ptr<Registry> m_registry;
};

// A hostile worker writing while an honest call runs: a and b (each repeated over the
// range) in turn, until the call returned or the iterations are spent, so a call sees
// words change between its reads. Bounded, so that a call waiting on the lock word ends
// (the lock is taken over kLockStealUs after the last change).
struct Rewriter {
  uint8_t* at = nullptr;
  std::vector<uint8_t> a, b;
  uint32_t iterations = 0;

  template <class Call>
  void during(Call&& call) const {
    std::atomic<bool> started{false}, stop{false};
    std::thread writer([&] {
      started.store(true, std::memory_order_release);
      for (uint32_t i = 0; i < iterations && !stop.load(std::memory_order_relaxed); i++) {
        const std::vector<uint8_t>& pattern = (i & 1) ? b : a;
        std::memcpy(at, pattern.data(), pattern.size());
        std::atomic_signal_fence(std::memory_order_seq_cst);
      }
    });
    while (!started.load(std::memory_order_acquire)) std::this_thread::yield();
    call();
    stop.store(true, std::memory_order_relaxed);
    writer.join();
  }
};

class Script {
public:
  Script(Run& run, Reader& in) : m_run(run), m_r(run.registry()), m_in(in) {}

  void run() {
    for (uint32_t ops = 0; ops < kMaxOps && !m_in.done() && m_run.broken.empty(); ops++) step(nullptr);
    if (m_run.broken.empty()) sweep();
  }

private:
  // ---- operands ----

  uint64_t handle() {
    const uint8_t s = m_in.u8();
    switch (s % 4) {
      case 0:
        return m_handles.empty() ? 0 : m_handles[(s / 4) % m_handles.size()];
      case 1: {
        const uint32_t index = m_in.u8();
        const size_t at = m_run.entryOffset(index);
        return encodeHandle(Kind(m_run.word(at + kKindOffset) & 0xf), index, m_run.word(at + kGenerationOffset) & 0xffff);
      }
      case 2:
        return m_in.u32();
      default: {
        static const Kind kinds[] = {Kind::Buffer, Kind::Texture2D, Kind::Fence, Kind(5)};
        const uint32_t index = m_in.u8();
        return encodeHandle(kinds[(s / 4) % 4], index, m_in.u16());
      }
    }
  }

  // Null for n == 0; else n % 72 units (a name of 64 or more units is refused by create).
  const char16_t* name(std::u16string& storage) {
    const uint8_t n = m_in.u8();
    if (!n) return nullptr;
    storage.clear();
    for (uint32_t i = 0; i < n % 72u; i++) storage.push_back(char16_t(m_in.u8()));
    return storage.c_str();
  }

  bool live(uint64_t handle) { return m_run.live(handle); }

  // Field by field: EntryInfo has padding.
  static bool sameInfo(const EntryInfo& a, const EntryInfo& b) {
    return a.handle == b.handle && a.kind == b.kind && a.flags == b.flags && a.ownerContext == b.ownerContext &&
           std::memcmp(a.desc, b.desc, sizeof(a.desc)) == 0 && a.contentBytes == b.contentBytes;
  }

  void track(uint64_t handle) {
    if (!handle || std::find(m_handles.begin(), m_handles.end(), handle) != m_handles.end()) return;
    if (m_handles.size() < 64) m_handles.push_back(handle);
    else m_handles[m_next++ % 64] = handle;
  }

  // ---- one operation; rewriter: run the call while it writes (not quiet) ----

  void step(const Rewriter* rewriter) {
    const bool quiet = !rewriter;
    auto call = [&](auto&& f) {
      if (rewriter) rewriter->during(f);
      else f();
    };
    const uint32_t lockBefore = m_run.lockWord();
    bool locks = false;   // the call always takes the allocation lock
    const uint8_t op = m_in.u8() % kOpCount;
    switch (op) {
      case OpCreate: {
        static const Kind kinds[] = {Kind::Buffer, Kind::Texture2D, Kind::Fence, Kind(5)};
        const Kind kind = kinds[m_in.u8() % 4];
        const uint32_t flags = m_in.u8() & 0xf;
        const uint32_t context = m_in.u8();
        uint64_t bytes = m_in.u32();
        if (bytes & 1) bytes = (bytes >> 1) << 2;   // beyond 1 GiB too
        uint32_t desc[kDescWords];
        const uint8_t seed = m_in.u8();
        for (uint32_t i = 0; i < kDescWords; i++) desc[i] = seed * 0x01010101u + i;
        std::u16string storage;
        const char16_t* nm = name(storage);
        // A name counts up to its first zero unit and must have 1..63 units.
        const size_t length = nm ? std::char_traits<char16_t>::length(nm) : 0;
        const bool valid = (kind == Kind::Buffer || kind == Kind::Texture2D || kind == Kind::Fence) &&
                           bytes <= kMaxContentBytes && (!nm || (length > 0 && length < kNameUnits));
        const bool freeBefore = quiet && m_run.anyFree();
        bool taken = false;
        uint64_t h = 0;
        call([&] { h = m_r.create(context, kind, flags, (seed & 1) ? desc : nullptr, bytes, nm, &taken); });
        if (!m_run.wellFormed(h, kind, "create")) return;
        if (h && taken) { m_run.fail("create returned a handle and said the name was taken"); return; }
        if (!valid && h) { m_run.fail("create accepted an invalid kind, size or name"); return; }
        track(h);
        if (!quiet) break;
        if (valid) locks = true;
        if (!h && valid && !taken && freeBefore) { m_run.fail("create found no entry while one was free"); return; }
        if (h) {
          EntryInfo info;
          if (m_r.lookup(h, info) != LookupError::Ok) { m_run.fail("a created entry does not look up"); return; }
          uint32_t expectDesc[kDescWords] = {};
          if (seed & 1) std::memcpy(expectDesc, desc, sizeof(desc));
          if (info.kind != kind || info.flags != (flags | (nm ? kFlagNamed : 0)) || info.ownerContext != context ||
              info.contentBytes != bytes || std::memcmp(info.desc, expectDesc, sizeof(expectDesc)) != 0) {
            m_run.fail("a created entry is not what was asked");
            return;
          }
          const auto holders = m_r.holders(h);
          if (holders.size() != 1 || !Run::isSelf(holders[0])) { m_run.fail("a created entry's holder is not this process alone"); return; }
          if (m_r.guestObjects(h) != 0 || m_r.orphaned(h) || m_r.fenceValue(h)->load() != 0 ||
              m_r.contentVersion(h)->load() != 0 || m_r.copyCounters(h).copies != 0 ||
              m_r.copyCounters(h).bytes != 0) {
            m_run.fail("a created entry kept words of its previous allocation");
            return;
          }
          if (nm && m_r.findByName(nm) != h) { m_run.fail("a created named entry is not found by its name"); return; }
        }
        break;
      }
      case OpAddFlags: {
        const uint64_t h = handle();
        const uint32_t flags = m_in.u8() & 0xf;
        HandleParts parts;
        const bool named = quiet && live(h) && decodeHandle(h, parts);
        const size_t at = named ? m_run.entryOffset(parts.index) + kFlagsOffset : 0;
        const uint32_t before = named ? m_run.word(at) : 0;
        call([&] { m_r.addFlags(h, flags); });
        locks = true;
        if (named && m_run.word(at) != (before | flags)) {
          m_run.fail("addFlags did not add the flags");
          return;
        }
        break;
      }
      case OpAcquireReference: {
        const uint64_t h = handle();
        const uint8_t e = m_in.u8();
        static const Kind kinds[] = {Kind::None, Kind::Buffer, Kind::Texture2D, Kind::Fence};
        const Kind expected = kinds[e % 4];
        const bool nt = e & 4;
        EntryInfo info;
        LookupError error = LookupError::Ok;
        call([&] { error = m_r.acquireReference(h, expected, nt, info); });
        locks = true;
        if (std::string(lookupErrorName(error)) == "?") { m_run.fail("acquireReference: an error outside the enum"); return; }
        if (error != LookupError::Ok) break;
        if (!m_run.validSnapshot(h, info, "acquireReference")) return;
        if (expected != Kind::None && info.kind != expected) { m_run.fail("acquireReference: Ok for another kind"); return; }
        if (info.kind != Kind::Fence && !nt && !(info.flags & kFlagLegacyHandle)) {
          m_run.fail("acquireReference: an NT-only resource opened without an NT open");
          return;
        }
        track(h);
        if (quiet) {
          const auto holders = m_r.holders(h);
          if (std::none_of(holders.begin(), holders.end(), Run::isSelf)) {
            m_run.fail("acquireReference: Ok without this process among the holders");
            return;
          }
        }
        break;
      }
      case OpLookup: {
        const uint64_t h = handle();
        EntryInfo info;
        LookupError error = LookupError::Ok;
        call([&] { error = m_r.lookup(h, info); });
        if (std::string(lookupErrorName(error)) == "?") { m_run.fail("lookup: an error outside the enum"); return; }
        if (error == LookupError::Ok && !m_run.validSnapshot(h, info, "lookup")) return;
        if (quiet) {
          if (error == LookupError::Ok && !m_run.entryInBounds(h, "lookup")) return;
          EntryInfo again;
          const LookupError second = m_r.lookup(h, again);
          if (second != error || (error == LookupError::Ok && !sameInfo(again, info))) {
            m_run.fail("lookup answered differently twice over an unchanged section");
            return;
          }
        }
        break;
      }
      case OpReleaseReference: {
        const uint64_t h = handle();
        call([&] { m_r.releaseReference(h); });
        locks = true;
        break;
      }
      case OpReclaim: {
        if (m_reclaims++ >= kMaxReclaims) break;
        // This process runs: whatever it holds in an entry that stays live, it still holds.
        std::vector<uint64_t> held;
        if (quiet)
          for (uint64_t h : m_handles) {
            const auto holders = m_r.holders(h);
            if (std::any_of(holders.begin(), holders.end(), Run::isSelf)) held.push_back(h);
          }
        Reclaimed result;
        call([&] { result = m_r.reclaimDeadHolders(); });
        if (result.freedEntries > kCapacity || result.abandonedMutexes > kCapacity ||
            result.deadProcesses > kCapacity * (kHolders + 1)) {
          m_run.fail("reclaimDeadHolders counted more than the table holds");
          return;
        }
        for (uint64_t h : held) {
          const auto holders = m_r.holders(h);
          if (live(h) && std::none_of(holders.begin(), holders.end(), Run::isSelf)) {
            m_run.fail("reclaimDeadHolders dropped the holder record of this running process");
            return;
          }
        }
        break;
      }
      case OpHolders: {
        const uint64_t h = handle();
        std::vector<ProcessIdentity> holders;
        call([&] { holders = m_r.holders(h); });
        if (holders.size() > kHolders) { m_run.fail("holders: more than kHolders"); return; }
        if (quiet && m_r.holders(h) != holders) { m_run.fail("holders answered differently twice"); return; }
        break;
      }
      case OpAddGuestObject: {
        const uint64_t h = handle();
        const uint32_t before = quiet ? m_r.guestObjects(h) : 0;
        bool added = false;
        call([&] { added = m_r.addGuestObject(h); });
        locks = true;
        if (quiet && m_r.guestObjects(h) != before + (added ? 1 : 0)) {
          m_run.fail("addGuestObject: the count moved by something else than what it said");
          return;
        }
        if (quiet && added && m_r.guestObjects(h) > kMaxCount) { m_run.fail("addGuestObject: beyond its bound"); return; }
        break;
      }
      case OpReleaseGuestObject: {
        const uint64_t h = handle();
        const uint32_t before = quiet ? m_r.guestObjects(h) : 0;
        bool released = false;
        call([&] { released = m_r.releaseGuestObject(h); });
        locks = true;
        if (quiet) {
          if (released && before == 0) { m_run.fail("releaseGuestObject: released one of none"); return; }
          const uint32_t after = m_r.guestObjects(h);
          if (released ? (live(h) && after != before - 1) : after != before) {
            m_run.fail("releaseGuestObject: the count moved by something else than what it said");
            return;
          }
        }
        break;
      }
      case OpGuestObjects: {
        const uint64_t h = handle();
        bool orphan = false;
        call([&] {
          (void)m_r.guestObjects(h);
          orphan = m_r.orphaned(h);
        });
        if (quiet && orphan && !live(h)) { m_run.fail("orphaned: true for an entry that is not live"); return; }
        break;
      }
      case OpOrphans: {
        std::vector<uint64_t> orphans;
        call([&] { orphans = m_r.orphans(); });
        if (orphans.size() > kCapacity) { m_run.fail("orphans: more than the table holds"); return; }
        for (uint64_t h : orphans) {
          if (!m_run.wellFormed(h, Kind::None, "orphans")) return;
          if (quiet && !m_r.orphaned(h)) { m_run.fail("orphans handed out a handle that is not an orphan"); return; }
          track(h);
        }
        break;
      }
      case OpServerHeld: {
        const uint64_t h = handle();
        // 0 ms, or 1 ms once per input (the wait sleeps in 2 ms steps: slow inputs fuzz little).
        const uint32_t timeout = (m_in.u8() & 1) && !m_waitedForServer++ ? 1 : 0;
        call([&] {
          m_r.markServerHeld(h);
          (void)m_r.waitUntilServerHolds(h, timeout);
        });
        break;
      }
      case OpRegisterOrphanHolder:
        call([&] { m_r.registerOrphanHolder(); });
        break;
      case OpFindByName: {
        std::u16string storage;
        const char16_t* nm = name(storage);
        if (!nm) nm = u"";
        uint64_t h = 0;
        call([&] { h = m_r.findByName(nm); });
        const size_t length = std::char_traits<char16_t>::length(nm);
        locks = length > 0 && length < kNameUnits;
        if (!m_run.wellFormed(h, Kind::None, "findByName")) return;
        if (h && !locks) { m_run.fail("findByName found an invalid name"); return; }
        if (quiet && h && !live(h)) { m_run.fail("findByName handed out a handle of no live entry"); return; }
        track(h);
        break;
      }
      case OpSetFenceValue: {
        const uint64_t h = handle();
        const uint64_t value = m_in.u64();
        const uint32_t epoch = m_r.syncEpoch().load();
        call([&] { m_r.setFenceValue(h, value); });
        if (!m_run.inSection(m_r.fenceValue(h), 8, "fenceValue") ||
            !m_run.inSection(m_r.contentVersion(h), 8, "contentVersion"))
          return;
        if (quiet && live(h) && m_r.fenceValue(h)->load() != value) { m_run.fail("setFenceValue did not store the value"); return; }
        if (quiet && m_r.syncEpoch().load() != epoch + 1) { m_run.fail("setFenceValue did not bump the epoch once"); return; }
        break;
      }
      case OpSyncEpoch: {
        const uint8_t mode = m_in.u8();
        const uint32_t timeout = m_in.u16() % 200;
        const uint32_t waiters = m_r.syncWaiters();
        const uint32_t epoch = m_r.syncEpoch().load();
        const uint64_t calls = m_r.syncWakeCalls();
        if (mode & 1) {
          call([&] { m_r.wakeSyncWaiters(); });
          if (quiet && (m_r.syncEpoch().load() != epoch + 1 || m_r.syncWakeCalls() != calls + (waiters ? 1 : 0))) {
            m_run.fail("wakeSyncWaiters: epoch or wake calls moved wrongly");
            return;
          }
        } else {
          const uint32_t seen = (mode & 2) ? epoch - 1 : epoch;
          call([&] {
            if (mode & 4) Registry::waitOnSyncEpoch(m_r.syncEpoch(), seen, timeout);
            else m_r.waitForSyncEpoch(seen, timeout);
          });
          if (quiet && m_r.syncWaiters() != waiters) { m_run.fail("a sleeper on the epoch was not uncounted"); return; }
        }
        break;
      }
      case OpTryAcquireMutex: {
        const uint64_t h = handle();
        const uint32_t context = m_in.u8();
        const uint64_t key = m_in.u8();
        AcquireResult result = AcquireResult::BadHandle;
        call([&] { result = m_r.tryAcquireKeyedMutex(h, context, key); });
        if (uint32_t(result) > uint32_t(AcquireResult::BadHandle)) { m_run.fail("tryAcquireKeyedMutex: outside the enum"); return; }
        if (!context && result != AcquireResult::BadHandle) { m_run.fail("tryAcquireKeyedMutex: context 0 acquired"); return; }
        if (quiet && result == AcquireResult::Acquired) {
          const uint32_t other = context == 255 ? 1 : context + 1;
          if (m_r.releaseKeyedMutex(h, other, key)) { m_run.fail("a context released a mutex another owns"); return; }
          if (m_r.tryAcquireKeyedMutex(h, other, key) != AcquireResult::WrongKeyOrOwned) {
            m_run.fail("a mutex just acquired was acquired again by another context");
            return;
          }
        }
        break;
      }
      case OpReleaseMutex: {
        const uint64_t h = handle();
        const uint32_t context = m_in.u8();
        const uint64_t key = m_in.u8();
        const uint32_t epoch = m_r.syncEpoch().load();
        bool released = false;
        call([&] { released = m_r.releaseKeyedMutex(h, context, key); });
        if (released && !context) { m_run.fail("releaseKeyedMutex released for context 0"); return; }
        if (quiet && released && !live(h)) { m_run.fail("releaseKeyedMutex released a mutex of no live entry"); return; }
        if (quiet && released && m_r.syncEpoch().load() != epoch + 1) { m_run.fail("a release did not bump the epoch"); return; }
        if (quiet && released && m_r.releaseKeyedMutex(h, context, key)) { m_run.fail("a mutex was released twice"); return; }
        break;
      }
      case OpAbandonMutex: {
        const uint64_t h = handle();
        const uint32_t context = m_in.u8();
        call([&] { m_r.abandonKeyedMutex(h, context); });
        break;
      }
      case OpCountCopy: {
        const uint64_t h = handle();
        const uint64_t bytes = m_in.u32();
        const CopyCounters all = m_r.copyCounters(), one = m_r.copyCounters(h);
        call([&] { m_r.countCopy(h, bytes); });
        if (quiet) {
          const CopyCounters allAfter = m_r.copyCounters(), oneAfter = m_r.copyCounters(h);
          if (allAfter.copies != all.copies + 1 || allAfter.bytes != all.bytes + bytes ||
              (live(h) && (oneAfter.copies != one.copies + 1 || oneAfter.bytes != one.bytes + bytes))) {
            m_run.fail("countCopy: the counters moved wrongly");
            return;
          }
        }
        break;
      }
      case OpLiveEntries: {
        uint32_t n = 0;
        call([&] { n = m_r.liveEntries(); });
        if (n > kCapacity) { m_run.fail("liveEntries: more than the table holds"); return; }
        if (quiet && n != m_run.liveCount()) { m_run.fail("liveEntries: not the live entries of the section"); return; }
        break;
      }
      case OpWrite: {
        const size_t at = m_in.u32() % m_run.size();
        const size_t length = std::min<size_t>(m_in.u8() % 65, m_run.size() - at);
        for (size_t i = 0; i < length; i++) m_run.memory()[at + i] = m_in.u8();
        return;
      }
      case OpWriteEntryWord: {
        const uint32_t index = m_in.u8();
        const size_t word = m_in.u16() % (m_run.entryBytes() / 4);
        const uint32_t value = m_in.u32();
        std::memcpy(m_run.memory() + m_run.entryOffset(index) + 4 * word, &value, 4);
        return;
      }
      case OpConcurrent: {
        Rewriter rewriter;
        const size_t at = m_in.u32() % m_run.size();
        const size_t length = std::min<size_t>(m_in.u16() % 1025, m_run.size() - at);
        auto pattern = [&](std::vector<uint8_t>& out) {
          std::vector<uint8_t> unit(m_in.u8() % 17);
          for (uint8_t& byte : unit) byte = m_in.u8();
          out.resize(length);
          for (size_t i = 0; i < length; i++) out[i] = unit.empty() ? 0 : unit[i % unit.size()];
        };
        pattern(rewriter.a);
        pattern(rewriter.b);
        rewriter.at = m_run.memory() + at;
        // Bounded in bytes written too: a call waiting on a changing lock word waits
        // for the writer (a few milliseconds at most).
        rewriter.iterations = uint32_t(std::min<uint64_t>((uint64_t(m_in.u16()) + 1) * 16, (uint64_t(1) << 24) / (length + 16)));
        if (length == 0) rewriter.iterations = 0;   // nothing to write: the next operation runs alone
        if (m_concurrent++ >= kMaxConcurrent || rewriter.iterations == 0) return;
        step(&rewriter);
        return;
      }
      default:
        return;
    }
    if (!m_run.broken.empty() || !quiet) return;
    // The lock is free after every call that had it free before, and after every call that
    // takes it (a holder seen unchanged for kLockStealUs is taken over, then released).
    if ((lockBefore == 0 || locks) && m_run.lockWord() != 0)
      m_run.fail(std::string("the allocation lock stayed taken after operation ") + std::to_string(op));
  }

  // Every entry as the section names it now: lookups stay in bounds and answer Ok only
  // for entries that pass validation.
  void sweep() {
    for (uint32_t i = 0; i < kCapacity && m_run.broken.empty(); i++) {
      const size_t at = m_run.entryOffset(i);
      const uint64_t h = encodeHandle(Kind(m_run.word(at + kKindOffset) & 0xf), i, m_run.word(at + kGenerationOffset) & 0xffff);
      EntryInfo info;
      if (m_r.lookup(h, info) == LookupError::Ok) {
        if (!m_run.validSnapshot(h, info, "lookup")) return;
        if (!m_run.entryInBounds(h, "lookup")) return;
      }
    }
    if (m_r.liveEntries() != m_run.liveCount()) m_run.fail("liveEntries: not the live entries of the section");
  }

  Run& m_run;
  Registry& m_r;
  Reader& m_in;
  std::vector<uint64_t> m_handles;
  size_t m_next = 0;
  uint32_t m_reclaims = 0;
  uint32_t m_concurrent = 0;
  uint32_t m_waitedForServer = 0;
};

}  // namespace

Outcome runRegistry(const uint8_t* data, size_t size) {
  Outcome out;
  static std::string layoutError;
  static const bool layoutOk = Run::selfCheck(layoutError);
  if (!layoutOk) {
    out.broken = layoutError;
    return out;
  }
  if (size < kRegistryPrefix) return out;
  const uint8_t flags = data[0];
  const size_t length = std::min<size_t>(size_t(data[1]) | size_t(data[2]) << 8, size - kRegistryPrefix);
  const size_t offset = ((size_t(data[3]) | size_t(data[4]) << 8) * 8) % Registry::sectionBytes();
  const uint32_t copies = data[5];

  // Exactly the section's size (a multiple of 8): ASan sees any access past its end.
  std::vector<uint64_t> words(Registry::sectionBytes() / 8, 0);
  Run run(words);
  if (!run.attach(false)) {   // the creator's header, under the image
    out.broken = "attach refused fresh memory";
    return out;
  }
  for (uint32_t copy = 0; copy <= copies; copy++) {
    const size_t at = offset + copy * run.entryBytes();
    if (at >= run.size()) break;
    std::memcpy(run.memory() + at, data + kRegistryPrefix, std::min(length, run.size() - at));
  }
  if (!run.attach(flags & 1)) {
    out.code = run.code;
    out.broken = run.broken;
    return out;
  }
  if (flags & 2) (void)run.registry().reclaimDeadHolders();

  Reader in{data + kRegistryPrefix + length, size - kRegistryPrefix - length};
  Script script(run, in);
  script.run();
  out.broken = run.broken;
  out.accepted = true;
  return out;
}

}  // namespace npt::fuzz
