// SPDX-License-Identifier: MIT
#pragma once

// One DDI device: the runtime's handles and callbacks, the target device, and the
// little state the DDI splits differently from the API (the output-merger slots,
// which the API sets in one call and the DDI in ranges).

#include <d3d11_1.h>

#include <memory>

#include "class_linkage.h"
#include "dxgi_present.h"
#include "objects.h"
#include "target_device.h"

namespace triton::driver {

class Device {
public:
  Device(const ddi::D3D10DDIARG_CREATEDEVICE& args, std::unique_ptr<TargetDevice> target);
  // A deferred context (pfnCreateDeferredContext): the same entries, translated onto a
  // target deferred context of the immediate device's target device.
  Device(const Device& immediate, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT& args,
         ComPtr<ID3D11DeviceContext> deferred);
  ~Device();

  ID3D11Device* device() const { return device_; }
  ID3D11DeviceContext* context() const { return context_; }
  ID3D11Device1* device1() const { return target_->device1(); }
  ID3D11DeviceContext1* context1() const { return context1_.Get(); }
  bool isDeferred() const { return !target_; }
  ddi::D3D10DDI_HRTDEVICE runtimeDevice() const { return runtimeDevice_; }
  // 11.1 or one of the WDDM 1.3 / 2.x tables built on it.
  bool isD3D11_1() const {
    return tableKind_ == ddi::DeviceTableKind::D3D11_1 || tableKind_ == ddi::DeviceTableKind::WDDM1_3 ||
           tableKind_ == ddi::DeviceTableKind::WDDM2_0 || tableKind_ == ddi::DeviceTableKind::WDDM2_1;
  }
  ddi::DeviceTableKind tableKind() const { return tableKind_; }

  // Errors of DDI functions that return void go to the runtime through pfnSetErrorCb.
  void setError(HRESULT hr) const;
  // Reports an entry Triton does not translate yet: logged once per entry, E_NOTIMPL
  // to the runtime.
  void notImplemented(const char* entry) const;
  // A target call failed: logged, and the error goes to the runtime (a lost target
  // as D3DDDIERR_DEVICEREMOVED).
  void targetFailed(const char* entry, HRESULT hr) const;
  // Flushes are where a lost target shows up for calls that return nothing.
  void checkTargetAlive() const;

  // The DXGI present path (immediate device only; null for a deferred context): made
  // once the device exists, with the runtime's DXGI callbacks.
  void attachPresenter(const ddi::DXGI_DDI_BASE_CALLBACKS* callbacks);
  DxgiPresenter* presenter() const { return presenter_.get(); }

  // Whether the target context is at the default state (default_state_filter.h). A
  // reset also empties the output-merger slots the DDI's ranges are merged into.
  bool atDefaultState() const { return atDefaultState_; }
  void leaveDefaultState();
  void resetToDefaultState();

  // The runtime's kernel-thunk callbacks for kernel allocations (shared resources):
  // hDevice is the runtime's device handle.
  HRESULT allocate(ddi::D3DDDICB_ALLOCATE& args) const;
  HRESULT deallocate(const ddi::D3DDDICB_DEALLOCATE& args) const;

  // Output merger: the DDI sets RTVs, DSV and UAV ranges; the API takes them together.
  void setOutputMerger(const ddi::D3D10DDI_HRENDERTARGETVIEW* rtvs, UINT numRtvs, UINT rtvsToUnbind,
                       ddi::D3D10DDI_HDEPTHSTENCILVIEW dsv,
                       const ddi::D3D11DDI_HUNORDEREDACCESSVIEW* uavs, const UINT* initialCounts,
                       UINT uavStart, UINT numUavs, UINT uavRangeStart, UINT uavRangeSize);

  // The target class linkage of this device and its deferred contexts (shaders with
  // interfaces, the class instances *SetShaderWithIfaces binds).
  ClassLinkage& classLinkage() const { return *classLinkage_; }

  // D3D10 text filter size: recorded; it only matters to TEXT_1BIT samplers, which
  // the target API cannot express (CreateSampler refuses them).
  UINT textFilterWidth = 1, textFilterHeight = 1;

private:
  ddi::DeviceTableKind tableKind_;
  ddi::D3D10DDI_HRTCORELAYER coreLayer_;
  const ddi::D3D11DDI_CORELAYER_DEVICECALLBACKS* callbacks_;
  ddi::D3D10DDI_HRTDEVICE runtimeDevice_;
  const ddi::D3DDDI_DEVICECALLBACKS* kernelCallbacks_;
  std::unique_ptr<TargetDevice> target_;   // null for a deferred context
  ID3D11Device* device_;
  ID3D11DeviceContext* context_;
  ComPtr<ID3D11DeviceContext> deferredContext_;
  ComPtr<ID3D11DeviceContext1> context1_;
  std::shared_ptr<ClassLinkage> classLinkage_;   // one per target device, shared with deferred contexts

  static constexpr UINT kRenderTargetSlots = D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT;
  static constexpr UINT kOutputMergerUavSlots = D3D11_1_UAV_SLOT_COUNT;
  ComPtr<ID3D11RenderTargetView> rtvs_[kRenderTargetSlots];
  ComPtr<ID3D11DepthStencilView> dsv_;
  ComPtr<ID3D11UnorderedAccessView> uavs_[kOutputMergerUavSlots];

  // Counts deferred contexts recording at once (TRITON_LOG=info statistics).
  static void noteRecording(bool started);

  std::unique_ptr<DxgiPresenter> presenter_;
  bool atDefaultState_ = true;   // a new context, immediate or deferred, starts there
};

inline Device* deviceOf(ddi::D3D10DDI_HDEVICE handle) { return static_cast<Device*>(handle.pDrvPrivate); }

// Fills the device table (and the DXGI table) the runtime asked for. False for an
// interface version Triton does not implement.
bool fillDeviceTables(ddi::D3D10DDIARG_CREATEDEVICE& args);
// Fills a deferred context's table: the same kind as its device's.
void fillDeferredContextTable(ddi::DeviceTableKind kind, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT& args);

// A driver command list: the target command list a deferred context finished.
struct CommandList {
  ComPtr<ID3D11CommandList> list;
};

}  // namespace triton::driver
