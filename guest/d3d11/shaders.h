#pragma once

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

class ClassLinkage final : public D3D11Child<ID3D11ClassLinkage> {
public:
  ClassLinkage(Device* device, protocol::ObjectId id) : D3D11Child(device, id) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  // Instances named in a shader's interface table are created by the host when the
  // shader is; the guest cannot name them without a round trip (not in protocol v1).
  HRESULT STDMETHODCALLTYPE GetClassInstance(LPCSTR name, UINT index, ID3D11ClassInstance** instance) override;
  HRESULT STDMETHODCALLTYPE CreateClassInstance(LPCSTR typeName, UINT constantBufferOffset, UINT constantVectorOffset,
                                                UINT textureOffset, UINT samplerOffset, ID3D11ClassInstance** instance) override;
};

class ClassInstance final : public D3D11Child<ID3D11ClassInstance> {
public:
  ClassInstance(Device* device, protocol::ObjectId id, ClassLinkage* linkage, const D3D11_CLASS_INSTANCE_DESC& desc,
                const char* typeName);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  void STDMETHODCALLTYPE GetClassLinkage(ID3D11ClassLinkage** linkage) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_CLASS_INSTANCE_DESC* desc) override { *desc = m_desc; }
  void STDMETHODCALLTYPE GetInstanceName(LPSTR name, SIZE_T* length) override;
  void STDMETHODCALLTYPE GetTypeName(LPSTR name, SIZE_T* length) override;

private:
  Binding<ClassLinkage> m_linkage;   // private: see ResourceRef
  D3D11_CLASS_INSTANCE_DESC m_desc;
  std::string m_typeName;
};


}
