// SPDX-License-Identifier: MIT
// The immediate context: API calls onto the DDI, as the runtime makes them.

#include "context.h"

#include "class_linkage.h"

#include <algorithm>
#include <cstring>

namespace triton::runtime {
namespace {

using Lock = std::lock_guard<std::recursive_mutex>;

template <class Concrete, class Handle, class Interface>
Handle handleOf(Interface* object) {
  return object ? static_cast<Concrete*>(object)->handle : Handle{};
}

ddi::D3D10DDI_HSHADER shaderHandle(Stage stage, ID3D11DeviceChild* shader) {
  if (!shader)
    return {};
  switch (stage) {
    case VS: return static_cast<VertexShader*>(static_cast<ID3D11VertexShader*>(shader))->handle;
    case HS: return static_cast<HullShader*>(static_cast<ID3D11HullShader*>(shader))->handle;
    case DS: return static_cast<DomainShader*>(static_cast<ID3D11DomainShader*>(shader))->handle;
    case GS: return static_cast<GeometryShader*>(static_cast<ID3D11GeometryShader*>(shader))->handle;
    case PS: return static_cast<PixelShader*>(static_cast<ID3D11PixelShader*>(shader))->handle;
    default: return static_cast<ComputeShader*>(static_cast<ID3D11ComputeShader*>(shader))->handle;
  }
}

ChildBase* shaderChild(Stage stage, ID3D11DeviceChild* shader) {
  if (!shader)
    return nullptr;
  switch (stage) {
    case VS: return static_cast<VertexShader*>(static_cast<ID3D11VertexShader*>(shader));
    case HS: return static_cast<HullShader*>(static_cast<ID3D11HullShader*>(shader));
    case DS: return static_cast<DomainShader*>(static_cast<ID3D11DomainShader*>(shader));
    case GS: return static_cast<GeometryShader*>(static_cast<ID3D11GeometryShader*>(shader));
    case PS: return static_cast<PixelShader*>(static_cast<ID3D11PixelShader*>(shader));
    default: return static_cast<ComputeShader*>(static_cast<ID3D11ComputeShader*>(shader));
  }
}

const dxbc::InterfacesChunk& shaderInterfaces(Stage stage, ID3D11DeviceChild* shader) {
  switch (stage) {
    case VS: return static_cast<VertexShader*>(static_cast<ID3D11VertexShader*>(shader))->interfaces;
    case HS: return static_cast<HullShader*>(static_cast<ID3D11HullShader*>(shader))->interfaces;
    case DS: return static_cast<DomainShader*>(static_cast<ID3D11DomainShader*>(shader))->interfaces;
    case GS: return static_cast<GeometryShader*>(static_cast<ID3D11GeometryShader*>(shader))->interfaces;
    case PS: return static_cast<PixelShader*>(static_cast<ID3D11PixelShader*>(shader))->interfaces;
    default: return static_cast<ComputeShader*>(static_cast<ID3D11ComputeShader*>(shader))->interfaces;
  }
}

struct StageEntries {
  ddi::PFND3D10DDI_SETSHADER setShader;
  ddi::PFND3D11DDI_SETSHADER_WITH_IFACES setShaderWithIfaces;
  ddi::PFND3D11_1DDI_SETCONSTANTBUFFERS setConstantBuffers;
  ddi::PFND3D10DDI_SETSHADERRESOURCES setShaderResources;
  ddi::PFND3D10DDI_SETSAMPLERS setSamplers;
};

StageEntries entriesFor(const ddi::D3D11_1DDI_DEVICEFUNCS& f, Stage stage) {
  switch (stage) {
    case VS: return {f.pfnVsSetShader, f.pfnVsSetShaderWithIfaces, f.pfnVsSetConstantBuffers, f.pfnVsSetShaderResources, f.pfnVsSetSamplers};
    case HS: return {f.pfnHsSetShader, f.pfnHsSetShaderWithIfaces, f.pfnHsSetConstantBuffers, f.pfnHsSetShaderResources, f.pfnHsSetSamplers};
    case DS: return {f.pfnDsSetShader, f.pfnDsSetShaderWithIfaces, f.pfnDsSetConstantBuffers, f.pfnDsSetShaderResources, f.pfnDsSetSamplers};
    case GS: return {f.pfnGsSetShader, f.pfnGsSetShaderWithIfaces, f.pfnGsSetConstantBuffers, f.pfnGsSetShaderResources, f.pfnGsSetSamplers};
    case PS: return {f.pfnPsSetShader, f.pfnPsSetShaderWithIfaces, f.pfnPsSetConstantBuffers, f.pfnPsSetShaderResources, f.pfnPsSetSamplers};
    default: return {f.pfnCsSetShader, f.pfnCsSetShaderWithIfaces, f.pfnCsSetConstantBuffers, f.pfnCsSetShaderResources, f.pfnCsSetSamplers};
  }
}

// The API clamps ranges to the slot count; so does the runtime before the DDI.
UINT clampCount(UINT start, UINT count, size_t slots) {
  return start >= slots ? 0 : std::min<UINT>(count, UINT(slots - start));
}

ddi::D3D10_DDI_BOX ddiBox(const D3D11_BOX& b) {
  return {LONG(b.left), LONG(b.top), LONG(b.front), LONG(b.right), LONG(b.bottom), LONG(b.back)};
}

template <class Interface, size_t N>
void getRange(const std::array<Slot<Interface>, N>& slots, UINT start, UINT count, Interface** out) {
  if (!out)
    return;
  for (UINT i = 0; i < count; ++i) {
    if (start + i < N)
      slots[start + i].get(&out[i]);
    else
      out[i] = nullptr;
  }
}

}  // namespace

PipelineState::PipelineState() = default;

DdiContext::DdiContext(Device* device)
    : ContextBase(device, false),
      deferred_(false),
      funcs_(&device->ddi()),
      handle_(device->handle()),
      lock_(&device->lock()) {}

DdiContext::DdiContext(Device* device, std::unique_ptr<harness::DeferredContext> driverContext)
    : ContextBase(device, true),
      deferred_(true),
      driverContext_(std::move(driverContext)),
      funcs_(&driverContext_->funcs11_1),
      handle_(driverContext_->handle()),
      lock_(&ownLock_) {}

DdiContext::~DdiContext() {
  if (deferred_) {
    std::lock_guard<std::recursive_mutex> lock(device()->lock());
    ClearState();   // the bindings' private references go before the driver context
    driverContext_->destroy();
  }
}

HRESULT DdiContext::createDeferred(Device* device, ID3D11DeviceContext** out) {
  auto driverContext = std::make_unique<harness::DeferredContext>();
  {
    std::lock_guard<std::recursive_mutex> lock(device->lock());
    const HRESULT hr = driverContext->create(device->ddiDevice());
    if (FAILED(hr))
      return apiError(hr);
  }
  *out = new DdiContext(device, std::move(driverContext));
  return S_OK;
}

HRESULT DdiContext::takeError() {
  return deferred_ ? apiError(driverContext_->takeError()) : device()->takeError();
}

HRESULT DdiContext::FinishCommandList(BOOL restore, ID3D11CommandList** out) {
  if (!deferred_)
    return DXGI_ERROR_INVALID_CALL;
  harness::CommandList list;
  {
    // Created on the device, naming this context.
    std::lock_guard<std::recursive_mutex> deviceLock(device()->lock());
    Lock lock(this->lock());
    list = device()->ddiDevice().createCommandList(*driverContext_);
    const HRESULT hr = device()->takeError();
    if (FAILED(hr) || !list)
      return FAILED(hr) ? hr : E_OUTOFMEMORY;
  }
  // The driver's context starts the next list from the default state; with restore the
  // runtime sends this context's state again.
  if (restore)
    applyState();
  else
    ClearState();
  auto* commandList = new DriverCommandList(device(), std::move(list));
  if (out)
    *out = commandList;
  else
    commandList->Release();
  return S_OK;
}

DriverCommandList::~DriverCommandList() {
  std::lock_guard<std::recursive_mutex> lock(device()->lock());
  device()->ddiDevice().destroy(list_);
}

void DriverCommandList::execute(DdiContext& context) {
  context.ddi().pfnCommandListExecute(context.handle(), list_.handle);
}

void DdiContext::mapError(HRESULT* result) {
  const HRESULT hr = takeError();
  if (FAILED(hr))
    *result = hr;
}

// Shader stages -----------------------------------------------------------------------

// Class instances: per interface slot, the function table the instance's class selects
// in the shader (its IFCE chunk) and the instance's data location; a null instance leaves
// its slot to table 0 with no data (the shader must not call through it).
void DdiContext::setShader(Stage stage, ID3D11DeviceChild* shader, ID3D11ClassInstance* const* instances, UINT count) {
  const dxbc::InterfacesChunk* interfaces = shader ? &shaderInterfaces(stage, shader) : nullptr;
  if (count && (!instances || !interfaces || count > interfaces->slotCount)) {
    notImplemented("*SetShader with more class instances than the shader has interface slots (ignored)");
    return;
  }
  std::vector<UINT> tables(count);
  std::vector<ddi::D3D11DDIARG_POINTERDATA> data(count);
  for (UINT i = 0; i < count; ++i) {
    auto* instance = static_cast<ClassInstance*>(instances[i]);
    if (instance && !instance->bindingFor(*interfaces, i, tables[i], data[i])) {
      notImplemented("*SetShader with a class the interface slot does not accept (ignored)");
      return;
    }
  }
  Lock guard(this->lock());
  StageState& s = state_.stages[stage];
  s.shader.iface = shader;
  s.shader.ref = shaderChild(stage, shader);
  s.shaderHandle = shaderHandle(stage, shader);
  s.classInstances.assign(count, {});
  for (UINT i = 0; i < count; ++i)
    s.classInstances[i].set<ClassInstance>(instances[i]);
  const StageEntries entries = entriesFor(ddi(), stage);
  if (count)
    entries.setShaderWithIfaces(handle(), s.shaderHandle, count, tables.data(), data.data());
  else
    entries.setShader(handle(), s.shaderHandle);
}

void DdiContext::setConstantBuffers(Stage stage, UINT start, UINT count, ID3D11Buffer* const* buffers,
                                    const UINT* first, const UINT* num) {
  StageState& s = state_.stages[stage];
  count = clampCount(start, count, s.constantBuffers.size());
  if (!count)
    return;
  Lock guard(this->lock());
  ddi::D3D10DDI_HRESOURCE handles[D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT]{};
  for (UINT i = 0; i < count; ++i) {
    ID3D11Buffer* b = buffers ? buffers[i] : nullptr;
    s.constantBuffers[start + i].set<Buffer>(b);
    s.ranged[start + i] = first != nullptr;
    s.firstConstant[start + i] = first ? first[i] : 0;
    s.numConstants[start + i] = num ? num[i] : 0;
    handles[i] = handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(b);
  }
  entriesFor(ddi(), stage).setConstantBuffers(handle(), start, count, handles, first, num);
}

void DdiContext::setShaderResources(Stage stage, UINT start, UINT count, ID3D11ShaderResourceView* const* views) {
  StageState& s = state_.stages[stage];
  count = clampCount(start, count, s.views.size());
  if (!count)
    return;
  Lock guard(this->lock());
  std::vector<ddi::D3D10DDI_HSHADERRESOURCEVIEW> handles(count);
  for (UINT i = 0; i < count; ++i) {
    ID3D11ShaderResourceView* v = views ? views[i] : nullptr;
    s.views[start + i].set<ShaderResourceView>(v);
    handles[i] = handleOf<ShaderResourceView, ddi::D3D10DDI_HSHADERRESOURCEVIEW>(v);
  }
  entriesFor(ddi(), stage).setShaderResources(handle(), start, count, handles.data());
}

void DdiContext::setSamplers(Stage stage, UINT start, UINT count, ID3D11SamplerState* const* samplers) {
  StageState& s = state_.stages[stage];
  count = clampCount(start, count, s.samplers.size());
  if (!count)
    return;
  Lock guard(this->lock());
  ddi::D3D10DDI_HSAMPLER handles[D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT]{};
  for (UINT i = 0; i < count; ++i) {
    ID3D11SamplerState* sampler = samplers ? samplers[i] : nullptr;
    s.samplers[start + i].set<SamplerState>(sampler);
    handles[i] = handleOf<SamplerState, ddi::D3D10DDI_HSAMPLER>(sampler);
  }
  entriesFor(ddi(), stage).setSamplers(handle(), start, count, handles);
}

void DdiContext::getShader(Stage stage, ID3D11DeviceChild** shader, ID3D11ClassInstance** instances, UINT* count) {
  const StageState& s = state_.stages[stage];
  s.shader.get(shader);
  if (!count)
    return;
  // As Windows: with an array, up to *count instances (the rest of the array nulled);
  // *count becomes the number bound.
  if (instances) {
    for (UINT i = 0; i < *count; ++i) {
      if (i < s.classInstances.size())
        s.classInstances[i].get(&instances[i]);
      else
        instances[i] = nullptr;
    }
  }
  *count = UINT(s.classInstances.size());
}

void DdiContext::getConstantBuffers(Stage stage, UINT start, UINT count, ID3D11Buffer** out, UINT* first,
                                    UINT* num) {
  const StageState& s = state_.stages[stage];
  getRange(s.constantBuffers, start, count, out);
  // A buffer bound without a range reports the 4096 constants a shader sees, from 0.
  for (UINT i = 0; i < count; ++i) {
    const UINT slot = start + i;
    UINT f = 0, n = 0;
    if (slot < s.constantBuffers.size() && s.constantBuffers[slot].iface) {
      f = s.ranged[slot] ? s.firstConstant[slot] : 0;
      n = s.ranged[slot] ? s.numConstants[slot] : D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT;
    }
    if (first) first[i] = f;
    if (num) num[i] = n;
  }
}
void DdiContext::getShaderResources(Stage stage, UINT start, UINT count, ID3D11ShaderResourceView** out) {
  getRange(state_.stages[stage].views, start, count, out);
}
void DdiContext::getSamplers(Stage stage, UINT start, UINT count, ID3D11SamplerState** out) {
  getRange(state_.stages[stage].samplers, start, count, out);
}

void DdiContext::CSSetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView* const* views,
                                                 const UINT* initialCounts) {
  count = clampCount(start, count, state_.computeUavs.size());
  if (!count)
    return;
  Lock guard(this->lock());
  std::vector<ddi::D3D11DDI_HUNORDEREDACCESSVIEW> handles(count);
  std::vector<UINT> counts(count, UINT(-1));
  for (UINT i = 0; i < count; ++i) {
    ID3D11UnorderedAccessView* v = views ? views[i] : nullptr;
    state_.computeUavs[start + i].set<UnorderedAccessView>(v);
    handles[i] = handleOf<UnorderedAccessView, ddi::D3D11DDI_HUNORDEREDACCESSVIEW>(v);
    if (initialCounts)
      counts[i] = initialCounts[i];
  }
  ddi().pfnCsSetUnorderedAccessViews(handle(), start, count, handles.data(), counts.data());
}

