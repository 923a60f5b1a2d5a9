// SPDX-License-Identifier: MIT
#include "output.h"

#include <thread>

#include "../core/log.h"
#include "mode_list.h"

namespace npt::guest::dxgi {

namespace {

// One vsync clock per process, shared by every output object: two objects of the same
// output agree on when the vblanks are.
const std::chrono::steady_clock::time_point g_vblankEpoch = std::chrono::steady_clock::now();

constexpr std::chrono::nanoseconds kDefaultRefreshPeriod{16666667};  // 60 Hz

std::chrono::nanoseconds refreshPeriodOf(const protocol::HostOutput& output) {
  UINT width = UINT(output.desktopCoordinates.right - output.desktopCoordinates.left);
  UINT height = UINT(output.desktopCoordinates.bottom - output.desktopCoordinates.top);
  double bestHz = 0.0;
  for (const DXGI_MODE_DESC& mode : output.modes) {
    if (mode.Width != width || mode.Height != height || !mode.RefreshRate.Denominator)
      continue;
    double hz = double(mode.RefreshRate.Numerator) / double(mode.RefreshRate.Denominator);
    // Only plausible display rates: a host-sent 0 or absurd value cannot make the guest spin.
    if (hz >= 20.0 && hz <= 1000.0 && hz > bestHz)
      bestHz = hz;
  }
  if (bestHz == 0.0)
    return kDefaultRefreshPeriod;
  return std::chrono::nanoseconds(int64_t(1e9 / bestHz));
}

}

std::chrono::steady_clock::time_point vblankEpoch() {
  return g_vblankEpoch;
}

UINT64 vblankIndex(std::chrono::steady_clock::time_point when, std::chrono::nanoseconds period) {
  if (when <= g_vblankEpoch || period.count() <= 0)
    return 0;
  return UINT64(std::chrono::duration_cast<std::chrono::nanoseconds>(when - g_vblankEpoch).count() / period.count());
}

void sleepUntil(std::chrono::steady_clock::time_point when) {
  for (;;) {
    auto remaining = when - std::chrono::steady_clock::now();
    if (remaining <= std::chrono::nanoseconds(0))
      return;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining).count();
    // Sleep the whole milliseconds but one, then yield through the rest.
    Sleep(ms > 1 ? DWORD(ms - 1) : 0);
  }
}

Output::Output(Adapter* adapter, UINT index)
: m_adapter(adapter), m_index(index), m_period(refreshPeriodOf(adapter->host().outputs[index])) {}

Output* Output::create(Adapter* adapter, UINT index) {
  Output* output = new Output(adapter, index);
  output->AddRef();
  return output;
}

HRESULT Output::QueryInterface(REFIID riid, void** object) {
  if (!object)
    return E_POINTER;
  *object = nullptr;
  if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIOutput) ||
      riid == __uuidof(IDXGIOutput1) || riid == __uuidof(IDXGIOutput2) || riid == __uuidof(IDXGIOutput3) ||
      riid == __uuidof(IDXGIOutput4) || riid == __uuidof(IDXGIOutput5) || riid == __uuidof(IDXGIOutput6))
    return returnInterface(this, object);
  return E_NOINTERFACE;
}

HRESULT Output::GetParent(REFIID riid, void** parent) {
  if (!parent)
    return E_POINTER;
  return m_adapter->QueryInterface(riid, parent);
}

HMONITOR Output::monitor() const {
  // The host's desktop rectangle names the guest monitor showing the same area.
  RECT rect = hostOutput().desktopCoordinates;
  return MonitorFromRect(&rect, MONITOR_DEFAULTTONEAREST);
}

HRESULT Output::GetDesc(DXGI_OUTPUT_DESC* desc) {
  if (!desc)
    return E_INVALIDARG;
  DXGI_OUTPUT_DESC1 d1;
  GetDesc1(&d1);
  memcpy(desc->DeviceName, d1.DeviceName, sizeof(desc->DeviceName));
  desc->DesktopCoordinates = d1.DesktopCoordinates;
  desc->AttachedToDesktop = d1.AttachedToDesktop;
  desc->Rotation = d1.Rotation;
  desc->Monitor = d1.Monitor;
  return S_OK;
}

