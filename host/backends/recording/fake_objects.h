// SPDX-License-Identifier: MIT
#pragma once

// The recording backend's objects (recording.h says what they check). Each class derives
// from the generated default layer (FakeBase_<newest interface>, npt_fake_com.h) and from
// FakeObject, which carries the reference count, the owning device and the kind.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "npt/backends/recording.h"
#include "npt/validation/queries.h"
#include "npt_fake_com.h"

namespace npt::backends::recording {

class FakeDevice;

inline bool sameGuid(const GUID& a, const GUID& b) { return std::memcmp(&a, &b, sizeof(GUID)) == 0; }

// Records a broken driver invariant.
void violation(const std::string& what);
// Records a call made by the executor.
void noteCall(const char* method);
// Reads `size` bytes at `data` the way a driver copying them would (sanitizers see overruns).
void touchBytes(const void* data, uint64_t size);

enum class Kind { Device, Context, Buffer, Texture1D, Texture2D, Texture3D, Srv, Rtv, Dsv, Uav,
                  VertexShader, HullShader, DomainShader, GeometryShader, PixelShader, ComputeShader,
                  InputLayout, ClassLinkage, ClassInstance, Blend, DepthStencil, Rasterizer, Sampler,
                  Query, Predicate, CommandList };

class FakeObject {
public:
  // holdsDevice: the object keeps a reference on its device (every child but the
  // immediate context, whose references are the device's own).
  FakeObject(Kind kind, FakeDevice* device, bool holdsDevice = true);
  virtual ~FakeObject();
  FakeObject(const FakeObject&) = delete;
  FakeObject& operator=(const FakeObject&) = delete;

  Kind kind() const { return m_kind; }
  FakeDevice* device() const { return m_device; }
  ULONG addRef();
  ULONG release();
  // The interfaces QueryInterface answers (besides IUnknown).
  virtual bool supports(REFIID iid) const = 0;
  virtual IUnknown* asUnknown() = 0;

private:
  Kind m_kind;
  FakeDevice* m_device;
  bool m_holdsDevice;     // a reference, as D3D11 children keep their device alive
  int64_t m_refs = 1;
};

// IUnknown over a generated default layer.
template<typename Base>
class FakeCom : public Base, public FakeObject {
public:
  FakeCom(Kind kind, FakeDevice* device, bool holdsDevice = true) : FakeObject(kind, device, holdsDevice) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void** out) override {
    if (!out) return E_POINTER;
    *out = nullptr;
    if (!sameGuid(iid, IID_IUnknown) && !supports(iid)) return E_NOINTERFACE;
    this->AddRef();
    *out = static_cast<Base*>(this);
    return S_OK;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return addRef(); }
  ULONG STDMETHODCALLTYPE Release() override { return release(); }
  IUnknown* asUnknown() override { return static_cast<Base*>(this); }
};

// The fake object behind an interface pointer the executor passed, or null (recorded as a
// violation) when it is not one of ours, not of an accepted kind or of another device.
FakeObject* expectObject(const void* object, IUnknown* unknown, std::initializer_list<Kind> kinds,
                         const FakeDevice* device, const char* method);

struct ResourceShape {
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  UINT width = 0, height = 1, depth = 1;   // texels (buffers: ByteWidth)
  UINT mips = 1, arraySize = 1, samples = 1;
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
  D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
  UINT bind = 0, cpuAccess = 0, misc = 0, stride = 0;

  UINT subresources() const { return mips * arraySize; }
  UINT mipWidth(UINT mip) const { return width >> mip ? width >> mip : 1; }
  UINT mipHeight(UINT mip) const { return height >> mip ? height >> mip : 1; }
  UINT mipDepth(UINT mip) const { return depth >> mip ? depth >> mip : 1; }
};

// Bytes per row of blocks and rows of blocks of one mip (false: no memory layout known).
bool footprint(const ResourceShape& shape, UINT mip, uint64_t* rowBytes, uint64_t* rows);

class FakeResourceBase {
public:
  ResourceShape shape;
  // Map: the memory handed out per subresource (freed at Unmap) and its pitches.
  struct Mapping { std::unique_ptr<uint8_t[]> memory; UINT rowPitch = 0, depthPitch = 0; };
  std::vector<Mapping> mapped;
};

