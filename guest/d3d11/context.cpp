// SPDX-License-Identifier: MIT
#include "context.h"
#include "context_state.h"

#include <cstring>

#include "fence.h"
#include "log.h"
#include "npt/validation/context_calls.h"
#include "resource.h"
#include "texture.h"

namespace npt::guest {

namespace {

constexpr UINT kMaxClassInstances = 256;
// An Unmap names at most this many written ranges (the overlay's bound); more, and the
// whole subresource travels.
constexpr size_t kMaxUnmapRanges = 1024;

// The ranges' bytes of `bytes`, concatenated in order (an Unmap's payload).
void gatherRanges(const uint8_t* bytes, const std::vector<WrittenRange>& ranges, std::vector<uint8_t>& written) {
  size_t total = 0;
  for (const WrittenRange& range : ranges)
    total += range.size;
  written.resize(total);
  size_t at = 0;
  for (const WrittenRange& range : ranges) {
    std::memcpy(written.data() + at, bytes + range.offset, range.size);
    at += range.size;
  }
}

template<typename T, typename I>
T* ours(I* object) { return object ? static_cast<T*>(object) : nullptr; }

Query* queryOf(ID3D11Asynchronous* async) { return static_cast<Query*>(static_cast<ID3D11Query*>(async)); }
Query* queryOf(ID3D11Predicate* predicate) { return predicate ? static_cast<Query*>(reinterpret_cast<ID3D11Query*>(predicate)) : nullptr; }

// A STAGING map's memory handed to the application; `local`: the host never mapped it.
HRESULT handOutMap(MapMemory& memory, D3D11_MAP type, bool local, D3D11_MAPPED_SUBRESOURCE* mapped) {
  memory.mapped = true;
  memory.servedLocally = local;
  memory.type = type;
  mapped->pData = memory.bytes.data();
  mapped->RowPitch = memory.rowPitch;
  mapped->DepthPitch = memory.depthPitch;
  return S_OK;
}

// The id of any view interface (ClearView, DiscardView take ID3D11View*).
protocol::ObjectId viewId(ID3D11View* view) {
  if (!view)
    return 0;
  void* p = nullptr;
  protocol::ObjectId id = 0;
  if (SUCCEEDED(view->QueryInterface(__uuidof(ID3D11RenderTargetView), &p)))
    id = static_cast<RenderTargetView*>(static_cast<ID3D11RenderTargetView*>(p))->objectId();
  else if (SUCCEEDED(view->QueryInterface(__uuidof(ID3D11DepthStencilView), &p)))
    id = static_cast<DepthStencilView*>(static_cast<ID3D11DepthStencilView*>(p))->objectId();
  else if (SUCCEEDED(view->QueryInterface(__uuidof(ID3D11ShaderResourceView), &p)))
    id = static_cast<ShaderResourceView*>(static_cast<ID3D11ShaderResourceView*>(p))->objectId();
  else if (SUCCEEDED(view->QueryInterface(__uuidof(ID3D11UnorderedAccessView), &p)))
    id = static_cast<UnorderedAccessView*>(static_cast<ID3D11UnorderedAccessView*>(p))->objectId();
  if (p)
    static_cast<IUnknown*>(p)->Release();
  return id;
}

}

// ---- faces sharing the context's references

HRESULT STDMETHODCALLTYPE ContextAnnotation::QueryInterface(REFIID riid, void** object) { return m_context->QueryInterface(riid, object); }
ULONG STDMETHODCALLTYPE ContextAnnotation::AddRef() { return m_context->AddRef(); }
ULONG STDMETHODCALLTYPE ContextAnnotation::Release() { return m_context->Release(); }
// The events still reach the host (a profiler there sees them), but the application is
// not running under a Direct3D profiling tool: Windows answers -1 for that.
INT STDMETHODCALLTYPE ContextAnnotation::BeginEvent(LPCWSTR name) { m_context->BeginEventInt(name, 0); return -1; }
INT STDMETHODCALLTYPE ContextAnnotation::EndEvent() { m_context->EndEvent(); return -1; }
void STDMETHODCALLTYPE ContextAnnotation::SetMarker(LPCWSTR name) { m_context->SetMarkerInt(name, 0); }

HRESULT STDMETHODCALLTYPE ContextMultithread::QueryInterface(REFIID riid, void** object) { return m_context->QueryInterface(riid, object); }
ULONG STDMETHODCALLTYPE ContextMultithread::AddRef() { return m_context->AddRef(); }
ULONG STDMETHODCALLTYPE ContextMultithread::Release() { return m_context->Release(); }
void STDMETHODCALLTYPE ContextMultithread::Enter() { m_context->parent()->enterProtected(); }
void STDMETHODCALLTYPE ContextMultithread::Leave() { m_context->parent()->leaveProtected(); }
WINBOOL STDMETHODCALLTYPE ContextMultithread::SetMultithreadProtected(WINBOOL enable) { return m_context->parent()->setProtected(enable); }
WINBOOL STDMETHODCALLTYPE ContextMultithread::GetMultithreadProtected() { return m_context->parent()->getProtected(); }

// ---- the context

Context::Context(Device* device, protocol::ObjectId id, D3D11_DEVICE_CONTEXT_TYPE type, UINT flags)
: D3D11Child(device, id), m_type(type), m_flags(flags), m_annotation(this), m_multithread(this),
  m_stream(type == D3D11_DEVICE_CONTEXT_DEFERRED ? &device->runtime()->acquireDeferredStream()
                                                 : &device->runtime()->stream()) {}

Context::~Context() {
  // Commands still in the ring's batch are submitted by the DestroyObject that follows
  // (Runtime::destroyObject orders it after every deferred ring).
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    m_runtime->releaseDeferredStream(*m_stream);
}

HRESULT STDMETHODCALLTYPE Context::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11DeviceContext)) || IsEqualGUID(riid, __uuidof(ID3D11DeviceContext1)) ||
      IsEqualGUID(riid, __uuidof(ID3D11DeviceContext2)) || IsEqualGUID(riid, __uuidof(ID3D11DeviceContext3)) ||
      IsEqualGUID(riid, __uuidof(ID3D11DeviceContext4))) {
    *object = addRefed(static_cast<ID3D11DeviceContext4*>(this));
    return S_OK;
  }
  if (IsEqualGUID(riid, __uuidof(ID3DUserDefinedAnnotation))) {
    *object = addRefed(static_cast<ID3DUserDefinedAnnotation*>(&m_annotation));
    return S_OK;
  }
  if (IsEqualGUID(riid, __uuidof(ID3D11Multithread)) && m_type == D3D11_DEVICE_CONTEXT_IMMEDIATE) {
    *object = addRefed(static_cast<ID3D11Multithread*>(&m_multithread));
    return S_OK;
  }
  return queryChild(riid, object);
}

void Context::resetState() {
  m_state = ContextState();
}

void Context::releaseBindings() {
  resetState();
  m_activeState.reset();
}

void Context::flushStream() {
  m_stream->flush();
}

// ---- shader stages

template<typename ShaderClass, typename Interface>
void Context::setShader(StageState<ShaderClass>& stage, Interface* shader, ID3D11ClassInstance* const* instances, UINT count) {
  stage.shader.reset(ours<ShaderClass>(shader));
  stage.instances.clear();
  for (UINT i = 0; i < count && instances; i++)
    stage.instances.emplace_back(ours<ClassInstance>(instances[i]));
}