void DdiContext::CSGetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView** out) {
  getRange(state_.computeUavs, start, count, out);
}

// Input assembler ------------------------------------------------------------------------

void DdiContext::IASetInputLayout(ID3D11InputLayout* layout) {
  Lock guard(this->lock());
  state_.inputLayout.set<InputLayout>(layout);
  ddi().pfnIaSetInputLayout(handle(), handleOf<InputLayout, ddi::D3D10DDI_HELEMENTLAYOUT>(layout));
}

void DdiContext::IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* strides,
                                          const UINT* offsets) {
  count = clampCount(start, count, state_.vertexBuffers.size());
  if (!count)
    return;
  Lock guard(this->lock());
  std::vector<ddi::D3D10DDI_HRESOURCE> handles(count);
  for (UINT i = 0; i < count; ++i) {
    ID3D11Buffer* b = buffers ? buffers[i] : nullptr;
    state_.vertexBuffers[start + i].set<Buffer>(b);
    state_.strides[start + i] = strides ? strides[i] : 0;
    state_.offsets[start + i] = offsets ? offsets[i] : 0;
    handles[i] = handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(b);
  }
  ddi().pfnIaSetVertexBuffers(handle(), start, count, handles.data(), &state_.strides[start],
                                        &state_.offsets[start]);
}

