// SPDX-License-Identifier: MIT
#include "adapter.h"

#include <d3d10_1.h>

#include "output.h"

namespace npt::guest::dxgi {

LARGE_INTEGER neptuneDriverVersion() {
  // A UMD version in Windows' four-part form (product.version.subversion.build), here
  // 30.0.1.0: what the runtime, not the host's driver, implements.
  LARGE_INTEGER version;
  version.HighPart = (30 << 16) | 0;
  version.LowPart = (1u << 16) | 0;
  return version;
}

Adapter* Adapter::create(Factory* factory) {
  Adapter* adapter = new Adapter(factory);
  adapter->AddRef();
  return adapter;
}

HRESULT Adapter::QueryInterface(REFIID riid, void** object) {
  if (!object)
    return E_POINTER;
  *object = nullptr;
  if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIAdapter) ||
      riid == __uuidof(IDXGIAdapter1) || riid == __uuidof(IDXGIAdapter2) || riid == __uuidof(IDXGIAdapter3) ||
      riid == __uuidof(IDXGIAdapter4))
    return returnInterface(this, object);
  return E_NOINTERFACE;
}

HRESULT Adapter::GetParent(REFIID riid, void** parent) {
  if (!parent)
    return E_POINTER;
  return m_factory->QueryInterface(riid, parent);
}

HRESULT Adapter::EnumOutputs(UINT index, IDXGIOutput** output) {
  // test_output: a NULL out pointer is E_INVALIDARG here (not DXGI_ERROR_INVALID_CALL).
  if (!output)
    return E_INVALIDARG;
  *output = nullptr;
  if (index >= host().outputs.size())
    return DXGI_ERROR_NOT_FOUND;
  *output = Output::create(this, index);
  return S_OK;
}

HRESULT Adapter::GetDesc(DXGI_ADAPTER_DESC* desc) {
  if (!desc)
    return E_INVALIDARG;
  DXGI_ADAPTER_DESC3 d3;
  GetDesc3(&d3);
  static_assert(sizeof(desc->Description) == sizeof(d3.Description));
  memcpy(desc->Description, d3.Description, sizeof(desc->Description));
  desc->VendorId = d3.VendorId;
  desc->DeviceId = d3.DeviceId;
  desc->SubSysId = d3.SubSysId;
  desc->Revision = d3.Revision;
  desc->DedicatedVideoMemory = d3.DedicatedVideoMemory;
  desc->DedicatedSystemMemory = d3.DedicatedSystemMemory;
  desc->SharedSystemMemory = d3.SharedSystemMemory;
  desc->AdapterLuid = d3.AdapterLuid;
  return S_OK;
}

HRESULT Adapter::GetDesc1(DXGI_ADAPTER_DESC1* desc) {
  if (!desc)
    return E_INVALIDARG;
  DXGI_ADAPTER_DESC2 d2;
  GetDesc2(&d2);
  memcpy(desc, &d2, sizeof(*desc));  // DESC1 is the prefix of DESC2
  return S_OK;
}

HRESULT Adapter::GetDesc2(DXGI_ADAPTER_DESC2* desc) {
  if (!desc)
    return E_INVALIDARG;
  DXGI_ADAPTER_DESC3 d3;
  GetDesc3(&d3);
  memcpy(desc->Description, d3.Description, sizeof(desc->Description));
  desc->VendorId = d3.VendorId;
  desc->DeviceId = d3.DeviceId;
  desc->SubSysId = d3.SubSysId;
  desc->Revision = d3.Revision;
  desc->DedicatedVideoMemory = d3.DedicatedVideoMemory;
  desc->DedicatedSystemMemory = d3.DedicatedSystemMemory;
  desc->SharedSystemMemory = d3.SharedSystemMemory;
  desc->AdapterLuid = d3.AdapterLuid;
  desc->Flags = UINT(d3.Flags) & (DXGI_ADAPTER_FLAG_REMOTE | DXGI_ADAPTER_FLAG_SOFTWARE);
  desc->GraphicsPreemptionGranularity = d3.GraphicsPreemptionGranularity;
  desc->ComputePreemptionGranularity = d3.ComputePreemptionGranularity;
  return S_OK;
}