template<typename ShaderClass, typename Interface>
void Context::getShader(StageState<ShaderClass>& stage, Interface** shader, ID3D11ClassInstance** instances, UINT* count) {
  if (shader)
    *shader = addRefed(static_cast<Interface*>(stage.shader.get()));
  if (count) {
    if (instances)
      for (UINT i = 0; i < *count; i++)
        instances[i] = i < stage.instances.size() ? addRefed(static_cast<ID3D11ClassInstance*>(stage.instances[i].get())) : nullptr;
    *count = UINT(stage.instances.size());
  }
}

template<typename ShaderClass>
bool Context::setConstantBuffers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11Buffer* const* buffers,
                                 const UINT* first, const UINT* num, protocol::ObjectId* ids) {
  if (start >= D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT || count > D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT - start)
    return false;
  // Windows ignores the whole call when only one of the two range arrays is given, or
  // when a range is not in whole 16-constant units or longer than 4096 constants.
  if (!first != !num)
    return false;
  if (first)
    for (UINT i = 0; i < count; i++)
      if (first[i] % 16 || num[i] % 16 || num[i] > kWholeConstantBuffer)
        return false;
  for (UINT i = 0; i < count; i++) {
    Buffer* buffer = buffers ? ours<Buffer>(buffers[i]) : nullptr;
    stage.constantBuffers[start + i].reset(buffer);
    ids[i] = buffer ? buffer->objectId() : 0;
    stage.firstConstant[start + i] = first ? first[i] : 0;
    stage.numConstants[start + i] = num ? num[i] : kWholeConstantBuffer;
  }
  return true;
}

template<typename ShaderClass>
void Context::getConstantBuffers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11Buffer** buffers,
                                 UINT* first, UINT* num) {
  for (UINT i = 0; i < count; i++) {
    UINT slot = start + i;
    bool inRange = slot < D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT;
    if (buffers)
      buffers[i] = inRange ? addRefed(static_cast<ID3D11Buffer*>(stage.constantBuffers[slot].get())) : nullptr;
    if (first)
      first[i] = inRange ? stage.firstConstant[slot] : 0;
    if (num)
      num[i] = inRange ? stage.numConstants[slot] : 0;
  }
}

template<typename ShaderClass>
bool Context::setShaderResources(StageState<ShaderClass>& stage, UINT start, UINT count,
                                 ID3D11ShaderResourceView* const* views, protocol::ObjectId* ids) {
  if (start >= D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT || count > D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT - start)
    return false;
  for (UINT i = 0; i < count; i++) {
    ShaderResourceView* view = views ? ours<ShaderResourceView>(views[i]) : nullptr;
    stage.shaderResources[start + i].reset(view);
    ids[i] = view ? view->objectId() : 0;
  }
  return true;
}

template<typename ShaderClass>
void Context::getShaderResources(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11ShaderResourceView** views) {
  if (!views)
    return;
  for (UINT i = 0; i < count; i++)
    views[i] = start + i < D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT
      ? addRefed(static_cast<ID3D11ShaderResourceView*>(stage.shaderResources[start + i].get())) : nullptr;
}

template<typename ShaderClass>
bool Context::setSamplers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11SamplerState* const* samplers,
                          protocol::ObjectId* ids) {
  if (start >= D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT || count > D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT - start)
    return false;
  for (UINT i = 0; i < count; i++) {
    SamplerState* sampler = samplers ? ours<SamplerState>(samplers[i]) : nullptr;
    stage.samplers[start + i].reset(sampler);
    ids[i] = sampler ? sampler->objectId() : 0;
  }
  return true;
}

template<typename ShaderClass>
void Context::getSamplers(StageState<ShaderClass>& stage, UINT start, UINT count, ID3D11SamplerState** samplers) {
  if (!samplers)
    return;
  for (UINT i = 0; i < count; i++)
    samplers[i] = start + i < D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT
      ? addRefed(static_cast<ID3D11SamplerState*>(stage.samplers[start + i].get())) : nullptr;
}

// One block per stage: the setters record the generated command, the getters answer
// from the tracked state.
#define NPT_CONTEXT_STAGE(P, IFACE_SHADER, stage)                                                                    \
  void STDMETHODCALLTYPE Context::P##SetShader(IFACE_SHADER* shader, ID3D11ClassInstance* const* instances, UINT count) { \
    if (count > kMaxClassInstances)                                                                                   \
      return;                                                                                                         \
    setShader(m_state.stage, shader, instances, count);                                                              \
    protocol::ObjectId ids[kMaxClassInstances];                                                                       \
    for (UINT i = 0; i < count; i++)                                                                                  \
      ids[i] = instances && instances[i] ? ours<ClassInstance>(instances[i])->objectId() : 0;                        \
    protocol::ObjectId shaderId = m_state.stage.shader.id();                                                          \
    record([&](Recorder& r) {                                                                                         \
      return protocol::encode_ID3D11DeviceContext_##P##SetShader(r.writer(), m_id, shaderId, instances ? ids : nullptr, count); \
    });                                                                                                               \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##GetShader(IFACE_SHADER** shader, ID3D11ClassInstance** instances, UINT* count) { \
    getShader(m_state.stage, shader, instances, count);                                                              \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##SetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) {       \
    protocol::ObjectId ids[D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT];                                        \
    if (!setConstantBuffers(m_state.stage, start, count, buffers, nullptr, nullptr, ids))                              \
      return;                                                                                                         \
    record([&](Recorder& r) {                                                                                         \
      return protocol::encode_ID3D11DeviceContext_##P##SetConstantBuffers(r.writer(), m_id, start, count, ids);        \
    });                                                                                                               \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##SetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers,       \
                                                          const UINT* first, const UINT* num) {                      \
    protocol::ObjectId ids[D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT];                                        \
    if (!setConstantBuffers(m_state.stage, start, count, buffers, first, num, ids))                                    \
      return;                                                                                                         \
    record([&](Recorder& r) {                                                                                         \
      if (!first || !num)                                                                                             \
        return protocol::encode_ID3D11DeviceContext_##P##SetConstantBuffers(r.writer(), m_id, start, count, ids);      \
      return protocol::encode_ID3D11DeviceContext1_##P##SetConstantBuffers1(r.writer(), m_id, start, count, ids, first, num); \
    });                                                                                                               \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##GetConstantBuffers(UINT start, UINT count, ID3D11Buffer** buffers) {            \
    getConstantBuffers(m_state.stage, start, count, buffers, nullptr, nullptr);                                      \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##GetConstantBuffers1(UINT start, UINT count, ID3D11Buffer** buffers, UINT* first, UINT* num) { \
    getConstantBuffers(m_state.stage, start, count, buffers, first, num);                                            \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##SetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) { \
    protocol::ObjectId ids[D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT];                                             \
    if (!setShaderResources(m_state.stage, start, count, views, ids))                                                  \
      return;                                                                                                         \
    record([&](Recorder& r) {                                                                                         \
      return protocol::encode_ID3D11DeviceContext_##P##SetShaderResources(r.writer(), m_id, start, count, ids);        \
    });                                                                                                               \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##GetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView** views) {   \
    getShaderResources(m_state.stage, start, count, views);                                                          \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##SetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) {      \
    protocol::ObjectId ids[D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT];                                                    \
    if (!setSamplers(m_state.stage, start, count, samplers, ids))                                                      \
      return;                                                                                                         \
    record([&](Recorder& r) {                                                                                         \
      return protocol::encode_ID3D11DeviceContext_##P##SetSamplers(r.writer(), m_id, start, count, ids);               \
    });                                                                                                               \
  }                                                                                                                   \
  void STDMETHODCALLTYPE Context::P##GetSamplers(UINT start, UINT count, ID3D11SamplerState** samplers) {            \
    getSamplers(m_state.stage, start, count, samplers);                                                              \
  }

