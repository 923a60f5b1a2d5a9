#include "entry_status.h"

namespace triton::driver {
namespace {

constexpr EntryNote kNotes[] = {
    // Device tables (D3D11.0, D3D11.1 and WDDM 1.3)
    {"pfnCreateSampler", EntryStatus::Partial,
     "D3D10's TEXT_1BIT filter (reached through D3D10 on the D3D11 DDI): the API has no such filter and no "
     "R1_UNORM texture it filters; emulating it would mean rewriting every sample instruction that uses the sampler"},
    {"pfnCreateQuery", EntryStatus::Partial,
     "D3D10's named counters (GPU_IDLE ... TEXTURE_CACHE_HIT_RATE): the API has no form for them; CheckCounter "
     "answers DXGI_DDI_ERR_UNSUPPORTED for each, so a runtime that checks first never creates one"},
    {"pfnRelocateDeviceFuncs", EntryStatus::NothingToDo, "Triton keeps no pointer into the runtime's table"},
    {"pfnShaderResourceViewReadAfterWriteHazard", EntryStatus::NothingToDo,
     "the target device tracks its own read-after-write hazards"},
    {"pfnResourceReadAfterWriteHazard", EntryStatus::NothingToDo,
     "the target device tracks its own read-after-write hazards"},
    {"pfnSetTextFilterSize", EntryStatus::NothingToDo,
     "recorded; it only matters to TEXT_1BIT samplers, which CreateSampler refuses"},
    {"pfnAssignDebugBinary", EntryStatus::NothingToDo,
     "not advertised (GetCaps: no debug binaries); the binary is not needed by the target"},
    {"pfnRecycleCommandList", EntryStatus::NothingToDo,
     "the target command list was released by RecycleDestroyCommandList; nothing is held"},
    // WDDM 1.3 device table (ddi_wddm1_3.cpp): tiled resources are reported absent
    // through caps (D3DWDDM1_3DDICAPS_D3D11_OPTIONS1 without a tier), so the runtime
    // creates no tiled resource and never calls these; each reports E_NOTIMPL.
    {"pfnUpdateTileMappings", EntryStatus::Unsupported,
     "tiled resources: GetCaps reports no tier (OPTIONS1), CreateResource refuses TILED/TILE_POOL"},
    {"pfnCopyTileMappings", EntryStatus::Unsupported, "tiled resources, as pfnUpdateTileMappings"},
    {"pfnCopyTiles", EntryStatus::Unsupported, "tiled resources, as pfnUpdateTileMappings"},
    {"pfnUpdateTiles", EntryStatus::Unsupported, "tiled resources, as pfnUpdateTileMappings"},
    {"pfnTiledResourceBarrier", EntryStatus::Unsupported, "tiled resources, as pfnUpdateTileMappings"},
    {"pfnGetMipPacking", EntryStatus::Unsupported,
     "tiled resources, as pfnUpdateTileMappings (answers 0 packed mips, 0 tiles with the error)"},
    {"pfnResizeTilePool", EntryStatus::Unsupported, "tiled resources, as pfnUpdateTileMappings"},
    {"pfnSetMarker", EntryStatus::NothingToDo,
     "GetCaps reports MARKER_TYPE_NONE and SetMarkerMode refuses PROFILE: there is never a time stamp to take"},
    {"pfnSetMarkerMode", EntryStatus::Partial,
     "MARKER_TYPE_PROFILE (E_NOTIMPL; GetCaps reports MARKER_TYPE_NONE): ETW GPU time stamps need the kernel's "
     "pfnLogUMDMarkerCb and end-of-pipe time stamps; NONE is accepted"},
    // DXGI base functions
    {"pfnSetDisplayMode", EntryStatus::Unsupported,
     "exclusive fullscreen: the host presenter shows frames in a window or headless and has no display mode to "
     "set (DXGI_ERROR_NOT_CURRENTLY_AVAILABLE, as the Neptune swapchain's SetFullscreenState); no resource: S_OK"},
    {"pfnBlt", EntryStatus::Partial,
     "a resolve that also stretches, converts or rotates; a drawn blit (stretch, conversion, rotation) needs a "
     "render-target destination and a single-sampled shader-resource source (E_NOTIMPL otherwise)"},
    {"pfnBlt1", EntryStatus::Partial, "as pfnBlt"},
    {"pfnGetMultiplaneOverlayCaps", EntryStatus::Unsupported,
     "Triton has no overlay planes (filled because IS_DXGI_MULTIPLANE_OVERLAY_FUNCTIONS holds for the 11.1 "
     "interface; nothing reports overlays, so the runtime has no reason to call it)"},
    {"pfnGetMultiplaneOverlayFilterRange", EntryStatus::Unsupported, "no overlay planes, as pfnGetMultiplaneOverlayCaps"},
    {"pfnCheckMultiplaneOverlaySupport", EntryStatus::Unsupported, "no overlay planes, as pfnGetMultiplaneOverlayCaps"},
    {"pfnPresentMultiplaneOverlay", EntryStatus::Unsupported, "no overlay planes, as pfnGetMultiplaneOverlayCaps"},
    {"pfnGetMultiplaneOverlayGroupCaps", EntryStatus::Unsupported,
     "no overlay planes, as pfnGetMultiplaneOverlayCaps (DXGI 1.3 table)"},
    {"pfnReserved1", EntryStatus::NotOffered, "reserved member of the DXGI 1.3 table: stays null"},
    {"pfnReserved2", EntryStatus::NotOffered, "reserved member of the DXGI 1.3 table: stays null"},
    {"pfnCheckPresentDurationSupport", EntryStatus::NothingToDo,
     "no custom present durations (the host presenter has no refresh rates): answers 0 and 0, the documented "
     "\"cannot switch seamlessly\""},
};

}  // namespace

std::span<const EntryNote> entryNotes() { return kNotes; }

const char* entryStatusName(EntryStatus status) {
  switch (status) {
    case EntryStatus::Translated: return "translated";
    case EntryStatus::Partial: return "partial";
    case EntryStatus::NothingToDo: return "nothing-to-do";
    case EntryStatus::Unsupported: return "unsupported";
    case EntryStatus::NotOffered: return "not-offered";
  }
  return "?";
}

}  // namespace triton::driver
