// SPDX-License-Identifier: MIT
#include "device.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "entries.h"
#include "kernel_transport.h"
#include "log.h"
#include "translate.h"

namespace triton::driver {

namespace {

// What driver command lists did in this process, logged at TRITON_LOG=info when an
// immediate device goes: lists finished, on how many threads (the runtime calls a
// deferred context's entries on the application's recording thread), how many deferred
// contexts were recording at once at most (from their first binding to their
// CreateCommandList), lists executed.
struct CommandListStatistics {
  std::mutex mutex;
  std::set<DWORD> finishingThreads;
  UINT64 finished = 0;
  UINT64 executed = 0;
  UINT recordingNow = 0;
  UINT recordingAtMost = 0;
};
CommandListStatistics& commandListStatistics() {
  static CommandListStatistics statistics;
  return statistics;
}

}  // namespace

Device::Device(const ddi::D3D10DDIARG_CREATEDEVICE& args, std::unique_ptr<TargetDevice> target)
    : tableKind_(ddi::deviceTableFor(args.Interface)),
      coreLayer_(args.hRTCoreLayer),
      callbacks_(args.p11UMCallbacks),
      runtimeDevice_(args.hRTDevice),
      kernelCallbacks_(args.pKTCallbacks),
      target_(std::move(target)),
      device_(target_->device()),
      context_(target_->context()),
      context1_(target_->context1()),
      classLinkage_(std::make_shared<ClassLinkage>(device_)) {}

Device::Device(const Device& immediate, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT& args,
               ComPtr<ID3D11DeviceContext> deferred)
    : tableKind_(immediate.tableKind_),
      coreLayer_(args.hRTCoreLayer),
      callbacks_(args.p11UMCallbacks),
      runtimeDevice_(immediate.runtimeDevice_),
      kernelCallbacks_(immediate.kernelCallbacks_),
      device_(immediate.device_),
      context_(deferred.Get()),
      deferredContext_(std::move(deferred)),
      classLinkage_(immediate.classLinkage_) {
  deferredContext_.As(&context1_);
}

Device::~Device() {
  if (isDeferred() && !atDefaultState_)
    noteRecording(false);   // destroyed in the middle of a recording
}

void Device::noteRecording(bool started) {
  CommandListStatistics& s = commandListStatistics();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (started) {
    s.recordingAtMost = std::max(s.recordingAtMost, ++s.recordingNow);
  } else if (s.recordingNow) {
    --s.recordingNow;
  }
}

void Device::leaveDefaultState() {
  if (atDefaultState_ && isDeferred())
    noteRecording(true);
  atDefaultState_ = false;
}

void Device::setError(HRESULT hr) const {
  if (callbacks_ && callbacks_->pfnSetErrorCb)
    callbacks_->pfnSetErrorCb(coreLayer_, hr);
}

HRESULT Device::allocate(ddi::D3DDDICB_ALLOCATE& args) const {
  if (!kernelCallbacks_ || !kernelCallbacks_->pfnAllocateCb)
    return E_FAIL;
  return kernelCallbacks_->pfnAllocateCb(runtimeDevice_.handle, &args);
}

HRESULT Device::deallocate(const ddi::D3DDDICB_DEALLOCATE& args) const {
  if (!kernelCallbacks_ || !kernelCallbacks_->pfnDeallocateCb)
    return E_FAIL;
  return kernelCallbacks_->pfnDeallocateCb(runtimeDevice_.handle, &args);
}

void Device::notImplemented(const char* entry) const {
  static std::mutex mutex;
  static std::set<std::string> reported;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (reported.insert(entry).second)
      TRITON_LOG(Warn, "%s: not implemented yet (E_NOTIMPL to the runtime)", entry);
  }
  setError(E_NOTIMPL);
}

void Device::targetFailed(const char* entry, HRESULT hr) const {
  TRITON_LOG(Warn, "%s: the target device refused it: 0x%08lx", entry, static_cast<unsigned long>(hr));
  setError(runtimeError(hr));
}

