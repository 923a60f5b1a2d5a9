// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>

#include "adapter.h"
#include "dxgi_object.h"

// IDXGIOutput..IDXGIOutput6: one of the host's outputs (contract 2), answered locally:
// descriptions, mode lists (mode_list.h), a vsync clock at the output's refresh rate
// for WaitForVBlank and GetFrameStatistics, gamma capabilities. Holds a reference on
// its adapter (test_output_desc: an output raises its adapter's count by one).
namespace npt::guest::dxgi {

// The process-wide display clock of the outputs: vblank n happens at
// vblankEpoch() + n * refresh period (the host presenter is headless, so the guest keeps
// the clock that WaitForVBlank, frame statistics and swapchain pacing agree on).
std::chrono::steady_clock::time_point vblankEpoch();
UINT64 vblankIndex(std::chrono::steady_clock::time_point when, std::chrono::nanoseconds period);
// Sleeps until `when` has passed. std::this_thread::sleep_until cannot be used: mingw's
// nanosleep rounds down to whole milliseconds, so it returns up to 1 ms early, and a
// vblank wait would then end before the vblank.
void sleepUntil(std::chrono::steady_clock::time_point when);

class Output final : public DxgiObject<IDXGIOutput6> {
public:
  // Returns an AddRef'd output for host output `index` (< host().outputs.size()).
  static Output* create(Adapter* adapter, UINT index);

  const protocol::HostOutput& hostOutput() const { return m_adapter->host().outputs[m_index]; }
  Adapter* adapter() const { return m_adapter.get(); }
  // The refresh period of the output's desktop mode (60 Hz when the host lists none).
  std::chrono::nanoseconds refreshPeriod() const { return m_period; }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;

  // IDXGIOutput
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_OUTPUT_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE GetDisplayModeList(DXGI_FORMAT format, UINT flags, UINT* count, DXGI_MODE_DESC* desc) override;
  HRESULT STDMETHODCALLTYPE FindClosestMatchingMode(const DXGI_MODE_DESC* mode, DXGI_MODE_DESC* closest, IUnknown* device) override;
  HRESULT STDMETHODCALLTYPE WaitForVBlank() override;
  HRESULT STDMETHODCALLTYPE TakeOwnership(IUnknown* device, BOOL exclusive) override;
  void STDMETHODCALLTYPE ReleaseOwnership() override;
  HRESULT STDMETHODCALLTYPE GetGammaControlCapabilities(DXGI_GAMMA_CONTROL_CAPABILITIES* caps) override;
  HRESULT STDMETHODCALLTYPE SetGammaControl(const DXGI_GAMMA_CONTROL* control) override;
  HRESULT STDMETHODCALLTYPE GetGammaControl(DXGI_GAMMA_CONTROL* control) override;
  HRESULT STDMETHODCALLTYPE SetDisplaySurface(IDXGISurface* surface) override;
  HRESULT STDMETHODCALLTYPE GetDisplaySurfaceData(IDXGISurface* surface) override;
  HRESULT STDMETHODCALLTYPE GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) override;
  // IDXGIOutput1
  HRESULT STDMETHODCALLTYPE GetDisplayModeList1(DXGI_FORMAT format, UINT flags, UINT* count, DXGI_MODE_DESC1* desc) override;
  HRESULT STDMETHODCALLTYPE FindClosestMatchingMode1(const DXGI_MODE_DESC1* mode, DXGI_MODE_DESC1* closest, IUnknown* device) override;
  HRESULT STDMETHODCALLTYPE GetDisplaySurfaceData1(IDXGIResource* resource) override;
  HRESULT STDMETHODCALLTYPE DuplicateOutput(IUnknown* device, IDXGIOutputDuplication** duplication) override;
  // IDXGIOutput2
  BOOL STDMETHODCALLTYPE SupportsOverlays() override;
  // IDXGIOutput3
  HRESULT STDMETHODCALLTYPE CheckOverlaySupport(DXGI_FORMAT format, IUnknown* device, UINT* flags) override;
  // IDXGIOutput4
  HRESULT STDMETHODCALLTYPE CheckOverlayColorSpaceSupport(DXGI_FORMAT format, DXGI_COLOR_SPACE_TYPE colorSpace,
      IUnknown* device, UINT* flags) override;
  // IDXGIOutput5
  HRESULT STDMETHODCALLTYPE DuplicateOutput1(IUnknown* device, UINT flags, UINT formatCount,
      const DXGI_FORMAT* formats, IDXGIOutputDuplication** duplication) override;
  // IDXGIOutput6
  HRESULT STDMETHODCALLTYPE GetDesc1(DXGI_OUTPUT_DESC1* desc) override;
  HRESULT STDMETHODCALLTYPE CheckHardwareCompositionSupport(UINT* flags) override;

private:
  Output(Adapter* adapter, UINT index);
  // The guest's monitor for the output's desktop rectangle.
  HMONITOR monitor() const;
  // Vblanks since the clock's epoch, and the QPC time of the latest one.
  UINT64 vblankCount(LARGE_INTEGER* lastVblankQpc) const;

  ComRef<Adapter> m_adapter;
  UINT m_index;
  std::chrono::nanoseconds m_period;
};

}
