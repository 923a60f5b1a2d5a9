// SPDX-License-Identifier: MIT
#pragma once

// The cross-context sharing registry: shared resources, shared fences and
// keyed mutexes of every context of one server instance. It lives in a named section,
// `Local\neptune-<instance>-sharing` (Windows build) or `/dev/shm/neptune-<instance>-sharing`
// (native), created by whichever executor needs it first and opened by the others, so it
// works whether contexts are threads of one server process or worker processes.
//
// Everything in the section is written by host code, but a worker may be hostile or
// crash half-way: every reader validates what it reads (entry state, generation, kind,
// sizes, name terminator) and nothing read from the section ever indexes memory unchecked.
// The content of a shared resource lives in a section of its own, named from the entry's
// index and generation (never from bytes in the registry).
//
// Handles (what GetSharedHandle/CreateSharedHandle return to the guest; protocol/README.md
// section 14): bit 30 set, bits 0-3 the kind (the guest picks the interface it opens with
// from them), bits 4-13 the entry index, bits 14-29 the entry's generation. A handle names
// exactly one allocation of one entry: once the entry is freed, the handle stays invalid.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "npt/sharing/process.h"

namespace npt::sharing {

enum class Kind : uint32_t { None = 0, Buffer = 1, Texture2D = 3, Fence = 8 };

// Entry flags.
constexpr uint32_t kFlagNtHandle = 1;     // created by CreateSharedHandle (opened by OpenSharedResource1/ByName)
constexpr uint32_t kFlagKeyedMutex = 2;   // D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX
constexpr uint32_t kFlagNamed = 4;        // has a name (OpenSharedResourceByName)
constexpr uint32_t kFlagLegacyHandle = 8; // GetSharedHandle was called

constexpr uint32_t kCapacity = 256;        // entries per instance (bounded table)
constexpr uint32_t kNameUnits = 64;        // UTF-16 units of a name, terminator included
constexpr uint32_t kDescWords = 12;        // the resource desc, as the executor flattens it
constexpr uint64_t kMaxContentBytes = 1ull << 30;
constexpr uint32_t kHolders = 16;          // processes holding references to one entry
constexpr uint32_t kMaxOrphans = 32;       // entries kept by guest handles alone (beyond: freed)

struct HandleParts {
  Kind kind = Kind::None;
  uint32_t index = 0;
  uint32_t generation = 0;
};
uint64_t encodeHandle(Kind kind, uint32_t index, uint32_t generation);
// False for anything that is not a well-formed handle (the entry is not looked at).
bool decodeHandle(uint64_t handle, HandleParts& parts);

// A snapshot of one entry, validated (Registry::lookup).
struct EntryInfo {
  uint64_t handle = 0;
  Kind kind = Kind::None;
  uint32_t flags = 0;
  uint32_t ownerContext = 0;
  uint32_t desc[kDescWords] = {};
  uint64_t contentBytes = 0;
};

struct CopyCounters {
  uint64_t copies = 0;   // CPU copies between a backend resource and a content section
  uint64_t bytes = 0;
};

enum class LookupError { Ok, BadHandle, NotShared, WrongKind, NeedsNtOpen, Malformed, TooManyHolders };
const char* lookupErrorName(LookupError error);

enum class AcquireResult { Acquired, WrongKeyOrOwned, Abandoned, BadHandle };

// What Registry::reclaimDeadHolders took back.
struct Reclaimed {
  uint32_t deadProcesses = 0;   // holders found not running
  uint32_t references = 0;      // their references dropped
  uint32_t freedEntries = 0;    // entries whose last reference was theirs
  uint32_t abandonedMutexes = 0;
};

// A named shared-memory section.
class Section {
public:
  Section() = default;
  ~Section();
  Section(Section&& other) noexcept;
  Section& operator=(Section&& other) noexcept;
  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;

  // create: creates or opens (created reports which); open: existing only. Native
  // names are /dev/shm files; Windows names are `Local\...` mappings.
  static Section create(const std::string& name, uint64_t size, bool* created = nullptr);
  static Section open(const std::string& name, uint64_t size);
  // Native only: removes the name (the mapping stays valid).
  static void unlinkName(const std::string& name);
  // Native only: removes the name when no process has the section open (every Section
  // holds a shared lock on its file while it lives; a crashed process's lock is gone
  // with it) and it was last modified `minAgeSeconds` ago or earlier. True if removed.
  static bool removeIfUnused(const std::string& name, int64_t minAgeSeconds);