HRESULT Output::GetDesc1(DXGI_OUTPUT_DESC1* desc) {
  if (!desc)
    return E_INVALIDARG;
  const protocol::HostOutput& o = hostOutput();
  *desc = {};
  for (size_t i = 0; i + 1 < o.deviceName.size(); i++)
    desc->DeviceName[i] = WCHAR(o.deviceName[i]);
  desc->DesktopCoordinates = o.desktopCoordinates;
  desc->AttachedToDesktop = o.attachedToDesktop;
  desc->Rotation = o.rotation;
  desc->Monitor = monitor();
  // An SDR sRGB display: the host presenter scans out 8-bit sRGB (no HDR path yet).
  desc->BitsPerColor = 8;
  desc->ColorSpace = DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709;
  desc->RedPrimary[0] = 0.640f;   desc->RedPrimary[1] = 0.330f;
  desc->GreenPrimary[0] = 0.300f; desc->GreenPrimary[1] = 0.600f;
  desc->BluePrimary[0] = 0.150f;  desc->BluePrimary[1] = 0.060f;
  desc->WhitePoint[0] = 0.3127f;  desc->WhitePoint[1] = 0.3290f;
  desc->MinLuminance = 0.5f;
  desc->MaxLuminance = 270.0f;
  desc->MaxFullFrameLuminance = 270.0f;
  return S_OK;
}

HRESULT Output::GetDisplayModeList(DXGI_FORMAT format, UINT flags, UINT* count, DXGI_MODE_DESC* desc) {
  return copyModeList(modesForFormat(hostOutput().modes, format, flags), count, desc);
}

HRESULT Output::GetDisplayModeList1(DXGI_FORMAT format, UINT flags, UINT* count, DXGI_MODE_DESC1* desc) {
  std::vector<DXGI_MODE_DESC1> modes;
  for (const DXGI_MODE_DESC& mode : modesForFormat(hostOutput().modes, format, flags))
    modes.push_back(toModeDesc1(mode));
  return copyModeList(modes, count, desc);
}

HRESULT Output::FindClosestMatchingMode(const DXGI_MODE_DESC* mode, DXGI_MODE_DESC* closest, IUnknown* device) {
  if (!mode || !closest)
    return DXGI_ERROR_INVALID_CALL;
  const RECT& r = hostOutput().desktopCoordinates;
  return findClosestMatchingMode(hostOutput().modes, *mode, device != nullptr, UINT(r.right - r.left),
                                 UINT(r.bottom - r.top), closest);
}

HRESULT Output::FindClosestMatchingMode1(const DXGI_MODE_DESC1* mode, DXGI_MODE_DESC1* closest, IUnknown* device) {
  if (!mode || !closest)
    return DXGI_ERROR_INVALID_CALL;
  // The host lists no stereo modes.
  if (mode->Stereo)
    return DXGI_ERROR_NOT_FOUND;
  DXGI_MODE_DESC wanted = toModeDesc(*mode), result;
  HRESULT hr = FindClosestMatchingMode(&wanted, &result, device);
  if (SUCCEEDED(hr))
    *closest = toModeDesc1(result);
  return hr;
}

UINT64 Output::vblankCount(LARGE_INTEGER* lastVblankQpc) const {
  auto now = std::chrono::steady_clock::now();
  auto sinceEpoch = std::chrono::duration_cast<std::chrono::nanoseconds>(now - g_vblankEpoch);
  UINT64 count = UINT64(sinceEpoch.count() / m_period.count());
  if (lastVblankQpc) {
    LARGE_INTEGER qpcNow, frequency;
    QueryPerformanceCounter(&qpcNow);
    QueryPerformanceFrequency(&frequency);
    auto sinceVblank = sinceEpoch - m_period * int64_t(count);
    lastVblankQpc->QuadPart = qpcNow.QuadPart - LONGLONG(double(sinceVblank.count()) * 1e-9 * double(frequency.QuadPart));
  }
  return count;
}

