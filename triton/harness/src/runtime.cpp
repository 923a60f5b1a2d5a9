// SPDX-License-Identifier: MIT
#include "triton/harness/runtime.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>

#include "dxbc/dxbc.h"
#include "wddm2_0.h"

namespace triton::harness {
namespace {

// The 11.1 prefix of a WDDM 1.3 table, for the 11.1 helpers; the two members the 1.3
// table retypes stay null there.
void copyWddm1_3Prefix(const ddi::D3DWDDM1_3DDI_DEVICEFUNCS& from, ddi::D3D11_1DDI_DEVICEFUNCS& to) {
  static_assert(offsetof(ddi::D3DWDDM1_3DDI_DEVICEFUNCS, pfnUpdateTileMappings) == sizeof(ddi::D3D11_1DDI_DEVICEFUNCS));
  std::memcpy(&to, &from, sizeof(to));
  to.pfnRelocateDeviceFuncs = nullptr;
  to.pfnCheckMultisampleQualityLevels = nullptr;
}

// The 2.0 prefix of a WDDM 2.1 table, for the 2.0 adapters; RelocateDeviceFuncs, which
// 2.1 retypes, stays null there.
void copyWddm2_1Prefix(const ddi::D3DWDDM2_1DDI_DEVICEFUNCS& from, ddi::D3DWDDM2_0DDI_DEVICEFUNCS& to) {
  static_assert(offsetof(ddi::D3DWDDM2_1DDI_DEVICEFUNCS, pfnAcquireResource) == sizeof(ddi::D3DWDDM2_0DDI_DEVICEFUNCS));
  std::memcpy(&to, &from, sizeof(to));
  to.pfnRelocateDeviceFuncs = nullptr;
}

// The runtime's callbacks the driver may call. Triton submits nothing to a kernel
// driver, so every kernel-thunk and DXGI callback is a recorded "unexpected call".
// They all take (HANDLE, one pointer-sized or 32-bit argument), so one function fits
// every slot on x86 (stdcall cleanup of two arguments) and x86_64.
LONG unexpectedCallbacks = 0;
HRESULT TRITON_CALLBACK unexpectedKernelCallback(HANDLE, void*) {
  InterlockedIncrement(&unexpectedCallbacks);
  return E_NOTIMPL;
}

// The WDDM 2.0 engine-context callbacks: Triton submits nothing of its own either.
template <class Args>
HRESULT TRITON_CALLBACK unexpectedContextCallback(ddi::D3D10DDI_HRTCORELAYER, Args*) {
  InterlockedIncrement(&unexpectedCallbacks);
  return E_NOTIMPL;
}

// pfnPresentCb: what the runtime does after the driver presented (its frame
// accounting; no kernel stands behind the harness). hDevice is the runtime's device
// handle, the harness Device.
HRESULT TRITON_CALLBACK presentCallback(HANDLE hDevice, ddi::DXGIDDICB_PRESENT* a) {
  if (!hDevice || !a)
    return E_INVALIDARG;
  static_cast<Device*>(hDevice)->recordPresent(*a);
  return S_OK;
}

// A test's own kernel side (setKernelCallbackOverrides).
std::mutex overrideMutex;
ddi::D3DDDI_DEVICECALLBACKS kernelOverrides{};

// The adapter's software key (setAdapterRegistryString), read by pfnQueryAdapterInfoCb2.
std::mutex registryMutex;
std::map<std::wstring, std::wstring> adapterRegistry;

// pfnQueryAdapterInfoCb2 as the runtime answers it: registry queries of REG_SZ values in
// the adapter key; any other query is not the harness's (unexpected).
HRESULT TRITON_CALLBACK queryAdapterInfo2(HANDLE hAdapter, ddi::D3DDDICB_QUERYADAPTERINFO2* a) {
  if (!hAdapter || !a || !a->pPrivateDriverData || a->QueryType != ddi::D3DDDI_QUERYADAPTERTYPE_QUERYREGISTRY ||
      a->PrivateDriverDataSize < sizeof(ddi::D3DDDI_QUERYREGISTRY_INFO))
    return unexpectedKernelCallback(hAdapter, a);
  auto* info = static_cast<ddi::D3DDDI_QUERYREGISTRY_INFO*>(a->pPrivateDriverData);
  if (info->QueryType != ddi::D3DDDI_QUERYREGISTRY_ADAPTERKEY || info->ValueType != REG_SZ)
    return E_INVALIDARG;
  const std::wstring name(info->ValueName, wcsnlen(info->ValueName, ddi::D3DDDI_QUERYREGISTRY_MAX_PATH));
  std::lock_guard<std::mutex> lock(registryMutex);
  const auto found = adapterRegistry.find(name);
  if (found == adapterRegistry.end()) {
    info->Status = ddi::D3DDDI_QUERYREGISTRY_STATUS_FAIL;
    return S_OK;
  }
  const UINT bytes = UINT((found->second.size() + 1) * sizeof(wchar_t));
  const UINT room = a->PrivateDriverDataSize - UINT(offsetof(ddi::D3DDDI_QUERYREGISTRY_INFO, OutputString));
  info->OutputValueSize = bytes;
  if (bytes > room) {
    info->Status = ddi::D3DDDI_QUERYREGISTRY_STATUS_BUFFER_OVERFLOW;
    return S_OK;
  }
  std::memcpy(info->OutputString, found->second.c_str(), bytes);
  info->Status = ddi::D3DDDI_QUERYREGISTRY_STATUS_SUCCESS;
  return S_OK;
}

// The kernel side of shared resources (runtime.h).
std::mutex kernelMutex;
std::map<ddi::D3DKMT_HANDLE, KernelResource> kernelResources;
ddi::D3DKMT_HANDLE nextKernelHandle = 0x40000000;

HRESULT TRITON_CALLBACK allocateCallback(HANDLE, ddi::D3DDDICB_ALLOCATE* a) {
  if (!a || !a->NumAllocations || !a->pAllocationInfo || (a->PrivateDriverDataSize && !a->pPrivateDriverData))
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(kernelMutex);
  KernelResource r;
  r.handle = nextKernelHandle++;
  r.runtimeResource = a->hResource;
  const auto* data = static_cast<const uint8_t*>(a->pPrivateDriverData);
  r.resourceData.assign(data, data + a->PrivateDriverDataSize);
  for (UINT i = 0; i < a->NumAllocations; ++i) {
    ddi::D3DDDI_ALLOCATIONINFO& info = a->pAllocationInfo[i];
    const auto* bytes = static_cast<const uint8_t*>(info.pPrivateDriverData);
    info.hAllocation = nextKernelHandle++;
    r.allocations.push_back(info.hAllocation);
    r.allocationData.emplace_back(bytes, bytes + (bytes ? info.PrivateDriverDataSize : 0));
  }
  // Only allocations of a runtime resource make a kernel resource (and a shareable one).
  a->hKMResource = a->hResource ? r.handle : 0;
  kernelResources[r.handle] = std::move(r);
  return S_OK;
}

HRESULT TRITON_CALLBACK deallocateCallback(HANDLE, const ddi::D3DDDICB_DEALLOCATE* a) {
  if (!a || !a->hResource)
    return E_INVALIDARG;   // Triton frees whole resources only
  std::lock_guard<std::mutex> lock(kernelMutex);
  for (auto it = kernelResources.begin(); it != kernelResources.end(); ++it)
    if (it->second.runtimeResource == a->hResource) {
      kernelResources.erase(it);
      return S_OK;
    }
  return E_INVALIDARG;
}

// Runtime handles of resources: unique for the process, never reused.
void* newRuntimeHandle() {
  static LONG next = 0;
  return reinterpret_cast<void*>(UINT_PTR(InterlockedIncrement(&next)) << 4);
}

template <class Pfn>
struct NoOpCallback;
template <class... Args>
struct NoOpCallback<void(TRITON_CALLBACK*)(Args...)> {
  // State re-send requests: the harness keeps no state the driver could ask for.
  static void TRITON_CALLBACK call(Args...) {}
};

template <class Table>
void fillWith(Table& table, const void* function) {
  std::vector<const void*> entries(sizeof(Table) / sizeof(void*), function);
  std::memcpy(&table, entries.data(), sizeof(Table));
}

size_t words(SIZE_T bytes) { return (bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t); }

template <class Handle>
DdiObject<Handle> allocate(SIZE_T size) {
  DdiObject<Handle> object;
  if (!size)
    return object;
  object.memory.reset(new uint64_t[words(size)]());
  object.handle.pDrvPrivate = object.memory.get();
  return object;
}

UINT ddiBindFlags(UINT api) {
  UINT out = api & 0x7f;   // VB, IB, CB, SRV, SO, RT, DS are value-equal
  if (api & D3D11_BIND_UNORDERED_ACCESS) out |= ddi::D3D11_DDI_BIND_UNORDERED_ACCESS;
  if (api & D3D11_BIND_DECODER) out |= ddi::D3D11_DDI_BIND_DECODER;
  if (api & D3D11_BIND_VIDEO_ENCODER) out |= ddi::D3D11_DDI_BIND_VIDEO_ENCODER;
  return out;
}

UINT ddiMapFlags(UINT cpu) {
  UINT out = 0;
  if (cpu & D3D11_CPU_ACCESS_WRITE) out |= ddi::D3D10_DDI_CPU_ACCESS_WRITE;
  if (cpu & D3D11_CPU_ACCESS_READ) out |= ddi::D3D10_DDI_CPU_ACCESS_READ;
  return out;
}

UINT ddiMiscFlags(UINT misc) {
  // TEXTURECUBE becomes the resource dimension; the rest keep their values.
  return misc & ~UINT(D3D11_RESOURCE_MISC_TEXTURECUBE);
}

bool isBlockCompressed(DXGI_FORMAT f) {
  return (f >= DXGI_FORMAT_BC1_TYPELESS && f <= DXGI_FORMAT_BC5_SNORM) ||
         (f >= DXGI_FORMAT_BC6H_TYPELESS && f <= DXGI_FORMAT_BC7_UNORM_SRGB);
}

std::vector<ddi::D3D10DDI_MIPINFO> mipInfo(UINT width, UINT height, UINT depth, UINT levels, DXGI_FORMAT format) {
  std::vector<ddi::D3D10DDI_MIPINFO> out;
  for (UINT i = 0; i < levels; ++i) {
    ddi::D3D10DDI_MIPINFO m{};
    m.TexelWidth = std::max(1u, width >> i);
    m.TexelHeight = std::max(1u, height >> i);
    m.TexelDepth = std::max(1u, depth >> i);
    const UINT align = isBlockCompressed(format) ? 4 : 1;
    m.PhysicalWidth = (m.TexelWidth + align - 1) / align * align;
    m.PhysicalHeight = (m.TexelHeight + align - 1) / align * align;
    m.PhysicalDepth = m.TexelDepth;
    out.push_back(m);
  }
  return out;
}

ddi::D3D10DDIARG_SIGNATURE_ENTRY entry10(const dxbc::DdiSignatureEntry& e) {
  ddi::D3D10DDIARG_SIGNATURE_ENTRY out{};
  out.SystemValue = ddi::D3D10_SB_NAME(e.systemValue);
  out.Register = e.registerIndex;
  out.Mask = e.mask;
  return out;
}

ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2 entry11_1(const dxbc::DdiSignatureEntry& e) {
  ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2 out{};
  out.SystemValue = ddi::D3D10_SB_NAME(e.systemValue);
  out.Register = e.registerIndex;
  out.Mask = e.mask;
  out.RegisterComponentType = ddi::D3D10_SB_REGISTER_COMPONENT_TYPE(e.componentType);
  out.MinPrecision = ddi::D3D11_SB_OPERAND_MIN_PRECISION(e.minPrecision);
  return out;
}

}  // namespace

long unexpectedCallbackCount() { return InterlockedCompareExchange(&unexpectedCallbacks, 0, 0); }

void setKernelCallbackOverrides(const ddi::D3DDDI_DEVICECALLBACKS* overrides) {
  std::lock_guard<std::mutex> lock(overrideMutex);
  kernelOverrides = overrides ? *overrides : ddi::D3DDDI_DEVICECALLBACKS{};
}

void setAdapterRegistryString(const std::wstring& name, const std::wstring& value) {
  std::lock_guard<std::mutex> lock(registryMutex);
  if (value.empty())
    adapterRegistry.erase(name);
  else
    adapterRegistry[name] = value;
}

bool kernelResourceOf(const Resource& resource, KernelResource* out) {
  std::lock_guard<std::mutex> lock(kernelMutex);
  for (const auto& [handle, r] : kernelResources)
    if (resource.runtimeHandle && r.runtimeResource == resource.runtimeHandle) {
      *out = r;
      return true;
    }
  return false;
}

size_t kernelResourceCount() {
  std::lock_guard<std::mutex> lock(kernelMutex);
  return kernelResources.size();
}

// Driver ----------------------------------------------------------------------------

Driver::~Driver() {
  if (module_)
    FreeLibrary(module_);
}

HRESULT Driver::load(const std::string& path, std::unique_ptr<Driver>& out) {
  auto driver = std::unique_ptr<Driver>(new Driver);
  driver->module_ = LoadLibraryA(path.c_str());
  if (!driver->module_)
    return HRESULT_FROM_WIN32(GetLastError());
  driver->openAdapter10_2 = reinterpret_cast<ddi::PFND3D10DDI_OPENADAPTER>(
      reinterpret_cast<void*>(GetProcAddress(driver->module_, "OpenAdapter10_2")));
  if (!driver->openAdapter10_2)
    return E_NOINTERFACE;
  out = std::move(driver);
  return S_OK;
}

// Adapter ---------------------------------------------------------------------------

Adapter::~Adapter() {
  if (open_ && funcs.pfnCloseAdapter)
    funcs.pfnCloseAdapter(handle);
}

HRESULT Adapter::open(Driver& driver) {
  fillWith(callbacks_, reinterpret_cast<const void*>(&unexpectedKernelCallback));
  callbacks_.pfnQueryAdapterInfoCb2 = queryAdapterInfo2;
  ddi::D3D10DDIARG_OPENADAPTER args{};
  args.hRTAdapter.handle = this;
  args.Interface = ddi::D3D11_1_DDI_INTERFACE_VERSION;
  args.Version = runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
  args.pAdapterCallbacks = &callbacks_;
  args.pAdapterFuncs_2 = &funcs;
  const HRESULT hr = driver.openAdapter10_2(&args);
  if (SUCCEEDED(hr)) {
    handle = args.hAdapter;
    open_ = true;
  }
  return hr;
}

std::vector<UINT64> Adapter::supportedVersions() {
  UINT32 count = 0;
  if (FAILED(funcs.pfnGetSupportedVersions(handle, &count, nullptr)))
    return {};
  std::vector<UINT64> versions(count);
  if (FAILED(funcs.pfnGetSupportedVersions(handle, &count, versions.data())))
    return {};
  versions.resize(count);
  return versions;
}

HRESULT Adapter::getCaps(ddi::D3D10_2DDICAPS_TYPE type, void* data, UINT size) {
  ddi::D3D10_2DDIARG_GETCAPS args{type, nullptr, data, size};
  return funcs.pfnGetCaps(handle, &args);
}

// Shaders ---------------------------------------------------------------------------

bool stripShader(std::span<const uint8_t> container, StrippedShader& out) {
  dxbc::ContainerReader reader;
  dxbc::DdiShader ddiShader;
  if (!dxbc::ContainerReader::parse(container, reader).ok() ||
      !dxbc::stripContainer(reader, dxbc::DdiStride::D3D11_1, ddiShader).ok())
    return false;
  out.tokens.resize(ddiShader.tokens.size() / 4);
  std::memcpy(out.tokens.data(), ddiShader.tokens.data(), out.tokens.size() * 4);
  for (const dxbc::DdiSignatureEntry& e : ddiShader.input) {
    out.input10.push_back(entry10(e));
    out.input11_1.push_back(entry11_1(e));
  }
  for (const dxbc::DdiSignatureEntry& e : ddiShader.output) {
    out.output10.push_back(entry10(e));
    out.output11_1.push_back(entry11_1(e));
  }
  for (const dxbc::DdiSignatureEntry& e : ddiShader.patchConstant) {
    out.patch10.push_back(entry10(e));
    out.patch11_1.push_back(entry11_1(e));
  }
  switch (out.tokens.empty() ? ~0u : out.tokens[0] >> 16) {
    case 0: out.stage = ShaderStage::Pixel; break;
    case 1: out.stage = ShaderStage::Vertex; break;
    case 2: out.stage = ShaderStage::Geometry; break;
    case 3: out.stage = ShaderStage::Hull; break;
    case 4: out.stage = ShaderStage::Domain; break;
    case 5: out.stage = ShaderStage::Compute; break;
    default: return false;
  }
  return true;
}

// Device ----------------------------------------------------------------------------

Device::~Device() { destroy(); }

void Device::destroy() {
  if (handle_.pDrvPrivate) {
    TRITON_DDI(*this, pfnDestroyDevice)(handle_);
    if (isWddm2_x())
      forgetWddm2_0Table(handle_);
    handle_.pDrvPrivate = nullptr;
  }
}

HRESULT Device::takeError() {
  const HRESULT hr = errors_.empty() ? S_OK : errors_.front();
  errors_.clear();
  return hr;
}

void Device::fillCallbacks() {
  using Core = ddi::D3D11DDI_CORELAYER_DEVICECALLBACKS;
  coreCallbacks_.pfnSetErrorCb = [](ddi::D3D10DDI_HRTCORELAYER layer, HRESULT hr) {
    static_cast<Device*>(layer.handle)->errors_.push_back(hr);
  };
#define TRITON_NOOP(member) coreCallbacks_.member = NoOpCallback<decltype(Core::member)>::call
  TRITON_NOOP(pfnStateVsConstBufCb); TRITON_NOOP(pfnStatePsSrvCb); TRITON_NOOP(pfnStatePsShaderCb);
  TRITON_NOOP(pfnStatePsSamplerCb); TRITON_NOOP(pfnStateVsShaderCb); TRITON_NOOP(pfnStatePsConstBufCb);
  TRITON_NOOP(pfnStateIaInputLayoutCb); TRITON_NOOP(pfnStateIaVertexBufCb); TRITON_NOOP(pfnStateIaIndexBufCb);
  TRITON_NOOP(pfnStateGsConstBufCb); TRITON_NOOP(pfnStateGsShaderCb); TRITON_NOOP(pfnStateIaPrimitiveTopologyCb);
  TRITON_NOOP(pfnStateVsSrvCb); TRITON_NOOP(pfnStateVsSamplerCb); TRITON_NOOP(pfnStateGsSrvCb);
  TRITON_NOOP(pfnStateGsSamplerCb); TRITON_NOOP(pfnStateOmRenderTargetsCb); TRITON_NOOP(pfnStateOmBlendStateCb);
  TRITON_NOOP(pfnStateOmDepthStateCb); TRITON_NOOP(pfnStateRsRastStateCb); TRITON_NOOP(pfnStateSoTargetsCb);
  TRITON_NOOP(pfnStateRsViewportsCb); TRITON_NOOP(pfnStateRsScissorCb);
  TRITON_NOOP(pfnDisableDeferredStagingResourceDestruction); TRITON_NOOP(pfnStateTextFilterSizeCb);
  TRITON_NOOP(pfnStateHsSrvCb); TRITON_NOOP(pfnStateHsShaderCb); TRITON_NOOP(pfnStateHsSamplerCb);
  TRITON_NOOP(pfnStateHsConstBufCb); TRITON_NOOP(pfnStateDsSrvCb); TRITON_NOOP(pfnStateDsShaderCb);
  TRITON_NOOP(pfnStateDsSamplerCb); TRITON_NOOP(pfnStateDsConstBufCb); TRITON_NOOP(pfnPerformAmortizedProcessingCb);
  TRITON_NOOP(pfnStateCsSrvCb); TRITON_NOOP(pfnStateCsUavCb); TRITON_NOOP(pfnStateCsShaderCb);
  TRITON_NOOP(pfnStateCsSamplerCb); TRITON_NOOP(pfnStateCsConstBufCb);
#undef TRITON_NOOP
  static_assert(offsetof(ddi::D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS, pfnCreateContextCb) == sizeof(Core));
  std::memcpy(&coreCallbacksWddm2_0_, &coreCallbacks_, sizeof(Core));
  coreCallbacksWddm2_0_.pfnCreateContextCb = unexpectedContextCallback<ddi::D3DWDDM2_0DDICB_CREATECONTEXT>;
  coreCallbacksWddm2_0_.pfnCreateContextVirtualCb = unexpectedContextCallback<ddi::D3DWDDM2_0DDICB_CREATECONTEXTVIRTUAL>;
  fillWith(kernelCallbacks_, reinterpret_cast<const void*>(&unexpectedKernelCallback));
  kernelCallbacks_.pfnAllocateCb = allocateCallback;
  kernelCallbacks_.pfnDeallocateCb = deallocateCallback;
  {
    std::lock_guard<std::mutex> lock(overrideMutex);
    const auto overrides = tableEntries(kernelOverrides);
    auto* slots = reinterpret_cast<const void**>(&kernelCallbacks_);
    for (size_t i = 0; i < overrides.size(); ++i)
      if (overrides[i])
        slots[i] = overrides[i];
  }
  fillWith(dxgiCallbacks_, reinterpret_cast<const void*>(&unexpectedKernelCallback));
  dxgiCallbacks_.pfnPresentCb = presentCallback;
}

HRESULT Device::create(Adapter& adapter, UINT interfaceVersion, UINT version, ddi::D3D11DDI_3DPIPELINELEVEL level) {
  destroy();
  interfaceVersion_ = interfaceVersion;
  const UINT flags = UINT(level) << ddi::D3D11DDI_CREATEDEVICE_FLAG_3DPIPELINESUPPORT_SHIFT;
  const ddi::D3D10DDIARG_CALCPRIVATEDEVICESIZE sizeArgs{interfaceVersion, version, flags};
  const SIZE_T size = adapter.funcs.pfnCalcPrivateDeviceSize(adapter.handle, &sizeArgs);
  if (!size)
    return DXGI_ERROR_UNSUPPORTED;
  deviceMemory_.reset(new uint64_t[words(size)]());
  fillCallbacks();
  std::memset(&funcs11, 0, sizeof(funcs11));
  std::memset(&funcs11_1, 0, sizeof(funcs11_1));
  std::memset(&dxgi1_0, 0, sizeof(dxgi1_0));
  std::memset(&dxgi1_1, 0, sizeof(dxgi1_1));
  std::memset(&dxgi1_2, 0, sizeof(dxgi1_2));
  std::memset(&funcsWddm1_3, 0, sizeof(funcsWddm1_3));
  std::memset(&dxgi1_3, 0, sizeof(dxgi1_3));
  std::memset(&funcsWddm2_0, 0, sizeof(funcsWddm2_0));
  std::memset(&funcsWddm2_1, 0, sizeof(funcsWddm2_1));
  std::memset(&dxgi1_4, 0, sizeof(dxgi1_4));
  std::memset(&dxgi1_5, 0, sizeof(dxgi1_5));

  ddi::D3D10DDIARG_CREATEDEVICE args{};
  args.hRTDevice.handle = this;
  args.Interface = interfaceVersion;
  args.Version = version;
  args.pKTCallbacks = &kernelCallbacks_;
  if (isWddm2_1())
    args.pWDDM2_1DeviceFuncs = &funcsWddm2_1;
  else if (isWddm2_0())
    args.pWDDM2_0DeviceFuncs = &funcsWddm2_0;
  else if (isWddm1_3())
    args.pWDDM1_3DeviceFuncs = &funcsWddm1_3;
  else if (is11_1())
    args.p11_1DeviceFuncs = &funcs11_1;
  else
    args.p11DeviceFuncs = &funcs11;
  args.hDrvDevice.pDrvPrivate = deviceMemory_.get();
  args.DXGIBaseDDI.pDXGIBaseCallbacks = &dxgiCallbacks_;
  // The runtime passes the DXGI table the WDK's IS_DXGI1_x_BASE_FUNCTIONS tests select.
  switch (ddi::dxgiTableFor(interfaceVersion, version)) {
    case ddi::DxgiTableKind::Dxgi1_0: args.DXGIBaseDDI.pDXGIDDIBaseFunctions = &dxgi1_0; break;
    case ddi::DxgiTableKind::Dxgi1_1: args.DXGIBaseDDI.pDXGIDDIBaseFunctions2 = &dxgi1_1; break;
    case ddi::DxgiTableKind::Dxgi1_2: args.DXGIBaseDDI.pDXGIDDIBaseFunctions3 = &dxgi1_2; break;
    case ddi::DxgiTableKind::Dxgi1_3: args.DXGIBaseDDI.pDXGIDDIBaseFunctions4 = &dxgi1_3; break;
    case ddi::DxgiTableKind::Dxgi1_4: args.DXGIBaseDDI.pDXGIDDIBaseFunctions5 = &dxgi1_4; break;
    case ddi::DxgiTableKind::Dxgi1_5: args.DXGIBaseDDI.pDXGIDDIBaseFunctions6 = &dxgi1_5; break;
  }
  args.hRTCoreLayer.handle = this;
  if (isWddm2_x())
    args.pWDDM2_0UMCallbacks = &coreCallbacksWddm2_0_;
  else
    args.p11UMCallbacks = &coreCallbacks_;
  args.Flags = flags;
  const HRESULT hr = adapter.funcs.pfnCreateDevice(adapter.handle, &args);
  if (SUCCEEDED(hr))
    handle_ = args.hDrvDevice;
  if (SUCCEEDED(hr) && isWddm1_3())
    copyWddm1_3Prefix(funcsWddm1_3, funcs11_1);
  if (SUCCEEDED(hr) && isWddm2_1())
    copyWddm2_1Prefix(funcsWddm2_1, funcsWddm2_0);
  if (SUCCEEDED(hr) && isWddm2_x())
    adoptWddm2_0Table(handle_, funcsWddm2_0, funcs11_1);
  return hr;
}

// Resources -------------------------------------------------------------------------

namespace {

struct ResourceArgs {
  ddi::D3D11DDIARG_CREATERESOURCE args{};
  std::vector<ddi::D3D10DDI_MIPINFO> mips;
  std::vector<ddi::D3D10_DDIARG_SUBRESOURCE_UP> initial;
};

ResourceArgs textureArgs(const D3D11_TEXTURE2D_DESC& d, const D3D11_SUBRESOURCE_DATA* initial) {
  ResourceArgs r;
  const UINT levels = d.MipLevels ? d.MipLevels : 1;
  r.mips = mipInfo(d.Width, d.Height, 1, levels, d.Format);
  r.args.pMipInfoList = r.mips.data();
  r.args.ResourceDimension =
      d.MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE ? ddi::D3D10DDIRESOURCE_TEXTURECUBE : ddi::D3D10DDIRESOURCE_TEXTURE2D;
  r.args.Usage = d.Usage;
  r.args.BindFlags = ddiBindFlags(d.BindFlags);
  r.args.MapFlags = ddiMapFlags(d.CPUAccessFlags);
  r.args.MiscFlags = ddiMiscFlags(d.MiscFlags);
  r.args.Format = d.Format;
  r.args.SampleDesc = d.SampleDesc;
  r.args.MipLevels = levels;
  r.args.ArraySize = d.ArraySize;
  if (initial) {
    for (UINT i = 0; i < levels * d.ArraySize; ++i)
      r.initial.push_back({const_cast<void*>(initial[i].pSysMem), initial[i].SysMemPitch, initial[i].SysMemSlicePitch});
    r.args.pInitialDataUP = r.initial.data();
  }
  return r;
}

ResourceArgs bufferArgs(const D3D11_BUFFER_DESC& d, const D3D11_SUBRESOURCE_DATA* initial) {
  ResourceArgs r;
  r.mips = mipInfo(d.ByteWidth, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
  r.args.pMipInfoList = r.mips.data();
  r.args.ResourceDimension = d.MiscFlags & (D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)
                                 ? ddi::D3D11DDIRESOURCE_BUFFEREX
                                 : ddi::D3D10DDIRESOURCE_BUFFER;
  r.args.Usage = d.Usage;
  r.args.BindFlags = ddiBindFlags(d.BindFlags);
  r.args.MapFlags = ddiMapFlags(d.CPUAccessFlags);
  r.args.MiscFlags = ddiMiscFlags(d.MiscFlags);
  r.args.Format = DXGI_FORMAT_UNKNOWN;
  r.args.SampleDesc = {1, 0};
  r.args.MipLevels = 1;
  r.args.ArraySize = 1;
  r.args.ByteStride = d.StructureByteStride;
  if (initial) {
    r.initial.push_back({const_cast<void*>(initial->pSysMem), initial->SysMemPitch, initial->SysMemSlicePitch});
    r.args.pInitialDataUP = r.initial.data();
  }
  return r;
}

}  // namespace

Resource Device::createTexture2D(const D3D11_TEXTURE2D_DESC& desc, const D3D11_SUBRESOURCE_DATA* initial) {
  ResourceArgs r = textureArgs(desc, initial);
  Resource resource = allocate<ddi::D3D10DDI_HRESOURCE>(TRITON_DDI(*this, pfnCalcPrivateResourceSize)(handle_, &r.args));
  if (resource) {
    resource.runtimeHandle = newRuntimeHandle();
    TRITON_DDI(*this, pfnCreateResource)(handle_, &r.args, resource.handle, ddi::D3D10DDI_HRTRESOURCE{resource.runtimeHandle});
  }
  return resource;
}

Resource Device::createBuffer(const D3D11_BUFFER_DESC& desc, const D3D11_SUBRESOURCE_DATA* initial) {
  ResourceArgs r = bufferArgs(desc, initial);
  Resource resource = allocate<ddi::D3D10DDI_HRESOURCE>(TRITON_DDI(*this, pfnCalcPrivateResourceSize)(handle_, &r.args));
  if (resource) {
    resource.runtimeHandle = newRuntimeHandle();
    TRITON_DDI(*this, pfnCreateResource)(handle_, &r.args, resource.handle, ddi::D3D10DDI_HRTRESOURCE{resource.runtimeHandle});
  }
  return resource;
}

void Device::createTexture2DAt(Resource& into, const D3D11_TEXTURE2D_DESC& desc) {
  ResourceArgs r = textureArgs(desc, nullptr);
  into.runtimeHandle = newRuntimeHandle();
  TRITON_DDI(*this, pfnCreateResource)(handle_, &r.args, into.handle, ddi::D3D10DDI_HRTRESOURCE{into.runtimeHandle});
}

void Device::createBufferAt(Resource& into, const D3D11_BUFFER_DESC& desc, const D3D11_SUBRESOURCE_DATA* initial) {
  ResourceArgs r = bufferArgs(desc, initial);
  into.runtimeHandle = newRuntimeHandle();
  TRITON_DDI(*this, pfnCreateResource)(handle_, &r.args, into.handle, ddi::D3D10DDI_HRTRESOURCE{into.runtimeHandle});
}

void Device::destroyResource(Resource& resource) {
  if (resource)
    TRITON_DDI(*this, pfnDestroyResource)(handle_, resource.handle);
}

Resource Device::openResource(const KernelResource& shared) {
  std::vector<ddi::D3DDDI_OPENALLOCATIONINFO> allocations;
  for (size_t i = 0; i < shared.allocations.size(); ++i)
    allocations.push_back({shared.allocations[i], shared.allocationData[i].data(), UINT(shared.allocationData[i].size())});
  ddi::D3D10DDIARG_OPENRESOURCE args{};
  args.NumAllocations = UINT(allocations.size());
  args.pOpenAllocationInfo = allocations.data();
  args.hKMResource.handle = shared.handle;
  args.pPrivateDriverData = const_cast<uint8_t*>(shared.resourceData.data());
  args.PrivateDriverDataSize = UINT(shared.resourceData.size());
  Resource resource =
      allocate<ddi::D3D10DDI_HRESOURCE>(TRITON_DDI(*this, pfnCalcPrivateOpenedResourceSize)(handle_, &args));
  if (resource) {
    resource.runtimeHandle = newRuntimeHandle();
    TRITON_DDI(*this, pfnOpenResource)(handle_, &args, resource.handle, ddi::D3D10DDI_HRTRESOURCE{resource.runtimeHandle});
  }
  return resource;
}

RenderTargetView Device::createRenderTargetView(const Resource& texture, DXGI_FORMAT format) {
  ddi::D3D10DDIARG_CREATERENDERTARGETVIEW args{};
  args.hDrvResource = texture.handle;
  args.Format = format;
  args.ResourceDimension = ddi::D3D10DDIRESOURCE_TEXTURE2D;
  args.Tex2D = {0, 0, 1};
  RenderTargetView view =
      allocate<ddi::D3D10DDI_HRENDERTARGETVIEW>(TRITON_DDI(*this, pfnCalcPrivateRenderTargetViewSize)(handle_, &args));
  if (view)
    TRITON_DDI(*this, pfnCreateRenderTargetView)(handle_, &args, view.handle, ddi::D3D10DDI_HRTRENDERTARGETVIEW{&view});
  return view;
}

ShaderResourceView Device::createShaderResourceView(const Resource& texture, DXGI_FORMAT format) {
  ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW args{};
  args.hDrvResource = texture.handle;
  args.Format = format;
  args.ResourceDimension = ddi::D3D10DDIRESOURCE_TEXTURE2D;
  args.Tex2D = {0, 0, 1, 1};
  ShaderResourceView view = allocate<ddi::D3D10DDI_HSHADERRESOURCEVIEW>(
      TRITON_DDI(*this, pfnCalcPrivateShaderResourceViewSize)(handle_, &args));
  if (view)
    TRITON_DDI(*this, pfnCreateShaderResourceView)(handle_, &args, view.handle,
                                                   ddi::D3D10DDI_HRTSHADERRESOURCEVIEW{&view});
  return view;
}

DepthStencilView Device::createDepthStencilView(const Resource& texture, DXGI_FORMAT format) {
  ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW args{};
  args.hDrvResource = texture.handle;
  args.Format = format;
  args.ResourceDimension = ddi::D3D10DDIRESOURCE_TEXTURE2D;
  args.Tex2D = {0, 0, 1};
  DepthStencilView view =
      allocate<ddi::D3D10DDI_HDEPTHSTENCILVIEW>(TRITON_DDI(*this, pfnCalcPrivateDepthStencilViewSize)(handle_, &args));
  if (view)
    TRITON_DDI(*this, pfnCreateDepthStencilView)(handle_, &args, view.handle, ddi::D3D10DDI_HRTDEPTHSTENCILVIEW{&view});
  return view;
}

UnorderedAccessView Device::createUnorderedAccessView(const Resource& texture, DXGI_FORMAT format) {
  ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW args{};
  args.hDrvResource = texture.handle;
  args.Format = format;
  args.ResourceDimension = ddi::D3D10DDIRESOURCE_TEXTURE2D;
  args.Tex2D = {0, 0, 1};
  UnorderedAccessView view = allocate<ddi::D3D11DDI_HUNORDEREDACCESSVIEW>(
      TRITON_DDI(*this, pfnCalcPrivateUnorderedAccessViewSize)(handle_, &args));
  if (view)
    TRITON_DDI(*this, pfnCreateUnorderedAccessView)(handle_, &args, view.handle,
                                                    ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW{&view});
  return view;
}

SamplerState Device::createSampler(const D3D11_SAMPLER_DESC& d) {
  ddi::D3D10_DDI_SAMPLER_DESC desc{ddi::D3D10_DDI_FILTER(d.Filter), ddi::D3D10_DDI_TEXTURE_ADDRESS_MODE(d.AddressU),
                                   ddi::D3D10_DDI_TEXTURE_ADDRESS_MODE(d.AddressV),
                                   ddi::D3D10_DDI_TEXTURE_ADDRESS_MODE(d.AddressW), d.MipLODBias, d.MaxAnisotropy,
                                   ddi::D3D10_DDI_COMPARISON_FUNC(d.ComparisonFunc),
                                   {d.BorderColor[0], d.BorderColor[1], d.BorderColor[2], d.BorderColor[3]},
                                   d.MinLOD, d.MaxLOD};
  SamplerState sampler = allocate<ddi::D3D10DDI_HSAMPLER>(TRITON_DDI(*this, pfnCalcPrivateSamplerSize)(handle_, &desc));
  if (sampler)
    TRITON_DDI(*this, pfnCreateSampler)(handle_, &desc, sampler.handle, ddi::D3D10DDI_HRTSAMPLER{&sampler});
  return sampler;
}

Shader Device::createShader(ShaderStage stage, const StrippedShader& s) {
  const UINT* code = s.tokens.data();
  const bool drop = s.dropEntries;
  Shader shader;
  if (stage == ShaderStage::Compute) {
    // Compute shaders come without signatures.
    shader = allocate<ddi::D3D10DDI_HSHADER>(
        is11_1() ? funcs11_1.pfnCalcPrivateShaderSize(handle_, code, nullptr)
                 : funcs11.pfnCalcPrivateShaderSize(handle_, code, nullptr));
    if (shader)
      TRITON_DDI(*this, pfnCreateComputeShader)(handle_, code, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader});
    return shader;
  }
  auto count = [drop](const auto& entries) { return drop ? 0u : UINT(entries.size()); };
  if (stage == ShaderStage::Hull || stage == ShaderStage::Domain) {
    const bool hull = stage == ShaderStage::Hull;
    if (is11_1()) {
      ddi::D3D11_1DDIARG_TESSELLATION_IO_SIGNATURES sig{};
      sig.pInputSignature = const_cast<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2*>(s.input11_1.data());
      sig.NumInputSignatureEntries = count(s.input11_1);
      sig.pOutputSignature = const_cast<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2*>(s.output11_1.data());
      sig.NumOutputSignatureEntries = count(s.output11_1);
      sig.pPatchConstantSignature = const_cast<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2*>(s.patch11_1.data());
      sig.NumPatchConstantSignatureEntries = count(s.patch11_1);
      shader = allocate<ddi::D3D10DDI_HSHADER>(funcs11_1.pfnCalcPrivateTessellationShaderSize(handle_, code, &sig));
      if (shader)
        (hull ? funcs11_1.pfnCreateHullShader : funcs11_1.pfnCreateDomainShader)(
            handle_, code, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader}, &sig);
    } else {
      ddi::D3D11DDIARG_TESSELLATION_IO_SIGNATURES sig{};
      sig.pInputSignature = const_cast<ddi::D3D10DDIARG_SIGNATURE_ENTRY*>(s.input10.data());
      sig.NumInputSignatureEntries = count(s.input10);
      sig.pOutputSignature = const_cast<ddi::D3D10DDIARG_SIGNATURE_ENTRY*>(s.output10.data());
      sig.NumOutputSignatureEntries = count(s.output10);
      sig.pPatchConstantSignature = const_cast<ddi::D3D10DDIARG_SIGNATURE_ENTRY*>(s.patch10.data());
      sig.NumPatchConstantSignatureEntries = count(s.patch10);
      shader = allocate<ddi::D3D10DDI_HSHADER>(funcs11.pfnCalcPrivateTessellationShaderSize(handle_, code, &sig));
      if (shader)
        (hull ? funcs11.pfnCreateHullShader : funcs11.pfnCreateDomainShader)(
            handle_, code, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader}, &sig);
    }
    return shader;
  }
  if (is11_1()) {
    ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES sig{};
    sig.pInputSignature = const_cast<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2*>(s.input11_1.data());
    sig.NumInputSignatureEntries = count(s.input11_1);
    sig.pOutputSignature = const_cast<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2*>(s.output11_1.data());
    sig.NumOutputSignatureEntries = count(s.output11_1);
    shader = allocate<ddi::D3D10DDI_HSHADER>(funcs11_1.pfnCalcPrivateShaderSize(handle_, code, &sig));
    if (shader) {
      auto create = stage == ShaderStage::Vertex     ? funcs11_1.pfnCreateVertexShader
                    : stage == ShaderStage::Geometry ? funcs11_1.pfnCreateGeometryShader
                                                     : funcs11_1.pfnCreatePixelShader;
      create(handle_, code, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader}, &sig);
    }
  } else {
    ddi::D3D10DDIARG_STAGE_IO_SIGNATURES sig{};
    sig.pInputSignature = const_cast<ddi::D3D10DDIARG_SIGNATURE_ENTRY*>(s.input10.data());
    sig.NumInputSignatureEntries = count(s.input10);
    sig.pOutputSignature = const_cast<ddi::D3D10DDIARG_SIGNATURE_ENTRY*>(s.output10.data());
    sig.NumOutputSignatureEntries = count(s.output10);
    shader = allocate<ddi::D3D10DDI_HSHADER>(funcs11.pfnCalcPrivateShaderSize(handle_, code, &sig));
    if (shader) {
      auto create = stage == ShaderStage::Vertex     ? funcs11.pfnCreateVertexShader
                    : stage == ShaderStage::Geometry ? funcs11.pfnCreateGeometryShader
                                                     : funcs11.pfnCreatePixelShader;
      create(handle_, code, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader}, &sig);
    }
  }
  return shader;
}