  uint8_t* data() const { return m_data; }
  uint64_t size() const { return m_size; }
  bool valid() const { return m_data != nullptr; }

private:
  void close();
  uint8_t* m_data = nullptr;
  uint64_t m_size = 0;
  void* m_handle = nullptr;   // Windows: the mapping handle
  int m_fd = -1;              // native: the file, holding a shared lock while mapped
};

struct EntryRecord;
struct RegistryHeader;

// The words the instance's sleepers use (in the registry header): the epoch, bumped at
// every shared fence change and keyed-mutex release, and how many threads sleep on it
// now (a writer makes the wake system call only when some do).
struct SyncWords {
  std::atomic<uint32_t> epoch;
  std::atomic<uint32_t> waiters;
};
static_assert(std::is_standard_layout_v<SyncWords>, "the epoch's address converts to its SyncWords");

class Registry;

// Holds the content sections of orphaned entries open in the process that runs it (the
// server: on Windows a section vanishes with its last handle, so an orphan's content would
// go with the worker of its creator). One thread: every 20 ms it opens the content of new
// orphans (and marks them held) and closes the content of entries no longer live.
class OrphanContentHolder {
public:
  static void start(const std::string& instance);   // once per process; later calls do nothing
};

class Registry {
public:
  // NPT_SERVER_INSTANCE, else this process's id.
  static std::string instanceFromEnvironment();
  static std::string registryName(const std::string& instance);
  static std::string contentName(const std::string& instance, uint64_t handle);

  // Opens the instance's registry, creating it if needed (create false: null without an
  // error when there is none). Null (error set) when the section cannot be created or
  // holds something else. Opening an existing registry with create (what contexts do)
  // reclaims the references of processes that died holding them.
  static std::unique_ptr<Registry> open(const std::string& instance, std::string* error, bool create = true);
  // Tests and fuzzing: a registry over memory the caller owns instead of a named section
  // (so no other process can see it), at least sectionBytes() long, 8-byte aligned, and
  // outliving the registry. initialize: write a fresh header first (as the creator of a
  // section does); else the header there must be valid (as for an opener). It has no
  // instance, so it names and unlinks no content files. lockStealUs: how long one holder
  // of the allocation lock is waited for before it is taken over (production: 250 ms; the
  // fuzzer shortens it so that a lock word left set by a hostile worker costs it little).
  static std::unique_ptr<Registry> attach(uint8_t* memory, uint64_t size, bool initialize, std::string* error,
                                          uint32_t lockStealUs = 250000);
  static uint64_t sectionBytes();   // the size of a registry section
  // Native only: removes the registry and content files of server instances that ended
  // without removing them (crashed or killed servers): files of an instance whose process
  // no longer runs, that no process has open, last modified a minute ago or earlier.
  // Called by open() when it creates an instance's registry. Returns how many it removed.
  static uint32_t removeStaleSections();

  ~Registry();

  const std::string& instance() const { return m_instance; }

  // A new entry (one reference: the creator's). name: UTF-16, may be null. Returns 0 when
  // the table is full or the name is taken (nameTaken set).
  uint64_t create(uint32_t context, Kind kind, uint32_t flags, const uint32_t* desc, uint64_t contentBytes,
                  const char16_t* name, bool* nameTaken = nullptr);
  // Adds flags to a live entry (e.g. a legacy handle is handed out).
  void addFlags(uint64_t handle, uint32_t flags);
  // Validates a handle for opening and takes a reference on success.
  LookupError acquireReference(uint64_t handle, Kind expected, bool ntOpen, EntryInfo& info);
  // Validates a handle without taking a reference.
  LookupError lookup(uint64_t handle, EntryInfo& info);
  // Drops a reference of this process; the entry is freed with the last one.
  void releaseReference(uint64_t handle);
  // References are counted per holding process (pid and start time, at most kHolders
  // processes per entry). Drops those of every process that no longer runs, frees the
  // entries left without references and abandons keyed mutexes such a process held
  // (the next AcquireSync answers WAIT_ABANDONED). Called by `open`, by `create` when the
  // table is full, and by the server when a worker dies.
  Reclaimed reclaimDeadHolders();
  // The processes holding references to a live entry (diagnostics, tests); empty for a
  // handle that is not live. A snapshot: the words may change meanwhile.
  std::vector<ProcessIdentity> holders(uint64_t handle) const;
  // Guest kernel objects naming an entry (the sections behind NT handles, host/sharing/
  // README.md "Handles"): the entry stays live while any does, also after its last
  // reference is dropped (an orphan, at most kMaxOrphans per instance; beyond that it is
  // freed with its last reference, as before). addGuestObject: false for an entry that
  // is not live or holds no reference (only a holder may add). releaseGuestObject: false
  // when none is counted; frees an orphan with its last one.
  bool addGuestObject(uint64_t handle);
  bool releaseGuestObject(uint64_t handle);
  uint32_t guestObjects(uint64_t handle) const;
  // Live entries without references (kept by guest objects alone).
  std::vector<uint64_t> orphans() const;
  bool orphaned(uint64_t handle) const;
  // The server process holds an orphan's content section open (Windows: a section lives
  // while a process has it open); whoever drops the last reference on Windows waits for
  // that before closing its own (bounded; false: not held in time, or no longer live).
  // Without a live registered holder process, waitUntilServerHolds answers false at once.
  void markServerHeld(uint64_t handle);
  void registerOrphanHolder();   // this process holds orphans' content (OrphanContentHolder)
  bool waitUntilServerHolds(uint64_t handle, uint32_t timeoutMs);
  // The handle of a named live entry, or 0.
  uint64_t findByName(const char16_t* name);

