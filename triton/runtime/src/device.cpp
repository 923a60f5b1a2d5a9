// SPDX-License-Identifier: MIT
// The device: driver loading and device creation, and every Create* mapped onto the
// DDI's CalcPrivate*Size + Create* pair the way the runtime maps it.

#include "device.h"

#include "class_linkage.h"

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <set>
#include <string>

#include "context.h"
#include "format_support.h"
#include "formats.h"
#include "npt/validation/resource.h"

namespace triton::runtime {

using Lock = std::lock_guard<std::recursive_mutex>;

std::unique_ptr<uint64_t[]> allocatePrivate(SIZE_T size) {
  return std::unique_ptr<uint64_t[]>(new uint64_t[(size + 7) / 8]());
}

void notImplemented(const char* entry) {
  static std::mutex mutex;
  static std::set<std::string> reported;
  std::lock_guard<std::mutex> lock(mutex);
  if (reported.insert(entry).second)
    std::fprintf(stderr, "triton-runtime: %s: not implemented by the API-level runtime\n", entry);
}

namespace {

std::string driverPath() {
  if (const char* path = std::getenv("TRITON_DRIVER"); path && *path)
    return path;
  // Beside this DLL, as a display driver is found through the adapter's registry key.
  HMODULE self = nullptr;
  GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                     reinterpret_cast<LPCSTR>(&driverPath), &self);
  char buffer[MAX_PATH] = {};
  GetModuleFileNameA(self, buffer, MAX_PATH);
  std::string path = buffer;
  const size_t slash = path.find_last_of("\\/");
  return (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + "triton_umd.dll";
}

// TRITON_KERNEL_DLL (tests): a DLL that plays the kernel for this runtime's devices, as
// dxgkrnl answers Microsoft's runtime (triton/kernel's fake kernel, for the samples through
// TRITON_TRANSPORT=kernel): its export TritonFakeKernelCallbacks fills the kernel-thunk
// callbacks (escape, allocate, deallocate, lock, unlock) every DDI device gets. Once per
// process; S_OK without the variable, a failure when the DLL is missing or refuses.
HRESULT installKernelNamedByEnvironment() {
  static const HRESULT installed = [] {
    const char* path = std::getenv("TRITON_KERNEL_DLL");
    if (!path || !*path)
      return S_OK;
    HMODULE module = LoadLibraryA(path);
    using Fill = HRESULT (*)(ddi::D3DDDI_DEVICECALLBACKS*);
    auto fill = module ? reinterpret_cast<Fill>(reinterpret_cast<void*>(GetProcAddress(module, "TritonFakeKernelCallbacks")))
                       : nullptr;
    ddi::D3DDDI_DEVICECALLBACKS callbacks{};
    const HRESULT hr = fill ? fill(&callbacks) : E_FAIL;
    if (FAILED(hr)) {
      std::fprintf(stderr, "triton-runtime: the kernel DLL %s cannot play the kernel (0x%08lx)\n", path,
                   static_cast<unsigned long>(hr));
      return hr;
    }
    harness::setKernelCallbackOverrides(&callbacks);
    return S_OK;
  }();
  return installed;
}

bool pipelineLevel(D3D_FEATURE_LEVEL level, ddi::D3D11DDI_3DPIPELINELEVEL* out) {
  switch (level) {
    case D3D_FEATURE_LEVEL_10_0: *out = ddi::D3D11DDI_3DPIPELINELEVEL_10_0; return true;
    case D3D_FEATURE_LEVEL_10_1: *out = ddi::D3D11DDI_3DPIPELINELEVEL_10_1; return true;
    case D3D_FEATURE_LEVEL_11_0: *out = ddi::D3D11DDI_3DPIPELINELEVEL_11_0; return true;
    case D3D_FEATURE_LEVEL_11_1: *out = ddi::D3D11_1DDI_3DPIPELINELEVEL_11_1; return true;
    default: return false;
  }
}

UINT ddiBindFlags(UINT api) {
  UINT out = api & 0x7f;   // VB, IB, CB, SRV, SO, RT, DS are value-equal
  if (api & D3D11_BIND_UNORDERED_ACCESS) out |= ddi::D3D11_DDI_BIND_UNORDERED_ACCESS;
  if (api & D3D11_BIND_DECODER) out |= ddi::D3D11_DDI_BIND_DECODER;
  if (api & D3D11_BIND_VIDEO_ENCODER) out |= ddi::D3D11_DDI_BIND_VIDEO_ENCODER;
  return out;
}

UINT ddiCpuFlags(UINT api) {
  UINT out = 0;
  if (api & D3D11_CPU_ACCESS_WRITE) out |= ddi::D3D10_DDI_CPU_ACCESS_WRITE;
  if (api & D3D11_CPU_ACCESS_READ) out |= ddi::D3D10_DDI_CPU_ACCESS_READ;
  return out;
}

UINT ddiMiscFlags(UINT api) {
  UINT out = 0;
  if (api & D3D11_RESOURCE_MISC_GENERATE_MIPS) out |= ddi::D3D10_DDI_RESOURCE_AUTO_GEN_MIP_MAP;
  if (api & D3D11_RESOURCE_MISC_SHARED) out |= ddi::D3D10_DDI_RESOURCE_MISC_SHARED;
  if (api & D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS) out |= ddi::D3D11_DDI_RESOURCE_MISC_DRAWINDIRECT_ARGS;
  if (api & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) out |= ddi::D3D11_DDI_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
  if (api & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) out |= ddi::D3D11_DDI_RESOURCE_MISC_BUFFER_STRUCTURED;
  if (api & D3D11_RESOURCE_MISC_RESOURCE_CLAMP) out |= ddi::D3D11_DDI_RESOURCE_MISC_RESOURCE_CLAMP;
  return out;   // TEXTURECUBE becomes the resource dimension
}

using npt::validation::fullMipCount;

}  // namespace

UINT DeviceFormatCaps::formatSupport(DXGI_FORMAT format) const {
  UINT support = 0;
  return SUCCEEDED(device_->CheckFormatSupport(format, &support)) ? support : 0;
}

UINT DeviceFormatCaps::multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const {
  UINT levels = 0;
  return SUCCEEDED(device_->CheckMultisampleQualityLevels(format, sampleCount, &levels)) ? levels : 0;
}

HRESULT refusalOf(const npt::validation::Check& check) {
  if (check.passed())
    return S_OK;
  return check.outcome() == npt::validation::Outcome::Fail && FAILED(check.hr()) ? check.hr() : E_INVALIDARG;
}

npt::validation::DeviceLimits Device::limits() const {
  npt::validation::DeviceLimits limits;
  limits.featureLevel = featureLevel_;
  limits.uavSlotCount = featureLevel_ >= D3D_FEATURE_LEVEL_11_1 ? D3D11_1_UAV_SLOT_COUNT : D3D11_PS_CS_UAV_REGISTER_COUNT;
  limits.caps = &formatCaps_;
  return limits;
}

namespace {

// CreateResource with the runtime's mip list and initial data; the object is built by
// make(info) once the driver accepted the description.
template <class Object>
HRESULT createResource(Device* device, const ResourceInfo& info, const D3D11_SUBRESOURCE_DATA* initial,
                       Object* object, Object** out) {
  Creating<Object> owned(object);
  std::vector<ddi::D3D10DDI_MIPINFO> mips;
  for (UINT i = 0; i < info.mipLevels; ++i) {
    ddi::D3D10DDI_MIPINFO m{};
    m.TexelWidth = std::max(1u, info.width >> i);
    m.TexelHeight = info.type == D3D11_RESOURCE_DIMENSION_BUFFER ? 1 : std::max(1u, info.height >> i);
    m.TexelDepth = std::max(1u, info.depth >> i);
    const UINT align = blockSize(info.format);
    m.PhysicalWidth = (m.TexelWidth + align - 1) / align * align;
    m.PhysicalHeight = (m.TexelHeight + align - 1) / align * align;
    m.PhysicalDepth = m.TexelDepth;
    mips.push_back(m);
  }
  std::vector<ddi::D3D10_DDIARG_SUBRESOURCE_UP> data;
  if (initial) {
    for (UINT i = 0; i < info.mipLevels * info.arraySize; ++i)
      data.push_back({const_cast<void*>(initial[i].pSysMem), initial[i].SysMemPitch, initial[i].SysMemSlicePitch});
  }
  ddi::D3D11DDIARG_CREATERESOURCE args{};
  args.pMipInfoList = mips.data();
  args.pInitialDataUP = initial ? data.data() : nullptr;
  args.ResourceDimension = info.ddiDimension;
  args.Usage = info.usage;
  args.BindFlags = ddiBindFlags(info.bindFlags);
  args.MapFlags = ddiCpuFlags(info.cpuFlags);
  args.MiscFlags = ddiMiscFlags(info.miscFlags);
  args.Format = info.format;
  args.SampleDesc = {info.sampleCount, info.sampleQuality};   // D3D11_STANDARD_MULTISAMPLE_PATTERN included
  args.MipLevels = info.mipLevels;
  args.ArraySize = info.arraySize;
  args.ByteStride = info.byteStride;
  Lock lock(device->lock());
  const SIZE_T size = device->ddi().pfnCalcPrivateResourceSize(device->handle(), &args);
  if (!size)
    return E_INVALIDARG;
  object->memory = allocatePrivate(size);
  object->handle.pDrvPrivate = object->memory.get();
  device->ddi().pfnCreateResource(device->handle(), &args, object->handle, ddi::D3D10DDI_HRTRESOURCE{object});
  const HRESULT hr = device->takeError();
  if (FAILED(hr)) {
    object->handle.pDrvPrivate = nullptr;   // a failed create leaves nothing to destroy
    return hr;
  }
  *out = owned.release();
  return S_OK;
}

}  // namespace

// Device lifetime --------------------------------------------------------------------------

HRESULT Device::create(const D3D_FEATURE_LEVEL* levels, UINT levelCount, Device** out) {
  static const D3D_FEATURE_LEVEL kDefaultLevels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1,
                                                     D3D_FEATURE_LEVEL_10_0};
  if (!levels || !levelCount) {
    levels = kDefaultLevels;
    levelCount = 3;
  }
  auto device = std::unique_ptr<Device>(new Device);
  HRESULT hr = installKernelNamedByEnvironment();
  if (FAILED(hr))
    return hr;
  hr = harness::Driver::load(driverPath(), device->driver_);
  if (FAILED(hr)) {
    std::fprintf(stderr, "triton-runtime: cannot load the driver %s: 0x%08lx\n", driverPath().c_str(),
                 static_cast<unsigned long>(hr));
    return hr;
  }
  device->adapter_ = std::make_unique<harness::Adapter>();
  if (FAILED(hr = device->adapter_->open(*device->driver_)))
    return hr;
  // The newest interface the driver lists that this runtime speaks: D3D11.1, at a build
  // this runtime has (a listed build is the oldest runtime build the driver accepts).
  bool d3d11_1 = false;
  for (UINT64 version : device->adapter_->supportedVersions())
    d3d11_1 |= UINT(version >> 32) == ddi::D3D11_1_DDI_INTERFACE_VERSION &&
               ddi::ddiBuild(UINT(version)) <= ddi::D3D11_1_DDI_BUILD_VERSION;
  if (!d3d11_1) {
    std::fprintf(stderr, "triton-runtime: the driver does not list the D3D11.1 DDI\n");
    return DXGI_ERROR_UNSUPPORTED;
  }
  device->ddiDevice_ = std::make_unique<harness::Device>();
  hr = E_INVALIDARG;
  for (UINT i = 0; i < levelCount && FAILED(hr); ++i) {
    ddi::D3D11DDI_3DPIPELINELEVEL pipeline{};
    if (!pipelineLevel(levels[i], &pipeline))
      continue;
    hr = device->ddiDevice_->create(*device->adapter_, ddi::D3D11_1_DDI_INTERFACE_VERSION,
                                    harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM),
                                    pipeline);
    if (SUCCEEDED(hr))
      device->featureLevel_ = levels[i];
  }
  if (FAILED(hr))
    return hr;
  ddi::D3D11DDI_THREADING_CAPS threading{};
  device->driverCommandLists_ =
      SUCCEEDED(device->adapter_->getCaps(ddi::D3D11DDICAPS_THREADING, &threading, sizeof(threading))) &&
      (threading.Caps & ddi::D3D11DDICAPS_COMMANDLISTS_BUILD_2);
  device->immediate_ = std::make_unique<DdiContext>(device.get());
  *out = device.release();
  return S_OK;
}

