// SPDX-License-Identifier: MIT
#include "fake_kernel.h"

#include <cstdio>
#include <cstring>

#include "neptune/transport/handshake.h"

namespace triton::kernel {

namespace ddi = triton::ddi;
namespace transport = npt::transport;

namespace {

std::atomic<FakeKernel*> g_kernel{nullptr};

HRESULT TRITON_CALLBACK escapeCallback(HANDLE, const ddi::D3DDDICB_ESCAPE* args) {
  FakeKernel* k = g_kernel.load();
  return k ? k->escape(args) : E_FAIL;
}
HRESULT TRITON_CALLBACK allocateCallback(HANDLE, ddi::D3DDDICB_ALLOCATE* args) {
  FakeKernel* k = g_kernel.load();
  return k ? k->allocate(args) : E_FAIL;
}
HRESULT TRITON_CALLBACK deallocateCallback(HANDLE, const ddi::D3DDDICB_DEALLOCATE* args) {
  FakeKernel* k = g_kernel.load();
  return k ? k->deallocate(args) : E_FAIL;
}
HRESULT TRITON_CALLBACK lockCallback(HANDLE, ddi::D3DDDICB_LOCK* args) {
  FakeKernel* k = g_kernel.load();
  return k ? k->lock(args) : E_FAIL;
}
HRESULT TRITON_CALLBACK unlockCallback(HANDLE, const ddi::D3DDDICB_UNLOCK* args) {
  FakeKernel* k = g_kernel.load();
  return k ? k->unlock(args) : E_FAIL;
}

// The limits a virtio-gpu host would put in its capset: the server's defaults
// (transport/README.md, "Limits"); a host started with other limits refuses a larger
// geometry at CreateContext, with its message.
Capset serverCapset() {
  Capset c{};
  c.capset_id = kNeptuneCapsetId;
  c.capset_version = kNeptuneCapsetVersion;
  c.transport_min_version = transport::kMinVersion;
  c.transport_max_version = transport::kVersion;
  c.max_rings = 16;
  c.max_ring_size = 16u << 20;
  c.max_reply_slots = 64;
  c.max_push_slots = 4096;
  c.max_fences = 1024;
  c.flags = kCapsetBulkRegions;   // the server adds regions; the fake carries them as blobs 1..63
  c.max_bulk_size = 1ull << 30;
  return c;
}

}  // namespace

FakeKernel::FakeKernel(std::string serverAddress) : address_(std::move(serverAddress)) {
  g_kernel.store(this);
}

FakeKernel::~FakeKernel() {
  FakeKernel* self = this;
  g_kernel.compare_exchange_strong(self, nullptr);
}

ddi::D3DDDI_DEVICECALLBACKS FakeKernel::callbacks() {
  ddi::D3DDDI_DEVICECALLBACKS c{};
  c.pfnEscapeCb = escapeCallback;
  c.pfnAllocateCb = allocateCallback;
  c.pfnDeallocateCb = deallocateCallback;
  c.pfnLockCb = lockCallback;
  c.pfnUnlockCb = unlockCallback;
  return c;
}

FakeKernel::Counts FakeKernel::counts() const {
  std::lock_guard<std::mutex> lock(countsMutex_);
  return counts_;
}

HRESULT FakeKernel::escape(const ddi::D3DDDICB_ESCAPE* args) {
  KernelStatus status = KernelStatus::Ok;
  // Not a Neptune escape: STATUS_INVALID_PARAMETER, which the runtime returns as
  // E_INVALIDARG; the buffer is not the kernel's to write.
  if (!args || !checkEscape(args->pPrivateDriverData, args->PrivateDriverDataSize, &status)) {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.refused;
    return E_INVALIDARG;
  }
  auto* header = static_cast<EscapeHeader*>(args->pPrivateDriverData);
  header->kernel_min_version = kContractMinVersion;
  header->kernel_max_version = kContractVersion;
  if (status == KernelStatus::Ok) {
    // The buffer is the user-mode driver's: a real kernel copies it in first (it may
    // change under the kernel); the fake works on a copy for the same reason.
    switch (EscapeCode(header->code)) {
      case EscapeCode::QueryCapset: {
        CapsetBody body;
        std::memcpy(&body, header, sizeof(body));
        status = queryCapset(body);
        std::memcpy(header, &body, sizeof(body));
        break;
      }
      case EscapeCode::CreateContext: {
        CreateContextBody body;
        std::memcpy(&body, header, sizeof(body));
        status = createContext(body);
        std::memcpy(header, &body, sizeof(body));
        break;
      }
      case EscapeCode::DestroyContext: {
        ContextBody body;
        std::memcpy(&body, header, sizeof(body));
        status = destroyContext(body);
        break;
      }
      case EscapeCode::Notify: {
        NotifyBody body;
        std::memcpy(&body, header, sizeof(body));
        status = notify(body);
        break;
      }
      case EscapeCode::Wait: {
        WaitBody body;
        std::memcpy(&body, header, sizeof(body));
        status = wait(body);
        std::memcpy(header, &body, sizeof(body));
        break;
      }
    }
  }
  header->status = int32_t(status);
  if (status != KernelStatus::Ok && status != KernelStatus::Timeout) {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.refused;
  }
  return S_OK;
}

KernelStatus FakeKernel::queryCapset(CapsetBody& body) {
  {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.queryCapset;
  }
  body.capset = serverCapset();
  return KernelStatus::Ok;
}

KernelStatus FakeKernel::createContext(CreateContextBody& body) {
  {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.createContext;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  body.message[0] = 0;
  if (connection_)
    return KernelStatus::ContextExists;   // one Neptune context per process
  if (body.capset_id != kNeptuneCapsetId || body.flags != 0)
    return KernelStatus::BadArgument;
  transport::Geometry g;
  g.ring_count = body.geometry.ring_count;
  g.ring_size = body.geometry.ring_size;
  g.reply_slot_count = body.geometry.reply_slot_count;
  g.reply_slot_size = body.geometry.reply_slot_size;
  g.push_slot_count = body.geometry.push_slot_count;
  g.fence_count = body.geometry.fence_count;
  g.bulk_size = body.geometry.bulk_size;
  std::string error;
  const transport::Status s = transport::GuestConnection::connect(address_.c_str(), g, &connection_, &error);
  if (s != transport::kOk) {
    connection_.reset();
    std::snprintf(body.message, sizeof(body.message), "%s", error.c_str());
    // The host's refusal of a geometry (its limits) vs no host at all.
    return s == transport::kInvalidArg ? KernelStatus::Refused : KernelStatus::HostUnavailable;
  }
  contextId_ += 1;
  destroyed_ = false;
  blobSize_ = connection_->geometry().total_size();
  body.context_id = contextId_;
  body.transport_version = transport::kVersion;
  body.context_blob_size = blobSize_;
  body.granted_flags = kCapsetBulkRegions;
  return KernelStatus::Ok;
}

KernelStatus FakeKernel::destroyContext(const ContextBody& body) {
  {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.destroyContext;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!live(body.context_id))
    return KernelStatus::NoContext;
  // A kernel ends the host context here and frees blob 0 with its allocation. The fake
  // keeps the connection (the mapping the test process may still read) until it is
  // destroyed itself; later escapes for the context are refused.
  destroyed_ = true;
  return KernelStatus::Ok;
}

KernelStatus FakeKernel::notify(const NotifyBody& body) {
  {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.notify;
  }
  if (!live(body.context_id))
    return KernelStatus::NoContext;
  if (connection_->status() != transport::kOk)
    return KernelStatus::ContextLost;
  auto* control = reinterpret_cast<transport::ControlBlock*>(connection_->shared_base());
  connection_->channel().doorbell(&control->doorbell);
  return KernelStatus::Ok;
}

KernelStatus FakeKernel::wait(WaitBody& body) {
  {
    std::lock_guard<std::mutex> lock(countsMutex_);
    ++counts_.wait;
  }
  if (!live(body.context_id))
    return KernelStatus::NoContext;
  // Every field the driver sent is checked before the word is touched.
  if (body.blob_id != kContextBlobId || body.offset % 4 != 0 || body.offset > blobSize_ - 4 ||
      body.timeout_us > kMaxWaitMicroseconds || body.reserved != 0)
    return KernelStatus::BadArgument;
  const auto* word = reinterpret_cast<const uint32_t*>(connection_->shared_base() + body.offset);
  if (connection_->status() != transport::kOk)
    return KernelStatus::ContextLost;
  if (transport::load_acquire(*word) == body.expected &&
      !connection_->channel().block(word, body.expected, body.timeout_us))
    return KernelStatus::ContextLost;
  body.value = transport::load_acquire(*word);
  return body.value != body.expected ? KernelStatus::Ok : KernelStatus::Timeout;
}

FakeKernel::Blob* FakeKernel::blobOf(ddi::D3DKMT_HANDLE allocation) {
  if (!allocation)
    return nullptr;
  for (Blob& b : blobs_)
    if (b.allocation == allocation)
      return &b;
  return nullptr;
}

bool FakeKernel::mapRegionBlob(uint32_t blobId, uint64_t size, Blob& into) {
  // Where a VMM exports the host's region as a blob, the fake opens the server's mapping.
  const std::string name = connection_->shared_name() + "-r" + std::to_string(blobId);
  HANDLE mapping = OpenFileMappingA(FILE_MAP_ALL_ACCESS, FALSE, name.c_str());
  if (!mapping)
    return false;
  void* view = MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, 0);
  CloseHandle(mapping);   // the view keeps the section
  if (!view)
    return false;
  // The host's size of the blob (regions are whole pages): the driver must name it exactly.
  MEMORY_BASIC_INFORMATION info{};
  if (!VirtualQuery(view, &info, sizeof(info)) || uint64_t(info.RegionSize) != size) {
    UnmapViewOfFile(view);
    return false;
  }
  into.base = static_cast<uint8_t*>(view);
  into.size = size;
  into.ownView = true;
  return true;
}

HRESULT FakeKernel::allocate(ddi::D3DDDICB_ALLOCATE* args) {
  // Only blob allocations: one allocation, no runtime resource, the contract's private data.
  if (!args || args->hResource || args->NumAllocations != 1 || !args->pAllocationInfo ||
      args->pAllocationInfo[0].PrivateDriverDataSize != sizeof(BlobAllocation) ||
      !args->pAllocationInfo[0].pPrivateDriverData)
    return E_INVALIDARG;
  BlobAllocation blob;
  std::memcpy(&blob, args->pAllocationInfo[0].pPrivateDriverData, sizeof(blob));
  std::lock_guard<std::mutex> lock(mutex_);
  if (blob.magic != kBlobMagic || blob.version != kContractVersion || !live(blob.context_id) ||
      blob.blob_id > kMaxBlobId || blobs_[blob.blob_id].allocation)
    return E_INVALIDARG;
  Blob b;
  if (blob.blob_id == kContextBlobId) {
    if (blob.size != blobSize_)
      return E_INVALIDARG;
    b.base = connection_->shared_base();
    b.size = blobSize_;
  } else if (!mapRegionBlob(blob.blob_id, blob.size, b)) {
    return E_INVALIDARG;   // no such region on the host, or another size
  }
  b.allocation = nextHandle_++;
  blobs_[blob.blob_id] = b;
  args->pAllocationInfo[0].hAllocation = b.allocation;
  args->hKMResource = 0;
  std::lock_guard<std::mutex> countsLock(countsMutex_);
  ++counts_.allocations;
  if (blob.blob_id != kContextBlobId) {
    ++counts_.regionAllocations;
    if (blob.size > counts_.largestRegion)
      counts_.largestRegion = blob.size;
  }
  return S_OK;
}

HRESULT FakeKernel::deallocate(const ddi::D3DDDICB_DEALLOCATE* args) {
  if (!args || args->hResource || args->NumAllocations != 1 || !args->HandleList)
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(mutex_);
  Blob* b = blobOf(args->HandleList[0]);
  if (!b)
    return E_INVALIDARG;
  if (b->ownView)
    UnmapViewOfFile(b->base);
  *b = Blob{};
  std::lock_guard<std::mutex> countsLock(countsMutex_);
  ++counts_.frees;
  return S_OK;
}

HRESULT FakeKernel::lock(ddi::D3DDDICB_LOCK* args) {
  std::lock_guard<std::mutex> lock(mutex_);
  Blob* b = args ? blobOf(args->hAllocation) : nullptr;
  if (!b)
    return E_INVALIDARG;
  args->pData = b->base;
  std::lock_guard<std::mutex> countsLock(countsMutex_);
  ++counts_.locks;
  return S_OK;
}

HRESULT FakeKernel::unlock(const ddi::D3DDDICB_UNLOCK* args) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!args || args->NumAllocations != 1 || !args->phAllocations || !blobOf(args->phAllocations[0]))
    return E_INVALIDARG;
  std::lock_guard<std::mutex> countsLock(countsMutex_);
  ++counts_.unlocks;
  return S_OK;
}

}  // namespace triton::kernel
