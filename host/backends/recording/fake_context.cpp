// SPDX-License-Identifier: MIT
// The recording backend's device context: every binding, draw, copy and map the
// executor forwards, checked against what a driver assumes of its caller.
#include <string>

#include "fake_objects.h"

namespace npt::backends::recording {

namespace {

std::string text(const char* method, const std::string& what) { return std::string(method) + ": " + what; }

// A Set* array: slots inside the stage's range, every entry one of our objects of the kind.
template<typename T>
void checkArray(const char* method, FakeDevice* device, UINT start, UINT count, UINT slots, T* const* objects,
                std::initializer_list<Kind> kinds) {
  noteCall(method);
  if (start > slots || count > slots - start)
    return violation(text(method, "slots " + std::to_string(start) + "+" + std::to_string(count) + " of " +
                                      std::to_string(slots)));
  if (count && !objects) return;   // unbinding with a null array
  for (UINT i = 0; i < count; i++)
    if (objects[i]) expectObject(objects[i], objects[i], kinds, device, method);
}

FakeResourceBase* expectResource(ID3D11Resource* resource, FakeDevice* device, const char* method) {
  if (!resource) return violation(text(method, "null resource")), nullptr;
  return resourceOf(expectObject(resource, resource, {Kind::Buffer, Kind::Texture1D, Kind::Texture2D, Kind::Texture3D},
                                 device, method));
}

bool subresourceInRange(const FakeResourceBase& resource, UINT sub, const char* method) {
  if (sub < resource.shape.subresources()) return true;
  violation(text(method, "subresource " + std::to_string(sub) + " of " + std::to_string(resource.shape.subresources())));
  return false;
}

struct Extent { uint64_t width, height, depth; };

Extent extentOf(const ResourceShape& shape, UINT sub) {
  if (shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) return {shape.width, 1, 1};
  const UINT mip = sub % shape.mips;
  return {shape.mipWidth(mip), shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D ? 1u : shape.mipHeight(mip),
          shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? shape.mipDepth(mip) : 1u};
}

bool boxInside(const D3D11_BOX& box, const Extent& extent) {
  return box.right <= extent.width && box.bottom <= extent.height && box.back <= extent.depth;
}

bool boxEmpty(const D3D11_BOX& box) { return box.left >= box.right || box.top >= box.bottom || box.front >= box.back; }

void updateSubresource(FakeDevice* device, const char* method, ID3D11Resource* dst, UINT sub, const D3D11_BOX* box,
                       const void* data, UINT rowPitch, UINT depthPitch) {
  noteCall(method);
  FakeResourceBase* resource = expectResource(dst, device, method);
  if (!resource || !subresourceInRange(*resource, sub, method)) return;
  const ResourceShape& shape = resource->shape;
  const Extent extent = extentOf(shape, sub);
  D3D11_BOX region = {0, 0, 0, UINT(extent.width), UINT(extent.height), UINT(extent.depth)};
  if (box) {
    if (boxEmpty(*box)) return;   // D3D11: an empty box is a no-op
    if (!boxInside(*box, extent)) return violation(text(method, "box outside the subresource"));
    region = *box;
  }
  if (shape.samples > 1) return violation(text(method, "multisampled destination"));
  uint64_t rowBytes = 0, rows = 0;
  ResourceShape boxShape = shape;
  boxShape.width = region.right - region.left;
  boxShape.height = region.bottom - region.top;
  boxShape.mips = 1;
  if (!footprint(boxShape, 0, &rowBytes, &rows)) return violation(text(method, "format without a memory layout"));
  if (shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) rowBytes = region.right - region.left;
  const uint64_t slices = region.back - region.front;
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (uint64_t z = 0; z < slices; z++)
    for (uint64_t y = 0; y < rows; y++) touchBytes(bytes + z * depthPitch + y * rowPitch, rowBytes);
}

void copyRegion(FakeDevice* device, const char* method, ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z,
                ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box) {
  noteCall(method);
  FakeResourceBase* to = expectResource(dst, device, method);
  FakeResourceBase* from = expectResource(src, device, method);
  if (!to || !from || !subresourceInRange(*to, dstSub, method) || !subresourceInRange(*from, srcSub, method)) return;
  if (to->shape.dimension != from->shape.dimension) return violation(text(method, "resources of different dimensions"));
  if (to == from && dstSub == srcSub) return violation(text(method, "source and destination are one subresource"));
  const Extent source = extentOf(from->shape, srcSub), target = extentOf(to->shape, dstSub);
  D3D11_BOX region = {0, 0, 0, UINT(source.width), UINT(source.height), UINT(source.depth)};
  if (box) {
    if (boxEmpty(*box)) return;
    if (!boxInside(*box, source)) return violation(text(method, "source box outside the subresource"));
    region = *box;
  }
  if (uint64_t(x) + (region.right - region.left) > target.width || uint64_t(y) + (region.bottom - region.top) > target.height ||
      uint64_t(z) + (region.back - region.front) > target.depth)
    violation(text(method, "region outside the destination subresource"));
}

void checkIndirect(FakeDevice* device, const char* method, ID3D11Buffer* args, UINT offset, UINT bytes) {
  noteCall(method);
  FakeResourceBase* buffer = resourceOf(expectObject(args, args, {Kind::Buffer}, device, method));
  if (!buffer) return violation(text(method, "no argument buffer"));
  if (!(buffer->shape.misc & D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS)) violation(text(method, "buffer without DRAWINDIRECT_ARGS"));
  if (uint64_t(offset) + bytes > buffer->shape.width || offset % 4) violation(text(method, "arguments outside the buffer"));
}

}  // namespace

ULONG FakeContext::AddRef() { return m_deferred ? FakeCom::AddRef() : device()->AddRef(); }
ULONG FakeContext::Release() { return m_deferred ? FakeCom::Release() : device()->Release(); }

D3D11_DEVICE_CONTEXT_TYPE FakeContext::GetType() {
  return m_deferred ? D3D11_DEVICE_CONTEXT_DEFERRED : D3D11_DEVICE_CONTEXT_IMMEDIATE;
}

#define NPT_STAGE_SETTERS(Stage)                                                                                        \
  void FakeContext::Stage##SetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) {                   \
    checkArray(#Stage "SetConstantBuffers", device(), start, count,                                                    \
               D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT, buffers, {Kind::Buffer});                           \
  }                                                                                                                     \
  void FakeContext::Stage##SetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers,                    \
                                               const UINT* first, const UINT* num) {                                    \
    checkArray(#Stage "SetConstantBuffers1", device(), start, count,                                                   \
               D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT, buffers, {Kind::Buffer});                           \
    if (buffers && count <= D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT) {                                        \
      touchBytes(first, first ? count * sizeof(UINT) : 0);                                                              \
      touchBytes(num, num ? count * sizeof(UINT) : 0);                                                                  \
    }                                                                                                                   \
  }                                                                                                                     \
  void FakeContext::Stage##SetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) {         \
    checkArray(#Stage "SetShaderResources", device(), start, count, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT,     \
               views, {Kind::Srv});                                                                                     \
  }                                                                                                                     \
  void FakeContext::Stage##SetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) {                   \
    checkArray(#Stage "SetSamplers", device(), start, count, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT, samplers,         \
               {Kind::Sampler});                                                                                        \
  }
