// SPDX-License-Identifier: MIT
#pragma once

// Dynamic shader linkage at API level. The DDI has no class linkage: the runtime keeps
// ID3D11ClassLinkage and ID3D11ClassInstance itself, reads each shader's IFCE chunk (class
// types, declared instances, per slot the function table each type selects) and hands
// *SetShaderWithIfaces per slot a function table id and the instance's data location.

#include <d3d11.h>

#include <string>
#include <vector>

#include "com.h"
#include "dxbc/interfaces.h"
#include "triton/ddi/ddi.h"

namespace triton::runtime {

class ClassLinkage;

class ClassInstance final : public Child<ID3D11ClassInstance> {
public:
  ClassInstance(Device* device, ClassLinkage* linkage, std::string typeName, std::string instanceName,
                const D3D11_CLASS_INSTANCE_DESC& desc);
  ~ClassInstance() override;

  void STDMETHODCALLTYPE GetClassLinkage(ID3D11ClassLinkage** out) override;
  void STDMETHODCALLTYPE GetDesc(D3D11_CLASS_INSTANCE_DESC* out) override;
  void STDMETHODCALLTYPE GetInstanceName(LPSTR name, SIZE_T* length) override;
  void STDMETHODCALLTYPE GetTypeName(LPSTR name, SIZE_T* length) override;

  const std::string& typeName() const { return typeName_; }
  // The DDI's view of this instance in one slot of a shader: the function table its class
  // selects there (false: the slot does not accept the class) and where its data lives.
  bool bindingFor(const dxbc::InterfacesChunk& shader, UINT slot, UINT& table,
                  triton::ddi::D3D11DDIARG_POINTERDATA& data) const;

private:
  ClassLinkage* linkage_;   // public reference, as Windows' instances keep their linkage
  std::string typeName_, instanceName_;
  D3D11_CLASS_INSTANCE_DESC desc_;
};

class ClassLinkage final : public Child<ID3D11ClassLinkage> {
public:
  explicit ClassLinkage(Device* device) : Child(device) {}

  HRESULT STDMETHODCALLTYPE GetClassInstance(LPCSTR name, UINT index, ID3D11ClassInstance** out) override;
  HRESULT STDMETHODCALLTYPE CreateClassInstance(LPCSTR typeName, UINT constantBuffer, UINT constantVectorOffset,
                                                UINT texture, UINT sampler, ID3D11ClassInstance** out) override;

  // A shader created with this linkage brings its declared instances and class types.
  void addShader(const dxbc::InterfacesChunk& interfaces);

private:
  std::mutex mutex_;
  std::vector<dxbc::InterfacesChunk> shaders_;
};

// The IFCE chunk of an application's container (false: none, or unreadable).
bool readInterfaces(const void* code, SIZE_T size, dxbc::InterfacesChunk& out);

}  // namespace triton::runtime
