// SPDX-License-Identifier: MIT
#include "device.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>

#include "buffer.h"
#include "context.h"
#include "context_state.h"
#include "fence.h"
#include "log.h"
#include "npt/protocol/control.h"
#include "npt/validation/queries.h"
#include "npt/validation/shaders.h"
#include "npt/validation/states.h"
#include "query.h"
#include "shaders.h"
#include "shared_resource.h"
#include "states.h"
#include "texture.h"
#include "views.h"

namespace npt::guest {

Device::Device(Runtime* runtime, protocol::ObjectId id, protocol::ObjectId contextId, D3D_FEATURE_LEVEL level,
               UINT flags, IDXGIAdapter* adapter)
: m_runtime(runtime), m_id(id), m_featureLevel(level), m_creationFlags(flags), m_adapter(adapter) {
  AddRef();
  m_context = new Context(this, contextId, D3D11_DEVICE_CONTEXT_IMMEDIATE, 0);
  m_context->addRefPrivate();
}

Device::~Device() {
  // Pending completion queries go first: their DestroyObject must precede the device's.
  m_completionNotifier.stop();
  // Bindings hold private references on children that may need this device's
  // statistics when they go: drop them while the device is intact.
  m_context->releaseBindings();
  m_context->releasePrivate();
  m_runtime->destroyObject(&m_statistics, m_id);
  m_runtime->stream().flush();
  StatisticsSnapshot s = m_statistics.snapshot();
  NPT_INFO("device %u destroyed: %llu commands, %llu bytes, %llu sync round trips, %llu bulk bytes", m_id,
           (unsigned long long)s.commands, (unsigned long long)s.bytes, (unsigned long long)s.syncRoundTrips,
           (unsigned long long)s.bulkBytes);
}

HRESULT STDMETHODCALLTYPE Device::QueryInterface(REFIID riid, void** object) {
  if (!object)
    return E_POINTER;
  *object = nullptr;
  if (IsEqualGUID(riid, __uuidof(IUnknown)) || IsEqualGUID(riid, __uuidof(ID3D11Device)) ||
      IsEqualGUID(riid, __uuidof(ID3D11Device1)) || IsEqualGUID(riid, __uuidof(ID3D11Device2)) ||
      IsEqualGUID(riid, __uuidof(ID3D11Device3)) || IsEqualGUID(riid, __uuidof(ID3D11Device4)) ||
      IsEqualGUID(riid, __uuidof(ID3D11Device5))) {
    *object = addRefed(static_cast<ID3D11Device5*>(this));
    return S_OK;
  }
  if (IsEqualGUID(riid, __uuidof(IDXGIObject)) || IsEqualGUID(riid, __uuidof(IDXGIDevice)) ||
      IsEqualGUID(riid, __uuidof(IDXGIDevice1)) || IsEqualGUID(riid, __uuidof(IDXGIDevice2)) ||
      IsEqualGUID(riid, __uuidof(IDXGIDevice3)) || IsEqualGUID(riid, __uuidof(IDXGIDevice4))) {
    *object = addRefed(static_cast<IDXGIDevice4*>(this));
    return S_OK;
  }
  if (IsEqualGUID(riid, __uuidof(ID3D10Multithread))) {
    *object = addRefed(static_cast<ID3D10Multithread*>(this));
    return S_OK;
  }
  if (IsEqualGUID(riid, kIID_INptDevice)) {
    *object = addRefed(static_cast<INptDevice*>(this));
    return S_OK;
  }
  return E_NOINTERFACE;
}

// ---- multithread protection

void Device::enterProtected() {
  if (m_protected)
    m_protectMutex.lock();
}

void Device::leaveProtected() {
  if (m_protected)
    m_protectMutex.unlock();
}

BOOL Device::setProtected(BOOL enable) {
  BOOL previous = m_protected;
  m_protected = !!enable;
  return previous;
}

// ---- resources

HRESULT STDMETHODCALLTYPE Device::CreateBuffer(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Buffer** out) {
  if (out)
    *out = nullptr;
  HRESULT hr = Buffer::validate(desc, data);
  if (FAILED(hr))
    return hr;
  hr = answerOf(validation::validateBufferDesc(*desc, data != nullptr, m_limits), "CreateBuffer");
  if (SUCCEEDED(hr))
    hr = answerOf(checkInitialData(validation::shapeOf(*desc), data), "CreateBuffer");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  ResourceInfo info = Buffer::infoOf(*desc);
  hr = record([&](Recorder& r) {
    std::vector<NPT_SUBRESOURCE_DATA> initial;
    if (!stageInitialData(r, info, data, initial))
      return false;
    return protocol::encode_ID3D11Device_CreateBuffer(r.writer(), m_id, desc, UINT(initial.size()),
                                                      initial.empty() ? nullptr : initial.data(), id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  auto* buffer = new Buffer(this, id, *desc);
  if (data && desc->Usage == D3D11_USAGE_DYNAMIC)
    buffer->state().setInitialShadow(0, static_cast<const uint8_t*>(data->pSysMem), desc->ByteWidth, desc->ByteWidth);
  *out = addRefed(buffer);
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::CreateTexture1D(const D3D11_TEXTURE1D_DESC* in, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture1D** out) {
  if (out)
    *out = nullptr;
  D3D11_TEXTURE1D_DESC desc;
  HRESULT hr = Texture1D::normalize(in, data, &desc);
  if (SUCCEEDED(hr))
    hr = answerOf(validation::validateTexture1DDesc(desc, data != nullptr, m_limits), "CreateTexture1D");
  if (SUCCEEDED(hr))
    hr = answerOf(checkInitialData(validation::shapeOf(desc), data), "CreateTexture1D");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  ResourceInfo info = Texture1D::infoOf(desc);
  hr = record([&](Recorder& r) {
    std::vector<NPT_SUBRESOURCE_DATA> initial;
    if (!stageInitialData(r, info, data, initial))
      return false;
    return protocol::encode_ID3D11Device_CreateTexture1D(r.writer(), m_id, &desc, UINT(initial.size()),
                                                         initial.empty() ? nullptr : initial.data(), id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  auto* texture = new Texture1D(this, id, desc);
  if (data && desc.Usage == D3D11_USAGE_DYNAMIC)
    for (UINT i = 0; i < info.subresourceCount(); i++)
      texture->state().setInitialShadow(i, static_cast<const uint8_t*>(data[i].pSysMem), data[i].SysMemPitch, data[i].SysMemSlicePitch);
  *out = addRefed(texture);
  return S_OK;
}

HRESULT Device::createTexture2D(const D3D11_TEXTURE2D_DESC1* in, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D1** out,
                                bool backBuffer) {
  if (out)
    *out = nullptr;
  D3D11_TEXTURE2D_DESC1 desc;
  HRESULT hr = Texture2D::normalize(in, data, &desc);
  D3D11_TEXTURE2D_DESC plainDesc;
  std::memcpy(&plainDesc, &desc, sizeof(plainDesc));   // the first version is a prefix
  if (SUCCEEDED(hr))
    hr = answerOf(validation::validateTexture2DDesc(plainDesc, data != nullptr, m_limits), "CreateTexture2D");
  if (SUCCEEDED(hr))
    hr = answerOf(checkInitialData(validation::shapeOf(plainDesc), data), "CreateTexture2D");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  ResourceInfo info = Texture2D::infoOf(desc);
  bool version1 = desc.TextureLayout != D3D11_TEXTURE_LAYOUT_UNDEFINED;
  hr = record([&](Recorder& r) {
    std::vector<NPT_SUBRESOURCE_DATA> initial;
    if (!stageInitialData(r, info, data, initial))
      return false;
    if (version1)
      return protocol::encode_ID3D11Device3_CreateTexture2D1(r.writer(), m_id, &desc, UINT(initial.size()),
                                                             initial.empty() ? nullptr : initial.data(), id);
    D3D11_TEXTURE2D_DESC plain;
    std::memcpy(&plain, &desc, sizeof(plain));   // the first version is a prefix
    return protocol::encode_ID3D11Device_CreateTexture2D(r.writer(), m_id, &plain, UINT(initial.size()),
                                                         initial.empty() ? nullptr : initial.data(), id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  auto* texture = new Texture2D(this, id, desc, backBuffer);
  if (data && desc.Usage == D3D11_USAGE_DYNAMIC)
    for (UINT i = 0; i < info.subresourceCount(); i++)
      texture->state().setInitialShadow(i, static_cast<const uint8_t*>(data[i].pSysMem), data[i].SysMemPitch, data[i].SysMemSlicePitch);
  *out = addRefed(static_cast<ID3D11Texture2D1*>(texture));
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::CreateTexture2D(const D3D11_TEXTURE2D_DESC* in, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D** out) {
  if (!in) {
    if (out)
      *out = nullptr;
    return E_INVALIDARG;
  }
  D3D11_TEXTURE2D_DESC1 desc = {};
  std::memcpy(&desc, in, sizeof(*in));
  desc.TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
  ID3D11Texture2D1* texture = nullptr;
  HRESULT hr = createTexture2D(&desc, data, out ? &texture : nullptr, false);
  if (out)
    *out = texture;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateTexture2D1(const D3D11_TEXTURE2D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D1** out) {
  return createTexture2D(desc, data, out, false);
}

HRESULT Device::createTexture3D(const D3D11_TEXTURE3D_DESC1* in, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D1** out) {
  if (out)
    *out = nullptr;
  D3D11_TEXTURE3D_DESC1 desc;
  HRESULT hr = Texture3D::normalize(in, data, &desc);
  D3D11_TEXTURE3D_DESC plainDesc;
  std::memcpy(&plainDesc, &desc, sizeof(plainDesc));
  if (SUCCEEDED(hr))
    hr = answerOf(validation::validateTexture3DDesc(plainDesc, data != nullptr, m_limits), "CreateTexture3D");
  if (SUCCEEDED(hr))
    hr = answerOf(checkInitialData(validation::shapeOf(plainDesc), data), "CreateTexture3D");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  ResourceInfo info = Texture3D::infoOf(desc);
  bool version1 = desc.TextureLayout != D3D11_TEXTURE_LAYOUT_UNDEFINED;
  hr = record([&](Recorder& r) {
    std::vector<NPT_SUBRESOURCE_DATA> initial;
    if (!stageInitialData(r, info, data, initial))
      return false;
    if (version1)
      return protocol::encode_ID3D11Device3_CreateTexture3D1(r.writer(), m_id, &desc, UINT(initial.size()),
                                                             initial.empty() ? nullptr : initial.data(), id);
    D3D11_TEXTURE3D_DESC plain;
    std::memcpy(&plain, &desc, sizeof(plain));
    return protocol::encode_ID3D11Device_CreateTexture3D(r.writer(), m_id, &plain, UINT(initial.size()),
                                                         initial.empty() ? nullptr : initial.data(), id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  auto* texture = new Texture3D(this, id, desc);
  if (data && desc.Usage == D3D11_USAGE_DYNAMIC)
    for (UINT i = 0; i < info.subresourceCount(); i++)
      texture->state().setInitialShadow(i, static_cast<const uint8_t*>(data[i].pSysMem), data[i].SysMemPitch, data[i].SysMemSlicePitch);
  *out = addRefed(static_cast<ID3D11Texture3D1*>(texture));
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::CreateTexture3D(const D3D11_TEXTURE3D_DESC* in, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D** out) {
  if (!in) {
    if (out)
      *out = nullptr;
    return E_INVALIDARG;
  }
  D3D11_TEXTURE3D_DESC1 desc = {};
  std::memcpy(&desc, in, sizeof(*in));
  desc.TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
  ID3D11Texture3D1* texture = nullptr;
  HRESULT hr = createTexture3D(&desc, data, out ? &texture : nullptr);
  if (out)
    *out = texture;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateTexture3D1(const D3D11_TEXTURE3D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D1** out) {
  return createTexture3D(desc, data, out);
}

// ---- views

namespace {

// The first-version entry point of a view whose creation lives in its …1 method.
template<typename Desc1, typename Desc, typename Interface1, typename Interface, typename Create1>
HRESULT createThroughVersion1(const Desc* in, Interface** out, Create1&& create1) {
  Desc1 desc1 = in ? convertViewDesc<Desc1>(*in) : Desc1{};
  Interface1* view = nullptr;
  HRESULT hr = create1(in ? &desc1 : nullptr, out ? &view : nullptr);
  if (out)
    *out = view;
  return hr;
}

}

// Every Create*View: the desc normalized as Windows does, a guest id, the creation recorded
// (fire-and-forget), the guest object holding the normalized desc.
template<typename View, typename Interface, typename Desc, typename Encode>
HRESULT Device::createView(const char* method, ID3D11Resource* resource, const Desc* in, Interface** out, Encode&& encode) {
  if (out)
    *out = nullptr;
  Desc desc;
  HRESULT hr = View::normalize(resource, in, &desc);
  if (FAILED(hr))
    return hr;
  validation::ResourceShape shape;
  if (!shapeOfResource(resource, &shape))
    return E_INVALIDARG;
  hr = answerOf(checkView(shape, in, m_limits), method);
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  protocol::ObjectId resId = resourceId(resource);
  hr = record([&](Recorder& r) { return encode(r, resId, id); });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  *out = addRefed(static_cast<Interface*>(new View(this, id, resource, desc)));
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::CreateShaderResourceView(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* in,
                                                           ID3D11ShaderResourceView** out) {
  return createThroughVersion1<D3D11_SHADER_RESOURCE_VIEW_DESC1, D3D11_SHADER_RESOURCE_VIEW_DESC, ID3D11ShaderResourceView1>(
      in, out, [&](const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc1, ID3D11ShaderResourceView1** view) {
        return CreateShaderResourceView1(resource, desc1, view);
      });
}

HRESULT STDMETHODCALLTYPE Device::CreateShaderResourceView1(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* in,
                                                            ID3D11ShaderResourceView1** out) {
  return createView<ShaderResourceView, ID3D11ShaderResourceView1>("CreateShaderResourceView", resource, in, out,
      [&](Recorder& r, protocol::ObjectId resId, protocol::ObjectId id) {
    // Only a nonzero plane slice needs ID3D11Device3's method (and a host that has it).
    if (in && (in->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2D || in->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2DARRAY) &&
        (in->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2D ? in->Texture2D.PlaneSlice : in->Texture2DArray.PlaneSlice))
      return protocol::encode_ID3D11Device3_CreateShaderResourceView1(r.writer(), m_id, resId, in, id);
    D3D11_SHADER_RESOURCE_VIEW_DESC plain = in ? convertViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>(*in) : D3D11_SHADER_RESOURCE_VIEW_DESC{};
    return protocol::encode_ID3D11Device_CreateShaderResourceView(r.writer(), m_id, resId, in ? &plain : nullptr, id);
  });
}

HRESULT STDMETHODCALLTYPE Device::CreateRenderTargetView(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC* in,
                                                         ID3D11RenderTargetView** out) {
  return createThroughVersion1<D3D11_RENDER_TARGET_VIEW_DESC1, D3D11_RENDER_TARGET_VIEW_DESC, ID3D11RenderTargetView1>(
      in, out, [&](const D3D11_RENDER_TARGET_VIEW_DESC1* desc1, ID3D11RenderTargetView1** view) {
        return CreateRenderTargetView1(resource, desc1, view);
      });
}

HRESULT STDMETHODCALLTYPE Device::CreateRenderTargetView1(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC1* in,
                                                          ID3D11RenderTargetView1** out) {
  return createView<RenderTargetView, ID3D11RenderTargetView1>("CreateRenderTargetView", resource, in, out,
      [&](Recorder& r, protocol::ObjectId resId, protocol::ObjectId id) {
    D3D11_RENDER_TARGET_VIEW_DESC plain = in ? convertViewDesc<D3D11_RENDER_TARGET_VIEW_DESC>(*in) : D3D11_RENDER_TARGET_VIEW_DESC{};
    return protocol::encode_ID3D11Device_CreateRenderTargetView(r.writer(), m_id, resId, in ? &plain : nullptr, id);
  });
}

HRESULT STDMETHODCALLTYPE Device::CreateDepthStencilView(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* in,
                                                         ID3D11DepthStencilView** out) {
  return createView<DepthStencilView, ID3D11DepthStencilView>("CreateDepthStencilView", resource, in, out,
      [&](Recorder& r, protocol::ObjectId resId, protocol::ObjectId id) {
    return protocol::encode_ID3D11Device_CreateDepthStencilView(r.writer(), m_id, resId, in, id);
  });
}

HRESULT STDMETHODCALLTYPE Device::CreateUnorderedAccessView(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* in,
                                                            ID3D11UnorderedAccessView** out) {
  return createThroughVersion1<D3D11_UNORDERED_ACCESS_VIEW_DESC1, D3D11_UNORDERED_ACCESS_VIEW_DESC, ID3D11UnorderedAccessView1>(
      in, out, [&](const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc1, ID3D11UnorderedAccessView1** view) {
        return CreateUnorderedAccessView1(resource, desc1, view);
      });
}

HRESULT STDMETHODCALLTYPE Device::CreateUnorderedAccessView1(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* in,
                                                             ID3D11UnorderedAccessView1** out) {
  return createView<UnorderedAccessView, ID3D11UnorderedAccessView1>("CreateUnorderedAccessView", resource, in, out,
      [&](Recorder& r, protocol::ObjectId resId, protocol::ObjectId id) {
    D3D11_UNORDERED_ACCESS_VIEW_DESC plain = in ? convertViewDesc<D3D11_UNORDERED_ACCESS_VIEW_DESC>(*in) : D3D11_UNORDERED_ACCESS_VIEW_DESC{};
    return protocol::encode_ID3D11Device_CreateUnorderedAccessView(r.writer(), m_id, resId, in ? &plain : nullptr, id);
  });
}

// ---- shaders and input layouts

namespace {

template<typename ShaderClass, typename Interface, typename Encode>
// stage: none for CreateGeometryShaderWithStreamOutput, which takes geometry, vertex or domain shaders.
HRESULT createShader(Device* device, std::optional<validation::ShaderStage> stage, const char* method, const void* bytecode,
                     SIZE_T length, ID3D11ClassLinkage* linkage, Interface** out, Encode&& encode) {
  if (out)
    *out = nullptr;
  if (!bytecode || !length || length > UINT32_MAX)
    return E_INVALIDARG;
  if (HRESULT hr = answerOf(stage ? validation::validateShaderBytecode(bytecode, size_t(length), *stage)
                                  : validation::validateStreamOutputShaderBytecode(bytecode, size_t(length)), method);
      FAILED(hr))
    return hr;
  if (HRESULT hr = answerOf(validation::validateShaderFeatureLevel(bytecode, size_t(length), device->GetFeatureLevel()),
                            method);
      FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (device->removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  Runtime* runtime = device->runtime();
  protocol::ObjectId id = runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  protocol::ObjectId linkageId = linkage ? static_cast<ClassLinkage*>(linkage)->objectId() : 0;
  HRESULT hr = device->record([&](Recorder& r) {
    return encode(r, r.payload(bytecode, size_t(length)), linkageId, id);
  });
  if (FAILED(hr)) {
    runtime->releaseUnusedId(id);
    return hr;
  }
  if (linkage)
    static_cast<ClassLinkage*>(linkage)->noteShader(bytecode, size_t(length));
  *out = addRefed(static_cast<Interface*>(new ShaderClass(device, id)));
  return S_OK;
}

}

#define NPT_CREATE_SHADER(Name, ShaderClass, Interface, Stage)                                                         \
  HRESULT STDMETHODCALLTYPE Device::Create##Name(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage,  \
                                                 Interface** out) {                                                 \
    return createShader<ShaderClass>(this, validation::ShaderStage::Stage, "Create" #Name, bytecode, length,       \
                                     linkage, out,                                                                 \
      [&](Recorder& r, const protocol::Payload& code, protocol::ObjectId linkageId, protocol::ObjectId id) {         \
        return protocol::encode_ID3D11Device_Create##Name(r.writer(), m_id, code, linkageId, id);                   \
      });                                                                                                           \
  }

NPT_CREATE_SHADER(VertexShader, VertexShader, ID3D11VertexShader, Vertex)
NPT_CREATE_SHADER(HullShader, HullShader, ID3D11HullShader, Hull)
NPT_CREATE_SHADER(DomainShader, DomainShader, ID3D11DomainShader, Domain)
NPT_CREATE_SHADER(GeometryShader, GeometryShader, ID3D11GeometryShader, Geometry)
NPT_CREATE_SHADER(PixelShader, PixelShader, ID3D11PixelShader, Pixel)
NPT_CREATE_SHADER(ComputeShader, ComputeShader, ID3D11ComputeShader, Compute)

#undef NPT_CREATE_SHADER

HRESULT STDMETHODCALLTYPE Device::CreateGeometryShaderWithStreamOutput(const void* bytecode, SIZE_T length,
    const D3D11_SO_DECLARATION_ENTRY* entries, UINT entryCount, const UINT* strides, UINT strideCount, UINT rasterizedStream,
    ID3D11ClassLinkage* linkage, ID3D11GeometryShader** out) {
  if (entryCount > D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT || (entryCount && !entries) ||
      strideCount > D3D11_SO_BUFFER_SLOT_COUNT || (strideCount && !strides) ||
      (rasterizedStream >= D3D11_SO_STREAM_COUNT && rasterizedStream != D3D11_SO_NO_RASTERIZED_STREAM)) {
    if (out)
      *out = nullptr;
    return E_INVALIDARG;
  }
  const char* method = "CreateGeometryShaderWithStreamOutput";
  if (HRESULT hr = answerOf(validation::validateStreamOutput(entries, entryCount, strides, strideCount, rasterizedStream), method);
      FAILED(hr)) {
    if (out)
      *out = nullptr;
    return hr;
  }
  return createShader<GeometryShader>(this, std::nullopt, method, bytecode, length, linkage, out,
    [&](Recorder& r, const protocol::Payload& code, protocol::ObjectId linkageId, protocol::ObjectId id) {
      return protocol::encode_ID3D11Device_CreateGeometryShaderWithStreamOutput(r.writer(), m_id, code, entries, entryCount,
                                                                                strides, strideCount, rasterizedStream, linkageId, id);
    });
}

HRESULT STDMETHODCALLTYPE Device::CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, UINT count, const void* bytecode,
                                                    SIZE_T length, ID3D11InputLayout** out) {
  if (out)
    *out = nullptr;
  // A missing array is refused even for no elements; an empty one is a valid layout (as on
  // Windows: Wine's d3d11 suite, test_create_input_layout).
  if (!elements || count > D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT || !bytecode || !length || length > UINT32_MAX)
    return E_INVALIDARG;
  for (UINT i = 0; i < count; i++)
    if (!elements[i].SemanticName || elements[i].InputSlot >= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT ||
        elements[i].InputSlotClass > D3D11_INPUT_PER_INSTANCE_DATA ||
        (elements[i].InputSlotClass == D3D11_INPUT_PER_VERTEX_DATA && elements[i].InstanceDataStepRate))
      return E_INVALIDARG;
  if (HRESULT hr = answerOf(validation::validateInputLayout(elements, count, bytecode, size_t(length)), "CreateInputLayout");
      FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  HRESULT hr = record([&](Recorder& r) {
    return protocol::encode_ID3D11Device_CreateInputLayout(r.writer(), m_id, elements, count, r.payload(bytecode, size_t(length)), id);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  *out = addRefed(static_cast<ID3D11InputLayout*>(new InputLayout(this, id)));
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::CreateClassLinkage(ID3D11ClassLinkage** out) {
  if (!out)
    return E_INVALIDARG;
  *out = nullptr;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  HRESULT hr = record([&](Recorder& r) { return protocol::encode_ID3D11Device_CreateClassLinkage(r.writer(), m_id, id); });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  *out = addRefed(static_cast<ID3D11ClassLinkage*>(new ClassLinkage(this, id)));
  return S_OK;
}

// ---- state objects (one object per distinct description, as on Windows)

template<typename Object, typename Desc, typename Encode>
HRESULT Device::createState(uint32_t kind, const Desc& desc, Object** out, Encode&& encode) {
  std::vector<uint8_t> key = stateKey(kind, desc);
  if (IUnknown* existing = m_stateCache.find(key)) {
    *out = static_cast<Object*>(existing);
    return S_OK;
  }
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  HRESULT hr = record([&](Recorder& r) { return encode(r, id); });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  auto* object = new Object(this, id, desc, &m_stateCache, key);
  object->AddRef();
  m_stateCache.insert(key, static_cast<IUnknown*>(object));
  *out = object;
  return S_OK;
}

HRESULT STDMETHODCALLTYPE Device::CreateBlendState1(const D3D11_BLEND_DESC1* in, ID3D11BlendState1** out) {
  if (out)
    *out = nullptr;
  D3D11_BLEND_DESC1 desc;
  HRESULT hr = BlendState::normalize(in, &desc);
  if (SUCCEEDED(hr))
    hr = answerOf(validation::validateBlendDesc1(desc), "CreateBlendState");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  bool logic = false;
  for (const auto& rt : desc.RenderTarget)
    logic |= rt.LogicOpEnable != FALSE;
  BlendState* state = nullptr;
  hr = createState(1, desc, &state, [&](Recorder& r, protocol::ObjectId id) {
    if (logic)
      return protocol::encode_ID3D11Device1_CreateBlendState1(r.writer(), m_id, &desc, id);
    D3D11_BLEND_DESC plain;
    plain.AlphaToCoverageEnable = desc.AlphaToCoverageEnable;
    plain.IndependentBlendEnable = desc.IndependentBlendEnable;
    for (int i = 0; i < 8; i++) {
      const auto& s = desc.RenderTarget[i];
      plain.RenderTarget[i] = { s.BlendEnable, s.SrcBlend, s.DestBlend, s.BlendOp, s.SrcBlendAlpha, s.DestBlendAlpha,
                                s.BlendOpAlpha, s.RenderTargetWriteMask };
    }
    return protocol::encode_ID3D11Device_CreateBlendState(r.writer(), m_id, &plain, id);
  });
  if (SUCCEEDED(hr))
    *out = state;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateBlendState(const D3D11_BLEND_DESC* in, ID3D11BlendState** out) {
  if (out)
    *out = nullptr;
  if (!in)
    return E_INVALIDARG;
  D3D11_BLEND_DESC1 desc = {};
  desc.AlphaToCoverageEnable = in->AlphaToCoverageEnable;
  desc.IndependentBlendEnable = in->IndependentBlendEnable;
  for (int i = 0; i < 8; i++) {
    const auto& s = in->RenderTarget[i];
    desc.RenderTarget[i] = { s.BlendEnable, FALSE, s.SrcBlend, s.DestBlend, s.BlendOp, s.SrcBlendAlpha, s.DestBlendAlpha,
                             s.BlendOpAlpha, D3D11_LOGIC_OP_NOOP, s.RenderTargetWriteMask };
  }
  ID3D11BlendState1* state = nullptr;
  HRESULT hr = CreateBlendState1(&desc, out ? &state : nullptr);
  if (out)
    *out = state;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC* desc, ID3D11DepthStencilState** out) {
  if (out)
    *out = nullptr;
  HRESULT hr = DepthStencilState::validate(desc);
  if (FAILED(hr))
    return hr;
  // The host checks the desc it receives: the disabled tests' fields at their defaults.
  const D3D11_DEPTH_STENCIL_DESC wire = DepthStencilState::normalize(*desc);
  hr = answerOf(validation::validateDepthStencilDesc(wire), "CreateDepthStencilState");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  DepthStencilState* state = nullptr;
  hr = createState(2, wire, &state, [&](Recorder& r, protocol::ObjectId id) {
    return protocol::encode_ID3D11Device_CreateDepthStencilState(r.writer(), m_id, &wire, id);
  });
  if (SUCCEEDED(hr))
    *out = state;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateRasterizerState2(const D3D11_RASTERIZER_DESC2* in, ID3D11RasterizerState2** out) {
  if (out)
    *out = nullptr;
  HRESULT hr = RasterizerState::validate(in);
  if (SUCCEEDED(hr))
    hr = answerOf(validation::validateRasterizerDesc2(*in), "CreateRasterizerState");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_RASTERIZER_DESC2 desc = *in;
  RasterizerState* state = nullptr;
  hr = createState(3, desc, &state, [&](Recorder& r, protocol::ObjectId id) {
    if (desc.ConservativeRaster != D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF)
      return protocol::encode_ID3D11Device3_CreateRasterizerState2(r.writer(), m_id, &desc, id);
    if (desc.ForcedSampleCount) {
      D3D11_RASTERIZER_DESC1 one;
      std::memcpy(&one, &desc, sizeof(one));
      return protocol::encode_ID3D11Device1_CreateRasterizerState1(r.writer(), m_id, &one, id);
    }
    D3D11_RASTERIZER_DESC plain;
    std::memcpy(&plain, &desc, sizeof(plain));
    return protocol::encode_ID3D11Device_CreateRasterizerState(r.writer(), m_id, &plain, id);
  });
  if (SUCCEEDED(hr))
    *out = state;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateRasterizerState1(const D3D11_RASTERIZER_DESC1* in, ID3D11RasterizerState1** out) {
  if (out)
    *out = nullptr;
  if (!in)
    return E_INVALIDARG;
  D3D11_RASTERIZER_DESC2 desc = {};
  std::memcpy(&desc, in, sizeof(*in));
  ID3D11RasterizerState2* state = nullptr;
  HRESULT hr = CreateRasterizerState2(&desc, out ? &state : nullptr);
  if (out)
    *out = state;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateRasterizerState(const D3D11_RASTERIZER_DESC* in, ID3D11RasterizerState** out) {
  if (out)
    *out = nullptr;
  if (!in)
    return E_INVALIDARG;
  D3D11_RASTERIZER_DESC2 desc = {};
  std::memcpy(&desc, in, sizeof(*in));
  ID3D11RasterizerState2* state = nullptr;
  HRESULT hr = CreateRasterizerState2(&desc, out ? &state : nullptr);
  if (out)
    *out = state;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateSamplerState(const D3D11_SAMPLER_DESC* desc, ID3D11SamplerState** out) {
  if (out)
    *out = nullptr;
  HRESULT hr = SamplerState::validate(desc);
  if (SUCCEEDED(hr))
    hr = answerOf(validation::validateSamplerDesc(*desc), "CreateSamplerState");
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  SamplerState* state = nullptr;
  const D3D11_SAMPLER_DESC normalized = SamplerState::normalize(*desc);
  hr = createState(4, normalized, &state, [&](Recorder& r, protocol::ObjectId id) {
    return protocol::encode_ID3D11Device_CreateSamplerState(r.writer(), m_id, &normalized, id);
  });
  if (SUCCEEDED(hr))
    *out = state;
  return hr;
}

// ---- queries, predicates, counters

HRESULT Device::createQuery(const D3D11_QUERY_DESC1* desc, bool predicate, Query** out) {
  if (!desc || !Query::dataSize(desc->Query) || (predicate && !Query::isPredicate(desc->Query)))
    return E_INVALIDARG;
  if (desc->MiscFlags & ~UINT(D3D11_QUERY_MISC_PREDICATEHINT))
    return E_INVALIDARG;
  const D3D11_QUERY_DESC plainDesc = { desc->Query, desc->MiscFlags };
  if (HRESULT hr = answerOf(validation::validateQueryDesc(plainDesc, predicate), predicate ? "CreatePredicate" : "CreateQuery");
      FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  uint32_t slot = 0;
  if (!m_runtime->allocatePushSlot(&slot)) {
    NPT_ERROR("no push slot left for a query (%u in use)", m_runtime->connection().geometry().push_slot_count);
    return E_OUTOFMEMORY;
  }
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id) {
    m_runtime->releasePushSlot(slot);
    return E_OUTOFMEMORY;
  }
  // Whatever the slot holds now belongs to an earlier query.
  uint8_t scratch[128];
  size_t size = 0;
  uint32_t version = 0;
  m_runtime->connection().read_push_slot(slot, scratch, sizeof(scratch), &size, &version);
  HRESULT hr = record([&](Recorder& r) {
    D3D11_QUERY_DESC plain = { desc->Query, desc->MiscFlags };
    // The host types the object by the method that made it, and SetPredication takes only
    // predicates: every predicate type goes as CreatePredicate, whichever method asked.
    bool encoded = Query::isPredicate(desc->Query) ? protocol::encode_ID3D11Device_CreatePredicate(r.writer(), m_id, &plain, id)
                 : desc->ContextType != D3D11_CONTEXT_TYPE_ALL ? protocol::encode_ID3D11Device3_CreateQuery1(r.writer(), m_id, desc, id)
                 : protocol::encode_ID3D11Device_CreateQuery(r.writer(), m_id, &plain, id);
    return encoded && protocol::encode_BindPushSlot(r.writer(), id, slot);
  });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    m_runtime->releasePushSlot(slot);
    return hr;
  }
  *out = new Query(this, id, *desc, slot, version);
  (*out)->AddRef();
  return S_OK;
}

Query* Device::endEventQuery() {
  const D3D11_QUERY_DESC1 desc = { D3D11_QUERY_EVENT, 0, D3D11_CONTEXT_TYPE_ALL };
  Query* query = nullptr;
  if (FAILED(createQuery(&desc, false, &query)) || !query)
    return nullptr;
  // Internal: a private reference only, so it holds no device reference.
  query->addRefPrivate();
  query->Release();
  m_context->End(static_cast<ID3D11Query*>(query));
  m_runtime->stream().flush();
  return query;
}

HRESULT STDMETHODCALLTYPE Device::CreateQuery1(const D3D11_QUERY_DESC1* desc, ID3D11Query1** out) {
  if (out)
    *out = nullptr;
  Query* query = nullptr;
  HRESULT hr = createQuery(desc, false, out ? &query : nullptr);
  if (out)
    *out = query;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateQuery(const D3D11_QUERY_DESC* desc, ID3D11Query** out) {
  if (out)
    *out = nullptr;
  if (!desc)
    return E_INVALIDARG;
  D3D11_QUERY_DESC1 desc1 = { desc->Query, desc->MiscFlags, D3D11_CONTEXT_TYPE_ALL };
  ID3D11Query1* query = nullptr;
  HRESULT hr = CreateQuery1(&desc1, out ? &query : nullptr);
  if (out)
    *out = query;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreatePredicate(const D3D11_QUERY_DESC* desc, ID3D11Predicate** out) {
  if (out)
    *out = nullptr;
  if (!desc)
    return E_INVALIDARG;
  D3D11_QUERY_DESC1 desc1 = { desc->Query, desc->MiscFlags, D3D11_CONTEXT_TYPE_ALL };
  Query* query = nullptr;
  HRESULT hr = createQuery(&desc1, true, out ? &query : nullptr);
  if (out && query)
    *out = asPredicate(query);
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateCounter(const D3D11_COUNTER_DESC* desc, ID3D11Counter** out) {
  if (out)
    *out = nullptr;
  if (!desc)
    return E_INVALIDARG;
  // The host describes no device counters (CheckCounterInfo reports none).
  return DXGI_ERROR_UNSUPPORTED;
}

void STDMETHODCALLTYPE Device::CheckCounterInfo(D3D11_COUNTER_INFO* info) {
  if (info)
    *info = D3D11_COUNTER_INFO{};
}

HRESULT STDMETHODCALLTYPE Device::CheckCounter(const D3D11_COUNTER_DESC* desc, D3D11_COUNTER_TYPE*, UINT*, LPSTR, UINT*, LPSTR,
                                               UINT*, LPSTR, UINT*) {
  return desc ? DXGI_ERROR_UNSUPPORTED : E_INVALIDARG;
}

// ---- contexts

HRESULT Device::createDeferredContext(UINT flags, REFIID riid, void** out) {
  if (!out)
    return E_INVALIDARG;
  *out = nullptr;
  if (flags)
    return E_INVALIDARG;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  protocol::ObjectId id = m_runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  HRESULT hr = record([&](Recorder& r) { return protocol::encode_ID3D11Device_CreateDeferredContext(r.writer(), m_id, flags, id); });
  if (FAILED(hr)) {
    m_runtime->releaseUnusedId(id);
    return hr;
  }
  auto* context = new Context(this, id, D3D11_DEVICE_CONTEXT_DEFERRED, flags);
  context->AddRef();
  hr = context->QueryInterface(riid, out);
  context->Release();
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::CreateDeferredContext(UINT flags, ID3D11DeviceContext** out) {
  return createDeferredContext(flags, __uuidof(ID3D11DeviceContext), reinterpret_cast<void**>(out));
}
HRESULT STDMETHODCALLTYPE Device::CreateDeferredContext1(UINT flags, ID3D11DeviceContext1** out) {
  return createDeferredContext(flags, __uuidof(ID3D11DeviceContext1), reinterpret_cast<void**>(out));
}
HRESULT STDMETHODCALLTYPE Device::CreateDeferredContext2(UINT flags, ID3D11DeviceContext2** out) {
  return createDeferredContext(flags, __uuidof(ID3D11DeviceContext2), reinterpret_cast<void**>(out));
}
HRESULT STDMETHODCALLTYPE Device::CreateDeferredContext3(UINT flags, ID3D11DeviceContext3** out) {
  return createDeferredContext(flags, __uuidof(ID3D11DeviceContext3), reinterpret_cast<void**>(out));
}

void STDMETHODCALLTYPE Device::GetImmediateContext(ID3D11DeviceContext** out) { *out = addRefed(static_cast<ID3D11DeviceContext*>(m_context)); }
void STDMETHODCALLTYPE Device::GetImmediateContext1(ID3D11DeviceContext1** out) { *out = addRefed(static_cast<ID3D11DeviceContext1*>(m_context)); }
void STDMETHODCALLTYPE Device::GetImmediateContext2(ID3D11DeviceContext2** out) { *out = addRefed(static_cast<ID3D11DeviceContext2*>(m_context)); }
void STDMETHODCALLTYPE Device::GetImmediateContext3(ID3D11DeviceContext3** out) { *out = addRefed(static_cast<ID3D11DeviceContext3*>(m_context)); }

HRESULT STDMETHODCALLTYPE Device::CreateDeviceContextState(UINT flags, const D3D_FEATURE_LEVEL* levels, UINT levelCount,
                                                           UINT sdkVersion, REFIID emulatedInterface, D3D_FEATURE_LEVEL* chosen,
                                                           ID3DDeviceContextState** out) {
  if (out)
    *out = nullptr;
  D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL(0);
  HRESULT hr = DeviceContextState::validate(flags, levels, levelCount, sdkVersion, emulatedInterface, m_featureLevel, &level);
  if (chosen)
    *chosen = level;
  if (FAILED(hr))
    return hr;
  if (!out)
    return S_FALSE;
  if (removed())
    return DXGI_ERROR_DEVICE_REMOVED;
  // Guest-side only: swapping records ordinary setters, so the host needs no object.
  *out = addRefed(static_cast<ID3DDeviceContextState*>(new DeviceContextState(this, level, emulatedInterface)));
  return S_OK;
}

// ---- local answers

namespace {

// What a feature level takes away from the backend's format support, as Windows' runtime
// does for a device of that level: gather4 and gather4_c are 10_1 instructions, and 9_x
// has neither comparison sampling in shaders nor buffer views (Wine's d3d11 tests check
// these bits at every level). A format left with nothing is not supported.
HRESULT supportAtLevel(HRESULT hr, UINT* support, D3D_FEATURE_LEVEL level) {
  if (FAILED(hr))
    return hr;
  if (level < D3D_FEATURE_LEVEL_10_1)
    *support &= ~UINT(D3D11_FORMAT_SUPPORT_SHADER_GATHER | D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON);
  if (level < D3D_FEATURE_LEVEL_10_0)
    *support &= ~UINT(D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON | D3D11_FORMAT_SUPPORT_BUFFER);
  return *support ? hr : E_FAIL;
}

}

HRESULT STDMETHODCALLTYPE Device::CheckFormatSupport(DXGI_FORMAT format, UINT* support) {
  return supportAtLevel(m_runtime->caps().checkFormatSupport(format, support), support, m_featureLevel);
}

HRESULT STDMETHODCALLTYPE Device::CheckMultisampleQualityLevels(DXGI_FORMAT format, UINT samples, UINT* levels) {
  return m_runtime->caps().checkMultisampleQualityLevels(format, samples, levels);
}

HRESULT STDMETHODCALLTYPE Device::CheckMultisampleQualityLevels1(DXGI_FORMAT format, UINT samples, UINT flags, UINT* levels) {
  if (flags & ~UINT(D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE))
    return E_INVALIDARG;
  if (flags) {
    // Tiled resources are not remoted: no multisampled tiled formats.
    if (!levels)
      return E_INVALIDARG;
    *levels = 0;
    return S_OK;
  }
  return m_runtime->caps().checkMultisampleQualityLevels(format, samples, levels);
}

HRESULT STDMETHODCALLTYPE Device::CheckFeatureSupport(D3D11_FEATURE feature, void* data, UINT size) {
  const HRESULT hr = m_runtime->caps().checkFeatureSupport(feature, data, size);
  if (feature != D3D11_FEATURE_FORMAT_SUPPORT || !data)
    return hr;
  auto* format = static_cast<D3D11_FEATURE_DATA_FORMAT_SUPPORT*>(data);
  return supportAtLevel(hr, &format->OutFormatSupport, m_featureLevel);
}

HRESULT STDMETHODCALLTYPE Device::GetPrivateData(REFGUID guid, UINT* size, void* data) { return m_privateData.get(guid, size, data); }
HRESULT STDMETHODCALLTYPE Device::SetPrivateData(REFGUID guid, UINT size, const void* data) { return m_privateData.set(guid, size, data); }
HRESULT STDMETHODCALLTYPE Device::SetPrivateDataInterface(REFGUID guid, const IUnknown* data) { return m_privateData.setInterface(guid, data); }

D3D_FEATURE_LEVEL STDMETHODCALLTYPE Device::GetFeatureLevel() { return m_featureLevel; }
UINT STDMETHODCALLTYPE Device::GetCreationFlags() { return m_creationFlags; }

HRESULT STDMETHODCALLTYPE Device::GetDeviceRemovedReason() {
  if (!removed())
    return S_OK;
  // A worker the server's watchdog removed made no progress: Windows' TDR reports such a
  // device as hung. Every other end (fatal error, crash, lost server) is a removal.
  if (m_runtime->connection().fatal_reason() == uint32_t(transport::FatalReason::WorkerHung))
    return DXGI_ERROR_DEVICE_HUNG;
  return DXGI_ERROR_DEVICE_REMOVED;
}

HRESULT STDMETHODCALLTYPE Device::SetExceptionMode(UINT flags) {
  if (flags & ~UINT(D3D11_RAISE_FLAG_DRIVER_INTERNAL_ERROR))
    return E_INVALIDARG;
  m_exceptionMode = flags;
  return S_OK;
}

UINT STDMETHODCALLTYPE Device::GetExceptionMode() { return m_exceptionMode; }

void STDMETHODCALLTYPE Device::GetResourceTiling(ID3D11Resource*, UINT* tileCount, D3D11_PACKED_MIP_DESC* mipDesc,
                                                 D3D11_TILE_SHAPE* tileShape, UINT* subresourceTilingCount, UINT,
                                                 D3D11_SUBRESOURCE_TILING*) {
  // No tiled resources in protocol v1: every resource reports no tiles.
  if (tileCount)
    *tileCount = 0;
  if (mipDesc)
    *mipDesc = D3D11_PACKED_MIP_DESC{};
  if (tileShape)
    *tileShape = D3D11_TILE_SHAPE{};
  if (subresourceTilingCount)
    *subresourceTilingCount = 0;
}

// ---- shared resources and fences: shared_resource.cpp, fence.cpp

HRESULT STDMETHODCALLTYPE Device::OpenSharedResource(HANDLE handle, REFIID iid, void** out) {
  return openSharedResource(this, handle, false, iid, out);
}

HRESULT STDMETHODCALLTYPE Device::OpenSharedResource1(HANDLE handle, REFIID iid, void** out) {
  return openSharedResource(this, handle, true, iid, out);
}

HRESULT STDMETHODCALLTYPE Device::OpenSharedResourceByName(LPCWSTR name, DWORD access, REFIID iid, void** out) {
  return openSharedResourceByName(this, name, access, iid, out);
}

HRESULT STDMETHODCALLTYPE Device::OpenSharedFence(HANDLE handle, REFIID iid, void** out) {
  return Fence::open(this, handle, iid, out);
}

HRESULT STDMETHODCALLTYPE Device::CreateFence(UINT64 initialValue, D3D11_FENCE_FLAG flags, REFIID iid, void** out) {
  return Fence::create(this, initialValue, flags, iid, out);
}

// ---- CPU access to DEFAULT textures
//
// Both need a DEFAULT texture mapped with Map(NULL), which needs CPU access flags on a
// DEFAULT resource: this device reports D3D11_OPTIONS2.MapOnDefaultTextures = FALSE
// and refuses such resources at creation, so every call is invalid and, as Windows'
// runtime does with invalid calls of void methods, is ignored.

void STDMETHODCALLTYPE Device::WriteToSubresource(ID3D11Resource*, UINT, const D3D11_BOX*, const void*, UINT, UINT) {
  NPT_WARN("ID3D11Device3::WriteToSubresource ignored: no texture is CPU-mapped (MapOnDefaultTextures is FALSE)");
}

void STDMETHODCALLTYPE Device::ReadFromSubresource(void*, UINT, UINT, ID3D11Resource*, UINT, const D3D11_BOX*) {
  NPT_WARN("ID3D11Device3::ReadFromSubresource ignored: no texture is CPU-mapped (MapOnDefaultTextures is FALSE)");
}

// ---- removal notification (removal_notifier.h)

HRESULT STDMETHODCALLTYPE Device::RegisterDeviceRemovedEvent(HANDLE event, DWORD* cookie) {
  return m_removalNotifier.add(event, cookie);
}

void STDMETHODCALLTYPE Device::UnregisterDeviceRemoved(DWORD cookie) { m_removalNotifier.remove(cookie); }

// ---- INptDevice

HRESULT STDMETHODCALLTYPE Device::CreateBackBuffer(const D3D11_TEXTURE2D_DESC* in, ID3D11Texture2D** out) {
  if (!in || !out)
    return E_INVALIDARG;
  D3D11_TEXTURE2D_DESC1 desc = {};
  std::memcpy(&desc, in, sizeof(*in));
  ID3D11Texture2D1* texture = nullptr;
  HRESULT hr = createTexture2D(&desc, nullptr, &texture, true);
  *out = texture;
  return hr;
}

HRESULT STDMETHODCALLTYPE Device::PresentBuffer(ID3D11Texture2D* texture, UINT syncInterval, UINT flags) {
  if (!texture)
    return E_INVALIDARG;
  protocol::ObjectId id = static_cast<Texture2D*>(texture)->objectId();
  HRESULT hr = record([&](Recorder& r) { return protocol::encode_PresentBuffer(r.writer(), id, syncInterval, flags); });
  if (FAILED(hr))
    return hr;
  return m_runtime->stream().flush();
}

void STDMETHODCALLTYPE Device::GetStatistics(StatisticsSnapshot* statistics) {
  if (statistics)
    *statistics = m_statistics.snapshot();
}

}