class FakeBuffer final : public FakeCom<FakeBase_ID3D11Buffer>, public FakeResourceBase {
public:
  explicit FakeBuffer(FakeDevice* device) : FakeCom(Kind::Buffer, device) {}
  bool supports(REFIID iid) const override;
  void STDMETHODCALLTYPE GetDesc(D3D11_BUFFER_DESC* desc) override;
};
class FakeTexture1D final : public FakeCom<FakeBase_ID3D11Texture1D>, public FakeResourceBase {
public:
  explicit FakeTexture1D(FakeDevice* device) : FakeCom(Kind::Texture1D, device) {}
  bool supports(REFIID iid) const override;
};
class FakeTexture2D final : public FakeCom<FakeBase_ID3D11Texture2D1>, public FakeResourceBase {
public:
  explicit FakeTexture2D(FakeDevice* device) : FakeCom(Kind::Texture2D, device) {}
  bool supports(REFIID iid) const override;
};
class FakeTexture3D final : public FakeCom<FakeBase_ID3D11Texture3D1>, public FakeResourceBase {
public:
  explicit FakeTexture3D(FakeDevice* device) : FakeCom(Kind::Texture3D, device) {}
  bool supports(REFIID iid) const override;
};
FakeResourceBase* resourceOf(FakeObject* object);

// A view keeps its resource alive (as in D3D11) and remembers which part it covers.
class FakeViewBase {
public:
  IUnknown* resource = nullptr;
  ~FakeViewBase() { if (resource) resource->Release(); }
};
#define NPT_FAKE_VIEW(Class, Base, KindValue)                                             \
  class Class final : public FakeCom<Base>, public FakeViewBase {                          \
  public:                                                                                  \
    explicit Class(FakeDevice* device) : FakeCom(KindValue, device) {}                     \
    bool supports(REFIID iid) const override;                                              \
  };
NPT_FAKE_VIEW(FakeSrv, FakeBase_ID3D11ShaderResourceView1, Kind::Srv)
NPT_FAKE_VIEW(FakeRtv, FakeBase_ID3D11RenderTargetView1, Kind::Rtv)
NPT_FAKE_VIEW(FakeDsv, FakeBase_ID3D11DepthStencilView, Kind::Dsv)
NPT_FAKE_VIEW(FakeUav, FakeBase_ID3D11UnorderedAccessView1, Kind::Uav)
#undef NPT_FAKE_VIEW

// Objects with no behaviour beyond identity and lifetime.
#define NPT_FAKE_PLAIN(Class, Base, KindValue)                                             \
  class Class final : public FakeCom<Base> {                                               \
  public:                                                                                  \
    explicit Class(FakeDevice* device) : FakeCom(KindValue, device) {}                     \
    bool supports(REFIID iid) const override;                                              \
  };
NPT_FAKE_PLAIN(FakeVertexShader, FakeBase_ID3D11VertexShader, Kind::VertexShader)
NPT_FAKE_PLAIN(FakeHullShader, FakeBase_ID3D11HullShader, Kind::HullShader)
NPT_FAKE_PLAIN(FakeDomainShader, FakeBase_ID3D11DomainShader, Kind::DomainShader)
NPT_FAKE_PLAIN(FakeGeometryShader, FakeBase_ID3D11GeometryShader, Kind::GeometryShader)
NPT_FAKE_PLAIN(FakePixelShader, FakeBase_ID3D11PixelShader, Kind::PixelShader)
NPT_FAKE_PLAIN(FakeComputeShader, FakeBase_ID3D11ComputeShader, Kind::ComputeShader)
NPT_FAKE_PLAIN(FakeInputLayout, FakeBase_ID3D11InputLayout, Kind::InputLayout)
NPT_FAKE_PLAIN(FakeClassInstance, FakeBase_ID3D11ClassInstance, Kind::ClassInstance)
NPT_FAKE_PLAIN(FakeBlendState, FakeBase_ID3D11BlendState1, Kind::Blend)
NPT_FAKE_PLAIN(FakeDepthStencilState, FakeBase_ID3D11DepthStencilState, Kind::DepthStencil)
NPT_FAKE_PLAIN(FakeRasterizerState, FakeBase_ID3D11RasterizerState2, Kind::Rasterizer)
NPT_FAKE_PLAIN(FakeSamplerState, FakeBase_ID3D11SamplerState, Kind::Sampler)
NPT_FAKE_PLAIN(FakeCommandList, FakeBase_ID3D11CommandList, Kind::CommandList)
#undef NPT_FAKE_PLAIN

