// SPDX-License-Identifier: MIT
#include "entry_status.h"

#include <cstring>

namespace triton::driver {
namespace {

constexpr const char* kWddm2 = "D3DWDDM2_";   // the WDDM 2.0 and 2.1 device tables

constexpr EntryNote kNotes[] = {
    // WDDM 2.0 and 2.1 device tables (ddi_wddm2_0.cpp): members whose 2.0 arguments add
    // what GetCaps reports absent, before the general notes of the same members.
    {"pfnCreateShaderResourceView", EntryStatus::Partial,
     "a plane slice other than 0 (the second plane of a planar format; the API form, ID3D11Device3's "
     "CreateShaderResourceView1, is not translated): E_NOTIMPL",
     kWddm2},
    {"pfnCreateRenderTargetView", EntryStatus::Partial, "a plane slice other than 0, as pfnCreateShaderResourceView",
     kWddm2},
    {"pfnCreateUnorderedAccessView", EntryStatus::Partial,
     "a plane slice other than 0, as pfnCreateShaderResourceView", kWddm2},
    {"pfnCreateRasterizerState", EntryStatus::Partial,
     "conservative rasterization on: GetCaps (D3D11_OPTIONS2) reports no tier; E_NOTIMPL rather than a state "
     "without it",
     kWddm2},
    {"pfnCreateResource", EntryStatus::Partial,
     "a TextureLayout other than UNDEFINED (GetCaps TEXTURE_LAYOUT: no standard swizzle, no device-dependent "
     "layout) and HW_PROTECTED/CONTAINS_HW_PROTECTED resources (no content protection) are refused with "
     "E_INVALIDARG, as TILED in WDDM 1.3: created plain they would lose their meaning",
     kWddm2},
    {"pfnSetHardwareProtection", EntryStatus::Unsupported,
     "hardware content protection: Triton offers no video device or protected resource (CreateResource refuses "
     "HW_PROTECTED); E_NOTIMPL",
     kWddm2},
    {"pfnSetHardwareProtectionState", EntryStatus::Partial,
     "enabling protection (E_NOTIMPL, as pfnSetHardwareProtection); disabling it is what the device already is",
     kWddm2},
    {"pfnGetResourceLayout", EntryStatus::Unsupported,
     "resource layouts are the target's and opaque (GetCaps TEXTURE_LAYOUT reports none, CreateResource refuses "
     "other layouts): answers UNDEFINED, no allocation, zeroed subresources, and E_NOTIMPL",
     kWddm2},
    {"pfnRetrieveShaderComment", EntryStatus::NothingToDo,
     "Triton's driver compiles no shader itself (the target does): the comment is empty (S_OK, one NUL)", kWddm2},
    {"pfnAcquireResource", EntryStatus::NothingToDo,
     "acquiring a shared resource needs nothing of the target: the previous owner's release submitted its work; "
     "ordering between devices is the sharing layer's",
     kWddm2},
    {"pfnReleaseResource", EntryStatus::Translated,
     "submits this device's work (the target context's Flush), as ResolveSharedResource", kWddm2},
    // Device tables (D3D11.0, D3D11.1, WDDM 1.3 and 2.x)
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
     "a drawn blit (stretch, conversion, rotation, also of a resolve) between formats the draw cannot use: a source "
     "format the target does not sample (typeless, depth), a destination format it does not render to "
     "(block-compressed, ...): E_NOTIMPL; other bindings go through scratch textures"},
    {"pfnBlt1", EntryStatus::Partial, "as pfnBlt"},
    {"pfnGetMultiplaneOverlayCaps", EntryStatus::Unsupported,
     "Triton has no overlay planes (filled because IS_DXGI_MULTIPLANE_OVERLAY_FUNCTIONS holds for the 11.1 "
     "interface; nothing reports overlays, so the runtime has no reason to call it)"},
    {"pfnGetMultiplaneOverlayFilterRange", EntryStatus::Unsupported, "no overlay planes, as pfnGetMultiplaneOverlayCaps"},
    {"pfnCheckMultiplaneOverlaySupport", EntryStatus::Unsupported, "no overlay planes, as pfnGetMultiplaneOverlayCaps"},
    {"pfnPresentMultiplaneOverlay", EntryStatus::Unsupported, "no overlay planes, as pfnGetMultiplaneOverlayCaps"},
    {"pfnGetMultiplaneOverlayGroupCaps", EntryStatus::Unsupported,
     "no overlay planes, as pfnGetMultiplaneOverlayCaps (DXGI 1.3 table)"},
    {"pfnReserved1", EntryStatus::NotOffered, "reserved member of the DXGI 1.3 and later tables: stays null"},
    {"pfnReserved2", EntryStatus::NotOffered, "reserved member of the DXGI 1.3 and later tables: stays null"},
    // DXGI 1.4 (WDDM 2.0) and 1.5 (WDDM 2.1) tables (dxgi_tables.cpp)
    {"pfnTrimResidencySet", EntryStatus::NothingToDo,
     "Triton makes nothing resident (its resources are the target's, without kernel allocations; it never calls "
     "pfnMakeResidentCb): the residency set is empty, whatever the trim flags ask (S_OK)"},
    {"pfnCheckMultiplaneOverlayColorSpaceSupport", EntryStatus::Unsupported,
     "no overlay planes, as pfnGetMultiplaneOverlayCaps (DXGI 1.4 table)"},
    {"pfnPresentMultiplaneOverlay1", EntryStatus::Unsupported,
     "no overlay planes, as pfnGetMultiplaneOverlayCaps (DXGI 1.4 table)"},
    {"pfnOfferResources1", EntryStatus::Translated,
     "as pfnOfferResources: offered contents are kept (AllowDecommit included), which the reference always allows"},
    {"pfnReclaimResources1", EntryStatus::Translated,
     "as pfnReclaimResources: every result is D3DDDI_RECLAIM_RESULT_OK (contents kept, memory committed)"},
    {"pfnCheckPresentDurationSupport", EntryStatus::NothingToDo,
     "no custom present durations (the host presenter has no refresh rates): answers 0 and 0, the documented "
     "\"cannot switch seamlessly\""},
};

}  // namespace

std::span<const EntryNote> entryNotes() { return kNotes; }

const EntryNote* entryNoteFor(const char* table, const char* member) {
  for (const EntryNote& note : kNotes)
    if (std::strcmp(note.member, member) == 0 &&
        (!note.tables || std::strncmp(table, note.tables, std::strlen(note.tables)) == 0))
      return &note;
  return nullptr;
}

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
