// SPDX-License-Identifier: MIT
// The device and DXGI tables Triton hands the runtime. Every member gets an entry:
// the table tests check that no slot stays null.

#include <cstddef>
#include <cstring>

#include "default_state_filter.h"
#include "device.h"
#include "dxgi_tables.h"
#include "entries.h"

namespace triton::driver {
namespace {

using namespace entry;

// Members whose type is the same in the D3D11.0 and D3D11.1 tables.
template <class Table>
void fillShared(Table& t) {
  t.pfnPsSetShaderResources = psSetShaderResources;
  t.pfnPsSetShader = psSetShader;
  t.pfnPsSetSamplers = psSetSamplers;
  t.pfnVsSetShader = vsSetShader;
  t.pfnDrawIndexed = drawIndexed;
  t.pfnDraw = draw;
  t.pfnDynamicIABufferMapNoOverwrite = resourceMap;
  t.pfnDynamicIABufferUnmap = resourceUnmap;
  t.pfnDynamicConstantBufferMapDiscard = resourceMap;
  t.pfnDynamicIABufferMapDiscard = resourceMap;
  t.pfnDynamicConstantBufferUnmap = resourceUnmap;
  t.pfnIaSetInputLayout = iaSetInputLayout;
  t.pfnIaSetVertexBuffers = iaSetVertexBuffers;
  t.pfnIaSetIndexBuffer = iaSetIndexBuffer;
  t.pfnDrawIndexedInstanced = drawIndexedInstanced;
  t.pfnDrawInstanced = drawInstanced;
  t.pfnDynamicResourceMapDiscard = resourceMap;
  t.pfnDynamicResourceUnmap = resourceUnmap;
  t.pfnGsSetShader = gsSetShader;
  t.pfnIaSetTopology = iaSetTopology;
  t.pfnStagingResourceMap = resourceMap;
  t.pfnStagingResourceUnmap = resourceUnmap;
  t.pfnVsSetShaderResources = vsSetShaderResources;
  t.pfnVsSetSamplers = vsSetSamplers;
  t.pfnGsSetShaderResources = gsSetShaderResources;
  t.pfnGsSetSamplers = gsSetSamplers;
  t.pfnSetRenderTargets = setRenderTargets;
  t.pfnShaderResourceViewReadAfterWriteHazard = shaderResourceViewReadAfterWriteHazard;
  t.pfnResourceReadAfterWriteHazard = resourceReadAfterWriteHazard;
  t.pfnSetBlendState = setBlendState;
  t.pfnSetDepthStencilState = setDepthStencilState;
  t.pfnSetRasterizerState = setRasterizerState;
  t.pfnQueryEnd = queryEnd;
  t.pfnQueryBegin = queryBegin;
  t.pfnSoSetTargets = soSetTargets;
  t.pfnDrawAuto = drawAuto;
  t.pfnSetViewports = setViewports;
  t.pfnSetScissorRects = setScissorRects;
  t.pfnClearRenderTargetView = clearRenderTargetView;
  t.pfnClearDepthStencilView = clearDepthStencilView;
  t.pfnSetPredication = setPredication;
  t.pfnQueryGetData = queryGetData;
  t.pfnGenMips = genMips;
  t.pfnResourceCopy = resourceCopy;
  t.pfnResourceResolveSubresource = resourceResolveSubresource;
  t.pfnResourceMap = resourceMap;
  t.pfnResourceUnmap = resourceUnmap;
  t.pfnResourceIsStagingBusy = resourceIsStagingBusy;
  t.pfnCalcPrivateResourceSize = calcPrivateResourceSize;
  t.pfnCalcPrivateOpenedResourceSize = calcPrivateOpenedResourceSize;
  t.pfnCreateResource = createResource;
  t.pfnOpenResource = openResource;
  t.pfnDestroyResource = destroyResource;
  t.pfnCalcPrivateElementLayoutSize = calcPrivateElementLayoutSize;
  t.pfnCreateElementLayout = createElementLayout;
  t.pfnDestroyElementLayout = destroyElementLayout;
  t.pfnDestroyBlendState = destroyBlendState;
  t.pfnCalcPrivateDepthStencilStateSize = calcPrivateDepthStencilStateSize;
  t.pfnCreateDepthStencilState = createDepthStencilState;
  t.pfnDestroyDepthStencilState = destroyDepthStencilState;
  t.pfnDestroyRasterizerState = destroyRasterizerState;
  t.pfnDestroyShader = destroyShader;
  t.pfnCalcPrivateSamplerSize = calcPrivateSamplerSize;
  t.pfnCreateSampler = createSampler;
  t.pfnDestroySampler = destroySampler;
  t.pfnCalcPrivateQuerySize = calcPrivateQuerySize;
  t.pfnCreateQuery = createQuery;
  t.pfnDestroyQuery = destroyQuery;
  t.pfnCheckFormatSupport = checkFormatSupport;
  t.pfnCheckMultisampleQualityLevels = checkMultisampleQualityLevels;
  t.pfnCheckCounterInfo = checkCounterInfo;
  t.pfnCheckCounter = checkCounter;
  t.pfnDestroyDevice = destroyDevice;
  t.pfnSetTextFilterSize = setTextFilterSize;
  t.pfnResourceConvert = resourceCopy;   // the target's copies convert within a format family
  t.pfnDrawIndexedInstancedIndirect = drawIndexedInstancedIndirect;
  t.pfnDrawInstancedIndirect = drawInstancedIndirect;
  t.pfnCommandListExecute = commandListExecute;
  t.pfnHsSetShaderResources = hsSetShaderResources;
  t.pfnHsSetShader = hsSetShader;
  t.pfnHsSetSamplers = hsSetSamplers;
  t.pfnDsSetShaderResources = dsSetShaderResources;
  t.pfnDsSetShader = dsSetShader;
  t.pfnDsSetSamplers = dsSetSamplers;
  t.pfnCheckDeferredContextHandleSizes = checkDeferredContextHandleSizes;
  t.pfnCalcDeferredContextHandleSize = calcDeferredContextHandleSize;
  t.pfnCalcPrivateDeferredContextSize = calcPrivateDeferredContextSize;
  t.pfnCreateDeferredContext = createDeferredContext;
  t.pfnAbandonCommandList = abandonCommandList;
  t.pfnCalcPrivateCommandListSize = calcPrivateCommandListSize;
  t.pfnCreateCommandList = createCommandList;
  t.pfnDestroyCommandList = destroyCommandList;
  t.pfnPsSetShaderWithIfaces = psSetShaderWithIfaces;
  t.pfnVsSetShaderWithIfaces = vsSetShaderWithIfaces;
  t.pfnGsSetShaderWithIfaces = gsSetShaderWithIfaces;
  t.pfnHsSetShaderWithIfaces = hsSetShaderWithIfaces;
  t.pfnDsSetShaderWithIfaces = dsSetShaderWithIfaces;
  t.pfnCsSetShaderWithIfaces = csSetShaderWithIfaces;
  t.pfnCreateComputeShader = createComputeShader;
  t.pfnCsSetShader = csSetShader;
  t.pfnCsSetShaderResources = csSetShaderResources;
  t.pfnCsSetSamplers = csSetSamplers;
  t.pfnClearUnorderedAccessViewUint = clearUnorderedAccessViewUint;
  t.pfnClearUnorderedAccessViewFloat = clearUnorderedAccessViewFloat;
  t.pfnCsSetUnorderedAccessViews = csSetUnorderedAccessViews;
  t.pfnDispatch = dispatch;
  t.pfnDispatchIndirect = dispatchIndirect;
  t.pfnSetResourceMinLOD = setResourceMinLOD;
  t.pfnCopyStructureCount = copyStructureCount;
  t.pfnRecycleCommandList = recycleCommandList;
  t.pfnRecycleCreateCommandList = recycleCreateCommandList;
  t.pfnRecycleCreateDeferredContext = recycleCreateDeferredContext;
  t.pfnRecycleDestroyCommandList = recycleDestroyCommandList;
}

void fill(ddi::D3D11DDI_DEVICEFUNCS& t) {
  fillShared(t);
  fillViewCreation(t);
  fillShaderCreation(t);
  t.pfnDefaultConstantBufferUpdateSubresourceUP = resourceUpdateSubresourceUP;
  t.pfnVsSetConstantBuffers = vsSetConstantBuffers;
  t.pfnPsSetConstantBuffers = psSetConstantBuffers;
  t.pfnGsSetConstantBuffers = gsSetConstantBuffers;
  t.pfnHsSetConstantBuffers = hsSetConstantBuffers;
  t.pfnDsSetConstantBuffers = dsSetConstantBuffers;
  t.pfnCsSetConstantBuffers = csSetConstantBuffers;
  t.pfnResourceCopyRegion = resourceCopyRegion;
  t.pfnResourceUpdateSubresourceUP = resourceUpdateSubresourceUP;
  t.pfnFlush = flush;
  t.pfnRelocateDeviceFuncs = relocateDeviceFuncs11;
  t.pfnCalcPrivateBlendStateSize = calcPrivateBlendStateSize10_1;
  t.pfnCreateBlendState = createBlendState10_1;
  t.pfnCalcPrivateRasterizerStateSize = calcPrivateRasterizerStateSize;
  t.pfnCreateRasterizerState = createRasterizerState;
  t.pfnResourceConvertRegion = resourceCopyRegion;
  filterDefaultStateSetters(t);
}

void fill(ddi::D3D11_1DDI_DEVICEFUNCS& t) {
  fillShared(t);
  fillViewCreation(t);
  fillShaderCreation(t);
  t.pfnDefaultConstantBufferUpdateSubresourceUP = resourceUpdateSubresourceUP11_1;
  t.pfnVsSetConstantBuffers = vsSetConstantBuffers11_1;
  t.pfnPsSetConstantBuffers = psSetConstantBuffers11_1;
  t.pfnGsSetConstantBuffers = gsSetConstantBuffers11_1;
  t.pfnHsSetConstantBuffers = hsSetConstantBuffers11_1;
  t.pfnDsSetConstantBuffers = dsSetConstantBuffers11_1;
  t.pfnCsSetConstantBuffers = csSetConstantBuffers11_1;
  t.pfnResourceCopyRegion = resourceCopyRegion11_1;
  t.pfnResourceUpdateSubresourceUP = resourceUpdateSubresourceUP11_1;
  t.pfnFlush = flush11_1;
  t.pfnRelocateDeviceFuncs = relocateDeviceFuncs11_1;
  t.pfnCalcPrivateBlendStateSize = calcPrivateBlendStateSize11_1;
  t.pfnCreateBlendState = createBlendState11_1;
  t.pfnCalcPrivateRasterizerStateSize = calcPrivateRasterizerStateSize11_1;
  t.pfnCreateRasterizerState = createRasterizerState11_1;
  t.pfnResourceConvertRegion = resourceCopyRegion11_1;
  t.pfnDiscard = discard;
  t.pfnAssignDebugBinary = assignDebugBinary;
  t.pfnDynamicConstantBufferMapNoOverwrite = resourceMap;
  t.pfnCheckDirectFlipSupport = checkDirectFlipSupport;
  t.pfnClearView = clearView;
  filterDefaultStateSetters(t);
}

// The WDDM 1.3 table is the 11.1 table with two members retyped and nine appended
// (the table-order test checks the shared prefix member by member): the 11.1 entries,
// the default-state filter included, are filled through the 11.1 type and copied over.
void fill(ddi::D3DWDDM1_3DDI_DEVICEFUNCS& t) {
  static_assert(offsetof(ddi::D3DWDDM1_3DDI_DEVICEFUNCS, pfnUpdateTileMappings) == sizeof(ddi::D3D11_1DDI_DEVICEFUNCS));
  ddi::D3D11_1DDI_DEVICEFUNCS prefix{};
  fill(prefix);
  std::memcpy(&t, &prefix, sizeof(prefix));
  t.pfnRelocateDeviceFuncs = relocateDeviceFuncsWddm1_3;
  t.pfnCheckMultisampleQualityLevels = checkMultisampleQualityLevelsWddm1_3;
  t.pfnUpdateTileMappings = updateTileMappings;
  t.pfnCopyTileMappings = copyTileMappings;
  t.pfnCopyTiles = copyTiles;
  t.pfnUpdateTiles = updateTiles;
  t.pfnTiledResourceBarrier = tiledResourceBarrier;
  t.pfnGetMipPacking = getMipPacking;
  t.pfnResizeTilePool = resizeTilePool;
  t.pfnSetMarker = setMarker;
  t.pfnSetMarkerMode = setMarkerMode;
}

// The WDDM 2.0 table is the 1.3 table with twelve members retyped in place and four
// appended (tables.h): the 1.3 entries fill the shared prefix, the 2.0 ones
// (ddi_wddm2_0.cpp) the retyped and appended members.
void fill(ddi::D3DWDDM2_0DDI_DEVICEFUNCS& t) {
  static_assert(offsetof(ddi::D3DWDDM2_0DDI_DEVICEFUNCS, pfnSetHardwareProtection) ==
                sizeof(ddi::D3DWDDM1_3DDI_DEVICEFUNCS));
  ddi::D3DWDDM1_3DDI_DEVICEFUNCS prefix{};
  fill(prefix);
  std::memcpy(&t, &prefix, sizeof(prefix));
  t.pfnFlush = flushWddm2_0;
  t.pfnRelocateDeviceFuncs = relocateDeviceFuncsWddm2_0;
  t.pfnCreateResource = createResourceWddm2_0;
  t.pfnCalcPrivateShaderResourceViewSize = calcPrivateShaderResourceViewSizeWddm2_0;
  t.pfnCreateShaderResourceView = createShaderResourceViewWddm2_0;
  t.pfnCalcPrivateRenderTargetViewSize = calcPrivateRenderTargetViewSizeWddm2_0;
  t.pfnCreateRenderTargetView = createRenderTargetViewWddm2_0;
  t.pfnCalcPrivateRasterizerStateSize = calcPrivateRasterizerStateSizeWddm2_0;
  t.pfnCreateRasterizerState = createRasterizerStateWddm2_0;
  t.pfnCalcPrivateQuerySize = calcPrivateQuerySizeWddm2_0;
  t.pfnCreateQuery = createQueryWddm2_0;
  t.pfnCalcPrivateUnorderedAccessViewSize = calcPrivateUnorderedAccessViewSizeWddm2_0;
  t.pfnCreateUnorderedAccessView = createUnorderedAccessViewWddm2_0;
  t.pfnSetHardwareProtection = setHardwareProtection;
  t.pfnGetResourceLayout = getResourceLayout;
  t.pfnRetrieveShaderComment = retrieveShaderComment;
  t.pfnSetHardwareProtectionState = setHardwareProtectionState;
}

// WDDM 2.1: the 2.0 table with its own RelocateDeviceFuncs and two members appended.
void fill(ddi::D3DWDDM2_1DDI_DEVICEFUNCS& t) {
  static_assert(offsetof(ddi::D3DWDDM2_1DDI_DEVICEFUNCS, pfnAcquireResource) ==
                sizeof(ddi::D3DWDDM2_0DDI_DEVICEFUNCS));
  ddi::D3DWDDM2_0DDI_DEVICEFUNCS prefix{};
  fill(prefix);
  std::memcpy(&t, &prefix, sizeof(prefix));
  t.pfnRelocateDeviceFuncs = relocateDeviceFuncsWddm2_1;
  t.pfnAcquireResource = acquireResource;
  t.pfnReleaseResource = releaseResource;
}

template <class DxgiTable>
void fillDxgiBase(DxgiTable& t) {
  t.pfnPresent = dxgiPresent;
  t.pfnGetGammaCaps = dxgiGetGammaCaps;
  t.pfnSetDisplayMode = dxgiSetDisplayMode;
  t.pfnSetResourcePriority = dxgiSetResourcePriority;
  t.pfnQueryResourceResidency = dxgiQueryResourceResidency;
  t.pfnRotateResourceIdentities = dxgiRotateResourceIdentities;
  t.pfnBlt = dxgiBlt;
}

}  // namespace

void fillDeferredContextTable(ddi::DeviceTableKind kind, const ddi::D3D11DDIARG_CREATEDEFERREDCONTEXT& args) {
  // A deferred context takes the device's entries: each one works on whichever
  // context its handle names.
  if (kind == ddi::DeviceTableKind::WDDM2_1)
    fill(*args.pWDDM2_1ContextFuncs);
  else if (kind == ddi::DeviceTableKind::WDDM2_0)
    fill(*args.pWDDM2_0ContextFuncs);
  else if (kind == ddi::DeviceTableKind::WDDM1_3)
    fill(*args.pWDDM1_3ContextFuncs);
  else if (kind == ddi::DeviceTableKind::D3D11_1)
    fill(*args.p11_1ContextFuncs);
  else
    fill(*args.p11ContextFuncs);
}

bool fillDeviceTables(ddi::D3D10DDIARG_CREATEDEVICE& args) {
  switch (ddi::deviceTableFor(args.Interface)) {
    case ddi::DeviceTableKind::D3D11_0:
      if (!args.p11DeviceFuncs)
        return false;
      fill(*args.p11DeviceFuncs);
      break;
    case ddi::DeviceTableKind::D3D11_1:
      if (!args.p11_1DeviceFuncs)
        return false;
      fill(*args.p11_1DeviceFuncs);
      break;
    case ddi::DeviceTableKind::WDDM1_3:
      if (!args.pWDDM1_3DeviceFuncs)
        return false;
      fill(*args.pWDDM1_3DeviceFuncs);
      break;
    case ddi::DeviceTableKind::WDDM2_0:
      if (!args.pWDDM2_0DeviceFuncs)
        return false;
      fill(*args.pWDDM2_0DeviceFuncs);
      break;
    case ddi::DeviceTableKind::WDDM2_1:
      if (!args.pWDDM2_1DeviceFuncs)
        return false;
      fill(*args.pWDDM2_1DeviceFuncs);
      break;
    default:
      return false;
  }
  // The DXGI table follows the WDK's IS_DXGI1_x_BASE_FUNCTIONS tests on (Interface,
  // Version): the runtime allocated exactly that table, so nothing past its end is written.
  switch (ddi::dxgiTableFor(args.Interface, args.Version)) {
    case ddi::DxgiTableKind::Dxgi1_0:
      if (ddi::DXGI_DDI_BASE_FUNCTIONS* t = args.DXGIBaseDDI.pDXGIDDIBaseFunctions)
        fillDxgiBase(*t);
      break;
    case ddi::DxgiTableKind::Dxgi1_1:
      if (ddi::DXGI1_1_DDI_BASE_FUNCTIONS* t = args.DXGIBaseDDI.pDXGIDDIBaseFunctions2) {
        fillDxgiBase(*t);
        t->pfnResolveSharedResource = dxgiResolveSharedResource;
      }
      break;
    case ddi::DxgiTableKind::Dxgi1_2:
      if (ddi::DXGI1_2_DDI_BASE_FUNCTIONS* t = args.DXGIBaseDDI.pDXGIDDIBaseFunctions3) {
        fillDxgiBase(*t);
        t->pfnResolveSharedResource = dxgiResolveSharedResource;
        t->pfnBlt1 = dxgiBlt1;
        t->pfnOfferResources = dxgiOfferResources;
        t->pfnReclaimResources = dxgiReclaimResources;
        // IS_DXGI_MULTIPLANE_OVERLAY_FUNCTIONS holds for the released 11.1 interface: the
        // four overlay members are the driver's to fill. Triton has no overlay planes;
        // the entries refuse, so a caller that assumes them finds an answer, not null.
        if (ddi::isDxgiMultiplaneOverlayFunctions(args.Interface, args.Version)) {
          t->pfnGetMultiplaneOverlayCaps = dxgiGetMultiplaneOverlayCaps;
          t->pfnGetMultiplaneOverlayFilterRange = dxgiGetMultiplaneOverlayFilterRange;
          t->pfnCheckMultiplaneOverlaySupport = dxgiCheckMultiplaneOverlaySupport;
          t->pfnPresentMultiplaneOverlay = dxgiPresentMultiplaneOverlay;
        }
      }
      break;
    case ddi::DxgiTableKind::Dxgi1_3:
      if (ddi::DXGI1_3_DDI_BASE_FUNCTIONS* t = args.DXGIBaseDDI.pDXGIDDIBaseFunctions4) {
        fillDxgiBase(*t);
        t->pfnResolveSharedResource = dxgiResolveSharedResource;
        t->pfnBlt1 = dxgiBlt1;
        t->pfnOfferResources = dxgiOfferResources;
        t->pfnReclaimResources = dxgiReclaimResources;
        // No overlay planes (as the 1.2 table's overlay members); the two reserved
        // members stay null.
        t->pfnGetMultiplaneOverlayCaps = dxgiGetMultiplaneOverlayCaps;
        t->pfnGetMultiplaneOverlayGroupCaps = dxgiGetMultiplaneOverlayGroupCaps;
        t->pfnPresentMultiplaneOverlay = dxgiPresentMultiplaneOverlay;
        t->pfnPresent1 = dxgiPresent1;
        t->pfnCheckPresentDurationSupport = dxgiCheckPresentDurationSupport;
      }
      break;
    // The WDDM 2.x DXGI tables are filled by dxgi_tables.cpp.
    case ddi::DxgiTableKind::Dxgi1_4:
      if (ddi::DXGI1_4_DDI_BASE_FUNCTIONS* t = args.DXGIBaseDDI.pDXGIDDIBaseFunctions5)
        fillDxgi1_4Functions(*t);
      break;
    case ddi::DxgiTableKind::Dxgi1_5:
      if (ddi::DXGI1_5_DDI_BASE_FUNCTIONS* t = args.DXGIBaseDDI.pDXGIDDIBaseFunctions6)
        fillDxgi1_5Functions(*t);
      break;
  }
  return true;
}

}  // namespace triton::driver
