// SPDX-License-Identifier: MIT
// What the runtime does for the WDDM 2.0 interface: its API calls reach the driver
// through the 2.0 table, whose retyped members take the 2.0 arguments. The harness's
// helpers are written against the 11.1 table; for a 2.0 device, the 11.1 copy of the
// table gets, in the retyped slots, these adapters with the 11.1 types, which build the
// 2.0 arguments as the runtime does for an API call without the 2.0 features (plane 0,
// every engine, conservative rasterization off) and call the driver's 2.0 member. So
// every helper, and every test written on them, runs through the 2.0 members unchanged.

#include <cstring>
#include <map>
#include <mutex>

#include "triton/harness/runtime.h"
#include "wddm2_0.h"

namespace triton::harness {
namespace {

std::mutex registryMutex;
// The driver's 2.0 table of each device or deferred context, by its driver handle.
std::map<const void*, const ddi::D3DWDDM2_0DDI_DEVICEFUNCS*>& registry() {
  static std::map<const void*, const ddi::D3DWDDM2_0DDI_DEVICEFUNCS*> tables;
  return tables;
}

const ddi::D3DWDDM2_0DDI_DEVICEFUNCS& tableOf(ddi::D3D10DDI_HDEVICE h) {
  std::lock_guard<std::mutex> lock(registryMutex);
  return *registry().at(h.pDrvPrivate);
}

// The older view arguments with a zero plane slice: the 2.0 union is the older one
// with PlaneSlice after the 2D member.
template <class Wddm2_0, class Older>
Wddm2_0 wddm2_0ViewArgs(const Older* a) {
  Wddm2_0 out{};
  if (!a)
    return out;
  out.hDrvResource = a->hDrvResource;
  out.Format = a->Format;
  out.ResourceDimension = a->ResourceDimension;
  std::memcpy(&out.Tex1D, &a->Tex1D, sizeof(Older) - offsetof(Older, Tex1D));
  return out;
}

BOOL TRITON_APIENTRY flush(ddi::D3D10DDI_HDEVICE h, UINT flags) {
  return tableOf(h).pfnFlush(h, ddi::D3DWDDM2_0DDI_CONTEXTTYPE_ALL, flags);
}

SIZE_T TRITON_APIENTRY calcSrvSize(ddi::D3D10DDI_HDEVICE h, const ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW* a) {
  const auto args = wddm2_0ViewArgs<ddi::D3DWDDM2_0DDIARG_CREATESHADERRESOURCEVIEW>(a);
  return tableOf(h).pfnCalcPrivateShaderResourceViewSize(h, &args);
}

void TRITON_APIENTRY createSrv(ddi::D3D10DDI_HDEVICE h, const ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW* a,
                               ddi::D3D10DDI_HSHADERRESOURCEVIEW view, ddi::D3D10DDI_HRTSHADERRESOURCEVIEW rt) {
  const auto args = wddm2_0ViewArgs<ddi::D3DWDDM2_0DDIARG_CREATESHADERRESOURCEVIEW>(a);
  tableOf(h).pfnCreateShaderResourceView(h, &args, view, rt);
}

SIZE_T TRITON_APIENTRY calcRtvSize(ddi::D3D10DDI_HDEVICE h, const ddi::D3D10DDIARG_CREATERENDERTARGETVIEW* a) {
  const auto args = wddm2_0ViewArgs<ddi::D3DWDDM2_0DDIARG_CREATERENDERTARGETVIEW>(a);
  return tableOf(h).pfnCalcPrivateRenderTargetViewSize(h, &args);
}

void TRITON_APIENTRY createRtv(ddi::D3D10DDI_HDEVICE h, const ddi::D3D10DDIARG_CREATERENDERTARGETVIEW* a,
                               ddi::D3D10DDI_HRENDERTARGETVIEW view, ddi::D3D10DDI_HRTRENDERTARGETVIEW rt) {
  const auto args = wddm2_0ViewArgs<ddi::D3DWDDM2_0DDIARG_CREATERENDERTARGETVIEW>(a);
  tableOf(h).pfnCreateRenderTargetView(h, &args, view, rt);
}

SIZE_T TRITON_APIENTRY calcUavSize(ddi::D3D10DDI_HDEVICE h, const ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW* a) {
  const auto args = wddm2_0ViewArgs<ddi::D3DWDDM2_0DDIARG_CREATEUNORDEREDACCESSVIEW>(a);
  return tableOf(h).pfnCalcPrivateUnorderedAccessViewSize(h, &args);
}

void TRITON_APIENTRY createUav(ddi::D3D10DDI_HDEVICE h, const ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW* a,
                               ddi::D3D11DDI_HUNORDEREDACCESSVIEW view, ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW rt) {
  const auto args = wddm2_0ViewArgs<ddi::D3DWDDM2_0DDIARG_CREATEUNORDEREDACCESSVIEW>(a);
  tableOf(h).pfnCreateUnorderedAccessView(h, &args, view, rt);
}

ddi::D3DWDDM2_0DDI_RASTERIZER_DESC wddm2_0Rasterizer(const ddi::D3D11_1_DDI_RASTERIZER_DESC* d) {
  ddi::D3DWDDM2_0DDI_RASTERIZER_DESC out{};
  if (d)
    std::memcpy(&out, d, sizeof(*d));
  out.ConservativeRasterizationMode = ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_OFF;
  return out;
}

SIZE_T TRITON_APIENTRY calcRasterizerSize(ddi::D3D10DDI_HDEVICE h, const ddi::D3D11_1_DDI_RASTERIZER_DESC* d) {
  const auto desc = wddm2_0Rasterizer(d);
  return tableOf(h).pfnCalcPrivateRasterizerStateSize(h, &desc);
}

void TRITON_APIENTRY createRasterizer(ddi::D3D10DDI_HDEVICE h, const ddi::D3D11_1_DDI_RASTERIZER_DESC* d,
                                      ddi::D3D10DDI_HRASTERIZERSTATE state, ddi::D3D10DDI_HRTRASTERIZERSTATE rt) {
  const auto desc = wddm2_0Rasterizer(d);
  tableOf(h).pfnCreateRasterizerState(h, &desc, state, rt);
}

ddi::D3DWDDM2_0DDIARG_CREATEQUERY wddm2_0Query(const ddi::D3D10DDIARG_CREATEQUERY* a) {
  return a ? ddi::D3DWDDM2_0DDIARG_CREATEQUERY{a->Query, a->MiscFlags, ddi::D3DWDDM2_0DDI_CONTEXTTYPE_ALL}
           : ddi::D3DWDDM2_0DDIARG_CREATEQUERY{};
}

SIZE_T TRITON_APIENTRY calcQuerySize(ddi::D3D10DDI_HDEVICE h, const ddi::D3D10DDIARG_CREATEQUERY* a) {
  const auto args = wddm2_0Query(a);
  return tableOf(h).pfnCalcPrivateQuerySize(h, &args);
}

void TRITON_APIENTRY createQuery(ddi::D3D10DDI_HDEVICE h, const ddi::D3D10DDIARG_CREATEQUERY* a,
                                 ddi::D3D10DDI_HQUERY query, ddi::D3D10DDI_HRTQUERY rt) {
  const auto args = wddm2_0Query(a);
  tableOf(h).pfnCreateQuery(h, &args, query, rt);
}

}  // namespace

void adoptWddm2_0Table(ddi::D3D10DDI_HDEVICE handle, const ddi::D3DWDDM2_0DDI_DEVICEFUNCS& from,
                       ddi::D3D11_1DDI_DEVICEFUNCS& to) {
  static_assert(offsetof(ddi::D3DWDDM2_0DDI_DEVICEFUNCS, pfnUpdateTileMappings) == sizeof(ddi::D3D11_1DDI_DEVICEFUNCS));
  {
    std::lock_guard<std::mutex> lock(registryMutex);
    registry()[handle.pDrvPrivate] = &from;
  }
  std::memcpy(&to, &from, sizeof(to));
  // Retyped with nothing for the 11.1 helpers to adapt: call them through the 2.0 table.
  to.pfnRelocateDeviceFuncs = nullptr;
  to.pfnCheckMultisampleQualityLevels = nullptr;
  to.pfnFlush = flush;
  to.pfnCalcPrivateShaderResourceViewSize = calcSrvSize;
  to.pfnCreateShaderResourceView = createSrv;
  to.pfnCalcPrivateRenderTargetViewSize = calcRtvSize;
  to.pfnCreateRenderTargetView = createRtv;
  to.pfnCalcPrivateUnorderedAccessViewSize = calcUavSize;
  to.pfnCreateUnorderedAccessView = createUav;
  to.pfnCalcPrivateRasterizerStateSize = calcRasterizerSize;
  to.pfnCreateRasterizerState = createRasterizer;
  to.pfnCalcPrivateQuerySize = calcQuerySize;
  to.pfnCreateQuery = createQuery;
}

void forgetWddm2_0Table(ddi::D3D10DDI_HDEVICE handle) {
  std::lock_guard<std::mutex> lock(registryMutex);
  registry().erase(handle.pDrvPrivate);
}

}  // namespace triton::harness