Shader Device::createGeometryShaderWithStreamOutput(
    const StrippedShader& s, std::span<const ddi::D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY> entries,
    std::span<const UINT> strides, UINT rasterizedStream) {
  ddi::D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT args{};
  args.pShaderCode = s.tokens.data();
  args.pOutputStreamDecl = entries.data();
  args.NumEntries = UINT(entries.size());
  args.BufferStridesInBytes = strides.data();
  args.NumStrides = UINT(strides.size());
  args.RasterizedStream = rasterizedStream;
  Shader shader;
  // The runtime hands a stream-output shader no output entries; the rebuild recovers
  // them from the declarations.
  if (is11_1()) {
    ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES sig{};
    sig.pInputSignature = const_cast<ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2*>(s.input11_1.data());
    sig.NumInputSignatureEntries = UINT(s.input11_1.size());
    shader = allocate<ddi::D3D10DDI_HSHADER>(funcs11_1.pfnCalcPrivateGeometryShaderWithStreamOutput(handle_, &args, &sig));
    if (shader)
      funcs11_1.pfnCreateGeometryShaderWithStreamOutput(handle_, &args, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader}, &sig);
  } else {
    ddi::D3D10DDIARG_STAGE_IO_SIGNATURES sig{};
    sig.pInputSignature = const_cast<ddi::D3D10DDIARG_SIGNATURE_ENTRY*>(s.input10.data());
    sig.NumInputSignatureEntries = UINT(s.input10.size());
    shader = allocate<ddi::D3D10DDI_HSHADER>(funcs11.pfnCalcPrivateGeometryShaderWithStreamOutput(handle_, &args, &sig));
    if (shader)
      funcs11.pfnCreateGeometryShaderWithStreamOutput(handle_, &args, shader.handle, ddi::D3D10DDI_HRTSHADER{&shader}, &sig);
  }
  return shader;
}

