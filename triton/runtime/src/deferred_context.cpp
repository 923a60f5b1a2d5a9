// SPDX-License-Identifier: MIT
// Deferred contexts, emulated as the runtime emulates them for a driver that does not
// advertise command lists: every call is recorded with references to what it names
// and copies of what it points to; FinishCommandList hands the recording to a
// command list; ExecuteCommandList replays it on the immediate context.

#include <map>
#include <memory>

#include "context.h"

namespace triton::runtime {
namespace {

// A public reference held by a recorded call (nullptr stays nullptr).
template <class I>
std::shared_ptr<I> keep(I* object) {
  if (object)
    object->AddRef();
  return std::shared_ptr<I>(object, [](I* o) { if (o) o->Release(); });
}

// References to an array of objects, as the pointer array the API takes.
template <class I>
struct KeptArray {
  std::shared_ptr<std::vector<I*>> objects;
  I* const* data() const { return objects->data(); }
};
template <class I>
KeptArray<I> keepArray(I* const* objects, UINT count) {
  auto v = std::shared_ptr<std::vector<I*>>(new std::vector<I*>(count), [](std::vector<I*>* list) {
    for (I* o : *list)
      if (o) o->Release();
    delete list;
  });
  for (UINT i = 0; i < count; ++i) {
    (*v)[i] = objects ? objects[i] : nullptr;
    if ((*v)[i]) (*v)[i]->AddRef();
  }
  return {v};
}

template <class T>
std::shared_ptr<std::vector<T>> copyArray(const T* values, UINT count) {
  if (!values)
    return nullptr;
  return std::make_shared<std::vector<T>>(values, values + count);
}
template <class T>
const T* dataOf(const std::shared_ptr<std::vector<T>>& v) { return v ? v->data() : nullptr; }

class DeferredContext final : public ContextBase {
public:
  DeferredContext(Device* device, UINT flags) : ContextBase(device, true), flags_(flags) {}

  void record(CommandList::Command command) {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_.push_back(std::move(command));
  }

  void setShader(Stage stage, ID3D11DeviceChild* shader, ID3D11ClassInstance* const* instances, UINT count) override {
    auto s = keep(shader);
    auto i = keepArray(instances, count);
    record([=](DdiContext& c) { c.setShader(stage, s.get(), i.data(), count); });
  }
  void setConstantBuffers(Stage stage, UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first,
                          const UINT* num) override {
    auto b = keepArray(buffers, count);
    auto f = copyArray(first, count);
    auto n = copyArray(num, count);
    record([=](DdiContext& c) { c.setConstantBuffers(stage, start, count, b.data(), dataOf(f), dataOf(n)); });
  }
  void setShaderResources(Stage stage, UINT start, UINT count, ID3D11ShaderResourceView* const* views) override {
    auto v = keepArray(views, count);
    record([=](DdiContext& c) { c.setShaderResources(stage, start, count, v.data()); });
  }
  void setSamplers(Stage stage, UINT start, UINT count, ID3D11SamplerState* const* samplers) override {
    auto v = keepArray(samplers, count);
    record([=](DdiContext& c) { c.setSamplers(stage, start, count, v.data()); });
  }
  // The emulation keeps no state to answer getters from.
  void getShader(Stage, ID3D11DeviceChild** shader, ID3D11ClassInstance**, UINT* count) override {
    notImplemented("deferred context getters");
    if (shader) *shader = nullptr;
    if (count) *count = 0;
  }
  template <class I>
  static void nulls(I** out, UINT count) {
    notImplemented("deferred context getters");
    for (UINT i = 0; out && i < count; ++i) out[i] = nullptr;
  }
  void getConstantBuffers(Stage, UINT, UINT count, ID3D11Buffer** out, UINT*, UINT*) override { nulls(out, count); }
  void getShaderResources(Stage, UINT, UINT count, ID3D11ShaderResourceView** out) override { nulls(out, count); }
  void getSamplers(Stage, UINT, UINT count, ID3D11SamplerState** out) override { nulls(out, count); }

  void STDMETHODCALLTYPE DrawIndexed(UINT a, UINT b, INT d) override {
    record([=](DdiContext& c) { c.DrawIndexed(a, b, d); });
  }
  void STDMETHODCALLTYPE Draw(UINT a, UINT b) override { record([=](DdiContext& c) { c.Draw(a, b); }); }