NPT_CONTEXT_STAGE(VS, ID3D11VertexShader, vs)
NPT_CONTEXT_STAGE(HS, ID3D11HullShader, hs)
NPT_CONTEXT_STAGE(DS, ID3D11DomainShader, ds)
NPT_CONTEXT_STAGE(GS, ID3D11GeometryShader, gs)
NPT_CONTEXT_STAGE(PS, ID3D11PixelShader, ps)
NPT_CONTEXT_STAGE(CS, ID3D11ComputeShader, cs)

#undef NPT_CONTEXT_STAGE

// ---- input assembler

void STDMETHODCALLTYPE Context::IASetInputLayout(ID3D11InputLayout* layout) {
  m_state.inputLayout.reset(ours<InputLayout>(layout));
  protocol::ObjectId id = m_state.inputLayout.id();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_IASetInputLayout(r.writer(), m_id, id); });
}

void STDMETHODCALLTYPE Context::IAGetInputLayout(ID3D11InputLayout** layout) {
  if (layout)
    *layout = addRefed(static_cast<ID3D11InputLayout*>(m_state.inputLayout.get()));
}

void STDMETHODCALLTYPE Context::IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers,
                                                   const UINT* strides, const UINT* offsets) {
  if (start >= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT || count > D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT - start)
    return;
  if (count && (!buffers || !strides || !offsets))
    return;
  protocol::ObjectId ids[D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT];
  for (UINT i = 0; i < count; i++) {
    Buffer* buffer = ours<Buffer>(buffers[i]);
    m_state.vertexBuffers[start + i].reset(buffer);
    m_state.vertexStrides[start + i] = strides[i];
    m_state.vertexOffsets[start + i] = offsets[i];
    ids[i] = buffer ? buffer->objectId() : 0;
  }
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_IASetVertexBuffers(r.writer(), m_id, start, count, ids, strides, offsets);
  });
}

void STDMETHODCALLTYPE Context::IAGetVertexBuffers(UINT start, UINT count, ID3D11Buffer** buffers, UINT* strides, UINT* offsets) {
  for (UINT i = 0; i < count; i++) {
    UINT slot = start + i;
    bool inRange = slot < D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT;
    if (buffers)
      buffers[i] = inRange ? addRefed(static_cast<ID3D11Buffer*>(m_state.vertexBuffers[slot].get())) : nullptr;
    if (strides)
      strides[i] = inRange ? m_state.vertexStrides[slot] : 0;
    if (offsets)
      offsets[i] = inRange ? m_state.vertexOffsets[slot] : 0;
  }
}

void STDMETHODCALLTYPE Context::IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format, UINT offset) {
  m_state.indexBuffer.reset(ours<Buffer>(buffer));
  m_state.indexFormat = format;
  m_state.indexOffset = offset;
  protocol::ObjectId id = m_state.indexBuffer.id();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_IASetIndexBuffer(r.writer(), m_id, id, format, offset); });
}

void STDMETHODCALLTYPE Context::IAGetIndexBuffer(ID3D11Buffer** buffer, DXGI_FORMAT* format, UINT* offset) {
  if (buffer)
    *buffer = addRefed(static_cast<ID3D11Buffer*>(m_state.indexBuffer.get()));
  if (format)
    *format = m_state.indexFormat;
  if (offset)
    *offset = m_state.indexOffset;
}

void STDMETHODCALLTYPE Context::IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY topology) {
  m_state.topology = topology;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_IASetPrimitiveTopology(r.writer(), m_id, topology); });
}

void STDMETHODCALLTYPE Context::IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY* topology) {
  if (topology)
    *topology = m_state.topology;
}

// ---- draws and dispatches

void STDMETHODCALLTYPE Context::DrawIndexed(UINT indexCount, UINT startIndex, INT baseVertex) {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_DrawIndexed(r.writer(), m_id, indexCount, startIndex, baseVertex); });
}

void STDMETHODCALLTYPE Context::Draw(UINT vertexCount, UINT startVertex) {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_Draw(r.writer(), m_id, vertexCount, startVertex); });
}

void STDMETHODCALLTYPE Context::DrawIndexedInstanced(UINT indexCount, UINT instanceCount, UINT startIndex, INT baseVertex, UINT startInstance) {
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_DrawIndexedInstanced(r.writer(), m_id, indexCount, instanceCount, startIndex, baseVertex, startInstance);
  });
}

void STDMETHODCALLTYPE Context::DrawInstanced(UINT vertexCount, UINT instanceCount, UINT startVertex, UINT startInstance) {
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_DrawInstanced(r.writer(), m_id, vertexCount, instanceCount, startVertex, startInstance);
  });
}

void STDMETHODCALLTYPE Context::DrawAuto() {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_DrawAuto(r.writer(), m_id); });
}

void STDMETHODCALLTYPE Context::DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) {
  protocol::ObjectId id = args ? ours<Buffer>(args)->objectId() : 0;
  if (!id)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_DrawIndexedInstancedIndirect(r.writer(), m_id, id, offset); });
}

void STDMETHODCALLTYPE Context::DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) {
  protocol::ObjectId id = args ? ours<Buffer>(args)->objectId() : 0;
  if (!id)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_DrawInstancedIndirect(r.writer(), m_id, id, offset); });
}

void STDMETHODCALLTYPE Context::Dispatch(UINT x, UINT y, UINT z) {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_Dispatch(r.writer(), m_id, x, y, z); });
}

void STDMETHODCALLTYPE Context::DispatchIndirect(ID3D11Buffer* args, UINT offset) {
  protocol::ObjectId id = args ? ours<Buffer>(args)->objectId() : 0;
  if (!id)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_DispatchIndirect(r.writer(), m_id, id, offset); });
}

// ---- rasterizer

void STDMETHODCALLTYPE Context::RSSetState(ID3D11RasterizerState* state) {
  m_state.rasterizer.reset(ours<RasterizerState>(state));
  protocol::ObjectId id = m_state.rasterizer.id();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_RSSetState(r.writer(), m_id, id); });
}

void STDMETHODCALLTYPE Context::RSGetState(ID3D11RasterizerState** state) {
  if (state)
    *state = addRefed(static_cast<ID3D11RasterizerState*>(m_state.rasterizer.get()));
}

void STDMETHODCALLTYPE Context::RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) {
  if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE || (count && !viewports))
    return;
  m_state.viewportCount = count;
  for (UINT i = 0; i < count; i++)
    m_state.viewports[i] = viewports[i];
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_RSSetViewports(r.writer(), m_id, count, viewports); });
}

void STDMETHODCALLTYPE Context::RSGetViewports(UINT* count, D3D11_VIEWPORT* viewports) {
  if (!count)
    return;
  if (!viewports) {
    *count = m_state.viewportCount;
    return;
  }
  for (UINT i = 0; i < *count; i++)
    viewports[i] = i < m_state.viewportCount ? m_state.viewports[i] : D3D11_VIEWPORT{};
  *count = m_state.viewportCount;   // on output: how many are bound (Windows, Wine)
}

void STDMETHODCALLTYPE Context::RSSetScissorRects(UINT count, const D3D11_RECT* rects) {
  if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE || (count && !rects))
    return;
  m_state.scissorCount = count;
  for (UINT i = 0; i < count; i++)
    m_state.scissors[i] = rects[i];
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_RSSetScissorRects(r.writer(), m_id, count, rects); });
}

void STDMETHODCALLTYPE Context::RSGetScissorRects(UINT* count, D3D11_RECT* rects) {
  if (!count)
    return;
  if (!rects) {
    *count = m_state.scissorCount;
    return;
  }
  for (UINT i = 0; i < *count; i++)
    rects[i] = i < m_state.scissorCount ? m_state.scissors[i] : D3D11_RECT{};
  *count = m_state.scissorCount;
}

