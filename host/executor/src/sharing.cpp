// SPDX-License-Identifier: MIT
// Shared resources between contexts: IDXGIResource::GetSharedHandle,
// IDXGIResource1::CreateSharedHandle, ID3D11Device::OpenSharedResource (also serving
// OpenSharedResource1), OpenSharedResourceByName, IDXGIKeyedMutex.
//
// Wine's d3d11 cannot share, so each context keeps its own backend resource and the
// content travels through a shared-memory section of the registry entry (linear,
// subresources in D3D11 order, rows tightly packed; host/sharing/README.md):
//   * publish (this context's resource -> section; one CPU copy, counted), only of a
//     resource this context wrote since it last published or refreshed it
//     (sharing_writes.cpp): without a keyed mutex by any context holding it — creator or
//     opener — at each Signal, Flush and Present (and by the creator when the handle is
//     first handed out); with a keyed mutex by whichever context holds it, at ReleaseSync;
//   * refresh (section -> this context's resource; one CPU copy, counted, only when the
//     entry's content version moved and this context has no unpublished writes of its
//     own): at OpenSharedResource, AcquireSync, Wait, and after each batch for resources
//     without a keyed mutex.
// Two contexts writing one resource between their publications: the later publication
// wins, for the whole resource (a shared GPU resource would merge disjoint writes).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "npt/executor/executor.h"
#include "npt/validation/subresource.h"
#include "records.h"
#include "sharing_state.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

namespace {

constexpr HRESULT kWaitAbandoned = HRESULT(0x00000080);   // WAIT_ABANDONED
constexpr HRESULT kWaitTimeout = HRESULT(0x00000102);     // WAIT_TIMEOUT
// One AcquireSync call waits at most this long on the host; the guest repeats the call
// until its own timeout, so a context never blocks for longer than this per command.
constexpr uint32_t kAcquireSliceMs = 100;
constexpr UINT kOpenedThroughOpenSharedResource1 = 1;   // OpenSharedResource's Flags bit 0

bool contentBytesOf(const validation::ResourceShape& shape, uint64_t& bytes) {
  bytes = 0;
  for (uint32_t sub = 0; sub < shape.subresourceCount(); sub++) {
    validation::SubresourceFootprint footprint;
    if (!validation::footprintOf(shape, sub, footprint)) return false;
    bytes += footprint.rowBytes * footprint.rows * footprint.depth;
    if (bytes > sharing::kMaxContentBytes) return false;
  }
  return true;
}

void descWordsOf(const validation::ResourceShape& shape, uint32_t* words) {
  std::memset(words, 0, sizeof(uint32_t) * sharing::kDescWords);
  if (shape.isBuffer()) {
    const uint32_t buffer[] = {shape.width, uint32_t(shape.usage), shape.bindFlags, shape.cpuAccessFlags,
                               shape.miscFlags, shape.structureByteStride};
    std::memcpy(words, buffer, sizeof(buffer));
  } else {
    const uint32_t texture[] = {shape.width, shape.height, shape.mipLevels, shape.arraySize, uint32_t(shape.format),
                                shape.sampleCount, shape.sampleQuality, uint32_t(shape.usage), shape.bindFlags,
                                shape.cpuAccessFlags, shape.miscFlags};
    std::memcpy(words, texture, sizeof(texture));
  }
}

D3D11_TEXTURE2D_DESC texture2DDescOf(const uint32_t* w) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = w[0];
  desc.Height = w[1];
  desc.MipLevels = w[2];
  desc.ArraySize = w[3];
  desc.Format = DXGI_FORMAT(w[4]);
  desc.SampleDesc.Count = w[5];
  desc.SampleDesc.Quality = w[6];
  desc.Usage = D3D11_USAGE(w[7]);
  desc.BindFlags = w[8];
  desc.CPUAccessFlags = w[9];
  desc.MiscFlags = w[10];
  return desc;
}

D3D11_BUFFER_DESC bufferDescOf(const uint32_t* w) {
  D3D11_BUFFER_DESC desc{};
  desc.ByteWidth = w[0];
  desc.Usage = D3D11_USAGE(w[1]);
  desc.BindFlags = w[2];
  desc.CPUAccessFlags = w[3];
  desc.MiscFlags = w[4];
  desc.StructureByteStride = w[5];
  return desc;
}

