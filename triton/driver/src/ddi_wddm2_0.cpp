// SPDX-License-Identifier: MIT
// The members the WDDM 2.0 (Windows 10) device table retypes or appends, and WDDM 2.1's
// two appended ones. The 2.0 table is the 1.3 one with twelve members retyped in place:
// each of those takes the 2.0 arguments, checks what they add and hands the rest to the
// 1.3 entry (the 2.0 arguments are the older ones with a word appended). What the
// additions ask for Triton either translates (a query or a flush naming engines: the
// target has one queue that does every engine's work, in order) or reports absent
// through GetCaps and refuses if asked anyway (E_NOTIMPL through pfnSetErrorCb):
//   * a non-zero plane slice (the second plane of a planar format; the API form is
//     ID3D11Device3's *1 views, not translated),
//   * conservative rasterization (D3DWDDM2_0DDICAPS_D3D11_OPTIONS2: no tier),
//   * hardware content protection (no video device, no protected resources),
//   * resource layouts (D3DWDDM2_0DDICAPS_TEXTURE_LAYOUT: no standard swizzle, no
//     device-dependent layout; CreateResource refuses any TextureLayout but UNDEFINED).

#include <atomic>
#include <cstring>

#include "device.h"
#include "entries.h"
#include "log.h"

namespace triton::driver {
namespace {

// Logs a refusal once per entry and reports E_NOTIMPL.
void refuse(ddi::D3D10DDI_HDEVICE hDevice, std::atomic<bool>& logged, const char* what) {
  if (!logged.exchange(true))
    TRITON_LOG(Warn, "%s: not supported (reported absent through GetCaps; E_NOTIMPL)", what);
  deviceOf(hDevice)->setError(E_NOTIMPL);
}

// The view entries of the 11.1 table: the 2.0 ones convert their arguments and call these.
const ddi::D3D11_1DDI_DEVICEFUNCS& viewEntries() {
  static const ddi::D3D11_1DDI_DEVICEFUNCS table = [] {
    ddi::D3D11_1DDI_DEVICEFUNCS t{};
    fillViewCreation(t);
    return t;
  }();
  return table;
}

// The 2.0 view arguments with the plane slice moved out: everything before the union is
// the same, the union is the older one's plus PlaneSlice after the Tex2D member.
template <class Older, class Wddm2_0>
bool olderViewArgs(const Wddm2_0& a, Older& out, UINT* planeSlice) {
  static_assert(offsetof(Older, Tex1D) == offsetof(Wddm2_0, Tex1D));
  static_assert(sizeof(Wddm2_0) - offsetof(Wddm2_0, Tex1D) >= sizeof(Older) - offsetof(Older, Tex1D));
  out = {};
  out.hDrvResource = a.hDrvResource;
  out.Format = a.Format;
  out.ResourceDimension = a.ResourceDimension;
  std::memcpy(&out.Tex1D, &a.Tex1D, sizeof(Older) - offsetof(Older, Tex1D));
  *planeSlice = a.ResourceDimension == ddi::D3D10DDIRESOURCE_TEXTURE2D ? a.Tex2D.PlaneSlice : 0;
  return true;
}

std::atomic<bool> planeLogged{false};

template <class Older, class Wddm2_0, class Handle, class RtHandle>
void createViewWddm2_0(ddi::D3D10DDI_HDEVICE hDevice, const Wddm2_0* a, Handle hView, RtHandle hRt,
                       void(TRITON_APIENTRY* create)(ddi::D3D10DDI_HDEVICE, const Older*, Handle, RtHandle)) {
  if (!a) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  Older older;
  UINT plane = 0;
  olderViewArgs(*a, older, &plane);
  if (plane != 0) {
    // Nothing is constructed: a failed create leaves nothing for Destroy*.
    refuse(hDevice, planeLogged, "a view of plane 1+ of a planar format");
    return;
  }
  create(hDevice, &older, hView, hRt);
}

std::atomic<bool> conservativeLogged{false};
std::atomic<bool> protectionLogged{false};
std::atomic<bool> layoutLogged{false};

// Engines a 2.0 flush or query may name.
constexpr UINT kContextTypes = ddi::D3DWDDM2_0DDI_CONTEXTTYPE_3D | ddi::D3DWDDM2_0DDI_CONTEXTTYPE_COMPUTE |
                               ddi::D3DWDDM2_0DDI_CONTEXTTYPE_COPY | ddi::D3DWDDM2_0DDI_CONTEXTTYPE_VIDEO;

}  // namespace

namespace entry {

void TRITON_APIENTRY relocateDeviceFuncsWddm2_0(ddi::D3D10DDI_HDEVICE, ddi::D3DWDDM2_0DDI_DEVICEFUNCS*) {
  // Triton keeps no pointer into the runtime's table.
}

void TRITON_APIENTRY relocateDeviceFuncsWddm2_1(ddi::D3D10DDI_HDEVICE, ddi::D3DWDDM2_1DDI_DEVICEFUNCS*) {}

// The target has one queue for all engines: flushing it flushes whichever the runtime
// names (ALL is 0). Undefined engine bits are refused.
BOOL TRITON_APIENTRY flushWddm2_0(ddi::D3D10DDI_HDEVICE hDevice, UINT contextType, UINT flushFlags) {
  if (contextType & ~kContextTypes) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return FALSE;
  }
  return flush11_1(hDevice, flushFlags);
}

SIZE_T TRITON_APIENTRY calcPrivateShaderResourceViewSizeWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                               const ddi::D3DWDDM2_0DDIARG_CREATESHADERRESOURCEVIEW*) {
  return viewEntries().pfnCalcPrivateShaderResourceViewSize(hDevice, nullptr);
}

