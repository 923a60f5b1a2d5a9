// SPDX-License-Identifier: MIT
#include "fence.h"

#include "log.h"
#include "shared_handle.h"
#include "shared_resource.h"

namespace npt::guest {

namespace {

// Fence slots of the process's connection. A released slot can be handed out at once:
// the host writes a slot only for a fence that is still alive (its DestroyObject comes
// first on the ring), and the next fence's synchronous creation rewrites it.
struct FenceSlots {
  std::mutex mutex;
  Runtime* runtime = nullptr;
  uint32_t next = 0;
  std::vector<uint32_t> free;

  bool allocate(Runtime* owner, uint32_t* slot) {
    std::lock_guard<std::mutex> lock(mutex);
    if (runtime != owner) {
      runtime = owner;
      next = 0;
      free.clear();
    }
    if (!free.empty()) {
      *slot = free.back();
      free.pop_back();
      return true;
    }
    if (next >= owner->connection().geometry().fence_count)
      return false;
    *slot = next++;
    return true;
  }
  void release(Runtime* owner, uint32_t slot) {
    std::lock_guard<std::mutex> lock(mutex);
    if (runtime == owner)
      free.push_back(slot);
  }
};

FenceSlots& fenceSlots() {
  static FenceSlots slots;
  return slots;
}

constexpr UINT kKnownFlags = D3D11_FENCE_FLAG_NONE | D3D11_FENCE_FLAG_SHARED | D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER |
                              D3D11_FENCE_FLAG_NON_MONITORED;   // NONE is 0x1 in d3d11_3.h

HRESULT syncResult(HRESULT transport, protocol::ErrorCode decoded, HRESULT result, const char* method) {
  if (FAILED(transport))
    return transport;
  if (decoded != protocol::ErrorCode::Ok) {
    NPT_ERROR("malformed %s reply from the host (%s)", method, protocol::errorName(decoded));
    return E_FAIL;
  }
  return result;
}

}  // namespace

Fence::Fence(Device* device, protocol::ObjectId id, uint32_t slot, D3D11_FENCE_FLAG flags, UINT64 handle)
: D3D11Child(device, id), m_slot(slot), m_flags(flags), m_handle(handle) {}

Fence::~Fence() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_watcher.joinable())
    m_watcher.join();
  // Events never reached stay unset, as when a fence is released on Windows.
  for (Waiter& waiter : m_waiters)
    CloseHandle(waiter.event);
  fenceSlots().release(m_runtime, m_slot);
}

HRESULT Fence::create(Device* device, UINT64 initialValue, D3D11_FENCE_FLAG flags, REFIID iid, void** out) {
  if (!out)
    return E_POINTER;   // ID3D11Device5::CreateFence needs somewhere to put the fence
  *out = nullptr;
  if (UINT(flags) & ~kKnownFlags)
    return E_INVALIDARG;
  if (!IsEqualGUID(iid, __uuidof(ID3D11Fence)) && !IsEqualGUID(iid, __uuidof(IUnknown)) &&
      !IsEqualGUID(iid, __uuidof(ID3D11DeviceChild)))
    return E_NOINTERFACE;
  Runtime* runtime = device->runtime();
  uint32_t slot = 0;
  if (!fenceSlots().allocate(runtime, &slot)) {
    NPT_ERROR("no fence slot left (%u in use)", runtime->connection().geometry().fence_count);
    return E_OUTOFMEMORY;
  }
  protocol::ObjectId id = runtime->allocateId();
  if (!id) {
    fenceSlots().release(runtime, slot);
    return E_OUTOFMEMORY;
  }
  HRESULT created = E_FAIL;
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  HRESULT hr = runtime->stream().callSync(device->statistics(),
    [&](Recorder& r) {
      return protocol::encode_ID3D11Device5_CreateFence(r.writer(), device->objectId(), initialValue, UINT(flags), slot, id);
    },
    [&](const uint8_t* reply, size_t size) { decoded = protocol::decodeReply_ID3D11Device5_CreateFence(reply, size, &created); });
  hr = syncResult(hr, decoded, created, "CreateFence");
  if (FAILED(hr)) {
    // The host registered the id (without an object) once it saw the command.
    runtime->destroyObject(device->statistics(), id);
    fenceSlots().release(runtime, slot);
    return hr;
  }
  auto* fence = new Fence(device, id, slot, flags, 0);
  return fence->QueryInterface(iid, out);   // iid checked above: the first reference
}

HRESULT Fence::open(Device* device, HANDLE handle, REFIID iid, void** out) {
  if (!out)
    return E_POINTER;
  *out = nullptr;
  if (!IsEqualGUID(iid, __uuidof(ID3D11Fence)) && !IsEqualGUID(iid, __uuidof(IUnknown)) &&
      !IsEqualGUID(iid, __uuidof(ID3D11DeviceChild)))
    return E_NOINTERFACE;
  // An NT handle of this process (CreateSharedHandle's, duplicated or inherited).
  const UINT64 value = registryValueOfSharedHandle(handle);
  if (!value)
    return E_INVALIDARG;
  Runtime* runtime = device->runtime();
  uint32_t slot = 0;
  if (!fenceSlots().allocate(runtime, &slot))
    return E_OUTOFMEMORY;
  protocol::ObjectId id = runtime->allocateId();
  if (!id) {
    fenceSlots().release(runtime, slot);
    return E_OUTOFMEMORY;
  }
  HRESULT opened = E_FAIL;
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  HRESULT hr = runtime->stream().callSync(device->statistics(),
    [&](Recorder& r) { return protocol::encode_ID3D11Device5_OpenSharedFence(r.writer(), device->objectId(), value, slot, id); },
    [&](const uint8_t* reply, size_t size) { decoded = protocol::decodeReply_ID3D11Device5_OpenSharedFence(reply, size, &opened); });
  hr = syncResult(hr, decoded, opened, "OpenSharedFence");
  if (FAILED(hr)) {
    runtime->destroyObject(device->statistics(), id);
    fenceSlots().release(runtime, slot);
    return hr;
  }
  auto* fence = new Fence(device, id, slot, D3D11_FENCE_FLAG_SHARED, value);
  hr = fence->QueryInterface(iid, out);   // iid checked above: the first reference
  // This process keeps the fence too while applications hold handles to the object, so
  // that the entry (and its value) outlives the creator's process (shared_handle.h).
  KeepCallbacks keep = fence->keepCallbacks();
  if (!keepOpenedSharedHandle(handle, keep))
    keep.release();
  return hr;
}