bool sameGuid(const GUID& a, const GUID& b) { return std::memcmp(&a, &b, sizeof(GUID)) == 0; }

}  // namespace

// How long a context that leaves an orphan behind waits for the server to hold its
// content section (the server sweeps every 20 ms).
constexpr uint32_t kOrphanHandOverMs = 2000;

void releaseSharedEntry(sharing::Registry& registry, SharedResource& resource, uint32_t contextToken) {
  if (resource.mutexHeld) registry.abandonKeyedMutex(resource.handle, contextToken);
  registry.releaseReference(resource.handle);
#if defined(_WIN32)
  // Guest NT handles still name the entry (an orphan now): its content must outlive this
  // context's section, which closes next. Natively the content file stays by itself.
  if (registry.orphaned(resource.handle) && !registry.waitUntilServerHolds(resource.handle, kOrphanHandOverMs))
    std::fprintf(stderr, "sharing: the orphaned entry %#llx's content is not held by the server: it goes with this context\n",
                 static_cast<unsigned long long>(resource.handle));
#endif
}

SharingState::~SharingState() { clear(); }

void SharingState::clear() {
  for (PendingSignal& signal : signals) {
    signal.query->Release();
    signal.fence->Release();
  }
  signals.clear();
  for (auto& [id, fence] : sharedFences) fence->Release();
  sharedFences.clear();
  for (auto& [id, resource] : resources)
    if (registry) releaseSharedEntry(*registry, *resource, contextToken);
  resources.clear();
  sharedBindFlags = 0;
  deferredWrites.clear();
}

void SharingState::resourcesChanged() {
  sharedBindFlags = 0;
  for (auto& [id, resource] : resources) sharedBindFlags |= resource->shape.bindFlags;
}

sharing::Registry* Executor::sharingRegistry() {
  SharingState& state = sharing();
  if (!state.registry && !state.registryFailed) {
    std::string error;
    std::unique_ptr<sharing::Registry> registry =
        sharing::Registry::open(sharing::Registry::instanceFromEnvironment(), &error);
    if (!registry) {
      state.registryFailed = true;
      log("sharing: %s", error.c_str());
      return nullptr;
    }
    state.registry = std::move(registry);
  }
  return state.registry.get();
}

void Executor::forgetShared(ObjectId id) {
  if (!m_sharing) return;
  SharingState& state = *m_sharing;
  if (auto it = state.sharedFences.find(id); it != state.sharedFences.end()) {
    it->second->Release();
    state.sharedFences.erase(it);
  }
  if (auto it = state.resources.find(id); it != state.resources.end()) {
    if (state.registry) releaseSharedEntry(*state.registry, *it->second, state.contextToken);
    state.resources.erase(it);
    state.resourcesChanged();
  }
  state.deferredWrites.erase(id);   // a deferred context or command list
}

void Executor::dropSharing() {
  if (!m_sharing) return;
  const SharingState& state = *m_sharing;
  if (state.publishes || state.refreshes || state.unwrittenSkips)
    log("sharing: %llu publishes (%llu bytes), %llu refreshes (%llu bytes), %llu publications skipped (not written)",
        (unsigned long long)state.publishes, (unsigned long long)state.publishedBytes,
        (unsigned long long)state.refreshes, (unsigned long long)state.refreshedBytes,
        (unsigned long long)state.unwrittenSkips);
  m_sharing->clear();
}