void DdiContext::IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format, UINT offset) {
  Lock guard(this->lock());
  state_.indexBuffer.set<Buffer>(buffer);
  state_.indexFormat = format;
  state_.indexOffset = offset;
  ddi().pfnIaSetIndexBuffer(handle(), handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(buffer), format,
                                      offset);
}

void DdiContext::IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY topology) {
  Lock guard(this->lock());
  state_.topology = topology;
  ddi().pfnIaSetTopology(handle(), ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY(topology));   // value-equal
}

void DdiContext::IAGetInputLayout(ID3D11InputLayout** out) { state_.inputLayout.get(out); }
void DdiContext::IAGetVertexBuffers(UINT start, UINT count, ID3D11Buffer** buffers, UINT* strides, UINT* offsets) {
  getRange(state_.vertexBuffers, start, count, buffers);
  for (UINT i = 0; i < count; ++i) {
    const bool in = start + i < state_.vertexBuffers.size();
    if (strides) strides[i] = in ? state_.strides[start + i] : 0;
    if (offsets) offsets[i] = in ? state_.offsets[start + i] : 0;
  }
}
void DdiContext::IAGetIndexBuffer(ID3D11Buffer** buffer, DXGI_FORMAT* format, UINT* offset) {
  if (buffer) state_.indexBuffer.get(buffer);
  if (format) *format = state_.indexFormat;
  if (offset) *offset = state_.indexOffset;
}
void DdiContext::IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY* out) { if (out) *out = state_.topology; }

// Draws and dispatch ----------------------------------------------------------------------

