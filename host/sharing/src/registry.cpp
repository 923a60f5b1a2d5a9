// SPDX-License-Identifier: MIT
// The cross-context sharing registry: layout, locking and validation (registry.h).
#include "npt/sharing/registry.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "neptune/transport/wait.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <unistd.h>
#endif

namespace npt::sharing {

// One process's references to an entry (all its contexts together).
struct HolderRecord {
  std::atomic<uint32_t> pid;          // 0 = unused
  std::atomic<uint32_t> references;
  std::atomic<uint64_t> started;      // ProcessIdentity::started
};

// Every field is host-written, but a hostile or crashed worker may leave anything in
// them: readers check each value before using it.
struct EntryRecord {
  std::atomic<uint32_t> state;        // kFree / kLive
  std::atomic<uint32_t> generation;   // 1..0xffff, bumped at each allocation
  uint32_t kind;
  uint32_t flags;
  uint32_t ownerContext;
  std::atomic<uint32_t> references;
  uint64_t contentBytes;
  uint32_t desc[kDescWords];
  char16_t name[kNameUnits];
  std::atomic<uint64_t> fenceValue;
  std::atomic<uint64_t> contentVersion;   // bumped by each publish of the content
  std::atomic<uint32_t> mutexOwner;       // keyed mutex: 0 = free, else the owning context
  std::atomic<uint32_t> mutexAbandoned;
  std::atomic<uint64_t> mutexKey;         // the key the next AcquireSync must name
  std::atomic<uint64_t> copies;
  std::atomic<uint64_t> copyBytes;
  std::atomic<uint32_t> mutexOwnerPid;      // the owner's process (after mutexOwner is set)
  uint32_t reserved;
  std::atomic<uint64_t> mutexOwnerStarted;
  HolderRecord holders[kHolders];           // references = the sum of theirs
  // Kernel objects of the guest (NT handles' sections) naming this entry: the entry lives
  // while any does, also without references (an orphan: its creator's context ended while
  // another guest process may still hold a handle). Guest-driven: +1 per CreateSharedHandle,
  // -1 when a guest process saw the object's last handle closed (Registry::releaseGuestObject).
  std::atomic<uint32_t> guestObjects;
  // The generation of this entry whose content section the server process holds open
  // (an orphan's content on Windows, where a section vanishes with its last handle).
  std::atomic<uint32_t> serverHeld;
};

struct RegistryHeader {
  uint32_t magic;
  uint32_t version;
  uint32_t capacity;
  uint32_t entrySize;
  std::atomic<uint32_t> ready;     // set last by the creator
  std::atomic<uint32_t> lock;      // token of the holder, 0 = free
  std::atomic<uint64_t> copies;
  std::atomic<uint64_t> copyBytes;
  SyncWords sync;
  std::atomic<uint64_t> syncWakeCalls;   // wake system calls made (tests, diagnostics)
  // The process holding orphans' content sections (OrphanContentHolder), 0: none.
  std::atomic<uint32_t> orphanHolderPid;
  uint32_t reserved0;
  std::atomic<uint64_t> orphanHolderStarted;
  uint8_t reserved[32];
};

namespace {

constexpr uint32_t kMagic = 0x5248504e;   // "NPHR"
constexpr uint32_t kVersion = 4;   // 2: per-process holders, fence epoch; 3: epoch waiter count; 4: guest objects
constexpr uint32_t kFree = 0;
constexpr uint32_t kLive = 1;
constexpr uint32_t kMaxReferences = 1u << 20;
constexpr uint32_t kMaxGuestObjects = 1u << 20;
constexpr uint64_t kSectionBytes = sizeof(RegistryHeader) + uint64_t(kCapacity) * sizeof(EntryRecord);
// A lock held longer than this belongs to a worker that died inside it (Registry::attach
// may shorten it for tests and fuzzing).
constexpr auto kLockSteal = std::chrono::milliseconds(250);
// How many take-over times a call waits for the lock at most, whoever holds it.
constexpr int kLockPatience = 4;

static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free,
              "shared-memory atomics must be address-free");

bool validKind(uint32_t kind) {
  return kind == uint32_t(Kind::Buffer) || kind == uint32_t(Kind::Texture2D) || kind == uint32_t(Kind::Fence);
}

// This process's holder record of an entry, or a free one (null: all kHolders taken by
// other processes). Under the lock.
HolderRecord* holderSlot(EntryRecord& e, const ProcessIdentity& self, bool create) {
  HolderRecord* free = nullptr;
  for (HolderRecord& h : e.holders) {
    const uint32_t pid = h.pid.load(std::memory_order_relaxed);
    if (pid == self.pid && h.started.load(std::memory_order_relaxed) == self.started) return &h;
    if (!pid && !free) free = &h;
  }
  if (!create || !free) return nullptr;
  free->references.store(0, std::memory_order_relaxed);
  free->started.store(self.started, std::memory_order_relaxed);
  free->pid.store(self.pid, std::memory_order_relaxed);
  return free;
}

void clearHolders(EntryRecord& e) {
  for (HolderRecord& h : e.holders) {
    h.pid.store(0, std::memory_order_relaxed);
    h.references.store(0, std::memory_order_relaxed);
    h.started.store(0, std::memory_order_relaxed);
  }
}

size_t nameLength(const char16_t* name) {
  size_t n = 0;
  while (n < kNameUnits && name[n]) n++;
  return n;
}

// What the creator of a section writes, ready last.
void writeHeader(RegistryHeader* header) {
  header->magic = kMagic;
  header->version = kVersion;
  header->capacity = kCapacity;
  header->entrySize = sizeof(EntryRecord);
  header->ready.store(1, std::memory_order_release);
}

bool headerValid(const RegistryHeader* header) {
  return header->ready.load(std::memory_order_acquire) && header->magic == kMagic && header->version == kVersion &&
         header->capacity == kCapacity && header->entrySize == sizeof(EntryRecord);
}

// The handle of entry `index` as entry() accepts it, or 0. Kind and generation are read
// once (a hostile worker may change them between two reads), and the generation whole:
// entry() compares all 32 bits, so a handle made of its low half alone named no live entry
// when the high half held garbage, and a low half of 0 made a malformed handle.
uint64_t handleOf(const EntryRecord& e, uint32_t index) {
  const uint32_t kind = *static_cast<const volatile uint32_t*>(&e.kind);
  const uint32_t generation = e.generation.load(std::memory_order_acquire);
  if (!validKind(kind) || generation == 0 || generation > 0xffff) return 0;
  return encodeHandle(Kind(kind), index, generation);
}

bool sameName(const char16_t* stored, const char16_t* name) {
  for (uint32_t i = 0; i < kNameUnits; i++) {
    if (stored[i] != name[i]) return false;
    if (!name[i]) return true;
  }
  return false;   // no terminator inside the entry: malformed, never equal
}

}  // namespace