void TRITON_APIENTRY createShaderResourceViewWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                     const ddi::D3DWDDM2_0DDIARG_CREATESHADERRESOURCEVIEW* a,
                                                     ddi::D3D10DDI_HSHADERRESOURCEVIEW hView,
                                                     ddi::D3D10DDI_HRTSHADERRESOURCEVIEW hRt) {
  createViewWddm2_0(hDevice, a, hView, hRt, viewEntries().pfnCreateShaderResourceView);
}

SIZE_T TRITON_APIENTRY calcPrivateRenderTargetViewSizeWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                             const ddi::D3DWDDM2_0DDIARG_CREATERENDERTARGETVIEW*) {
  return viewEntries().pfnCalcPrivateRenderTargetViewSize(hDevice, nullptr);
}

void TRITON_APIENTRY createRenderTargetViewWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                   const ddi::D3DWDDM2_0DDIARG_CREATERENDERTARGETVIEW* a,
                                                   ddi::D3D10DDI_HRENDERTARGETVIEW hView,
                                                   ddi::D3D10DDI_HRTRENDERTARGETVIEW hRt) {
  createViewWddm2_0(hDevice, a, hView, hRt, viewEntries().pfnCreateRenderTargetView);
}

SIZE_T TRITON_APIENTRY calcPrivateUnorderedAccessViewSizeWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                                const ddi::D3DWDDM2_0DDIARG_CREATEUNORDEREDACCESSVIEW*) {
  return viewEntries().pfnCalcPrivateUnorderedAccessViewSize(hDevice, nullptr);
}

void TRITON_APIENTRY createUnorderedAccessViewWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                      const ddi::D3DWDDM2_0DDIARG_CREATEUNORDEREDACCESSVIEW* a,
                                                      ddi::D3D11DDI_HUNORDEREDACCESSVIEW hView,
                                                      ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW hRt) {
  createViewWddm2_0(hDevice, a, hView, hRt, viewEntries().pfnCreateUnorderedAccessView);
}

SIZE_T TRITON_APIENTRY calcPrivateRasterizerStateSizeWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                            const ddi::D3DWDDM2_0DDI_RASTERIZER_DESC*) {
  return calcPrivateRasterizerStateSize11_1(hDevice, nullptr);
}

// The 11.1 description is this one's prefix. Conservative rasterization has no tier in
// GetCaps; a state asking for it is refused rather than created without it.
void TRITON_APIENTRY createRasterizerStateWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                  const ddi::D3DWDDM2_0DDI_RASTERIZER_DESC* desc,
                                                  ddi::D3D10DDI_HRASTERIZERSTATE hState,
                                                  ddi::D3D10DDI_HRTRASTERIZERSTATE hRt) {
  static_assert(offsetof(ddi::D3DWDDM2_0DDI_RASTERIZER_DESC, ConservativeRasterizationMode) ==
                sizeof(ddi::D3D11_1_DDI_RASTERIZER_DESC));
  if (!desc) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  if (desc->ConservativeRasterizationMode != ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_OFF) {
    refuse(hDevice, conservativeLogged, "CreateRasterizerState with conservative rasterization");
    return;
  }
  ddi::D3D11_1_DDI_RASTERIZER_DESC older;
  std::memcpy(&older, desc, sizeof(older));
  createRasterizerState11_1(hDevice, &older, hState, hRt);
}