void DdiContext::DrawIndexed(UINT count, UINT start, INT base) {
  Lock guard(this->lock());
  ddi().pfnDrawIndexed(handle(), count, start, base);
}
void DdiContext::Draw(UINT count, UINT start) {
  Lock guard(this->lock());
  ddi().pfnDraw(handle(), count, start);
}
void DdiContext::DrawIndexedInstanced(UINT count, UINT instances, UINT start, INT base, UINT startInstance) {
  Lock guard(this->lock());
  ddi().pfnDrawIndexedInstanced(handle(), count, instances, start, base, startInstance);
}
void DdiContext::DrawInstanced(UINT count, UINT instances, UINT start, UINT startInstance) {
  Lock guard(this->lock());
  ddi().pfnDrawInstanced(handle(), count, instances, start, startInstance);
}
void DdiContext::DrawAuto() {
  Lock guard(this->lock());
  ddi().pfnDrawAuto(handle());
}
void DdiContext::DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) {
  Lock guard(this->lock());
  ddi().pfnDrawIndexedInstancedIndirect(handle(), handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(args),
                                                  offset);
}
void DdiContext::DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) {
  Lock guard(this->lock());
  ddi().pfnDrawInstancedIndirect(handle(), handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(args), offset);
}
void DdiContext::Dispatch(UINT x, UINT y, UINT z) {
  Lock guard(this->lock());
  ddi().pfnDispatch(handle(), x, y, z);
}
void DdiContext::DispatchIndirect(ID3D11Buffer* args, UINT offset) {
  Lock guard(this->lock());
  ddi().pfnDispatchIndirect(handle(), handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(args), offset);
}

// Maps -----------------------------------------------------------------------------------

HRESULT DdiContext::Map(ID3D11Resource* resource, UINT subresource, D3D11_MAP type, UINT flags,
                              D3D11_MAPPED_SUBRESOURCE* out) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info || !out)
    return E_INVALIDARG;
  if (r.info->usage == D3D11_USAGE_DEFAULT || r.info->usage == D3D11_USAGE_IMMUTABLE)
    return E_INVALIDARG;
  Lock guard(this->lock());
  const auto& f = ddi();
  // The runtime picks the specialized entry for the resource and map type.
  ddi::PFND3D10DDI_RESOURCEMAP map = f.pfnResourceMap;
  const bool ia = r.info->bindFlags & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER);
  const bool cb = r.info->bindFlags & D3D11_BIND_CONSTANT_BUFFER;
  if (r.info->usage == D3D11_USAGE_STAGING)
    map = f.pfnStagingResourceMap;
  else if (type == D3D11_MAP_WRITE_DISCARD)
    map = ia ? f.pfnDynamicIABufferMapDiscard : cb ? f.pfnDynamicConstantBufferMapDiscard : f.pfnDynamicResourceMapDiscard;
  else if (type == D3D11_MAP_WRITE_NO_OVERWRITE)
    map = ia ? f.pfnDynamicIABufferMapNoOverwrite : cb ? f.pfnDynamicConstantBufferMapNoOverwrite : f.pfnResourceMap;
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  map(handle(), r.handle, subresource, ddi::D3D10_DDI_MAP(type), flags & D3D11_MAP_FLAG_DO_NOT_WAIT, &mapped);
  HRESULT hr = S_OK;
  mapError(&hr);
  if (FAILED(hr)) {
    *out = {};
    return hr;
  }
  *out = {mapped.pData, mapped.RowPitch, mapped.DepthPitch};
  return S_OK;
}

void DdiContext::Unmap(ID3D11Resource* resource, UINT subresource) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return;
  Lock guard(this->lock());
  const auto& f = ddi();
  const bool ia = r.info->bindFlags & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER);
  const bool cb = r.info->bindFlags & D3D11_BIND_CONSTANT_BUFFER;
  ddi::PFND3D10DDI_RESOURCEUNMAP unmap = r.info->usage == D3D11_USAGE_STAGING ? f.pfnStagingResourceUnmap
                                         : ia                                 ? f.pfnDynamicIABufferUnmap
                                         : cb                                 ? f.pfnDynamicConstantBufferUnmap
                                                                              : f.pfnDynamicResourceUnmap;
  unmap(handle(), r.handle, subresource);
}

void DdiContext::replaceBufferContents(ID3D11Resource* resource, const std::vector<uint8_t>& bytes) {
  D3D11_MAPPED_SUBRESOURCE mapped{};
  if (FAILED(Map(resource, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped)))
    return;
  std::memcpy(mapped.pData, bytes.data(), bytes.size());
  Unmap(resource, 0);
}

// Queries -----------------------------------------------------------------------------------

void DdiContext::Begin(ID3D11Asynchronous* async) {
  if (!async)
    return;
  Lock guard(this->lock());
  ddi().pfnQueryBegin(handle(), queryHandle(async));
}

void DdiContext::End(ID3D11Asynchronous* async) {
  if (!async)
    return;
  Lock guard(this->lock());
  ddi().pfnQueryEnd(handle(), queryHandle(async));
}

HRESULT DdiContext::GetData(ID3D11Asynchronous* async, void* data, UINT size, UINT flags) {
  if (deferred_)
    return DXGI_ERROR_INVALID_CALL;
  if (!async || (data && size != async->GetDataSize()) || (!data && size))
    return E_INVALIDARG;
  Lock guard(this->lock());
  ddi().pfnQueryGetData(handle(), queryHandle(async), data, size,
                                  flags & D3D11_ASYNC_GETDATA_DONOTFLUSH);
  const HRESULT hr = takeError();
  if (hr == DXGI_ERROR_WAS_STILL_DRAWING)
    return S_FALSE;
  return hr;
}

void DdiContext::SetPredication(ID3D11Predicate* predicate, BOOL value) {
  Lock guard(this->lock());
  state_.predicate.set<Query<ID3D11Predicate>>(predicate);
  state_.predicateValue = value;
  ddi().pfnSetPredication(handle(), queryHandle(predicate), value);
}

void DdiContext::GetPredication(ID3D11Predicate** predicate, BOOL* value) {
  if (predicate) state_.predicate.get(predicate);
  if (value) *value = state_.predicateValue;
}

// Output merger ----------------------------------------------------------------------------

