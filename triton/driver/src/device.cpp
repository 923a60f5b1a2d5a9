#include "device.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "entries.h"
#include "log.h"
#include "translate.h"

namespace triton::driver {

Device::Device(const ddi::D3D10DDIARG_CREATEDEVICE& args, std::unique_ptr<TargetDevice> target)
    : tableKind_(ddi::deviceTableFor(args.Interface)),
      coreLayer_(args.hRTCoreLayer),
      callbacks_(args.p11UMCallbacks),
      target_(std::move(target)),
      device_(target_->device()),
      context_(target_->context()) {}

Device::~Device() = default;

void Device::setError(HRESULT hr) const {
  if (callbacks_ && callbacks_->pfnSetErrorCb)
    callbacks_->pfnSetErrorCb(coreLayer_, hr);
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
  destroyObject<Device>(hDevice.pDrvPrivate);
}

// Triton keeps no pointer into the runtime's table, so a moved table needs nothing.
void TRITON_APIENTRY relocateDeviceFuncs11(ddi::D3D10DDI_HDEVICE, ddi::D3D11DDI_DEVICEFUNCS*) {}
void TRITON_APIENTRY relocateDeviceFuncs11_1(ddi::D3D10DDI_HDEVICE, ddi::D3D11_1DDI_DEVICEFUNCS*) {}

// Deferred contexts: GetCaps(THREADING) does not report driver command lists, so the
// runtime emulates deferred contexts on the immediate one and should not call these.
void TRITON_APIENTRY checkDeferredContextHandleSizes(ddi::D3D10DDI_HDEVICE, UINT* pHSizes,
                                                     ddi::D3D11DDI_HANDLESIZE*) {
  if (pHSizes)
    *pHSizes = 0;   // no handle type needs deferred-context-specific storage
}
SIZE_T TRITON_APIENTRY calcDeferredContextHandleSize(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HANDLETYPE, void*) {
  deviceOf(hDevice)->notImplemented("CalcDeferredContextHandleSize");
  return 0;
}
SIZE_T TRITON_APIENTRY calcPrivateDeferredContextSize(ddi::D3D10DDI_HDEVICE hDevice,
                                                     const ddi::D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE*) {
  deviceOf(hDevice)->notImplemented("CalcPrivateDeferredContextSize");
  return 0;
}
void TRITON_APIENTRY createDeferredContext(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT*) {
  deviceOf(hDevice)->notImplemented("CreateDeferredContext");
}
void TRITON_APIENTRY abandonCommandList(ddi::D3D10DDI_HDEVICE hDevice) {
  deviceOf(hDevice)->notImplemented("AbandonCommandList");
}
SIZE_T TRITON_APIENTRY calcPrivateCommandListSize(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATECOMMANDLIST*) {
  deviceOf(hDevice)->notImplemented("CalcPrivateCommandListSize");
  return 0;
}
void TRITON_APIENTRY createCommandList(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATECOMMANDLIST*,
                                       ddi::D3D11DDI_HCOMMANDLIST, ddi::D3D11DDI_HRTCOMMANDLIST) {
  deviceOf(hDevice)->notImplemented("CreateCommandList");
}
void TRITON_APIENTRY destroyCommandList(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HCOMMANDLIST) {
  deviceOf(hDevice)->notImplemented("DestroyCommandList");
}
void TRITON_APIENTRY commandListExecute(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HCOMMANDLIST) {
  deviceOf(hDevice)->notImplemented("CommandListExecute");
}
void TRITON_APIENTRY recycleCommandList(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HCOMMANDLIST) {
  deviceOf(hDevice)->notImplemented("RecycleCommandList");
}
HRESULT TRITON_APIENTRY recycleCreateCommandList(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATECOMMANDLIST*,
                                                 ddi::D3D11DDI_HCOMMANDLIST, ddi::D3D11DDI_HRTCOMMANDLIST) {
  TRITON_LOG(Warn, "RecycleCreateCommandList: not implemented yet");
  (void)hDevice;
  return E_NOTIMPL;
}
HRESULT TRITON_APIENTRY recycleCreateDeferredContext(ddi::D3D10DDI_HDEVICE hDevice,
                                                     const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT*) {
  TRITON_LOG(Warn, "RecycleCreateDeferredContext: not implemented yet");
  (void)hDevice;
  return E_NOTIMPL;
}
void TRITON_APIENTRY recycleDestroyCommandList(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HCOMMANDLIST) {
  deviceOf(hDevice)->notImplemented("RecycleDestroyCommandList");
}

}  // namespace entry
}  // namespace triton::driver
