// SPDX-License-Identifier: MIT
// Binding, drawing, dispatching and clearing: handle arrays become interface arrays,
// the calls go to the target's immediate context unchanged.

#include <type_traits>

#include "device.h"
#include "entries.h"

namespace triton::driver {
namespace {

static_assert(sizeof(ddi::D3D10_DDI_VIEWPORT) == sizeof(D3D11_VIEWPORT), "viewport layouts differ");
static_assert(sizeof(ddi::D3D10_DDI_RECT) == sizeof(D3D11_RECT), "rect layouts differ");

constexpr UINT kMaxBindings = D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT;   // the largest slot range (128)

ID3D11Buffer* bufferOf(ddi::D3D10DDI_HRESOURCE h) {
  Resource* r = resourceOf(h);
  if (!r || (r->dimension != ddi::D3D10DDIRESOURCE_BUFFER && r->dimension != ddi::D3D11DDIRESOURCE_BUFFEREX))
    return nullptr;
  return static_cast<ID3D11Buffer*>(r->resource.Get());   // created as an ID3D11Buffer
}

bool fits(Device* d, UINT start, UINT count, UINT slots) {
  if (start > slots || count > slots - start) {
    d->setError(E_INVALIDARG);
    return false;
  }
  return true;
}

using SetSrvs = decltype(&ID3D11DeviceContext::VSSetShaderResources);
using SetSamplers = decltype(&ID3D11DeviceContext::VSSetSamplers);
using SetConstantBuffers = decltype(&ID3D11DeviceContext::VSSetConstantBuffers);
using SetConstantBuffers1 = decltype(&ID3D11DeviceContext1::VSSetConstantBuffers1);

template <SetSrvs Set>
void setSrvs(ddi::D3D10DDI_HDEVICE hDevice, UINT start, UINT count, const ddi::D3D10DDI_HSHADERRESOURCEVIEW* views) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, start, count, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT))
    return;
  ID3D11ShaderResourceView* api[kMaxBindings];
  for (UINT i = 0; i < count; ++i)
    api[i] = targetOf<ShaderResourceView>(views[i]);
  (d->context()->*Set)(start, count, api);
}

template <SetSamplers Set>
void setSamplers(ddi::D3D10DDI_HDEVICE hDevice, UINT start, UINT count, const ddi::D3D10DDI_HSAMPLER* samplers) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, start, count, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT))
    return;
  ID3D11SamplerState* api[D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT];
  for (UINT i = 0; i < count; ++i) {
    SamplerState* s = objectOf<SamplerState>(samplers[i]);
    api[i] = s ? s->state.Get() : nullptr;
  }
  (d->context()->*Set)(start, count, api);
}

template <SetConstantBuffers Set, SetConstantBuffers1 Set1>
void setConstantBuffers(ddi::D3D10DDI_HDEVICE hDevice, UINT start, UINT count, const ddi::D3D10DDI_HRESOURCE* buffers,
                        const UINT* firstConstant, const UINT* numConstants) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, start, count, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT))
    return;
  ID3D11Buffer* api[D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT];
  for (UINT i = 0; i < count; ++i)
    api[i] = bufferOf(buffers[i]);
  if (firstConstant && numConstants && d->context1())
    (d->context1()->*Set1)(start, count, api, firstConstant, numConstants);
  else
    (d->context()->*Set)(start, count, api);
}

template <class Api, void (STDMETHODCALLTYPE ID3D11DeviceContext::*Set)(Api*, ID3D11ClassInstance* const*, UINT)>
void setShader(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HSHADER hShader, ShaderStage stage) {
  Device* d = deviceOf(hDevice);
  Shader* s = objectOf<Shader>(hShader);
  if (s && s->stage != stage) {
    d->setError(E_INVALIDARG);
    return;
  }
  // The object was created as this stage's interface.
  (d->context()->*Set)(s ? static_cast<Api*>(s->shader.Get()) : nullptr, nullptr, 0);
}