void DdiContext::OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views, ID3D11DepthStencilView* dsv) {
  count = std::min<UINT>(count, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT);
  Lock guard(this->lock());
  for (UINT i = 0; i < state_.renderTargets.size(); ++i)
    state_.renderTargets[i].set<RenderTargetView>(i < count && views ? views[i] : nullptr);
  state_.depthStencil.set<DepthStencilView>(dsv);
  // Render targets and output-merger UAVs share slots: binding targets unbinds UAVs there.
  for (UINT i = 0; i < count; ++i)
    state_.outputUavs[i].set<UnorderedAccessView>(nullptr);
  ddi::D3D10DDI_HRENDERTARGETVIEW rtvs[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT]{};
  for (UINT i = 0; i < count; ++i)
    rtvs[i] = handleOf<RenderTargetView, ddi::D3D10DDI_HRENDERTARGETVIEW>(state_.renderTargets[i].iface);
  ddi().pfnSetRenderTargets(handle(), rtvs, count, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT - count,
                                      handleOf<DepthStencilView, ddi::D3D10DDI_HDEPTHSTENCILVIEW>(dsv), nullptr, nullptr,
                                      0, 0, 0, count);
}

void DdiContext::OMSetRenderTargetsAndUnorderedAccessViews(UINT rtvCount, ID3D11RenderTargetView* const* rtvs,
                                                                 ID3D11DepthStencilView* dsv, UINT uavStart,
                                                                 UINT uavCount, ID3D11UnorderedAccessView* const* uavs,
                                                                 const UINT* initialCounts) {
  Lock guard(this->lock());
  if (rtvCount != D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL) {
    rtvCount = std::min<UINT>(rtvCount, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT);
    for (UINT i = 0; i < state_.renderTargets.size(); ++i)
      state_.renderTargets[i].set<RenderTargetView>(i < rtvCount && rtvs ? rtvs[i] : nullptr);
    state_.depthStencil.set<DepthStencilView>(dsv);
  }
  if (uavCount != D3D11_KEEP_UNORDERED_ACCESS_VIEWS) {
    for (auto& slot : state_.outputUavs)
      slot.set<UnorderedAccessView>(nullptr);
    for (UINT i = 0; i < uavCount && uavStart + i < state_.outputUavs.size(); ++i)
      state_.outputUavs[uavStart + i].set<UnorderedAccessView>(uavs ? uavs[i] : nullptr);
  }
  // Sent whole: the DDI's ranges describe the same result.
  ddi::D3D10DDI_HRENDERTARGETVIEW rtvHandles[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT]{};
  UINT boundRtvs = 0;
  for (UINT i = 0; i < state_.renderTargets.size(); ++i) {
    rtvHandles[i] = handleOf<RenderTargetView, ddi::D3D10DDI_HRENDERTARGETVIEW>(state_.renderTargets[i].iface);
    if (state_.renderTargets[i].iface)
      boundRtvs = i + 1;
  }
  std::vector<ddi::D3D11DDI_HUNORDEREDACCESSVIEW> uavHandles(state_.outputUavs.size());
  std::vector<UINT> counts(state_.outputUavs.size(), UINT(-1));
  for (UINT i = 0; i < uavHandles.size(); ++i)
    uavHandles[i] = handleOf<UnorderedAccessView, ddi::D3D11DDI_HUNORDEREDACCESSVIEW>(state_.outputUavs[i].iface);
  if (initialCounts && uavCount != D3D11_KEEP_UNORDERED_ACCESS_VIEWS)
    for (UINT i = 0; i < uavCount && uavStart + i < counts.size(); ++i)
      counts[uavStart + i] = initialCounts[i];
  const UINT uavSlots = UINT(uavHandles.size()) - boundRtvs;
  ddi().pfnSetRenderTargets(handle(), rtvHandles, boundRtvs,
                                      D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT - boundRtvs,
                                      handleOf<DepthStencilView, ddi::D3D10DDI_HDEPTHSTENCILVIEW>(state_.depthStencil.iface),
                                      uavHandles.data() + boundRtvs, counts.data() + boundRtvs, boundRtvs, uavSlots,
                                      boundRtvs, uavSlots);
}

void DdiContext::OMSetBlendState(ID3D11BlendState* blend, const FLOAT factor[4], UINT mask) {
  Lock guard(this->lock());
  state_.blend.set<BlendState>(blend);
  const FLOAT ones[4] = {1, 1, 1, 1};
  std::memcpy(state_.blendFactor, factor ? factor : ones, sizeof(state_.blendFactor));
  state_.sampleMask = mask;
  ddi().pfnSetBlendState(handle(), handleOf<BlendState, ddi::D3D10DDI_HBLENDSTATE>(blend),
                                   state_.blendFactor, mask);
}

void DdiContext::OMSetDepthStencilState(ID3D11DepthStencilState* depth, UINT ref) {
  Lock guard(this->lock());
  state_.depthState.set<DepthStencilState>(depth);
  state_.stencilRef = ref;
  ddi().pfnSetDepthStencilState(handle(),
                                          handleOf<DepthStencilState, ddi::D3D10DDI_HDEPTHSTENCILSTATE>(depth), ref);
}

void DdiContext::OMGetRenderTargets(UINT count, ID3D11RenderTargetView** rtvs, ID3D11DepthStencilView** dsv) {
  getRange(state_.renderTargets, 0, count, rtvs);
  if (dsv) state_.depthStencil.get(dsv);
}
void DdiContext::OMGetRenderTargetsAndUnorderedAccessViews(UINT rtvCount, ID3D11RenderTargetView** rtvs,
                                                                 ID3D11DepthStencilView** dsv, UINT uavStart,
                                                                 UINT uavCount, ID3D11UnorderedAccessView** uavs) {
  OMGetRenderTargets(rtvCount, rtvs, dsv);
  getRange(state_.outputUavs, uavStart, uavCount, uavs);
}
void DdiContext::OMGetBlendState(ID3D11BlendState** blend, FLOAT factor[4], UINT* mask) {
  if (blend) state_.blend.get(blend);
  if (factor) std::memcpy(factor, state_.blendFactor, sizeof(state_.blendFactor));
  if (mask) *mask = state_.sampleMask;
}
void DdiContext::OMGetDepthStencilState(ID3D11DepthStencilState** depth, UINT* ref) {
  if (depth) state_.depthState.get(depth);
  if (ref) *ref = state_.stencilRef;
}