const char* lookupErrorName(LookupError error) {
  switch (error) {
    case LookupError::Ok: return "Ok";
    case LookupError::BadHandle: return "BadHandle";
    case LookupError::NotShared: return "NotShared";
    case LookupError::WrongKind: return "WrongKind";
    case LookupError::NeedsNtOpen: return "NeedsNtOpen";
    case LookupError::Malformed: return "Malformed";
    case LookupError::TooManyHolders: return "TooManyHolders";
  }
  return "?";
}

uint64_t encodeHandle(Kind kind, uint32_t index, uint32_t generation) {
  return (1u << 30) | ((generation & 0xffffu) << 14) | ((index & 0x3ffu) << 4) | (uint32_t(kind) & 0xfu);
}

bool decodeHandle(uint64_t handle, HandleParts& parts) {
  if (handle >> 31 || !(handle & (1u << 30))) return false;
  const uint32_t kind = uint32_t(handle & 0xf);
  const uint32_t index = uint32_t(handle >> 4) & 0x3ff;
  const uint32_t generation = uint32_t(handle >> 14) & 0xffff;
  if (!validKind(kind) || index >= kCapacity || generation == 0) return false;
  parts.kind = Kind(kind);
  parts.index = index;
  parts.generation = generation;
  return true;
}

std::string Registry::instanceFromEnvironment() {
  if (const char* value = std::getenv("NPT_SERVER_INSTANCE")) {
    // Only digits reach a section name.
    std::string digits;
    for (const char* p = value; *p && digits.size() < 20; p++)
      if (*p >= '0' && *p <= '9') digits += *p;
    if (!digits.empty()) return digits;
  }
#if defined(_WIN32)
  return std::to_string(GetCurrentProcessId());
#else
  return std::to_string(getpid());
#endif
}

std::string Registry::registryName(const std::string& instance) {
#if defined(_WIN32)
  return "Local\\neptune-" + instance + "-sharing";
#else
  return "neptune-" + instance + "-sharing";
#endif
}

std::string Registry::contentName(const std::string& instance, uint64_t handle) {
  HandleParts parts;
  decodeHandle(handle, parts);
  std::string suffix = "-share-" + std::to_string(parts.index) + "-" + std::to_string(parts.generation);
#if defined(_WIN32)
  return "Local\\neptune-" + instance + suffix;
#else
  return "neptune-" + instance + suffix;
#endif
}

