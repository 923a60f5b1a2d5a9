// SPDX-License-Identifier: MIT
#pragma once

// The driver-private objects. The runtime sizes each one through the matching
// CalcPrivate*Size call, owns the memory and hands it back as the handle's
// pDrvPrivate; Create* constructs the object in place only once the target object
// exists (a failed create leaves nothing to destroy: the runtime frees the memory
// without calling Destroy*), Destroy* runs the destructor.

#include <d3d11_1.h>
#include <wrl/client.h>

#include <new>

#include "triton/ddi/ddi.h"

namespace triton::driver {

using Microsoft::WRL::ComPtr;
namespace ddi = triton::ddi;

struct Resource {
  ComPtr<ID3D11Resource> resource;
  ddi::D3D10DDIRESOURCE_TYPE dimension{};
  UINT arraySize = 1;          // array slices (six per cube)
  UINT mipLevels = 1;
  UINT sampleCount = 1;
  UINT usage = 0;              // D3D10_DDI_RESOURCE_USAGE
  ddi::D3D10DDI_HRTRESOURCE runtimeHandle{};
  bool ownsKernelResource = false;   // created shared: its kernel allocation is freed on destroy
};

struct ShaderResourceView { ComPtr<ID3D11ShaderResourceView> view; };
struct RenderTargetView { ComPtr<ID3D11RenderTargetView> view; };
struct DepthStencilView { ComPtr<ID3D11DepthStencilView> view; };
struct UnorderedAccessView { ComPtr<ID3D11UnorderedAccessView> view; };

enum class ShaderStage { Vertex, Hull, Domain, Geometry, Pixel, Compute };

struct Shader {
  ComPtr<ID3D11DeviceChild> shader;
  ShaderStage stage{};
  UINT interfaceSlots = 0;   // slots its dcl_interface declarations cover (created with the class linkage)
};

struct ElementLayout { ComPtr<ID3D11InputLayout> layout; };
struct BlendState { ComPtr<ID3D11BlendState> state; };
struct DepthStencilState { ComPtr<ID3D11DepthStencilState> state; };
struct RasterizerState { ComPtr<ID3D11RasterizerState> state; };
struct SamplerState { ComPtr<ID3D11SamplerState> state; };

struct Query {
  ComPtr<ID3D11Asynchronous> query;
  ddi::D3D10DDI_QUERY type{};
  UINT targetDataSize = 0;     // what the target's GetData returns
};

// Handle -> object. A null handle (pDrvPrivate == nullptr) gives nullptr.
template <class Object, class Handle>
Object* objectOf(Handle handle) {
  return static_cast<Object*>(handle.pDrvPrivate);
}

inline Resource* resourceOf(ddi::D3D10DDI_HRESOURCE h) { return objectOf<Resource>(h); }

// The target object behind a handle, or nullptr for a null handle.
template <class Object, class Handle>
auto targetOf(Handle handle) -> decltype(objectOf<Object>(handle)->view.Get()) {
  Object* object = objectOf<Object>(handle);
  return object ? object->view.Get() : nullptr;
}

template <class Object>
void destroyObject(void* memory) {
  if (memory)
    static_cast<Object*>(memory)->~Object();
}

}  // namespace triton::driver
