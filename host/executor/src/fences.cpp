// SPDX-License-Identifier: MIT
// Emulated fences: ID3D11Device5::CreateFence/OpenSharedFence,
// ID3D11Fence::CreateSharedHandle, ID3D11DeviceContext4::Signal/Wait.
//
// Wine 8's wined3d has no fences. A Signal ends an event query on the context right
// after the work it follows; once the backend reports the query done (polled after each
// batch and every 200 us while the context is idle, like query push slots) the value is
// stored in the fence and written into the guest's fence slot, where GetCompletedValue and
// SetEventOnCompletion read it without a round trip. A shared fence's value lives in its
// cross-context registry entry; every context holding it mirrors the entry into its own
// guest's slot. A GPU Wait holds this context (no later command executes) until the value
// is reached; a value that never comes stops the context after the timeout with
// DeviceHung — Windows' TDR removes the device the same way.
//
// Cross-context wakeups: a shared fence's new value bumps the registry's fence epoch and
// wakes its sleepers (host/sharing). A Wait on a fence only other contexts move sleeps on
// the epoch; an idle worker holding shared fences sleeps on its doorbell, which a thread
// of the worker rings when the epoch moves (host/server/worker.cpp), instead of polling.
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "npt/executor/executor.h"
#include "records.h"
#include "sharing_state.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

namespace {

constexpr UINT kFenceFlagShared = 0x2;   // D3D11_FENCE_FLAG_SHARED
// NONE (0x1 in d3d11_3.h, 0 in practice), SHARED, SHARED_CROSS_ADAPTER, NON_MONITORED.
constexpr UINT kFenceFlagsKnown = 0x1 | 0x2 | 0x4 | 0x8;

uint64_t nowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

}  // namespace

SharingState& Executor::sharing() {
  if (!m_sharing) {
    m_sharing = std::make_unique<SharingState>();
    uint32_t timeout = m_options.fenceWaitTimeoutMs;
    if (!timeout)
      if (const char* env = std::getenv("NPT_FENCE_TIMEOUT_MS")) timeout = uint32_t(std::strtoul(env, nullptr, 10));
    m_sharing->waitTimeoutMs = timeout ? timeout : 2000;
    if (const char* wake = std::getenv("NPT_FENCE_WAKE")) m_sharing->pollSharedFences = std::string(wake) == "poll";
    if (const char* publish = std::getenv("NPT_SHARED_PUBLISH"))
      m_sharing->publishAlways = std::string(publish) == "always";
    // Any nonzero value unique among the contexts of the instance: the keyed-mutex owner.
    static std::atomic<uint32_t> counter{0};
    const uint64_t seed = uint64_t(reinterpret_cast<uintptr_t>(this)) ^ nowNs() ^ (uint64_t(++counter) << 40);
    m_sharing->contextToken = uint32_t(seed ^ (seed >> 32)) | 1u;
  }
  return *m_sharing;
}

bool Executor::hasFenceWork() const {
  // Signals wait for the backend, which reports completion only when asked: polled.
  // Shared fences moved by other contexts wake the worker (sharedFenceWakeWord).
  return m_sharing && (!m_sharing->signals.empty() || (m_sharing->pollSharedFences && !m_sharing->sharedFences.empty()));
}

const std::atomic<uint32_t>* Executor::sharedFenceWakeWord() const {
  if (!m_sharing || m_sharing->pollSharedFences || m_sharing->sharedFences.empty() || !m_sharing->registry) return nullptr;
  return &m_sharing->registry->syncEpoch();
}

void Executor::waitOnSharedFenceWakeWord(const std::atomic<uint32_t>* word, uint32_t seen, uint32_t timeoutUs) {
  sharing::Registry::waitOnSyncEpoch(*word, seen, timeoutUs);
}

Executor::FenceWaitStats Executor::fenceWaitStats() const {
  return m_sharing ? m_sharing->waitStats : FenceWaitStats{};
}

EmulatedFence* Executor::fenceOf(ObjectId id, DeviceState* device, const char* method) {
  IUnknown* object = nullptr;
  Record* record = nullptr;
  if (!resolve(id, InterfaceId::ID3D11Fence, false, method, &object, &record)) return nullptr;
  if (!sameDevice(record, device, id, method)) return nullptr;
  // Only this file inserts objects of type Fence, always as EmulatedFence.
  return static_cast<EmulatedFence*>(object);
}

void Executor::completeSignal(EmulatedFence* fence, uint64_t value) {
  fence->setValue(value);
  fence->pushed = value;
  if (m_options.hooks.fenceSlot) m_options.hooks.fenceSlot(fence->slot(), value);
}