NPT_STAGE_SETTERS(VS)
NPT_STAGE_SETTERS(PS)
NPT_STAGE_SETTERS(GS)
NPT_STAGE_SETTERS(HS)
NPT_STAGE_SETTERS(DS)
NPT_STAGE_SETTERS(CS)
#undef NPT_STAGE_SETTERS

#define NPT_SET_SHADER(Stage, Interface, KindValue)                                                                    \
  void FakeContext::Stage##SetShader(Interface* shader, ID3D11ClassInstance* const* instances, UINT count) {           \
    noteCall(#Stage "SetShader");                                                                                       \
    if (shader) expectObject(shader, shader, {KindValue}, device(), #Stage "SetShader");                               \
    checkArray(#Stage "SetShader", device(), 0, instances ? count : 0, 256, instances, {Kind::ClassInstance});        \
  }
NPT_SET_SHADER(VS, ID3D11VertexShader, Kind::VertexShader)
NPT_SET_SHADER(PS, ID3D11PixelShader, Kind::PixelShader)
NPT_SET_SHADER(GS, ID3D11GeometryShader, Kind::GeometryShader)
NPT_SET_SHADER(HS, ID3D11HullShader, Kind::HullShader)
NPT_SET_SHADER(DS, ID3D11DomainShader, Kind::DomainShader)
NPT_SET_SHADER(CS, ID3D11ComputeShader, Kind::ComputeShader)
#undef NPT_SET_SHADER

void FakeContext::CSSetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView* const* views,
                                            const UINT* initialCounts) {
  checkArray("CSSetUnorderedAccessViews", device(), start, count, D3D11_1_UAV_SLOT_COUNT, views, {Kind::Uav});
  if (initialCounts && count <= D3D11_1_UAV_SLOT_COUNT) touchBytes(initialCounts, count * sizeof(UINT));
}

void FakeContext::IASetInputLayout(ID3D11InputLayout* layout) {
  noteCall("IASetInputLayout");
  if (layout) expectObject(layout, layout, {Kind::InputLayout}, device(), "IASetInputLayout");
}

void FakeContext::IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* strides,
                                     const UINT* offsets) {
  checkArray("IASetVertexBuffers", device(), start, count, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT, buffers,
             {Kind::Buffer});
  if (buffers && count <= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT) {
    if (!strides || !offsets) return violation("IASetVertexBuffers: null strides or offsets");
    touchBytes(strides, count * sizeof(UINT));
    touchBytes(offsets, count * sizeof(UINT));
  }
}

