// SPDX-License-Identifier: MIT
#include "npt/objects/object_types.h"

#include <cstring>
#include <initializer_list>
#include <iterator>

namespace npt::objects {

namespace {

using I = InterfaceId;

struct Chain {
  ObjectType type;
  std::initializer_list<InterfaceId> interfaces;
};

// Every object also answers IUnknown. Device children answer ID3D11DeviceChild;
// resources and the device answer their DXGI faces as on Windows.
#define CHILD I::ID3D11DeviceChild
#define DXGI_RESOURCE I::IDXGIObject, I::IDXGIDeviceSubObject, I::IDXGIResource, I::IDXGIResource1
const Chain kChains[] = {
  {ObjectType::Device, {I::ID3D11Device, I::ID3D11Device1, I::ID3D11Device2, I::ID3D11Device3, I::ID3D11Device4,
                        I::ID3D11Device5, I::IDXGIObject, I::IDXGIDevice, I::IDXGIDevice1, I::IDXGIDevice2,
                        I::IDXGIDevice3, I::IDXGIDevice4}},
  {ObjectType::DeviceContext, {CHILD, I::ID3D11DeviceContext, I::ID3D11DeviceContext1, I::ID3D11DeviceContext2,
                               I::ID3D11DeviceContext3, I::ID3D11DeviceContext4}},
  {ObjectType::Buffer, {CHILD, I::ID3D11Resource, I::ID3D11Buffer, DXGI_RESOURCE}},
  {ObjectType::Texture1D, {CHILD, I::ID3D11Resource, I::ID3D11Texture1D, DXGI_RESOURCE}},
  {ObjectType::Texture2D, {CHILD, I::ID3D11Resource, I::ID3D11Texture2D, I::ID3D11Texture2D1, DXGI_RESOURCE,
                           I::IDXGISurface, I::IDXGISurface1, I::IDXGISurface2}},
  {ObjectType::Texture3D, {CHILD, I::ID3D11Resource, I::ID3D11Texture3D, I::ID3D11Texture3D1, DXGI_RESOURCE}},
  {ObjectType::ShaderResourceView, {CHILD, I::ID3D11View, I::ID3D11ShaderResourceView, I::ID3D11ShaderResourceView1}},
  {ObjectType::RenderTargetView, {CHILD, I::ID3D11View, I::ID3D11RenderTargetView, I::ID3D11RenderTargetView1}},
  {ObjectType::DepthStencilView, {CHILD, I::ID3D11View, I::ID3D11DepthStencilView}},
  {ObjectType::UnorderedAccessView, {CHILD, I::ID3D11View, I::ID3D11UnorderedAccessView,
                                     I::ID3D11UnorderedAccessView1}},
  {ObjectType::VertexShader, {CHILD, I::ID3D11VertexShader}},
  {ObjectType::HullShader, {CHILD, I::ID3D11HullShader}},
  {ObjectType::DomainShader, {CHILD, I::ID3D11DomainShader}},
  {ObjectType::GeometryShader, {CHILD, I::ID3D11GeometryShader}},
  {ObjectType::PixelShader, {CHILD, I::ID3D11PixelShader}},
  {ObjectType::ComputeShader, {CHILD, I::ID3D11ComputeShader}},
  {ObjectType::InputLayout, {CHILD, I::ID3D11InputLayout}},
  {ObjectType::BlendState, {CHILD, I::ID3D11BlendState, I::ID3D11BlendState1}},
  {ObjectType::DepthStencilState, {CHILD, I::ID3D11DepthStencilState}},
  {ObjectType::RasterizerState, {CHILD, I::ID3D11RasterizerState, I::ID3D11RasterizerState1,
                                 I::ID3D11RasterizerState2}},
  {ObjectType::SamplerState, {CHILD, I::ID3D11SamplerState}},
  {ObjectType::Query, {CHILD, I::ID3D11Asynchronous, I::ID3D11Query, I::ID3D11Query1}},
  {ObjectType::Predicate, {CHILD, I::ID3D11Asynchronous, I::ID3D11Query, I::ID3D11Query1, I::ID3D11Predicate}},
  {ObjectType::Counter, {CHILD, I::ID3D11Asynchronous, I::ID3D11Counter}},
  {ObjectType::ClassLinkage, {CHILD, I::ID3D11ClassLinkage}},
  {ObjectType::ClassInstance, {CHILD, I::ID3D11ClassInstance}},
  {ObjectType::CommandList, {CHILD, I::ID3D11CommandList}},
  {ObjectType::DeviceContextState, {CHILD, I::ID3DDeviceContextState}},
  {ObjectType::Fence, {CHILD, I::ID3D11Fence}},
};
#undef CHILD
#undef DXGI_RESOURCE

static_assert(std::size(kChains) == size_t(ObjectType::Count), "one chain per object type");

struct GuidEntry {
  GUID guid;
  InterfaceId iface;
};

#define G(name) GuidEntry{__uuidof(name), I::name}
const GuidEntry kGuids[] = {
  G(IUnknown),
  G(ID3D11Device), G(ID3D11Device1), G(ID3D11Device2), G(ID3D11Device3), G(ID3D11Device4), G(ID3D11Device5),
  G(ID3D11DeviceContext), G(ID3D11DeviceContext1), G(ID3D11DeviceContext2), G(ID3D11DeviceContext3),
  G(ID3D11DeviceContext4), G(ID3D11DeviceChild),
  G(ID3D11Resource), G(ID3D11Buffer), G(ID3D11Texture1D), G(ID3D11Texture2D), G(ID3D11Texture2D1),
  G(ID3D11Texture3D), G(ID3D11Texture3D1),
  G(ID3D11View), G(ID3D11ShaderResourceView), G(ID3D11ShaderResourceView1), G(ID3D11RenderTargetView),
  G(ID3D11RenderTargetView1), G(ID3D11DepthStencilView), G(ID3D11UnorderedAccessView),
  G(ID3D11UnorderedAccessView1),
  G(ID3D11VertexShader), G(ID3D11HullShader), G(ID3D11DomainShader), G(ID3D11GeometryShader),
  G(ID3D11PixelShader), G(ID3D11ComputeShader), G(ID3D11InputLayout), G(ID3D11BlendState), G(ID3D11BlendState1),
  G(ID3D11DepthStencilState), G(ID3D11RasterizerState), G(ID3D11RasterizerState1), G(ID3D11RasterizerState2),
  G(ID3D11SamplerState),
  G(ID3D11Asynchronous), G(ID3D11Query), G(ID3D11Query1), G(ID3D11Predicate), G(ID3D11Counter),
  G(ID3D11ClassLinkage), G(ID3D11ClassInstance), G(ID3D11CommandList), G(ID3DDeviceContextState), G(ID3D11Fence),
  G(IDXGIObject), G(IDXGIDevice), G(IDXGIDevice1), G(IDXGIDevice2), G(IDXGIDevice3), G(IDXGIDevice4),
  G(IDXGIDeviceSubObject), G(IDXGIResource), G(IDXGIResource1), G(IDXGISurface), G(IDXGISurface1),
  G(IDXGISurface2),
};
#undef G

static_assert(std::size(kGuids) == size_t(InterfaceId::Count), "one GUID per interface");

const char* const kInterfaceNames[] = {
  "IUnknown",
  "ID3D11Device", "ID3D11Device1", "ID3D11Device2", "ID3D11Device3", "ID3D11Device4", "ID3D11Device5",
  "ID3D11DeviceContext", "ID3D11DeviceContext1", "ID3D11DeviceContext2", "ID3D11DeviceContext3",
  "ID3D11DeviceContext4", "ID3D11DeviceChild",
  "ID3D11Resource", "ID3D11Buffer", "ID3D11Texture1D", "ID3D11Texture2D", "ID3D11Texture2D1",
  "ID3D11Texture3D", "ID3D11Texture3D1",
  "ID3D11View", "ID3D11ShaderResourceView", "ID3D11ShaderResourceView1", "ID3D11RenderTargetView",
  "ID3D11RenderTargetView1", "ID3D11DepthStencilView", "ID3D11UnorderedAccessView", "ID3D11UnorderedAccessView1",
  "ID3D11VertexShader", "ID3D11HullShader", "ID3D11DomainShader", "ID3D11GeometryShader",
  "ID3D11PixelShader", "ID3D11ComputeShader", "ID3D11InputLayout", "ID3D11BlendState", "ID3D11BlendState1",
  "ID3D11DepthStencilState", "ID3D11RasterizerState", "ID3D11RasterizerState1", "ID3D11RasterizerState2",
  "ID3D11SamplerState",
  "ID3D11Asynchronous", "ID3D11Query", "ID3D11Query1", "ID3D11Predicate", "ID3D11Counter",
  "ID3D11ClassLinkage", "ID3D11ClassInstance", "ID3D11CommandList", "ID3DDeviceContextState", "ID3D11Fence",
  "IDXGIObject", "IDXGIDevice", "IDXGIDevice1", "IDXGIDevice2", "IDXGIDevice3", "IDXGIDevice4",
  "IDXGIDeviceSubObject", "IDXGIResource", "IDXGIResource1", "IDXGISurface", "IDXGISurface1", "IDXGISurface2",
};

static_assert(std::size(kInterfaceNames) == size_t(InterfaceId::Count), "one name per interface");

const char* const kTypeNames[] = {
  "Device", "DeviceContext", "Buffer", "Texture1D", "Texture2D", "Texture3D",
  "ShaderResourceView", "RenderTargetView", "DepthStencilView", "UnorderedAccessView",
  "VertexShader", "HullShader", "DomainShader", "GeometryShader", "PixelShader", "ComputeShader",
  "InputLayout", "BlendState", "DepthStencilState", "RasterizerState", "SamplerState",
  "Query", "Predicate", "Counter", "ClassLinkage", "ClassInstance", "CommandList",
  "DeviceContextState", "Fence",
};

static_assert(std::size(kTypeNames) == size_t(ObjectType::Count), "one name per object type");

}  // namespace

const char* objectTypeName(ObjectType type) {
  return size_t(type) < std::size(kTypeNames) ? kTypeNames[size_t(type)] : "?";
}

const char* interfaceName(InterfaceId iface) {
  return size_t(iface) < std::size(kInterfaceNames) ? kInterfaceNames[size_t(iface)] : "?";
}

bool objectImplements(ObjectType type, InterfaceId iface) {
  if (size_t(type) >= std::size(kChains)) return false;
  if (iface == InterfaceId::IUnknown) return true;
  for (InterfaceId candidate : kChains[size_t(type)].interfaces) {
    if (candidate == iface) return true;
  }
  return false;
}

bool interfaceFromGuid(const GUID& guid, InterfaceId& out) {
  for (const GuidEntry& entry : kGuids) {
    if (std::memcmp(&entry.guid, &guid, sizeof(GUID)) == 0) {
      out = entry.iface;
      return true;
    }
  }
  return false;
}

}  // namespace npt::objects