ElementLayout Device::createElementLayout(std::span<const D3D11_INPUT_ELEMENT_DESC> elements,
                                          std::span<const uint8_t> vertexShaderContainer) {
  // The runtime resolves each semantic against the vertex shader's input signature;
  // the driver only sees input registers.
  dxbc::ContainerReader reader;
  dxbc::ContainerSignatures signatures;
  if (!dxbc::ContainerReader::parse(vertexShaderContainer, reader).ok() ||
      !dxbc::readContainerSignatures(reader, signatures).ok())
    return {};
  std::vector<ddi::D3D10DDIARG_INPUT_ELEMENT_DESC> ddiElements;
  UINT offset = 0;
  for (const D3D11_INPUT_ELEMENT_DESC& e : elements) {
    auto found = std::find_if(signatures.input.elements.begin(), signatures.input.elements.end(),
                              [&](const dxbc::SignatureElement& s) {
                                return _stricmp(s.semanticName.c_str(), e.SemanticName) == 0 &&
                                       s.semanticIndex == e.SemanticIndex;
                              });
    if (found == signatures.input.elements.end())
      return {};
    ddi::D3D10DDIARG_INPUT_ELEMENT_DESC d{};
    d.InputSlot = e.InputSlot;
    d.AlignedByteOffset = e.AlignedByteOffset == D3D11_APPEND_ALIGNED_ELEMENT ? offset : e.AlignedByteOffset;
    d.Format = e.Format;
    d.InputSlotClass = ddi::D3D10_DDI_INPUT_CLASSIFICATION(e.InputSlotClass);
    d.InstanceDataStepRate = e.InstanceDataStepRate;
    d.InputRegister = found->registerIndex;
    offset = d.AlignedByteOffset + 16;   // the harness uses 16-byte attributes only
    ddiElements.push_back(d);
  }
  const ddi::D3D10DDIARG_CREATEELEMENTLAYOUT args{ddiElements.data(), UINT(ddiElements.size())};
  ElementLayout layout =
      allocate<ddi::D3D10DDI_HELEMENTLAYOUT>(TRITON_DDI(*this, pfnCalcPrivateElementLayoutSize)(handle_, &args));
  if (layout)
    TRITON_DDI(*this, pfnCreateElementLayout)(handle_, &args, layout.handle, ddi::D3D10DDI_HRTELEMENTLAYOUT{&layout});
  return layout;
}

