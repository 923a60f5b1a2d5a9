// SPDX-License-Identifier: MIT
// Shaders and input layouts: the DXBC container is parsed and bounded (stage, shader
// model, chunks, checksum) before a backend compiler sees it.
#include "npt/executor/executor.h"
#include "npt/validation/shaders.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;
using validation::ShaderStage;

// createShader's stage for CreateGeometryShaderWithStreamOutput: a geometry, vertex or domain
// shader's bytecode.
constexpr int kStreamOutputStage = -1;

void Executor::createShader(
    const char* method, ObjectId self, const Payload& bytecode, ObjectId linkage, int stage, ObjectType type,
    ObjectId id, const std::function<HRESULT(ID3D11Device*, const void*, SIZE_T, ID3D11ClassLinkage*, IUnknown**)>& create) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(id, type, nullptr);
    return;
  }
  ID3D11ClassLinkage* backendLinkage = nullptr;
  Record* linkageRecord = nullptr;
  if (!resolveAs(linkage, InterfaceId::ID3D11ClassLinkage, true, method, &backendLinkage, &linkageRecord)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  if (backendLinkage && !sameDevice(linkageRecord, owner.get(), linkage, method)) return;
  const uint8_t* bytes = nullptr;
  size_t size = 0;
  if (!payloadBytes(bytecode, m_payloadCopy, &bytes, &size, method)) return;
  if (!admit(stage == kStreamOutputStage ? validation::validateStreamOutputShaderBytecode(bytes, size)
                                         : validation::validateShaderBytecode(bytes, size, ShaderStage(stage)),
             method)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  IUnknown* object = nullptr;
  HRESULT hr = create(owner->device, bytes, size, backendLinkage, &object);
  if (FAILED(hr) || !object) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), id);
    insertFailed(id, type, owner);
    return;
  }
  insert(id, type, object, owner, size);
}

#define NPT_CREATE_SHADER(Method, Stage, Type, Interface)                                                        \
  createShader("Create" #Method, self, pShaderBytecode, pClassLinkage, int(ShaderStage::Stage), ObjectType::Type, \
               out, [](ID3D11Device* d, const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, IUnknown** o) { \
                 Interface* shader = nullptr;                                                                    \
                 HRESULT hr = d->Create##Method(code, size, linkage, &shader);                                   \
                 *o = shader;                                                                                    \
                 return hr;                                                                                      \
               })

void Executor::ID3D11Device_CreateVertexShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage,
                                               ObjectId out) {
  NPT_CREATE_SHADER(VertexShader, Vertex, VertexShader, ID3D11VertexShader);
}

void Executor::ID3D11Device_CreateGeometryShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage,
                                                 ObjectId out) {
  NPT_CREATE_SHADER(GeometryShader, Geometry, GeometryShader, ID3D11GeometryShader);
}

void Executor::ID3D11Device_CreatePixelShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage,
                                              ObjectId out) {
  NPT_CREATE_SHADER(PixelShader, Pixel, PixelShader, ID3D11PixelShader);
}

void Executor::ID3D11Device_CreateHullShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage,
                                             ObjectId out) {
  NPT_CREATE_SHADER(HullShader, Hull, HullShader, ID3D11HullShader);
}

void Executor::ID3D11Device_CreateDomainShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage,
                                               ObjectId out) {
  NPT_CREATE_SHADER(DomainShader, Domain, DomainShader, ID3D11DomainShader);
}

void Executor::ID3D11Device_CreateComputeShader(ObjectId self, const Payload& pShaderBytecode, ObjectId pClassLinkage,
                                                ObjectId out) {
  NPT_CREATE_SHADER(ComputeShader, Compute, ComputeShader, ID3D11ComputeShader);
}

#undef NPT_CREATE_SHADER