// Stream output, rasterizer ------------------------------------------------------------------

void DdiContext::SOSetTargets(UINT count, ID3D11Buffer* const* buffers, const UINT* offsets) {
  count = std::min<UINT>(count, D3D11_SO_BUFFER_SLOT_COUNT);
  Lock guard(this->lock());
  ddi::D3D10DDI_HRESOURCE handles[D3D11_SO_BUFFER_SLOT_COUNT]{};
  UINT ddiOffsets[D3D11_SO_BUFFER_SLOT_COUNT]{};
  for (UINT i = 0; i < D3D11_SO_BUFFER_SLOT_COUNT; ++i) {
    ID3D11Buffer* b = i < count && buffers ? buffers[i] : nullptr;
    state_.streamOutput[i].set<Buffer>(b);
    handles[i] = handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(b);
    ddiOffsets[i] = i < count && offsets ? offsets[i] : 0;
  }
  ddi().pfnSoSetTargets(handle(), count, D3D11_SO_BUFFER_SLOT_COUNT - count, handles, ddiOffsets);
}

void DdiContext::SOGetTargets(UINT count, ID3D11Buffer** out) { getRange(state_.streamOutput, 0, count, out); }

void DdiContext::RSSetState(ID3D11RasterizerState* rasterizer) {
  Lock guard(this->lock());
  state_.rasterizer.set<RasterizerState>(rasterizer);
  ddi().pfnSetRasterizerState(handle(),
                                        handleOf<RasterizerState, ddi::D3D10DDI_HRASTERIZERSTATE>(rasterizer));
}

void DdiContext::RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) {
  count = std::min<UINT>(count, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
  Lock guard(this->lock());
  const UINT previous = UINT(state_.viewports.size());
  state_.viewports.assign(viewports, viewports + (viewports ? count : 0));
  static_assert(sizeof(D3D11_VIEWPORT) == sizeof(ddi::D3D10_DDI_VIEWPORT));
  ddi().pfnSetViewports(handle(), count, previous > count ? previous - count : 0,
                                  reinterpret_cast<const ddi::D3D10_DDI_VIEWPORT*>(state_.viewports.data()));
}

void DdiContext::RSSetScissorRects(UINT count, const D3D11_RECT* rects) {
  count = std::min<UINT>(count, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
  Lock guard(this->lock());
  const UINT previous = UINT(state_.scissors.size());
  state_.scissors.assign(rects, rects + (rects ? count : 0));
  ddi().pfnSetScissorRects(handle(), count, previous > count ? previous - count : 0,
                                     state_.scissors.data());
}

void DdiContext::RSGetState(ID3D11RasterizerState** out) { state_.rasterizer.get(out); }
void DdiContext::RSGetViewports(UINT* count, D3D11_VIEWPORT* out) {
  if (!count) return;
  if (out)
    for (UINT i = 0; i < *count; ++i)
      out[i] = i < state_.viewports.size() ? state_.viewports[i] : D3D11_VIEWPORT{};
  else
    *count = UINT(state_.viewports.size());
}
void DdiContext::RSGetScissorRects(UINT* count, D3D11_RECT* out) {
  if (!count) return;
  if (out)
    for (UINT i = 0; i < *count; ++i)
      out[i] = i < state_.scissors.size() ? state_.scissors[i] : D3D11_RECT{};
  else
    *count = UINT(state_.scissors.size());
}

// Copies, updates, clears ----------------------------------------------------------------------

void DdiContext::CopySubresourceRegion(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                                             ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box) {
  CopySubresourceRegion1(dst, dstSub, x, y, z, src, srcSub, box, 0);
}

// The API's copy flags are the DDI's (D3D11_1DDI_COPY_NO_OVERWRITE, _DISCARD); any other
// bit makes the runtime drop the call.
constexpr UINT kCopyFlags = D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD;
static_assert(UINT(D3D11_COPY_NO_OVERWRITE) == UINT(ddi::D3D11_1DDI_COPY_NO_OVERWRITE) &&
              UINT(D3D11_COPY_DISCARD) == UINT(ddi::D3D11_1DDI_COPY_DISCARD));

void DdiContext::CopySubresourceRegion1(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                                        ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box, UINT flags) {
  if (!dst || !src || (flags & ~kCopyFlags))
    return;
  Lock guard(this->lock());
  const ddi::D3D10_DDI_BOX ddiBoxValue = box ? ddiBox(*box) : ddi::D3D10_DDI_BOX{};
  ddi().pfnResourceCopyRegion(handle(), resourceHandle(dst), dstSub, x, y, z, resourceHandle(src),
                                        srcSub, box ? &ddiBoxValue : nullptr, flags);
}

void DdiContext::CopyResource(ID3D11Resource* dst, ID3D11Resource* src) {
  if (!dst || !src)
    return;
  Lock guard(this->lock());
  ddi().pfnResourceCopy(handle(), resourceHandle(dst), resourceHandle(src));
}

void DdiContext::UpdateSubresource(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data,
                                         UINT rowPitch, UINT depthPitch) {
  UpdateSubresource1(dst, sub, box, data, rowPitch, depthPitch, 0);
}

void DdiContext::UpdateSubresource1(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data,
                                    UINT rowPitch, UINT depthPitch, UINT flags) {
  const ResourceRef r = resourceRef(dst);
  if (!r.info || !data || (flags & ~kCopyFlags))
    return;
  if (box && (box->left >= box->right || box->top >= box->bottom || box->front >= box->back))
    return;   // an empty box updates nothing (the runtime drops the call)
  Lock guard(this->lock());
  const ddi::D3D10_DDI_BOX ddiBoxValue = box ? ddiBox(*box) : ddi::D3D10_DDI_BOX{};
  // A whole DEFAULT constant buffer goes through its own entry, as the runtime sends it.
  if (!box && r.info->type == D3D11_RESOURCE_DIMENSION_BUFFER && (r.info->bindFlags & D3D11_BIND_CONSTANT_BUFFER))
    ddi().pfnDefaultConstantBufferUpdateSubresourceUP(handle(), r.handle, sub, nullptr, data,
                                                                 rowPitch, depthPitch, flags);
  else
    ddi().pfnResourceUpdateSubresourceUP(handle(), r.handle, sub, box ? &ddiBoxValue : nullptr, data,
                                                   rowPitch, depthPitch, flags);
}

namespace {

// A view's DDI handle type and handle value (pfnDiscard, pfnClearView).
bool ddiView(ID3D11View* view, ddi::D3D11DDI_HANDLETYPE* type, void** handle) {
  if (auto* v = dynamic_cast<RenderTargetView*>(view)) {
    *type = ddi::D3D10DDI_HT_RENDERTARGETVIEW;
    *handle = v->handle.pDrvPrivate;
  } else if (auto* v = dynamic_cast<UnorderedAccessView*>(view)) {
    *type = ddi::D3D11DDI_HT_UNORDEREDACCESSVIEW;
    *handle = v->handle.pDrvPrivate;
  } else if (auto* v = dynamic_cast<ShaderResourceView*>(view)) {
    *type = ddi::D3D10DDI_HT_SHADERRESOURCEVIEW;
    *handle = v->handle.pDrvPrivate;
  } else if (auto* v = dynamic_cast<DepthStencilView*>(view)) {
    *type = ddi::D3D10DDI_HT_DEPTHSTENCILVIEW;
    *handle = v->handle.pDrvPrivate;
  } else {
    return false;
  }
  return true;
}

}  // namespace

void DdiContext::DiscardResource(ID3D11Resource* resource) {
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return;
  Lock guard(this->lock());
  ddi().pfnDiscard(handle(), ddi::D3D10DDI_HT_RESOURCE, r.handle.pDrvPrivate, nullptr, 0);
}

void DdiContext::DiscardView1(ID3D11View* view, const D3D11_RECT* rects, UINT numRects) {
  ddi::D3D11DDI_HANDLETYPE type{};
  void* h = nullptr;
  if (!ddiView(view, &type, &h))
    return;
  Lock guard(this->lock());
  ddi().pfnDiscard(handle(), type, h, rects, rects ? numRects : 0);
}

// ClearView takes render-target and unordered-access views (video processor output views
// come from a video device this runtime does not offer); the runtime drops any other.
void DdiContext::ClearView(ID3D11View* view, const FLOAT color[4], const D3D11_RECT* rects, UINT numRects) {
  ddi::D3D11DDI_HANDLETYPE type{};
  void* h = nullptr;
  if (!color || !ddiView(view, &type, &h) ||
      (type != ddi::D3D10DDI_HT_RENDERTARGETVIEW && type != ddi::D3D11DDI_HT_UNORDEREDACCESSVIEW))
    return;
  Lock guard(this->lock());
  ddi().pfnClearView(handle(), type, h, color, rects, rects ? numRects : 0);
}

void DdiContext::CopyStructureCount(ID3D11Buffer* dst, UINT offset, ID3D11UnorderedAccessView* src) {
  if (!dst || !src)
    return;
  Lock guard(this->lock());
  ddi().pfnCopyStructureCount(handle(), handleOf<Buffer, ddi::D3D10DDI_HRESOURCE>(dst), offset,
                                        handleOf<UnorderedAccessView, ddi::D3D11DDI_HUNORDEREDACCESSVIEW>(src));
}

void DdiContext::ClearRenderTargetView(ID3D11RenderTargetView* view, const FLOAT color[4]) {
  if (!view)
    return;
  Lock guard(this->lock());
  FLOAT c[4] = {color[0], color[1], color[2], color[3]};
  ddi().pfnClearRenderTargetView(handle(),
                                           handleOf<RenderTargetView, ddi::D3D10DDI_HRENDERTARGETVIEW>(view), c);
}

void DdiContext::ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view, const UINT values[4]) {
  if (!view)
    return;
  Lock guard(this->lock());
  ddi().pfnClearUnorderedAccessViewUint(
      handle(), handleOf<UnorderedAccessView, ddi::D3D11DDI_HUNORDEREDACCESSVIEW>(view), values);
}

void DdiContext::ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view, const FLOAT values[4]) {
  if (!view)
    return;
  Lock guard(this->lock());
  ddi().pfnClearUnorderedAccessViewFloat(
      handle(), handleOf<UnorderedAccessView, ddi::D3D11DDI_HUNORDEREDACCESSVIEW>(view), values);
}