class FakeClassLinkage final : public FakeCom<FakeBase_ID3D11ClassLinkage> {
public:
  explicit FakeClassLinkage(FakeDevice* device) : FakeCom(Kind::ClassLinkage, device) {}
  bool supports(REFIID iid) const override;
  HRESULT STDMETHODCALLTYPE CreateClassInstance(LPCSTR type, UINT cbOffset, UINT cvOffset, UINT textureOffset,
                                                UINT samplerOffset, ID3D11ClassInstance** instance) override;
};

class FakeQueryState {
public:
  explicit FakeQueryState(D3D11_QUERY query) : query(query) {}
  D3D11_QUERY query;
  bool begun = false;
  uint32_t ends = 0;
};
class FakeQuery final : public FakeCom<FakeBase_ID3D11Query1>, public FakeQueryState {
public:
  FakeQuery(FakeDevice* device, D3D11_QUERY query) : FakeCom(Kind::Query, device), FakeQueryState(query) {}
  bool supports(REFIID iid) const override;
  UINT STDMETHODCALLTYPE GetDataSize() override;
};
class FakePredicate final : public FakeCom<FakeBase_ID3D11Predicate>, public FakeQueryState {
public:
  FakePredicate(FakeDevice* device, D3D11_QUERY query) : FakeCom(Kind::Predicate, device), FakeQueryState(query) {}
  bool supports(REFIID iid) const override;
  UINT STDMETHODCALLTYPE GetDataSize() override;
};
FakeQueryState* queryStateOf(FakeObject* object);
using validation::queryDataSize;   // bytes GetData returns for a query type (0: unknown type)