namespace {

// Backend resource -> section, through a staging copy. Returns the bytes copied.
uint64_t publishContent(SharedResource& shared) {
  ID3D11Resource* resource = shared.object;
  DeviceState& device = *shared.device;
  ID3D11DeviceContext* context = device.immediate;
  if (!shared.staging) {
    if (shared.shape.isBuffer()) {
      D3D11_BUFFER_DESC desc{};
      desc.ByteWidth = shared.shape.width;
      desc.Usage = D3D11_USAGE_STAGING;
      desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
      ID3D11Buffer* buffer = nullptr;
      if (FAILED(device.device->CreateBuffer(&desc, nullptr, &buffer))) return 0;
      shared.staging = buffer;
    } else {
      D3D11_TEXTURE2D_DESC desc{};
      desc.Width = shared.shape.width;
      desc.Height = shared.shape.height;
      desc.MipLevels = shared.shape.mipLevels;
      desc.ArraySize = shared.shape.arraySize;
      desc.Format = shared.shape.format;
      desc.SampleDesc.Count = 1;
      desc.Usage = D3D11_USAGE_STAGING;
      desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
      ID3D11Texture2D* texture = nullptr;
      if (FAILED(device.device->CreateTexture2D(&desc, nullptr, &texture))) return 0;
      shared.staging = texture;
    }
  }
  context->CopyResource(shared.staging, resource);
  uint8_t* out = shared.content.data();
  uint64_t offset = 0;
  for (uint32_t sub = 0; sub < shared.shape.subresourceCount(); sub++) {
    validation::SubresourceFootprint footprint;
    if (!validation::footprintOf(shared.shape, sub, footprint)) return 0;
    D3D11_MAPPED_SUBRESOURCE mapped{};
    if (FAILED(context->Map(shared.staging, sub, D3D11_MAP_READ, 0, &mapped))) return 0;
    for (uint64_t row = 0; row < footprint.rows; row++) {
      if (offset + footprint.rowBytes > shared.content.size()) break;
      std::memcpy(out + offset, static_cast<const uint8_t*>(mapped.pData) + row * mapped.RowPitch,
                  size_t(footprint.rowBytes));
      offset += footprint.rowBytes;
    }
    context->Unmap(shared.staging, sub);
  }
  return offset;
}

// Section -> backend resource. Returns the bytes copied.
uint64_t refreshContent(SharedResource& shared) {
  ID3D11Resource* resource = shared.object;
  ID3D11DeviceContext* context = shared.device->immediate;
  const uint8_t* in = shared.content.data();
  uint64_t offset = 0;
  for (uint32_t sub = 0; sub < shared.shape.subresourceCount(); sub++) {
    validation::SubresourceFootprint footprint;
    if (!validation::footprintOf(shared.shape, sub, footprint)) return offset;
    const uint64_t bytes = footprint.rowBytes * footprint.rows;
    if (offset + bytes > shared.content.size()) return offset;
    context->UpdateSubresource(resource, sub, nullptr, in + offset, UINT(footprint.rowBytes), UINT(bytes));
    offset += bytes;
  }
  return offset;
}

}  // namespace

namespace {

// NPT_SHARED_PUBLISH=always: the creator publishes whether written or not (the baseline).
bool publishes(const SharingState& state, const SharedResource& shared) {
  return shared.written || (state.publishAlways && shared.owner);
}

// This context's resource -> section; the entry's content version moves.
void publish(SharingState& state, SharedResource& shared) {
  const uint64_t bytes = publishContent(shared);
  if (std::atomic<uint64_t>* version = state.registry->contentVersion(shared.handle)) {
    shared.localVersion = version->fetch_add(1, std::memory_order_acq_rel) + 1;
    state.registry->countCopy(shared.handle, bytes);
  }
  shared.written = false;
  state.lastReadBack = shared.device.get();
  state.publishes++;
  state.publishedBytes += bytes;
}

// Section -> this context's resource, when another context published since.
void refreshIfMoved(SharingState& state, SharedResource& shared) {
  std::atomic<uint64_t>* version = state.registry->contentVersion(shared.handle);
  const uint64_t current = version ? version->load(std::memory_order_acquire) : 0;
  if (!current || current == shared.localVersion) return;
  const uint64_t bytes = refreshContent(shared);
  state.registry->countCopy(shared.handle, bytes);
  shared.localVersion = current;
  shared.written = false;
  state.refreshes++;
  state.refreshedBytes += bytes;
}

}  // namespace

void Executor::publishWrittenResources() {
  if (!m_sharing || !m_sharing->registry || isFatal()) return;
  SharingState& state = *m_sharing;
  for (auto& [id, shared] : state.resources) {
    if (shared->keyedMutex) continue;
    if (publishes(state, *shared))
      publish(state, *shared);
    else
      state.unwrittenSkips++;
  }
}