std::unique_ptr<Registry> Registry::open(const std::string& instance, std::string* error, bool create) {
  std::unique_ptr<Registry> registry(new Registry());
  registry->m_instance = instance;
  bool created = false;
  if (create) {
    registry->m_section = Section::create(registryName(instance), kSectionBytes, &created);
  } else {
    registry->m_section = Section::open(registryName(instance), kSectionBytes);
    if (!registry->m_section.valid()) return nullptr;
  }
  if (!registry->m_section.valid()) {
    if (error) *error = "cannot create or open the sharing section " + registryName(instance);
    return nullptr;
  }
  auto* header = reinterpret_cast<RegistryHeader*>(registry->m_section.data());
  if (created) {
    writeHeader(header);
  } else {
    // The creator fills the header right after creating the section.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (!header->ready.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  if (!headerValid(header)) {
    if (error) *error = "the sharing section " + registryName(instance) + " holds another layout";
    return nullptr;
  }
  registry->m_header = header;
  registry->m_entries = reinterpret_cast<EntryRecord*>(registry->m_section.data() + sizeof(RegistryHeader));
  registry->m_lockSteal = kLockSteal;
  std::random_device random;
  do registry->m_lockToken = random(); while (registry->m_lockToken == 0);
  // Whatever a killed worker left behind is taken back by the next context that opens it.
  if (create && !created) registry->reclaimDeadHolders();
  // A new instance: the files of crashed servers go now (nothing else would remove them).
  if (created) removeStaleSections();
  return registry;
}

std::unique_ptr<Registry> Registry::attach(uint8_t* memory, uint64_t size, bool initialize, std::string* error,
                                           uint32_t lockStealUs) {
  if (!memory || size < kSectionBytes || reinterpret_cast<uintptr_t>(memory) % alignof(RegistryHeader)) {
    if (error) *error = "the memory cannot hold a sharing registry";
    return nullptr;
  }
  auto* header = reinterpret_cast<RegistryHeader*>(memory);
  if (initialize) writeHeader(header);
  if (!headerValid(header)) {
    if (error) *error = "the memory holds another layout";
    return nullptr;
  }
  std::unique_ptr<Registry> registry(new Registry());
  registry->m_header = header;
  registry->m_entries = reinterpret_cast<EntryRecord*>(memory + sizeof(RegistryHeader));
  registry->m_lockSteal = std::chrono::microseconds(lockStealUs);
  std::random_device random;
  do registry->m_lockToken = random(); while (registry->m_lockToken == 0);
  return registry;
}

uint64_t Registry::sectionBytes() { return kSectionBytes; }

void Registry::unlinkContent(uint64_t handle) const {
  if (!m_instance.empty()) Section::unlinkName(contentName(m_instance, handle));
}

#if defined(_WIN32)

uint32_t Registry::removeStaleSections() { return 0; }   // sections vanish with their last handle

#else

namespace {

// The instance of a registry ("neptune-<digits>-sharing") or content file
// ("neptune-<digits>-share-<digits>-<digits>"); empty for any other name.
std::string instanceOfSectionFile(const std::string& name) {
  const std::string prefix = "neptune-";
  if (name.compare(0, prefix.size(), prefix) != 0) return {};
  size_t end = prefix.size();
  while (end < name.size() && name[end] >= '0' && name[end] <= '9') end++;
  if (end == prefix.size() || end - prefix.size() > 20) return {};
  const std::string rest = name.substr(end);
  if (rest == "-sharing") return name.substr(prefix.size(), end - prefix.size());
  const std::string share = "-share-";
  if (rest.compare(0, share.size(), share) != 0) return {};
  size_t dashes = 0, digits = 0;
  for (size_t i = share.size(); i < rest.size(); i++) {
    if (rest[i] == '-' && digits) {
      dashes++;
      digits = 0;
    } else if (rest[i] >= '0' && rest[i] <= '9') {
      digits++;
    } else {
      return {};
    }
  }
  if (dashes != 1 || !digits) return {};
  return name.substr(prefix.size(), end - prefix.size());
}

// Whether the instance names a process that runs (an instance is a server's process id;
// numbers beyond any process id, as tests use, never run).
bool instanceRuns(const std::string& instance) {
  if (instance.size() > 9) return false;
  const long pid = std::strtol(instance.c_str(), nullptr, 10);
  if (pid <= 0) return false;
  return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

constexpr int64_t kStaleAfterSeconds = 60;

}  // namespace

uint32_t Registry::removeStaleSections() {
  DIR* dir = ::opendir("/dev/shm");
  if (!dir) return 0;
  std::vector<std::string> candidates;
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const std::string instance = instanceOfSectionFile(name);
    if (!instance.empty() && !instanceRuns(instance)) candidates.push_back(name);
  }
  ::closedir(dir);
  uint32_t removed = 0;
  for (const std::string& name : candidates)
    if (Section::removeIfUnused(name, kStaleAfterSeconds)) removed++;
  return removed;
}