void Device::checkTargetAlive() const {
  const HRESULT reason = device_->GetDeviceRemovedReason();
  if (FAILED(reason)) {
    TRITON_LOG(Error, "the target device is lost (0x%08lx): device removed", static_cast<unsigned long>(reason));
    setError(ddi::D3DDDIERR_DEVICEREMOVED);
  }
}

void Device::attachPresenter(const ddi::DXGI_DDI_BASE_CALLBACKS* callbacks) {
  presenter_ = std::make_unique<DxgiPresenter>(device_, context_, callbacks, runtimeDevice_.handle);
}

void Device::resetToDefaultState() {
  if (isDeferred() && !atDefaultState_)
    noteRecording(false);
  atDefaultState_ = true;
  for (ComPtr<ID3D11RenderTargetView>& rtv : rtvs_)
    rtv.Reset();
  dsv_.Reset();
  for (ComPtr<ID3D11UnorderedAccessView>& uav : uavs_)
    uav.Reset();
}

void Device::setOutputMerger(const ddi::D3D10DDI_HRENDERTARGETVIEW* rtvs, UINT numRtvs, UINT rtvsToUnbind,
                             ddi::D3D10DDI_HDEPTHSTENCILVIEW dsv,
                             const ddi::D3D11DDI_HUNORDEREDACCESSVIEW* uavs, const UINT* initialCounts,
                             UINT uavStart, UINT numUavs, UINT uavRangeStart, UINT uavRangeSize) {
  const UINT uavSlots = isD3D11_1() ? D3D11_1_UAV_SLOT_COUNT : D3D11_PS_CS_UAV_REGISTER_COUNT;
  if (numRtvs > kRenderTargetSlots || uavStart > uavSlots || numUavs > uavSlots - uavStart ||
      uavRangeStart > uavSlots || uavRangeSize > uavSlots - uavRangeStart) {
    setError(E_INVALIDARG);
    return;
  }
  for (UINT i = 0; i < numRtvs; ++i)
    rtvs_[i] = targetOf<RenderTargetView>(rtvs[i]);
  for (UINT i = numRtvs; i < std::min(kRenderTargetSlots, numRtvs + rtvsToUnbind); ++i)
    rtvs_[i] = nullptr;
  dsv_ = targetOf<DepthStencilView>(dsv);

  // Counts apply to the UAVs this call binds; every other slot keeps its counter (-1).
  UINT counts[kOutputMergerUavSlots];
  std::fill(std::begin(counts), std::end(counts), UINT(-1));
  for (UINT i = uavRangeStart; i < uavRangeStart + uavRangeSize; ++i)
    uavs_[i] = nullptr;
  for (UINT i = 0; i < numUavs; ++i) {
    uavs_[uavStart + i] = targetOf<UnorderedAccessView>(uavs[i]);
    if (initialCounts)
      counts[uavStart + i] = initialCounts[i];
  }

  // The API wants the RTVs as a prefix and the UAVs after them.
  UINT rtvCount = 0;
  for (UINT i = 0; i < kRenderTargetSlots; ++i)
    if (rtvs_[i])
      rtvCount = i + 1;
  UINT firstUav = uavSlots, uavEnd = 0;
  for (UINT i = 0; i < uavSlots; ++i)
    if (uavs_[i]) {
      firstUav = std::min(firstUav, i);
      uavEnd = i + 1;
    }
  ID3D11RenderTargetView* boundRtvs[kRenderTargetSlots];
  for (UINT i = 0; i < kRenderTargetSlots; ++i)
    boundRtvs[i] = rtvs_[i].Get();
  if (uavEnd == 0) {
    context_->OMSetRenderTargets(rtvCount, boundRtvs, dsv_.Get());
    return;
  }
  if (firstUav < rtvCount) {
    // An RTV and a UAV in the same slot: the runtime never sends this.
    setError(E_INVALIDARG);
    return;
  }
  ID3D11UnorderedAccessView* boundUavs[kOutputMergerUavSlots];
  for (UINT i = firstUav; i < uavEnd; ++i)
    boundUavs[i - firstUav] = uavs_[i].Get();
  context_->OMSetRenderTargetsAndUnorderedAccessViews(rtvCount, boundRtvs, dsv_.Get(), firstUav,
                                                      uavEnd - firstUav, boundUavs, counts + firstUav);
}