RasterizerState Device::createRasterizerState(const D3D11_RASTERIZER_DESC& d) {
  RasterizerState state;
  if (is11_1()) {
    ddi::D3D11_1_DDI_RASTERIZER_DESC desc{ddi::D3D10_DDI_FILL_MODE(d.FillMode), ddi::D3D10_DDI_CULL_MODE(d.CullMode),
                                          d.FrontCounterClockwise, d.DepthBias, d.DepthBiasClamp,
                                          d.SlopeScaledDepthBias, d.DepthClipEnable, d.ScissorEnable,
                                          d.MultisampleEnable, d.AntialiasedLineEnable, 0};
    state = allocate<ddi::D3D10DDI_HRASTERIZERSTATE>(funcs11_1.pfnCalcPrivateRasterizerStateSize(handle_, &desc));
    if (state)
      funcs11_1.pfnCreateRasterizerState(handle_, &desc, state.handle, ddi::D3D10DDI_HRTRASTERIZERSTATE{&state});
  } else {
    ddi::D3D10_DDI_RASTERIZER_DESC desc{ddi::D3D10_DDI_FILL_MODE(d.FillMode), ddi::D3D10_DDI_CULL_MODE(d.CullMode),
                                        d.FrontCounterClockwise, d.DepthBias, d.DepthBiasClamp,
                                        d.SlopeScaledDepthBias, d.DepthClipEnable, d.ScissorEnable,
                                        d.MultisampleEnable, d.AntialiasedLineEnable};
    state = allocate<ddi::D3D10DDI_HRASTERIZERSTATE>(funcs11.pfnCalcPrivateRasterizerStateSize(handle_, &desc));
    if (state)
      funcs11.pfnCreateRasterizerState(handle_, &desc, state.handle, ddi::D3D10DDI_HRTRASTERIZERSTATE{&state});
  }
  return state;
}