Device::~Device() {
  if (immediate_)
    immediate_->reset();   // drops the bindings before the driver device goes
  immediate_.reset();
  if (ddiDevice_)
    ddiDevice_->destroy();
}

ULONG Device::Release() {
  const ULONG refs = --refs_;
  if (refs == 0)
    delete this;
  return refs;
}

namespace {
// Answered by the runtime's devices only: the object itself (no reference taken).
// {5f0e0c63-7a2b-4f39-9a51-3c1f2d9e8b10}
constexpr GUID kRuntimeDeviceIid = {0x5f0e0c63, 0x7a2b, 0x4f39, {0x9a, 0x51, 0x3c, 0x1f, 0x2d, 0x9e, 0x8b, 0x10}};
}  // namespace

Device* Device::fromApi(IUnknown* device) {
  void* self = nullptr;
  if (!device || FAILED(device->QueryInterface(kRuntimeDeviceIid, &self)))
    return nullptr;
  return static_cast<Device*>(self);
}

HRESULT Device::QueryInterface(REFIID riid, void** out) {
  if (!out)
    return E_POINTER;
  *out = nullptr;
  if (riid == kRuntimeDeviceIid) {
    *out = this;
    return S_OK;
  }
  if (riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIDevice) || riid == __uuidof(IDXGIDevice1)) {
    *out = static_cast<IDXGIDevice1*>(&dxgi_);
    AddRef();
    return S_OK;
  }
  if (riid == __uuidof(IUnknown) || riid == __uuidof(ID3D11Device) || riid == __uuidof(ID3D11Device1)) {
    *out = static_cast<ID3D11Device1*>(this);
    AddRef();
    return S_OK;
  }
  return E_NOINTERFACE;
}