KeepCallbacks Fence::keepCallbacks() {
  addRefPrivate();
  m_parent->addRefPrivate();
  return keeperCallbacks(m_parent, m_id, [this] { releasePrivate(); });
}

HRESULT STDMETHODCALLTYPE Fence::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11Fence))) {
    *object = addRefed(static_cast<ID3D11Fence*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

HRESULT STDMETHODCALLTYPE Fence::CreateSharedHandle(const SECURITY_ATTRIBUTES* attributes, DWORD access,
                                                    const WCHAR* name, HANDLE* handle) {
  if (!handle)
    return E_INVALIDARG;
  *handle = nullptr;
  if (!(m_flags & D3D11_FENCE_FLAG_SHARED))
    return E_INVALIDARG;
  // Documented: "currently the only value this parameter accepts is GENERIC_ALL"; an
  // invalid parameter is DXGI_ERROR_INVALID_CALL.
  if (access != GENERIC_ALL)
    return DXGI_ERROR_INVALID_CALL;
  UINT64 registryValue = 0;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_handle) {
      HRESULT created = E_FAIL;
      UINT64 value = 0;
      protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
      // Registered without a name: names live in the object namespace (shared_handle.h).
      HRESULT hr = m_runtime->stream().callSync(m_statistics,
        [&](Recorder& r) { return protocol::encode_ID3D11Fence_CreateSharedHandle(r.writer(), m_id, access, nullptr); },
        [&](const uint8_t* reply, size_t size) {
          decoded = protocol::decodeReply_ID3D11Fence_CreateSharedHandle(reply, size, &created, &value);
        });
      hr = syncResult(hr, decoded, created, "ID3D11Fence::CreateSharedHandle");
      if (FAILED(hr))
        return hr;
      m_handle = value;
    }
    registryValue = m_handle;
  }
  // A new NT handle per call, to be closed by the application; the fence (and its device:
  // the fence's destructor reads its statistics) stays alive while one is open anywhere.
  KeepCallbacks keep = keepCallbacks();
  HRESULT hr = createSharedHandle(registryValue, attributes, access, name, keep, handle);
  if (FAILED(hr)) {
    keep.closed();   // the host counted the object this call did not make
    keep.release();
  }
  return hr;
}

UINT64 STDMETHODCALLTYPE Fence::GetCompletedValue() {
  // A removed device reports every fence complete (Windows: UINT64_MAX).
  if (m_runtime->connection().status() != transport::kOk)
    return UINT64_MAX;
  return m_runtime->connection().fence_value(m_slot);
}

HRESULT STDMETHODCALLTYPE Fence::SetEventOnCompletion(UINT64 value, HANDLE event) {
  if (GetCompletedValue() >= value) {
    if (event)
      SetEvent(event);
    return S_OK;
  }
  if (!event) {
    // No event: block until the value is reached. The host pushes it into the slot and
    // wakes the slot's sleepers; a removed device reads UINT64_MAX (checked at least
    // every 10 ms).
    for (UINT64 completed = GetCompletedValue(); completed < value; completed = GetCompletedValue())
      m_runtime->connection().wait_fence_change(m_slot, completed, 10000);
    return m_runtime->connection().status() == transport::kOk ? S_OK : DXGI_ERROR_DEVICE_REMOVED;
  }
  HANDLE duplicate = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), event, GetCurrentProcess(), &duplicate, 0, FALSE, DUPLICATE_SAME_ACCESS))
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(m_mutex);
  m_waiters.push_back({value, duplicate});
  if (!m_watcher.joinable())
    m_watcher = std::thread([this] { watch(); });
  m_wake.notify_all();
  return S_OK;
}

void Fence::watch() {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_stopping) {
    if (m_waiters.empty()) {
      m_wake.wait(lock);
      continue;
    }
    const UINT64 completed = GetCompletedValue();
    for (size_t i = 0; i < m_waiters.size();) {
      if (completed >= m_waiters[i].value) {
        SetEvent(m_waiters[i].event);
        CloseHandle(m_waiters[i].event);
        m_waiters.erase(m_waiters.begin() + long(i));
      } else {
        i++;
      }
    }
    if (m_waiters.empty())
      continue;
    // Sleep until the host writes the slot (it wakes the slot's sleepers), at most 10 ms
    // (a removed device, a new waiter or the fence's end are noticed then). Where the
    // guest has no cross-process wait (real Windows) this is a sleep of at most 1 ms.
    lock.unlock();
    m_runtime->connection().wait_fence_change(m_slot, completed, 10000);
    lock.lock();
  }
}

}  // namespace npt::guest