BlendState Device::createBlendState(const D3D11_BLEND_DESC& d) {
  BlendState state;
  if (is11_1()) {
    ddi::D3D11_1_DDI_BLEND_DESC desc{};
    desc.AlphaToCoverageEnable = d.AlphaToCoverageEnable;
    desc.IndependentBlendEnable = d.IndependentBlendEnable;
    for (UINT i = 0; i < 8; ++i) {
      const D3D11_RENDER_TARGET_BLEND_DESC& rt = d.RenderTarget[i];
      desc.RenderTarget[i] = {rt.BlendEnable, FALSE, ddi::D3D10_DDI_BLEND(rt.SrcBlend), ddi::D3D10_DDI_BLEND(rt.DestBlend),
                              ddi::D3D10_DDI_BLEND_OP(rt.BlendOp), ddi::D3D10_DDI_BLEND(rt.SrcBlendAlpha),
                              ddi::D3D10_DDI_BLEND(rt.DestBlendAlpha), ddi::D3D10_DDI_BLEND_OP(rt.BlendOpAlpha),
                              ddi::D3D11_1_DDI_LOGIC_OP_NOOP, rt.RenderTargetWriteMask};
    }
    state = allocate<ddi::D3D10DDI_HBLENDSTATE>(funcs11_1.pfnCalcPrivateBlendStateSize(handle_, &desc));
    if (state)
      funcs11_1.pfnCreateBlendState(handle_, &desc, state.handle, ddi::D3D10DDI_HRTBLENDSTATE{&state});
  } else {
    ddi::D3D10_1_DDI_BLEND_DESC desc{};
    desc.AlphaToCoverageEnable = d.AlphaToCoverageEnable;
    desc.IndependentBlendEnable = d.IndependentBlendEnable;
    for (UINT i = 0; i < 8; ++i) {
      const D3D11_RENDER_TARGET_BLEND_DESC& rt = d.RenderTarget[i];
      desc.RenderTarget[i] = {rt.BlendEnable, ddi::D3D10_DDI_BLEND(rt.SrcBlend), ddi::D3D10_DDI_BLEND(rt.DestBlend),
                              ddi::D3D10_DDI_BLEND_OP(rt.BlendOp), ddi::D3D10_DDI_BLEND(rt.SrcBlendAlpha),
                              ddi::D3D10_DDI_BLEND(rt.DestBlendAlpha), ddi::D3D10_DDI_BLEND_OP(rt.BlendOpAlpha),
                              rt.RenderTargetWriteMask};
    }
    state = allocate<ddi::D3D10DDI_HBLENDSTATE>(funcs11.pfnCalcPrivateBlendStateSize(handle_, &desc));
    if (state)
      funcs11.pfnCreateBlendState(handle_, &desc, state.handle, ddi::D3D10DDI_HRTBLENDSTATE{&state});
  }
  return state;
}