HRESULT Output::WaitForVBlank() {
  // The host presenter is headless for now (contract 4), so there is no real vblank to
  // wait for: the wait ends at the next tick of the output's refresh clock, which keeps
  // applications that pace themselves with it at the display rate.
  UINT64 next = vblankCount(nullptr) + 1;
  sleepUntil(g_vblankEpoch + m_period * int64_t(next));
  return S_OK;
}

HRESULT Output::TakeOwnership(IUnknown* device, BOOL exclusive) {
  if (!device)
    return DXGI_ERROR_INVALID_CALL;
  // Exclusive ownership only matters to fullscreen swapchains, which Neptune keeps
  // windowed; there is nothing to take.
  return S_OK;
}

void Output::ReleaseOwnership() {}

HRESULT Output::GetGammaControlCapabilities(DXGI_GAMMA_CONTROL_CAPABILITIES* caps) {
  if (!caps)
    return E_INVALIDARG;
  *caps = {};
  caps->ScaleAndOffsetSupported = FALSE;
  caps->MaxConvertedValue = 1.0f;
  caps->MinConvertedValue = 0.0f;
  caps->NumGammaControlPoints = 1025;
  for (UINT i = 0; i < caps->NumGammaControlPoints; i++)
    caps->ControlPointPositions[i] = float(i) / float(caps->NumGammaControlPoints - 1);
  return S_OK;
}

HRESULT Output::SetGammaControl(const DXGI_GAMMA_CONTROL* control) {
  // Gamma ramps apply to an output owned by a fullscreen swapchain only (Windows
  // answers windowed callers the same).
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetGammaControl(DXGI_GAMMA_CONTROL* control) {
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::SetDisplaySurface(IDXGISurface* surface) {
  // Fullscreen only, like the gamma ramp.
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetDisplaySurfaceData(IDXGISurface* surface) {
  if (!surface)
    return DXGI_ERROR_INVALID_CALL;
  // Reading the desktop back is desktop duplication's job, not remoted in protocol v1.
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetDisplaySurfaceData1(IDXGIResource* resource) {
  if (!resource)
    return DXGI_ERROR_INVALID_CALL;
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) {
  if (!stats)
    return E_INVALIDARG;
  *stats = {};
  UINT64 vblanks = vblankCount(&stats->SyncQPCTime);
  stats->PresentRefreshCount = UINT(vblanks);
  stats->SyncRefreshCount = UINT(vblanks);
  return S_OK;
}

HRESULT Output::DuplicateOutput(IUnknown* device, IDXGIOutputDuplication** duplication) {
  if (duplication)
    *duplication = nullptr;
  if (!device || !duplication)
    return E_INVALIDARG;
  // Output duplication is outside protocol v1 (policy "unsupported").
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT Output::DuplicateOutput1(IUnknown* device, UINT flags, UINT formatCount, const DXGI_FORMAT* formats,
                                 IDXGIOutputDuplication** duplication) {
  if (duplication)
    *duplication = nullptr;
  if (!device || !duplication || !formatCount || !formats)
    return E_INVALIDARG;
  return DXGI_ERROR_UNSUPPORTED;
}

BOOL Output::SupportsOverlays() {
  return FALSE;
}

HRESULT Output::CheckOverlaySupport(DXGI_FORMAT format, IUnknown* device, UINT* flags) {
  if (!device || !flags)
    return E_INVALIDARG;
  *flags = 0;
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT Output::CheckOverlayColorSpaceSupport(DXGI_FORMAT format, DXGI_COLOR_SPACE_TYPE colorSpace,
                                              IUnknown* device, UINT* flags) {
  if (!device || !flags)
    return E_INVALIDARG;
  *flags = 0;
  return DXGI_ERROR_UNSUPPORTED;
}

HRESULT Output::CheckHardwareCompositionSupport(UINT* flags) {
  if (!flags)
    return E_INVALIDARG;
  // No multi-plane overlays, no hardware cursor composition on the host presenter.
  *flags = 0;
  return S_OK;
}

}