  HRESULT STDMETHODCALLTYPE Map(ID3D11Resource* resource, UINT sub, D3D11_MAP type, UINT,
                                D3D11_MAPPED_SUBRESOURCE* out) override {
    const ResourceRef r = resourceRef(resource);
    // Deferred contexts map only dynamic resources, with WRITE_DISCARD; the emulation
    // does buffers (what the runtime's own emulation must rename).
    if (!r.info || !out || type != D3D11_MAP_WRITE_DISCARD || r.info->usage != D3D11_USAGE_DYNAMIC || sub != 0) {
      if (out) *out = {};
      return E_INVALIDARG;
    }
    if (r.info->type != D3D11_RESOURCE_DIMENSION_BUFFER) {
      notImplemented("deferred Map of a dynamic texture");
      *out = {};
      return E_NOTIMPL;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint8_t>& bytes = pendingMaps_[resource];
    bytes.assign(r.info->width, 0);
    *out = {bytes.data(), r.info->width, r.info->width};
    return S_OK;
  }
  void STDMETHODCALLTYPE Unmap(ID3D11Resource* resource, UINT) override {
    std::shared_ptr<std::vector<uint8_t>> bytes;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = pendingMaps_.find(resource);
      if (found == pendingMaps_.end())
        return;
      bytes = std::make_shared<std::vector<uint8_t>>(std::move(found->second));
      pendingMaps_.erase(found);
    }
    auto r = keep(resource);
    record([=](DdiContext& c) { c.replaceBufferContents(r.get(), *bytes); });
  }