// Class instances: per interface slot the runtime gives the function table the shader is to
// call and where the instance's data lives; the target gets the instance of the device's
// class linkage that selects that table at that location (class_linkage.h).
template <class Api, void (STDMETHODCALLTYPE ID3D11DeviceContext::*Set)(Api*, ID3D11ClassInstance* const*, UINT)>
void setShaderWithIfaces(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HSHADER hShader, ShaderStage stage,
                         UINT classInstances, const UINT* tables, const ddi::D3D11DDIARG_POINTERDATA* data,
                         const char* entryName) {
  if (!classInstances) {
    setShader<Api, Set>(hDevice, hShader, stage);
    return;
  }
  Device* d = deviceOf(hDevice);
  Shader* s = objectOf<Shader>(hShader);
  // The runtime sends instances only for a shader that declares that many interface slots.
  if (!s || s->stage != stage || !tables || !data || classInstances > s->interfaceSlots ||
      classInstances > D3D11_SHADER_MAX_INTERFACES) {
    d->setError(E_INVALIDARG);
    return;
  }
  ID3D11ClassInstance* instances[D3D11_SHADER_MAX_INTERFACES];
  for (UINT i = 0; i < classInstances; ++i) {
    const HRESULT hr = d->classLinkage().instance(tables[i], data[i], &instances[i]);
    if (FAILED(hr)) {
      d->targetFailed(entryName, hr);
      return;
    }
  }
  (d->context()->*Set)(static_cast<Api*>(s->shader.Get()), instances, classInstances);
}

}  // namespace

namespace entry {

#define TRITON_STAGE_ENTRIES(prefix, Prefix, Api, stage)                                                          \
  void TRITON_APIENTRY prefix##SetShaderResources(ddi::D3D10DDI_HDEVICE h, UINT start, UINT n,                    \
                                                  const ddi::D3D10DDI_HSHADERRESOURCEVIEW* v) {                   \
    setSrvs<&ID3D11DeviceContext::Prefix##SetShaderResources>(h, start, n, v);                                    \
  }                                                                                                               \
  void TRITON_APIENTRY prefix##SetSamplers(ddi::D3D10DDI_HDEVICE h, UINT start, UINT n,                           \
                                           const ddi::D3D10DDI_HSAMPLER* s) {                                     \
    setSamplers<&ID3D11DeviceContext::Prefix##SetSamplers>(h, start, n, s);                                       \
  }                                                                                                               \
  void TRITON_APIENTRY prefix##SetConstantBuffers(ddi::D3D10DDI_HDEVICE h, UINT start, UINT n,                    \
                                                  const ddi::D3D10DDI_HRESOURCE* b) {                             \
    setConstantBuffers<&ID3D11DeviceContext::Prefix##SetConstantBuffers,                                          \
                       &ID3D11DeviceContext1::Prefix##SetConstantBuffers1>(h, start, n, b, nullptr, nullptr);     \
  }                                                                                                               \
  void TRITON_APIENTRY prefix##SetConstantBuffers11_1(ddi::D3D10DDI_HDEVICE h, UINT start, UINT n,                \
                                                      const ddi::D3D10DDI_HRESOURCE* b, const UINT* first,        \
                                                      const UINT* count) {                                        \
    setConstantBuffers<&ID3D11DeviceContext::Prefix##SetConstantBuffers,                                          \
                       &ID3D11DeviceContext1::Prefix##SetConstantBuffers1>(h, start, n, b, first, count);         \
  }                                                                                                               \
  void TRITON_APIENTRY prefix##SetShader(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HSHADER s) {                      \
    setShader<Api, &ID3D11DeviceContext::Prefix##SetShader>(h, s, stage);                                         \
  }                                                                                                               \
  void TRITON_APIENTRY prefix##SetShaderWithIfaces(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HSHADER s, UINT n,      \
                                                   const UINT* t, const ddi::D3D11DDIARG_POINTERDATA* p) {        \
    setShaderWithIfaces<Api, &ID3D11DeviceContext::Prefix##SetShader>(h, s, stage, n, t, p,                       \
                                                                      #Prefix "SetShaderWithIfaces");             \
  }

TRITON_STAGE_ENTRIES(vs, VS, ID3D11VertexShader, ShaderStage::Vertex)
TRITON_STAGE_ENTRIES(hs, HS, ID3D11HullShader, ShaderStage::Hull)
TRITON_STAGE_ENTRIES(ds, DS, ID3D11DomainShader, ShaderStage::Domain)
TRITON_STAGE_ENTRIES(gs, GS, ID3D11GeometryShader, ShaderStage::Geometry)
TRITON_STAGE_ENTRIES(ps, PS, ID3D11PixelShader, ShaderStage::Pixel)
TRITON_STAGE_ENTRIES(cs, CS, ID3D11ComputeShader, ShaderStage::Compute)

#undef TRITON_STAGE_ENTRIES