// ---- output merger

void STDMETHODCALLTYPE Context::OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views, ID3D11DepthStencilView* depth) {
  if (count > D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT)
    return;
  protocol::ObjectId ids[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT];
  for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
    RenderTargetView* view = i < count && views ? ours<RenderTargetView>(views[i]) : nullptr;
    m_state.renderTargets[i].reset(view);
    if (i < count)
      ids[i] = view ? view->objectId() : 0;
  }
  m_state.depthStencil.reset(ours<DepthStencilView>(depth));
  // As on Windows, binding render targets unbinds the pixel shader's UAVs.
  for (auto& uav : m_state.pixelUavs)
    uav.reset();
  protocol::ObjectId depthId = m_state.depthStencil.id();
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_OMSetRenderTargets(r.writer(), m_id, count, views ? ids : nullptr, depthId);
  });
}

bool Context::setUavs(std::array<Binding<UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT>& slots, UINT start, UINT count,
                      ID3D11UnorderedAccessView* const* views, protocol::ObjectId* ids) {
  if (start >= D3D11_1_UAV_SLOT_COUNT || count > D3D11_1_UAV_SLOT_COUNT - start)
    return false;
  for (UINT i = 0; i < count; i++) {
    UnorderedAccessView* view = views ? ours<UnorderedAccessView>(views[i]) : nullptr;
    slots[start + i].reset(view);
    ids[i] = view ? view->objectId() : 0;
  }
  return true;
}

void STDMETHODCALLTYPE Context::OMSetRenderTargetsAndUnorderedAccessViews(UINT rtvCount, ID3D11RenderTargetView* const* rtvs,
    ID3D11DepthStencilView* depth, UINT uavStart, UINT uavCount, ID3D11UnorderedAccessView* const* uavs, const UINT* initialCounts) {
  protocol::ObjectId rtvIds[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT] = {};
  protocol::ObjectId uavIds[D3D11_1_UAV_SLOT_COUNT] = {};
  protocol::ObjectId depthId = 0;
  bool keepTargets = rtvCount == D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL;
  bool keepUavs = uavCount == D3D11_KEEP_UNORDERED_ACCESS_VIEWS;
  // Windows ignores the whole call when a count or slot is out of range: nothing is bound
  // (neither the render targets nor the UAVs) and the host hears nothing.
  validation::Check ranges = validation::validateRenderTargetsAndUavs(keepTargets ? 0 : rtvCount, uavStart,
                                                                      keepUavs ? 0 : uavCount, m_parent->limits());
  if (!ranges.passed()) {
    NPT_DEBUG("OMSetRenderTargetsAndUnorderedAccessViews: %s", ranges.describe().c_str());
    return;
  }
  if (!keepTargets) {
    for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
      RenderTargetView* view = i < rtvCount && rtvs ? ours<RenderTargetView>(rtvs[i]) : nullptr;
      m_state.renderTargets[i].reset(view);
      if (i < rtvCount)
        rtvIds[i] = view ? view->objectId() : 0;
    }
    m_state.depthStencil.reset(ours<DepthStencilView>(depth));
    depthId = m_state.depthStencil.id();
  }
  if (!keepUavs) {
    for (auto& uav : m_state.pixelUavs)
      uav.reset();
    if (uavCount)
      setUavs(m_state.pixelUavs, uavStart, uavCount, uavs, uavIds);
  }
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(r.writer(), m_id, rtvCount,
      keepTargets || !rtvs ? nullptr : rtvIds, depthId, uavStart, uavCount, keepUavs || !uavs ? nullptr : uavIds,
      keepUavs ? nullptr : initialCounts);
  });
}

void STDMETHODCALLTYPE Context::OMGetRenderTargets(UINT count, ID3D11RenderTargetView** views, ID3D11DepthStencilView** depth) {
  if (views)
    for (UINT i = 0; i < count; i++)
      views[i] = i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT
        ? addRefed(static_cast<ID3D11RenderTargetView*>(m_state.renderTargets[i].get())) : nullptr;
  if (depth)
    *depth = addRefed(static_cast<ID3D11DepthStencilView*>(m_state.depthStencil.get()));
}

void STDMETHODCALLTYPE Context::OMGetRenderTargetsAndUnorderedAccessViews(UINT rtvCount, ID3D11RenderTargetView** rtvs,
    ID3D11DepthStencilView** depth, UINT uavStart, UINT uavCount, ID3D11UnorderedAccessView** uavs) {
  OMGetRenderTargets(rtvCount, rtvs, depth);
  if (uavs)
    for (UINT i = 0; i < uavCount; i++)
      uavs[i] = uavStart + i < D3D11_1_UAV_SLOT_COUNT
        ? addRefed(static_cast<ID3D11UnorderedAccessView*>(m_state.pixelUavs[uavStart + i].get())) : nullptr;
}

void STDMETHODCALLTYPE Context::OMSetBlendState(ID3D11BlendState* state, const FLOAT factor[4], UINT sampleMask) {
  m_state.blendState.reset(ours<BlendState>(static_cast<ID3D11BlendState1*>(state)));
  // A NULL factor means {1, 1, 1, 1}.
  static const FLOAT ones[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
  const FLOAT* f = factor ? factor : ones;
  for (int i = 0; i < 4; i++)
    m_state.blendFactor[i] = f[i];
  m_state.sampleMask = sampleMask;
  protocol::ObjectId id = m_state.blendState.id();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_OMSetBlendState(r.writer(), m_id, id, factor, sampleMask); });
}

void STDMETHODCALLTYPE Context::OMGetBlendState(ID3D11BlendState** state, FLOAT factor[4], UINT* sampleMask) {
  if (state)
    *state = addRefed(static_cast<ID3D11BlendState*>(m_state.blendState.get()));
  if (factor)
    for (int i = 0; i < 4; i++)
      factor[i] = m_state.blendFactor[i];
  if (sampleMask)
    *sampleMask = m_state.sampleMask;
}

void STDMETHODCALLTYPE Context::OMSetDepthStencilState(ID3D11DepthStencilState* state, UINT stencilRef) {
  m_state.depthStencilState.reset(ours<DepthStencilState>(state));
  m_state.stencilRef = stencilRef;
  protocol::ObjectId id = m_state.depthStencilState.id();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_OMSetDepthStencilState(r.writer(), m_id, id, stencilRef); });
}

void STDMETHODCALLTYPE Context::OMGetDepthStencilState(ID3D11DepthStencilState** state, UINT* stencilRef) {
  if (state)
    *state = addRefed(static_cast<ID3D11DepthStencilState*>(m_state.depthStencilState.get()));
  if (stencilRef)
    *stencilRef = m_state.stencilRef;
}

void STDMETHODCALLTYPE Context::CSSetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView* const* views,
                                                          const UINT* initialCounts) {
  protocol::ObjectId ids[D3D11_1_UAV_SLOT_COUNT];
  if (!setUavs(m_state.computeUavs, start, count, views, ids))
    return;
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_CSSetUnorderedAccessViews(r.writer(), m_id, start, count, ids, initialCounts);
  });
}

void STDMETHODCALLTYPE Context::CSGetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView** views) {
  if (!views)
    return;
  for (UINT i = 0; i < count; i++)
    views[i] = start + i < D3D11_1_UAV_SLOT_COUNT
      ? addRefed(static_cast<ID3D11UnorderedAccessView*>(m_state.computeUavs[start + i].get())) : nullptr;
}

// ---- stream output

