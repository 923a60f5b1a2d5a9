// SPDX-License-Identifier: MIT
// OpenAdapter10_2 and the adapter functions: version negotiation, caps, device
// creation.

#include "adapter.h"

#include <new>

#include "device.h"
#include "entries.h"
#include "kernel_transport.h"
#include "log.h"

namespace triton::driver {

namespace ddi = triton::ddi;

Adapter::Adapter(const ddi::D3D10DDIARG_OPENADAPTER& args) { kernel_transport::chooseTransport(args); }

Adapter::~Adapter() {
  // Once the kernel transport's owner device is gone, its memory may be too: the probe's
  // target objects are left alone rather than released into it.
  if (kernel_transport::closed())
    (void)probe_.release();
}

TargetDevice* Adapter::probe() {
  std::lock_guard<std::mutex> lock(mutex_);
  // With the kernel transport, the target can be reached only once a device made the
  // process's context (its callbacks are the way to the kernel), and never after it closed.
  if (kernel_transport::selected() && !kernel_transport::open())
    return kernel_transport::closed() ? nullptr : probe_.get();
  if (!probed_) {
    probed_ = true;
    const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0,
                                        D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0};
    if (FAILED(createTargetDevice(levels, 4, probe_)))
      probe_.reset();
  }
  return probe_.get();
}

int Adapter::highestPipelineLevel() {
  TargetDevice* target = probe();
  if (!target)
    return awaitingKernelContext() ? int(ddi::D3D11_1DDI_3DPIPELINELEVEL_11_1) : -1;
  switch (target->featureLevel()) {
    case D3D_FEATURE_LEVEL_10_0: return ddi::D3D11DDI_3DPIPELINELEVEL_10_0;
    case D3D_FEATURE_LEVEL_10_1: return ddi::D3D11DDI_3DPIPELINELEVEL_10_1;
    case D3D_FEATURE_LEVEL_11_0: return ddi::D3D11DDI_3DPIPELINELEVEL_11_0;
    default:
      return target->featureLevel() >= D3D_FEATURE_LEVEL_11_1 ? int(ddi::D3D11_1DDI_3DPIPELINELEVEL_11_1) : -1;
  }
}

bool awaitingKernelContext() { return kernel_transport::selected() && !kernel_transport::open() && !kernel_transport::closed(); }

bool featureLevelForPipelineLevel(UINT level, D3D_FEATURE_LEVEL* out) {
  switch (level) {
    case ddi::D3D11DDI_3DPIPELINELEVEL_10_0: *out = D3D_FEATURE_LEVEL_10_0; return true;
    case ddi::D3D11DDI_3DPIPELINELEVEL_10_1: *out = D3D_FEATURE_LEVEL_10_1; return true;
    case ddi::D3D11DDI_3DPIPELINELEVEL_11_0: *out = D3D_FEATURE_LEVEL_11_0; return true;
    case ddi::D3D11_1DDI_3DPIPELINELEVEL_11_1: *out = D3D_FEATURE_LEVEL_11_1; return true;
    default: return false;   // the 9_x levels need the D3D10level9 DDI, which Triton lacks
  }
}

namespace {

constexpr UINT kMaxSupportedVersions = 6;

// Interface versions Triton implements, newest first, if the target allows them.
UINT supportedVersions(Adapter& adapter, UINT64* out) {
  TargetDevice* target = adapter.probe();
  if (!target && !awaitingKernelContext())
    return 0;
  UINT count = 0;
  // WDDM 1.3 is the 11.1 table plus tiled resources and markers, both reported absent
  // through GetCaps (ddi_wddm1_3.cpp); WDDM 2.0 and 2.1 are the 1.3 table with their
  // additions translated or reported absent the same way (ddi_wddm2_0.cpp): all need
  // what 11.1 needs.
  if (!target || target->device1()) {
    out[count++] = ddi::D3DWDDM2_1_DDI_SUPPORTED;
    out[count++] = ddi::D3DWDDM2_0_DDI_SUPPORTED;
    out[count++] = ddi::D3DWDDM1_3_DDI_SUPPORTED;
    out[count++] = ddi::D3D11_1_DDI_SUPPORTED;
  }
  out[count++] = ddi::D3D11_0_7_DDI_SUPPORTED;
  out[count++] = ddi::D3D11_0_DDI_SUPPORTED;
  return count;
}

bool interfaceSupported(Adapter& adapter, UINT interfaceVersion, UINT version) {
  UINT64 versions[kMaxSupportedVersions];
  const UINT count = supportedVersions(adapter, versions);
  for (UINT i = 0; i < count; ++i)
    if (UINT(versions[i] >> 32) == interfaceVersion)
      return ddi::ddiBuild(version) >= UINT((versions[i] >> 16) & 0xffff);
  return false;
}

bool pipelineLevelSupported(Adapter& adapter, UINT flags, D3D_FEATURE_LEVEL* level) {
  const UINT requested = ddi::D3D11DDI_EXTRACT_3DPIPELINELEVEL_FROM_FLAGS(flags);
  // The 10_0..11_1 levels are numbered in order; the 9_x ones are refused by
  // featureLevelForPipelineLevel.
  return featureLevelForPipelineLevel(requested, level) && int(requested) <= adapter.highestPipelineLevel();
}

}  // namespace