void FakeContext::IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format, UINT) {
  noteCall("IASetIndexBuffer");
  if (buffer) expectObject(buffer, buffer, {Kind::Buffer}, device(), "IASetIndexBuffer");
  // UNKNOWN passes validation (rules/, validateIndexBufferFormat); backends read
  // anything but R16_UINT as 32-bit indices.
  if (buffer && format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT && format != DXGI_FORMAT_UNKNOWN)
    violation("IASetIndexBuffer: format " + std::to_string(unsigned(format)));
}

void FakeContext::IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY topology) {
  noteCall("IASetPrimitiveTopology");
  if (unsigned(topology) > D3D11_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST)
    violation("IASetPrimitiveTopology: " + std::to_string(unsigned(topology)));
}

void FakeContext::OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views, ID3D11DepthStencilView* depth) {
  checkArray("OMSetRenderTargets", device(), 0, count, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, views, {Kind::Rtv});
  if (depth) expectObject(depth, depth, {Kind::Dsv}, device(), "OMSetRenderTargets");
}

void FakeContext::OMSetRenderTargetsAndUnorderedAccessViews(UINT numRtvs, ID3D11RenderTargetView* const* rtvs,
                                                            ID3D11DepthStencilView* depth, UINT uavStart, UINT numUavs,
                                                            ID3D11UnorderedAccessView* const* uavs,
                                                            const UINT* initialCounts) {
  const char* method = "OMSetRenderTargetsAndUnorderedAccessViews";
  if (numRtvs != D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL) {
    checkArray(method, device(), 0, numRtvs, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, rtvs, {Kind::Rtv});
    if (depth) expectObject(depth, depth, {Kind::Dsv}, device(), method);
  }
  if (numUavs != D3D11_KEEP_UNORDERED_ACCESS_VIEWS) {
    checkArray(method, device(), uavStart, numUavs, D3D11_1_UAV_SLOT_COUNT, uavs, {Kind::Uav});
    if (initialCounts && numUavs <= D3D11_1_UAV_SLOT_COUNT) touchBytes(initialCounts, numUavs * sizeof(UINT));
  }
}

void FakeContext::OMSetBlendState(ID3D11BlendState* state, const FLOAT factor[4], UINT) {
  noteCall("OMSetBlendState");
  if (state) expectObject(state, state, {Kind::Blend}, device(), "OMSetBlendState");
  if (factor) touchBytes(factor, 4 * sizeof(FLOAT));
}

void FakeContext::OMSetDepthStencilState(ID3D11DepthStencilState* state, UINT) {
  noteCall("OMSetDepthStencilState");
  if (state) expectObject(state, state, {Kind::DepthStencil}, device(), "OMSetDepthStencilState");
}

void FakeContext::RSSetState(ID3D11RasterizerState* state) {
  noteCall("RSSetState");
  if (state) expectObject(state, state, {Kind::Rasterizer}, device(), "RSSetState");
}

void FakeContext::RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) {
  noteCall("RSSetViewports");
  if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE) return violation("RSSetViewports: " + std::to_string(count));
  if (count) touchBytes(viewports, count * sizeof(D3D11_VIEWPORT));
}