void Executor::pollFences() {
  if (!m_sharing || isFatal()) return;
  SharingState& state = *m_sharing;
  // Signals complete in submission order, as a GPU queue would.
  while (!state.signals.empty()) {
    PendingSignal& signal = state.signals.front();
    HRESULT hr = signal.device->immediate->GetData(signal.query, nullptr, 0, D3D11_ASYNC_GETDATA_DONOTFLUSH);
    if (hr == S_FALSE) break;
    // S_OK, or an error (a lost device): the value is written either way so nobody waits
    // forever on a signal the backend cannot report. A fence the guest destroyed since
    // keeps its value (other contexts may hold it) but no longer owns its slot: the guest
    // may have given the slot to a new fence already.
    if (backendObject(signal.fenceId) == signal.fence)
      completeSignal(signal.fence, signal.value);
    else
      signal.fence->setValue(signal.value);
    signal.query->Release();
    signal.fence->Release();
    state.signals.pop_front();
  }
  // Other contexts move shared fences: mirror their values into this guest's slots.
  for (auto& [id, fence] : state.sharedFences) {
    const uint64_t value = fence->value();
    if (value != fence->pushed) {
      fence->pushed = value;
      if (m_options.hooks.fenceSlot) m_options.hooks.fenceSlot(fence->slot(), value);
    }
  }
  // Shared resources (without a keyed mutex) take what other contexts published since
  // this context's last batch.
  refreshSharedResources();
}

HRESULT Executor::ID3D11Device5_CreateFence(ObjectId self, UINT64 initial_value, UINT flags, UINT FenceSlot,
                                           ObjectId fence) {
  const char* method = "CreateFence";
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(fence, ObjectType::Fence, nullptr);
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  }
  if ((flags & ~kFenceFlagsKnown) || (m_options.fenceSlotCount && FenceSlot >= m_options.fenceSlotCount)) {
    drop(method, "flags %#x or fence slot %u (of %u) invalid", flags, FenceSlot, m_options.fenceSlotCount);
    insertFailed(fence, ObjectType::Fence, owner);
    return E_INVALIDARG;
  }
  sharing();
  auto* object = new EmulatedFence(FenceSlot, flags, initial_value);
  // The slot may hold a previous fence's value: the guest reads it only after this reply.
  completeSignal(object, initial_value);
  insert(fence, ObjectType::Fence, object, owner, 0);
  return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : S_OK;
}

HRESULT Executor::ID3D11Device5_OpenSharedFence(ObjectId self, UINT64 handle, UINT FenceSlot, ObjectId fence) {
  const char* method = "OpenSharedFence";
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(fence, ObjectType::Fence, nullptr);
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  }
  SharingState& state = sharing();
  if (m_options.fenceSlotCount && FenceSlot >= m_options.fenceSlotCount) {
    drop(method, "fence slot %u outside the %u slots", FenceSlot, m_options.fenceSlotCount);
    insertFailed(fence, ObjectType::Fence, owner);
    return E_INVALIDARG;
  }
  sharing::Registry* registry = sharingRegistry();
  sharing::EntryInfo info;
  sharing::LookupError error = registry ? registry->acquireReference(handle, sharing::Kind::Fence, true, info)
                                        : sharing::LookupError::NotShared;
  if (error != sharing::LookupError::Ok) {
    drop(method, "handle %#llx: %s", static_cast<unsigned long long>(handle), sharing::lookupErrorName(error));
    insertFailed(fence, ObjectType::Fence, owner);
    return E_INVALIDARG;
  }
  auto* object = new EmulatedFence(FenceSlot, kFenceFlagShared, 0);
  object->bindShared(state.registry, handle);
  completeSignal(object, object->value());
  object->AddRef();
  state.sharedFences[fence] = object;
  insert(fence, ObjectType::Fence, object, owner, 0);
  return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : S_OK;
}

HRESULT Executor::ID3D11Fence_CreateSharedHandle(ObjectId self, DWORD access, const WCHAR* name, UINT64* handle) {
  const char* method = "ID3D11Fence::CreateSharedHandle";
  *handle = 0;
  IUnknown* unknown = nullptr;
  Record* record = nullptr;
  if (!resolve(self, InterfaceId::ID3D11Fence, false, method, &unknown, &record))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  auto* fence = static_cast<EmulatedFence*>(unknown);
  if (!(fence->flags() & kFenceFlagShared)) return E_INVALIDARG;
  // Every call makes one guest kernel object naming the entry (SharedHandleClosed takes
  // it back); the entry lives while any does, also beyond this context.
  if (fence->handle()) {
    if (!m_sharing || !m_sharing->registry || !m_sharing->registry->addGuestObject(fence->handle())) return E_OUTOFMEMORY;
    *handle = fence->handle();
    return S_OK;
  }
  SharingState& state = sharing();
  sharing::Registry* registry = sharingRegistry();
  if (!registry) return E_OUTOFMEMORY;
  std::u16string name16;
  if (name)
    for (const WCHAR* p = name; *p && name16.size() < sharing::kNameUnits; p++) name16 += char16_t(*p);
  bool nameTaken = false;
  const uint64_t created = registry->create(state.contextToken, sharing::Kind::Fence, sharing::kFlagNtHandle, nullptr, 0,
                                            name ? name16.c_str() : nullptr, &nameTaken);
  if (!created) return nameTaken ? kNameAlreadyExists : E_OUTOFMEMORY;
  const uint64_t value = fence->value();
  fence->bindShared(state.registry, created);
  fence->setValue(value);
  fence->AddRef();
  state.sharedFences[self] = fence;
  if (!registry->addGuestObject(created)) return E_OUTOFMEMORY;
  *handle = created;
  return S_OK;
}

