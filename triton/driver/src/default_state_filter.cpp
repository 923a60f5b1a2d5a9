// SPDX-License-Identifier: MIT
#include "default_state_filter.h"

#include "device.h"
#include "entries.h"

namespace triton::driver {
namespace {

template <class Handle>
bool allNull(const Handle* handles, UINT count) {
  for (UINT i = 0; handles && i < count; ++i)
    if (handles[i].pDrvPrivate)
      return false;
  return true;
}

// What each setter's arguments (after the device handle) look like when they bind the
// default state. One overload per argument shape.
bool setsDefault(ddi::D3D10DDI_HSHADER shader) { return !shader.pDrvPrivate; }
bool setsDefault(UINT, UINT count, const ddi::D3D10DDI_HRESOURCE* buffers) { return allNull(buffers, count); }
// 11.1 constant buffers (first/count ranges) and vertex buffers (strides/offsets).
bool setsDefault(UINT, UINT count, const ddi::D3D10DDI_HRESOURCE* buffers, const UINT*, const UINT*) {
  return allNull(buffers, count);
}
bool setsDefault(UINT, UINT count, const ddi::D3D10DDI_HSHADERRESOURCEVIEW* views) { return allNull(views, count); }
bool setsDefault(UINT, UINT count, const ddi::D3D10DDI_HSAMPLER* samplers) { return allNull(samplers, count); }
bool setsDefault(UINT, UINT count, const ddi::D3D11DDI_HUNORDEREDACCESSVIEW* views, const UINT*) {
  return allNull(views, count);
}
bool setsDefault(ddi::D3D10DDI_HELEMENTLAYOUT layout) { return !layout.pDrvPrivate; }
bool setsDefault(ddi::D3D10DDI_HRESOURCE indexBuffer, DXGI_FORMAT, UINT) { return !indexBuffer.pDrvPrivate; }
bool setsDefault(ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY topology) { return topology == ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_UNDEFINED; }
bool setsDefault(const ddi::D3D10DDI_HRENDERTARGETVIEW* rtvs, UINT rtvCount, UINT, ddi::D3D10DDI_HDEPTHSTENCILVIEW dsv,
                 const ddi::D3D11DDI_HUNORDEREDACCESSVIEW* uavs, const UINT*, UINT, UINT uavCount, UINT, UINT) {
  return allNull(rtvs, rtvCount) && !dsv.pDrvPrivate && allNull(uavs, uavCount);
}
bool setsDefault(ddi::D3D10DDI_HBLENDSTATE state, const FLOAT* factor, UINT sampleMask) {
  return !state.pDrvPrivate && factor && factor[0] == 1.0f && factor[1] == 1.0f && factor[2] == 1.0f &&
         factor[3] == 1.0f && sampleMask == 0xffffffffu;
}
bool setsDefault(ddi::D3D10DDI_HDEPTHSTENCILSTATE state, UINT stencilRef) { return !state.pDrvPrivate && !stencilRef; }
bool setsDefault(ddi::D3D10DDI_HRASTERIZERSTATE state) { return !state.pDrvPrivate; }
bool setsDefault(UINT count, UINT, const ddi::D3D10DDI_HRESOURCE* targets, const UINT*) { return allNull(targets, count); }
bool setsDefault(UINT count, UINT, const ddi::D3D10_DDI_VIEWPORT*) { return count == 0; }
bool setsDefault(UINT count, UINT, const ddi::D3D10_DDI_RECT*) { return count == 0; }
bool setsDefault(ddi::D3D10DDI_HQUERY predicate, BOOL) { return !predicate.pDrvPrivate; }

template <auto Entry>
struct Filtered;
template <class... Args, void(TRITON_APIENTRY* Entry)(ddi::D3D10DDI_HDEVICE, Args...)>
struct Filtered<Entry> {
  static void TRITON_APIENTRY call(ddi::D3D10DDI_HDEVICE hDevice, Args... args) {
    Device* device = deviceOf(hDevice);
    if (device->atDefaultState() && setsDefault(args...))
      return;
    device->leaveDefaultState();
    Entry(hDevice, args...);
  }
};

template <class Table>
void filterShared(Table& t) {
  using namespace entry;
  t.pfnVsSetShader = Filtered<vsSetShader>::call;
  t.pfnHsSetShader = Filtered<hsSetShader>::call;
  t.pfnDsSetShader = Filtered<dsSetShader>::call;
  t.pfnGsSetShader = Filtered<gsSetShader>::call;
  t.pfnPsSetShader = Filtered<psSetShader>::call;
  t.pfnCsSetShader = Filtered<csSetShader>::call;
  t.pfnVsSetShaderResources = Filtered<vsSetShaderResources>::call;
  t.pfnHsSetShaderResources = Filtered<hsSetShaderResources>::call;
  t.pfnDsSetShaderResources = Filtered<dsSetShaderResources>::call;
  t.pfnGsSetShaderResources = Filtered<gsSetShaderResources>::call;
  t.pfnPsSetShaderResources = Filtered<psSetShaderResources>::call;
  t.pfnCsSetShaderResources = Filtered<csSetShaderResources>::call;
  t.pfnVsSetSamplers = Filtered<vsSetSamplers>::call;
  t.pfnHsSetSamplers = Filtered<hsSetSamplers>::call;
  t.pfnDsSetSamplers = Filtered<dsSetSamplers>::call;
  t.pfnGsSetSamplers = Filtered<gsSetSamplers>::call;
  t.pfnPsSetSamplers = Filtered<psSetSamplers>::call;
  t.pfnCsSetSamplers = Filtered<csSetSamplers>::call;
  t.pfnCsSetUnorderedAccessViews = Filtered<csSetUnorderedAccessViews>::call;
  t.pfnIaSetInputLayout = Filtered<iaSetInputLayout>::call;
  t.pfnIaSetVertexBuffers = Filtered<iaSetVertexBuffers>::call;
  t.pfnIaSetIndexBuffer = Filtered<iaSetIndexBuffer>::call;
  t.pfnIaSetTopology = Filtered<iaSetTopology>::call;
  t.pfnSetRenderTargets = Filtered<setRenderTargets>::call;
  t.pfnSetBlendState = Filtered<setBlendState>::call;
  t.pfnSetDepthStencilState = Filtered<setDepthStencilState>::call;
  t.pfnSetRasterizerState = Filtered<setRasterizerState>::call;
  t.pfnSoSetTargets = Filtered<soSetTargets>::call;
  t.pfnSetViewports = Filtered<setViewports>::call;
  t.pfnSetScissorRects = Filtered<setScissorRects>::call;
  t.pfnSetPredication = Filtered<setPredication>::call;
}

}  // namespace

void filterDefaultStateSetters(ddi::D3D11DDI_DEVICEFUNCS& t) {
  filterShared(t);
  using namespace entry;
  t.pfnVsSetConstantBuffers = Filtered<vsSetConstantBuffers>::call;
  t.pfnHsSetConstantBuffers = Filtered<hsSetConstantBuffers>::call;
  t.pfnDsSetConstantBuffers = Filtered<dsSetConstantBuffers>::call;
  t.pfnGsSetConstantBuffers = Filtered<gsSetConstantBuffers>::call;
  t.pfnPsSetConstantBuffers = Filtered<psSetConstantBuffers>::call;
  t.pfnCsSetConstantBuffers = Filtered<csSetConstantBuffers>::call;
}

void filterDefaultStateSetters(ddi::D3D11_1DDI_DEVICEFUNCS& t) {
  filterShared(t);
  using namespace entry;
  t.pfnVsSetConstantBuffers = Filtered<vsSetConstantBuffers11_1>::call;
  t.pfnHsSetConstantBuffers = Filtered<hsSetConstantBuffers11_1>::call;
  t.pfnDsSetConstantBuffers = Filtered<dsSetConstantBuffers11_1>::call;
  t.pfnGsSetConstantBuffers = Filtered<gsSetConstantBuffers11_1>::call;
  t.pfnPsSetConstantBuffers = Filtered<psSetConstantBuffers11_1>::call;
  t.pfnCsSetConstantBuffers = Filtered<csSetConstantBuffers11_1>::call;
}

}  // namespace triton::driver