void FakeContext::RSSetScissorRects(UINT count, const D3D11_RECT* rects) {
  noteCall("RSSetScissorRects");
  if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE) return violation("RSSetScissorRects: " + std::to_string(count));
  if (count) touchBytes(rects, count * sizeof(D3D11_RECT));
}

void FakeContext::SOSetTargets(UINT count, ID3D11Buffer* const* buffers, const UINT* offsets) {
  checkArray("SOSetTargets", device(), 0, count, D3D11_SO_BUFFER_SLOT_COUNT, buffers, {Kind::Buffer});
  if (offsets && count <= D3D11_SO_BUFFER_SLOT_COUNT) touchBytes(offsets, count * sizeof(UINT));
}

void FakeContext::SetPredication(ID3D11Predicate* predicate, BOOL) {
  noteCall("SetPredication");
  if (predicate) expectObject(predicate, predicate, {Kind::Predicate}, device(), "SetPredication");
}

void FakeContext::Draw(UINT, UINT) { noteCall("Draw"); }
void FakeContext::DrawIndexed(UINT, UINT, INT) { noteCall("DrawIndexed"); }
void FakeContext::DrawInstanced(UINT, UINT, UINT, UINT) { noteCall("DrawInstanced"); }
void FakeContext::DrawIndexedInstanced(UINT, UINT, UINT, INT, UINT) { noteCall("DrawIndexedInstanced"); }
void FakeContext::DrawAuto() { noteCall("DrawAuto"); }
void FakeContext::DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) {
  checkIndirect(device(), "DrawInstancedIndirect", args, offset, 16);
}
void FakeContext::DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) {
  checkIndirect(device(), "DrawIndexedInstancedIndirect", args, offset, 20);
}
void FakeContext::DispatchIndirect(ID3D11Buffer* args, UINT offset) {
  checkIndirect(device(), "DispatchIndirect", args, offset, 12);
}

void FakeContext::Dispatch(UINT x, UINT y, UINT z) {
  noteCall("Dispatch");
  const UINT limit = D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION;
  if (x > limit || y > limit || z > limit)
    violation("Dispatch: " + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z) + " groups");
}

void FakeContext::Begin(ID3D11Asynchronous* async) {
  noteCall("Begin");
  FakeQueryState* query = queryStateOf(expectObject(async, async, {Kind::Query, Kind::Predicate}, device(), "Begin"));
  if (!query) return violation("Begin: no query");
  if (query->query == D3D11_QUERY_EVENT || query->query == D3D11_QUERY_TIMESTAMP)
    return violation("Begin: on a query without Begin");
  query->begun = true;
}

void FakeContext::End(ID3D11Asynchronous* async) {
  noteCall("End");
  FakeQueryState* query = queryStateOf(expectObject(async, async, {Kind::Query, Kind::Predicate}, device(), "End"));
  if (!query) return violation("End: no query");
  query->begun = false;
  query->ends++;
}

HRESULT FakeContext::GetData(ID3D11Asynchronous* async, void* data, UINT size, UINT) {
  noteCall("GetData");
  FakeQueryState* query = queryStateOf(expectObject(async, async, {Kind::Query, Kind::Predicate}, device(), "GetData"));
  if (!query) return violation("GetData: no query"), E_INVALIDARG;
  if (m_deferred) return violation("GetData: on a deferred context"), E_INVALIDARG;
  if (data && size != queryDataSize(query->query))
    return violation("GetData: " + std::to_string(size) + " bytes for a query of " +
                     std::to_string(queryDataSize(query->query))), E_INVALIDARG;
  if (!query->ends) return S_FALSE;
  // Results are ready at once; their bytes are a fixed pattern a test can recognise.
  if (data) std::memset(data, 0x11, size);
  return S_OK;
}

void FakeContext::CopyResource(ID3D11Resource* dst, ID3D11Resource* src) {
  noteCall("CopyResource");
  FakeResourceBase* to = expectResource(dst, device(), "CopyResource");
  FakeResourceBase* from = expectResource(src, device(), "CopyResource");
  if (!to || !from) return;
  if (to == from) return violation("CopyResource: source is the destination");
  const ResourceShape &a = to->shape, &b = from->shape;
  if (a.dimension != b.dimension || a.width != b.width || a.height != b.height || a.depth != b.depth ||
      a.mips != b.mips || a.arraySize != b.arraySize || a.samples != b.samples)
    violation("CopyResource: resources of different shapes");
}