void STDMETHODCALLTYPE Context::SOSetTargets(UINT count, ID3D11Buffer* const* buffers, const UINT* offsets) {
  if (count > D3D11_SO_BUFFER_SLOT_COUNT)
    return;
  protocol::ObjectId ids[D3D11_SO_BUFFER_SLOT_COUNT] = {};
  for (UINT i = 0; i < D3D11_SO_BUFFER_SLOT_COUNT; i++) {
    Buffer* buffer = i < count && buffers ? ours<Buffer>(buffers[i]) : nullptr;
    m_state.streamOutTargets[i].reset(buffer);
    if (i < count)
      ids[i] = buffer ? buffer->objectId() : 0;
  }
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_SOSetTargets(r.writer(), m_id, count, buffers ? ids : nullptr, offsets);
  });
}

void STDMETHODCALLTYPE Context::SOGetTargets(UINT count, ID3D11Buffer** buffers) {
  if (!buffers)
    return;
  for (UINT i = 0; i < count; i++)
    buffers[i] = i < D3D11_SO_BUFFER_SLOT_COUNT ? addRefed(static_cast<ID3D11Buffer*>(m_state.streamOutTargets[i].get())) : nullptr;
}

// ---- queries and predication

void STDMETHODCALLTYPE Context::Begin(ID3D11Asynchronous* async) {
  if (!async)
    return;
  Query* query = queryOf(async);
  if (!query->hasBegin())
    return;   // EVENT and TIMESTAMP have no Begin; Windows ignores it
  protocol::ObjectId id = query->objectId();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_Begin(r.writer(), m_id, id); });
}

void STDMETHODCALLTYPE Context::End(ID3D11Asynchronous* async) {
  if (!async)
    return;
  Query* query = queryOf(async);
  protocol::ObjectId id = query->objectId();
  if (SUCCEEDED(record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_End(r.writer(), m_id, id); })))
    query->ended();
}

HRESULT STDMETHODCALLTYPE Context::GetData(ID3D11Asynchronous* async, void* data, UINT size, UINT flags) {
  if (!async)
    return E_INVALIDARG;
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    return DXGI_ERROR_INVALID_CALL;
  Query* query = queryOf(async);
  // A size without a buffer is refused as a wrong size is; no buffer and no size polls
  // (Wine's d3d11 suite, test_occlusion_query).
  if (size && (size != query->GetDataSize() || !data))
    return E_INVALIDARG;
  if (flags & ~UINT(D3D11_ASYNC_GETDATA_DONOTFLUSH))
    return E_INVALIDARG;
  // Without DONOTFLUSH the End must reach the host, or a polling loop never ends.
  if (!(flags & D3D11_ASYNC_GETDATA_DONOTFLUSH))
    flushStream();
  if (m_runtime->connection().status() != transport::kOk)
    return DXGI_ERROR_DEVICE_REMOVED;
  return query->readResult(data, size);
}

void STDMETHODCALLTYPE Context::SetPredication(ID3D11Predicate* predicate, WINBOOL value) {
  m_state.predicate.reset(queryOf(predicate));
  m_state.predicateValue = value;
  protocol::ObjectId id = m_state.predicate.id();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_SetPredication(r.writer(), m_id, id, value); });
}

void STDMETHODCALLTYPE Context::GetPredication(ID3D11Predicate** predicate, WINBOOL* value) {
  if (predicate)
    *predicate = m_state.predicate ? addRefed(asPredicate(m_state.predicate.get())) : nullptr;
  if (value)
    *value = m_state.predicateValue;
}

// ---- Map / Unmap

HRESULT Context::mapGuestStaged(ResourceState& state, UINT subresource, D3D11_MAP type, D3D11_MAPPED_SUBRESOURCE* mapped) {
  std::lock_guard<std::mutex> lock(state.mutex());
  MapMemory& shadow = state.shadow(subresource);
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED) {
    // The recorded Unmap carries this memory's bytes; NO_OVERWRITE starts from what
    // the guest last wrote, DISCARD from undefined contents (the same bytes will do).
    m_deferredMaps.push_back({ &state, subresource, std::vector<uint8_t>(shadow.bytes.data(),
                                                                         shadow.bytes.data() + shadow.bytes.size()) });
    DeferredMap& m = m_deferredMaps.back();
    mapped->pData = m.bytes.data();
  } else {
    if (shadow.mapped)
      return E_INVALIDARG;
    shadow.mapped = true;
    shadow.type = type;
    shadow.bytes.resetWrites();   // Unmap sends what the application writes from here on
    if (!shadow.bytes.watched() && shadow.bytes.size() < MapBytes::kWatchFromBytes)
      shadow.before.assign(shadow.bytes.data(), shadow.bytes.data() + shadow.bytes.size());   // or what changed
    mapped->pData = shadow.bytes.data();
  }
  mapped->RowPitch = shadow.rowPitch;
  mapped->DepthPitch = shadow.depthPitch;
  return S_OK;
}

HRESULT Context::callSyncMap(ID3D11Resource* resource, ResourceState& state, UINT subresource, D3D11_MAP type, UINT flags,
                             D3D11_MAPPED_SUBRESOURCE* mapped) {
  std::lock_guard<std::mutex> lock(state.mutex());
  MapMemory& memory = state.map(subresource);
  if (memory.mapped)
    return E_INVALIDARG;
  const uint64_t epoch = m_parent->commandListEpoch();
  if (memory.contentsKnown && memory.knownEpoch == epoch)
    return handOutMap(memory, type, true, mapped);   // no GPU write since the guest saw it
  protocol::ObjectId id = resourceId(resource);
  HRESULT mapResult = E_FAIL;
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  SubresourceFootprint tight = state.info().footprintOf(subresource);
  HRESULT hr = m_stream->callSync(m_statistics,
    [&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_Map(r.writer(), m_id, id, subresource, type, flags); },
    [&](const uint8_t* reply, size_t size) {
      UINT rowPitch = 0, depthPitch = 0;
      protocol::Payload data;
      decoded = protocol::decodeReply_ID3D11DeviceContext_Map(reply, size, &mapResult, &rowPitch, &depthPitch, &data);
      if (decoded != protocol::ErrorCode::Ok || FAILED(mapResult))
        return;
      const uint8_t* bytes = data.isNull ? nullptr
                           : data.isBulk ? m_stream->bulkBytes(data.bulk) : static_cast<const uint8_t*>(data.data);
      // The application may read every row the pitches describe: the memory covers
      // them even when the host sent fewer bytes.
      uint64_t span = uint64_t(depthPitch) * (tight.depth ? tight.depth - 1 : 0) +
                      uint64_t(rowPitch) * (tight.rows ? tight.rows - 1 : 0) + tight.rowPitch;
      uint64_t received = bytes ? data.size : 0;
      memory.bytes.assign(size_t(span > received ? span : received), 0);
      if (bytes && received)
        std::memcpy(memory.bytes.data(), bytes, size_t(received));
      memory.rowPitch = rowPitch;
      memory.depthPitch = depthPitch;
    });
  if (FAILED(hr))
    return hr;
  if (decoded != protocol::ErrorCode::Ok) {
    NPT_ERROR("malformed Map reply from the host (%s)", protocol::errorName(decoded));
    return E_FAIL;
  }
  if (FAILED(mapResult))
    return mapResult;   // DXGI_ERROR_WAS_STILL_DRAWING for DO_NOT_WAIT, among others
  memory.contentsKnown = true;
  memory.knownEpoch = epoch;
  return handOutMap(memory, type, false, mapped);
}

