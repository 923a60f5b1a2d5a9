// SPDX-License-Identifier: MIT
// DXGI on the wire. Factories, adapters, outputs and swapchains live in the guest
// (contracts 2 and 4: answered from the host info, back buffers presented with
// PresentBuffer): the host has no such objects, so the decoder refuses a method selected
// on one before it gets here, and these bodies stop the context if it ever did.
// What a guest can validly send has a defined answer:
//  * the DXGI faces of D3D11 objects (IDXGIDevice* of a device, IDXGIResource1 of a
//    resource): frame latency is the guest's (ignored, logged), Trim reaches the backend's
//    IDXGIDevice3, offering is advisory (the host never discards: offers are logged,
//    ReclaimResources(1) answer "not discarded"), subresource surfaces have no host object;
//  * the entry points: D3D11CreateDeviceAndSwapChain without a swapchain is
//    D3D11CreateDevice; factories and swapchains are the guest's (E_NOTIMPL, logged).
#include <vector>

#include "npt/executor/executor.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;

namespace {
constexpr const char* kGuestOnly = "DXGI factories, adapters, outputs and swapchains live in the guest";
}

bool Executor::resolveOfferedResources(const char* method, ObjectId self, UINT count, const ObjectId* ids) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) return false;
  if (count && !ids) {
    drop(method, "%u resources without an array", count);
    return false;
  }
  std::vector<ID3D11Resource*> resources(count);
  for (UINT i = 0; i < count; i++) {
    Record* record = nullptr;
    if (!resolveAs(ids[i], InterfaceId::ID3D11Resource, false, method, &resources[i], &record)) return false;
    if (!sameDevice(record, owner.get(), ids[i], method)) return false;
  }
  return true;
}

HRESULT Executor::IDXGIOutput_FindClosestMatchingMode(ObjectId self, const DXGI_MODE_DESC* mode, DXGI_MODE_DESC* closest_match, ObjectId device) {
  notImplemented("IDXGIOutput::FindClosestMatchingMode");
  return DXGI_ERROR_DEVICE_REMOVED;
}

