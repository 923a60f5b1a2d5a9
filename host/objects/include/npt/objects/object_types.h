// SPDX-License-Identifier: MIT
#pragma once

// The kinds of objects a context owns, and the COM interfaces each kind answers to.
// QueryInterface over the wire is resolved against these chains: an object answers
// exactly the interfaces its chain lists (plus IUnknown).

#include <cstdint>

#include "npt/d3d11_api.h"

namespace npt::objects {

enum class ObjectType : uint8_t {
  Device, DeviceContext,
  Buffer, Texture1D, Texture2D, Texture3D,
  ShaderResourceView, RenderTargetView, DepthStencilView, UnorderedAccessView,
  VertexShader, HullShader, DomainShader, GeometryShader, PixelShader, ComputeShader,
  InputLayout, BlendState, DepthStencilState, RasterizerState, SamplerState,
  Query, Predicate, Counter, ClassLinkage, ClassInstance, CommandList,
  DeviceContextState, Fence,
  Count,
};

enum class InterfaceId : uint8_t {
  IUnknown,
  // D3D11 device and contexts
  ID3D11Device, ID3D11Device1, ID3D11Device2, ID3D11Device3, ID3D11Device4, ID3D11Device5,
  ID3D11DeviceContext, ID3D11DeviceContext1, ID3D11DeviceContext2, ID3D11DeviceContext3,
  ID3D11DeviceContext4,
  ID3D11DeviceChild,
  // resources
  ID3D11Resource, ID3D11Buffer, ID3D11Texture1D, ID3D11Texture2D, ID3D11Texture2D1,
  ID3D11Texture3D, ID3D11Texture3D1,
  // views
  ID3D11View, ID3D11ShaderResourceView, ID3D11ShaderResourceView1, ID3D11RenderTargetView,
  ID3D11RenderTargetView1, ID3D11DepthStencilView, ID3D11UnorderedAccessView,
  ID3D11UnorderedAccessView1,
  // shaders and state
  ID3D11VertexShader, ID3D11HullShader, ID3D11DomainShader, ID3D11GeometryShader,
  ID3D11PixelShader, ID3D11ComputeShader, ID3D11InputLayout, ID3D11BlendState,
  ID3D11BlendState1, ID3D11DepthStencilState, ID3D11RasterizerState, ID3D11RasterizerState1,
  ID3D11RasterizerState2, ID3D11SamplerState,
  // asynchronous and misc
  ID3D11Asynchronous, ID3D11Query, ID3D11Query1, ID3D11Predicate, ID3D11Counter,
  ID3D11ClassLinkage, ID3D11ClassInstance, ID3D11CommandList, ID3DDeviceContextState,
  ID3D11Fence,
  // DXGI faces of D3D11 objects
  IDXGIObject, IDXGIDevice, IDXGIDevice1, IDXGIDevice2, IDXGIDevice3, IDXGIDevice4,
  IDXGIDeviceSubObject, IDXGIResource, IDXGIResource1, IDXGISurface, IDXGISurface1,
  IDXGISurface2,
  Count,
};

const char* objectTypeName(ObjectType type);
const char* interfaceName(InterfaceId iface);

// Whether an object of `type` answers QueryInterface for `iface`.
bool objectImplements(ObjectType type, InterfaceId iface);

// The interface a GUID names; false for GUIDs this layer does not know.
bool interfaceFromGuid(const GUID& guid, InterfaceId& out);

}  // namespace npt::objects