void Executor::ID3D11DeviceContext4_Signal(ObjectId self, ObjectId fenceId, UINT64 value) {
  const char* method = "Signal";
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  if (!context) return;
  if (state->deferred) return drop(method, "context %u is a deferred context", self);
  EmulatedFence* fence = fenceOf(fenceId, device, method);
  if (!fence) return;
  // What other contexts read at this fence must be in the sections before the value is.
  SharingState& sharingState = sharing();
  sharingState.lastReadBack = nullptr;
  publishWrittenResources();
  if (sharingState.lastReadBack == device && sharingState.signals.empty()) {
    // A publish just read a copy back on this device's immediate context, queued after all
    // the work before this Signal: Map READ returned once that copy — and so everything
    // before it on this in-order context — was done. The value is due now; no event query
    // (whose completion the worker would poll for) is needed. Earlier pending Signals keep
    // the queue's order instead.
    context->Flush();
    completeSignal(fence, value);
    return;
  }
  D3D11_QUERY_DESC desc{D3D11_QUERY_EVENT, 0};
  ID3D11Query* query = nullptr;
  if (FAILED(device->device->CreateQuery(&desc, &query)) || !query) {
    // Nothing can tell when the work is done: wait for it here instead.
    context->Flush();
    completeSignal(fence, value);
    return;
  }
  context->End(query);
  context->Flush();
  fence->AddRef();
  sharingState.signals.push_back(PendingSignal{query, fence, fenceId, value, state->device});
  pollFences();
}

void Executor::ID3D11DeviceContext4_Wait(ObjectId self, ObjectId fenceId, UINT64 value) {
  const char* method = "Wait";
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  if (!context) return;
  if (state->deferred) return drop(method, "context %u is a deferred context", self);
  EmulatedFence* fence = fenceOf(fenceId, device, method);
  if (!fence) return;
  SharingState& sharingState = sharing();
  sharingState.waitStats.waits++;
  pollFences();
  if (fence->value() < value) {
    // Hold this context: later commands wait until the value is reached.
    context->Flush();
    const uint64_t start = nowNs();
    const uint64_t limit = uint64_t(sharingState.waitTimeoutMs) * 1000000;
    for (uint32_t spins = 0; fence->value() < value; spins++) {
      // Read before the values: a signal after this read changes the epoch, so the
      // sleep below returns at once.
      sharing::Registry* registry = sharingState.registry.get();
      const uint32_t epoch = registry ? registry->syncEpoch().load(std::memory_order_seq_cst) : 0;
      pollFences();
      if (isFatal()) return;
      if (fence->value() >= value) break;
      const uint64_t elapsed = nowNs() - start;
      if (elapsed > limit) {
        makeFatal(FatalCode::DeviceHung,
                  std::string(method) + ": fence " + std::to_string(fenceId) + " stayed at " +
                      std::to_string(fence->value()) + ", below " + std::to_string(value) + ", for " +
                      std::to_string(sharingState.waitTimeoutMs) + " ms (Windows: TDR, device removed)");
        return;
      }
      if (registry && fence->handle() && sharingState.signals.empty() && !sharingState.pollSharedFences) {
        // Only another context can move it: sleep until one signals a shared fence (at
        // most 100 ms at a time, and not past the timeout).
        const uint64_t leftUs = (limit - elapsed) / 1000 + 1;
        registry->waitForSyncEpoch(epoch, uint32_t(leftUs < 100000 ? leftUs : 100000));
      } else if (spins < 64) {
        // This context's own Signal is ahead of the Wait: the backend is polled.
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
    const uint64_t blocked = nowNs() - start;
    sharingState.waitStats.blockedWaits++;
    sharingState.waitStats.blockedNs += blocked;
    if (blocked > sharingState.waitStats.maxBlockedNs) sharingState.waitStats.maxBlockedNs = blocked;
  }
  // What the signalling context published before its Signal is this context's now.
  refreshSharedResources();
}

}  // namespace npt::executor