  void STDMETHODCALLTYPE IASetInputLayout(ID3D11InputLayout* layout) override {
    auto l = keep(layout);
    record([=](DdiContext& c) { c.IASetInputLayout(l.get()); });
  }
  void STDMETHODCALLTYPE IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* strides,
                                            const UINT* offsets) override {
    auto b = keepArray(buffers, count);
    auto s = copyArray(strides, count);
    auto o = copyArray(offsets, count);
    record([=](DdiContext& c) { c.IASetVertexBuffers(start, count, b.data(), dataOf(s), dataOf(o)); });
  }
  void STDMETHODCALLTYPE IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format, UINT offset) override {
    auto b = keep(buffer);
    record([=](DdiContext& c) { c.IASetIndexBuffer(b.get(), format, offset); });
  }
  void STDMETHODCALLTYPE DrawIndexedInstanced(UINT a, UINT b, UINT d, INT e, UINT f) override {
    record([=](DdiContext& c) { c.DrawIndexedInstanced(a, b, d, e, f); });
  }
  void STDMETHODCALLTYPE DrawInstanced(UINT a, UINT b, UINT d, UINT e) override {
    record([=](DdiContext& c) { c.DrawInstanced(a, b, d, e); });
  }
  void STDMETHODCALLTYPE IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY t) override {
    record([=](DdiContext& c) { c.IASetPrimitiveTopology(t); });
  }
  void STDMETHODCALLTYPE Begin(ID3D11Asynchronous* async) override {
    auto a = keep(async);
    record([=](DdiContext& c) { c.Begin(a.get()); });
  }
  void STDMETHODCALLTYPE End(ID3D11Asynchronous* async) override {
    auto a = keep(async);
    record([=](DdiContext& c) { c.End(a.get()); });
  }
  HRESULT STDMETHODCALLTYPE GetData(ID3D11Asynchronous*, void*, UINT, UINT) override { return DXGI_ERROR_INVALID_CALL; }
  void STDMETHODCALLTYPE SetPredication(ID3D11Predicate* predicate, BOOL value) override {
    auto p = keep(predicate);
    record([=](DdiContext& c) { c.SetPredication(p.get(), value); });
  }
  void STDMETHODCALLTYPE OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views,
                                            ID3D11DepthStencilView* dsv) override {
    auto v = keepArray(views, count);
    auto d = keep(dsv);
    record([=](DdiContext& c) { c.OMSetRenderTargets(count, v.data(), d.get()); });
  }
  void STDMETHODCALLTYPE OMSetRenderTargetsAndUnorderedAccessViews(UINT rtvCount, ID3D11RenderTargetView* const* rtvs,
                                                                   ID3D11DepthStencilView* dsv, UINT uavStart,
                                                                   UINT uavCount, ID3D11UnorderedAccessView* const* uavs,
                                                                   const UINT* counts) override {
    const bool keepRtvs = rtvCount == D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL;
    const bool keepUavs = uavCount == D3D11_KEEP_UNORDERED_ACCESS_VIEWS;
    auto r = keepArray(rtvs, keepRtvs ? 0 : rtvCount);
    auto d = keep(dsv);
    auto u = keepArray(uavs, keepUavs ? 0 : uavCount);
    auto n = copyArray(counts, keepUavs ? 0 : uavCount);
    record([=](DdiContext& c) {
      c.OMSetRenderTargetsAndUnorderedAccessViews(rtvCount, r.data(), d.get(), uavStart, uavCount, u.data(), dataOf(n));
    });
  }
  void STDMETHODCALLTYPE OMSetBlendState(ID3D11BlendState* state, const FLOAT factor[4], UINT mask) override {
    auto s = keep(state);
    auto f = copyArray(factor, 4);
    record([=](DdiContext& c) { c.OMSetBlendState(s.get(), dataOf(f), mask); });
  }
  void STDMETHODCALLTYPE OMSetDepthStencilState(ID3D11DepthStencilState* state, UINT ref) override {
    auto s = keep(state);
    record([=](DdiContext& c) { c.OMSetDepthStencilState(s.get(), ref); });
  }
  void STDMETHODCALLTYPE SOSetTargets(UINT count, ID3D11Buffer* const* buffers, const UINT* offsets) override {
    auto b = keepArray(buffers, count);
    auto o = copyArray(offsets, count);
    record([=](DdiContext& c) { c.SOSetTargets(count, b.data(), dataOf(o)); });
  }
  void STDMETHODCALLTYPE DrawAuto() override { record([](DdiContext& c) { c.DrawAuto(); }); }
  void STDMETHODCALLTYPE DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) override {
    auto a = keep(args);
    record([=](DdiContext& c) { c.DrawIndexedInstancedIndirect(a.get(), offset); });
  }
  void STDMETHODCALLTYPE DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) override {
    auto a = keep(args);
    record([=](DdiContext& c) { c.DrawInstancedIndirect(a.get(), offset); });
  }
  void STDMETHODCALLTYPE Dispatch(UINT x, UINT y, UINT z) override {
    record([=](DdiContext& c) { c.Dispatch(x, y, z); });
  }
  void STDMETHODCALLTYPE DispatchIndirect(ID3D11Buffer* args, UINT offset) override {
    auto a = keep(args);
    record([=](DdiContext& c) { c.DispatchIndirect(a.get(), offset); });
  }
  void STDMETHODCALLTYPE RSSetState(ID3D11RasterizerState* state) override {
    auto s = keep(state);
    record([=](DdiContext& c) { c.RSSetState(s.get()); });
  }
  void STDMETHODCALLTYPE RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) override {
    auto v = copyArray(viewports, count);
    record([=](DdiContext& c) { c.RSSetViewports(count, dataOf(v)); });
  }
  void STDMETHODCALLTYPE RSSetScissorRects(UINT count, const D3D11_RECT* rects) override {
    auto r = copyArray(rects, count);
    record([=](DdiContext& c) { c.RSSetScissorRects(count, dataOf(r)); });
  }
  void STDMETHODCALLTYPE CopySubresourceRegion(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                                               ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box) override {
    auto d = keep(dst);
    auto s = keep(src);
    auto b = copyArray(box, 1);
    record([=](DdiContext& c) { c.CopySubresourceRegion(d.get(), dstSub, x, y, z, s.get(), srcSub, dataOf(b)); });
  }
  void STDMETHODCALLTYPE CopyResource(ID3D11Resource* dst, ID3D11Resource* src) override {
    auto d = keep(dst);
    auto s = keep(src);
    record([=](DdiContext& c) { c.CopyResource(d.get(), s.get()); });
  }
  void STDMETHODCALLTYPE UpdateSubresource(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data,
                                           UINT rowPitch, UINT depthPitch) override {
    // The source bytes are copied now, tightly packed, as the runtime copies them.
    const ResourceRef r = resourceRef(dst);
    if (!r.info || !data)
      return;
    if (r.info->type != D3D11_RESOURCE_DIMENSION_BUFFER) {
      notImplemented("deferred UpdateSubresource of a texture");
      return;
    }
    const UINT left = box ? box->left : 0, right = box ? box->right : r.info->width;
    if (right <= left)
      return;
    auto bytes = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t*>(data),
                                                        static_cast<const uint8_t*>(data) + (right - left));
    auto d = keep(dst);
    auto b = copyArray(box, 1);
    record([=](DdiContext& c) {
      c.UpdateSubresource(d.get(), sub, dataOf(b), bytes->data(), UINT(bytes->size()), UINT(bytes->size()));
    });
    (void)rowPitch;
    (void)depthPitch;
  }
  void STDMETHODCALLTYPE CopyStructureCount(ID3D11Buffer* dst, UINT offset, ID3D11UnorderedAccessView* src) override {
    auto d = keep(dst);
    auto s = keep(src);
    record([=](DdiContext& c) { c.CopyStructureCount(d.get(), offset, s.get()); });
  }
  // D3D11.1: ClearView and discards are recorded; the copy/update flags are dropped
  // (ContextBase: hints the copies keep without them).
  void STDMETHODCALLTYPE ClearView(ID3D11View* view, const FLOAT color[4], const D3D11_RECT* rects,
                                   UINT numRects) override {
    auto v = keep(view);
    auto k = copyArray(color, 4);
    auto r = copyArray(rects, numRects);
    record([=](DdiContext& c) { c.ClearView(v.get(), dataOf(k), dataOf(r), numRects); });
  }
  void STDMETHODCALLTYPE DiscardResource(ID3D11Resource* resource) override {
    auto r = keep(resource);
    record([=](DdiContext& c) { c.DiscardResource(r.get()); });
  }
  void STDMETHODCALLTYPE DiscardView1(ID3D11View* view, const D3D11_RECT* rects, UINT numRects) override {
    auto v = keep(view);
    auto r = copyArray(rects, numRects);
    record([=](DdiContext& c) { c.DiscardView1(v.get(), dataOf(r), numRects); });
  }
  void STDMETHODCALLTYPE ClearRenderTargetView(ID3D11RenderTargetView* view, const FLOAT color[4]) override {
    auto v = keep(view);
    auto k = copyArray(color, 4);
    record([=](DdiContext& c) { c.ClearRenderTargetView(v.get(), dataOf(k)); });
  }
  void STDMETHODCALLTYPE ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view, const UINT values[4]) override {
    auto v = keep(view);
    auto k = copyArray(values, 4);
    record([=](DdiContext& c) { c.ClearUnorderedAccessViewUint(v.get(), dataOf(k)); });
  }
  void STDMETHODCALLTYPE ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view, const FLOAT values[4]) override {
    auto v = keep(view);
    auto k = copyArray(values, 4);
    record([=](DdiContext& c) { c.ClearUnorderedAccessViewFloat(v.get(), dataOf(k)); });
  }
  void STDMETHODCALLTYPE ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags, FLOAT depth,
                                               UINT8 stencil) override {
    auto v = keep(view);
    record([=](DdiContext& c) { c.ClearDepthStencilView(v.get(), flags, depth, stencil); });
  }
  void STDMETHODCALLTYPE GenerateMips(ID3D11ShaderResourceView* view) override {
    auto v = keep(view);
    record([=](DdiContext& c) { c.GenerateMips(v.get()); });
  }
  void STDMETHODCALLTYPE SetResourceMinLOD(ID3D11Resource* resource, FLOAT lod) override {
    auto r = keep(resource);
    record([=](DdiContext& c) { c.SetResourceMinLOD(r.get(), lod); });
  }
  FLOAT STDMETHODCALLTYPE GetResourceMinLOD(ID3D11Resource*) override {
    notImplemented("GetResourceMinLOD");
    return 0.0f;
  }
  void STDMETHODCALLTYPE ResolveSubresource(ID3D11Resource* dst, UINT dstSub, ID3D11Resource* src, UINT srcSub,
                                            DXGI_FORMAT format) override {
    auto d = keep(dst);
    auto s = keep(src);
    record([=](DdiContext& c) { c.ResolveSubresource(d.get(), dstSub, s.get(), srcSub, format); });
  }
  void STDMETHODCALLTYPE ExecuteCommandList(ID3D11CommandList* list, BOOL restore) override {
    auto l = keep(list);
    record([=](DdiContext& c) { c.ExecuteCommandList(l.get(), restore); });
  }
  void STDMETHODCALLTYPE CSSetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView* const* views,
                                                   const UINT* counts) override {
    auto v = keepArray(views, count);
    auto n = copyArray(counts, count);
    record([=](DdiContext& c) { c.CSSetUnorderedAccessViews(start, count, v.data(), dataOf(n)); });
  }

  // Getters: not kept by the emulation.
  void STDMETHODCALLTYPE IAGetInputLayout(ID3D11InputLayout** out) override { nulls(out, 1); }
  void STDMETHODCALLTYPE IAGetVertexBuffers(UINT, UINT count, ID3D11Buffer** out, UINT*, UINT*) override {
    nulls(out, count);
  }
  void STDMETHODCALLTYPE IAGetIndexBuffer(ID3D11Buffer** out, DXGI_FORMAT*, UINT*) override { nulls(out, 1); }
  void STDMETHODCALLTYPE IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY* out) override {
    notImplemented("deferred context getters");
    if (out) *out = D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;
  }
  void STDMETHODCALLTYPE GetPredication(ID3D11Predicate** out, BOOL*) override { nulls(out, 1); }
  void STDMETHODCALLTYPE OMGetRenderTargets(UINT count, ID3D11RenderTargetView** out,
                                            ID3D11DepthStencilView** dsv) override {
    nulls(out, count);
    nulls(dsv, 1);
  }
  void STDMETHODCALLTYPE OMGetRenderTargetsAndUnorderedAccessViews(UINT count, ID3D11RenderTargetView** out,
                                                                   ID3D11DepthStencilView** dsv, UINT, UINT uavCount,
                                                                   ID3D11UnorderedAccessView** uavs) override {
    nulls(out, count);
    nulls(dsv, 1);
    nulls(uavs, uavCount);
  }
  void STDMETHODCALLTYPE OMGetBlendState(ID3D11BlendState** out, FLOAT[4], UINT*) override { nulls(out, 1); }
  void STDMETHODCALLTYPE OMGetDepthStencilState(ID3D11DepthStencilState** out, UINT*) override { nulls(out, 1); }
  void STDMETHODCALLTYPE SOGetTargets(UINT count, ID3D11Buffer** out) override { nulls(out, count); }
  void STDMETHODCALLTYPE RSGetState(ID3D11RasterizerState** out) override { nulls(out, 1); }
  void STDMETHODCALLTYPE RSGetViewports(UINT* count, D3D11_VIEWPORT*) override {
    notImplemented("deferred context getters");
    if (count) *count = 0;
  }
  void STDMETHODCALLTYPE RSGetScissorRects(UINT* count, D3D11_RECT*) override {
    notImplemented("deferred context getters");
    if (count) *count = 0;
  }
  void STDMETHODCALLTYPE CSGetUnorderedAccessViews(UINT, UINT count, ID3D11UnorderedAccessView** out) override {
    nulls(out, count);
  }

  void STDMETHODCALLTYPE ClearState() override { record([](DdiContext& c) { c.ClearState(); }); }
  void STDMETHODCALLTYPE Flush() override {}
  D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE GetType() override { return D3D11_DEVICE_CONTEXT_DEFERRED; }
  UINT STDMETHODCALLTYPE GetContextFlags() override { return flags_; }
  HRESULT STDMETHODCALLTYPE FinishCommandList(BOOL restore, ID3D11CommandList** out) override {
    if (restore)
      notImplemented("FinishCommandList(RestoreDeferredContextState = TRUE): the next list starts from defaults");
    std::vector<CommandList::Command> commands;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      commands.swap(commands_);
      pendingMaps_.clear();
    }
    if (!out)
      return S_OK;   // the recording is discarded
    *out = new CommandList(device(), std::move(commands), flags_);
    return S_OK;
  }

private:
  UINT flags_;
  std::mutex mutex_;
  std::vector<CommandList::Command> commands_;
  std::map<ID3D11Resource*, std::vector<uint8_t>> pendingMaps_;
};

}  // namespace

HRESULT createDeferredContext(Device* device, ID3D11DeviceContext** out) {
  *out = new DeferredContext(device, 0);
  return S_OK;
}

}  // namespace triton::runtime