HRESULT apiError(HRESULT hr) {
  if (hr == DXGI_DDI_ERR_WASSTILLDRAWING)
    return DXGI_ERROR_WAS_STILL_DRAWING;
  if (hr == ddi::D3DDDIERR_DEVICEREMOVED)
    return DXGI_ERROR_DEVICE_REMOVED;
  return hr;
}

HRESULT Device::takeError() {
  const HRESULT hr = apiError(ddiDevice_->takeError());
  noteError(hr);
  return hr;
}

void Device::noteError(HRESULT hr) {
  if (hr == DXGI_ERROR_DEVICE_REMOVED && removedReason_ == S_OK)
    removedReason_ = hr;
}

void Device::GetImmediateContext(ID3D11DeviceContext** out) {
  if (!out)
    return;
  AddRef();
  *out = immediate_.get();
}

void Device::GetImmediateContext1(ID3D11DeviceContext1** out) {
  if (!out)
    return;
  AddRef();
  *out = immediate_.get();
}

HRESULT Device::CreateDeferredContext1(UINT flags, ID3D11DeviceContext1** out) {
  if (out)
    *out = nullptr;
  ID3D11DeviceContext* context = nullptr;
  const HRESULT hr = CreateDeferredContext(flags, out ? &context : nullptr);
  if (out)
    *out = static_cast<ID3D11DeviceContext1*>(context);   // every context of this runtime is one
  return hr;
}