void FakeContext::CopySubresourceRegion(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z, ID3D11Resource* src,
                                        UINT srcSub, const D3D11_BOX* box) {
  copyRegion(device(), "CopySubresourceRegion", dst, dstSub, x, y, z, src, srcSub, box);
}

void FakeContext::CopySubresourceRegion1(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z, ID3D11Resource* src,
                                         UINT srcSub, const D3D11_BOX* box, UINT) {
  copyRegion(device(), "CopySubresourceRegion1", dst, dstSub, x, y, z, src, srcSub, box);
}

void FakeContext::CopyStructureCount(ID3D11Buffer* dst, UINT offset, ID3D11UnorderedAccessView* src) {
  noteCall("CopyStructureCount");
  FakeResourceBase* buffer = resourceOf(expectObject(dst, dst, {Kind::Buffer}, device(), "CopyStructureCount"));
  expectObject(src, src, {Kind::Uav}, device(), "CopyStructureCount");
  if (buffer && uint64_t(offset) + 4 > buffer->shape.width) violation("CopyStructureCount: offset outside the buffer");
}

void FakeContext::UpdateSubresource(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data, UINT rowPitch,
                                    UINT depthPitch) {
  updateSubresource(device(), "UpdateSubresource", dst, sub, box, data, rowPitch, depthPitch);
}

void FakeContext::UpdateSubresource1(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data,
                                     UINT rowPitch, UINT depthPitch, UINT) {
  updateSubresource(device(), "UpdateSubresource1", dst, sub, box, data, rowPitch, depthPitch);
}

HRESULT FakeContext::Map(ID3D11Resource* target, UINT sub, D3D11_MAP type, UINT, D3D11_MAPPED_SUBRESOURCE* out) {
  noteCall("Map");
  FakeResourceBase* resource = expectResource(target, device(), "Map");
  if (!resource || !out || !subresourceInRange(*resource, sub, "Map")) return E_INVALIDARG;
  const ResourceShape& shape = resource->shape;
  if (shape.usage != D3D11_USAGE_DYNAMIC && shape.usage != D3D11_USAGE_STAGING)
    return violation("Map: a resource that is neither DYNAMIC nor STAGING"), E_INVALIDARG;
  if (m_deferred && type != D3D11_MAP_WRITE_DISCARD && type != D3D11_MAP_WRITE_NO_OVERWRITE)
    return violation("Map: a deferred context maps only for discard/no-overwrite"), E_INVALIDARG;
  FakeResourceBase::Mapping& mapping = resource->mapped[sub];
  if (mapping.memory) return violation("Map: subresource already mapped"), E_INVALIDARG;
  uint64_t rowBytes = 0, rows = 0;
  const UINT mip = sub % shape.mips;
  if (!footprint(shape, mip, &rowBytes, &rows)) return violation("Map: a format without a memory layout"), E_INVALIDARG;
  // Drivers pad rows; the executor must follow the pitches it is given.
  const uint64_t rowPitch = (rowBytes + 255) / 256 * 256;
  const uint64_t depthPitch = rowPitch * rows;
  const uint64_t depth = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? shape.mipDepth(mip) : 1;
  const uint64_t bytes = depthPitch * depth;
  if (bytes > (uint64_t(1) << 32)) return violation("Map: a subresource over 4 GiB"), E_OUTOFMEMORY;
  mapping.memory.reset(new uint8_t[bytes]);
  std::memset(mapping.memory.get(), 0x5a, bytes);
  mapping.rowPitch = UINT(rowPitch);
  mapping.depthPitch = UINT(depthPitch);
  out->pData = mapping.memory.get();
  out->RowPitch = mapping.rowPitch;
  out->DepthPitch = mapping.depthPitch;
  return S_OK;
}

void FakeContext::Unmap(ID3D11Resource* target, UINT sub) {
  noteCall("Unmap");
  FakeResourceBase* resource = expectResource(target, device(), "Unmap");
  if (!resource || !subresourceInRange(*resource, sub, "Unmap")) return;
  if (!resource->mapped[sub].memory) return violation("Unmap: subresource not mapped");
  // Freed now: a later access through the old pointer is a sanitizer report.
  resource->mapped[sub].memory.reset();
}

void FakeContext::ClearRenderTargetView(ID3D11RenderTargetView* view, const FLOAT color[4]) {
  noteCall("ClearRenderTargetView");
  if (!expectObject(view, view, {Kind::Rtv}, device(), "ClearRenderTargetView")) violation("ClearRenderTargetView: no view");
  touchBytes(color, 4 * sizeof(FLOAT));
}

