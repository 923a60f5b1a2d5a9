// SPDX-License-Identifier: MIT
// Shaders and input layouts. The runtime hands the driver a shader's token stream and
// its signatures as name-less entries (the 11.1 DDI's ENTRY2 form); input layouts go
// down as input registers, found by matching each element's semantic against the
// vertex shader's input signature.

#include <algorithm>

#include "class_linkage.h"
#include "dxbc/dxbc.h"
#include "npt/validation/shaders.h"
#include "objects.h"

namespace triton::runtime {
namespace {

using Lock = std::lock_guard<std::recursive_mutex>;

template <class Object>
HRESULT finishCreate(Device* device, Creating<Object>& object, Object** out) {
  const HRESULT hr = device->takeError();
  if (FAILED(hr)) {
    object->handle.pDrvPrivate = nullptr;
    return hr;
  }
  *out = object.release();
  return S_OK;
}

template <class Object>
void allocateFor(Creating<Object>& object, SIZE_T size) {
  object->memory = allocatePrivate(size);
  object->handle.pDrvPrivate = object->memory.get();
}

ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES stageSignatures(harness::StrippedShader& s) {
  ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES sig{};
  sig.pInputSignature = s.input11_1.data();
  sig.NumInputSignatureEntries = UINT(s.input11_1.size());
  sig.pOutputSignature = s.output11_1.data();
  sig.NumOutputSignatureEntries = UINT(s.output11_1.size());
  return sig;
}

bool strip(const void* code, SIZE_T size, harness::ShaderStage stage, harness::StrippedShader& out) {
  if (!code || !size)
    return false;
  return harness::stripShader({static_cast<const uint8_t*>(code), size}, out) && out.stage == stage;
}

}  // namespace

template <class Object, class Interface>
HRESULT Device::createShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, Interface** out) {
  constexpr harness::ShaderStage stage =
      std::is_same_v<Interface, ID3D11VertexShader>     ? harness::ShaderStage::Vertex
      : std::is_same_v<Interface, ID3D11PixelShader>    ? harness::ShaderStage::Pixel
      : std::is_same_v<Interface, ID3D11GeometryShader> ? harness::ShaderStage::Geometry
      : std::is_same_v<Interface, ID3D11HullShader>     ? harness::ShaderStage::Hull
      : std::is_same_v<Interface, ID3D11DomainShader>   ? harness::ShaderStage::Domain
                                                        : harness::ShaderStage::Compute;
  if (out)
    *out = nullptr;   // what a refused creation leaves there, as on Windows
  harness::StrippedShader s;
  if (!strip(code, size, stage, s))
    return E_INVALIDARG;
  // The runtime, not the driver, refuses a shader above the device's feature level.
  if (!npt::validation::validateShaderFeatureLevel(code, size_t(size), featureLevel_).passed())
    return E_INVALIDARG;
  if (!out)
    return S_FALSE;
  auto object = startCreating<Object>(this);
  const UINT* tokens = s.tokens.data();
  const ddi::D3D10DDI_HRTSHADER rt{object.get()};
  Lock lock(lock_);
  const auto& f = ddi();
  if constexpr (stage == harness::ShaderStage::Compute) {
    // Compute shaders have no signatures.
    allocateFor(object, f.pfnCalcPrivateShaderSize(handle(), tokens, nullptr));
    f.pfnCreateComputeShader(handle(), tokens, object->handle, rt);
  } else if constexpr (stage == harness::ShaderStage::Hull || stage == harness::ShaderStage::Domain) {
    ddi::D3D11_1DDIARG_TESSELLATION_IO_SIGNATURES sig{};
    sig.pInputSignature = s.input11_1.data();
    sig.NumInputSignatureEntries = UINT(s.input11_1.size());
    sig.pOutputSignature = s.output11_1.data();
    sig.NumOutputSignatureEntries = UINT(s.output11_1.size());
    sig.pPatchConstantSignature = s.patch11_1.data();
    sig.NumPatchConstantSignatureEntries = UINT(s.patch11_1.size());
    allocateFor(object, f.pfnCalcPrivateTessellationShaderSize(handle(), tokens, &sig));
    (stage == harness::ShaderStage::Hull ? f.pfnCreateHullShader : f.pfnCreateDomainShader)(handle(), tokens,
                                                                                            object->handle, rt, &sig);
  } else {
    const ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES sig = stageSignatures(s);
    allocateFor(object, f.pfnCalcPrivateShaderSize(handle(), tokens, &sig));
    auto create = stage == harness::ShaderStage::Vertex     ? f.pfnCreateVertexShader
                  : stage == harness::ShaderStage::Geometry ? f.pfnCreateGeometryShader
                                                            : f.pfnCreatePixelShader;
    create(handle(), tokens, object->handle, rt, &sig);
  }
  readInterfaces(code, size, object->interfaces);
  Object* created = nullptr;
  const HRESULT hr = finishCreate(this, object, &created);
  if (SUCCEEDED(hr) && linkage)
    static_cast<ClassLinkage*>(linkage)->addShader(created->interfaces);
  *out = created;
  return hr;
}