HRESULT Executor::IDXGIOutput_WaitForVBlank(ObjectId self) {
  notImplemented("IDXGIOutput::WaitForVBlank");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGIOutput_ReleaseOwnership(ObjectId self) {
  notImplemented("IDXGIOutput::ReleaseOwnership");
}

void Executor::IDXGIOutput_SetGammaControl(ObjectId self, const DXGI_GAMMA_CONTROL* gamma_control) {
  notImplemented("IDXGIOutput::SetGammaControl");
}

void Executor::IDXGIAdapter_EnumOutputs(ObjectId self, UINT output_idx, ObjectId output) {
  notImplemented("IDXGIAdapter::EnumOutputs");
}

void Executor::IDXGISwapChain_Present(ObjectId self, UINT sync_interval, UINT flags) {
  notImplemented("IDXGISwapChain::Present");
}

void Executor::IDXGISwapChain_GetBuffer(ObjectId self, UINT buffer_idx, const GUID& riid, ObjectId surface) {
  notImplemented("IDXGISwapChain::GetBuffer");
}

HRESULT Executor::IDXGISwapChain_SetFullscreenState(ObjectId self, BOOL fullscreen, ObjectId target) {
  notImplemented("IDXGISwapChain::SetFullscreenState");
  return DXGI_ERROR_DEVICE_REMOVED;
}

HRESULT Executor::IDXGISwapChain_ResizeBuffers(ObjectId self, UINT buffer_count, UINT width, UINT height, DXGI_FORMAT format, UINT flags) {
  notImplemented("IDXGISwapChain::ResizeBuffers");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGISwapChain_ResizeTarget(ObjectId self, const DXGI_MODE_DESC* target_mode_desc) {
  notImplemented("IDXGISwapChain::ResizeTarget");
}

void Executor::IDXGIFactory_EnumAdapters(ObjectId self, UINT adapter_idx, ObjectId adapter) {
  notImplemented("IDXGIFactory::EnumAdapters");
}

HRESULT Executor::IDXGIFactory_CreateSwapChain(ObjectId self, ObjectId device, const DXGI_SWAP_CHAIN_DESC* desc, ObjectId swapchain) {
  notImplemented("IDXGIFactory::CreateSwapChain");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGIDevice1_SetMaximumFrameLatency(ObjectId self, UINT MaxLatency) {
  if (!deviceOf(self, "SetMaximumFrameLatency")) return;
  // The guest's swapchains bound their own latency; the presenter bounds run-ahead.
  log("SetMaximumFrameLatency(%u): ignored (frame latency is the guest's)", MaxLatency);
}

void Executor::IDXGIFactory1_EnumAdapters1(ObjectId self, UINT Adapter, ObjectId ppAdapter) {
  notImplemented("IDXGIFactory1::EnumAdapters1");
}

void Executor::IDXGIResource1_CreateSubresourceSurface(ObjectId self, UINT index, ObjectId surface) {
  Record* record = nullptr;
  ID3D11Resource* resource = nullptr;
  if (!resolveAs(self, InterfaceId::ID3D11Resource, false, "CreateSubresourceSurface", &resource, &record)) return;
  // Surfaces are guest objects (the guest answers with its own IDXGISurface2).
  drop("CreateSubresourceSurface", "surface %u of subresource %u has no host object", surface, index);
}

void Executor::IDXGIDevice2_OfferResources(ObjectId self, UINT NumResources, const ObjectId* ppResources, DXGI_OFFER_RESOURCE_PRIORITY Priority) {
  if (!resolveOfferedResources("OfferResources", self, NumResources, ppResources)) return;
  log("OfferResources: %u resources stay resident (offering is advisory; the host never discards)", NumResources);
}

void Executor::IDXGISwapChain1_Present1(ObjectId self, UINT SyncInterval, UINT PresentFlags, const DXGI_PRESENT_PARAMETERS* pPresentParameters) {
  notImplemented("IDXGISwapChain1::Present1");
}

void Executor::IDXGISwapChain1_SetBackgroundColor(ObjectId self, const D3DCOLORVALUE* pColor) {
  notImplemented("IDXGISwapChain1::SetBackgroundColor");
}

void Executor::IDXGISwapChain1_SetRotation(ObjectId self, DXGI_MODE_ROTATION Rotation) {
  notImplemented("IDXGISwapChain1::SetRotation");
}

HRESULT Executor::IDXGIFactory2_CreateSwapChainForHwnd(ObjectId self, ObjectId pDevice, HWND hWnd, const DXGI_SWAP_CHAIN_DESC1* pDesc, const DXGI_SWAP_CHAIN_FULLSCREEN_DESC* pFullscreenDesc, ObjectId pRestrictToOutput, ObjectId ppSwapChain) {
  notImplemented("IDXGIFactory2::CreateSwapChainForHwnd");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGIFactory2_UnregisterStereoStatus(ObjectId self, DWORD dwCookie) {
  notImplemented("IDXGIFactory2::UnregisterStereoStatus");
}

void Executor::IDXGIFactory2_UnregisterOcclusionStatus(ObjectId self, DWORD dwCookie) {
  notImplemented("IDXGIFactory2::UnregisterOcclusionStatus");
}

HRESULT Executor::IDXGIOutput1_FindClosestMatchingMode1(ObjectId self, const DXGI_MODE_DESC1* mode_to_match, DXGI_MODE_DESC1* closest_match, ObjectId concerned_device) {
  notImplemented("IDXGIOutput1::FindClosestMatchingMode1");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGIDevice3_Trim(ObjectId self) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "Trim");
  if (!owner) return;
  IDXGIDevice3* dxgi = nullptr;
  if (SUCCEEDED(owner->device->QueryInterface(__uuidof(IDXGIDevice3), reinterpret_cast<void**>(&dxgi))) && dxgi) {
    dxgi->Trim();
    dxgi->Release();
  } else {
    log("Trim: ignored (the backend device has no IDXGIDevice3)");
  }
}

void Executor::IDXGISwapChain2_SetSourceSize(ObjectId self, UINT width, UINT height) {
  notImplemented("IDXGISwapChain2::SetSourceSize");
}

void Executor::IDXGISwapChain2_SetMaximumFrameLatency(ObjectId self, UINT max_latency) {
  notImplemented("IDXGISwapChain2::SetMaximumFrameLatency");
}

void Executor::IDXGISwapChain2_SetMatrixTransform(ObjectId self, const DXGI_MATRIX_3X2_F* matrix) {
  notImplemented("IDXGISwapChain2::SetMatrixTransform");
}

void Executor::IDXGISwapChain3_SetColorSpace1(ObjectId self, DXGI_COLOR_SPACE_TYPE colour_space) {
  notImplemented("IDXGISwapChain3::SetColorSpace1");
}

HRESULT Executor::IDXGISwapChain3_ResizeBuffers1(ObjectId self, UINT buffer_count, UINT width, UINT height, DXGI_FORMAT format, UINT flags, const UINT* node_mask, const ObjectId* present_queue) {
  notImplemented("IDXGISwapChain3::ResizeBuffers1");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGIFactory4_EnumAdapterByLuid(ObjectId self, const LUID& luid, const GUID& iid, ObjectId adapter) {
  notImplemented("IDXGIFactory4::EnumAdapterByLuid");
}

void Executor::IDXGIFactory4_EnumWarpAdapter(ObjectId self, const GUID& iid, ObjectId adapter) {
  notImplemented("IDXGIFactory4::EnumWarpAdapter");
}

void Executor::IDXGIAdapter3_UnregisterHardwareContentProtectionTeardownStatus(ObjectId self, DWORD cookie) {
  notImplemented("IDXGIAdapter3::UnregisterHardwareContentProtectionTeardownStatus");
}

HRESULT Executor::IDXGIAdapter3_QueryVideoMemoryInfo(ObjectId self, UINT node_index, DXGI_MEMORY_SEGMENT_GROUP segment_group, DXGI_QUERY_VIDEO_MEMORY_INFO* memory_info) {
  notImplemented("IDXGIAdapter3::QueryVideoMemoryInfo");
  return DXGI_ERROR_DEVICE_REMOVED;
}

void Executor::IDXGIAdapter3_SetVideoMemoryReservation(ObjectId self, UINT node_index, DXGI_MEMORY_SEGMENT_GROUP segment_group, UINT64 reservation) {
  notImplemented("IDXGIAdapter3::SetVideoMemoryReservation");
}

void Executor::IDXGIAdapter3_UnregisterVideoMemoryBudgetChangeNotification(ObjectId self, DWORD cookie) {
  notImplemented("IDXGIAdapter3::UnregisterVideoMemoryBudgetChangeNotification");
}

void Executor::IDXGISwapChain4_SetHDRMetaData(ObjectId self, DXGI_HDR_METADATA_TYPE type, const Payload& metadata) {
  notImplemented("IDXGISwapChain4::SetHDRMetaData");
}

void Executor::IDXGIDevice4_OfferResources1(ObjectId self, UINT resource_count, const ObjectId* resources, DXGI_OFFER_RESOURCE_PRIORITY priority, UINT flags) {
  if (!resolveOfferedResources("OfferResources1", self, resource_count, resources)) return;
  log("OfferResources1: %u resources stay resident (offering is advisory; the host never discards)", resource_count);
}

void Executor::IDXGIFactory6_EnumAdapterByGpuPreference(ObjectId self, UINT adapter_idx, DXGI_GPU_PREFERENCE gpu_preference, const GUID& iid, ObjectId adapter) {
  notImplemented("IDXGIFactory6::EnumAdapterByGpuPreference");
}

HRESULT Executor::CreateDXGIFactory(const GUID& riid, ObjectId factory) {
  log("%s: refused with E_NOTIMPL (%s)", "CreateDXGIFactory", kGuestOnly);
  return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_NOTIMPL;
}

HRESULT Executor::CreateDXGIFactory1(const GUID& riid, ObjectId factory) {
  log("%s: refused with E_NOTIMPL (%s)", "CreateDXGIFactory1", kGuestOnly);
  return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_NOTIMPL;
}

HRESULT Executor::CreateDXGIFactory2(UINT flags, const GUID& iid, ObjectId factory) {
  log("%s: refused with E_NOTIMPL (%s)", "CreateDXGIFactory2", kGuestOnly);
  return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_NOTIMPL;
}

HRESULT Executor::D3D11CreateDeviceAndSwapChain(ObjectId adapter, D3D_DRIVER_TYPE driver_type, HMODULE swrast, UINT flags, const D3D_FEATURE_LEVEL* feature_levels, UINT levels, UINT sdk_version, const DXGI_SWAP_CHAIN_DESC* swapchain_desc, ObjectId swapchain, ObjectId device, D3D_FEATURE_LEVEL* obtained_feature_level, ObjectId immediate_context) {
  *obtained_feature_level = D3D_FEATURE_LEVEL(0);
  if (!swapchain_desc)   // Windows: without a swapchain description, the device alone
    return D3D11CreateDevice(adapter, driver_type, swrast, flags, feature_levels, levels, sdk_version, device,
                             obtained_feature_level, immediate_context);
  log("D3D11CreateDeviceAndSwapChain: refused with E_NOTIMPL (%s)", kGuestOnly);
  return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_NOTIMPL;
}

HRESULT Executor::IDXGIDevice2_ReclaimResources(ObjectId self, UINT NumResources, const ObjectId* ppResources,
                                                BOOL* pDiscarded) {
  for (UINT i = 0; i < NumResources; i++) pDiscarded[i] = FALSE;
  if (!resolveOfferedResources("ReclaimResources", self, NumResources, ppResources))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  return S_OK;   // nothing was discarded
}

HRESULT Executor::IDXGIDevice4_ReclaimResources1(ObjectId self, UINT resource_count, const ObjectId* resources,
                                                 DXGI_RECLAIM_RESOURCE_RESULTS* results) {
  for (UINT i = 0; i < resource_count; i++) results[i] = DXGI_RECLAIM_RESOURCE_RESULT_OK;
  if (!resolveOfferedResources("ReclaimResources1", self, resource_count, resources))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  return S_OK;
}

}  // namespace npt::executor