void DdiContext::ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags, FLOAT depth, UINT8 stencil) {
  if (!view)
    return;
  Lock guard(this->lock());
  ddi().pfnClearDepthStencilView(handle(),
                                           handleOf<DepthStencilView, ddi::D3D10DDI_HDEPTHSTENCILVIEW>(view),
                                           flags & (D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL), depth, stencil);
}

void DdiContext::GenerateMips(ID3D11ShaderResourceView* view) {
  if (!view)
    return;
  Lock guard(this->lock());
  ddi().pfnGenMips(handle(), handleOf<ShaderResourceView, ddi::D3D10DDI_HSHADERRESOURCEVIEW>(view));
}

void DdiContext::SetResourceMinLOD(ID3D11Resource* resource, FLOAT lod) {
  if (!resource)
    return;
  Lock guard(this->lock());
  ddi().pfnSetResourceMinLOD(handle(), resourceHandle(resource), lod);
}

FLOAT DdiContext::GetResourceMinLOD(ID3D11Resource*) {
  notImplemented("GetResourceMinLOD");
  return 0.0f;
}

void DdiContext::ResolveSubresource(ID3D11Resource* dst, UINT dstSub, ID3D11Resource* src, UINT srcSub,
                                          DXGI_FORMAT format) {
  if (!dst || !src)
    return;
  Lock guard(this->lock());
  ddi().pfnResourceResolveSubresource(handle(), resourceHandle(dst), dstSub, resourceHandle(src),
                                                srcSub, format);
}

// ContextBase's D3D11.1 members ---------------------------------------------------------------------

// The runtime drops a call whose ranges are half given, exceed the 4096 constants a
// shader sees or are not in 16-constant units.
void ContextBase::setConstantBuffers1(Stage stage, UINT start, UINT count, ID3D11Buffer* const* buffers,
                                      const UINT* first, const UINT* num) {
  if (!first != !num)
    return;
  for (UINT i = 0; first && i < count; ++i)
    if (num[i] > D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT || first[i] % 16 || num[i] % 16)
      return;
  setConstantBuffers(stage, start, count, buffers, first, num);
}

