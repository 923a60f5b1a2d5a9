// SPDX-License-Identifier: MIT
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "d3d11_child.h"

// Shaders of every stage, input layouts and class linkage. All are opaque to the
// guest: created fire-and-forget with the bytecode as a payload, nothing to answer
// locally beyond COM and private data.
namespace npt::guest {

template<typename Interface>
class Shader final : public D3D11Child<Interface> {
public:
  Shader(Device* device, protocol::ObjectId id) : D3D11Child<Interface>(device, id) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override {
    NPT_QI_PROLOGUE(riid, object);
    if (IsEqualGUID(riid, __uuidof(Interface))) {
      *object = addRefed(static_cast<Interface*>(this));
      return S_OK;
    }
    return this->queryChild(riid, object);
  }
};

using VertexShader = Shader<ID3D11VertexShader>;
using HullShader = Shader<ID3D11HullShader>;
using DomainShader = Shader<ID3D11DomainShader>;
using GeometryShader = Shader<ID3D11GeometryShader>;
using PixelShader = Shader<ID3D11PixelShader>;
using ComputeShader = Shader<ID3D11ComputeShader>;
using InputLayout = Shader<ID3D11InputLayout>;

class ClassLinkage;

// A class instance a shader declares (its IFCE chunk): what GetClassInstance hands out.
struct DeclaredClassInstance {
  std::string name;
  std::string typeName;
  D3D11_CLASS_INSTANCE_DESC desc = {};   // Created FALSE: the shader declares it
};

class ClassLinkage final : public D3D11Child<ID3D11ClassLinkage> {
public:
  ClassLinkage(Device* device, protocol::ObjectId id) : D3D11Child(device, id) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  // The class instances of the shaders created with this linkage, read from their IFCE
  // chunks; each call makes a new instance object, created on the host as the instance
  // of its class type at the declared data location (CreateClassInstance on the wire).
  HRESULT STDMETHODCALLTYPE GetClassInstance(LPCSTR name, UINT index, ID3D11ClassInstance** instance) override;
  HRESULT STDMETHODCALLTYPE CreateClassInstance(LPCSTR typeName, UINT constantBufferOffset, UINT constantVectorOffset,
                                                UINT textureOffset, UINT samplerOffset, ID3D11ClassInstance** instance) override;
  // A shader created with this linkage: remembers the class instances its bytecode
  // declares (bytecode without an IFCE chunk declares none).
  void noteShader(const void* bytecode, size_t length);

private:
  HRESULT createInstance(const char* typeName, const D3D11_CLASS_INSTANCE_DESC& desc, const char* instanceName,
                         ID3D11ClassInstance** instance);

  std::mutex m_mutex;   // device methods are free-threaded
  std::vector<DeclaredClassInstance> m_declared;
};

class ClassInstance final : public D3D11Child<ID3D11ClassInstance> {
public:
  ClassInstance(Device* device, protocol::ObjectId id, ClassLinkage* linkage, const D3D11_CLASS_INSTANCE_DESC& desc,
                const char* typeName, const char* instanceName);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetClassLinkage(ID3D11ClassLinkage** linkage) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_CLASS_INSTANCE_DESC* desc) override { *desc = m_desc; }
  void STDMETHODCALLTYPE GetInstanceName(LPSTR name, SIZE_T* length) override;
  void STDMETHODCALLTYPE GetTypeName(LPSTR name, SIZE_T* length) override;

private:
  Binding<ClassLinkage> m_linkage;   // private: see ResourceRef
  D3D11_CLASS_INSTANCE_DESC m_desc;
  std::string m_typeName;
  std::string m_instanceName;   // empty for CreateClassInstance's instances
};


}