#endif

Registry::~Registry() = default;

void Registry::lock() {
  const auto first = std::chrono::steady_clock::now();
  auto start = first;
  uint32_t seen = 0;
  for (uint32_t spins = 0;; spins++) {
    uint32_t expected = 0;
    if (m_header->lock.compare_exchange_weak(expected, m_lockToken, std::memory_order_acquire)) return;
    const auto now = std::chrono::steady_clock::now();
    if (expected != seen) {
      seen = expected;
      start = now;
    } else if (now - start > m_lockSteal) {
      // The same holder for 250 ms: sections under this lock are a few stores long, so
      // the holder died inside one. Take the lock over.
      if (m_header->lock.compare_exchange_strong(expected, m_lockToken, std::memory_order_acquire)) return;
    }
    if (now - first > kLockPatience * m_lockSteal) {
      // Holders for four take-over times, each replaced before it could be taken over:
      // honest holders do not queue that long, a hostile worker rewriting the word does.
      // The lock binds honest workers only (everything read under it is validated), so
      // this call goes on rather than wait for that worker forever.
      m_header->lock.exchange(m_lockToken, std::memory_order_acq_rel);
      return;
    }
    if (spins > 64) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void Registry::unlock() {
  uint32_t expected = m_lockToken;
  m_header->lock.compare_exchange_strong(expected, 0, std::memory_order_release);
}

EntryRecord* Registry::entry(uint64_t handle, HandleParts* partsOut) const {
  HandleParts parts;
  if (!decodeHandle(handle, parts)) return nullptr;
  EntryRecord* e = &m_entries[parts.index];
  if (e->state.load(std::memory_order_acquire) != kLive || e->generation.load(std::memory_order_acquire) != parts.generation ||
      e->kind != uint32_t(parts.kind))
    return nullptr;
  if (partsOut) *partsOut = parts;
  return e;
}

uint64_t Registry::create(uint32_t context, Kind kind, uint32_t flags, const uint32_t* desc, uint64_t contentBytes,
                          const char16_t* name, bool* nameTaken) {
  if (nameTaken) *nameTaken = false;
  if (!validKind(uint32_t(kind)) || contentBytes > kMaxContentBytes) return 0;
  if (name && (nameLength(name) == 0 || nameLength(name) >= kNameUnits)) return 0;
  uint64_t handle = createOnce(context, kind, flags, desc, contentBytes, name, nameTaken);
  // A full table may hold entries of dead workers: take them back and try once more.
  if (!handle && !(nameTaken && *nameTaken) && reclaimDeadHolders().freedEntries)
    handle = createOnce(context, kind, flags, desc, contentBytes, name, nameTaken);
  return handle;
}

uint64_t Registry::createOnce(uint32_t context, Kind kind, uint32_t flags, const uint32_t* desc, uint64_t contentBytes,
                              const char16_t* name, bool* nameTaken) {
  lock();
  if (name) {
    for (uint32_t i = 0; i < kCapacity; i++) {
      EntryRecord& e = m_entries[i];
      if (e.state.load(std::memory_order_acquire) == kLive && (e.flags & kFlagNamed) && sameName(e.name, name)) {
        unlock();
        if (nameTaken) *nameTaken = true;
        return 0;
      }
    }
  }
  uint64_t handle = 0;
  for (uint32_t i = 0; i < kCapacity; i++) {
    EntryRecord& e = m_entries[i];
    if (e.state.load(std::memory_order_acquire) != kFree) continue;
    uint32_t generation = (e.generation.load(std::memory_order_relaxed) + 1) & 0xffff;
    if (!generation) generation = 1;
    e.generation.store(generation, std::memory_order_relaxed);
    e.kind = uint32_t(kind);
    e.flags = flags | (name ? kFlagNamed : 0);
    e.ownerContext = context;
    e.references.store(1, std::memory_order_relaxed);
    e.contentBytes = contentBytes;
    std::memset(e.desc, 0, sizeof(e.desc));
    if (desc) std::memcpy(e.desc, desc, sizeof(e.desc));
    std::memset(e.name, 0, sizeof(e.name));
    if (name) std::memcpy(e.name, name, nameLength(name) * sizeof(char16_t));
    e.fenceValue.store(0, std::memory_order_relaxed);
    e.contentVersion.store(0, std::memory_order_relaxed);
    e.mutexOwner.store(0, std::memory_order_relaxed);
    e.mutexAbandoned.store(0, std::memory_order_relaxed);
    e.mutexKey.store(0, std::memory_order_relaxed);
    e.copies.store(0, std::memory_order_relaxed);
    e.copyBytes.store(0, std::memory_order_relaxed);
    e.mutexOwnerPid.store(0, std::memory_order_relaxed);
    e.mutexOwnerStarted.store(0, std::memory_order_relaxed);
    e.guestObjects.store(0, std::memory_order_relaxed);
    e.serverHeld.store(0, std::memory_order_relaxed);
    clearHolders(e);
    // The first holder record is this process's, written directly: searching for a free
    // one (holderSlot) finds none when a hostile worker refills the records between the
    // clearing and the search, and the null record was dereferenced.
    const ProcessIdentity self = currentProcess();
    HolderRecord& holder = e.holders[0];
    holder.references.store(1, std::memory_order_relaxed);
    holder.started.store(self.started, std::memory_order_relaxed);
    holder.pid.store(self.pid, std::memory_order_relaxed);
    e.state.store(kLive, std::memory_order_release);
    handle = encodeHandle(kind, i, generation);
    break;
  }
  unlock();
  return handle;
}

void Registry::addFlags(uint64_t handle, uint32_t flags) {
  lock();
  if (EntryRecord* e = entry(handle)) e->flags |= flags;
  unlock();
}

LookupError Registry::lookup(uint64_t handle, EntryInfo& info) {
  HandleParts parts;
  if (!decodeHandle(handle, parts)) return LookupError::BadHandle;
  EntryRecord* e = entry(handle);
  if (!e) return LookupError::NotShared;
  // Copy out once, then check the copy: the section may change under us.
  info.handle = handle;
  info.kind = Kind(e->kind);
  info.flags = e->flags;
  info.ownerContext = e->ownerContext;
  std::memcpy(info.desc, e->desc, sizeof(info.desc));
  info.contentBytes = e->contentBytes;
  const uint32_t references = e->references.load(std::memory_order_acquire);
  const uint32_t guestObjects = e->guestObjects.load(std::memory_order_acquire);
  if (!validKind(uint32_t(info.kind)) || info.kind != parts.kind) return LookupError::Malformed;
  if (references > kMaxReferences || guestObjects > kMaxGuestObjects || (references == 0 && guestObjects == 0))
    return LookupError::Malformed;
  if (info.contentBytes > kMaxContentBytes) return LookupError::Malformed;
  if ((info.flags & kFlagNamed) && nameLength(e->name) >= kNameUnits) return LookupError::Malformed;
  return LookupError::Ok;
}

LookupError Registry::acquireReference(uint64_t handle, Kind expected, bool ntOpen, EntryInfo& info) {
  lock();
  LookupError error = lookup(handle, info);
  if (error == LookupError::Ok && expected != Kind::None && info.kind != expected) error = LookupError::WrongKind;
  // A resource shared through an NT handle only is opened through OpenSharedResource1
  // or by name; GetSharedHandle's handles open either way.
  if (error == LookupError::Ok && info.kind != Kind::Fence && !ntOpen && !(info.flags & kFlagLegacyHandle))
    error = LookupError::NeedsNtOpen;
  if (error == LookupError::Ok) {
    // Looked up again: a hostile worker may have freed or rewritten the entry since lookup
    // read it (the lock binds honest workers only), and the null entry was dereferenced.
    EntryRecord* e = entry(handle);
    if (!e) {
      error = LookupError::NotShared;
    } else if (HolderRecord* holder = holderSlot(*e, currentProcess(), true)) {
      holder->references.fetch_add(1, std::memory_order_relaxed);
      e->references.fetch_add(1, std::memory_order_acq_rel);
    } else {
      error = LookupError::TooManyHolders;
    }
  }
  unlock();
  return error;
}

void Registry::freeLocked(EntryRecord& e) {
  e.state.store(kFree, std::memory_order_release);
  e.references.store(0, std::memory_order_relaxed);
  e.guestObjects.store(0, std::memory_order_relaxed);
  clearHolders(e);
}

// Under the lock: whether an entry without references stays as an orphan (guest kernel
// objects still name it and the instance holds fewer than kMaxOrphans others).
bool Registry::keepsOrphanLocked(const EntryRecord& e) const {
  const uint32_t objects = e.guestObjects.load(std::memory_order_acquire);
  if (!objects || objects > kMaxGuestObjects) return false;
  uint32_t orphans = 0;
  for (uint32_t i = 0; i < kCapacity; i++) {
    const EntryRecord& other = m_entries[i];
    if (&other != &e && other.state.load(std::memory_order_acquire) == kLive &&
        other.references.load(std::memory_order_relaxed) == 0)
      orphans++;
  }
  return orphans < kMaxOrphans;
}

void Registry::releaseReference(uint64_t handle) {
  bool freed = false;
  lock();
  if (EntryRecord* e = entry(handle)) {
    if (HolderRecord* holder = holderSlot(*e, currentProcess(), false)) {
      const uint32_t held = holder->references.load(std::memory_order_relaxed);
      if (held <= 1) {
        holder->pid.store(0, std::memory_order_relaxed);
        holder->references.store(0, std::memory_order_relaxed);
      } else {
        holder->references.store(held - 1, std::memory_order_relaxed);
      }
    }
    const uint32_t references = e->references.load(std::memory_order_acquire);
    if (references > 1 && references <= kMaxReferences) {
      e->references.store(references - 1, std::memory_order_release);
    } else if (references == 1 && keepsOrphanLocked(*e)) {
      e->references.store(0, std::memory_order_release);
    } else {
      freeLocked(*e);
      freed = true;
    }
  }
  unlock();
  // Native content sections are files: nobody can open the entry any more, so its name
  // goes (mappings stay valid). Windows sections vanish with their last handle.
  if (freed) unlinkContent(handle);
}

bool Registry::addGuestObject(uint64_t handle) {
  lock();
  EntryRecord* e = entry(handle);
  const uint32_t objects = e ? e->guestObjects.load(std::memory_order_acquire) : 0;
  const bool added = e && objects < kMaxGuestObjects && e->references.load(std::memory_order_acquire);
  if (added) e->guestObjects.store(objects + 1, std::memory_order_release);
  unlock();
  return added;
}

bool Registry::releaseGuestObject(uint64_t handle) {
  bool released = false, freed = false;
  lock();
  if (EntryRecord* e = entry(handle)) {
    const uint32_t objects = e->guestObjects.load(std::memory_order_acquire);
    if (objects && objects <= kMaxGuestObjects) {
      e->guestObjects.store(objects - 1, std::memory_order_release);
      released = true;
      if (objects == 1 && e->references.load(std::memory_order_acquire) == 0) {
        freeLocked(*e);
        freed = true;
      }
    }
  }
  unlock();
  if (freed) unlinkContent(handle);
  return released;
}

uint32_t Registry::guestObjects(uint64_t handle) const {
  EntryRecord* e = entry(handle);
  return e ? e->guestObjects.load(std::memory_order_acquire) : 0;
}

bool Registry::orphaned(uint64_t handle) const {
  EntryRecord* e = entry(handle);
  return e && e->references.load(std::memory_order_acquire) == 0;
}

std::vector<uint64_t> Registry::orphans() const {
  std::vector<uint64_t> result;
  for (uint32_t i = 0; i < kCapacity; i++) {
    const EntryRecord& e = m_entries[i];
    if (e.state.load(std::memory_order_acquire) == kLive && e.references.load(std::memory_order_acquire) == 0)
      if (const uint64_t handle = handleOf(e, i)) result.push_back(handle);
  }
  return result;
}

void Registry::markServerHeld(uint64_t handle) {
  HandleParts parts;
  if (EntryRecord* e = entry(handle, &parts)) e->serverHeld.store(parts.generation, std::memory_order_release);
}

void Registry::registerOrphanHolder() {
  const ProcessIdentity self = currentProcess();
  m_header->orphanHolderStarted.store(self.started, std::memory_order_relaxed);
  m_header->orphanHolderPid.store(self.pid, std::memory_order_release);
}

// Polls (the holder sweeps every few tens of milliseconds; orphaning happens once per
// entry): sleeping on the sync epoch would count a sleeper and make every Signal wake it.
bool Registry::waitUntilServerHolds(uint64_t handle, uint32_t timeoutMs) {
  const ProcessIdentity holder{m_header->orphanHolderPid.load(std::memory_order_acquire),
                               m_header->orphanHolderStarted.load(std::memory_order_relaxed)};
  if (!holder.pid || !processAlive(holder)) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  for (;;) {
    HandleParts parts;
    EntryRecord* e = entry(handle, &parts);
    if (!e) return false;
    if (e->serverHeld.load(std::memory_order_acquire) == parts.generation) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

uint64_t Registry::findByName(const char16_t* name) {
  if (!name || nameLength(name) == 0 || nameLength(name) >= kNameUnits) return 0;
  lock();
  uint64_t handle = 0;
  for (uint32_t i = 0; i < kCapacity && !handle; i++) {
    EntryRecord& e = m_entries[i];
    if (e.state.load(std::memory_order_acquire) == kLive && (e.flags & kFlagNamed) && sameName(e.name, name))
      handle = handleOf(e, i);
  }
  unlock();
  return handle;
}

std::atomic<uint64_t>* Registry::fenceValue(uint64_t handle) {
  EntryRecord* e = entry(handle);
  return e ? &e->fenceValue : nullptr;
}

std::atomic<uint64_t>* Registry::contentVersion(uint64_t handle) {
  EntryRecord* e = entry(handle);
  return e ? &e->contentVersion : nullptr;
}

void Registry::setFenceValue(uint64_t handle, uint64_t value) {
  if (std::atomic<uint64_t>* word = fenceValue(handle)) word->store(value, std::memory_order_seq_cst);
  wakeSyncWaiters();
}

// The wake is skipped when nobody sleeps. Both sides use sequentially consistent
// operations on the two words: either the writer's load of `waiters` follows a sleeper's
// increment (the writer wakes it), or the sleeper's load of the epoch that follows its
// increment sees the writer's bump (it does not sleep). A sleeper killed while counted
// leaves the count high: writers then wake for nothing, never miss anyone. A hostile
// worker zeroing the count can delay other contexts' wakeups to their sleep slices
// (at most 100 ms), nothing more.
void Registry::wakeSyncWaiters() {
  m_header->sync.epoch.fetch_add(1, std::memory_order_seq_cst);
  if (m_header->sync.waiters.load(std::memory_order_seq_cst) == 0) return;
  m_header->syncWakeCalls.fetch_add(1, std::memory_order_relaxed);
  transport::address_wake_all(reinterpret_cast<uint32_t*>(&m_header->sync.epoch));
}

std::atomic<uint32_t>& Registry::syncEpoch() const { return m_header->sync.epoch; }

void Registry::waitForSyncEpoch(uint32_t seen, uint32_t timeoutUs) const {
  waitOnSyncEpoch(m_header->sync.epoch, seen, timeoutUs);
}

void Registry::waitOnSyncEpoch(const std::atomic<uint32_t>& epoch, uint32_t seen, uint32_t timeoutUs) {
  // The epoch is the first member of a registry header's SyncWords: the pointers convert.
  auto& words = const_cast<SyncWords&>(reinterpret_cast<const SyncWords&>(epoch));
  words.waiters.fetch_add(1, std::memory_order_seq_cst);
  if (words.epoch.load(std::memory_order_seq_cst) == seen)
    transport::address_wait(reinterpret_cast<const uint32_t*>(&words.epoch), seen, timeoutUs);
  words.waiters.fetch_sub(1, std::memory_order_seq_cst);
}

uint32_t Registry::syncWaiters() const { return m_header->sync.waiters.load(std::memory_order_seq_cst); }

uint64_t Registry::syncWakeCalls() const { return m_header->syncWakeCalls.load(std::memory_order_relaxed); }

std::vector<ProcessIdentity> Registry::holders(uint64_t handle) const {
  std::vector<ProcessIdentity> result;
  if (EntryRecord* e = entry(handle))
    for (const HolderRecord& h : e->holders)
      if (const uint32_t pid = h.pid.load(std::memory_order_relaxed))
        result.push_back(ProcessIdentity{pid, h.started.load(std::memory_order_relaxed)});
  return result;
}

Reclaimed Registry::reclaimDeadHolders() {
  Reclaimed result;
  // Which processes hold anything, read without the lock (the words may change, or be
  // garbage): asking the system about a process may take a while, and a lock held for
  // 250 ms is taken over by the next process that wants it.
  const ProcessIdentity self = currentProcess();
  std::vector<ProcessIdentity> seen;
  auto note = [&](uint32_t pid, uint64_t started) {
    const ProcessIdentity identity{pid, started};
    if (!pid || identity == self) return;
    for (const ProcessIdentity& known : seen)
      if (known == identity) return;
    if (seen.size() < size_t(kCapacity) * kHolders) seen.push_back(identity);
  };
  for (uint32_t i = 0; i < kCapacity; i++) {
    EntryRecord& e = m_entries[i];
    if (e.state.load(std::memory_order_acquire) != kLive) continue;
    for (HolderRecord& h : e.holders) note(h.pid.load(std::memory_order_relaxed), h.started.load(std::memory_order_relaxed));
    if (e.mutexOwner.load(std::memory_order_acquire))
      note(e.mutexOwnerPid.load(std::memory_order_relaxed), e.mutexOwnerStarted.load(std::memory_order_relaxed));
  }
  std::vector<ProcessIdentity> dead;
  for (const ProcessIdentity& identity : seen)
    if (!processAlive(identity)) dead.push_back(identity);
  if (dead.empty()) return result;
  result.deadProcesses = uint32_t(dead.size());
  auto isDead = [&](uint32_t pid, uint64_t started) {
    for (const ProcessIdentity& identity : dead)
      if (identity.pid == pid && identity.started == started) return true;
    return false;
  };

  std::vector<uint64_t> freed;
  lock();
  for (uint32_t i = 0; i < kCapacity; i++) {
    EntryRecord& e = m_entries[i];
    if (e.state.load(std::memory_order_acquire) != kLive) continue;
    // A mutex whose owner died holding it: the next acquirer learns it (WAIT_ABANDONED).
    const uint32_t owner = e.mutexOwner.load(std::memory_order_acquire);
    if (owner && isDead(e.mutexOwnerPid.load(std::memory_order_relaxed), e.mutexOwnerStarted.load(std::memory_order_relaxed))) {
      uint32_t expected = owner;
      if (e.mutexOwner.compare_exchange_strong(expected, 0, std::memory_order_acq_rel)) {
        e.mutexAbandoned.store(1, std::memory_order_release);
        result.abandonedMutexes++;
      }
    }
    uint32_t dropped = 0;
    for (HolderRecord& h : e.holders) {
      if (!isDead(h.pid.load(std::memory_order_relaxed), h.started.load(std::memory_order_relaxed))) continue;
      const uint32_t held = h.references.load(std::memory_order_relaxed);
      dropped += held < kMaxReferences ? held : kMaxReferences;
      h.pid.store(0, std::memory_order_relaxed);
      h.references.store(0, std::memory_order_relaxed);
    }
    if (!dropped) continue;
    result.references += dropped;
    // Entries only dead workers held go, guest objects or not: a worker that died without
    // its clean-up handed no content to the server, and its guest can no longer tell the
    // host anything (an orphan could only leak).
    const uint32_t references = e.references.load(std::memory_order_acquire);
    if (references <= dropped || references > kMaxReferences) {
      if (const uint64_t handle = handleOf(e, i)) freed.push_back(handle);
      freeLocked(e);
      result.freedEntries++;
    } else {
      e.references.store(references - dropped, std::memory_order_release);
    }
  }
  unlock();
  for (uint64_t handle : freed) unlinkContent(handle);
  if (result.abandonedMutexes) wakeSyncWaiters();
  return result;
}

AcquireResult Registry::tryAcquireKeyedMutex(uint64_t handle, uint32_t context, uint64_t key) {
  EntryRecord* e = entry(handle);
  if (!e || !context) return AcquireResult::BadHandle;
  if (e->mutexAbandoned.load(std::memory_order_acquire)) return AcquireResult::Abandoned;
  uint32_t expected = 0;
  if (!e->mutexOwner.compare_exchange_strong(expected, context, std::memory_order_acq_rel))
    return AcquireResult::WrongKeyOrOwned;
  if (e->mutexKey.load(std::memory_order_acquire) != key) {
    // Not released with this key: give the claim back.
    e->mutexOwner.store(0, std::memory_order_release);
    return AcquireResult::WrongKeyOrOwned;
  }
  const ProcessIdentity self = currentProcess();
  e->mutexOwnerStarted.store(self.started, std::memory_order_relaxed);
  e->mutexOwnerPid.store(self.pid, std::memory_order_release);
  return AcquireResult::Acquired;
}

bool Registry::releaseKeyedMutex(uint64_t handle, uint32_t context, uint64_t key) {
  EntryRecord* e = entry(handle);
  if (!e || !context || e->mutexOwner.load(std::memory_order_acquire) != context) return false;
  e->mutexKey.store(key, std::memory_order_release);
  e->mutexOwner.store(0, std::memory_order_seq_cst);
  wakeSyncWaiters();
  return true;
}

void Registry::abandonKeyedMutex(uint64_t handle, uint32_t context) {
  EntryRecord* e = entry(handle);
  if (!e || !context) return;
  uint32_t expected = context;
  if (e->mutexOwner.compare_exchange_strong(expected, 0, std::memory_order_acq_rel)) {
    e->mutexAbandoned.store(1, std::memory_order_seq_cst);
    wakeSyncWaiters();
  }
}

void Registry::countCopy(uint64_t handle, uint64_t bytes) {
  m_header->copies.fetch_add(1, std::memory_order_relaxed);
  m_header->copyBytes.fetch_add(bytes, std::memory_order_relaxed);
  if (EntryRecord* e = entry(handle)) {
    e->copies.fetch_add(1, std::memory_order_relaxed);
    e->copyBytes.fetch_add(bytes, std::memory_order_relaxed);
  }
}

CopyCounters Registry::copyCounters() const {
  return {m_header->copies.load(std::memory_order_relaxed), m_header->copyBytes.load(std::memory_order_relaxed)};
}

CopyCounters Registry::copyCounters(uint64_t handle) const {
  EntryRecord* e = entry(handle);
  if (!e) return {};
  return {e->copies.load(std::memory_order_relaxed), e->copyBytes.load(std::memory_order_relaxed)};
}

uint32_t Registry::liveEntries() const {
  uint32_t n = 0;
  for (uint32_t i = 0; i < kCapacity; i++)
    if (m_entries[i].state.load(std::memory_order_acquire) == kLive) n++;
  return n;
}

}  // namespace npt::sharing