// WRITE_NO_OVERWRITE: buffers only; vertex and index buffers always, constant buffers and
// shader-resource buffers where D3D11_FEATURE_D3D11_OPTIONS offers it (Windows' runtime,
// and the host checks the same rule against the same caps).
bool Context::noOverwriteAllowed(const ResourceInfo& info) const {
  if (info.dimension != D3D11_RESOURCE_DIMENSION_BUFFER)
    return false;
  if (info.bindFlags & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER))
    return true;
  D3D11_FEATURE_DATA_D3D11_OPTIONS options = {};
  if (FAILED(m_runtime->caps().checkFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options, sizeof(options))))
    return false;
  return ((info.bindFlags & D3D11_BIND_CONSTANT_BUFFER) && options.MapNoOverwriteOnDynamicConstantBuffer) ||
         ((info.bindFlags & D3D11_BIND_SHADER_RESOURCE) && options.MapNoOverwriteOnDynamicBufferSRV);
}

HRESULT STDMETHODCALLTYPE Context::Map(ID3D11Resource* resource, UINT subresource, D3D11_MAP type, UINT flags,
                                       D3D11_MAPPED_SUBRESOURCE* mapped) {
  if (!mapped)
    return E_INVALIDARG;
  // A refused Map leaves no pointer behind and the pitches as they were (as on Windows:
  // Wine's d3d11 suite, test_resource_map).
  auto refuse = [&] {
    mapped->pData = nullptr;
    return E_INVALIDARG;
  };
  ResourceState* state = resourceState(resource);
  if (!state)
    return refuse();
  const ResourceInfo& info = state->info();
  if (subresource >= info.subresourceCount() || (flags & ~UINT(D3D11_MAP_FLAG_DO_NOT_WAIT)))
    return refuse();
  if (type < D3D11_MAP_READ || type > D3D11_MAP_WRITE_NO_OVERWRITE)
    return refuse();
  bool reads = type == D3D11_MAP_READ || type == D3D11_MAP_READ_WRITE;
  if ((reads && !(info.cpuAccessFlags & D3D11_CPU_ACCESS_READ)) || (type != D3D11_MAP_READ && !(info.cpuAccessFlags & D3D11_CPU_ACCESS_WRITE)))
    return refuse();
  switch (info.usage) {
    case D3D11_USAGE_DYNAMIC:
      if (type == D3D11_MAP_WRITE_DISCARD || (type == D3D11_MAP_WRITE_NO_OVERWRITE && noOverwriteAllowed(info))) {
        std::memset(mapped, 0, sizeof(*mapped));
        return mapGuestStaged(*state, subresource, type, mapped);
      }
      return refuse();
    case D3D11_USAGE_STAGING:
      if (type == D3D11_MAP_WRITE_DISCARD || type == D3D11_MAP_WRITE_NO_OVERWRITE || m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
        return refuse();
      std::memset(mapped, 0, sizeof(*mapped));
      return callSyncMap(resource, *state, subresource, type, flags, mapped);
    default:
      return refuse();
  }
}

void STDMETHODCALLTYPE Context::Unmap(ID3D11Resource* resource, UINT subresource) {
  ResourceState* state = resourceState(resource);
  if (!state || subresource >= state->info().subresourceCount())
    return;
  protocol::ObjectId id = resourceId(resource);
  std::lock_guard<std::mutex> lock(state->mutex());
  const uint8_t* bytes = nullptr;
  size_t size = 0;
  D3D11_MAP type = D3D11_MAP_WRITE_DISCARD;
  std::vector<uint8_t> deferredBytes;
  std::vector<WrittenRange> ranges;
  std::vector<uint8_t> written;   // the ranges' bytes, concatenated
  if (state->info().usage == D3D11_USAGE_DYNAMIC && m_type == D3D11_DEVICE_CONTEXT_DEFERRED) {
    // Deferred maps of one subresource are unmapped in order and replayed with
    // WRITE_DISCARD: the whole memory, or for a small subresource the bytes that differ
    // from the shadow (which the host's mirror holds at this point of the stream).
    auto it = m_deferredMaps.begin();
    while (it != m_deferredMaps.end() && (it->resource != state || it->subresource != subresource))
      ++it;
    if (it == m_deferredMaps.end())
      return;
    deferredBytes = std::move(it->bytes);
    m_deferredMaps.erase(it);
    MapMemory& memory = state->shadow(subresource);
    bytes = deferredBytes.data();
    size = deferredBytes.size();
    const bool mirrored = size == memory.bytes.size() && size < MapBytes::kWatchFromBytes;
    if (mirrored && changedRanges(memory.bytes.data(), bytes, size, ranges, kMaxUnmapRanges)) {
      // Nothing changed still replays: the list must write these bytes when it executes.
      if (ranges.empty())
        ranges.push_back({ 0, 1 });
      gatherRanges(bytes, ranges, written);
    }
    // Later guest-staged maps start from these bytes; the GPU has them once the command
    // list executes, not before.
    std::memcpy(memory.bytes.data(), deferredBytes.data(), size < memory.bytes.size() ? size : memory.bytes.size());
    memory.contentsKnown = false;
  } else {
    const bool dynamic = state->info().usage == D3D11_USAGE_DYNAMIC;
    MapMemory& memory = dynamic ? state->shadow(subresource) : state->map(subresource);
    if (!memory.mapped)
      return;
    memory.mapped = false;
    type = memory.type;
    if (memory.type != D3D11_MAP_READ) {
      bytes = memory.bytes.data();
      size = memory.bytes.size();
      const uint64_t epoch = m_parent->commandListEpoch();
      const bool gpuHadShadow = memory.contentsKnown && memory.knownEpoch == epoch;
      if (memory.bytes.writtenRanges(ranges, kMaxUnmapRanges)) {
        // Write-watched memory: only the pages the application wrote since Map travel.
        if (ranges.empty())
          return;   // nothing written: the host's copy is already right
      } else if (dynamic && memory.before.size() == size && size < MapBytes::kWatchFromBytes &&
                 (type == D3D11_MAP_WRITE_DISCARD || gpuHadShadow) &&
                 changedRanges(memory.before.data(), bytes, size, ranges, kMaxUnmapRanges)) {
        // A small subresource: the bytes that changed since Map. The host mirrors it and
        // writes the whole mirror after DISCARD; NO_OVERWRITE keeps what the GPU has,
        // which is the shadow unless a copy or command list wrote it since.
        if (ranges.empty()) {
          if (gpuHadShadow)
            return;   // unchanged, and the GPU already holds it
          ranges.push_back({ 0, 1 });   // DISCARD: the host writes its whole mirror
        }
      } else {
        ranges.clear();
      }
      if (dynamic) {
        memory.contentsKnown = true;
        memory.knownEpoch = epoch;
      }
      if (!ranges.empty()) {
        gatherRanges(bytes, ranges, written);
        if (written.size() == size)
          ranges.clear();   // every byte: the plain form says the same without ranges
      }
    } else if (memory.servedLocally) {
      return;   // the host never mapped it
    }
  }
  if (!ranges.empty()) {
    bytes = written.data();
    size = written.size();
  }
  std::vector<NPT_BYTE_RANGE> wireRanges(ranges.size());
  for (size_t i = 0; i < ranges.size(); i++)
    wireRanges[i] = { ranges[i].offset, ranges[i].size };
  record([&](Recorder& r) {
    protocol::Payload payload = bytes ? r.payload(bytes, size) : protocol::Payload::none();
    return protocol::encode_ID3D11DeviceContext_Unmap(r.writer(), m_id, id, subresource, type, UINT(wireRanges.size()),
                                                       wireRanges.empty() ? nullptr : wireRanges.data(), payload);
  });
}

// ---- updates and copies

void Context::updateSubresource(ID3D11Resource* resource, UINT subresource, const D3D11_BOX* box, const void* data,
                                UINT rowPitch, UINT depthPitch, UINT copyFlags, bool version1) {
  ResourceState* state = resourceState(resource);
  if (!state || !data)
    return;
  const ResourceInfo& info = state->info();
  if (subresource >= info.subresourceCount() || info.usage == D3D11_USAGE_IMMUTABLE)
    return;
  UINT width = info.widthOf(subresource), height = info.heightOf(subresource), depth = info.depthOf(subresource);
  if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    height = depth = 1;
  }
  UINT w = width, h = height, d = depth;
  if (box) {
    // An empty box updates nothing; one outside the subresource is ignored (Windows).
    if (box->left >= box->right || box->top >= box->bottom || box->front >= box->back)
      return;
    if (box->right > width || box->bottom > height || box->back > depth)
      return;
    w = box->right - box->left;
    h = box->bottom - box->top;
    d = box->back - box->front;
  }
  const uint8_t* src = static_cast<const uint8_t*>(data);
  uint64_t span;
  UINT sendRow = rowPitch, sendDepth = depthPitch;
  std::vector<uint8_t> packed;
  if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    span = w;
  } else {
    SubresourceFootprint f = footprint(info.format, w, h, d);
    if (!f.rowPitch)
      return;
    if (h == 1 || f.rows == 1)
      rowPitch = f.rowPitch > rowPitch ? f.rowPitch : rowPitch;
    if (d == 1)
      depthPitch = f.depthPitch > depthPitch ? f.depthPitch : depthPitch;
    if (rowPitch != f.rowPitch || depthPitch != f.depthPitch) {
      // Repack tightly: the wire carries exactly the footprint.
      packed.resize(size_t(f.size()));
      copyRows(packed.data(), f.rowPitch, f.depthPitch, src, rowPitch, depthPitch, f.rowPitch, f.rows, f.depth);
      src = packed.data();
    }
    sendRow = f.rowPitch;
    sendDepth = f.depthPitch;
    span = f.size();
  }
  if (span > UINT32_MAX)
    return;
  protocol::ObjectId id = resourceId(resource);
  record([&](Recorder& r) {
    protocol::Payload payload = r.payload(src, size_t(span));
    if (version1)
      return protocol::encode_ID3D11DeviceContext1_UpdateSubresource1(r.writer(), m_id, id, subresource, box, payload, sendRow, sendDepth, copyFlags);
    return protocol::encode_ID3D11DeviceContext_UpdateSubresource(r.writer(), m_id, id, subresource, box, payload, sendRow, sendDepth);
  });
}