namespace entry {

void TRITON_APIENTRY destroyDevice(ddi::D3D10DDI_HDEVICE hDevice) {
  if (!deviceOf(hDevice)->isDeferred()) {
    CommandListStatistics& s = commandListStatistics();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.finished)
      TRITON_LOG(Info, "command lists: %llu finished on %u threads, at most %u deferred contexts recording at once, "
                 "%llu executed",
                 static_cast<unsigned long long>(s.finished), static_cast<unsigned>(s.finishingThreads.size()),
                 s.recordingAtMost, static_cast<unsigned long long>(s.executed));
  }
  const bool immediate = !deviceOf(hDevice)->isDeferred();
  const ddi::D3D10DDI_HRTDEVICE runtimeDevice = deviceOf(hDevice)->runtimeDevice();
  destroyObject<Device>(hDevice.pDrvPrivate);
  if (immediate)
    kernel_transport::deviceDestroyed(runtimeDevice);
}

// Triton keeps no pointer into the runtime's table, so a moved table needs nothing.
void TRITON_APIENTRY relocateDeviceFuncs11(ddi::D3D10DDI_HDEVICE, ddi::D3D11DDI_DEVICEFUNCS*) {}
void TRITON_APIENTRY relocateDeviceFuncs11_1(ddi::D3D10DDI_HDEVICE, ddi::D3D11_1DDI_DEVICEFUNCS*) {}