void Executor::refreshSharedResources() {
  if (!m_sharing || !m_sharing->registry || isFatal()) return;
  SharingState& state = *m_sharing;
  for (auto& [id, shared] : state.resources) {
    // Unpublished writes of this context stay (they are published at its next Signal,
    // Flush or Present; a newer publication of another context is then overwritten).
    if (shared->keyedMutex || publishes(state, *shared)) continue;
    refreshIfMoved(state, *shared);
  }
}

namespace {

struct OwnerRequest {
  bool ntHandle = false;            // CreateSharedHandle (else GetSharedHandle / keyed mutex)
  const WCHAR* name = nullptr;
};

}  // namespace

// The shared entry of a resource this context created, made on first use.
static HRESULT shareOwned(SharingState& state, sharing::Registry& registry, ObjectId id, ID3D11Resource* object,
                          const validation::ResourceShape& shape, std::shared_ptr<DeviceState> device,
                          const OwnerRequest& request, SharedResource** out) {
  *out = nullptr;
  if (auto it = state.resources.find(id); it != state.resources.end()) {
    *out = it->second.get();
    return S_OK;
  }
  // Buffers and single-sampled 2D textures only: the registry's desc and the section's
  // layout hold nothing else, and a multisampled texture cannot be read back through a
  // staging copy (host/sharing/README.md). The guest never asks for others.
  uint64_t bytes = 0;
  if ((!shape.isBuffer() && shape.dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D) || !contentBytesOf(shape, bytes) ||
      shape.sampleCount != 1)
    return E_INVALIDARG;
  uint32_t words[sharing::kDescWords];
  descWordsOf(shape, words);
  std::u16string name16;
  if (request.name)
    for (const WCHAR* p = request.name; *p && name16.size() < sharing::kNameUnits; p++) name16 += char16_t(*p);
  uint32_t flags = request.ntHandle ? sharing::kFlagNtHandle : sharing::kFlagLegacyHandle;
  if (shape.miscFlags & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX) flags |= sharing::kFlagKeyedMutex;
  bool nameTaken = false;
  const uint64_t handle = registry.create(state.contextToken, shape.isBuffer() ? sharing::Kind::Buffer : sharing::Kind::Texture2D,
                                          flags, words, bytes, request.name ? name16.c_str() : nullptr, &nameTaken);
  if (!handle) return nameTaken ? kNameAlreadyExists : E_OUTOFMEMORY;
  auto shared = std::make_unique<SharedResource>();
  shared->handle = handle;
  shared->owner = true;
  shared->object = object;
  // Written before it was shared (untracked until now): published at once.
  shared->written = true;
  shared->keyedMutex = flags & sharing::kFlagKeyedMutex;
  shared->shape = shape;
  shared->device = std::move(device);
  shared->content = sharing::Section::create(sharing::Registry::contentName(registry.instance(), handle),
                                             bytes ? bytes : 1);
  if (!shared->content.valid()) {
    registry.releaseReference(handle);
    return E_OUTOFMEMORY;
  }
  *out = shared.get();
  state.resources[id] = std::move(shared);
  state.resourcesChanged();
  return S_OK;
}

HRESULT Executor::IDXGIResource_GetSharedHandle(ObjectId self, UINT64* pSharedHandle) {
  const char* method = "GetSharedHandle";
  *pSharedHandle = 0;
  IUnknown* object = nullptr;
  Record* record = nullptr;
  if (!resolve(self, InterfaceId::ID3D11Resource, false, method, &object, &record))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  auto* resource = static_cast<ResourceState*>(record);
  const uint32_t misc = resource->shape.miscFlags;
  // Only resources created SHARED or SHARED_KEYEDMUTEX have a (non-NT) shared handle.
  if (!(misc & (D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX)) ||
      (misc & D3D11_RESOURCE_MISC_SHARED_NTHANDLE))
    return E_INVALIDARG;
  sharing::Registry* registry = sharingRegistry();
  if (!registry) return E_OUTOFMEMORY;
  SharingState& state = sharing();
  SharedResource* shared = nullptr;
  HRESULT hr = shareOwned(state, *registry, self, static_cast<ID3D11Resource*>(object), resource->shape, resource->device, {}, &shared);
  if (FAILED(hr)) return hr;
  if (!shared->owner) return E_INVALIDARG;   // an opened resource: its creator's handle
  registry->addFlags(shared->handle, sharing::kFlagLegacyHandle);
  // An opener sees what was rendered before the handle was handed out.
  if (!shared->keyedMutex) publishWrittenResources();
  *pSharedHandle = shared->handle;
  return S_OK;
}