void STDMETHODCALLTYPE Context::UpdateSubresource(ID3D11Resource* resource, UINT subresource, const D3D11_BOX* box,
                                                  const void* data, UINT rowPitch, UINT depthPitch) {
  updateSubresource(resource, subresource, box, data, rowPitch, depthPitch, 0, false);
}

void STDMETHODCALLTYPE Context::UpdateSubresource1(ID3D11Resource* resource, UINT subresource, const D3D11_BOX* box,
                                                   const void* data, UINT rowPitch, UINT depthPitch, UINT copyFlags) {
  updateSubresource(resource, subresource, box, data, rowPitch, depthPitch, copyFlags, true);
}

void STDMETHODCALLTYPE Context::CopySubresourceRegion(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                                                      ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box) {
  protocol::ObjectId dstId = resourceId(dst), srcId = resourceId(src);
  if (!dstId || !srcId)
    return;
  resourceState(dst)->forgetContents();
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_CopySubresourceRegion(r.writer(), m_id, dstId, dstSub, x, y, z, srcId, srcSub, box);
  });
}

void STDMETHODCALLTYPE Context::CopySubresourceRegion1(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                                                       ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box, UINT flags) {
  protocol::ObjectId dstId = resourceId(dst), srcId = resourceId(src);
  if (!dstId || !srcId)
    return;
  resourceState(dst)->forgetContents();
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext1_CopySubresourceRegion1(r.writer(), m_id, dstId, dstSub, x, y, z, srcId, srcSub, box, flags);
  });
}

void STDMETHODCALLTYPE Context::CopyResource(ID3D11Resource* dst, ID3D11Resource* src) {
  protocol::ObjectId dstId = resourceId(dst), srcId = resourceId(src);
  if (!dstId || !srcId || dstId == srcId)
    return;
  resourceState(dst)->forgetContents();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_CopyResource(r.writer(), m_id, dstId, srcId); });
}

void STDMETHODCALLTYPE Context::CopyStructureCount(ID3D11Buffer* dst, UINT offset, ID3D11UnorderedAccessView* src) {
  if (!dst || !src)
    return;
  protocol::ObjectId dstId = ours<Buffer>(dst)->objectId(), srcId = ours<UnorderedAccessView>(src)->objectId();
  ours<Buffer>(dst)->state().forgetContents();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_CopyStructureCount(r.writer(), m_id, dstId, offset, srcId); });
}

void STDMETHODCALLTYPE Context::ResolveSubresource(ID3D11Resource* dst, UINT dstSub, ID3D11Resource* src, UINT srcSub, DXGI_FORMAT format) {
  protocol::ObjectId dstId = resourceId(dst), srcId = resourceId(src);
  if (!dstId || !srcId)
    return;
  resourceState(dst)->forgetContents();
  record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_ResolveSubresource(r.writer(), m_id, dstId, dstSub, srcId, srcSub, format);
  });
}

void STDMETHODCALLTYPE Context::GenerateMips(ID3D11ShaderResourceView* view) {
  if (!view)
    return;
  protocol::ObjectId id = ours<ShaderResourceView>(view)->objectId();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_GenerateMips(r.writer(), m_id, id); });
}

void STDMETHODCALLTYPE Context::SetResourceMinLOD(ID3D11Resource* resource, FLOAT minLod) {
  ResourceState* state = resourceState(resource);
  if (!state)
    return;
  state->minLod = minLod;
  protocol::ObjectId id = resourceId(resource);
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_SetResourceMinLOD(r.writer(), m_id, id, minLod); });
}

FLOAT STDMETHODCALLTYPE Context::GetResourceMinLOD(ID3D11Resource* resource) {
  ResourceState* state = resourceState(resource);
  return state ? state->minLod : 0.0f;
}

// ---- clears and discards

void STDMETHODCALLTYPE Context::ClearRenderTargetView(ID3D11RenderTargetView* view, const FLOAT color[4]) {
  if (!view || !color)
    return;
  protocol::ObjectId id = ours<RenderTargetView>(view)->objectId();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(r.writer(), m_id, id, color); });
}

void STDMETHODCALLTYPE Context::ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view, const UINT values[4]) {
  if (!view || !values)
    return;
  protocol::ObjectId id = ours<UnorderedAccessView>(view)->objectId();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_ClearUnorderedAccessViewUint(r.writer(), m_id, id, values); });
}

void STDMETHODCALLTYPE Context::ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view, const FLOAT values[4]) {
  if (!view || !values)
    return;
  protocol::ObjectId id = ours<UnorderedAccessView>(view)->objectId();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_ClearUnorderedAccessViewFloat(r.writer(), m_id, id, values); });
}

void STDMETHODCALLTYPE Context::ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags, FLOAT depth, UINT8 stencil) {
  if (!view)
    return;
  protocol::ObjectId id = ours<DepthStencilView>(view)->objectId();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_ClearDepthStencilView(r.writer(), m_id, id, flags, depth, stencil); });
}