// Driver command lists (GetCaps(THREADING) reports COMMANDLISTS_BUILD_2): each deferred
// context is a Device over a target deferred context, with the same entries; a command
// list is the target command list its deferred context finished. The runtime keeps the
// API state and re-sends what a context needs after a list ran, so lists finish and run
// without state restore (FinishCommandList/ExecuteCommandList with FALSE).
void TRITON_APIENTRY checkDeferredContextHandleSizes(ddi::D3D10DDI_HDEVICE, UINT* pHSizes,
                                                     ddi::D3D11DDI_HANDLESIZE*) {
  if (pHSizes)
    *pHSizes = 0;   // driver objects are shared by every context: no per-context handle storage
}
SIZE_T TRITON_APIENTRY calcDeferredContextHandleSize(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HANDLETYPE, void*) {
  // No handle type was listed by CheckDeferredContextHandleSizes, so none needs storage.
  return 0;
}
SIZE_T TRITON_APIENTRY calcPrivateDeferredContextSize(ddi::D3D10DDI_HDEVICE,
                                                     const ddi::D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE*) {
  return sizeof(Device);
}
namespace {
HRESULT makeDeferredContext(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT* args) {
  Device* d = deviceOf(hDevice);
  if (!args || !args->hDrvContext.pDrvPrivate || !args->p11ContextFuncs || !args->p11UMCallbacks ||
      d->isDeferred())
    return E_INVALIDARG;
  ComPtr<ID3D11DeviceContext> deferred;
  const HRESULT hr = d->device()->CreateDeferredContext(0, &deferred);
  if (FAILED(hr))
    return runtimeError(hr);
  fillDeferredContextTable(d->tableKind(), *args);
  new (args->hDrvContext.pDrvPrivate) Device(*d, *args, std::move(deferred));
  return S_OK;
}
HRESULT finishCommandList(const ddi::D3D11DDIARG_CREATECOMMANDLIST* args, ddi::D3D11DDI_HCOMMANDLIST hList) {
  Device* context = args ? deviceOf(args->hDeferredContext) : nullptr;
  if (!context || !context->isDeferred() || !hList.pDrvPrivate)
    return E_INVALIDARG;
  ComPtr<ID3D11CommandList> list;
  const HRESULT hr = context->context()->FinishCommandList(FALSE, &list);
  if (FAILED(hr))
    return runtimeError(hr);
  new (hList.pDrvPrivate) CommandList{std::move(list)};
  context->resetToDefaultState();   // the target starts the next recording from the default state
  CommandListStatistics& s = commandListStatistics();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.finished;
  s.finishingThreads.insert(GetCurrentThreadId());
  return S_OK;
}
}  // namespace
void TRITON_APIENTRY createDeferredContext(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT* args) {
  const HRESULT hr = makeDeferredContext(hDevice, args);
  if (FAILED(hr))
    deviceOf(hDevice)->setError(hr);
}
HRESULT TRITON_APIENTRY recycleCreateDeferredContext(ddi::D3D10DDI_HDEVICE hDevice,
                                                     const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT* args) {
  // The runtime reuses the memory of a destroyed deferred context; Triton builds a new one in it.
  return makeDeferredContext(hDevice, args);
}
void TRITON_APIENTRY abandonCommandList(ddi::D3D10DDI_HDEVICE hContext) {
  // What the deferred context recorded is dropped: finish it into a list nobody keeps.
  Device* context = deviceOf(hContext);
  if (!context->isDeferred()) {
    context->setError(E_INVALIDARG);
    return;
  }
  ComPtr<ID3D11CommandList> dropped;
  context->context()->FinishCommandList(FALSE, &dropped);
  context->resetToDefaultState();
}
SIZE_T TRITON_APIENTRY calcPrivateCommandListSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D11DDIARG_CREATECOMMANDLIST*) {
  return sizeof(CommandList);
}
void TRITON_APIENTRY createCommandList(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATECOMMANDLIST* args,
                                       ddi::D3D11DDI_HCOMMANDLIST hList, ddi::D3D11DDI_HRTCOMMANDLIST) {
  const HRESULT hr = finishCommandList(args, hList);
  if (FAILED(hr))
    deviceOf(hDevice)->setError(hr);
}
HRESULT TRITON_APIENTRY recycleCreateCommandList(ddi::D3D10DDI_HDEVICE, const ddi::D3D11DDIARG_CREATECOMMANDLIST* args,
                                                 ddi::D3D11DDI_HCOMMANDLIST hList, ddi::D3D11DDI_HRTCOMMANDLIST) {
  return finishCommandList(args, hList);
}
void TRITON_APIENTRY destroyCommandList(ddi::D3D10DDI_HDEVICE, ddi::D3D11DDI_HCOMMANDLIST hList) {
  destroyObject<CommandList>(hList.pDrvPrivate);
}
void TRITON_APIENTRY recycleDestroyCommandList(ddi::D3D10DDI_HDEVICE, ddi::D3D11DDI_HCOMMANDLIST hList) {
  destroyObject<CommandList>(hList.pDrvPrivate);
}
void TRITON_APIENTRY recycleCommandList(ddi::D3D10DDI_HDEVICE, ddi::D3D11DDI_HCOMMANDLIST) {
  // The runtime tells the driver a list's memory may be reused; the target list was
  // already released by RecycleDestroyCommandList, so nothing is held here.
}
void TRITON_APIENTRY commandListExecute(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HCOMMANDLIST hList) {
  Device* d = deviceOf(hDevice);
  CommandList* list = objectOf<CommandList>(hList);
  if (!list || !list->list) {
    d->setError(E_INVALIDARG);
    return;
  }
  d->context()->ExecuteCommandList(list->list.Get(), FALSE);
  d->resetToDefaultState();   // ExecuteCommandList(FALSE) leaves the immediate context at the default state
  CommandListStatistics& s = commandListStatistics();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.executed;
}

}  // namespace entry
}  // namespace triton::driver
