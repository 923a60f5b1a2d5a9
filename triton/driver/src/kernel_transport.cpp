// SPDX-License-Identifier: MIT
#include "kernel_transport.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "default_geometry.h"
#include "external_transport.h"
#include "log.h"
#include "neptune/transport/layout.h"
#include "target_device.h"
#include "triton/kernel/contract.h"

namespace triton::driver::kernel_transport {

namespace {

namespace kc = triton::kernel;

// A blob id per transport region id (CONTRACT.md, "Blob memory").
static_assert(kc::kMaxBlobId + 1 == npt::transport::kMaxBulkRegions);

// The geometry Triton asks the kernel for: the guest runtime's own, which it would ask a
// server for (guest/core/default_geometry.h: ring 0 and four rings for deferred contexts).
kc::ContextGeometry requestedGeometry() {
  const npt::transport::Geometry wanted = npt::guest::defaultGeometry();
  kc::ContextGeometry g{};
  g.ring_count = wanted.ring_count;
  g.ring_size = wanted.ring_size;
  g.reply_slot_count = wanted.reply_slot_count;
  g.reply_slot_size = wanted.reply_slot_size;
  g.push_slot_count = wanted.push_slot_count;
  g.fence_count = wanted.fence_count;
  g.bulk_size = wanted.bulk_size;
  return g;
}

enum class State { None, Open, Closed };

// The process's one context (the guest runtime keeps one connection per process).
struct Transport {
  std::mutex mutex;
  std::atomic<State> state{State::None};
  const ddi::D3DDDI_DEVICECALLBACKS* callbacks = nullptr;   // the owner device's
  ddi::D3D10DDI_HRTDEVICE owner{};
  uint32_t contextId = 0;
  ddi::D3DKMT_HANDLE blobAllocation = 0;
  uint8_t* base = nullptr;
  uint64_t size = 0;
  // Bulk regions after creation (granted_flags): blob ids 1..63, allocated and locked
  // when the guest runtime maps a region the host granted, freed when it releases one.
  bool bulkRegions = false;
  struct Region {
    ddi::D3DKMT_HANDLE allocation = 0;
    uint8_t* base = nullptr;
  };
  std::mutex regionMutex;
  std::array<Region, kc::kMaxBlobId + 1> regions{};
};

Transport& transport() {
  static Transport t;
  return t;
}

// One escape: the header's status, or the failing HRESULT of the call itself (then the
// buffer is not the kernel's answer). A header that came back changed in its magic,
// version or code is not an answer either.
HRESULT escape(const ddi::D3DDDI_DEVICECALLBACKS* callbacks, ddi::D3D10DDI_HRTDEVICE device, void* body, uint32_t size,
               kc::KernelStatus* status) {
  kc::EscapeHeader sent;
  std::memcpy(&sent, body, sizeof(sent));
  ddi::D3DDDICB_ESCAPE args{};
  args.hDevice = device.handle;
  args.pPrivateDriverData = body;
  args.PrivateDriverDataSize = size;
  const HRESULT hr = callbacks->pfnEscapeCb(device.handle, &args);
  if (FAILED(hr))
    return hr;
  kc::EscapeHeader answer;
  std::memcpy(&answer, body, sizeof(answer));
  if (answer.magic != sent.magic || answer.version != sent.version || answer.code != sent.code ||
      answer.size != sent.size)
    return E_FAIL;
  *status = kc::KernelStatus(answer.status);
  return S_OK;
}

// The guest runtime's doorbell and waits, as escapes of the owner device.
void ringDoorbell(void* context, uint32_t* word) {
  Transport& t = *static_cast<Transport*>(context);
  if (t.state.load() != State::Open)
    return;
  kc::NotifyBody body{kc::escapeHeader(kc::EscapeCode::Notify), t.contextId, *word};
  kc::KernelStatus status{};
  if (FAILED(escape(t.callbacks, t.owner, &body, sizeof(body), &status)) || status != kc::KernelStatus::Ok)
    TRITON_LOG(Debug, "kernel transport: the doorbell escape failed (status %d)", int(status));
}

int32_t waitForWord(void* context, const uint32_t* word, uint32_t expected, uint32_t timeoutUs) {
  Transport& t = *static_cast<Transport*>(context);
  if (t.state.load() != State::Open)
    return 0;
  const auto* at = reinterpret_cast<const uint8_t*>(word);
  if (at < t.base || at + sizeof(uint32_t) > t.base + t.size)
    return 0;   // not a word of blob 0: nothing this transport can wait on
  kc::WaitBody body{kc::escapeHeader(kc::EscapeCode::Wait)};
  body.context_id = t.contextId;
  body.blob_id = kc::kContextBlobId;
  body.offset = uint64_t(at - t.base);
  body.expected = expected;
  body.timeout_us = timeoutUs < kc::kMaxWaitMicroseconds ? timeoutUs : kc::kMaxWaitMicroseconds;
  kc::KernelStatus status{};
  if (FAILED(escape(t.callbacks, t.owner, &body, sizeof(body), &status)))
    return 0;
  return status == kc::KernelStatus::Ok || status == kc::KernelStatus::Timeout ? 1 : 0;
}

// Allocates blob `blob` of the context and locks it (blob 0 at creation, bulk regions
// later): the allocation and its address, or a failure (nothing left allocated).
HRESULT allocateBlob(const ddi::D3DDDI_DEVICECALLBACKS* callbacks, ddi::D3D10DDI_HRTDEVICE device, uint32_t contextId,
                     uint32_t blobId, uint64_t size, ddi::D3DKMT_HANDLE* allocation, uint8_t** base) {
  kc::BlobAllocation blob{kc::kBlobMagic, kc::kContractVersion, 0, contextId, blobId, size, 0};
  ddi::D3DDDI_ALLOCATIONINFO info{};
  info.pPrivateDriverData = &blob;
  info.PrivateDriverDataSize = sizeof(blob);
  ddi::D3DDDICB_ALLOCATE allocate{};
  allocate.NumAllocations = 1;
  allocate.pAllocationInfo = &info;
  HRESULT hr = callbacks->pfnAllocateCb(device.handle, &allocate);
  if (FAILED(hr) || !info.hAllocation) {
    TRITON_LOG(Error, "kernel transport: allocating blob %u failed (0x%08lx)", blobId, static_cast<unsigned long>(hr));
    return FAILED(hr) ? hr : E_FAIL;
  }
  ddi::D3DDDICB_LOCK lock{};
  lock.hAllocation = info.hAllocation;
  lock.Flags.Value = ddi::D3DDDI_LOCKFLAG_LOCKENTIRE;
  hr = callbacks->pfnLockCb(device.handle, &lock);
  if (FAILED(hr) || !lock.pData) {
    TRITON_LOG(Error, "kernel transport: locking blob %u failed (0x%08lx)", blobId, static_cast<unsigned long>(hr));
    const ddi::D3DDDICB_DEALLOCATE free{nullptr, 1, &info.hAllocation};
    if (callbacks->pfnDeallocateCb)
      callbacks->pfnDeallocateCb(device.handle, &free);
    return FAILED(hr) ? hr : E_FAIL;
  }
  *allocation = info.hAllocation;
  *base = static_cast<uint8_t*>(lock.pData);
  return S_OK;
}

// The guest runtime maps bulk region `region` the host granted: blob `region`.
uint8_t* mapRegion(void* context, uint32_t region, uint64_t size) {
  Transport& t = *static_cast<Transport*>(context);
  if (t.state.load() != State::Open || region < kc::kFirstRegionBlobId || region > kc::kMaxBlobId || !size ||
      size > SIZE_MAX)
    return nullptr;
  std::lock_guard<std::mutex> guard(t.regionMutex);
  Transport::Region& r = t.regions[region];
  if (r.allocation)
    return nullptr;   // the transport maps a region once
  if (FAILED(allocateBlob(t.callbacks, t.owner, t.contextId, region, size, &r.allocation, &r.base)))
    return nullptr;
  TRITON_LOG(Debug, "kernel transport: bulk region %u (%llu bytes) mapped as a blob", region,
             static_cast<unsigned long long>(size));
  return r.base;
}

// The guest runtime released region `region` (the host freed it): the blob allocation goes.
void unmapRegion(void* context, uint32_t region) {
  Transport& t = *static_cast<Transport*>(context);
  if (region < kc::kFirstRegionBlobId || region > kc::kMaxBlobId)
    return;
  std::lock_guard<std::mutex> guard(t.regionMutex);
  Transport::Region& r = t.regions[region];
  // After the owner's destruction its allocations are the runtime's (freed with it) and
  // its callbacks are gone.
  if (r.allocation && t.state.load() == State::Open) {
    const ddi::D3DDDICB_UNLOCK unlock{1, &r.allocation};
    if (t.callbacks->pfnUnlockCb)
      t.callbacks->pfnUnlockCb(t.owner.handle, &unlock);
    const ddi::D3DDDICB_DEALLOCATE free{nullptr, 1, &r.allocation};
    if (t.callbacks->pfnDeallocateCb)
      t.callbacks->pfnDeallocateCb(t.owner.handle, &free);
  }
  r = Transport::Region{};
}

HRESULT fail(const char* what, kc::KernelStatus status) {
  TRITON_LOG(Error, "kernel transport: %s (kernel status %d)", what, int(status));
  return E_FAIL;
}

void destroyContext(Transport& t) {
  kc::ContextBody body{kc::escapeHeader(kc::EscapeCode::DestroyContext), t.contextId, 0};
  kc::KernelStatus status{};
  if (FAILED(escape(t.callbacks, t.owner, &body, sizeof(body), &status)) || status != kc::KernelStatus::Ok)
    TRITON_LOG(Warn, "kernel transport: DestroyContext of context %u failed (status %d)", t.contextId, int(status));
}

HRESULT createContext(Transport& t, const ddi::D3DDDI_DEVICECALLBACKS* callbacks, ddi::D3D10DDI_HRTDEVICE device) {
  if (!callbacks || !callbacks->pfnEscapeCb || !callbacks->pfnAllocateCb || !callbacks->pfnLockCb) {
    TRITON_LOG(Error, "kernel transport: the runtime offers no escape/allocate/lock callbacks");
    return E_FAIL;
  }
  kc::KernelStatus status{};
  // 1. The capability set: a Neptune host behind this adapter, speaking our layout.
  kc::CapsetBody capset{kc::escapeHeader(kc::EscapeCode::QueryCapset)};
  HRESULT hr = escape(callbacks, device, &capset, sizeof(capset), &status);
  if (FAILED(hr)) {
    TRITON_LOG(Error, "kernel transport: the kernel does not answer the Neptune escape (0x%08lx)",
               static_cast<unsigned long>(hr));
    return E_FAIL;
  }
  if (status != kc::KernelStatus::Ok)
    return fail("QueryCapset refused", status);
  const uint32_t layoutVersion = npt::transport::kVersion;
  if (capset.capset.capset_id != kc::kNeptuneCapsetId || capset.capset.capset_version < kc::kNeptuneCapsetVersion ||
      layoutVersion < capset.capset.transport_min_version || layoutVersion > capset.capset.transport_max_version)
    return fail("the capset is not Neptune's or speaks no layout version of this build", status);

  // 2. The context (virtio-gpu context of the Neptune capset), laid out by the host.
  kc::CreateContextBody create{kc::escapeHeader(kc::EscapeCode::CreateContext)};
  create.capset_id = kc::kNeptuneCapsetId;
  create.geometry = requestedGeometry();
  if (FAILED(escape(callbacks, device, &create, sizeof(create), &status)))
    return fail("CreateContext escape failed", status);
  create.message[sizeof(create.message) - 1] = 0;
  if (status == kc::KernelStatus::Refused) {
    TRITON_LOG(Error, "kernel transport: the host refused the context: %s", create.message);
    return E_OUTOFMEMORY;
  }
  if (status != kc::KernelStatus::Ok)
    return fail("CreateContext refused", status);
  npt::transport::Geometry geometry;
  geometry.ring_count = create.geometry.ring_count;
  geometry.ring_size = create.geometry.ring_size;
  geometry.reply_slot_count = create.geometry.reply_slot_count;
  geometry.reply_slot_size = create.geometry.reply_slot_size;
  geometry.push_slot_count = create.geometry.push_slot_count;
  geometry.fence_count = create.geometry.fence_count;
  geometry.bulk_size = create.geometry.bulk_size;
  t.callbacks = callbacks;
  t.owner = device;
  t.contextId = create.context_id;
  if (!create.context_id || create.transport_version != layoutVersion ||
      create.context_blob_size < geometry.total_size() || create.context_blob_size > SIZE_MAX) {
    if (create.context_id)
      destroyContext(t);
    return fail("CreateContext answered an unusable context", status);
  }

  // 3. Blob 0 as a kernel allocation of the device, mapped by locking it.
  if (FAILED(allocateBlob(callbacks, device, create.context_id, kc::kContextBlobId, create.context_blob_size,
                          &t.blobAllocation, &t.base))) {
    destroyContext(t);
    return E_FAIL;
  }
  t.size = create.context_blob_size;
  // Regions after creation need the kernel's grant and the callbacks that free them.
  t.bulkRegions = (create.granted_flags & kc::kCapsetBulkRegions) && (capset.capset.flags & kc::kCapsetBulkRegions) &&
                  callbacks->pfnDeallocateCb;
  return S_OK;
}

}  // namespace

namespace {

// The value name in the adapter's software key (triton/packaging/triton.inf).
constexpr wchar_t kTransportValueName[] = L"TritonTransport";

// The runtime's adapter callbacks end with pfnQueryAdapterInfoCb2 from Windows 10 1803
// (build 17134) on; an older runtime's table is shorter and must not be read past.
bool runtimeHasRegistryQuery() {
  using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
  HMODULE ntdll = GetModuleHandleA("ntdll.dll");
  auto getVersion =
      ntdll ? reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")))
            : nullptr;
  OSVERSIONINFOW info{};
  info.dwOSVersionInfoSize = sizeof(info);
  if (!getVersion || getVersion(&info) != 0)
    return false;
  return info.dwMajorVersion > 10 || (info.dwMajorVersion == 10 && info.dwBuildNumber >= 17134);
}

// "kernel" or "socket" from the adapter's software key; empty when absent or unreadable.
std::wstring transportFromAdapterKey(const ddi::D3D10DDIARG_OPENADAPTER& args) {
  if (!args.pAdapterCallbacks || !runtimeHasRegistryQuery() || !args.pAdapterCallbacks->pfnQueryAdapterInfoCb2)
    return {};
  // The query and room for a short string after it.
  union {
    ddi::D3DDDI_QUERYREGISTRY_INFO info;
    uint8_t bytes[sizeof(ddi::D3DDDI_QUERYREGISTRY_INFO) + 64];
  } query{};
  query.info.QueryType = ddi::D3DDDI_QUERYREGISTRY_ADAPTERKEY;
  std::memcpy(query.info.ValueName, kTransportValueName, sizeof(kTransportValueName));
  query.info.ValueType = REG_SZ;
  ddi::D3DDDICB_QUERYADAPTERINFO2 args2{ddi::D3DDDI_QUERYADAPTERTYPE_QUERYREGISTRY, &query, sizeof(query)};
  const HRESULT hr = args.pAdapterCallbacks->pfnQueryAdapterInfoCb2(args.hRTAdapter.handle, &args2);
  if (FAILED(hr) || query.info.Status != ddi::D3DDDI_QUERYREGISTRY_STATUS_SUCCESS)
    return {};
  const size_t room = (sizeof(query) - offsetof(ddi::D3DDDI_QUERYREGISTRY_INFO, OutputString)) / sizeof(wchar_t);
  const size_t chars = std::min<size_t>(query.info.OutputValueSize / sizeof(wchar_t), room);
  std::wstring value(query.info.OutputString, chars);
  while (!value.empty() && value.back() == L'\0')
    value.pop_back();
  return value;
}

enum class Choice { Undecided, Socket, Kernel };
std::atomic<Choice> g_choice{Choice::Undecided};

Choice choiceFromEnvironment() {
  const char* value = std::getenv("TRITON_TRANSPORT");
  return value && std::strcmp(value, "kernel") == 0 ? Choice::Kernel : Choice::Socket;
}

}  // namespace

void chooseTransport(const ddi::D3D10DDIARG_OPENADAPTER& args) {
  Choice choice;
  if (const char* value = std::getenv("TRITON_TRANSPORT"); value && *value) {
    choice = choiceFromEnvironment();
  } else {
    const std::wstring fromKey = transportFromAdapterKey(args);
    choice = fromKey == L"kernel" ? Choice::Kernel : Choice::Socket;
    if (!fromKey.empty() && fromKey != L"kernel" && fromKey != L"socket")
      TRITON_LOG(Warn, "kernel transport: the adapter key's TritonTransport is neither kernel nor socket: socket");
  }
  g_choice.store(choice);
  TRITON_LOG(Info, "transport: %s", choice == Choice::Kernel ? "kernel" : "socket");
}

bool selected() {
  Choice choice = g_choice.load();
  return (choice == Choice::Undecided ? choiceFromEnvironment() : choice) == Choice::Kernel;
}


bool open() { return transport().state.load() == State::Open; }
bool closed() { return transport().state.load() == State::Closed; }

HRESULT connect(const ddi::D3DDDI_DEVICECALLBACKS* callbacks, ddi::D3D10DDI_HRTDEVICE runtimeDevice) {
  Transport& t = transport();
  std::lock_guard<std::mutex> guard(t.mutex);
  if (t.state.load() == State::Open)
    return S_OK;
  if (t.state.load() == State::Closed)
    return DXGI_ERROR_DEVICE_REMOVED;
  if (HRESULT hr = createContext(t, callbacks, runtimeDevice); FAILED(hr))
    return hr;

  // 4. The guest runtime Triton targets takes the memory and the two functions.
  HMODULE module = targetModule();
  auto attach = module ? reinterpret_cast<PFN_NptAttachExternalTransport>(reinterpret_cast<void*>(
                             GetProcAddress(module, kNptAttachExternalTransportExport)))
                       : nullptr;
  NptExternalTransport external{sizeof(NptExternalTransport),
                                kNptExternalTransportVersion,
                                &t,
                                t.base,
                                t.size,
                                ringDoorbell,
                                waitForWord,
                                t.bulkRegions ? mapRegion : nullptr,
                                t.bulkRegions ? unmapRegion : nullptr};
  t.state.store(State::Open);
  const HRESULT hr = attach ? HRESULT(attach(&external)) : E_NOINTERFACE;
  if (FAILED(hr)) {
    TRITON_LOG(Error, "kernel transport: the target is no Neptune guest runtime that takes a transport (0x%08lx)",
               static_cast<unsigned long>(hr));
    destroyContext(t);
    t.state.store(State::Closed);
    return E_FAIL;
  }
  TRITON_LOG(Info, "kernel transport: context %u, blob 0 of %llu bytes, %s", t.contextId,
             static_cast<unsigned long long>(t.size),
             t.bulkRegions ? "bulk regions as blobs 1..63" : "no bulk regions after creation");
  return S_OK;
}

bool deviceDestroyed(ddi::D3D10DDI_HRTDEVICE runtimeDevice) {
  Transport& t = transport();
  std::lock_guard<std::mutex> guard(t.mutex);
  if (t.state.load() != State::Open || t.owner.handle != runtimeDevice.handle)
    return false;
  // The allocation goes with the device (the runtime frees a device's allocations); the
  // context ends here, while the owner's callbacks are valid.
  destroyContext(t);
  t.state.store(State::Closed);
  return true;
}

}  // namespace triton::driver::kernel_transport
