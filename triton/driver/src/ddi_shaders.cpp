// SPDX-License-Identifier: MIT
// Shaders: the DDI delivers the token stream and name-less signature entries; the dxbc
// library rebuilds a complete container (signatures, checksum) that the target's
// Create*Shader accepts. Input layouts get a stand-alone input signature with the same
// generic names the rebuild gives vertex-shader inputs (dxbc/linkage.h), so the
// target matches elements by register exactly as the hardware driver would.

#include <span>
#include <string>
#include <vector>

#include "device.h"
#include "dxbc/dxbc.h"
#include "entries.h"
#include "log.h"

namespace triton::driver {
namespace {

constexpr UINT kMaxInputElements = 32;   // D3D11_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT

// The token stream's second token is its length in tokens.
bool tokenSpan(const UINT* code, std::span<const uint8_t>& out) {
  if (!code)
    return false;
  const UINT length = code[1];
  if (length < 2 || length > (64u << 20) / 4)
    return false;
  out = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(code), size_t(length) * 4);
  return true;
}

void decodeEntries(const ddi::D3D10DDIARG_SIGNATURE_ENTRY* entries, UINT count,
                   std::vector<dxbc::DdiSignatureEntry>& out) {
  out.clear();
  for (UINT i = 0; entries && i < count; ++i)
    out.push_back({entries[i].SystemValue, entries[i].Register, entries[i].Mask, 0, 0});
}

void decodeEntries(const ddi::D3D11_1DDIARG_SIGNATURE_ENTRY2* entries, UINT count,
                   std::vector<dxbc::DdiSignatureEntry>& out) {
  out.clear();
  for (UINT i = 0; entries && i < count; ++i)
    out.push_back({entries[i].SystemValue, entries[i].Register, entries[i].Mask, entries[i].RegisterComponentType,
                   entries[i].MinPrecision});
}

// What every stage's signature structure boils down to.
struct DdiStageSignatures {
  std::vector<dxbc::DdiSignatureEntry> input, output, patchConstant;
  bool hasTypeInfo = false;

  dxbc::DdiSignatures view() const { return {input, output, patchConstant, hasTypeInfo}; }
};

DdiStageSignatures signatures(const ddi::D3D10DDIARG_STAGE_IO_SIGNATURES* s) {
  DdiStageSignatures out;
  if (s) {
    decodeEntries(s->pInputSignature, s->NumInputSignatureEntries, out.input);
    decodeEntries(s->pOutputSignature, s->NumOutputSignatureEntries, out.output);
  }
  return out;
}

DdiStageSignatures signatures(const ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES* s) {
  DdiStageSignatures out;
  out.hasTypeInfo = true;
  if (s) {
    decodeEntries(s->pInputSignature, s->NumInputSignatureEntries, out.input);
    decodeEntries(s->pOutputSignature, s->NumOutputSignatureEntries, out.output);
  }
  return out;
}

DdiStageSignatures signatures(const ddi::D3D11DDIARG_TESSELLATION_IO_SIGNATURES* s) {
  DdiStageSignatures out;
  if (s) {
    decodeEntries(s->pInputSignature, s->NumInputSignatureEntries, out.input);
    decodeEntries(s->pOutputSignature, s->NumOutputSignatureEntries, out.output);
    decodeEntries(s->pPatchConstantSignature, s->NumPatchConstantSignatureEntries, out.patchConstant);
  }
  return out;
}

DdiStageSignatures signatures(const ddi::D3D11_1DDIARG_TESSELLATION_IO_SIGNATURES* s) {
  DdiStageSignatures out;
  out.hasTypeInfo = true;
  if (s) {
    decodeEntries(s->pInputSignature, s->NumInputSignatureEntries, out.input);
    decodeEntries(s->pOutputSignature, s->NumOutputSignatureEntries, out.output);
    decodeEntries(s->pPatchConstantSignature, s->NumPatchConstantSignatureEntries, out.patchConstant);
  }
  return out;
}

const char* stageEntryName(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return "CreateVertexShader";
    case ShaderStage::Hull: return "CreateHullShader";
    case ShaderStage::Domain: return "CreateDomainShader";
    case ShaderStage::Geometry: return "CreateGeometryShader";
    case ShaderStage::Pixel: return "CreatePixelShader";
    case ShaderStage::Compute: return "CreateComputeShader";
  }
  return "CreateShader";
}

