// SPDX-License-Identifier: MIT
#pragma once

// What the executor keeps for emulated fences and shared resources (see
// fences.cpp, sharing.cpp and host/sharing/README.md). Wine 8's wined3d has neither
// fences nor sharing, so both are emulated on top of plain D3D11: event queries tell when
// the work before a Signal is done, and shared resources are mirrored through
// shared-memory sections of the cross-context registry.

#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "npt/executor/executor.h"
#include "npt/sharing/registry.h"
#include "records.h"

namespace npt::executor {

// The misc flags that ask for sharing: kept in the recorded shape (the guest's desc),
// never passed to the backend (which cannot share).
// DXGI_ERROR_NAME_ALREADY_EXISTS: CreateSharedHandle with a name another object holds.
constexpr HRESULT kNameAlreadyExists = HRESULT(0x887A002C);

constexpr UINT kSharedMiscFlags =
    D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE;

// The object the table holds for a fence id. Its completed value lives here, or in the
// registry entry once the fence is shared (CreateSharedHandle) or opened from a handle.
class EmulatedFence final : public IUnknown {
public:
  EmulatedFence(uint32_t slot, uint32_t flags, uint64_t initial) : m_slot(slot), m_flags(flags), m_local(initial) {}

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override {
    if (!object) return E_POINTER;
    *object = nullptr;
    const GUID unknown = __uuidof(IUnknown);
    if (std::memcmp(&riid, &unknown, sizeof(GUID)) != 0) return E_NOINTERFACE;
    AddRef();
    *object = static_cast<IUnknown*>(this);
    return S_OK;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return ++m_refs; }
  ULONG STDMETHODCALLTYPE Release() override {
    ULONG refs = --m_refs;
    if (!refs) delete this;
    return refs;
  }

  uint64_t value() const { return m_shared ? m_shared->load(std::memory_order_acquire) : m_local; }
  // A shared value wakes the contexts sleeping on the registry's fence epoch.
  void setValue(uint64_t value) {
    if (m_shared)
      m_registry->setFenceValue(m_handle, value);
    else
      m_local = value;
  }
  // From now on the value is the registry entry's (this fence holds one reference).
  void bindShared(std::shared_ptr<sharing::Registry> registry, uint64_t handle) {
    m_registry = std::move(registry);
    m_handle = handle;
    m_shared = m_registry->fenceValue(handle);
  }

  uint32_t slot() const { return m_slot; }
  uint32_t flags() const { return m_flags; }
  uint64_t handle() const { return m_handle; }
  uint64_t pushed = ~0ull;   // the value last written to the guest's fence slot

private:
  ~EmulatedFence() {
    if (m_handle && m_registry) m_registry->releaseReference(m_handle);
  }
  std::atomic<ULONG> m_refs{1};
  uint32_t m_slot;
  uint32_t m_flags;
  uint64_t m_local;
  std::shared_ptr<sharing::Registry> m_registry;
  uint64_t m_handle = 0;
  std::atomic<uint64_t>* m_shared = nullptr;
};

// A Signal whose preceding work may still run: written once its event query is done.
struct PendingSignal {
  ID3D11Query* query = nullptr;        // owned
  EmulatedFence* fence = nullptr;      // referenced
  ObjectId fenceId = 0;                // its guest id when signalled
  uint64_t value = 0;
  std::shared_ptr<DeviceState> device;
};

// What commands recorded on a deferred context (or in a command list) write: every
// resource, shared or not yet (a creator may share one before it executes the list).
// Not references: the recorded commands hold the resources alive.
struct DeferredRecord {
  bool complete = false;   // recorded entirely while this context tracked writes
  std::vector<ID3D11Resource*> writes;
  void add(ID3D11Resource* resource);
};

// A resource of this context that is shared: created here (owner) or opened from a handle.
struct SharedResource {
  uint64_t handle = 0;
  bool owner = false;
  bool keyedMutex = false;
  bool mutexHeld = false;
  validation::ResourceShape shape;
  sharing::Section content;             // the linear copy every context of the entry sees
  std::shared_ptr<DeviceState> device;
  ID3D11Resource* object = nullptr;     // this context's backend resource (the table holds it)
  ID3D11Resource* staging = nullptr;    // owned: where a publish reads the content back
  uint64_t localVersion = 0;            // content version this context's resource holds
  // Written by this context since it last published or refreshed the content: only such
  // a resource is published, and it is not refreshed (its own writes would be lost).
  bool written = false;

  SharedResource() = default;
  SharedResource(const SharedResource&) = delete;
  SharedResource& operator=(const SharedResource&) = delete;
  ~SharedResource() {
    if (staging) staging->Release();
  }
};

// Drops this context's reference on a shared resource's entry (abandoning its keyed
// mutex if held); an entry left as an orphan (guest NT handles still name it) is first
// handed to the server's OrphanContentHolder on Windows.
void releaseSharedEntry(sharing::Registry& registry, SharedResource& resource, uint32_t contextToken);

struct SharingState {
  std::shared_ptr<sharing::Registry> registry;   // opened by the first call that needs it
  bool registryFailed = false;
  uint32_t contextToken = 0;                      // this context in keyed-mutex words
  uint32_t waitTimeoutMs = 2000;
  // NPT_FENCE_WAKE=poll: shared fences are polled (worker every 200 us, Wait with
  // yields and 50 us sleeps), as before fence wakeups; the benchmark's baseline.
  bool pollSharedFences = false;
  // NPT_SHARED_PUBLISH=always: a resource this context created is published at every
  // publication point whether written or not, as before write tracking (the baseline of
  // bench/present/fence_run.py --compare publish).
  bool publishAlways = false;
  std::deque<PendingSignal> signals;
  std::unordered_map<ObjectId, EmulatedFence*> sharedFences;   // referenced; mirrored into slots
  std::unordered_map<ObjectId, std::unique_ptr<SharedResource>> resources;
  // Bind flags of the shared resources together: which outputs a draw must look at.
  uint32_t sharedBindFlags = 0;
  // What the commands recorded on a deferred context write (sharing_writes.cpp), keyed by
  // the deferred context's id, then by the id of the command list FinishCommandList made.
  std::unordered_map<ObjectId, DeferredRecord> deferredWrites;
  // The device whose immediate context the last publish read back (Map READ of a copy
  // queued after everything before it): its earlier work is finished (Signal uses it).
  DeviceState* lastReadBack = nullptr;
  // Per-context figures (logged when the context ends).
  uint64_t publishes = 0, publishedBytes = 0, refreshes = 0, refreshedBytes = 0, unwrittenSkips = 0;
  Executor::FenceWaitStats waitStats;

  SharingState() = default;
  SharingState(const SharingState&) = delete;
  SharingState& operator=(const SharingState&) = delete;
  ~SharingState();
  // Releases everything; keyed mutexes this context holds are abandoned.
  void clear();
  // After resources changed: recomputes sharedBindFlags.
  void resourcesChanged();
};

}  // namespace npt::executor
