// SPDX-License-Identifier: MIT
// The recording backend's device: caps answers, object creation, and the creation-time
// invariants (descs inside D3D11's limits, initial data readable, views inside their
// resource).
#include <string>

#include "fake_objects.h"
#include "npt/validation/format_table.h"
#include "npt/validation/queries.h"

namespace npt::backends::recording {

namespace {

template<typename Object, typename Interface>
HRESULT handOut(Object* object, Interface** out) {
  if (!out) {
    object->Release();   // a validation-only call (null out): nothing is kept
    return S_FALSE;
  }
  *out = object;
  return S_OK;
}

UINT fullMipChain(UINT width, UINT height, UINT depth) {
  UINT largest = width > height ? width : height;
  largest = largest > depth ? largest : depth;
  UINT mips = 1;
  while (largest > 1) {
    largest >>= 1;
    mips++;
  }
  return mips;
}

// Checks the shape against D3D11's hard limits and reads every initial-data byte its
// footprint implies. False (violation recorded) when a driver would misbehave.
bool admitResource(ResourceShape& shape, const D3D11_SUBRESOURCE_DATA* data, const char* method) {
  const bool buffer = shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER;
  UINT maxExtent = D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION;
  if (shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D) maxExtent = D3D11_REQ_TEXTURE1D_U_DIMENSION;
  if (shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D) maxExtent = D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION;
  if (buffer) {
    if (shape.width == 0) return violation(std::string(method) + ": zero ByteWidth"), false;
  } else {
    if (shape.width == 0 || shape.height == 0 || shape.depth == 0 || shape.width > maxExtent ||
        shape.height > maxExtent || shape.depth > maxExtent)
      return violation(std::string(method) + ": extent " + std::to_string(shape.width) + "x" +
                       std::to_string(shape.height) + "x" + std::to_string(shape.depth) + " outside D3D11's limits"),
             false;
    if (shape.arraySize == 0 || shape.arraySize > D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION)
      return violation(std::string(method) + ": array size " + std::to_string(shape.arraySize)), false;
    const UINT full = fullMipChain(shape.width, shape.height, shape.depth);
    if (shape.mips == 0) shape.mips = full;
    if (shape.mips > full) return violation(std::string(method) + ": " + std::to_string(shape.mips) + " mips"), false;
    if (!validation::lookupFormat(shape.format))
      return violation(std::string(method) + ": format " + std::to_string(unsigned(shape.format))), false;
    if (shape.samples == 0 || shape.samples > 32)
      return violation(std::string(method) + ": sample count " + std::to_string(shape.samples)), false;
  }
  if (!data) return true;
  if (shape.samples > 1) return violation(std::string(method) + ": initial data for a multisampled texture"), false;
  for (UINT sub = 0; sub < shape.subresources(); sub++) {
    const UINT mip = sub % shape.mips;
    uint64_t rowBytes = 0, rows = 0;
    if (!footprint(shape, mip, &rowBytes, &rows))
      return violation(std::string(method) + ": initial data for a format without a memory layout"), false;
    const D3D11_SUBRESOURCE_DATA& d = data[sub];
    if (!d.pSysMem) return violation(std::string(method) + ": null pSysMem of subresource " + std::to_string(sub)), false;
    const uint64_t slices = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? shape.mipDepth(mip) : 1;
    // Pitches below the row size make rows overlap: Windows accepts that; what a driver
    // reads is every row at its pitch, below.
    const auto* base = static_cast<const uint8_t*>(d.pSysMem);
    for (uint64_t z = 0; z < slices; z++)
      for (uint64_t y = 0; y < rows; y++) touchBytes(base + z * d.SysMemSlicePitch + y * d.SysMemPitch, rowBytes);
  }
  return true;
}

void readShader(const void* bytecode, SIZE_T length, const char* method) {
  if (!bytecode || length == 0) return violation(std::string(method) + ": no bytecode");
  touchBytes(bytecode, length);
}

// The part of a resource a view covers, in the resource's terms.
struct ViewRange {
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  bool multisampled = false;
  uint64_t firstMip = 0, mips = 1;        // mips = ~0: to the last
  uint64_t firstSlice = 0, slices = 1;    // array slices, or W slices of a 3D RTV/UAV
  bool depthSlices = false;               // slices are W slices at firstMip
  uint64_t firstElement = 0, elements = 0;
};

void checkViewRange(const char* method, FakeResourceBase& resource, DXGI_FORMAT format, const ViewRange& range) {
  const ResourceShape& shape = resource.shape;
  const std::string prefix = std::string(method) + ": ";
  if (range.dimension != shape.dimension)
    return violation(prefix + "view dimension does not match the resource");
  if (shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    const validation::FormatInfo* info = validation::lookupFormat(format);
    // Structured buffers count in strides (their views have no format); others in the
    // view format's element size (raw views: 4-byte R32_TYPELESS).
    const bool structured = (shape.misc & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) && shape.stride;
    uint64_t elementBytes = structured ? shape.stride : (info && info->blockBytes ? info->blockBytes : 4);
    if (range.firstElement + range.elements > shape.width / elementBytes + (shape.width % elementBytes ? 1 : 0) ||
        range.elements == 0)
      violation(prefix + "elements " + std::to_string(range.firstElement) + "+" + std::to_string(range.elements) +
                " outside a buffer of " + std::to_string(shape.width) + " bytes");
    return;
  }
  if (range.multisampled != (shape.samples > 1)) return violation(prefix + "multisample view of a resource that is not, or the reverse");
  const uint64_t mips = range.mips == ~uint64_t(0) ? shape.mips - (range.firstMip < shape.mips ? range.firstMip : 0) : range.mips;
  if (range.firstMip >= shape.mips || mips == 0 || range.firstMip + mips > shape.mips)
    return violation(prefix + "mips " + std::to_string(range.firstMip) + "+" + std::to_string(mips) + " of " +
                     std::to_string(shape.mips));
  const uint64_t limit = range.depthSlices ? shape.mipDepth(UINT(range.firstMip)) : shape.arraySize;
  const uint64_t slices = range.slices == ~uint64_t(0) ? limit - (range.firstSlice < limit ? range.firstSlice : 0) : range.slices;
  if (range.firstSlice >= limit || slices == 0 || range.firstSlice + slices > limit)
    violation(prefix + "slices " + std::to_string(range.firstSlice) + "+" + std::to_string(slices) + " of " +
              std::to_string(limit));
}

uint64_t wide(UINT value) { return value == UINT(-1) ? ~uint64_t(0) : value; }

ViewRange srvRange(D3D11_SRV_DIMENSION dimension, const void* unionBytes, bool desc1) {
  // The …1 descs add a PlaneSlice after the mip fields of 2D views; read the union by field.
  const auto* u = static_cast<const UINT*>(unionBytes);
  ViewRange r;
  switch (dimension) {
    case D3D11_SRV_DIMENSION_BUFFER:
      r.dimension = D3D11_RESOURCE_DIMENSION_BUFFER; r.firstElement = u[0]; r.elements = u[1]; break;
    case D3D11_SRV_DIMENSION_BUFFEREX:
      r.dimension = D3D11_RESOURCE_DIMENSION_BUFFER; r.firstElement = u[0]; r.elements = u[1]; break;
    case D3D11_SRV_DIMENSION_TEXTURE1D:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; r.firstMip = u[0]; r.mips = wide(u[1]); break;
    case D3D11_SRV_DIMENSION_TEXTURE1DARRAY:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; r.firstMip = u[0]; r.mips = wide(u[1]);
      r.firstSlice = u[2]; r.slices = wide(u[3]); break;
    case D3D11_SRV_DIMENSION_TEXTURE2D:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; r.mips = wide(u[1]); break;
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; r.mips = wide(u[1]);
      r.firstSlice = u[2]; r.slices = wide(u[3]); break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMS:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.multisampled = true; break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.multisampled = true; r.firstSlice = u[0]; r.slices = wide(u[1]); break;
    case D3D11_SRV_DIMENSION_TEXTURE3D:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D; r.firstMip = u[0]; r.mips = wide(u[1]); break;
    case D3D11_SRV_DIMENSION_TEXTURECUBE:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; r.mips = wide(u[1]); r.slices = 6; break;
    case D3D11_SRV_DIMENSION_TEXTURECUBEARRAY:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; r.mips = wide(u[1]);
      r.firstSlice = u[2]; r.slices = uint64_t(u[3]) * 6; break;
    default:
      break;
  }
  (void)desc1;
  return r;
}

template<typename Desc>
ViewRange rtvLikeRange(const Desc& d, bool uav) {
  // RTV and UAV unions share their layout for the dimensions they have in common:
  // Buffer {First, Num}, 1D {Mip}, 1DArray {Mip, First, Size}, 2D {Mip}, 2DArray {Mip, First, Size},
  // 3D {Mip, FirstW, WSize}; RTVs add 2DMS {} and 2DMSArray {First, Size}.
  const auto* u = reinterpret_cast<const UINT*>(&d.Buffer);
  ViewRange r;
  const UINT dim = UINT(d.ViewDimension);
  // Numeric values shared by D3D11_RTV_DIMENSION and D3D11_UAV_DIMENSION.
  switch (dim) {
    case 1: r.dimension = D3D11_RESOURCE_DIMENSION_BUFFER; r.firstElement = u[0]; r.elements = u[1]; break;
    case 2: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; r.firstMip = u[0]; break;
    case 3: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; r.firstMip = u[0]; r.firstSlice = u[1]; r.slices = wide(u[2]); break;
    case 4: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; break;
    case 5: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; r.firstSlice = u[1]; r.slices = wide(u[2]); break;
    case 6:
      if (uav) break;
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.multisampled = true; break;
    case 7:
      if (uav) break;
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.multisampled = true; r.firstSlice = u[0]; r.slices = wide(u[1]); break;
    case 8:
      r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D; r.firstMip = u[0]; r.firstSlice = u[1]; r.slices = wide(u[2]);
      r.depthSlices = true; break;
    default: break;
  }
  if (uav && dim == 8) r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
  return r;
}

// The resource behind a view-creation call, or null (violation recorded).
FakeResourceBase* viewResource(ID3D11Resource* resource, FakeDevice* device, const char* method) {
  if (!resource) return violation(std::string(method) + ": null resource"), nullptr;
  FakeObject* object = expectObject(resource, resource, {Kind::Buffer, Kind::Texture1D, Kind::Texture2D, Kind::Texture3D},
                                    device, method);
  return resourceOf(object);
}

template<typename View, typename Interface>
HRESULT makeView(FakeDevice* device, ID3D11Resource* resource, Interface** out) {
  auto* view = new View(device);
  view->resource = resource;
  resource->AddRef();
  return handOut(view, out);
}

}  // namespace

FakeDevice::FakeDevice() : FakeCom(Kind::Device, nullptr) { immediate = new FakeContext(this, false); }

FakeDevice::~FakeDevice() { delete immediate; }

HRESULT FakeDevice::CheckFormatSupport(DXGI_FORMAT format, UINT* support) {
  noteCall("CheckFormatSupport");
  const validation::FormatInfo* info = validation::lookupFormat(format);
  if (!support) return E_INVALIDARG;
  // Everything the format could be used for: validation, not the fake, decides.
  *support = info && !info->is(validation::FormatD3D12Only) ? ~UINT(0) : 0;
  return *support ? S_OK : E_FAIL;
}

HRESULT FakeDevice::CheckMultisampleQualityLevels(DXGI_FORMAT format, UINT samples, UINT* levels) {
  noteCall("CheckMultisampleQualityLevels");
  if (!levels) return E_INVALIDARG;
  const validation::FormatInfo* info = validation::lookupFormat(format);
  *levels = 0;
  if (info && !info->is(validation::FormatCompressed) && !info->is(validation::FormatVideo))
    *levels = samples == 1 ? 1 : (samples == 2 || samples == 4 || samples == 8) ? 4 : 0;
  return S_OK;
}

HRESULT FakeDevice::CheckFeatureSupport(D3D11_FEATURE feature, void* data, UINT size) {
  noteCall("CheckFeatureSupport");
  if (!data) return E_INVALIDARG;
  if (feature == D3D11_FEATURE_FORMAT_SUPPORT || feature == D3D11_FEATURE_FORMAT_SUPPORT2) {
    if (size != 8) return E_INVALIDARG;
    static_cast<UINT*>(data)[1] = ~UINT(0);
    return S_OK;
  }
  // Every other structure: nothing optional supported, except what D3D11 itself requires.
  std::memset(data, 0, size);
  if (feature == D3D11_FEATURE_THREADING && size >= 8) {
    static_cast<BOOL*>(data)[0] = TRUE;
    static_cast<BOOL*>(data)[1] = TRUE;
  }
  if (feature == D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS && size >= 4) static_cast<BOOL*>(data)[0] = TRUE;
  return S_OK;
}

void FakeDevice::GetImmediateContext(ID3D11DeviceContext** context) {
  noteCall("GetImmediateContext");
  immediate->AddRef();
  *context = immediate;
}

HRESULT FakeDevice::CreateBuffer(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Buffer** out) {
  noteCall("CreateBuffer");
  if (!desc) return violation("CreateBuffer: null desc"), E_INVALIDARG;
  auto* buffer = new FakeBuffer(this);
  ResourceShape& s = buffer->shape;
  s.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
  s.width = desc->ByteWidth;
  s.usage = desc->Usage;
  s.bind = desc->BindFlags;
  s.cpuAccess = desc->CPUAccessFlags;
  s.misc = desc->MiscFlags;
  s.stride = desc->StructureByteStride;
  if (!admitResource(s, data, "CreateBuffer")) return buffer->Release(), E_INVALIDARG;
  buffer->mapped.resize(1);
  return handOut(buffer, out);
}

void FakeBuffer::GetDesc(D3D11_BUFFER_DESC* desc) {
  desc->ByteWidth = shape.width;
  desc->Usage = shape.usage;
  desc->BindFlags = shape.bind;
  desc->CPUAccessFlags = shape.cpuAccess;
  desc->MiscFlags = shape.misc;
  desc->StructureByteStride = shape.stride;
}

template<typename Texture, typename Desc, typename Interface>
HRESULT createTexture(FakeDevice* device, D3D11_RESOURCE_DIMENSION dimension, const Desc& d, UINT height, UINT depth,
                      UINT arraySize, UINT samples, const D3D11_SUBRESOURCE_DATA* data, Interface** out,
                      const char* method) {
  auto* texture = new Texture(device);
  ResourceShape& s = texture->shape;
  s.dimension = dimension;
  s.width = d.Width;
  s.height = height;
  s.depth = depth;
  s.mips = d.MipLevels;
  s.arraySize = arraySize;
  s.samples = samples;
  s.format = d.Format;
  s.usage = d.Usage;
  s.bind = d.BindFlags;
  s.cpuAccess = d.CPUAccessFlags;
  s.misc = d.MiscFlags;
  if (!admitResource(s, data, method)) return texture->Release(), E_INVALIDARG;
  texture->mapped.resize(s.subresources());
  return handOut(texture, out);
}

HRESULT FakeDevice::CreateTexture1D(const D3D11_TEXTURE1D_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture1D** out) {
  noteCall("CreateTexture1D");
  if (!desc) return violation("CreateTexture1D: null desc"), E_INVALIDARG;
  return createTexture<FakeTexture1D>(this, D3D11_RESOURCE_DIMENSION_TEXTURE1D, *desc, 1, 1, desc->ArraySize, 1, data,
                                      out, "CreateTexture1D");
}

HRESULT FakeDevice::CreateTexture2D(const D3D11_TEXTURE2D_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D** out) {
  noteCall("CreateTexture2D");
  if (!desc) return violation("CreateTexture2D: null desc"), E_INVALIDARG;
  ID3D11Texture2D1* texture = nullptr;
  HRESULT hr = createTexture<FakeTexture2D>(this, D3D11_RESOURCE_DIMENSION_TEXTURE2D, *desc, desc->Height, 1,
                                            desc->ArraySize, desc->SampleDesc.Count, data, out ? &texture : nullptr,
                                            "CreateTexture2D");
  if (out) *out = texture;
  return hr;
}

HRESULT FakeDevice::CreateTexture2D1(const D3D11_TEXTURE2D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture2D1** out) {
  noteCall("CreateTexture2D1");
  if (!desc) return violation("CreateTexture2D1: null desc"), E_INVALIDARG;
  return createTexture<FakeTexture2D>(this, D3D11_RESOURCE_DIMENSION_TEXTURE2D, *desc, desc->Height, 1,
                                      desc->ArraySize, desc->SampleDesc.Count, data, out, "CreateTexture2D1");
}

HRESULT FakeDevice::CreateTexture3D(const D3D11_TEXTURE3D_DESC* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D** out) {
  noteCall("CreateTexture3D");
  if (!desc) return violation("CreateTexture3D: null desc"), E_INVALIDARG;
  ID3D11Texture3D1* texture = nullptr;
  HRESULT hr = createTexture<FakeTexture3D>(this, D3D11_RESOURCE_DIMENSION_TEXTURE3D, *desc, desc->Height, desc->Depth,
                                            1, 1, data, out ? &texture : nullptr, "CreateTexture3D");
  if (out) *out = texture;
  return hr;
}

HRESULT FakeDevice::CreateTexture3D1(const D3D11_TEXTURE3D_DESC1* desc, const D3D11_SUBRESOURCE_DATA* data, ID3D11Texture3D1** out) {
  noteCall("CreateTexture3D1");
  if (!desc) return violation("CreateTexture3D1: null desc"), E_INVALIDARG;
  return createTexture<FakeTexture3D>(this, D3D11_RESOURCE_DIMENSION_TEXTURE3D, *desc, desc->Height, desc->Depth, 1, 1,
                                      data, out, "CreateTexture3D1");
}

HRESULT FakeDevice::CreateShaderResourceView(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* desc,
                                             ID3D11ShaderResourceView** out) {
  noteCall("CreateShaderResourceView");
  FakeResourceBase* target = viewResource(resource, this, "CreateShaderResourceView");
  if (!target) return E_INVALIDARG;
  if (desc) checkViewRange("CreateShaderResourceView", *target, desc->Format, srvRange(desc->ViewDimension, &desc->Buffer, false));
  ID3D11ShaderResourceView1* view = nullptr;
  HRESULT hr = makeView<FakeSrv>(this, resource, out ? &view : nullptr);
  if (out) *out = view;
  return hr;
}

HRESULT FakeDevice::CreateShaderResourceView1(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc,
                                              ID3D11ShaderResourceView1** out) {
  noteCall("CreateShaderResourceView1");
  FakeResourceBase* target = viewResource(resource, this, "CreateShaderResourceView1");
  if (!target) return E_INVALIDARG;
  if (desc) {
    // Same fields as the 11.0 desc except the PlaneSlice that follows the mips of 2D views.
    ViewRange range = srvRange(desc->ViewDimension, &desc->Buffer, true);
    if (desc->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2DARRAY) {
      range.firstSlice = desc->Texture2DArray.FirstArraySlice;
      range.slices = wide(desc->Texture2DArray.ArraySize);
    }
    checkViewRange("CreateShaderResourceView1", *target, desc->Format, range);
  }
  return makeView<FakeSrv>(this, resource, out);
}

HRESULT FakeDevice::CreateRenderTargetView(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC* desc,
                                           ID3D11RenderTargetView** out) {
  noteCall("CreateRenderTargetView");
  FakeResourceBase* target = viewResource(resource, this, "CreateRenderTargetView");
  if (!target) return E_INVALIDARG;
  if (desc) checkViewRange("CreateRenderTargetView", *target, desc->Format, rtvLikeRange(*desc, false));
  ID3D11RenderTargetView1* view = nullptr;
  HRESULT hr = makeView<FakeRtv>(this, resource, out ? &view : nullptr);
  if (out) *out = view;
  return hr;
}

HRESULT FakeDevice::CreateRenderTargetView1(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC1* desc,
                                            ID3D11RenderTargetView1** out) {
  noteCall("CreateRenderTargetView1");
  FakeResourceBase* target = viewResource(resource, this, "CreateRenderTargetView1");
  if (!target) return E_INVALIDARG;
  if (desc) {
    ViewRange range = rtvLikeRange(*desc, false);
    if (desc->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2DARRAY) {
      range.firstSlice = desc->Texture2DArray.FirstArraySlice;
      range.slices = wide(desc->Texture2DArray.ArraySize);
    }
    checkViewRange("CreateRenderTargetView1", *target, desc->Format, range);
  }
  return makeView<FakeRtv>(this, resource, out);
}

HRESULT FakeDevice::CreateDepthStencilView(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                                           ID3D11DepthStencilView** out) {
  noteCall("CreateDepthStencilView");
  FakeResourceBase* target = viewResource(resource, this, "CreateDepthStencilView");
  if (!target) return E_INVALIDARG;
  if (desc) {
    ViewRange r;
    const UINT* u = reinterpret_cast<const UINT*>(&desc->Texture1D);
    switch (desc->ViewDimension) {
      case D3D11_DSV_DIMENSION_TEXTURE1D: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; r.firstMip = u[0]; break;
      case D3D11_DSV_DIMENSION_TEXTURE1DARRAY:
        r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D; r.firstMip = u[0]; r.firstSlice = u[1]; r.slices = wide(u[2]); break;
      case D3D11_DSV_DIMENSION_TEXTURE2D: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; break;
      case D3D11_DSV_DIMENSION_TEXTURE2DARRAY:
        r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.firstMip = u[0]; r.firstSlice = u[1]; r.slices = wide(u[2]); break;
      case D3D11_DSV_DIMENSION_TEXTURE2DMS: r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.multisampled = true; break;
      case D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY:
        r.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D; r.multisampled = true; r.firstSlice = u[0]; r.slices = wide(u[1]); break;
      default: break;
    }
    checkViewRange("CreateDepthStencilView", *target, desc->Format, r);
  }
  return makeView<FakeDsv>(this, resource, out);
}

HRESULT FakeDevice::CreateUnorderedAccessView(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc,
                                              ID3D11UnorderedAccessView** out) {
  noteCall("CreateUnorderedAccessView");
  FakeResourceBase* target = viewResource(resource, this, "CreateUnorderedAccessView");
  if (!target) return E_INVALIDARG;
  if (desc) checkViewRange("CreateUnorderedAccessView", *target, desc->Format, rtvLikeRange(*desc, true));
  ID3D11UnorderedAccessView1* view = nullptr;
  HRESULT hr = makeView<FakeUav>(this, resource, out ? &view : nullptr);
  if (out) *out = view;
  return hr;
}

HRESULT FakeDevice::CreateUnorderedAccessView1(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc,
                                               ID3D11UnorderedAccessView1** out) {
  noteCall("CreateUnorderedAccessView1");
  FakeResourceBase* target = viewResource(resource, this, "CreateUnorderedAccessView1");
  if (!target) return E_INVALIDARG;
  if (desc) {
    ViewRange range = rtvLikeRange(*desc, true);
    if (desc->ViewDimension == D3D11_UAV_DIMENSION_TEXTURE2DARRAY) {
      range.firstSlice = desc->Texture2DArray.FirstArraySlice;
      range.slices = wide(desc->Texture2DArray.ArraySize);
    }
    checkViewRange("CreateUnorderedAccessView1", *target, desc->Format, range);
  }
  return makeView<FakeUav>(this, resource, out);
}

HRESULT FakeDevice::CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, UINT count, const void* bytecode,
                                      SIZE_T length, ID3D11InputLayout** out) {
  noteCall("CreateInputLayout");
  if (count > D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT) violation("CreateInputLayout: " + std::to_string(count) + " elements");
  for (UINT i = 0; i < count && elements; i++) {
    if (!elements[i].SemanticName) {
      violation("CreateInputLayout: null semantic name");
      continue;
    }
    touchBytes(elements[i].SemanticName, std::strlen(elements[i].SemanticName) + 1);
    if (elements[i].InputSlot >= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
      violation("CreateInputLayout: input slot " + std::to_string(elements[i].InputSlot));
  }
  readShader(bytecode, length, "CreateInputLayout");
  return handOut(new FakeInputLayout(this), out);
}

#define NPT_FAKE_SHADER(Method, Class, Interface)                                                      \
  HRESULT FakeDevice::Method(const void* bytecode, SIZE_T length, ID3D11ClassLinkage* linkage,        \
                             Interface** out) {                                                       \
    noteCall(#Method);                                                                                \
    readShader(bytecode, length, #Method);                                                            \
    expectObject(linkage, linkage, {Kind::ClassLinkage}, this, #Method);                              \
    return handOut(new Class(this), out);                                                             \
  }
NPT_FAKE_SHADER(CreateVertexShader, FakeVertexShader, ID3D11VertexShader)
NPT_FAKE_SHADER(CreateHullShader, FakeHullShader, ID3D11HullShader)
NPT_FAKE_SHADER(CreateDomainShader, FakeDomainShader, ID3D11DomainShader)
NPT_FAKE_SHADER(CreateGeometryShader, FakeGeometryShader, ID3D11GeometryShader)
NPT_FAKE_SHADER(CreatePixelShader, FakePixelShader, ID3D11PixelShader)
NPT_FAKE_SHADER(CreateComputeShader, FakeComputeShader, ID3D11ComputeShader)
#undef NPT_FAKE_SHADER

HRESULT FakeDevice::CreateGeometryShaderWithStreamOutput(const void* bytecode, SIZE_T length,
                                                         const D3D11_SO_DECLARATION_ENTRY* entries, UINT numEntries,
                                                         const UINT* strides, UINT numStrides, UINT rasterizedStream,
                                                         ID3D11ClassLinkage* linkage, ID3D11GeometryShader** out) {
  noteCall("CreateGeometryShaderWithStreamOutput");
  readShader(bytecode, length, "CreateGeometryShaderWithStreamOutput");
  if (numEntries > D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT)
    violation("CreateGeometryShaderWithStreamOutput: " + std::to_string(numEntries) + " entries");
  if (numStrides > D3D11_SO_BUFFER_SLOT_COUNT)
    violation("CreateGeometryShaderWithStreamOutput: " + std::to_string(numStrides) + " strides");
  if (rasterizedStream >= D3D11_SO_STREAM_COUNT && rasterizedStream != D3D11_SO_NO_RASTERIZED_STREAM)
    violation("CreateGeometryShaderWithStreamOutput: rasterized stream " + std::to_string(rasterizedStream));
  for (UINT i = 0; i < numEntries && entries; i++) {
    if (entries[i].SemanticName) touchBytes(entries[i].SemanticName, std::strlen(entries[i].SemanticName) + 1);
    if (entries[i].OutputSlot >= D3D11_SO_BUFFER_SLOT_COUNT)
      violation("CreateGeometryShaderWithStreamOutput: output slot " + std::to_string(entries[i].OutputSlot));
  }
  touchBytes(strides, uint64_t(numStrides) * sizeof(UINT));
  expectObject(linkage, linkage, {Kind::ClassLinkage}, this, "CreateGeometryShaderWithStreamOutput");
  return handOut(new FakeGeometryShader(this), out);
}

HRESULT FakeDevice::CreateClassLinkage(ID3D11ClassLinkage** out) {
  noteCall("CreateClassLinkage");
  return handOut(new FakeClassLinkage(this), out);
}

HRESULT FakeClassLinkage::CreateClassInstance(LPCSTR type, UINT, UINT, UINT, UINT, ID3D11ClassInstance** instance) {
  noteCall("CreateClassInstance");
  if (!type) return violation("CreateClassInstance: null type name"), E_INVALIDARG;
  touchBytes(type, std::strlen(type) + 1);
  return handOut(new FakeClassInstance(device()), instance);
}

#define NPT_FAKE_STATE(Method, Desc, Class, Interface)                     \
  HRESULT FakeDevice::Method(const Desc* desc, Interface** out) {          \
    noteCall(#Method);                                                     \
    if (!desc) return violation(#Method ": null desc"), E_INVALIDARG;      \
    touchBytes(desc, sizeof(*desc));                                       \
    return handOut(new Class(this), out);                                  \
  }
NPT_FAKE_STATE(CreateBlendState, D3D11_BLEND_DESC, FakeBlendState, ID3D11BlendState)
NPT_FAKE_STATE(CreateBlendState1, D3D11_BLEND_DESC1, FakeBlendState, ID3D11BlendState1)
NPT_FAKE_STATE(CreateDepthStencilState, D3D11_DEPTH_STENCIL_DESC, FakeDepthStencilState, ID3D11DepthStencilState)
NPT_FAKE_STATE(CreateRasterizerState, D3D11_RASTERIZER_DESC, FakeRasterizerState, ID3D11RasterizerState)
NPT_FAKE_STATE(CreateRasterizerState1, D3D11_RASTERIZER_DESC1, FakeRasterizerState, ID3D11RasterizerState1)
NPT_FAKE_STATE(CreateRasterizerState2, D3D11_RASTERIZER_DESC2, FakeRasterizerState, ID3D11RasterizerState2)
NPT_FAKE_STATE(CreateSamplerState, D3D11_SAMPLER_DESC, FakeSamplerState, ID3D11SamplerState)
#undef NPT_FAKE_STATE

HRESULT FakeDevice::CreateQuery(const D3D11_QUERY_DESC* desc, ID3D11Query** out) {
  noteCall("CreateQuery");
  if (!desc) return violation("CreateQuery: null desc"), E_INVALIDARG;
  if (!queryDataSize(desc->Query)) return violation("CreateQuery: query type " + std::to_string(unsigned(desc->Query))), E_INVALIDARG;
  ID3D11Query1* query = nullptr;
  HRESULT hr = handOut(new FakeQuery(this, desc->Query), out ? &query : nullptr);
  if (out) *out = query;
  return hr;
}

HRESULT FakeDevice::CreateQuery1(const D3D11_QUERY_DESC1* desc, ID3D11Query1** out) {
  noteCall("CreateQuery1");
  if (!desc) return violation("CreateQuery1: null desc"), E_INVALIDARG;
  if (!queryDataSize(desc->Query)) return violation("CreateQuery1: query type " + std::to_string(unsigned(desc->Query))), E_INVALIDARG;
  return handOut(new FakeQuery(this, desc->Query), out);
}

HRESULT FakeDevice::CreatePredicate(const D3D11_QUERY_DESC* desc, ID3D11Predicate** out) {
  noteCall("CreatePredicate");
  if (!desc) return violation("CreatePredicate: null desc"), E_INVALIDARG;
  if (!validation::isPredicateQuery(desc->Query))
    return violation("CreatePredicate: query type " + std::to_string(unsigned(desc->Query)) + " is not a predicate"), E_INVALIDARG;
  return handOut(new FakePredicate(this, desc->Query), out);
}

HRESULT FakeDevice::CreateDeferredContext(UINT flags, ID3D11DeviceContext** out) {
  noteCall("CreateDeferredContext");
  if (flags) violation("CreateDeferredContext: flags " + std::to_string(flags));
  ID3D11DeviceContext4* context = nullptr;
  HRESULT hr = handOut(new FakeContext(this, true), out ? &context : nullptr);
  if (out) *out = context;
  return hr;
}
HRESULT FakeDevice::CreateDeferredContext1(UINT flags, ID3D11DeviceContext1** out) {
  ID3D11DeviceContext* context = nullptr;
  HRESULT hr = CreateDeferredContext(flags, out ? &context : nullptr);
  if (out) *out = static_cast<FakeContext*>(context);
  return hr;
}
HRESULT FakeDevice::CreateDeferredContext2(UINT flags, ID3D11DeviceContext2** out) {
  ID3D11DeviceContext* context = nullptr;
  HRESULT hr = CreateDeferredContext(flags, out ? &context : nullptr);
  if (out) *out = static_cast<FakeContext*>(context);
  return hr;
}
HRESULT FakeDevice::CreateDeferredContext3(UINT flags, ID3D11DeviceContext3** out) {
  ID3D11DeviceContext* context = nullptr;
  HRESULT hr = CreateDeferredContext(flags, out ? &context : nullptr);
  if (out) *out = static_cast<FakeContext*>(context);
  return hr;
}

}  // namespace npt::backends::recording