  // Per-entry words (null for a handle that is not live). Atomic in shared memory.
  std::atomic<uint64_t>* fenceValue(uint64_t handle);
  std::atomic<uint64_t>* contentVersion(uint64_t handle);

  // Wakeups: every change of a shared fence value and every keyed-mutex release bumps the
  // instance's synchronization epoch and wakes whoever sleeps on it (a futex natively and
  // under Wine on Linux; on Windows proper the wait is a sleep of at most 1 ms,
  // transport/wait.h), so a waiting context sleeps instead of polling. Sleepers are
  // counted: with none, a bump makes no system call.
  void setFenceValue(uint64_t handle, uint64_t value);   // store, then wakeSyncWaiters
  void wakeSyncWaiters();
  std::atomic<uint32_t>& syncEpoch() const;
  // Sleeps until the epoch is no longer `seen` (or timeoutUs pass, or a spurious wakeup).
  void waitForSyncEpoch(uint32_t seen, uint32_t timeoutUs) const;
  // The same for a holder of the epoch's address only (a registry's syncEpoch(); the
  // server's fence relay thread): every sleeper must be counted, so none may sleep on
  // the word with a plain address wait.
  static void waitOnSyncEpoch(const std::atomic<uint32_t>& epoch, uint32_t seen, uint32_t timeoutUs);
  uint32_t syncWaiters() const;       // sleeping now (tests)
  uint64_t syncWakeCalls() const;     // wake system calls made so far (tests, diagnostics)

  // Keyed mutex of an entry. context != 0. The owner's process is recorded so that the
  // mutex of a process that died holding it is abandoned (reclaimDeadHolders).
  AcquireResult tryAcquireKeyedMutex(uint64_t handle, uint32_t context, uint64_t key);
  // False if `context` does not own it. Wakes the sync epoch's sleepers.
  bool releaseKeyedMutex(uint64_t handle, uint32_t context, uint64_t key);
  // The owner went away: the next acquirer gets WAIT_ABANDONED.
  void abandonKeyedMutex(uint64_t handle, uint32_t context);

  void countCopy(uint64_t handle, uint64_t bytes);
  CopyCounters copyCounters() const;                 // every entry of the instance
  CopyCounters copyCounters(uint64_t handle) const;  // one entry
  uint32_t liveEntries() const;

  // Tests: the raw section (to corrupt it as a hostile worker would).
  uint8_t* rawData() const { return reinterpret_cast<uint8_t*>(m_header); }
  uint64_t rawSize() const { return sectionBytes(); }

private:
  Registry() = default;
  EntryRecord* entry(uint64_t handle, HandleParts* parts = nullptr) const;
  uint64_t createOnce(uint32_t context, Kind kind, uint32_t flags, const uint32_t* desc, uint64_t contentBytes,
                      const char16_t* name, bool* nameTaken);
  void lock();
  void unlock();
  // Under the lock: frees an entry (its content name is unlinked by the caller).
  void freeLocked(EntryRecord& entry);
  bool keepsOrphanLocked(const EntryRecord& entry) const;
  // Removes the content file of a freed entry's handle (natively; nothing for an attached
  // registry, which has no instance and so no content files).
  void unlinkContent(uint64_t handle) const;

  std::string m_instance;
  Section m_section;
  RegistryHeader* m_header = nullptr;
  EntryRecord* m_entries = nullptr;
  uint32_t m_lockToken = 0;
  std::chrono::microseconds m_lockSteal{250000};   // open: 250 ms (registry.cpp, kLockSteal)
};

}  // namespace npt::sharing