// Device context states switch a context between D3D10 and D3D11 semantics; this runtime
// has only D3D11 devices. Shared resources need the kernel side the runtime lacks.
HRESULT Device::CreateDeviceContextState(UINT, const D3D_FEATURE_LEVEL*, UINT, UINT, REFIID, D3D_FEATURE_LEVEL*,
                                         ID3DDeviceContextState** out) {
  if (out)
    *out = nullptr;
  notImplemented("CreateDeviceContextState");
  if (out) *out = nullptr;
  return E_NOTIMPL;
}

HRESULT Device::OpenSharedResource1(HANDLE, REFIID, void** out) {
  notImplemented("OpenSharedResource1");
  if (out) *out = nullptr;
  return E_NOTIMPL;
}

HRESULT Device::OpenSharedResourceByName(LPCWSTR, DWORD, REFIID, void** out) {
  notImplemented("OpenSharedResourceByName");
  if (out) *out = nullptr;
  return E_NOTIMPL;
}

HRESULT Device::CreateDeferredContext(UINT flags, ID3D11DeviceContext** out) {
  if (out)
    *out = nullptr;
  if (flags)
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  // Driver command lists when the driver offers them, unless TRITON_DEFERRED=emulated
  // asks for the runtime's own emulation (the comparison of the two modes).
  const char* mode = std::getenv("TRITON_DEFERRED");
  if (driverCommandLists_ && !(mode && std::string(mode) == "emulated"))
    return DdiContext::createDeferred(this, out);
  return createDeferredContext(this, out);
}