HRESULT Executor::IDXGIResource1_CreateSharedHandle(ObjectId self, DWORD access, const WCHAR* name, UINT64* handle) {
  const char* method = "IDXGIResource1::CreateSharedHandle";
  *handle = 0;
  IUnknown* object = nullptr;
  Record* record = nullptr;
  if (!resolve(self, InterfaceId::ID3D11Resource, false, method, &object, &record))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  auto* resource = static_cast<ResourceState*>(record);
  if (!(resource->shape.miscFlags & D3D11_RESOURCE_MISC_SHARED_NTHANDLE)) return E_INVALIDARG;
  sharing::Registry* registry = sharingRegistry();
  if (!registry) return E_OUTOFMEMORY;
  SharingState& state = sharing();
  SharedResource* shared = nullptr;
  OwnerRequest request;
  request.ntHandle = true;
  request.name = name;
  HRESULT hr = shareOwned(state, *registry, self, static_cast<ID3D11Resource*>(object), resource->shape, resource->device, request, &shared);
  if (FAILED(hr)) return hr;
  if (!shared->owner) return E_INVALIDARG;
  // The guest makes one kernel object per call (its NT handle's section): the entry lives
  // while any does, also beyond this context (SharedHandleClosed takes each back).
  if (!registry->addGuestObject(shared->handle)) return E_OUTOFMEMORY;
  if (!shared->keyedMutex) publishWrittenResources();
  *handle = shared->handle;
  return S_OK;
}

void Executor::sharedHandleClosed(ObjectId object) {
  const char* method = "SharedHandleClosed";
  uint64_t handle = 0;
  if (m_sharing) {
    if (auto it = m_sharing->resources.find(object); it != m_sharing->resources.end())
      handle = it->second->handle;
    else if (auto fence = m_sharing->sharedFences.find(object); fence != m_sharing->sharedFences.end())
      handle = fence->second->handle();
  }
  // Only an entry this context holds (it created or opened it), and never more objects
  // than were counted: a guest cannot close what it was not allowed to open.
  if (!handle || !m_sharing->registry) return drop(method, "object %u has no shared entry in this context", object);
  if (!m_sharing->registry->releaseGuestObject(handle))
    drop(method, "entry %#llx of object %u has no guest object left", static_cast<unsigned long long>(handle), object);
}

