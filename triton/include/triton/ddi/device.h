// SPDX-License-Identifier: MIT
#pragma once

// Adapter opening and device creation: the structures that carry the tables
// between runtime and driver. The runtime owns every table; the driver fills
// the device table version named by Interface (one union member each) and
// reads the callback tables.

#include "triton/ddi/d3dumddi.h"
#include "triton/ddi/dxgiddi.h"
#include "triton/ddi/tables.h"

namespace triton::ddi {

// Later table versions: declared only so the unions below keep their members.
struct D3DWDDM1_3DDI_DEVICEFUNCS;
struct D3DWDDM2_0DDI_DEVICEFUNCS;
struct D3DWDDM2_1DDI_DEVICEFUNCS;
struct D3DWDDM2_2DDI_DEVICEFUNCS;
struct D3DWDDM2_6DDI_DEVICEFUNCS;
struct D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS;
struct D3DWDDM2_2DDI_CORELAYER_DEVICECALLBACKS;
struct D3DWDDM2_6DDI_CORELAYER_DEVICECALLBACKS;

// Argument of OpenAdapter10 / OpenAdapter10_2, the driver DLL's entry points.
struct D3D10DDIARG_OPENADAPTER {
  D3D10DDI_HRTADAPTER hRTAdapter;
  D3D10DDI_HADAPTER hAdapter;
  UINT Interface;
  UINT Version;
  const D3DDDI_ADAPTERCALLBACKS* pAdapterCallbacks;
  union {
    D3D10DDI_ADAPTERFUNCS* pAdapterFuncs;
    D3D10_2DDI_ADAPTERFUNCS* pAdapterFuncs_2;
  };
};

struct D3D10DDIARG_CREATEDEVICE {
  D3D10DDI_HRTDEVICE hRTDevice;
  UINT Interface;
  UINT Version;
  const D3DDDI_DEVICECALLBACKS* pKTCallbacks;
  union {
    D3D10DDI_DEVICEFUNCS* pDeviceFuncs;
    D3D10_1DDI_DEVICEFUNCS* p10_1DeviceFuncs;
    D3D11DDI_DEVICEFUNCS* p11DeviceFuncs;
    D3D11_1DDI_DEVICEFUNCS* p11_1DeviceFuncs;
    D3DWDDM1_3DDI_DEVICEFUNCS* pWDDM1_3DeviceFuncs;
    D3DWDDM2_0DDI_DEVICEFUNCS* pWDDM2_0DeviceFuncs;
    D3DWDDM2_1DDI_DEVICEFUNCS* pWDDM2_1DeviceFuncs;
    D3DWDDM2_2DDI_DEVICEFUNCS* pWDDM2_2DeviceFuncs;
    D3DWDDM2_6DDI_DEVICEFUNCS* pWDDM2_6DeviceFuncs;
  };
  D3D10DDI_HDEVICE hDrvDevice;
  DXGI_DDI_BASE_ARGS DXGIBaseDDI;
  D3D10DDI_HRTCORELAYER hRTCoreLayer;
  union {
    const D3D10DDI_CORELAYER_DEVICECALLBACKS* pUMCallbacks;
    const D3D11DDI_CORELAYER_DEVICECALLBACKS* p11UMCallbacks;
    const D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS* pWDDM2_0UMCallbacks;
    const D3DWDDM2_2DDI_CORELAYER_DEVICECALLBACKS* pWDDM2_2UMCallbacks;
    const D3DWDDM2_6DDI_CORELAYER_DEVICECALLBACKS* pWDDM2_6UMCallbacks;
  };
  UINT Flags;
  PFND3D10DDI_RETRIEVESUBOBJECT* ppfnRetrieveSubObject;
};

struct D3D11DDIARG_CREATEDEFERREDCONTEXT {
  union {
    D3D11DDI_DEVICEFUNCS* p11ContextFuncs;
    D3D11_1DDI_DEVICEFUNCS* p11_1ContextFuncs;
    D3DWDDM1_3DDI_DEVICEFUNCS* pWDDM1_3ContextFuncs;
    D3DWDDM2_0DDI_DEVICEFUNCS* pWDDM2_0ContextFuncs;
    D3DWDDM2_1DDI_DEVICEFUNCS* pWDDM2_1ContextFuncs;
    D3DWDDM2_2DDI_DEVICEFUNCS* pWDDM2_2ContextFuncs;
    D3DWDDM2_6DDI_DEVICEFUNCS* pWDDM2_6ContextFuncs;
  };
  D3D10DDI_HDEVICE hDrvContext;
  D3D10DDI_HRTCORELAYER hRTCoreLayer;
  union {
    const D3D11DDI_CORELAYER_DEVICECALLBACKS* p11UMCallbacks;
    const D3DWDDM2_0DDI_CORELAYER_DEVICECALLBACKS* pWDDM2_0UMCallbacks;
    const D3DWDDM2_2DDI_CORELAYER_DEVICECALLBACKS* pWDDM2_2UMCallbacks;
    const D3DWDDM2_6DDI_CORELAYER_DEVICECALLBACKS* pWDDM2_6UMCallbacks;
  };
  UINT Flags;
};

}  // namespace triton::ddi