HRESULT Adapter::GetDesc3(DXGI_ADAPTER_DESC3* desc) {
  if (!desc)
    return E_INVALIDARG;
  const protocol::HostAdapter& a = host().adapter;
  *desc = {};
  // The host sends UTF-16 units, NUL-terminated within the array (parser-checked bounds);
  // the last unit stays NUL whatever the host sent.
  for (size_t i = 0; i + 1 < a.description.size(); i++)
    desc->Description[i] = WCHAR(a.description[i]);
  desc->VendorId = a.vendorId;
  desc->DeviceId = a.deviceId;
  desc->SubSysId = a.subSysId;
  desc->Revision = a.revision;
  desc->DedicatedVideoMemory = SIZE_T(a.dedicatedVideoMemory);
  desc->DedicatedSystemMemory = SIZE_T(a.dedicatedSystemMemory);
  desc->SharedSystemMemory = SIZE_T(a.sharedSystemMemory);
  desc->AdapterLuid = a.luid;
  desc->Flags = DXGI_ADAPTER_FLAG3(a.flags & (DXGI_ADAPTER_FLAG3_REMOTE | DXGI_ADAPTER_FLAG3_SOFTWARE));
  desc->GraphicsPreemptionGranularity = a.graphicsPreemptionGranularity;
  desc->ComputePreemptionGranularity = a.computePreemptionGranularity;
  return S_OK;
}

HRESULT Adapter::CheckInterfaceSupport(REFGUID guid, LARGE_INTEGER* umdVersion) {
  // test_check_interface_support: the DXGI and D3D10 device interfaces are "supported"
  // with a UMD version (NULL allowed); ID3D11Device is DXGI_ERROR_UNSUPPORTED by design
  // of the API (D3D11 capability is probed by creating a device), version untouched.
  if (guid == __uuidof(IDXGIDevice) || guid == __uuidof(ID3D10Device) || guid == __uuidof(ID3D10Device1)) {
    if (umdVersion)
      *umdVersion = neptuneDriverVersion();
    return S_OK;
  }
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT Adapter::RegisterHardwareContentProtectionTeardownStatusEvent(HANDLE event, DWORD* cookie) {
  if (!event || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  // No protected content exists, so no teardown ever happens.
  std::lock_guard<std::mutex> lock(m_mutex);
  *cookie = m_nextCookie++;
  return S_OK;
}

void Adapter::UnregisterHardwareContentProtectionTeardownStatus(DWORD cookie) {}

UINT64 Adapter::budget(DXGI_MEMORY_SEGMENT_GROUP group) const {
  const protocol::HostAdapter& a = host().adapter;
  if (group == DXGI_MEMORY_SEGMENT_GROUP_LOCAL)
    return a.dedicatedVideoMemory ? a.dedicatedVideoMemory : a.sharedSystemMemory;
  return a.sharedSystemMemory;
}

HRESULT Adapter::QueryVideoMemoryInfo(UINT node, DXGI_MEMORY_SEGMENT_GROUP group, DXGI_QUERY_VIDEO_MEMORY_INFO* info) {
  // test_query_video_memory_info: a group past NON_LOCAL is E_INVALIDARG.
  if (!info || node != 0 || (group != DXGI_MEMORY_SEGMENT_GROUP_LOCAL && group != DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL))
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(m_mutex);
  info->Budget = budget(group);
  // The host's usage of the whole machine is not part of the snapshot; the guest
  // reports no usage rather than a guess.
  info->CurrentUsage = 0;
  // Windows offers about half of the budget for reservation.
  info->AvailableForReservation = info->Budget / 2;
  info->CurrentReservation = m_reservation[group];
  return S_OK;
}

HRESULT Adapter::SetVideoMemoryReservation(UINT node, DXGI_MEMORY_SEGMENT_GROUP group, UINT64 reservation) {
  if (node != 0 || (group != DXGI_MEMORY_SEGMENT_GROUP_LOCAL && group != DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL))
    return E_INVALIDARG;
  if (reservation > budget(group) / 2)
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(m_mutex);
  m_reservation[group] = reservation;
  return S_OK;
}

HRESULT Adapter::RegisterVideoMemoryBudgetChangeNotificationEvent(HANDLE event, DWORD* cookie) {
  if (!event || !cookie)
    return DXGI_ERROR_INVALID_CALL;
  // The budget comes from the connection's snapshot and never changes.
  std::lock_guard<std::mutex> lock(m_mutex);
  *cookie = m_nextCookie++;
  return S_OK;
}

void Adapter::UnregisterVideoMemoryBudgetChangeNotification(DWORD cookie) {}

}
