// DXGI on the wire. Factories, adapters, outputs and swapchains live in the guest
// (contracts 2 and 4: answered from the host info, back buffers presented with
// PresentBuffer), so the guest runtime sends none of these; each fails loudly if a
// guest does.
#include "npt/executor/executor.h"

namespace npt::executor {

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
  notImplemented("IDXGIDevice1::SetMaximumFrameLatency");
}

void Executor::IDXGIFactory1_EnumAdapters1(ObjectId self, UINT Adapter, ObjectId ppAdapter) {
  notImplemented("IDXGIFactory1::EnumAdapters1");
}

void Executor::IDXGIResource1_CreateSubresourceSurface(ObjectId self, UINT index, ObjectId surface) {
  notImplemented("IDXGIResource1::CreateSubresourceSurface");
}

void Executor::IDXGIDevice2_OfferResources(ObjectId self, UINT NumResources, const ObjectId* ppResources, DXGI_OFFER_RESOURCE_PRIORITY Priority) {
  notImplemented("IDXGIDevice2::OfferResources");
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
  notImplemented("IDXGIDevice3::Trim");
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
  notImplemented("IDXGIDevice4::OfferResources1");
}

void Executor::IDXGIFactory6_EnumAdapterByGpuPreference(ObjectId self, UINT adapter_idx, DXGI_GPU_PREFERENCE gpu_preference, const GUID& iid, ObjectId adapter) {
  notImplemented("IDXGIFactory6::EnumAdapterByGpuPreference");
}

HRESULT Executor::CreateDXGIFactory(const GUID& riid, ObjectId factory) {
  notImplemented("CreateDXGIFactory");
  return DXGI_ERROR_DEVICE_REMOVED;
}

HRESULT Executor::CreateDXGIFactory1(const GUID& riid, ObjectId factory) {
  notImplemented("CreateDXGIFactory1");
  return DXGI_ERROR_DEVICE_REMOVED;
}

HRESULT Executor::CreateDXGIFactory2(UINT flags, const GUID& iid, ObjectId factory) {
  notImplemented("CreateDXGIFactory2");
  return DXGI_ERROR_DEVICE_REMOVED;
}

HRESULT Executor::D3D11CreateDeviceAndSwapChain(ObjectId adapter, D3D_DRIVER_TYPE driver_type, HMODULE swrast, UINT flags, const D3D_FEATURE_LEVEL* feature_levels, UINT levels, UINT sdk_version, const DXGI_SWAP_CHAIN_DESC* swapchain_desc, ObjectId swapchain, ObjectId device, D3D_FEATURE_LEVEL* obtained_feature_level, ObjectId immediate_context) {
  notImplemented("D3D11CreateDeviceAndSwapChain");
  return DXGI_ERROR_DEVICE_REMOVED;
}

}  // namespace npt::executor