void Executor::ID3D11Device_CreateGeometryShaderWithStreamOutput(
    ObjectId self, const Payload& pShaderBytecode, const D3D11_SO_DECLARATION_ENTRY* pSODeclaration, UINT NumEntries,
    const UINT* pBufferStrides, UINT NumStrides, UINT RasterizedStream, ObjectId pClassLinkage, ObjectId out) {
  const char* method = "CreateGeometryShaderWithStreamOutput";
  validation::Check so = validation::validateStreamOutput(pSODeclaration, NumEntries, pBufferStrides, NumStrides,
                                                          RasterizedStream);
  if (!so.passed()) {
    std::shared_ptr<DeviceState> owner = deviceOf(self, method);
    if (!owner) {
      if (!isFatal()) insertFailed(out, ObjectType::GeometryShader, nullptr);
      return;
    }
    if (!admit(so, method) && !isFatal()) insertFailed(out, ObjectType::GeometryShader, owner);
    return;
  }
  createShader(method, self, pShaderBytecode, pClassLinkage, kStreamOutputStage, ObjectType::GeometryShader, out,
               [&](ID3D11Device* d, const void* code, SIZE_T size, ID3D11ClassLinkage* linkage, IUnknown** o) {
                 ID3D11GeometryShader* shader = nullptr;
                 HRESULT hr = d->CreateGeometryShaderWithStreamOutput(code, size, pSODeclaration, NumEntries,
                                                                      pBufferStrides, NumStrides, RasterizedStream,
                                                                      linkage, &shader);
                 *o = shader;
                 return hr;
               });
}

void Executor::ID3D11Device_CreateInputLayout(ObjectId self, const D3D11_INPUT_ELEMENT_DESC* pInputElementDescs,
                                              UINT NumElements, const Payload& pShaderBytecodeWithInputSignature,
                                              ObjectId ppInputLayout) {
  const char* method = "CreateInputLayout";
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(ppInputLayout, ObjectType::InputLayout, nullptr);
    return;
  }
  const uint8_t* bytes = nullptr;
  size_t size = 0;
  if (!payloadBytes(pShaderBytecodeWithInputSignature, m_payloadCopy, &bytes, &size, method)) return;
  if (!admit(validation::validateInputLayout(pInputElementDescs, NumElements, bytes, size), method)) {
    if (!isFatal()) insertFailed(ppInputLayout, ObjectType::InputLayout, owner);
    return;
  }
  ID3D11InputLayout* layout = nullptr;
  HRESULT hr = owner->device->CreateInputLayout(pInputElementDescs, NumElements, bytes, size, &layout);
  if (FAILED(hr) || !layout) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), ppInputLayout);
    insertFailed(ppInputLayout, ObjectType::InputLayout, owner);
    return;
  }
  insert(ppInputLayout, ObjectType::InputLayout, layout, owner, 0);
}

void Executor::ID3D11Device_CreateClassLinkage(ObjectId self, ObjectId ppLinkage) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateClassLinkage");
  if (!owner) {
    if (!isFatal()) insertFailed(ppLinkage, ObjectType::ClassLinkage, nullptr);
    return;
  }
  ID3D11ClassLinkage* linkage = nullptr;
  HRESULT hr = owner->device->CreateClassLinkage(&linkage);
  if (FAILED(hr) || !linkage) {
    log("CreateClassLinkage: the backend refused (0x%08x)", unsigned(hr));
    insertFailed(ppLinkage, ObjectType::ClassLinkage, owner);
    return;
  }
  insert(ppLinkage, ObjectType::ClassLinkage, linkage, owner, 0);
}

void Executor::ID3D11ClassLinkage_CreateClassInstance(ObjectId self, const char* pClassTypeName,
                                                      UINT ConstantBufferOffset, UINT ConstantVectorOffset,
                                                      UINT TextureOffset, UINT SamplerOffset, ObjectId ppInstance) {
  const char* method = "CreateClassInstance";
  ID3D11ClassLinkage* linkage = nullptr;
  Record* record = nullptr;
  if (!resolveAs(self, InterfaceId::ID3D11ClassLinkage, false, method, &linkage, &record)) {
    if (!isFatal()) insertFailed(ppInstance, ObjectType::ClassInstance, nullptr);
    return;
  }
  ID3D11ClassInstance* instance = nullptr;
  HRESULT hr = linkage->CreateClassInstance(pClassTypeName ? pClassTypeName : "", ConstantBufferOffset,
                                            ConstantVectorOffset, TextureOffset, SamplerOffset, &instance);
  if (FAILED(hr) || !instance) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), ppInstance);
    insertFailed(ppInstance, ObjectType::ClassInstance, record->device);
    return;
  }
  insert(ppInstance, ObjectType::ClassInstance, instance, record->device, 0);
}

}  // namespace npt::executor
