// SPDX-License-Identifier: MIT
#pragma once

#include <mutex>
#include <vector>

#include "dxgi_object.h"
#include "factory.h"

// IDXGIAdapter..IDXGIAdapter4: the host's device as DXGI_ADAPTER_DESC3 (contract 2)
// and its outputs. Holds a reference on its factory (Windows: an adapter raises its
// factory's count by one, test_output_desc).
namespace npt::guest::dxgi {

class Adapter final : public DxgiObject<IDXGIAdapter4> {
public:
  // Returns an AddRef'd adapter.
  static Adapter* create(Factory* factory);

  const protocol::HostInfo& host() const { return m_factory->host(); }
  Factory* factory() const { return m_factory.get(); }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;

  // IDXGIAdapter
  HRESULT STDMETHODCALLTYPE EnumOutputs(UINT index, IDXGIOutput** output) override;
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_ADAPTER_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE CheckInterfaceSupport(REFGUID guid, LARGE_INTEGER* umdVersion) override;
  // IDXGIAdapter1
  HRESULT STDMETHODCALLTYPE GetDesc1(DXGI_ADAPTER_DESC1* desc) override;
  // IDXGIAdapter2
  HRESULT STDMETHODCALLTYPE GetDesc2(DXGI_ADAPTER_DESC2* desc) override;
  // IDXGIAdapter3
  HRESULT STDMETHODCALLTYPE RegisterHardwareContentProtectionTeardownStatusEvent(HANDLE event, DWORD* cookie) override;
  void STDMETHODCALLTYPE UnregisterHardwareContentProtectionTeardownStatus(DWORD cookie) override;
  HRESULT STDMETHODCALLTYPE QueryVideoMemoryInfo(UINT node, DXGI_MEMORY_SEGMENT_GROUP group,
      DXGI_QUERY_VIDEO_MEMORY_INFO* info) override;
  HRESULT STDMETHODCALLTYPE SetVideoMemoryReservation(UINT node, DXGI_MEMORY_SEGMENT_GROUP group, UINT64 reservation) override;
  HRESULT STDMETHODCALLTYPE RegisterVideoMemoryBudgetChangeNotificationEvent(HANDLE event, DWORD* cookie) override;
  void STDMETHODCALLTYPE UnregisterVideoMemoryBudgetChangeNotification(DWORD cookie) override;
  // IDXGIAdapter4
  HRESULT STDMETHODCALLTYPE GetDesc3(DXGI_ADAPTER_DESC3* desc) override;

private:
  explicit Adapter(Factory* factory) : m_factory(factory) {}
  // Budget of a segment group: local = dedicated video memory (shared memory for an
  // adapter without any), non-local = shared system memory.
  UINT64 budget(DXGI_MEMORY_SEGMENT_GROUP group) const;

  ComRef<Factory> m_factory;
  std::mutex m_mutex;
  UINT64 m_reservation[2] = {};
  DWORD m_nextCookie = 1;
};

// The UMD version CheckInterfaceSupport reports for the D3D10/DXGI device interfaces.
LARGE_INTEGER neptuneDriverVersion();

}