HRESULT Executor::ID3D11Device_OpenSharedResource(ObjectId self, UINT64 hResource, UINT Flags,
                                                 const GUID& ReturnedInterface, ObjectId ppResource,
                                                 D3D11_TEXTURE2D_DESC* pTexture2DDesc, D3D11_BUFFER_DESC* pBufferDesc) {
  const char* method = "OpenSharedResource";
  std::memset(pTexture2DDesc, 0, sizeof(*pTexture2DDesc));
  std::memset(pBufferDesc, 0, sizeof(*pBufferDesc));
  const bool wantsBuffer = sameGuid(ReturnedInterface, __uuidof(ID3D11Buffer));
  const ObjectType type = wantsBuffer ? ObjectType::Buffer : ObjectType::Texture2D;
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(ppResource, type, nullptr);
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  }
  auto refuse = [&](const char* why) {
    drop(method, "handle %#llx: %s", static_cast<unsigned long long>(hResource), why);
    insertFailed(ppResource, type, owner);
    return E_INVALIDARG;
  };
  if (!wantsBuffer && !sameGuid(ReturnedInterface, __uuidof(ID3D11Texture2D)))
    return refuse("the guest names neither ID3D11Buffer nor ID3D11Texture2D");
  sharing::Registry* registry = sharingRegistry();
  if (!registry) return refuse("no sharing registry");
  SharingState& state = sharing();
  sharing::EntryInfo info;
  const sharing::LookupError error = registry->acquireReference(
      hResource, wantsBuffer ? sharing::Kind::Buffer : sharing::Kind::Texture2D,
      (Flags & kOpenedThroughOpenSharedResource1) != 0, info);
  if (error != sharing::LookupError::Ok) return refuse(sharing::lookupErrorName(error));

  // The entry was written by another context: check it as a Create* from this guest.
  validation::ResourceShape shape;
  validation::Check check = validation::Check::pass();
  if (wantsBuffer) {
    *pBufferDesc = bufferDescOf(info.desc);
    shape = validation::shapeOf(*pBufferDesc);
    check = validation::validateBufferDesc(*pBufferDesc, false, owner->limits);
  } else {
    *pTexture2DDesc = texture2DDescOf(info.desc);
    shape = validation::shapeOf(*pTexture2DDesc);
    check = validation::validateTexture2DDesc(*pTexture2DDesc, false, owner->limits);
  }
  uint64_t bytes = 0;
  if (!check.passed() || !(shape.miscFlags & kSharedMiscFlags) || !contentBytesOf(shape, bytes) ||
      bytes != info.contentBytes || shape.sampleCount != 1) {
    registry->releaseReference(hResource);
    return refuse("malformed registry entry");
  }
  auto shared = std::make_unique<SharedResource>();
  shared->handle = hResource;
  shared->keyedMutex = info.flags & sharing::kFlagKeyedMutex;
  shared->shape = shape;
  shared->device = owner;
  shared->content = sharing::Section::open(sharing::Registry::contentName(registry->instance(), hResource), bytes ? bytes : 1);
  if (!shared->content.valid()) {
    registry->releaseReference(hResource);
    return refuse("content section missing");
  }
  IUnknown* object = nullptr;
  HRESULT hr = E_FAIL;
  if (wantsBuffer) {
    D3D11_BUFFER_DESC desc = *pBufferDesc;
    desc.MiscFlags &= ~kSharedMiscFlags;
    ID3D11Buffer* buffer = nullptr;
    hr = owner->device->CreateBuffer(&desc, nullptr, &buffer);
    object = buffer;
  } else {
    D3D11_TEXTURE2D_DESC desc = *pTexture2DDesc;
    desc.MiscFlags &= ~kSharedMiscFlags;
    ID3D11Texture2D* texture = nullptr;
    hr = owner->device->CreateTexture2D(&desc, nullptr, &texture);
    object = texture;
  }
  if (FAILED(hr) || !object) {
    registry->releaseReference(hResource);
    log("%s: the backend refused (0x%08x)", method, unsigned(hr));
    insertFailed(ppResource, type, owner);
    return E_INVALIDARG;
  }
  auto record = std::make_unique<ResourceState>();
  record->shape = shape;
  record->mapped.assign(shape.subresourceCount(), 0);
  insert(ppResource, type, object, owner, bytes, std::move(record));
  if (isFatal()) {
    registry->releaseReference(hResource);
    return DXGI_ERROR_DEVICE_REMOVED;
  }
  shared->object = static_cast<ID3D11Resource*>(object);
  SharedResource* opened = shared.get();
  state.resources[ppResource] = std::move(shared);
  state.resourcesChanged();
  // The content published so far (keyed-mutex resources: what the last releaser left).
  refreshIfMoved(state, *opened);
  return S_OK;
}

HRESULT Executor::ID3D11Device1_OpenSharedResourceByName(ObjectId self, const WCHAR* lpName, DWORD dwDesiredAccess,
                                                        UINT64* pHandle) {
  *pHandle = 0;
  if (!deviceOf(self, "OpenSharedResourceByName")) return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  if (!lpName || !*lpName) return E_INVALIDARG;
  sharing::Registry* registry = sharingRegistry();
  if (!registry) return E_OUTOFMEMORY;
  std::u16string name16;
  for (const WCHAR* p = lpName; *p && name16.size() < sharing::kNameUnits; p++) name16 += char16_t(*p);
  const uint64_t handle = registry->findByName(name16.c_str());
  // Windows answers an unknown name as the object manager does: file not found.
  if (!handle || (handle & 0xf) == uint64_t(sharing::Kind::Fence)) return HRESULT(0x80070002);
  *pHandle = handle;
  return S_OK;
}