void TRITON_APIENTRY csSetUnorderedAccessViews(ddi::D3D10DDI_HDEVICE hDevice, UINT start, UINT count,
                                               const ddi::D3D11DDI_HUNORDEREDACCESSVIEW* views, const UINT* initialCounts) {
  Device* d = deviceOf(hDevice);
  const UINT slots = d->isD3D11_1() ? D3D11_1_UAV_SLOT_COUNT : D3D11_PS_CS_UAV_REGISTER_COUNT;
  if (!fits(d, start, count, slots))
    return;
  ID3D11UnorderedAccessView* api[D3D11_1_UAV_SLOT_COUNT];
  for (UINT i = 0; i < count; ++i)
    api[i] = targetOf<UnorderedAccessView>(views[i]);
  d->context()->CSSetUnorderedAccessViews(start, count, api, initialCounts);
}

void TRITON_APIENTRY iaSetInputLayout(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HELEMENTLAYOUT h) {
  ElementLayout* layout = objectOf<ElementLayout>(h);
  deviceOf(hDevice)->context()->IASetInputLayout(layout ? layout->layout.Get() : nullptr);
}

void TRITON_APIENTRY iaSetVertexBuffers(ddi::D3D10DDI_HDEVICE hDevice, UINT start, UINT count,
                                        const ddi::D3D10DDI_HRESOURCE* buffers, const UINT* strides, const UINT* offsets) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, start, count, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT))
    return;
  ID3D11Buffer* api[D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
  for (UINT i = 0; i < count; ++i)
    api[i] = bufferOf(buffers[i]);
  d->context()->IASetVertexBuffers(start, count, api, strides, offsets);
}

void TRITON_APIENTRY iaSetIndexBuffer(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRESOURCE h, DXGI_FORMAT format,
                                      UINT offset) {
  deviceOf(hDevice)->context()->IASetIndexBuffer(bufferOf(h), format, offset);
}

void TRITON_APIENTRY iaSetTopology(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY topology) {
  deviceOf(hDevice)->context()->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY(topology));   // value-equal
}

void TRITON_APIENTRY setRenderTargets(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10DDI_HRENDERTARGETVIEW* rtvs,
                                      UINT numRtvs, UINT rtvsToUnbind, ddi::D3D10DDI_HDEPTHSTENCILVIEW dsv,
                                      const ddi::D3D11DDI_HUNORDEREDACCESSVIEW* uavs, const UINT* initialCounts,
                                      UINT uavStart, UINT numUavs, UINT uavRangeStart, UINT uavRangeSize) {
  deviceOf(hDevice)->setOutputMerger(rtvs, numRtvs, rtvsToUnbind, dsv, uavs, initialCounts, uavStart, numUavs,
                                     uavRangeStart, uavRangeSize);
}

void TRITON_APIENTRY setBlendState(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HBLENDSTATE h, const FLOAT factor[4],
                                   UINT sampleMask) {
  BlendState* s = objectOf<BlendState>(h);
  deviceOf(hDevice)->context()->OMSetBlendState(s ? s->state.Get() : nullptr, factor, sampleMask);
}

void TRITON_APIENTRY setDepthStencilState(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HDEPTHSTENCILSTATE h,
                                          UINT stencilRef) {
  DepthStencilState* s = objectOf<DepthStencilState>(h);
  deviceOf(hDevice)->context()->OMSetDepthStencilState(s ? s->state.Get() : nullptr, stencilRef);
}

void TRITON_APIENTRY setRasterizerState(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HRASTERIZERSTATE h) {
  RasterizerState* s = objectOf<RasterizerState>(h);
  deviceOf(hDevice)->context()->RSSetState(s ? s->state.Get() : nullptr);
}

void TRITON_APIENTRY soSetTargets(ddi::D3D10DDI_HDEVICE hDevice, UINT count, UINT, const ddi::D3D10DDI_HRESOURCE* buffers,
                                  const UINT* offsets) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, 0, count, D3D11_SO_BUFFER_SLOT_COUNT))
    return;
  ID3D11Buffer* api[D3D11_SO_BUFFER_SLOT_COUNT];
  for (UINT i = 0; i < count; ++i)
    api[i] = bufferOf(buffers[i]);
  // SOSetTargets unbinds every slot past count, which covers ClearTargets.
  d->context()->SOSetTargets(count, api, offsets);
}

void TRITON_APIENTRY setViewports(ddi::D3D10DDI_HDEVICE hDevice, UINT count, UINT, const ddi::D3D10_DDI_VIEWPORT* viewports) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, 0, count, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE))
    return;
  d->context()->RSSetViewports(count, reinterpret_cast<const D3D11_VIEWPORT*>(viewports));
}