DepthStencilState Device::createDepthStencilState(const D3D11_DEPTH_STENCIL_DESC& d) {
  auto face = [](const D3D11_DEPTH_STENCILOP_DESC& f) {
    return ddi::D3D10_DDI_DEPTH_STENCILOP_DESC{ddi::D3D10_DDI_STENCIL_OP(f.StencilFailOp),
                                               ddi::D3D10_DDI_STENCIL_OP(f.StencilDepthFailOp),
                                               ddi::D3D10_DDI_STENCIL_OP(f.StencilPassOp),
                                               ddi::D3D10_DDI_COMPARISON_FUNC(f.StencilFunc)};
  };
  ddi::D3D10_DDI_DEPTH_STENCIL_DESC desc{d.DepthEnable, ddi::D3D10_DDI_DEPTH_WRITE_MASK(d.DepthWriteMask),
                                         ddi::D3D10_DDI_COMPARISON_FUNC(d.DepthFunc), d.StencilEnable, TRUE, TRUE,
                                         d.StencilReadMask, d.StencilWriteMask, face(d.FrontFace), face(d.BackFace)};
  DepthStencilState state =
      allocate<ddi::D3D10DDI_HDEPTHSTENCILSTATE>(TRITON_DDI(*this, pfnCalcPrivateDepthStencilStateSize)(handle_, &desc));
  if (state)
    TRITON_DDI(*this, pfnCreateDepthStencilState)(handle_, &desc, state.handle, ddi::D3D10DDI_HRTDEPTHSTENCILSTATE{&state});
  return state;
}

