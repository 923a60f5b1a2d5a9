#include "entry_status.h"

namespace triton::driver {
namespace {

constexpr EntryNote kNotes[] = {
    // Device tables (D3D11.0 and D3D11.1)
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