HRESULT Executor::IDXGIKeyedMutex_AcquireSync(ObjectId self, UINT64 Key, DWORD dwMilliseconds) {
  const char* method = "AcquireSync";
  IUnknown* object = nullptr;
  Record* record = nullptr;
  if (!resolve(self, InterfaceId::ID3D11Resource, false, method, &object, &record))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  auto* resource = static_cast<ResourceState*>(record);
  if (!(resource->shape.miscFlags & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX)) return E_INVALIDARG;
  sharing::Registry* registry = sharingRegistry();
  if (!registry) return E_OUTOFMEMORY;
  SharingState& state = sharing();
  SharedResource* shared = nullptr;
  OwnerRequest request;
  request.ntHandle = (resource->shape.miscFlags & D3D11_RESOURCE_MISC_SHARED_NTHANDLE) != 0;
  HRESULT hr = shareOwned(state, *registry, self, static_cast<ID3D11Resource*>(object), resource->shape, resource->device, request, &shared);
  if (FAILED(hr)) return hr;
  const auto start = std::chrono::steady_clock::now();
  const auto slice = std::chrono::milliseconds(dwMilliseconds < kAcquireSliceMs ? dwMilliseconds : kAcquireSliceMs);
  if (shared->mutexHeld) {
    // The keyed mutex is not recursive: Windows stalls the thread of the device that
    // owns it until the owner releases it (another thread of the guest may, with the
    // same key), so the time asked for runs out: WAIT_TIMEOUT. Nothing this context
    // executes can release it during this slice.
    std::this_thread::sleep_for(slice);
    return kWaitTimeout;
  }
  for (uint32_t spins = 0;; spins++) {
    // Read before trying: a release after this read moves the epoch and ends the sleep.
    const uint32_t epoch = registry->syncEpoch().load(std::memory_order_seq_cst);
    switch (registry->tryAcquireKeyedMutex(shared->handle, state.contextToken, Key)) {
      case sharing::AcquireResult::Acquired:
        shared->mutexHeld = true;
        // What the last releaser published (writes made without holding the mutex are lost).
        refreshIfMoved(state, *shared);
        return S_OK;
      case sharing::AcquireResult::Abandoned: return kWaitAbandoned;
      case sharing::AcquireResult::BadHandle: return E_FAIL;
      case sharing::AcquireResult::WrongKeyOrOwned: break;
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed >= slice) return kWaitTimeout;
    if (state.pollSharedFences) {
      if (spins < 64)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    // Sleep until another context releases a keyed mutex (or the slice ends).
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(slice - elapsed).count() + 1;
    registry->waitForSyncEpoch(epoch, uint32_t(left));
  }
}

void Executor::IDXGIKeyedMutex_ReleaseSync(ObjectId self, UINT64 Key) {
  const char* method = "ReleaseSync";
  IUnknown* object = nullptr;
  if (!resolve(self, InterfaceId::ID3D11Resource, false, method, &object)) return;
  SharedResource* shared = nullptr;
  if (m_sharing)
    if (auto it = m_sharing->resources.find(self); it != m_sharing->resources.end()) shared = it->second.get();
  // The guest answered DXGI_ERROR_INVALID_CALL already when it did not hold it.
  if (!shared || !shared->mutexHeld || !m_sharing->registry) return drop(method, "resource %u holds no keyed mutex", self);
  sharing::Registry& registry = *m_sharing->registry;
  // The next owner reads what this context wrote while it held the mutex; nothing to
  // copy when it wrote nothing.
  if (publishes(*m_sharing, *shared))
    publish(*m_sharing, *shared);
  else
    m_sharing->unwrittenSkips++;
  registry.releaseKeyedMutex(shared->handle, m_sharing->contextToken, Key);
  shared->mutexHeld = false;
}

}  // namespace npt::executor