Query Device::createQuery(ddi::D3D10DDI_QUERY type) {
  const ddi::D3D10DDIARG_CREATEQUERY args{type, 0};
  Query query = allocate<ddi::D3D10DDI_HQUERY>(TRITON_DDI(*this, pfnCalcPrivateQuerySize)(handle_, &args));
  if (query)
    TRITON_DDI(*this, pfnCreateQuery)(handle_, &args, query.handle, ddi::D3D10DDI_HRTQUERY{&query});
  return query;
}

void Device::destroy(RenderTargetView& v) { if (v) TRITON_DDI(*this, pfnDestroyRenderTargetView)(handle_, v.handle); }
void Device::destroy(Shader& s) { if (s) TRITON_DDI(*this, pfnDestroyShader)(handle_, s.handle); }
void Device::destroy(ElementLayout& l) { if (l) TRITON_DDI(*this, pfnDestroyElementLayout)(handle_, l.handle); }
void Device::destroy(RasterizerState& s) { if (s) TRITON_DDI(*this, pfnDestroyRasterizerState)(handle_, s.handle); }
void Device::destroy(BlendState& s) { if (s) TRITON_DDI(*this, pfnDestroyBlendState)(handle_, s.handle); }
void Device::destroy(DepthStencilState& s) { if (s) TRITON_DDI(*this, pfnDestroyDepthStencilState)(handle_, s.handle); }
void Device::destroy(Query& q) { if (q) TRITON_DDI(*this, pfnDestroyQuery)(handle_, q.handle); }
void Device::destroy(ShaderResourceView& v) { if (v) TRITON_DDI(*this, pfnDestroyShaderResourceView)(handle_, v.handle); }
void Device::destroy(DepthStencilView& v) { if (v) TRITON_DDI(*this, pfnDestroyDepthStencilView)(handle_, v.handle); }
void Device::destroy(UnorderedAccessView& v) { if (v) TRITON_DDI(*this, pfnDestroyUnorderedAccessView)(handle_, v.handle); }
void Device::destroy(SamplerState& s) { if (s) TRITON_DDI(*this, pfnDestroySampler)(handle_, s.handle); }

