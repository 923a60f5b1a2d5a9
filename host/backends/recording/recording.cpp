// SPDX-License-Identifier: MIT
// The recording backend: journal, object bookkeeping, the Backend seam and registration.
#include <atomic>
#include <cstring>

#include "fake_objects.h"
#include "npt/backends/backend.h"
#include "npt/validation/format_table.h"

namespace npt::backends::recording {

namespace {

std::atomic<int64_t> g_liveObjects{0};

const char* kindName(Kind kind) {
  static const char* const kNames[] = {"device", "context", "buffer", "texture1d", "texture2d", "texture3d",
                                       "srv", "rtv", "dsv", "uav", "vertex shader", "hull shader",
                                       "domain shader", "geometry shader", "pixel shader", "compute shader",
                                       "input layout", "class linkage", "class instance", "blend state",
                                       "depth-stencil state", "rasterizer state", "sampler state", "query",
                                       "predicate", "command list"};
  return kNames[size_t(kind)];
}

class RecordingBackend final : public Backend {
public:
  const char* name() const override { return "recording"; }

  BackendStatus createDevice(const DeviceRequest& request, DeviceObjects& out) override {
    noteCall("D3D11CreateDevice");
    if (request.featureLevelCount > DeviceRequest::kMaxFeatureLevels)
      violation("D3D11CreateDevice: " + std::to_string(request.featureLevelCount) + " feature levels");
    // The first requested level this fake supports (9_1 .. 11_1), as the runtime picks.
    D3D_FEATURE_LEVEL chosen = D3D_FEATURE_LEVEL(0);
    for (UINT i = 0; i < request.featureLevelCount && i < DeviceRequest::kMaxFeatureLevels; i++) {
      D3D_FEATURE_LEVEL level = request.featureLevels[i];
      if (level >= D3D_FEATURE_LEVEL_9_1 && level <= D3D_FEATURE_LEVEL_11_1) {
        chosen = level;
        break;
      }
    }
    if (!chosen)
      return BackendStatus::fail(BackendError::DeviceCreation, E_INVALIDARG, "recording backend: no supported feature level");
    auto* device = new FakeDevice();
    device->featureLevel = chosen;
    out.device = device;
    device->GetImmediateContext(&out.immediateContext);
    out.featureLevel = chosen;
    return {};
  }