void ContextBase::ClearView(ID3D11View*, const FLOAT[4], const D3D11_RECT*, UINT) {
  notImplemented("ClearView on an emulated deferred context");
}

void ContextBase::SwapDeviceContextState(ID3DDeviceContextState*, ID3DDeviceContextState** previous) {
  notImplemented("SwapDeviceContextState");
  if (previous)
    *previous = nullptr;
}

// State as a whole ---------------------------------------------------------------------------------

void DdiContext::applyState() {
  // Re-sends every binding of state_ (each setter rebinds what it is given).
  PipelineState s = state_;
  for (UINT stage = 0; stage < kStageCount; ++stage) {
    StageState& st = s.stages[stage];
    std::vector<ID3D11Buffer*> cbs;
    for (auto& slot : st.constantBuffers) cbs.push_back(slot.iface);
    // Ranges go back as they were bound; slots bound without one as whole buffers.
    const bool ranged = std::find(st.ranged.begin(), st.ranged.end(), true) != st.ranged.end();
    std::vector<UINT> firsts(cbs.size()), nums(cbs.size());
    for (size_t i = 0; ranged && i < cbs.size(); ++i) {
      firsts[i] = st.ranged[i] ? st.firstConstant[i] : 0;
      nums[i] = st.ranged[i] ? st.numConstants[i] : D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT;
    }
    std::vector<ID3D11ShaderResourceView*> views;
    for (auto& slot : st.views) views.push_back(slot.iface);
    std::vector<ID3D11SamplerState*> samplers;
    for (auto& slot : st.samplers) samplers.push_back(slot.iface);
    std::vector<ID3D11ClassInstance*> instances;
    for (auto& slot : st.classInstances) instances.push_back(slot.iface);
    setShader(Stage(stage), st.shader.iface, instances.data(), UINT(instances.size()));
    setConstantBuffers(Stage(stage), 0, UINT(cbs.size()), cbs.data(), ranged ? firsts.data() : nullptr,
                       ranged ? nums.data() : nullptr);
    setShaderResources(Stage(stage), 0, UINT(views.size()), views.data());
    setSamplers(Stage(stage), 0, UINT(samplers.size()), samplers.data());
  }
  // Compute UAV slots beyond the level's (8 below 11_1) are not the API's to send: the
  // target refuses the whole call (a Neptune host logs UavSlotRange and ignores it).
  const size_t uavSlots = device()->GetFeatureLevel() >= D3D_FEATURE_LEVEL_11_1 ? D3D11_1_UAV_SLOT_COUNT
                                                                                : D3D11_PS_CS_UAV_REGISTER_COUNT;
  std::vector<ID3D11UnorderedAccessView*> uavs;
  for (size_t i = 0; i < uavSlots; ++i) uavs.push_back(s.computeUavs[i].iface);
  CSSetUnorderedAccessViews(0, UINT(uavs.size()), uavs.data(), nullptr);
  IASetInputLayout(s.inputLayout.iface);
  std::vector<ID3D11Buffer*> vbs;
  for (auto& slot : s.vertexBuffers) vbs.push_back(slot.iface);
  IASetVertexBuffers(0, UINT(vbs.size()), vbs.data(), s.strides.data(), s.offsets.data());
  IASetIndexBuffer(s.indexBuffer.iface, s.indexFormat, s.indexOffset);
  IASetPrimitiveTopology(s.topology);
  ID3D11RenderTargetView* rtvs[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT];
  for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; ++i) rtvs[i] = s.renderTargets[i].iface;
  std::vector<ID3D11UnorderedAccessView*> omUavs;
  for (auto& slot : s.outputUavs) omUavs.push_back(slot.iface);
  OMSetRenderTargetsAndUnorderedAccessViews(D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, rtvs, s.depthStencil.iface, 0,
                                            UINT(omUavs.size()), omUavs.data(), nullptr);
  OMSetBlendState(s.blend.iface, s.blendFactor, s.sampleMask);
  OMSetDepthStencilState(s.depthState.iface, s.stencilRef);
  RSSetState(s.rasterizer.iface);
  RSSetViewports(UINT(s.viewports.size()), s.viewports.data());
  RSSetScissorRects(UINT(s.scissors.size()), s.scissors.data());
  ID3D11Buffer* so[D3D11_SO_BUFFER_SLOT_COUNT];
  for (UINT i = 0; i < D3D11_SO_BUFFER_SLOT_COUNT; ++i) so[i] = s.streamOutput[i].iface;
  const UINT soOffsets[D3D11_SO_BUFFER_SLOT_COUNT] = {UINT(-1), UINT(-1), UINT(-1), UINT(-1)};   // append
  SOSetTargets(D3D11_SO_BUFFER_SLOT_COUNT, so, soOffsets);
  SetPredication(s.predicate.iface, s.predicateValue);
}

void DdiContext::ClearState() {
  Lock guard(this->lock());
  // Viewports and scissors first: the default state has none, and the DDI clears
  // the previous ones by count.
  const UINT viewports = UINT(state_.viewports.size()), scissors = UINT(state_.scissors.size());
  state_ = PipelineState();
  applyState();
  ddi().pfnSetViewports(handle(), 0, viewports, nullptr);
  ddi().pfnSetScissorRects(handle(), 0, scissors, nullptr);
}

void DdiContext::Flush() {
  if (deferred_)
    return;
  Lock guard(this->lock());
  ddi().pfnFlush(handle(), 0);
  device()->noteError(takeError());
}

void DdiContext::ExecuteCommandList(ID3D11CommandList* list, BOOL restore) {
  if (!list)
    return;
  auto* commands = static_cast<CommandListBase*>(list);
  Lock lock(this->lock());
  PipelineState saved;
  if (restore)
    saved = state_;
  // A command list starts from the default state and leaves it behind unless asked to restore.
  ClearState();
  commands->execute(*this);
  if (restore) {
    state_ = saved;
    applyState();
  } else {
    ClearState();
  }
}

}  // namespace triton::runtime