HRESULT createTargetShader(ID3D11Device* device, ShaderStage stage, const std::vector<uint8_t>& code,
                           ID3D11ClassLinkage* linkage, ComPtr<ID3D11DeviceChild>& out) {
  const void* p = code.data();
  const SIZE_T n = code.size();
  ID3D11ClassLinkage* l = linkage;
  HRESULT hr = E_INVALIDARG;
  switch (stage) {
    case ShaderStage::Vertex: { ComPtr<ID3D11VertexShader> s; hr = device->CreateVertexShader(p, n, l, &s); out = s; break; }
    case ShaderStage::Hull: { ComPtr<ID3D11HullShader> s; hr = device->CreateHullShader(p, n, l, &s); out = s; break; }
    case ShaderStage::Domain: { ComPtr<ID3D11DomainShader> s; hr = device->CreateDomainShader(p, n, l, &s); out = s; break; }
    case ShaderStage::Geometry: { ComPtr<ID3D11GeometryShader> s; hr = device->CreateGeometryShader(p, n, l, &s); out = s; break; }
    case ShaderStage::Pixel: { ComPtr<ID3D11PixelShader> s; hr = device->CreatePixelShader(p, n, l, &s); out = s; break; }
    case ShaderStage::Compute: { ComPtr<ID3D11ComputeShader> s; hr = device->CreateComputeShader(p, n, l, &s); out = s; break; }
  }
  return hr;
}

// A shader that declares interfaces gets the IFCE chunk the DDI does not deliver (one
// class type per function table, class_linkage.h) and the device's class linkage; others
// get neither. False (error reported) if the declarations cannot be described.
bool prepareInterfaces(Device* d, const char* entryName, const UINT* code, std::vector<uint8_t>& container,
                       ID3D11ClassLinkage*& linkage, UINT& slots) {
  linkage = nullptr;
  slots = 0;
  std::span<const uint8_t> tokens;
  tokenSpan(code, tokens);   // checked by rebuild
  dxbc::ShaderInterfaces declared;
  dxbc::InterfacesChunk chunk;
  dxbc::Status status = dxbc::scanInterfaces(tokens, declared);
  if (status.ok() && declared.empty())
    return true;
  if (status.ok())
    status = dxbc::synthesizeInterfacesChunk(declared, chunk);
  if (status.ok())
    status = dxbc::addInterfacesChunk(container, chunk);
  if (!status.ok()) {
    TRITON_LOG(Warn, "%s: the interface declarations cannot be described: %s", entryName, status.reason);
    d->setError(E_INVALIDARG);
    return false;
  }
  const HRESULT hr = d->classLinkage().linkage(&linkage);
  if (FAILED(hr)) {
    d->targetFailed(entryName, hr);
    return false;
  }
  slots = declared.slotCount;
  return true;
}

bool rebuild(Device* d, const char* entryName, const UINT* code, const DdiStageSignatures& sigs,
             std::vector<uint8_t>& container, dxbc::RebuiltSignatures* rebuilt = nullptr) {
  std::span<const uint8_t> tokens;
  if (!tokenSpan(code, tokens)) {
    d->setError(E_INVALIDARG);
    return false;
  }
  const dxbc::Status status = dxbc::rebuildContainer(tokens, sigs.view(), container, rebuilt);
  if (!status.ok()) {
    TRITON_LOG(Warn, "%s: the container cannot be rebuilt: %s (%s at byte %u)", entryName,
               dxbc::errorCodeName(status.code), status.reason, status.offset);
    d->setError(E_INVALIDARG);
    return false;
  }
  return true;
}

template <class Signatures>
void createShader(ddi::D3D10DDI_HDEVICE hDevice, ShaderStage stage, const UINT* code, ddi::D3D10DDI_HSHADER hShader,
                  const Signatures* ddiSignatures) {
  Device* d = deviceOf(hDevice);
  const char* entryName = stageEntryName(stage);
  try {
    std::vector<uint8_t> container;
    ID3D11ClassLinkage* linkage = nullptr;
    UINT slots = 0;
    if (!hShader.pDrvPrivate || !rebuild(d, entryName, code, signatures(ddiSignatures), container) ||
        !prepareInterfaces(d, entryName, code, container, linkage, slots))
      return;
    ComPtr<ID3D11DeviceChild> shader;
    const HRESULT hr = createTargetShader(d->device(), stage, container, linkage, shader);
    if (FAILED(hr)) {
      d->targetFailed(entryName, hr);
      return;
    }
    Shader* s = new (hShader.pDrvPrivate) Shader;
    s->shader = std::move(shader);
    s->stage = stage;
    s->interfaceSlots = slots;
  } catch (const std::bad_alloc&) {
    d->setError(E_OUTOFMEMORY);
  }
}