void Device::setConstantBuffers(ShaderStage stage, UINT start, std::span<const ddi::D3D10DDI_HRESOURCE> buffers) {
  if (is11_1()) {
    auto set = stage == ShaderStage::Vertex  ? funcs11_1.pfnVsSetConstantBuffers
               : stage == ShaderStage::Pixel ? funcs11_1.pfnPsSetConstantBuffers
                                             : funcs11_1.pfnCsSetConstantBuffers;
    set(handle_, start, UINT(buffers.size()), buffers.data(), nullptr, nullptr);
  } else {
    auto set = stage == ShaderStage::Vertex  ? funcs11.pfnVsSetConstantBuffers
               : stage == ShaderStage::Pixel ? funcs11.pfnPsSetConstantBuffers
                                             : funcs11.pfnCsSetConstantBuffers;
    set(handle_, start, UINT(buffers.size()), buffers.data());
  }
}

void Device::updateSubresourceUP(const Resource& resource, UINT subresource, const void* data, UINT rowPitch,
                                 UINT depthPitch) {
  if (is11_1())
    funcs11_1.pfnResourceUpdateSubresourceUP(handle_, resource.handle, subresource, nullptr, data, rowPitch, depthPitch, 0);
  else
    funcs11.pfnResourceUpdateSubresourceUP(handle_, resource.handle, subresource, nullptr, data, rowPitch, depthPitch);
}

void Device::copyRegion(const Resource& dst, UINT dstSub, UINT x, UINT y, const Resource& src, UINT srcSub) {
  if (is11_1())
    funcs11_1.pfnResourceCopyRegion(handle_, dst.handle, dstSub, x, y, 0, src.handle, srcSub, nullptr, 0);
  else
    funcs11.pfnResourceCopyRegion(handle_, dst.handle, dstSub, x, y, 0, src.handle, srcSub, nullptr);
}

// Deferred contexts and command lists ----------------------------------------------

HRESULT DeferredContext::create(Device& device) {
  destroy();
  is11_1_ = device.is11_1();
  isWddm1_3_ = device.isWddm1_3();
  isWddm2_0_ = device.isWddm2_0();
  isWddm2_1_ = device.isWddm2_1();
  callbacks_ = device.coreCallbacks_;
  callbacks_.pfnSetErrorCb = [](ddi::D3D10DDI_HRTCORELAYER layer, HRESULT hr) {
    static_cast<DeferredContext*>(layer.handle)->errors_.push_back(hr);
  };
  const ddi::D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE sizeArgs{0};
  const SIZE_T size = TRITON_DDI(device, pfnCalcPrivateDeferredContextSize)(device.handle(), &sizeArgs);
  if (!size)
    return E_OUTOFMEMORY;
  memory_.reset(new uint64_t[words(size)]());
  ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT args{};
  if (isWddm2_1_)
    args.pWDDM2_1ContextFuncs = &funcsWddm2_1;
  else if (isWddm2_0_)
    args.pWDDM2_0ContextFuncs = &funcsWddm2_0;
  else if (isWddm1_3_)
    args.pWDDM1_3ContextFuncs = &funcsWddm1_3;
  else if (is11_1_)
    args.p11_1ContextFuncs = &funcs11_1;
  else
    args.p11ContextFuncs = &funcs11;
  args.hDrvContext.pDrvPrivate = memory_.get();
  args.hRTCoreLayer.handle = this;
  args.p11UMCallbacks = &callbacks_;
  TRITON_DDI(device, pfnCreateDeferredContext)(device.handle(), &args);
  const HRESULT hr = device.takeError();
  if (SUCCEEDED(hr))
    handle_ = args.hDrvContext;
  if (SUCCEEDED(hr) && isWddm1_3_)
    copyWddm1_3Prefix(funcsWddm1_3, funcs11_1);
  if (SUCCEEDED(hr) && isWddm2_1_)
    copyWddm2_1Prefix(funcsWddm2_1, funcsWddm2_0);
  if (SUCCEEDED(hr) && (isWddm2_0_ || isWddm2_1_))
    adoptWddm2_0Table(handle_, funcsWddm2_0, funcs11_1);
  return hr;
}

void DeferredContext::destroy() {
  if (handle_.pDrvPrivate) {
    // A deferred context is destroyed through its own table's DestroyDevice.
    TRITON_DDI(*this, pfnDestroyDevice)(handle_);
    if (isWddm2_0_ || isWddm2_1_)
      forgetWddm2_0Table(handle_);
    handle_.pDrvPrivate = nullptr;
  }
}

HRESULT DeferredContext::takeError() {
  const HRESULT hr = errors_.empty() ? S_OK : errors_.front();
  errors_.clear();
  return hr;
}

CommandList Device::createCommandList(DeferredContext& context) {
  const ddi::D3D11DDIARG_CREATECOMMANDLIST args{context.handle()};
  CommandList list = allocate<ddi::D3D11DDI_HCOMMANDLIST>(TRITON_DDI(*this, pfnCalcPrivateCommandListSize)(handle_, &args));
  if (list)
    TRITON_DDI(*this, pfnCreateCommandList)(handle_, &args, list.handle, ddi::D3D11DDI_HRTCOMMANDLIST{&list});
  return list;
}

void Device::destroy(CommandList& list) {
  if (list)
    TRITON_DDI(*this, pfnDestroyCommandList)(handle_, list.handle);
}

}  // namespace triton::harness