class FakeContext final : public FakeCom<FakeBase_ID3D11DeviceContext4> {
public:
  FakeContext(FakeDevice* device, bool deferred) : FakeCom(Kind::Context, device, deferred), m_deferred(deferred) {}
  bool supports(REFIID iid) const override;
  // The immediate context shares the device's reference count (it lives as long as the device).
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  // fake_context.cpp
  D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE GetType() override;
  UINT STDMETHODCALLTYPE GetContextFlags() override { return 0; }
  void STDMETHODCALLTYPE VSSetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) override;
  void STDMETHODCALLTYPE PSSetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) override;
  void STDMETHODCALLTYPE GSSetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) override;
  void STDMETHODCALLTYPE HSSetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) override;
  void STDMETHODCALLTYPE DSSetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) override;
  void STDMETHODCALLTYPE CSSetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) override;
  void STDMETHODCALLTYPE VSSetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) override;
  void STDMETHODCALLTYPE PSSetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) override;
  void STDMETHODCALLTYPE GSSetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) override;
  void STDMETHODCALLTYPE HSSetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) override;
  void STDMETHODCALLTYPE DSSetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) override;
  void STDMETHODCALLTYPE CSSetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* first, const UINT* num) override;
  void STDMETHODCALLTYPE VSSetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) override;
  void STDMETHODCALLTYPE PSSetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) override;
  void STDMETHODCALLTYPE GSSetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) override;
  void STDMETHODCALLTYPE HSSetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) override;
  void STDMETHODCALLTYPE DSSetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) override;
  void STDMETHODCALLTYPE CSSetShaderResources(UINT start, UINT count, ID3D11ShaderResourceView* const* views) override;
  void STDMETHODCALLTYPE VSSetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) override;
  void STDMETHODCALLTYPE PSSetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) override;
  void STDMETHODCALLTYPE GSSetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) override;
  void STDMETHODCALLTYPE HSSetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) override;
  void STDMETHODCALLTYPE DSSetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) override;
  void STDMETHODCALLTYPE CSSetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) override;
  void STDMETHODCALLTYPE VSSetShader(ID3D11VertexShader* shader, ID3D11ClassInstance* const* instances, UINT count) override;
  void STDMETHODCALLTYPE PSSetShader(ID3D11PixelShader* shader, ID3D11ClassInstance* const* instances, UINT count) override;
  void STDMETHODCALLTYPE GSSetShader(ID3D11GeometryShader* shader, ID3D11ClassInstance* const* instances, UINT count) override;
  void STDMETHODCALLTYPE HSSetShader(ID3D11HullShader* shader, ID3D11ClassInstance* const* instances, UINT count) override;
  void STDMETHODCALLTYPE DSSetShader(ID3D11DomainShader* shader, ID3D11ClassInstance* const* instances, UINT count) override;
  void STDMETHODCALLTYPE CSSetShader(ID3D11ComputeShader* shader, ID3D11ClassInstance* const* instances, UINT count) override;
  void STDMETHODCALLTYPE CSSetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView* const* views, const UINT* initialCounts) override;
  void STDMETHODCALLTYPE IASetInputLayout(ID3D11InputLayout* layout) override;
  void STDMETHODCALLTYPE IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers, const UINT* strides, const UINT* offsets) override;
  void STDMETHODCALLTYPE IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format, UINT offset) override;
  void STDMETHODCALLTYPE IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY topology) override;
  void STDMETHODCALLTYPE OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views, ID3D11DepthStencilView* depth) override;
  void STDMETHODCALLTYPE OMSetRenderTargetsAndUnorderedAccessViews(UINT numRtvs, ID3D11RenderTargetView* const* rtvs, ID3D11DepthStencilView* depth, UINT uavStart, UINT numUavs, ID3D11UnorderedAccessView* const* uavs, const UINT* initialCounts) override;
  void STDMETHODCALLTYPE OMSetBlendState(ID3D11BlendState* state, const FLOAT factor[4], UINT mask) override;
  void STDMETHODCALLTYPE OMSetDepthStencilState(ID3D11DepthStencilState* state, UINT ref) override;
  void STDMETHODCALLTYPE RSSetState(ID3D11RasterizerState* state) override;
  void STDMETHODCALLTYPE RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) override;
  void STDMETHODCALLTYPE RSSetScissorRects(UINT count, const D3D11_RECT* rects) override;
  void STDMETHODCALLTYPE SOSetTargets(UINT count, ID3D11Buffer* const* buffers, const UINT* offsets) override;
  void STDMETHODCALLTYPE SetPredication(ID3D11Predicate* predicate, BOOL value) override;
  void STDMETHODCALLTYPE Draw(UINT vertices, UINT start) override;
  void STDMETHODCALLTYPE DrawIndexed(UINT indices, UINT start, INT base) override;
  void STDMETHODCALLTYPE DrawInstanced(UINT vertices, UINT instances, UINT start, UINT startInstance) override;
  void STDMETHODCALLTYPE DrawIndexedInstanced(UINT indices, UINT instances, UINT start, INT base, UINT startInstance) override;
  void STDMETHODCALLTYPE DrawAuto() override;
  void STDMETHODCALLTYPE DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) override;
  void STDMETHODCALLTYPE DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) override;
  void STDMETHODCALLTYPE Dispatch(UINT x, UINT y, UINT z) override;
  void STDMETHODCALLTYPE DispatchIndirect(ID3D11Buffer* args, UINT offset) override;
  void STDMETHODCALLTYPE Begin(ID3D11Asynchronous* async) override;
  void STDMETHODCALLTYPE End(ID3D11Asynchronous* async) override;
  HRESULT STDMETHODCALLTYPE GetData(ID3D11Asynchronous* async, void* data, UINT size, UINT flags) override;
  void STDMETHODCALLTYPE CopyResource(ID3D11Resource* dst, ID3D11Resource* src) override;
  void STDMETHODCALLTYPE CopySubresourceRegion(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z, ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box) override;
  void STDMETHODCALLTYPE CopySubresourceRegion1(ID3D11Resource* dst, UINT dstSub, UINT x, UINT y, UINT z, ID3D11Resource* src, UINT srcSub, const D3D11_BOX* box, UINT flags) override;
  void STDMETHODCALLTYPE CopyStructureCount(ID3D11Buffer* dst, UINT offset, ID3D11UnorderedAccessView* src) override;
  void STDMETHODCALLTYPE UpdateSubresource(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data, UINT rowPitch, UINT depthPitch) override;
  void STDMETHODCALLTYPE UpdateSubresource1(ID3D11Resource* dst, UINT sub, const D3D11_BOX* box, const void* data, UINT rowPitch, UINT depthPitch, UINT flags) override;
  HRESULT STDMETHODCALLTYPE Map(ID3D11Resource* resource, UINT sub, D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE* out) override;
  void STDMETHODCALLTYPE Unmap(ID3D11Resource* resource, UINT sub) override;
  void STDMETHODCALLTYPE ClearRenderTargetView(ID3D11RenderTargetView* view, const FLOAT color[4]) override;
  void STDMETHODCALLTYPE ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view, const UINT values[4]) override;
  void STDMETHODCALLTYPE ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view, const FLOAT values[4]) override;
  void STDMETHODCALLTYPE ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags, FLOAT depth, UINT8 stencil) override;
  void STDMETHODCALLTYPE ClearView(ID3D11View* view, const FLOAT color[4], const D3D11_RECT* rects, UINT count) override;
  void STDMETHODCALLTYPE GenerateMips(ID3D11ShaderResourceView* view) override;
  void STDMETHODCALLTYPE ResolveSubresource(ID3D11Resource* dst, UINT dstSub, ID3D11Resource* src, UINT srcSub, DXGI_FORMAT format) override;
  void STDMETHODCALLTYPE SetResourceMinLOD(ID3D11Resource* resource, FLOAT lod) override;
  void STDMETHODCALLTYPE DiscardResource(ID3D11Resource* resource) override;
  void STDMETHODCALLTYPE DiscardView(ID3D11View* view) override;
  void STDMETHODCALLTYPE ExecuteCommandList(ID3D11CommandList* list, BOOL restore) override;
  HRESULT STDMETHODCALLTYPE FinishCommandList(BOOL restore, ID3D11CommandList** list) override;
  void STDMETHODCALLTYPE ClearState() override;
  void STDMETHODCALLTYPE Flush() override;

