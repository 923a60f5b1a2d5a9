// SPDX-License-Identifier: MIT
#pragma once

// A stand-in for a Neptune kernel-mode driver, for tests: it answers the contract's
// escapes and blob allocations (CONTRACT.md) the way a virtio-gpu kernel driver would,
// and carries the same bytes to a real Neptune server. Where the kernel would send
// VIRTIO_GPU_CMD_CTX_CREATE and map a host blob, it connects to the server through the
// transport's handshake (the server lays the context's memory out, exactly as it does
// for a guest runtime) and lends that mapping as blob 0; a Notify escape becomes the
// connection's doorbell, a Wait escape its blocking wait. Blobs 1..63 (the bulk regions
// the server adds after creation) are the server's named mappings of those regions
// ("<context mapping>-r<id>", host/server/bulk_regions.h), which a VMM would export as
// blobs; the fake maps them at allocation, as a kernel maps a host blob, and checks the
// size the driver names against the region's. The driver under test sees only the
// runtime's callbacks.
//
// One instance per process at a time (the callbacks are plain functions).

#include <windows.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "neptune/transport/guest_connection.h"
#include "triton/ddi/ddi.h"
#include "triton/kernel/contract.h"

namespace triton::kernel {

class FakeKernel {
public:
  // serverAddress: what the transport's connect() takes (a server's .tcp rendezvous file).
  explicit FakeKernel(std::string serverAddress);
  ~FakeKernel();
  FakeKernel(const FakeKernel&) = delete;
  FakeKernel& operator=(const FakeKernel&) = delete;

  // Escape, allocate, deallocate, lock and unlock of this kernel; every other member null
  // (for harness::setKernelCallbackOverrides).
  static triton::ddi::D3DDDI_DEVICECALLBACKS callbacks();

  // The kernel's handlers (what the callbacks call).
  HRESULT escape(const triton::ddi::D3DDDICB_ESCAPE* args);
  HRESULT allocate(triton::ddi::D3DDDICB_ALLOCATE* args);
  HRESULT deallocate(const triton::ddi::D3DDDICB_DEALLOCATE* args);
  HRESULT lock(triton::ddi::D3DDDICB_LOCK* args);
  HRESULT unlock(const triton::ddi::D3DDDICB_UNLOCK* args);

  struct Counts {
    uint32_t queryCapset = 0, createContext = 0, destroyContext = 0, notify = 0, wait = 0;
    uint32_t refused = 0;       // escapes answered with a status other than Ok/Timeout, or not at all
    uint32_t allocations = 0, locks = 0;      // every blob (blob 0 and regions)
    uint32_t regionAllocations = 0;           // blobs 1..63
    uint32_t frees = 0, unlocks = 0;          // pfnDeallocateCb / pfnUnlockCb of a blob
    uint64_t largestRegion = 0;               // bytes of the largest region blob allocated
  };
  Counts counts() const;
  // The server context's memory (blob 0), null before CreateContext.
  uint8_t* blob0() const { return connection_ ? connection_->shared_base() : nullptr; }
  // The process id of the server's worker for the context (0 before CreateContext): a test
  // that ends its connection waits for it, so that no worker outlives the server.
  uint32_t workerPid() const { return connection_ ? connection_->worker_pid() : 0; }

private:
  KernelStatus queryCapset(CapsetBody& body);
  KernelStatus createContext(CreateContextBody& body);
  KernelStatus destroyContext(const ContextBody& body);
  KernelStatus notify(const NotifyBody& body);
  KernelStatus wait(WaitBody& body);
  // The context id names this process's live context.
  bool live(uint32_t contextId) const { return connection_ && !destroyed_ && contextId == contextId_; }

  std::string address_;
  mutable std::mutex mutex_;   // creation, destruction, allocations; not held while waiting
  std::unique_ptr<npt::transport::GuestConnection> connection_;
  uint32_t contextId_ = 0;
  uint64_t blobSize_ = 0;
  std::atomic<bool> destroyed_{false};
  // A blob allocation: blob 0 (the connection's memory) or a region's view.
  struct Blob {
    triton::ddi::D3DKMT_HANDLE allocation = 0;
    uint8_t* base = nullptr;
    uint64_t size = 0;
    bool ownView = false;   // a region's view, unmapped when freed
  };
  Blob* blobOf(triton::ddi::D3DKMT_HANDLE allocation);
  // Maps region blob `blobId` the server created (its named mapping): false when none
  // exists or its size is not `size`.
  bool mapRegionBlob(uint32_t blobId, uint64_t size, Blob& into);
  Blob blobs_[kMaxBlobId + 1];
  triton::ddi::D3DKMT_HANDLE nextHandle_ = 0x70000001;
  mutable std::mutex countsMutex_;
  Counts counts_;
};

}  // namespace triton::kernel