namespace entry {

SIZE_T TRITON_APIENTRY calcPrivateDeviceSize(ddi::D3D10DDI_HADAPTER hAdapter,
                                             const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE* args) {
  Adapter* adapter = adapterOf(hAdapter);
  D3D_FEATURE_LEVEL level{};
  if (!adapter || !args || !interfaceSupported(*adapter, args->Interface, args->Version) ||
      !pipelineLevelSupported(*adapter, args->Flags, &level))
    return 0;
  return sizeof(Device);
}

HRESULT TRITON_APIENTRY createDevice(ddi::D3D10DDI_HADAPTER hAdapter, ddi::D3D10DDIARG_CREATEDEVICE* args) {
  Adapter* adapter = adapterOf(hAdapter);
  if (!adapter || !args || !args->hDrvDevice.pDrvPrivate)
    return E_INVALIDARG;
  D3D_FEATURE_LEVEL level{};
  if (!interfaceSupported(*adapter, args->Interface, args->Version) ||
      !pipelineLevelSupported(*adapter, args->Flags, &level)) {
    TRITON_LOG(Warn, "CreateDevice: interface 0x%08x version 0x%08x flags 0x%x not supported", args->Interface,
               args->Version, args->Flags);
    return E_INVALIDARG;
  }
  if (!args->p11UMCallbacks || !args->p11UMCallbacks->pfnSetErrorCb)
    return E_INVALIDARG;
  // The kernel transport: the first device makes the process's context through its
  // callbacks before any target device exists (kernel_transport.h).
  if (kernel_transport::selected()) {
    if (HRESULT hr = kernel_transport::connect(args->pKTCallbacks, args->hRTDevice); FAILED(hr))
      return hr;
  }
  std::unique_ptr<TargetDevice> target;
  HRESULT hr = createTargetDevice(&level, 1, target);
  if (FAILED(hr))
    return hr;
  const ddi::DeviceTableKind table = ddi::deviceTableFor(args->Interface);
  if (table != ddi::DeviceTableKind::D3D11_0 &&
      (!target->device1() || !target->context1()))
    return E_INVALIDARG;
  if (!fillDeviceTables(*args))
    return E_INVALIDARG;
  Device* device = new (args->hDrvDevice.pDrvPrivate) Device(*args, std::move(target));
  device->attachPresenter(args->DXGIBaseDDI.pDXGIBaseCallbacks);
  TRITON_LOG(Info, "device created: interface 0x%08x, feature level 0x%x", args->Interface, unsigned(level));
  return S_OK;
}

HRESULT TRITON_APIENTRY closeAdapter(ddi::D3D10DDI_HADAPTER hAdapter) {
  delete adapterOf(hAdapter);
  return S_OK;
}

HRESULT TRITON_APIENTRY getSupportedVersions(ddi::D3D10DDI_HADAPTER hAdapter, UINT32* puEntries,
                                             UINT64* pSupportedDDIInterfaceVersions) {
  Adapter* adapter = adapterOf(hAdapter);
  if (!adapter || !puEntries)
    return E_INVALIDARG;
  UINT64 versions[kMaxSupportedVersions];
  const UINT count = supportedVersions(*adapter, versions);
  if (pSupportedDDIInterfaceVersions) {
    if (*puEntries < count)
      return HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER);
    for (UINT i = 0; i < count; ++i)
      pSupportedDDIInterfaceVersions[i] = versions[i];
  }
  *puEntries = count;
  return S_OK;
}

}  // namespace entry
}  // namespace triton::driver

// The driver DLL's entry point (exported undecorated through triton.def).
extern "C" HRESULT TRITON_APIENTRY OpenAdapter10_2(triton::ddi::D3D10DDIARG_OPENADAPTER* args) {
  namespace ddi = triton::ddi;
  using namespace triton::driver;
  if (!args || !args->pAdapterFuncs_2)
    return E_INVALIDARG;
  // The runtime's Interface/Version are informational here ("the driver can ignore
  // them"): GetSupportedVersions negotiates, and a D3D10 runtime finds no version it
  // can use there, so CalcPrivateDeviceSize and CreateDevice refuse it.
  TRITON_LOG(Info, "OpenAdapter10_2: runtime interface 0x%08x version 0x%08x", args->Interface, args->Version);
  Adapter* adapter = new (std::nothrow) Adapter(*args);
  if (!adapter)
    return E_OUTOFMEMORY;
  args->hAdapter.pDrvPrivate = adapter;
  ddi::D3D10_2DDI_ADAPTERFUNCS* funcs = args->pAdapterFuncs_2;
  funcs->pfnCalcPrivateDeviceSize = entry::calcPrivateDeviceSize;
  funcs->pfnCreateDevice = entry::createDevice;
  funcs->pfnCloseAdapter = entry::closeAdapter;
  funcs->pfnGetSupportedVersions = entry::getSupportedVersions;
  funcs->pfnGetCaps = entry::getCaps;
  return S_OK;
}