private:
  bool m_deferred;
};

class FakeDevice final : public FakeCom<FakeBase_ID3D11Device5> {
public:
  FakeDevice();
  ~FakeDevice() override;
  bool supports(REFIID iid) const override;
  D3D_FEATURE_LEVEL featureLevel = D3D_FEATURE_LEVEL_11_1;
  FakeContext* immediate = nullptr;   // owned: deleted with the device

  // fake_device.cpp
  D3D_FEATURE_LEVEL STDMETHODCALLTYPE GetFeatureLevel() override { return featureLevel; }
  UINT STDMETHODCALLTYPE GetCreationFlags() override { return 0; }
  HRESULT STDMETHODCALLTYPE CheckFormatSupport(DXGI_FORMAT format, UINT* support) override;
  HRESULT STDMETHODCALLTYPE CheckMultisampleQualityLevels(DXGI_FORMAT format, UINT samples, UINT* levels) override;
  HRESULT STDMETHODCALLTYPE CheckFeatureSupport(D3D11_FEATURE feature, void* data, UINT size) override;
  void STDMETHODCALLTYPE GetImmediateContext(ID3D11DeviceContext** context) override;
  HRESULT STDMETHODCALLTYPE CreateBuffer(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Buffer** out) override;
  HRESULT STDMETHODCALLTYPE CreateTexture1D(const D3D11_TEXTURE1D_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture1D** out) override;
  HRESULT STDMETHODCALLTYPE CreateTexture2D(const D3D11_TEXTURE2D_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D** out) override;
  HRESULT STDMETHODCALLTYPE CreateTexture3D(const D3D11_TEXTURE3D_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D** out) override;
  HRESULT STDMETHODCALLTYPE CreateTexture2D1(const D3D11_TEXTURE2D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D1** out) override;
  HRESULT STDMETHODCALLTYPE CreateTexture3D1(const D3D11_TEXTURE3D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D1** out) override;
  HRESULT STDMETHODCALLTYPE CreateShaderResourceView(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* desc, ID3D11ShaderResourceView** out) override;
  HRESULT STDMETHODCALLTYPE CreateShaderResourceView1(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc, ID3D11ShaderResourceView1** out) override;
  HRESULT STDMETHODCALLTYPE CreateRenderTargetView(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC* desc, ID3D11RenderTargetView** out) override;
  HRESULT STDMETHODCALLTYPE CreateRenderTargetView1(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC1* desc, ID3D11RenderTargetView1** out) override;
  HRESULT STDMETHODCALLTYPE CreateDepthStencilView(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc, ID3D11DepthStencilView** out) override;
  HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc, ID3D11UnorderedAccessView** out) override;
  HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView1(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc, ID3D11UnorderedAccessView1** out) override;
  HRESULT STDMETHODCALLTYPE CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, UINT count, const void* bytecode, SIZE_T length, ID3D11InputLayout** out) override;
  HRESULT STDMETHODCALLTYPE CreateVertexShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage, ID3D11VertexShader** out) override;
  HRESULT STDMETHODCALLTYPE CreateHullShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage, ID3D11HullShader** out) override;
  HRESULT STDMETHODCALLTYPE CreateDomainShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage, ID3D11DomainShader** out) override;
  HRESULT STDMETHODCALLTYPE CreateGeometryShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage, ID3D11GeometryShader** out) override;
  HRESULT STDMETHODCALLTYPE CreateGeometryShaderWithStreamOutput(const void* bytecode, SIZE_T length, const D3D11_SO_DECLARATION_ENTRY* entries, UINT numEntries, const UINT* strides, UINT numStrides, UINT rasterizedStream, ID3D11ClassLinkage* linkage, ID3D11GeometryShader** out) override;
  HRESULT STDMETHODCALLTYPE CreatePixelShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage, ID3D11PixelShader** out) override;
  HRESULT STDMETHODCALLTYPE CreateComputeShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage, ID3D11ComputeShader** out) override;
  HRESULT STDMETHODCALLTYPE CreateClassLinkage(ID3D11ClassLinkage** out) override;
  HRESULT STDMETHODCALLTYPE CreateBlendState(const D3D11_BLEND_DESC* desc, ID3D11BlendState** out) override;
  HRESULT STDMETHODCALLTYPE CreateBlendState1(const D3D11_BLEND_DESC1* desc, ID3D11BlendState1** out) override;
  HRESULT STDMETHODCALLTYPE CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC* desc, ID3D11DepthStencilState** out) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState(const D3D11_RASTERIZER_DESC* desc, ID3D11RasterizerState** out) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState1(const D3D11_RASTERIZER_DESC1* desc, ID3D11RasterizerState1** out) override;
  HRESULT STDMETHODCALLTYPE CreateRasterizerState2(const D3D11_RASTERIZER_DESC2* desc, ID3D11RasterizerState2** out) override;
  HRESULT STDMETHODCALLTYPE CreateSamplerState(const D3D11_SAMPLER_DESC* desc, ID3D11SamplerState** out) override;
  HRESULT STDMETHODCALLTYPE CreateQuery(const D3D11_QUERY_DESC* desc, ID3D11Query** out) override;
  HRESULT STDMETHODCALLTYPE CreateQuery1(const D3D11_QUERY_DESC1* desc, ID3D11Query1** out) override;
  HRESULT STDMETHODCALLTYPE CreatePredicate(const D3D11_QUERY_DESC* desc, ID3D11Predicate** out) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext(UINT flags, ID3D11DeviceContext** out) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext1(UINT flags, ID3D11DeviceContext1** out) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext2(UINT flags, ID3D11DeviceContext2** out) override;
  HRESULT STDMETHODCALLTYPE CreateDeferredContext3(UINT flags, ID3D11DeviceContext3** out) override;
};

}  // namespace npt::backends::recording