void TRITON_APIENTRY setScissorRects(ddi::D3D10DDI_HDEVICE hDevice, UINT count, UINT, const ddi::D3D10_DDI_RECT* rects) {
  Device* d = deviceOf(hDevice);
  if (!fits(d, 0, count, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE))
    return;
  d->context()->RSSetScissorRects(count, rects);
}

void TRITON_APIENTRY setTextFilterSize(ddi::D3D10DDI_HDEVICE hDevice, UINT width, UINT height) {
  Device* d = deviceOf(hDevice);
  d->textFilterWidth = width;
  d->textFilterHeight = height;
}

void TRITON_APIENTRY draw(ddi::D3D10DDI_HDEVICE h, UINT vertexCount, UINT startVertex) {
  deviceOf(h)->context()->Draw(vertexCount, startVertex);
}
void TRITON_APIENTRY drawIndexed(ddi::D3D10DDI_HDEVICE h, UINT indexCount, UINT startIndex, INT baseVertex) {
  deviceOf(h)->context()->DrawIndexed(indexCount, startIndex, baseVertex);
}
void TRITON_APIENTRY drawInstanced(ddi::D3D10DDI_HDEVICE h, UINT vertices, UINT instances, UINT startVertex,
                                   UINT startInstance) {
  deviceOf(h)->context()->DrawInstanced(vertices, instances, startVertex, startInstance);
}
void TRITON_APIENTRY drawIndexedInstanced(ddi::D3D10DDI_HDEVICE h, UINT indices, UINT instances, UINT startIndex,
                                          INT baseVertex, UINT startInstance) {
  deviceOf(h)->context()->DrawIndexedInstanced(indices, instances, startIndex, baseVertex, startInstance);
}
void TRITON_APIENTRY drawAuto(ddi::D3D10DDI_HDEVICE h) { deviceOf(h)->context()->DrawAuto(); }
void TRITON_APIENTRY drawInstancedIndirect(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HRESOURCE args, UINT offset) {
  if (ID3D11Buffer* buffer = bufferOf(args))
    deviceOf(h)->context()->DrawInstancedIndirect(buffer, offset);
  else
    deviceOf(h)->setError(E_INVALIDARG);
}
void TRITON_APIENTRY drawIndexedInstancedIndirect(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HRESOURCE args, UINT offset) {
  if (ID3D11Buffer* buffer = bufferOf(args))
    deviceOf(h)->context()->DrawIndexedInstancedIndirect(buffer, offset);
  else
    deviceOf(h)->setError(E_INVALIDARG);
}
void TRITON_APIENTRY dispatch(ddi::D3D10DDI_HDEVICE h, UINT x, UINT y, UINT z) {
  deviceOf(h)->context()->Dispatch(x, y, z);
}
void TRITON_APIENTRY dispatchIndirect(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HRESOURCE args, UINT offset) {
  if (ID3D11Buffer* buffer = bufferOf(args))
    deviceOf(h)->context()->DispatchIndirect(buffer, offset);
  else
    deviceOf(h)->setError(E_INVALIDARG);
}

void TRITON_APIENTRY clearRenderTargetView(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HRENDERTARGETVIEW v, FLOAT color[4]) {
  if (ID3D11RenderTargetView* view = targetOf<RenderTargetView>(v))
    deviceOf(h)->context()->ClearRenderTargetView(view, color);
}
void TRITON_APIENTRY clearDepthStencilView(ddi::D3D10DDI_HDEVICE h, ddi::D3D10DDI_HDEPTHSTENCILVIEW v, UINT flags,
                                           FLOAT depth, UINT8 stencil) {
  // D3D10_DDI_CLEAR_DEPTH/STENCIL equal D3D11_CLEAR_DEPTH/STENCIL.
  if (ID3D11DepthStencilView* view = targetOf<DepthStencilView>(v))
    deviceOf(h)->context()->ClearDepthStencilView(view, flags & (D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL), depth, stencil);
}
void TRITON_APIENTRY clearUnorderedAccessViewUint(ddi::D3D10DDI_HDEVICE h, ddi::D3D11DDI_HUNORDEREDACCESSVIEW v,
                                                  const UINT values[4]) {
  if (ID3D11UnorderedAccessView* view = targetOf<UnorderedAccessView>(v))
    deviceOf(h)->context()->ClearUnorderedAccessViewUint(view, values);
}
void TRITON_APIENTRY clearUnorderedAccessViewFloat(ddi::D3D10DDI_HDEVICE h, ddi::D3D11DDI_HUNORDEREDACCESSVIEW v,
                                                   const FLOAT values[4]) {
  if (ID3D11UnorderedAccessView* view = targetOf<UnorderedAccessView>(v))
    deviceOf(h)->context()->ClearUnorderedAccessViewFloat(view, values);
}