void FakeContext::ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view, const UINT values[4]) {
  noteCall("ClearUnorderedAccessViewUint");
  if (!expectObject(view, view, {Kind::Uav}, device(), "ClearUnorderedAccessViewUint")) violation("ClearUnorderedAccessViewUint: no view");
  touchBytes(values, 4 * sizeof(UINT));
}

void FakeContext::ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view, const FLOAT values[4]) {
  noteCall("ClearUnorderedAccessViewFloat");
  if (!expectObject(view, view, {Kind::Uav}, device(), "ClearUnorderedAccessViewFloat")) violation("ClearUnorderedAccessViewFloat: no view");
  touchBytes(values, 4 * sizeof(FLOAT));
}

void FakeContext::ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags, FLOAT, UINT8) {
  noteCall("ClearDepthStencilView");
  if (!expectObject(view, view, {Kind::Dsv}, device(), "ClearDepthStencilView")) violation("ClearDepthStencilView: no view");
  if (flags & ~UINT(D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL)) violation("ClearDepthStencilView: flags " + std::to_string(flags));
}

void FakeContext::ClearView(ID3D11View* view, const FLOAT color[4], const D3D11_RECT* rects, UINT count) {
  noteCall("ClearView");
  if (!expectObject(view, view, {Kind::Rtv, Kind::Uav, Kind::Srv, Kind::Dsv}, device(), "ClearView")) violation("ClearView: no view");
  touchBytes(color, 4 * sizeof(FLOAT));
  if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE * 64) violation("ClearView: " + std::to_string(count) + " rects");
  else if (count) touchBytes(rects, count * sizeof(D3D11_RECT));
}

void FakeContext::GenerateMips(ID3D11ShaderResourceView* view) {
  noteCall("GenerateMips");
  if (!expectObject(view, view, {Kind::Srv}, device(), "GenerateMips")) violation("GenerateMips: no view");
}

void FakeContext::ResolveSubresource(ID3D11Resource* dst, UINT dstSub, ID3D11Resource* src, UINT srcSub, DXGI_FORMAT) {
  noteCall("ResolveSubresource");
  FakeResourceBase* to = expectResource(dst, device(), "ResolveSubresource");
  FakeResourceBase* from = expectResource(src, device(), "ResolveSubresource");
  if (!to || !from || !subresourceInRange(*to, dstSub, "ResolveSubresource") ||
      !subresourceInRange(*from, srcSub, "ResolveSubresource"))
    return;
  if (from->shape.samples < 2 || to->shape.samples != 1) violation("ResolveSubresource: sample counts");
}

void FakeContext::SetResourceMinLOD(ID3D11Resource* resource, FLOAT) {
  noteCall("SetResourceMinLOD");
  expectResource(resource, device(), "SetResourceMinLOD");
}

void FakeContext::DiscardResource(ID3D11Resource* resource) {
  noteCall("DiscardResource");
  expectResource(resource, device(), "DiscardResource");
}

void FakeContext::DiscardView(ID3D11View* view) {
  noteCall("DiscardView");
  if (!expectObject(view, view, {Kind::Rtv, Kind::Uav, Kind::Srv, Kind::Dsv}, device(), "DiscardView")) violation("DiscardView: no view");
}

void FakeContext::ExecuteCommandList(ID3D11CommandList* list, BOOL) {
  noteCall("ExecuteCommandList");
  if (!expectObject(list, list, {Kind::CommandList}, device(), "ExecuteCommandList")) violation("ExecuteCommandList: no list");
  if (m_deferred) {
    // Allowed (deferred contexts may execute lists), nothing to check beyond the list.
  }
}

HRESULT FakeContext::FinishCommandList(BOOL, ID3D11CommandList** list) {
  noteCall("FinishCommandList");
  if (!m_deferred) return violation("FinishCommandList: on the immediate context"), DXGI_ERROR_INVALID_CALL;
  if (!list) return violation("FinishCommandList: null out pointer"), E_INVALIDARG;
  *list = new FakeCommandList(device());
  return S_OK;
}

void FakeContext::ClearState() { noteCall("ClearState"); }
void FakeContext::Flush() { noteCall("Flush"); }

}  // namespace npt::backends::recording