// Resources --------------------------------------------------------------------------------

HRESULT Device::CreateBuffer(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* initial, ID3D11Buffer** out) {
  if (out)
    *out = nullptr;
  if (!desc)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateBufferDesc(*desc, initial != nullptr, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  ResourceInfo info;
  info.type = D3D11_RESOURCE_DIMENSION_BUFFER;
  info.ddiDimension = desc->MiscFlags & (D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)
                          ? ddi::D3D11DDIRESOURCE_BUFFEREX
                          : ddi::D3D10DDIRESOURCE_BUFFER;
  info.width = desc->ByteWidth;
  info.usage = desc->Usage;
  info.bindFlags = desc->BindFlags;
  info.miscFlags = desc->MiscFlags;
  info.byteStride = desc->StructureByteStride;
  info.cpuFlags = desc->CPUAccessFlags;
  Buffer* buffer = nullptr;
  const HRESULT hr = createResource(this, info, initial, new Buffer(this, *desc, info), &buffer);
  *out = buffer;
  return hr;
}

HRESULT Device::CreateTexture1D(const D3D11_TEXTURE1D_DESC* d, const D3D11_SUBRESOURCE_DATA* initial,
                                ID3D11Texture1D** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateTexture1DDesc(*d, initial != nullptr, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_TEXTURE1D_DESC desc = *d;
  if (!desc.MipLevels)
    desc.MipLevels = fullMipCount(desc.Width, 1, 1);
  ResourceInfo info{D3D11_RESOURCE_DIMENSION_TEXTURE1D, ddi::D3D10DDIRESOURCE_TEXTURE1D, desc.Width, 1, 1,
                    desc.MipLevels, desc.ArraySize, desc.Format, desc.Usage, desc.BindFlags, desc.MiscFlags};
  info.cpuFlags = desc.CPUAccessFlags;
  Texture1D* texture = nullptr;
  const HRESULT hr = createResource(this, info, initial, new Texture1D(this, desc, info), &texture);
  *out = texture;
  return hr;
}

HRESULT Device::CreateTexture2D(const D3D11_TEXTURE2D_DESC* d, const D3D11_SUBRESOURCE_DATA* initial,
                                ID3D11Texture2D** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateTexture2DDesc(*d, initial != nullptr, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_TEXTURE2D_DESC desc = *d;
  if (!desc.MipLevels)
    desc.MipLevels = fullMipCount(desc.Width, desc.Height, 1);
  ResourceInfo info{D3D11_RESOURCE_DIMENSION_TEXTURE2D,
                    desc.MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE ? ddi::D3D10DDIRESOURCE_TEXTURECUBE
                                                                     : ddi::D3D10DDIRESOURCE_TEXTURE2D,
                    desc.Width, desc.Height, 1, desc.MipLevels, desc.ArraySize, desc.Format, desc.Usage,
                    desc.BindFlags, desc.MiscFlags, 0, desc.SampleDesc.Count};
  info.cpuFlags = desc.CPUAccessFlags;
  info.sampleQuality = desc.SampleDesc.Quality;
  Texture2D* texture = nullptr;
  const HRESULT hr = createResource(this, info, initial, new Texture2D(this, desc, info), &texture);
  *out = texture;
  return hr;
}

HRESULT Device::CreateTexture3D(const D3D11_TEXTURE3D_DESC* d, const D3D11_SUBRESOURCE_DATA* initial,
                                ID3D11Texture3D** out) {
  if (out)
    *out = nullptr;
  if (!d)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateTexture3DDesc(*d, initial != nullptr, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_TEXTURE3D_DESC desc = *d;
  if (!desc.MipLevels)
    desc.MipLevels = fullMipCount(desc.Width, desc.Height, desc.Depth);
  ResourceInfo info{D3D11_RESOURCE_DIMENSION_TEXTURE3D, ddi::D3D10DDIRESOURCE_TEXTURE3D, desc.Width, desc.Height,
                    desc.Depth, desc.MipLevels, 1, desc.Format, desc.Usage, desc.BindFlags, desc.MiscFlags};
  info.cpuFlags = desc.CPUAccessFlags;
  Texture3D* texture = nullptr;
  const HRESULT hr = createResource(this, info, initial, new Texture3D(this, desc, info), &texture);
  *out = texture;
  return hr;
}

ResourceRef resourceRef(ID3D11Resource* resource) {
  if (!resource)
    return {};
  D3D11_RESOURCE_DIMENSION type{};
  resource->GetType(&type);
  switch (type) {
    case D3D11_RESOURCE_DIMENSION_BUFFER: {
      auto* r = static_cast<Buffer*>(static_cast<ID3D11Buffer*>(resource));
      return {r->handle, &r->info, r};
    }
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: {
      auto* r = static_cast<Texture1D*>(static_cast<ID3D11Texture1D*>(resource));
      return {r->handle, &r->info, r};
    }
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: {
      auto* r = static_cast<Texture2D*>(static_cast<ID3D11Texture2D*>(resource));
      return {r->handle, &r->info, r};
    }
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: {
      auto* r = static_cast<Texture3D*>(static_cast<ID3D11Texture3D*>(resource));
      return {r->handle, &r->info, r};
    }
    default:
      return {};
  }
}

// Capability checks ----------------------------------------------------------------------------

// The driver's optional capabilities of `format` (pfnCheckFormatSupport), or
// D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED for a format the runtime itself refuses.
UINT Device::driverFormatCaps(DXGI_FORMAT format) {
  if (!formatKnownAtLevel(format, featureLevel_))
    return ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED;
  UINT caps = ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED;
  Lock lock(lock_);
  ddi().pfnCheckFormatSupport(handle(), format, &caps);
  return caps;
}

// The driver's optional capabilities plus the runtime's requirements for the level
// (format_support.h); a format the driver does not support at all is E_FAIL, as on Windows.
HRESULT Device::CheckFormatSupport(DXGI_FORMAT format, UINT* out) {
  if (!out)
    return E_INVALIDARG;
  const UINT caps = driverFormatCaps(format);
  if (caps & ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED) {
    *out = 0;
    return E_FAIL;
  }
  *out = apiOptionalFormatSupport(caps, featureLevel_) | requiredFormatSupport(format, featureLevel_, caps);
  return S_OK;
}

HRESULT Device::CheckMultisampleQualityLevels(DXGI_FORMAT format, UINT samples, UINT* out) {
  if (!out)
    return E_INVALIDARG;
  Lock lock(lock_);
  ddi().pfnCheckMultisampleQualityLevels(handle(), format, samples, out);
  return takeError();
}

void Device::CheckCounterInfo(D3D11_COUNTER_INFO* out) {
  if (out) *out = {};
}

HRESULT Device::CheckCounter(const D3D11_COUNTER_DESC*, D3D11_COUNTER_TYPE*, UINT*, LPSTR, UINT*, LPSTR, UINT*, LPSTR,
                             UINT*) {
  return E_INVALIDARG;   // no device-dependent counters are listed
}

namespace {

template <class Data>
HRESULT fill(void* out, UINT size, const Data& value) {
  if (!out || size != sizeof(Data))
    return E_INVALIDARG;
  std::memcpy(out, &value, sizeof(Data));
  return S_OK;
}

}  // namespace

// The features the driver's GetCaps describes are answered from it, the D3D9-era ones
// from the feature level (every level the runtime creates is 10_0 or above), format
// support from pfnCheckFormatSupport plus the runtime's requirements
// (format_support.h), D3D11_OPTIONS from GetCaps(D3D11_OPTIONS) plus what the D3D11.1
// DDI itself guarantees. The features of later runtimes whose caps belong to later DDIs
// (WDDM 1.3: tiled resources, markers) are answered as for a D3D11.1 driver; features
// this runtime does not know are E_INVALIDARG, as Windows answers unknown features.
HRESULT Device::CheckFeatureSupport(D3D11_FEATURE feature, void* out, UINT size) {
  switch (feature) {
    case D3D11_FEATURE_THREADING: {
      ddi::D3D11DDI_THREADING_CAPS caps{};
      if (FAILED(adapter_->getCaps(ddi::D3D11DDICAPS_THREADING, &caps, sizeof(caps))))
        return E_FAIL;
      return fill(out, size, D3D11_FEATURE_DATA_THREADING{(caps.Caps & ddi::D3D11DDICAPS_FREETHREADED) != 0,
                                                          driverCommandLists_});
    }
    case D3D11_FEATURE_DOUBLES:
    case D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS: {
      ddi::D3D11DDI_SHADER_CAPS caps{};
      if (FAILED(adapter_->getCaps(ddi::D3D11DDICAPS_SHADER, &caps, sizeof(caps))))
        return E_FAIL;
      if (feature == D3D11_FEATURE_DOUBLES)
        return fill(out, size, D3D11_FEATURE_DATA_DOUBLES{(caps.Caps & ddi::D3D11DDICAPS_SHADER_DOUBLES) != 0});
      // Compute on 10.x levels; a level 11 device has it anyway.
      const BOOL compute = featureLevel_ >= D3D_FEATURE_LEVEL_11_0 ||
                           (caps.Caps & ddi::D3D11DDICAPS_SHADER_COMPUTE_PLUS_RAW_AND_STRUCTURED_BUFFERS_IN_SHADER_4_X);
      return fill(out, size, D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS{compute});
    }
    case D3D11_FEATURE_ARCHITECTURE_INFO: {
      ddi::D3D11_1DDI_ARCHITECTURE_INFO_DATA data{};
      if (FAILED(adapter_->getCaps(ddi::D3D11_1DDICAPS_ARCHITECTURE_INFO, &data, sizeof(data))))
        return E_FAIL;
      return fill(out, size, D3D11_FEATURE_DATA_ARCHITECTURE_INFO{data.TileBasedDeferredRenderer});
    }
    case D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT: {
      ddi::D3D11_DDI_SHADER_MIN_PRECISION_SUPPORT_DATA data{};
      if (FAILED(adapter_->getCaps(ddi::D3D11_1DDICAPS_SHADER_MIN_PRECISION_SUPPORT, &data, sizeof(data))))
        return E_FAIL;
      return fill(out, size, D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT{data.PixelShaderMinPrecision,
                                                                             data.AllOtherStagesMinPrecision});
    }
    case D3D11_FEATURE_FORMAT_SUPPORT: {
      if (!out || size != sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT))
        return E_INVALIDARG;
      auto* data = static_cast<D3D11_FEATURE_DATA_FORMAT_SUPPORT*>(out);
      return CheckFormatSupport(data->InFormat, &data->OutFormatSupport);
    }
    case D3D11_FEATURE_FORMAT_SUPPORT2: {
      if (!out || size != sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT2))
        return E_INVALIDARG;
      auto* data = static_cast<D3D11_FEATURE_DATA_FORMAT_SUPPORT2*>(out);
      const UINT caps = driverFormatCaps(data->InFormat);
      data->OutFormatSupport2 = 0;
      if (caps & ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED)
        return E_FAIL;
      data->OutFormatSupport2 = apiOptionalFormatSupport2(caps) | requiredFormatSupport2(data->InFormat, featureLevel_);
      return S_OK;
    }
    case D3D11_FEATURE_D3D11_OPTIONS: {
      ddi::D3D11_1DDI_D3D11_OPTIONS_DATA caps{};
      if (FAILED(adapter_->getCaps(ddi::D3D11_1DDICAPS_D3D11_OPTIONS, &caps, sizeof(caps))))
        return E_FAIL;
      D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
      options.OutputMergerLogicOp = caps.OutputMergerLogicOp;
      // The D3D11.1 DDI carries these operations (pfnDiscard, the *1 update/copy entries
      // with their flags, pfnClearView, constant-buffer ranges, no-overwrite maps of
      // dynamic constant and SRV buffers): every D3D11.1 driver takes them.
      options.DiscardAPIsSeenByDriver = TRUE;
      options.FlagsForUpdateAndCopySeenByDriver = TRUE;
      options.ClearView = TRUE;
      options.CopyWithOverlap = TRUE;
      options.ConstantBufferPartialUpdate = TRUE;
      options.ConstantBufferOffsetting = TRUE;
      options.MapNoOverwriteOnDynamicConstantBuffer = TRUE;
      options.MapNoOverwriteOnDynamicBufferSRV = TRUE;
      // Forced sample counts are a feature-level 11_1 guarantee; the DDI has no cap for
      // them below it, nor for SAD4 or the extended double instructions (their GetCaps
      // bits are not part of the documented D3D11DDI_SHADER_CAPS). Extended resource
      // sharing needs the kernel side the API-level runtime does not have.
      options.UAVOnlyRenderingForcedSampleCount = featureLevel_ >= D3D_FEATURE_LEVEL_11_1;
      options.MultisampleRTVWithForcedSampleCountOne = featureLevel_ >= D3D_FEATURE_LEVEL_11_1;
      return fill(out, size, options);
    }
    case D3D11_FEATURE_D3D11_OPTIONS1:
      // Tiled resources, min/max filtering, depth-only ClearView and maps of default
      // buffers are WDDM 1.3 caps: none for a D3D11.1 driver.
      return fill(out, size, D3D11_FEATURE_DATA_D3D11_OPTIONS1{D3D11_TILED_RESOURCES_NOT_SUPPORTED, FALSE, FALSE, FALSE});
    case D3D11_FEATURE_MARKER_SUPPORT:
      return fill(out, size, D3D11_FEATURE_DATA_MARKER_SUPPORT{FALSE});   // no marker DDI before WDDM 1.3
    case D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT:
      return fill(out, size, D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT{TRUE});
    case D3D11_FEATURE_D3D9_OPTIONS1:
      return fill(out, size, D3D11_FEATURE_DATA_D3D9_OPTIONS1{TRUE, TRUE, TRUE, TRUE});
    case D3D11_FEATURE_D3D9_OPTIONS:
      return fill(out, size, D3D11_FEATURE_DATA_D3D9_OPTIONS{TRUE});   // full non-power-of-2 textures from 10_0
    case D3D11_FEATURE_D3D9_SHADOW_SUPPORT:
      return fill(out, size, D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT{TRUE});
    default:
      notImplemented("CheckFeatureSupport (D3D11_OPTIONS2 and later features)");
      return E_INVALIDARG;
  }
}

HRESULT Device::CreateCounter(const D3D11_COUNTER_DESC*, ID3D11Counter**) { return DXGI_ERROR_UNSUPPORTED; }

HRESULT Device::OpenSharedResource(HANDLE, REFIID, void**) {
  notImplemented("OpenSharedResource");
  return E_NOTIMPL;
}

HRESULT Device::CreateClassLinkage(ID3D11ClassLinkage** out) {
  if (out)
    *out = nullptr;
  // The linkage is the runtime's own object: nothing reaches the driver until a shader
  // is bound with class instances.
  if (!out)
    return E_INVALIDARG;
  *out = new ClassLinkage(this);
  return S_OK;
}

}  // namespace triton::runtime