  BackendStatus createFactory(REFIID, void** factory) override {
    *factory = nullptr;
    return BackendStatus::fail(BackendError::FactoryCreation, E_NOTIMPL, "recording backend: no DXGI factory");
  }
};

BackendStatus openRecording(std::unique_ptr<Backend>& out) {
  out = std::make_unique<RecordingBackend>();
  return {};
}

}  // namespace

Journal& journal() {
  static Journal instance;
  return instance;
}

void resetJournal() {
  Journal& j = journal();
  j.calls.clear();
  j.violations.clear();
  j.unhandledCalls = 0;
  j.reads.clear();
}

bool journalReadInside(const void* begin, uint64_t size) {
  const auto low = reinterpret_cast<uintptr_t>(begin), high = low + size;
  for (const Journal::Read& read : journal().reads) {
    const auto start = reinterpret_cast<uintptr_t>(read.data);
    if (start < high && start + read.size > low) return true;
  }
  return false;
}

int64_t liveObjects() { return g_liveObjects.load(); }

bool journalHas(const char* method) {
  for (const char* call : journal().calls)
    if (std::strcmp(call, method) == 0) return true;
  return false;
}

void registerRecordingBackend() { registerBackend("recording", openRecording); }

void violation(const std::string& what) {
  Journal& j = journal();
  if (j.violations.size() < 64) j.violations.push_back(what);
}

void noteCall(const char* method) {
  Journal& j = journal();
  if (j.calls.size() < Journal::kMaxCalls) j.calls.push_back(method);
}

void noteUnhandledCall(const void*, const char* method) {
  journal().unhandledCalls++;
  noteCall(method);
}

void touchBytes(const void* data, uint64_t size) {
  if (!size) return;
  if (!data) {
    violation("null data where " + std::to_string(size) + " bytes are read");
    return;
  }
  Journal& j = journal();
  if (j.reads.size() < Journal::kMaxReads) j.reads.push_back({data, size});
  // A driver copies the bytes into its own memory: so do we, in pieces (sanitizers check
  // memcpy's whole source range).
  static thread_local uint8_t scratch[64 * 1024];
  const auto* bytes = static_cast<const uint8_t*>(data);
  while (size) {
    size_t piece = size < sizeof(scratch) ? size_t(size) : sizeof(scratch);
    std::memcpy(scratch, bytes, piece);
    bytes += piece;
    size -= piece;
  }
}

FakeObject::FakeObject(Kind kind, FakeDevice* device, bool holdsDevice)
: m_kind(kind), m_device(device), m_holdsDevice(holdsDevice && device) {
  if (m_holdsDevice) m_device->AddRef();
  g_liveObjects++;
}

FakeObject::~FakeObject() {
  g_liveObjects--;
  if (m_holdsDevice) m_device->Release();
}

ULONG FakeObject::addRef() {
  if (m_refs <= 0) violation(std::string("AddRef on a released ") + kindName(m_kind));
  return ULONG(++m_refs);
}

ULONG FakeObject::release() {
  if (m_refs <= 0) {
    violation(std::string("Release of a released ") + kindName(m_kind));
    return 0;
  }
  int64_t left = --m_refs;
  if (left == 0) delete this;
  return ULONG(left);
}

FakeObject* expectObject(const void* object, IUnknown* unknown, std::initializer_list<Kind> kinds,
                         const FakeDevice* device, const char* method) {
  if (!object) return nullptr;
  auto* fake = dynamic_cast<FakeObject*>(unknown);
  if (!fake) {
    violation(std::string(method) + ": an object that is not the recording backend's");
    return nullptr;
  }
  bool accepted = false;
  for (Kind kind : kinds) accepted = accepted || fake->kind() == kind;
  if (!accepted) {
    violation(std::string(method) + ": a " + kindName(fake->kind()) + " where another kind is expected");
    return nullptr;
  }
  const FakeDevice* owner = fake->kind() == Kind::Device ? static_cast<const FakeDevice*>(fake) : fake->device();
  if (device && owner != device) {
    violation(std::string(method) + ": a " + kindName(fake->kind()) + " of another device");
    return nullptr;
  }
  return fake;
}

bool footprint(const ResourceShape& shape, UINT mip, uint64_t* rowBytes, uint64_t* rows) {
  if (shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    *rowBytes = shape.width;
    *rows = 1;
    return true;
  }
  const validation::FormatInfo* info = validation::lookupFormat(shape.format);
  if (!info || !info->blockBytes) return false;
  const uint64_t width = shape.mipWidth(mip), height = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D ? 1 : shape.mipHeight(mip);
  *rowBytes = (width + info->blockWidth - 1) / info->blockWidth * info->blockBytes;
  *rows = (height + info->blockHeight - 1) / info->blockHeight;
  if (info->planeCount > 1) *rows = (*rows + 1) / 2 * 2 * info->planeRowsNum / info->planeRowsDen;
  return true;
}

FakeResourceBase* resourceOf(FakeObject* object) {
  if (!object) return nullptr;
  switch (object->kind()) {
    case Kind::Buffer: return static_cast<FakeBuffer*>(object);
    case Kind::Texture1D: return static_cast<FakeTexture1D*>(object);
    case Kind::Texture2D: return static_cast<FakeTexture2D*>(object);
    case Kind::Texture3D: return static_cast<FakeTexture3D*>(object);
    default: return nullptr;
  }
}

FakeQueryState* queryStateOf(FakeObject* object) {
  if (!object) return nullptr;
  if (object->kind() == Kind::Query) return static_cast<FakeQuery*>(object);
  if (object->kind() == Kind::Predicate) return static_cast<FakePredicate*>(object);
  return nullptr;
}

UINT STDMETHODCALLTYPE FakeQuery::GetDataSize() { return queryDataSize(query); }
UINT STDMETHODCALLTYPE FakePredicate::GetDataSize() { return queryDataSize(query); }

// QueryInterface tables: the interfaces of each object's family.
#define NPT_SUPPORTS(Class, ...)                                  \
  bool Class::supports(REFIID iid) const {                        \
    for (const GUID* known : {__VA_ARGS__})                       \
      if (sameGuid(iid, *known)) return true;                             \
    return false;                                                 \
  }
NPT_SUPPORTS(FakeDevice, &IID_ID3D11Device, &IID_ID3D11Device1, &IID_ID3D11Device2, &IID_ID3D11Device3,
             &IID_ID3D11Device4, &IID_ID3D11Device5)
NPT_SUPPORTS(FakeContext, &IID_ID3D11DeviceChild, &IID_ID3D11DeviceContext, &IID_ID3D11DeviceContext1,
             &IID_ID3D11DeviceContext2, &IID_ID3D11DeviceContext3, &IID_ID3D11DeviceContext4)
NPT_SUPPORTS(FakeBuffer, &IID_ID3D11DeviceChild, &IID_ID3D11Resource, &IID_ID3D11Buffer)
NPT_SUPPORTS(FakeTexture1D, &IID_ID3D11DeviceChild, &IID_ID3D11Resource, &IID_ID3D11Texture1D)
NPT_SUPPORTS(FakeTexture2D, &IID_ID3D11DeviceChild, &IID_ID3D11Resource, &IID_ID3D11Texture2D, &IID_ID3D11Texture2D1)
NPT_SUPPORTS(FakeTexture3D, &IID_ID3D11DeviceChild, &IID_ID3D11Resource, &IID_ID3D11Texture3D, &IID_ID3D11Texture3D1)
NPT_SUPPORTS(FakeSrv, &IID_ID3D11DeviceChild, &IID_ID3D11View, &IID_ID3D11ShaderResourceView, &IID_ID3D11ShaderResourceView1)
NPT_SUPPORTS(FakeRtv, &IID_ID3D11DeviceChild, &IID_ID3D11View, &IID_ID3D11RenderTargetView, &IID_ID3D11RenderTargetView1)
NPT_SUPPORTS(FakeDsv, &IID_ID3D11DeviceChild, &IID_ID3D11View, &IID_ID3D11DepthStencilView)
NPT_SUPPORTS(FakeUav, &IID_ID3D11DeviceChild, &IID_ID3D11View, &IID_ID3D11UnorderedAccessView, &IID_ID3D11UnorderedAccessView1)
NPT_SUPPORTS(FakeVertexShader, &IID_ID3D11DeviceChild, &IID_ID3D11VertexShader)
NPT_SUPPORTS(FakeHullShader, &IID_ID3D11DeviceChild, &IID_ID3D11HullShader)
NPT_SUPPORTS(FakeDomainShader, &IID_ID3D11DeviceChild, &IID_ID3D11DomainShader)
NPT_SUPPORTS(FakeGeometryShader, &IID_ID3D11DeviceChild, &IID_ID3D11GeometryShader)
NPT_SUPPORTS(FakePixelShader, &IID_ID3D11DeviceChild, &IID_ID3D11PixelShader)
NPT_SUPPORTS(FakeComputeShader, &IID_ID3D11DeviceChild, &IID_ID3D11ComputeShader)
NPT_SUPPORTS(FakeInputLayout, &IID_ID3D11DeviceChild, &IID_ID3D11InputLayout)
NPT_SUPPORTS(FakeClassLinkage, &IID_ID3D11DeviceChild, &IID_ID3D11ClassLinkage)
NPT_SUPPORTS(FakeClassInstance, &IID_ID3D11DeviceChild, &IID_ID3D11ClassInstance)
NPT_SUPPORTS(FakeBlendState, &IID_ID3D11DeviceChild, &IID_ID3D11BlendState, &IID_ID3D11BlendState1)
NPT_SUPPORTS(FakeDepthStencilState, &IID_ID3D11DeviceChild, &IID_ID3D11DepthStencilState)
NPT_SUPPORTS(FakeRasterizerState, &IID_ID3D11DeviceChild, &IID_ID3D11RasterizerState, &IID_ID3D11RasterizerState1,
             &IID_ID3D11RasterizerState2)
NPT_SUPPORTS(FakeSamplerState, &IID_ID3D11DeviceChild, &IID_ID3D11SamplerState)
NPT_SUPPORTS(FakeQuery, &IID_ID3D11DeviceChild, &IID_ID3D11Asynchronous, &IID_ID3D11Query, &IID_ID3D11Query1)
NPT_SUPPORTS(FakePredicate, &IID_ID3D11DeviceChild, &IID_ID3D11Asynchronous, &IID_ID3D11Query, &IID_ID3D11Predicate)
NPT_SUPPORTS(FakeCommandList, &IID_ID3D11DeviceChild, &IID_ID3D11CommandList)
#undef NPT_SUPPORTS

}  // namespace npt::backends::recording
