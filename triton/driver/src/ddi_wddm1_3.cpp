// SPDX-License-Identifier: MIT
// The members the WDDM 1.3 (Direct3D 11.2) device table adds to the 11.1 one, and its
// two retyped members.
//
// Tiled resources are reported unsupported through caps: GetCaps answers
// D3DWDDM1_3DDICAPS_D3D11_OPTIONS1 with no tier (caps.cpp), so the runtime creates no
// tiled resource or tile pool (CreateResource refuses the TILED/TILE_POOL flags) and
// has no handle to pass to the seven tiled-resource members. Should one be called
// anyway, it reports E_NOTIMPL through pfnSetErrorCb and logs once: nothing is
// silently ignored. Markers: GetCaps answers D3DWDDM1_3DDICAPS_MARKER with
// MARKER_TYPE_NONE, so SetMarkerMode(NONE) and SetMarker have nothing to sample, and
// SetMarkerMode(PROFILE) is refused with E_NOTIMPL (GPU time stamps for ETW would need
// the kernel's pfnLogUMDMarkerCb and end-of-pipe time stamps Triton does not have).

#include <atomic>

#include "device.h"
#include "entries.h"
#include "log.h"

namespace triton::driver {
namespace {

void tiledResourcesUnsupported(ddi::D3D10DDI_HDEVICE hDevice, const char* entryName) {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true))
    TRITON_LOG(Warn, "%s: tiled resources are not supported (GetCaps reports no tier; E_NOTIMPL)", entryName);
  deviceOf(hDevice)->setError(E_NOTIMPL);
}

}  // namespace

namespace entry {

void TRITON_APIENTRY relocateDeviceFuncsWddm1_3(ddi::D3D10DDI_HDEVICE, ddi::D3DWDDM1_3DDI_DEVICEFUNCS*) {
  // Triton keeps no pointer into the runtime's table.
}

// The 11.2 API's CheckMultisampleQualityLevels1: the TILED_RESOURCE flag asks for the
// levels of a tiled render target, which cannot exist without a tier: 0 levels, the
// API's answer for an unsupported combination. Other bits are not defined.
void TRITON_APIENTRY checkMultisampleQualityLevelsWddm1_3(ddi::D3D10DDI_HDEVICE hDevice, DXGI_FORMAT format,
                                                          UINT sampleCount, UINT flags, UINT* levels) {
  if (!levels)
    return;
  if (flags & ~UINT(ddi::D3DWDDM1_3DDI_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE)) {
    *levels = 0;
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  if (flags & ddi::D3DWDDM1_3DDI_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE) {
    *levels = 0;
    return;
  }
  checkMultisampleQualityLevels(hDevice, format, sampleCount, levels);
}

void TRITON_APIENTRY updateTileMappings(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE, UINT,
                                        const ddi::D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE*,
                                        const ddi::D3DWDDM1_3DDI_TILE_REGION_SIZE*, ddi::D3D10DDI_HRESOURCE, UINT,
                                        const UINT*, const UINT*, const UINT*, UINT) {
  tiledResourcesUnsupported(hDevice, "UpdateTileMappings");
}

void TRITON_APIENTRY copyTileMappings(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE,
                                      const ddi::D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE*, ddi::D3D10DDI_HRESOURCE,
                                      const ddi::D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE*,
                                      const ddi::D3DWDDM1_3DDI_TILE_REGION_SIZE*, UINT) {
  tiledResourcesUnsupported(hDevice, "CopyTileMappings");
}

void TRITON_APIENTRY copyTiles(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE,
                               const ddi::D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE*,
                               const ddi::D3DWDDM1_3DDI_TILE_REGION_SIZE*, ddi::D3D10DDI_HRESOURCE, UINT64, UINT) {
  tiledResourcesUnsupported(hDevice, "CopyTiles");
}

void TRITON_APIENTRY updateTiles(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE,
                                 const ddi::D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE*,
                                 const ddi::D3DWDDM1_3DDI_TILE_REGION_SIZE*, const void*, UINT) {
  tiledResourcesUnsupported(hDevice, "UpdateTiles");
}

void TRITON_APIENTRY tiledResourceBarrier(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HANDLETYPE, void*,
                                          ddi::D3D11DDI_HANDLETYPE, void*) {
  tiledResourcesUnsupported(hDevice, "TiledResourceBarrier");
}

// The outputs are written (no packed mips, no tiles) so a caller that ignores the
// error reads defined values.
void TRITON_APIENTRY getMipPacking(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE, UINT* numPackedMips,
                                   UINT* numTilesForPackedMips) {
  if (numPackedMips)
    *numPackedMips = 0;
  if (numTilesForPackedMips)
    *numTilesForPackedMips = 0;
  tiledResourcesUnsupported(hDevice, "GetMipPacking");
}

void TRITON_APIENTRY resizeTilePool(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE, UINT64) {
  tiledResourcesUnsupported(hDevice, "ResizeTilePool");
}

void TRITON_APIENTRY setMarker(ddi::D3D10DDI_HDEVICE) {
  // The marker mode is never PROFILE (refused below): no time stamp to take.
}

// Both return nothing (the WDK header's VOID; the reference pages say HRESULT): the
// refusal goes through pfnSetErrorCb, where the runtime sees it.
void TRITON_APIENTRY setMarkerMode(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3DWDDM1_3DDI_MARKER_TYPE type, UINT) {
  if (type == ddi::D3DWDDM1_3DDI_MARKER_TYPE_NONE)
    return;
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true))
    TRITON_LOG(Warn, "SetMarkerMode: marker type %u not supported (GetCaps reports MARKER_TYPE_NONE; E_NOTIMPL)",
               unsigned(type));
  deviceOf(hDevice)->setError(E_NOTIMPL);
}

}  // namespace entry
}  // namespace triton::driver