void TRITON_APIENTRY clearView(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HANDLETYPE type, void* hView,
                               const FLOAT color[4], const ddi::D3D10_DDI_RECT* rects, UINT numRects) {
  Device* d = deviceOf(hDevice);
  ID3D11View* view = nullptr;
  switch (type) {
    case ddi::D3D10DDI_HT_RENDERTARGETVIEW:
      view = targetOf<RenderTargetView>(ddi::D3D10DDI_HRENDERTARGETVIEW{hView});
      break;
    case ddi::D3D11DDI_HT_UNORDEREDACCESSVIEW:
      view = targetOf<UnorderedAccessView>(ddi::D3D11DDI_HUNORDEREDACCESSVIEW{hView});
      break;
    default:
      // Video processor output views come from the video device, which Triton does not
      // offer (no RetrieveSubObject): no such handle exists, so it is an invalid argument.
      break;
  }
  if (!view || !d->context1()) {
    d->setError(E_INVALIDARG);
    return;
  }
  d->context1()->ClearView(view, color, rects, numRects);
}

void TRITON_APIENTRY discard(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D11DDI_HANDLETYPE type, void* handle,
                             const ddi::D3D10_DDI_RECT* rects, UINT numRects) {
  Device* d = deviceOf(hDevice);
  if (!d->context1()) {
    d->setError(E_INVALIDARG);
    return;
  }
  ID3D11View* view = nullptr;
  switch (type) {
    case ddi::D3D10DDI_HT_RESOURCE: {
      Resource* r = resourceOf(ddi::D3D10DDI_HRESOURCE{handle});
      if (!r) {
        d->setError(E_INVALIDARG);
        return;
      }
      if (rects && numRects) {
        // The API discards whole resources only (rectangles go through views), and
        // discarding all of it would lose what lies outside the rectangles. A discard
        // leaves the rectangles' contents undefined; keeping them is one such content.
        return;
      }
      d->context1()->DiscardResource(r->resource.Get());
      return;
    }
    case ddi::D3D10DDI_HT_SHADERRESOURCEVIEW:
      view = targetOf<ShaderResourceView>(ddi::D3D10DDI_HSHADERRESOURCEVIEW{handle});
      break;
    case ddi::D3D10DDI_HT_RENDERTARGETVIEW:
      view = targetOf<RenderTargetView>(ddi::D3D10DDI_HRENDERTARGETVIEW{handle});
      break;
    case ddi::D3D10DDI_HT_DEPTHSTENCILVIEW:
      view = targetOf<DepthStencilView>(ddi::D3D10DDI_HDEPTHSTENCILVIEW{handle});
      break;
    case ddi::D3D11DDI_HT_UNORDEREDACCESSVIEW:
      view = targetOf<UnorderedAccessView>(ddi::D3D11DDI_HUNORDEREDACCESSVIEW{handle});
      break;
    default:
      // Video views: no video device is offered (see ClearView), so no such handle exists.
      d->setError(E_INVALIDARG);
      return;
  }
  if (!view) {
    d->setError(E_INVALIDARG);
    return;
  }
  d->context1()->DiscardView1(view, rects, numRects);
}

// Hazard notifications tell hardware drivers to flush caches between a write and a
// read; the target API tracks its own hazards.
void TRITON_APIENTRY shaderResourceViewReadAfterWriteHazard(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HSHADERRESOURCEVIEW,
                                                            ddi::D3D10DDI_HRESOURCE) {}
void TRITON_APIENTRY resourceReadAfterWriteHazard(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HRESOURCE) {}

void TRITON_APIENTRY flush(ddi::D3D10DDI_HDEVICE h) {
  deviceOf(h)->context()->Flush();
  deviceOf(h)->checkTargetAlive();
}

BOOL TRITON_APIENTRY flush11_1(ddi::D3D10DDI_HDEVICE h, UINT) {
  // The target's Flush is cheap when nothing is queued; report that commands went out.
  deviceOf(h)->context()->Flush();
  deviceOf(h)->checkTargetAlive();
  return TRUE;
}

}  // namespace entry
}  // namespace triton::driver