HRESULT Device::CreateVertexShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, ID3D11VertexShader** out) {
  if (out)
    *out = nullptr;
  return createShader<VertexShader>(code, size, linkage, out);
}
HRESULT Device::CreateHullShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, ID3D11HullShader** out) {
  if (out)
    *out = nullptr;
  return createShader<HullShader>(code, size, linkage, out);
}
HRESULT Device::CreateDomainShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, ID3D11DomainShader** out) {
  if (out)
    *out = nullptr;
  return createShader<DomainShader>(code, size, linkage, out);
}
HRESULT Device::CreateGeometryShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage,
                                     ID3D11GeometryShader** out) {
  if (out)
    *out = nullptr;
  return createShader<GeometryShader>(code, size, linkage, out);
}
HRESULT Device::CreatePixelShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, ID3D11PixelShader** out) {
  if (out)
    *out = nullptr;
  return createShader<PixelShader>(code, size, linkage, out);
}
HRESULT Device::CreateComputeShader(const void* code, SIZE_T size, ID3D11ClassLinkage* linkage,
                                    ID3D11ComputeShader** out) {
  if (out)
    *out = nullptr;
  return createShader<ComputeShader>(code, size, linkage, out);
}

HRESULT Device::CreateGeometryShaderWithStreamOutput(const void* code, SIZE_T size,
                                                     const D3D11_SO_DECLARATION_ENTRY* entries, UINT entryCount,
                                                     const UINT* strides, UINT strideCount, UINT rasterizedStream,
                                                     ID3D11ClassLinkage* linkage, ID3D11GeometryShader** out) {
  if (out)
    *out = nullptr;
  if (!code || !size || !entries || !entryCount || entryCount > D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT ||
      strideCount > D3D11_SO_BUFFER_SLOT_COUNT)
    return E_INVALIDARG;
  // The declaration names outputs by semantic; the DDI by register and mask, found
  // through the shader's output signature (geometry or vertex shader).
  dxbc::ContainerReader reader;
  dxbc::ContainerSignatures signatures;
  if (!dxbc::ContainerReader::parse({static_cast<const uint8_t*>(code), size}, reader).ok() ||
      !dxbc::readContainerSignatures(reader, signatures).ok())
    return E_INVALIDARG;
  harness::StrippedShader s;
  if (!harness::stripShader({static_cast<const uint8_t*>(code), size}, s) ||
      (s.stage != harness::ShaderStage::Geometry && s.stage != harness::ShaderStage::Vertex))
    return E_INVALIDARG;
  std::vector<ddi::D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY> decl;
  for (UINT i = 0; i < entryCount; ++i) {
    const D3D11_SO_DECLARATION_ENTRY& e = entries[i];
    ddi::D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY d{};
    d.Stream = e.Stream;
    d.OutputSlot = e.OutputSlot;
    const BYTE components = BYTE(((1u << e.ComponentCount) - 1) << e.StartComponent);
    if (!e.SemanticName) {
      d.RegisterIndex = UINT(-1);   // a gap: components skipped in the buffer
      d.RegisterMask = components;
    } else {
      auto found = std::find_if(signatures.output.elements.begin(), signatures.output.elements.end(),
                                [&](const dxbc::SignatureElement& el) {
                                  return _stricmp(el.semanticName.c_str(), e.SemanticName) == 0 &&
                                         el.semanticIndex == e.SemanticIndex && el.stream == e.Stream;
                                });
      if (found == signatures.output.elements.end())
        return E_INVALIDARG;
      UINT first = 0;
      while (first < 4 && !(found->mask & (1u << first)))
        ++first;
      d.RegisterIndex = found->registerIndex;
      d.RegisterMask = BYTE(components << first);
    }
    decl.push_back(d);
  }
  if (!out)
    return S_FALSE;
  ddi::D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT args{};
  args.pShaderCode = s.tokens.data();
  args.pOutputStreamDecl = decl.data();
  args.NumEntries = UINT(decl.size());
  args.BufferStridesInBytes = strides;
  args.NumStrides = strideCount;
  args.RasterizedStream = rasterizedStream;
  // Like the runtime, hand over the input entries only; the driver recovers the
  // outputs from the declaration.
  ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES sig{};
  sig.pInputSignature = s.input11_1.data();
  sig.NumInputSignatureEntries = UINT(s.input11_1.size());
  auto object = startCreating<GeometryShader>(this);
  Lock lock(lock_);
  allocateFor(object, ddi().pfnCalcPrivateGeometryShaderWithStreamOutput(handle(), &args, &sig));
  ddi().pfnCreateGeometryShaderWithStreamOutput(handle(), &args, object->handle, ddi::D3D10DDI_HRTSHADER{object.get()},
                                                &sig);
  readInterfaces(code, size, object->interfaces);
  GeometryShader* created = nullptr;
  const HRESULT hr = finishCreate(this, object, &created);
  if (SUCCEEDED(hr) && linkage)
    static_cast<ClassLinkage*>(linkage)->addShader(created->interfaces);
  *out = created;
  return hr;
}