template <class Signatures>
void createGeometryShaderWithSO(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT* a,
                                ddi::D3D10DDI_HSHADER hShader, const Signatures* ddiSignatures) {
  Device* d = deviceOf(hDevice);
  const char* entryName = "CreateGeometryShaderWithStreamOutput";
  if (!a || !hShader.pDrvPrivate || (a->NumEntries && !a->pOutputStreamDecl)) {
    d->setError(E_INVALIDARG);
    return;
  }
  try {
    std::vector<uint8_t> container;
    dxbc::RebuiltSignatures rebuilt;
    ID3D11ClassLinkage* linkage = nullptr;
    UINT slots = 0;
    if (!rebuild(d, entryName, a->pShaderCode, signatures(ddiSignatures), container, &rebuilt) ||
        !prepareInterfaces(d, entryName, a->pShaderCode, container, linkage, slots))
      return;
    std::vector<dxbc::StreamOutputMapping> mappings(a->NumEntries);
    std::vector<D3D11_SO_DECLARATION_ENTRY> entries(a->NumEntries);
    for (UINT i = 0; i < a->NumEntries; ++i) {
      const ddi::D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY& e = a->pOutputStreamDecl[i];
      const dxbc::Status status = dxbc::mapStreamOutputEntry(
          rebuilt.output, dxbc::StreamOutputRef{e.Stream, e.OutputSlot, e.RegisterIndex, e.RegisterMask}, mappings[i]);
      if (!status.ok()) {
        TRITON_LOG(Warn, "%s: stream-output entry %u: %s", entryName, i, status.reason);
        d->setError(E_INVALIDARG);
        return;
      }
      const dxbc::StreamOutputMapping& m = mappings[i];
      entries[i] = D3D11_SO_DECLARATION_ENTRY{m.stream, m.semanticName.empty() ? nullptr : m.semanticName.c_str(),
                                              m.semanticIndex, m.startComponent, m.componentCount,
                                              BYTE(m.outputSlot)};
    }
    ComPtr<ID3D11GeometryShader> shader;
    const HRESULT hr = d->device()->CreateGeometryShaderWithStreamOutput(
        container.data(), container.size(), entries.data(), a->NumEntries, a->BufferStridesInBytes, a->NumStrides,
        a->RasterizedStream, linkage, &shader);
    if (FAILED(hr)) {
      d->targetFailed(entryName, hr);
      return;
    }
    Shader* s = new (hShader.pDrvPrivate) Shader;
    s->shader = std::move(shader);
    s->stage = ShaderStage::Geometry;
    s->interfaceSlots = slots;
  } catch (const std::bad_alloc&) {
    d->setError(E_OUTOFMEMORY);
  }
}

// The shader-creation members of the 11.0 and 11.1 tables differ only in the stage and
// in the signature structures of their interface version: one template per creation
// shape, instantiated for each member by fillShaderCreation (the table assignment checks
// every instantiation against the member's pointer type).
template <class... Ignored>
SIZE_T TRITON_APIENTRY calcPrivateShaderObjectSize(ddi::D3D10DDI_HDEVICE, Ignored...) {
  return sizeof(Shader);
}

template <ShaderStage Stage, class Signatures>
void TRITON_APIENTRY createStageShader(ddi::D3D10DDI_HDEVICE h, const UINT* code, ddi::D3D10DDI_HSHADER s,
                                       ddi::D3D10DDI_HRTSHADER, const Signatures* sig) {
  createShader(h, Stage, code, s, sig);
}

template <class Signatures>
void TRITON_APIENTRY createGeometryShaderWithStreamOutputEntry(
    ddi::D3D10DDI_HDEVICE h, const ddi::D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT* a, ddi::D3D10DDI_HSHADER s,
    ddi::D3D10DDI_HRTSHADER, const Signatures* sig) {
  createGeometryShaderWithSO(h, a, s, sig);
}

template <class Table, class StageSignatures, class TessellationSignatures>
void fillShaderCreationMembers(Table& t) {
  using GsStreamOutputArgs = const ddi::D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT*;
  t.pfnCalcPrivateShaderSize = calcPrivateShaderObjectSize<const UINT*, const StageSignatures*>;
  t.pfnCreateVertexShader = createStageShader<ShaderStage::Vertex, StageSignatures>;
  t.pfnCreateGeometryShader = createStageShader<ShaderStage::Geometry, StageSignatures>;
  t.pfnCreatePixelShader = createStageShader<ShaderStage::Pixel, StageSignatures>;
  t.pfnCalcPrivateGeometryShaderWithStreamOutput =
      calcPrivateShaderObjectSize<GsStreamOutputArgs, const StageSignatures*>;
  t.pfnCreateGeometryShaderWithStreamOutput = createGeometryShaderWithStreamOutputEntry<StageSignatures>;
  t.pfnCalcPrivateTessellationShaderSize = calcPrivateShaderObjectSize<const UINT*, const TessellationSignatures*>;
  t.pfnCreateHullShader = createStageShader<ShaderStage::Hull, TessellationSignatures>;
  t.pfnCreateDomainShader = createStageShader<ShaderStage::Domain, TessellationSignatures>;
}

}  // namespace