void STDMETHODCALLTYPE Context::ClearView(ID3D11View* view, const FLOAT color[4], const D3D11_RECT* rects, UINT count) {
  protocol::ObjectId id = viewId(view);
  if (!id || !color)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext1_ClearView(r.writer(), m_id, id, color, rects, count); });
}

void STDMETHODCALLTYPE Context::DiscardResource(ID3D11Resource* resource) {
  protocol::ObjectId id = resourceId(resource);
  if (!id)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext1_DiscardResource(r.writer(), m_id, id); });
}

void STDMETHODCALLTYPE Context::DiscardView(ID3D11View* view) {
  protocol::ObjectId id = viewId(view);
  if (!id)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext1_DiscardView(r.writer(), m_id, id); });
}

void STDMETHODCALLTYPE Context::DiscardView1(ID3D11View* view, const D3D11_RECT* rects, UINT count) {
  protocol::ObjectId id = viewId(view);
  if (!id)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext1_DiscardView1(r.writer(), m_id, id, rects, count); });
}

// ---- context-wide

void STDMETHODCALLTYPE Context::ClearState() {
  resetState();
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_ClearState(r.writer(), m_id); });
}

void STDMETHODCALLTYPE Context::Flush() {
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    return;
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_Flush(r.writer(), m_id); });
  flushStream();
}

void STDMETHODCALLTYPE Context::Flush1(D3D11_CONTEXT_TYPE type, HANDLE event) {
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    return;
  // The host cannot set a guest event: the device sets it once an EVENT query ended
  // after this flush completes (completion_notifier.h).
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext3_Flush1(r.writer(), m_id, type, nullptr); });
  flushStream();
  if (event && FAILED(m_parent->signalWhenDone(event))) {
    NPT_WARN("Flush1: no query to watch the GPU with; the event is set at submission");
    SetEvent(event);
  }
}

D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE Context::GetType() { return m_type; }

UINT STDMETHODCALLTYPE Context::GetContextFlags() { return m_flags; }

HRESULT STDMETHODCALLTYPE Context::FinishCommandList(WINBOOL restore, ID3D11CommandList** list) {
  if (m_type != D3D11_DEVICE_CONTEXT_DEFERRED)
    return DXGI_ERROR_INVALID_CALL;
  if (!list)
    return E_INVALIDARG;
  *list = nullptr;
  // Documented for FinishCommandList: the recording is lost with the device.
  if (m_parent->removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  HRESULT hr = record([&](Recorder& r) {
    return protocol::encode_ID3D11DeviceContext_FinishCommandList(r.writer(), m_id, restore, id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  // The ring is submitted here: ExecuteCommandList waits for this point of it.
  uint64_t sequence = 0;
  m_stream->flush(&sequence);
  if (!restore)
    resetState();
  *list = addRefed(new CommandList(m_parent, id, m_stream->ring(), sequence));
  return S_OK;
}

void STDMETHODCALLTYPE Context::ExecuteCommandList(ID3D11CommandList* list, WINBOOL restore) {
  if (!list)
    return;
  CommandList* commandList = ours<CommandList>(list);
  protocol::ObjectId id = commandList->objectId();
  m_parent->commandListExecuted();
  // The host command list exists once its deferred ring executed FinishCommandList.
  m_stream->waitFor(commandList->ring(), commandList->finishedAt());
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext_ExecuteCommandList(r.writer(), m_id, id, restore); });
  // Without restore the context is left in its default state (Windows).
  if (!restore)
    resetState();
}

// ---- annotations

WINBOOL STDMETHODCALLTYPE Context::IsAnnotationEnabled() { return FALSE; }

void STDMETHODCALLTYPE Context::SetMarkerInt(const WCHAR* label, int data) {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext2_SetMarkerInt(r.writer(), m_id, label, data); });
}

void STDMETHODCALLTYPE Context::BeginEventInt(const WCHAR* label, int data) {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext2_BeginEventInt(r.writer(), m_id, label, data); });
}

void STDMETHODCALLTYPE Context::EndEvent() {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext2_EndEvent(r.writer(), m_id); });
}

// ---- hardware protection

void STDMETHODCALLTYPE Context::SetHardwareProtectionState(WINBOOL enable) {
  record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext3_SetHardwareProtectionState(r.writer(), m_id, enable); });
}

void STDMETHODCALLTYPE Context::GetHardwareProtectionState(WINBOOL* enable) {
  if (enable)
    *enable = FALSE;
}

// ---- not in protocol v1: tiled resources

HRESULT STDMETHODCALLTYPE Context::UpdateTileMappings(ID3D11Resource*, UINT, const D3D11_TILED_RESOURCE_COORDINATE*,
    const D3D11_TILE_REGION_SIZE*, ID3D11Buffer*, UINT, const UINT*, const UINT*, const UINT*, UINT) {
  NPT_WARN("tiled resources are not supported (protocol v1): UpdateTileMappings");
  return E_NOTIMPL;
}

HRESULT STDMETHODCALLTYPE Context::CopyTileMappings(ID3D11Resource*, const D3D11_TILED_RESOURCE_COORDINATE*, ID3D11Resource*,
    const D3D11_TILED_RESOURCE_COORDINATE*, const D3D11_TILE_REGION_SIZE*, UINT) {
  NPT_WARN("tiled resources are not supported (protocol v1): CopyTileMappings");
  return E_NOTIMPL;
}

void STDMETHODCALLTYPE Context::CopyTiles(ID3D11Resource*, const D3D11_TILED_RESOURCE_COORDINATE*, const D3D11_TILE_REGION_SIZE*,
    ID3D11Buffer*, UINT64, UINT) {
  NPT_WARN("tiled resources are not supported (protocol v1): CopyTiles");
}

void STDMETHODCALLTYPE Context::UpdateTiles(ID3D11Resource*, const D3D11_TILED_RESOURCE_COORDINATE*, const D3D11_TILE_REGION_SIZE*,
    const void*, UINT) {
  NPT_WARN("tiled resources are not supported (protocol v1): UpdateTiles");
}

HRESULT STDMETHODCALLTYPE Context::ResizeTilePool(ID3D11Buffer*, UINT64) {
  NPT_WARN("tiled resources are not supported (protocol v1): ResizeTilePool");
  return E_NOTIMPL;
}

void STDMETHODCALLTYPE Context::TiledResourceBarrier(ID3D11DeviceChild*, ID3D11DeviceChild*) {
  NPT_WARN("tiled resources are not supported (protocol v1): TiledResourceBarrier");
}

// ---- fences (fence.cpp): the host writes the value once the work before the
// Signal is done; a Wait holds the host context until the fence reaches the value.

HRESULT STDMETHODCALLTYPE Context::Signal(ID3D11Fence* fence, UINT64 value) {
  if (!fence)
    return E_INVALIDARG;
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    return DXGI_ERROR_INVALID_CALL;
  protocol::ObjectId id = static_cast<Fence*>(fence)->objectId();
  HRESULT hr = record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext4_Signal(r.writer(), m_id, id, value); });
  // Another process may be waiting on the value: the command leaves now.
  return SUCCEEDED(hr) ? m_stream->flush() : hr;
}

HRESULT STDMETHODCALLTYPE Context::Wait(ID3D11Fence* fence, UINT64 value) {
  if (!fence)
    return E_INVALIDARG;
  if (m_type == D3D11_DEVICE_CONTEXT_DEFERRED)
    return DXGI_ERROR_INVALID_CALL;
  protocol::ObjectId id = static_cast<Fence*>(fence)->objectId();
  return record([&](Recorder& r) { return protocol::encode_ID3D11DeviceContext4_Wait(r.writer(), m_id, id, value); });
}

}