SIZE_T TRITON_APIENTRY calcPrivateQuerySizeWddm2_0(ddi::D3D10DDI_HDEVICE hDevice,
                                                  const ddi::D3DWDDM2_0DDIARG_CREATEQUERY*) {
  return calcPrivateQuerySize(hDevice, nullptr);
}

// The engines a query watches: the target's one queue runs every engine's work in
// submission order, so a query ended there covers the engines the runtime names.
void TRITON_APIENTRY createQueryWddm2_0(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3DWDDM2_0DDIARG_CREATEQUERY* a,
                                        ddi::D3D10DDI_HQUERY hQuery, ddi::D3D10DDI_HRTQUERY hRt) {
  if (!a || (a->ContextType & ~kContextTypes)) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  const ddi::D3D10DDIARG_CREATEQUERY older{a->Query, a->MiscFlags};
  createQuery(hDevice, &older, hQuery, hRt);
}

// Resources of a WDDM 2.0 device: the runtime's structure carries TextureLayout and the
// 2.0 misc flags. Layouts other than UNDEFINED (GetCaps offers none) and hardware-
// protected resources (no content protection) are refused: created plain they would
// lose their meaning. DISPLAYABLE_SURFACE is a hint that the surface may be scanned out;
// Triton's presents copy, so any texture can be shown.
void TRITON_APIENTRY createResourceWddm2_0(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATERESOURCE* a,
                                           ddi::D3D10DDI_HRESOURCE hResource, ddi::D3D10DDI_HRTRESOURCE hRt) {
  if (a && (a->TextureLayout != ddi::D3DWDDM2_0DDI_TL_UNDEFINED ||
            (a->MiscFlags & (ddi::D3DWDDM2_0DDI_RESOURCE_MISC_HW_PROTECTED |
                             ddi::D3DWDDM2_0DDI_RESOURCE_MISC_CONTAINS_HW_PROTECTED)))) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  createResource(hDevice, a, hResource, hRt);
}

void TRITON_APIENTRY setHardwareProtection(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE, BOOL) {
  refuse(hDevice, protectionLogged, "SetHardwareProtection");
}

// Turning protection off is what a device without it already is; turning it on is refused.
void TRITON_APIENTRY setHardwareProtectionState(ddi::D3D10DDI_HDEVICE hDevice, BOOL enable) {
  if (enable)
    refuse(hDevice, protectionLogged, "SetHardwareProtectionState(TRUE)");
}

// Resource layouts are the target's and opaque: the answer written is the one a caller
// that ignores the error can live with (UNDEFINED, no allocation, zeroed subresources).
void TRITON_APIENTRY getResourceLayout(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE, UINT subresourceCount,
                                       ddi::D3DKMT_HANDLE* allocation, ddi::D3DWDDM2_0DDI_TEXTURE_LAYOUT* layout,
                                       UINT* mipLevelSwizzleTransition,
                                       ddi::D3DWDDM2_0DDI_SUBRESOURCE_LAYOUT* subresources) {
  if (allocation)
    *allocation = 0;
  if (layout)
    *layout = ddi::D3DWDDM2_0DDI_TL_UNDEFINED;
  if (mipLevelSwizzleTransition)
    *mipLevelSwizzleTransition = 0;
  if (subresources)
    std::memset(subresources, 0, sizeof(*subresources) * subresourceCount);
  refuse(hDevice, layoutLogged, "GetResourceLayout");
}

// The comment a driver's compiler left on a shader (tools show it). Triton compiles
// nothing itself (the target does): the comment is empty. Too small a buffer gets the
// length it needs, as the runtime's other string queries.
HRESULT TRITON_APIENTRY retrieveShaderComment(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HSHADER hShader, WCHAR* buffer,
                                              SIZE_T* characters) {
  if (!hShader.pDrvPrivate || !characters)
    return E_INVALIDARG;
  const SIZE_T capacity = *characters;
  *characters = 1;
  if (!buffer)
    return S_OK;
  if (capacity < 1)
    return E_INVALIDARG;
  buffer[0] = 0;
  return S_OK;
}

// WDDM 2.1: a resource shared with another device is acquired before use and released
// after, around a sync token the runtime waits on and signals. Release submits this
// device's work on the resource (as ResolveSharedResource), so the next owner sees it;
// acquiring needs nothing more of the target (ordering between devices is the sharing
// layer's).
void TRITON_APIENTRY acquireResource(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HRESOURCE, HANDLE) {}

void TRITON_APIENTRY releaseResource(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE, HANDLE) {
  Device* d = deviceOf(hDevice);
  d->context()->Flush();
  d->checkTargetAlive();
}

}  // namespace entry
}  // namespace triton::driver