void fillShaderCreation(ddi::D3D11DDI_DEVICEFUNCS& t) {
  fillShaderCreationMembers<ddi::D3D11DDI_DEVICEFUNCS, ddi::D3D10DDIARG_STAGE_IO_SIGNATURES,
                            ddi::D3D11DDIARG_TESSELLATION_IO_SIGNATURES>(t);
}

void fillShaderCreation(ddi::D3D11_1DDI_DEVICEFUNCS& t) {
  fillShaderCreationMembers<ddi::D3D11_1DDI_DEVICEFUNCS, ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES,
                            ddi::D3D11_1DDIARG_TESSELLATION_IO_SIGNATURES>(t);
}

namespace entry {

void TRITON_APIENTRY createComputeShader(ddi::D3D10DDI_HDEVICE h, const UINT* code, ddi::D3D10DDI_HSHADER s,
                                         ddi::D3D10DDI_HRTSHADER) {
  createShader(h, ShaderStage::Compute, code, s, static_cast<const ddi::D3D11_1DDIARG_STAGE_IO_SIGNATURES*>(nullptr));
}

void TRITON_APIENTRY destroyShader(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HSHADER h) {
  destroyObject<Shader>(h.pDrvPrivate);
}

void TRITON_APIENTRY assignDebugBinary(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HSHADER, UINT, const void*) {
  // GetCaps(D3D11_OPTIONS) answers AssignDebugBinarySupport = FALSE, so the runtime
  // keeps debug binaries itself; the API has nowhere to put one.
  TRITON_LOG(Debug, "AssignDebugBinary: debug binary ignored (not advertised)");
}

SIZE_T TRITON_APIENTRY calcPrivateElementLayoutSize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10DDIARG_CREATEELEMENTLAYOUT*) {
  return sizeof(ElementLayout);
}

void TRITON_APIENTRY createElementLayout(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10DDIARG_CREATEELEMENTLAYOUT* a,
                                         ddi::D3D10DDI_HELEMENTLAYOUT hLayout, ddi::D3D10DDI_HRTELEMENTLAYOUT) {
  Device* d = deviceOf(hDevice);
  if (!a || !hLayout.pDrvPrivate || (a->NumElements && !a->pVertexElements) ||
      a->NumElements > kMaxInputElements) {
    d->setError(E_INVALIDARG);
    return;
  }
  if (a->NumElements == 0) {   // an empty layout is no layout to the target
    new (hLayout.pDrvPrivate) ElementLayout;
    return;
  }
  try {
    std::vector<dxbc::InputElementRef> refs;
    std::vector<D3D11_INPUT_ELEMENT_DESC> elements;
    for (UINT i = 0; i < a->NumElements; ++i) {
      const ddi::D3D10DDIARG_INPUT_ELEMENT_DESC& e = a->pVertexElements[i];
      refs.push_back({e.InputRegister, UINT(e.Format)});
      elements.push_back(D3D11_INPUT_ELEMENT_DESC{dxbc::kGenericSemantic, dxbc::genericSemanticIndex(e.InputRegister, 0),
                                                  e.Format, e.InputSlot, e.AlignedByteOffset,
                                                  D3D11_INPUT_CLASSIFICATION(e.InputSlotClass), e.InstanceDataStepRate});
    }
    std::vector<uint8_t> container;
    const dxbc::Status status = dxbc::buildInputLayoutContainer(refs, container);
    if (!status.ok()) {
      TRITON_LOG(Warn, "CreateElementLayout: %s", status.reason);
      d->setError(E_INVALIDARG);
      return;
    }
    ComPtr<ID3D11InputLayout> layout;
    const HRESULT hr = d->device()->CreateInputLayout(elements.data(), a->NumElements, container.data(),
                                                      container.size(), &layout);
    if (FAILED(hr)) {
      d->targetFailed("CreateElementLayout", hr);
      return;
    }
    (new (hLayout.pDrvPrivate) ElementLayout)->layout = std::move(layout);
  } catch (const std::bad_alloc&) {
    d->setError(E_OUTOFMEMORY);
  }
}

void TRITON_APIENTRY destroyElementLayout(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HELEMENTLAYOUT h) {
  destroyObject<ElementLayout>(h.pDrvPrivate);
}

}  // namespace entry
}  // namespace triton::driver
