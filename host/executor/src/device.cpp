// SPDX-License-Identifier: MIT
// Device creation (D3D11CreateDevice) and what the guest learns about the host device
// once per connection (QueryHostInfo, contract 2).
#include <cstring>
#include <map>
#include <mutex>

#include "npt/executor/executor.h"
#include "npt/validation/format_table.h"
#include "records.h"

namespace npt::executor {

using objects::ObjectType;

namespace {

constexpr UINT kKnownCreateFlags = D3D11_CREATE_DEVICE_SINGLETHREADED | D3D11_CREATE_DEVICE_DEBUG |
                                   D3D11_CREATE_DEVICE_SWITCH_TO_REF |
                                   D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS |
                                   D3D11_CREATE_DEVICE_BGRA_SUPPORT | D3D11_CREATE_DEVICE_DEBUGGABLE |
                                   D3D11_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY |
                                   D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT | D3D11_CREATE_DEVICE_VIDEO_SUPPORT;

bool knownFeatureLevel(D3D_FEATURE_LEVEL level) {
  switch (level) {
    case D3D_FEATURE_LEVEL_9_1: case D3D_FEATURE_LEVEL_9_2: case D3D_FEATURE_LEVEL_9_3:
    case D3D_FEATURE_LEVEL_10_0: case D3D_FEATURE_LEVEL_10_1: case D3D_FEATURE_LEVEL_11_0:
    case D3D_FEATURE_LEVEL_11_1: case D3D_FEATURE_LEVEL_12_0: case D3D_FEATURE_LEVEL_12_1:
      return true;
    default:
      return false;
  }
}

std::vector<DXGI_FORMAT> allFormats() {
  std::vector<DXGI_FORMAT> formats;
  for (const validation::FormatInfo* f = validation::formatTableBegin(); f != validation::formatTableEnd(); f++)
    if (f->format != DXGI_FORMAT_UNKNOWN) formats.push_back(f->format);
  return formats;
}

template<typename T>
void queryInterface(IUnknown* object, const GUID& iid, T** out) {
  void* pointer = nullptr;
  *out = SUCCEEDED(object->QueryInterface(iid, &pointer)) ? static_cast<T*>(pointer) : nullptr;
}

template<size_t N>
void copyText(std::array<uint16_t, N>& out, const WCHAR* text, size_t capacity) {
  // WCHAR is 2 bytes on Windows and 4 on DXVK-native: the wire keeps UTF-16 units.
  out.fill(0);
  for (size_t i = 0; i + 1 < N && i < capacity && text[i]; i++) out[i] = uint16_t(text[i]);
}

// The adapter and, where the backend can enumerate them here, its outputs, as DXGI
// describes them.
void describeDisplay(ID3D11Device* device, bool withOutputs, protocol::HostInfo& info) {
  IDXGIDevice* dxgiDevice = nullptr;
  queryInterface(device, __uuidof(IDXGIDevice), &dxgiDevice);
  if (!dxgiDevice) return;
  IDXGIAdapter* adapter = nullptr;
  if (FAILED(dxgiDevice->GetAdapter(&adapter))) adapter = nullptr;
  dxgiDevice->Release();
  if (!adapter) return;

  IDXGIAdapter2* adapter2 = nullptr;
  queryInterface(adapter, __uuidof(IDXGIAdapter2), &adapter2);
  DXGI_ADAPTER_DESC2 desc2 = {};
  bool described = adapter2 && SUCCEEDED(adapter2->GetDesc2(&desc2));
  if (adapter2) adapter2->Release();
  if (!described) {
    DXGI_ADAPTER_DESC desc = {};
    if (SUCCEEDED(adapter->GetDesc(&desc))) {
      std::memcpy(desc2.Description, desc.Description, sizeof(desc.Description));
      desc2.VendorId = desc.VendorId;
      desc2.DeviceId = desc.DeviceId;
      desc2.SubSysId = desc.SubSysId;
      desc2.Revision = desc.Revision;
      desc2.DedicatedVideoMemory = desc.DedicatedVideoMemory;
      desc2.DedicatedSystemMemory = desc.DedicatedSystemMemory;
      desc2.SharedSystemMemory = desc.SharedSystemMemory;
      desc2.AdapterLuid = desc.AdapterLuid;
      desc2.GraphicsPreemptionGranularity = DXGI_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY;
      desc2.ComputePreemptionGranularity = DXGI_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY;
    }
  }
  protocol::HostAdapter& a = info.adapter;
  copyText(a.description, desc2.Description, sizeof(desc2.Description) / sizeof(WCHAR));
  a.vendorId = desc2.VendorId;
  a.deviceId = desc2.DeviceId;
  a.subSysId = desc2.SubSysId;
  a.revision = desc2.Revision;
  a.dedicatedVideoMemory = desc2.DedicatedVideoMemory;
  a.dedicatedSystemMemory = desc2.DedicatedSystemMemory;
  a.sharedSystemMemory = desc2.SharedSystemMemory;
  a.luid = desc2.AdapterLuid;
  a.flags = desc2.Flags;
  a.graphicsPreemptionGranularity = desc2.GraphicsPreemptionGranularity;
  a.computePreemptionGranularity = desc2.ComputePreemptionGranularity;

  // Mode lists of the formats swapchains commonly use; the blob bounds the total.
  static const DXGI_FORMAT kModeFormats[] = {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,
                                             DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB,
                                             DXGI_FORMAT_R10G10B10A2_UNORM, DXGI_FORMAT_R16G16B16A16_FLOAT};
  for (UINT index = 0; withOutputs && index < protocol::kHostInfoMaxOutputs; index++) {
    IDXGIOutput* output = nullptr;
    if (FAILED(adapter->EnumOutputs(index, &output)) || !output) break;
    DXGI_OUTPUT_DESC desc = {};
    if (SUCCEEDED(output->GetDesc(&desc))) {
      protocol::HostOutput out;
      copyText(out.deviceName, desc.DeviceName, sizeof(desc.DeviceName) / sizeof(WCHAR));
      out.desktopCoordinates = desc.DesktopCoordinates;
      out.attachedToDesktop = desc.AttachedToDesktop;
      out.rotation = desc.Rotation;
      for (DXGI_FORMAT format : kModeFormats) {
        UINT count = 0;
        if (FAILED(output->GetDisplayModeList(format, 0, &count, nullptr)) || !count) continue;
        std::vector<DXGI_MODE_DESC> modes(count);
        if (FAILED(output->GetDisplayModeList(format, 0, &count, modes.data()))) continue;
        modes.resize(count);
        for (const DXGI_MODE_DESC& mode : modes)
          if (out.modes.size() < protocol::kHostInfoMaxModesPerOutput) out.modes.push_back(mode);
      }
      info.outputs.push_back(std::move(out));
    }
    output->Release();
  }
  adapter->Release();
}

}  // namespace

namespace {

// What a backend answers does not change while the process lives: contexts of one
// process (the Windows server's threads) share one probe. The probe device also costs
// its thread a GL context under wined3d (about 10 MiB per context measured).
struct SharedCaps {
  std::shared_ptr<backends::CapsSnapshot> caps;
  std::vector<uint8_t> hostInfo;
};
std::mutex g_capsMutex;
std::map<std::string, SharedCaps> g_capsByBackend;

}  // namespace

bool Executor::ensureCaps() {
  if (m_caps) return true;
  if (!backendReady()) return false;
  std::lock_guard<std::mutex> lock(g_capsMutex);
  auto cached = g_capsByBackend.find(m_backend->name());
  if (cached != g_capsByBackend.end()) {
    m_caps = cached->second.caps;
    m_hostInfo = cached->second.hostInfo;
    return true;
  }
  // A probe device answers for every device of this context: they share the backend.
  backends::DeviceObjects probe;
  backends::BackendStatus status = m_backend->createDevice(backends::DeviceRequest{}, probe);
  if (!status.ok()) {
    makeFatal(FatalCode::Backend, status.message);
    return false;
  }
  auto caps = std::make_shared<backends::CapsSnapshot>();
  status = backends::collectCaps(probe.device, allFormats(), *caps);
  if (status.ok()) {
    protocol::HostInfo info;
    info.featureLevel = caps->featureLevel;
    info.creationFlags = kKnownCreateFlags & ~UINT(D3D11_CREATE_DEVICE_DEBUG | D3D11_CREATE_DEVICE_SWITCH_TO_REF);
    for (const backends::FeatureEntry& feature : caps->features) {
      if (feature.data.size() > protocol::kHostInfoMaxFeatureBytes || info.features.size() >= protocol::kHostInfoMaxFeatures)
        continue;
      protocol::HostFeature out;
      out.feature = feature.feature;
      out.hr = feature.hr;
      out.size = uint32_t(feature.data.size());
      std::memcpy(out.data.data(), feature.data.data(), feature.data.size());
      info.features.push_back(out);
    }
    for (const backends::FormatEntry& format : caps->formats) {
      if (info.formats.size() >= protocol::kHostInfoMaxFormats) break;
      protocol::HostFormat out;
      out.format = format.format;
      out.supportHr = format.supportHr;
      out.support = format.support;
      out.support2Hr = format.support2Hr;
      out.support2 = format.support2;
      for (size_t i = 0; i < protocol::kHostInfoSampleCounts; i++) out.qualityLevels[i] = format.qualityLevels[i];
      info.formats.push_back(out);
    }
    const std::string noOutputs = m_backend->outputsUnavailable();
    if (!noOutputs.empty()) log("%s", noOutputs.c_str());
    describeDisplay(probe.device, noOutputs.empty(), info);
    if (protocol::serializeHostInfo(info, m_hostInfo) != protocol::ErrorCode::Ok) {
      status = backends::BackendStatus::fail(backends::BackendError::CapsQuery, E_FAIL,
                                             "the host info exceeds the protocol's bounds");
    }
  }
  probe.immediateContext->Release();
  probe.device->Release();
  if (!status.ok()) {
    makeFatal(FatalCode::Backend, status.message);
    return false;
  }
  m_caps = std::move(caps);
  g_capsByBackend[m_backend->name()] = SharedCaps{m_caps, m_hostInfo};
  return true;
}

void Executor::queryHostInfo(std::vector<uint8_t>& blob) {
  blob.clear();
  if (isFatal() || !ensureCaps()) return;
  blob = m_hostInfo;
}

HRESULT Executor::D3D11CreateDevice(ObjectId pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                                    const D3D_FEATURE_LEVEL* pFeatureLevels, UINT FeatureLevels, UINT SDKVersion,
                                    ObjectId ppDevice, D3D_FEATURE_LEVEL* pFeatureLevel, ObjectId ppImmediateContext) {
  const char* method = "D3D11CreateDevice";
  *pFeatureLevel = D3D_FEATURE_LEVEL(0);
  if (isFatal()) return DXGI_ERROR_DEVICE_REMOVED;
  // The decoder registered both ids: they stay registered (without backend objects) when
  // creation fails, until the guest destroys them.
  HRESULT hr = S_OK;
  if (SDKVersion != D3D11_SDK_VERSION) hr = E_INVALIDARG;
  else if ((Flags & ~kKnownCreateFlags) != 0) hr = E_INVALIDARG;
  else if (pAdapter != 0 && DriverType != D3D_DRIVER_TYPE_UNKNOWN) hr = E_INVALIDARG;
  else if (pAdapter == 0 && DriverType == D3D_DRIVER_TYPE_UNKNOWN) hr = E_INVALIDARG;
  else if (DriverType == D3D_DRIVER_TYPE_SOFTWARE && !Software) hr = E_INVALIDARG;
  else if (pFeatureLevels && FeatureLevels == 0) hr = E_INVALIDARG;
  else if (DriverType != D3D_DRIVER_TYPE_UNKNOWN && DriverType != D3D_DRIVER_TYPE_HARDWARE &&
           DriverType != D3D_DRIVER_TYPE_WARP)
    hr = DXGI_ERROR_UNSUPPORTED;   // reference, software and null devices are not remoted
  for (UINT i = 0; pFeatureLevels && i < FeatureLevels && hr == S_OK; i++)
    if (!knownFeatureLevel(pFeatureLevels[i])) hr = E_INVALIDARG;
  if (hr == S_OK && pAdapter != 0) {
    // Adapters are answered in the guest from the host info; an adapter id on the wire
    // would name a host adapter object, which this executor never creates.
    IUnknown* adapter = nullptr;
    if (!resolve(pAdapter, objects::InterfaceId::IUnknown, false, method, &adapter)) return DXGI_ERROR_DEVICE_REMOVED;
  }
  if (hr == S_OK && (!backendReady() || !ensureCaps())) return DXGI_ERROR_DEVICE_REMOVED;

  backends::DeviceObjects created;
  if (hr == S_OK) {
    backends::DeviceRequest request;
    // Debug layers belong to the guest's view; the host device runs without them.
    request.flags = Flags & ~UINT(D3D11_CREATE_DEVICE_DEBUG | D3D11_CREATE_DEVICE_SWITCH_TO_REF |
                                  D3D11_CREATE_DEVICE_DEBUGGABLE);
    static const D3D_FEATURE_LEVEL kDefaults[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0,
                                                  D3D_FEATURE_LEVEL_9_3, D3D_FEATURE_LEVEL_9_2, D3D_FEATURE_LEVEL_9_1};
    const D3D_FEATURE_LEVEL* levels = pFeatureLevels ? pFeatureLevels : kDefaults;
    UINT count = pFeatureLevels ? FeatureLevels : UINT(sizeof(kDefaults) / sizeof(kDefaults[0]));
    if (count > backends::DeviceRequest::kMaxFeatureLevels) count = backends::DeviceRequest::kMaxFeatureLevels;
    for (UINT i = 0; i < count; i++) request.featureLevels[i] = levels[i];
    request.featureLevelCount = count;
    backends::BackendStatus status = m_backend->createDevice(request, created);
    if (!status.ok()) {
      log("%s: %s", method, status.message.c_str());
      hr = FAILED(status.hr) ? status.hr : E_FAIL;
    }
  }
  if (FAILED(hr)) {
    log("%s: returns 0x%08x", method, unsigned(hr));
    insertFailed(ppDevice, ObjectType::Device, nullptr);
    insertFailed(ppImmediateContext, ObjectType::DeviceContext, nullptr);
    return hr;
  }

  auto device = std::make_shared<DeviceState>();
  device->device = created.device;
  device->immediate = created.immediateContext;
  device->featureLevel = created.featureLevel;
  queryInterface(created.device, __uuidof(ID3D11Device1), &device->device1);
  queryInterface(created.device, __uuidof(ID3D11Device3), &device->device3);
  queryInterface(created.device, __uuidof(ID3D11Device5), &device->device5);
  device->caps = m_caps;
  device->formatCaps = std::make_unique<backends::SnapshotFormatCaps>(*m_caps);
  device->limits = backends::limitsFromSnapshot(*m_caps, *device->formatCaps);
  device->limits.featureLevel = created.featureLevel;
  if (created.featureLevel < D3D_FEATURE_LEVEL_11_1) device->limits.uavSlotCount = 8;

  // The table holds its own reference on each; the device state keeps the others.
  created.device->AddRef();
  created.immediateContext->AddRef();
  insert(ppDevice, ObjectType::Device, created.device, device, 0);
  insert(ppImmediateContext, ObjectType::DeviceContext, created.immediateContext, device, 0,
         contextState(created.immediateContext, false));
  if (isFatal()) return DXGI_ERROR_DEVICE_REMOVED;
  *pFeatureLevel = created.featureLevel;
  return S_OK;
}

}  // namespace npt::executor