HRESULT Device::CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, UINT count, const void* code, SIZE_T size,
                                  ID3D11InputLayout** out) {
  if (out)
    *out = nullptr;
  if (!code || !npt::validation::validateInputLayout(elements, count, code, size).passed())
    return E_INVALIDARG;
  dxbc::ContainerReader reader;
  dxbc::ContainerSignatures signatures;
  if (!dxbc::ContainerReader::parse({static_cast<const uint8_t*>(code), size}, reader).ok() ||
      !dxbc::readContainerSignatures(reader, signatures).ok())
    return E_INVALIDARG;
  std::vector<UINT> offsets(count);
  npt::validation::inputElementOffsets(elements, count, offsets.data());
  std::vector<ddi::D3D10DDIARG_INPUT_ELEMENT_DESC> ddiElements;
  for (UINT i = 0; i < count; ++i) {
    const D3D11_INPUT_ELEMENT_DESC& e = elements[i];
    // Elements the shader does not read are not sent (they have no register).
    auto found = std::find_if(signatures.input.elements.begin(), signatures.input.elements.end(),
                              [&](const dxbc::SignatureElement& s) {
                                return _stricmp(s.semanticName.c_str(), e.SemanticName) == 0 &&
                                       s.semanticIndex == e.SemanticIndex;
                              });
    if (found == signatures.input.elements.end())
      continue;
    ddi::D3D10DDIARG_INPUT_ELEMENT_DESC d{};
    d.InputSlot = e.InputSlot;
    d.AlignedByteOffset = offsets[i];
    d.Format = e.Format;
    d.InputSlotClass = ddi::D3D10_DDI_INPUT_CLASSIFICATION(e.InputSlotClass);
    d.InstanceDataStepRate = e.InstanceDataStepRate;
    d.InputRegister = found->registerIndex;
    ddiElements.push_back(d);
  }
  if (!out)
    return S_FALSE;
  const ddi::D3D10DDIARG_CREATEELEMENTLAYOUT args{ddiElements.data(), UINT(ddiElements.size())};
  auto layout = startCreating<InputLayout>(this);
  Lock lock(lock_);
  allocateFor(layout, ddi().pfnCalcPrivateElementLayoutSize(handle(), &args));
  ddi().pfnCreateElementLayout(handle(), &args, layout->handle, ddi::D3D10DDI_HRTELEMENTLAYOUT{layout.get()});
  InputLayout* created = nullptr;
  const HRESULT hr = finishCreate(this, layout, &created);
  *out = created;
  return hr;
}

}  // namespace triton::runtime
