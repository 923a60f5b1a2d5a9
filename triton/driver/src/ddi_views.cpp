// SPDX-License-Identifier: MIT
// Views. The DDI names the resource's dimension and the view's range; whether the API
// view is an array or multisampled one follows from the resource (an array resource
// gets an array view, so shaders that declare arrays see arrays). The four kinds share
// one path over triton/view_ranges.h, as the API-level runtime does in the other direction.

#include "device.h"
#include "entries.h"
#include "triton/view_ranges.h"

namespace triton::driver {
namespace {

// The API description of the view the DDI arguments name: the shape follows from the
// resource (views::resourceShape), the range moves from the DDI union to the API union
// by the kind's field tables; buffers carry elements and flags instead.
template <class Args, class Desc>
bool textureDesc(const views::Kind& kind, const Args& a, const Resource& r, Desc& d, views::Shape& shape) {
  d = {};
  d.Format = a.Format;
  if (!views::resourceShape(kind, a.ResourceDimension, r.arraySize, r.sampleCount, &shape))
    return false;
  views::writeApiRange(kind, shape, views::readDdiRange(kind, shape, a), d);
  return true;
}

bool srvDesc(const ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW& a, const Resource& r, D3D11_SHADER_RESOURCE_VIEW_DESC& d) {
  views::Shape shape{};
  if (!textureDesc(views::kShaderResourceView, a, r, d, shape))
    return false;
  if (shape == views::Shape::Buffer) {
    d.Buffer.FirstElement = a.Buffer.FirstElement;
    d.Buffer.NumElements = a.Buffer.NumElements;
  } else if (shape == views::Shape::BufferEx) {
    d.BufferEx.FirstElement = a.BufferEx.FirstElement;
    d.BufferEx.NumElements = a.BufferEx.NumElements;
    d.BufferEx.Flags = a.BufferEx.Flags & ddi::D3D11_DDI_BUFFEREX_SRV_FLAG_RAW ? D3D11_BUFFEREX_SRV_FLAG_RAW : 0;
  }
  return true;
}

bool rtvDesc(const ddi::D3D10DDIARG_CREATERENDERTARGETVIEW& a, const Resource& r, D3D11_RENDER_TARGET_VIEW_DESC& d) {
  views::Shape shape{};
  if (!textureDesc(views::kRenderTargetView, a, r, d, shape))
    return false;
  if (shape == views::Shape::Buffer) {
    d.Buffer.FirstElement = a.Buffer.FirstElement;
    d.Buffer.NumElements = a.Buffer.NumElements;
  }
  return true;
}

bool dsvDesc(const ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW& a, const Resource& r, D3D11_DEPTH_STENCIL_VIEW_DESC& d) {
  views::Shape shape{};
  if (!textureDesc(views::kDepthStencilView, a, r, d, shape))
    return false;
  d.Flags = a.Flags & (D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL);   // value-equal
  return true;
}

bool uavDesc(const ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW& a, const Resource& r, D3D11_UNORDERED_ACCESS_VIEW_DESC& d) {
  views::Shape shape{};
  if (!textureDesc(views::kUnorderedAccessView, a, r, d, shape))
    return false;
  if (shape == views::Shape::Buffer) {
    // D3D11_DDI_BUFFER_UAV_FLAG_* equal D3D11_BUFFER_UAV_FLAG_* (RAW 1, APPEND 2, COUNTER 4).
    d.Buffer = {a.Buffer.FirstElement, a.Buffer.NumElements,
                a.Buffer.Flags & (D3D11_BUFFER_UAV_FLAG_RAW | D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER)};
  }
  return true;
}

// One view kind: its objects, DDI types, API types and target call. The entries below
// are templates over it; fillViewCreation instantiates them for each table member.
struct ShaderResourceViewKind {
  using Object = ShaderResourceView;
  using Args = ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW;
  using Handle = ddi::D3D10DDI_HSHADERRESOURCEVIEW;
  using RtHandle = ddi::D3D10DDI_HRTSHADERRESOURCEVIEW;
  using Desc = D3D11_SHADER_RESOURCE_VIEW_DESC;
  using Api = ID3D11ShaderResourceView;
  static constexpr const char* kEntryName = "CreateShaderResourceView";
  static constexpr auto describe = srvDesc;
  static HRESULT create(ID3D11Device* d, ID3D11Resource* r, const Desc* desc, Api** out) {
    return d->CreateShaderResourceView(r, desc, out);
  }
};

struct RenderTargetViewKind {
  using Object = RenderTargetView;
  using Args = ddi::D3D10DDIARG_CREATERENDERTARGETVIEW;
  using Handle = ddi::D3D10DDI_HRENDERTARGETVIEW;
  using RtHandle = ddi::D3D10DDI_HRTRENDERTARGETVIEW;
  using Desc = D3D11_RENDER_TARGET_VIEW_DESC;
  using Api = ID3D11RenderTargetView;
  static constexpr const char* kEntryName = "CreateRenderTargetView";
  static constexpr auto describe = rtvDesc;
  static HRESULT create(ID3D11Device* d, ID3D11Resource* r, const Desc* desc, Api** out) {
    return d->CreateRenderTargetView(r, desc, out);
  }
};

struct DepthStencilViewKind {
  using Object = DepthStencilView;
  using Args = ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW;
  using Handle = ddi::D3D10DDI_HDEPTHSTENCILVIEW;
  using RtHandle = ddi::D3D10DDI_HRTDEPTHSTENCILVIEW;
  using Desc = D3D11_DEPTH_STENCIL_VIEW_DESC;
  using Api = ID3D11DepthStencilView;
  static constexpr const char* kEntryName = "CreateDepthStencilView";
  static constexpr auto describe = dsvDesc;
  static HRESULT create(ID3D11Device* d, ID3D11Resource* r, const Desc* desc, Api** out) {
    return d->CreateDepthStencilView(r, desc, out);
  }
};

struct UnorderedAccessViewKind {
  using Object = UnorderedAccessView;
  using Args = ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW;
  using Handle = ddi::D3D11DDI_HUNORDEREDACCESSVIEW;
  using RtHandle = ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW;
  using Desc = D3D11_UNORDERED_ACCESS_VIEW_DESC;
  using Api = ID3D11UnorderedAccessView;
  static constexpr const char* kEntryName = "CreateUnorderedAccessView";
  static constexpr auto describe = uavDesc;
  static HRESULT create(ID3D11Device* d, ID3D11Resource* r, const Desc* desc, Api** out) {
    return d->CreateUnorderedAccessView(r, desc, out);
  }
};

template <class Kind>
SIZE_T TRITON_APIENTRY calcPrivateViewSize(ddi::D3D10DDI_HDEVICE, const typename Kind::Args*) {
  return sizeof(typename Kind::Object);
}

template <class Kind>
void TRITON_APIENTRY createView(ddi::D3D10DDI_HDEVICE hDevice, const typename Kind::Args* a, typename Kind::Handle hView,
                                typename Kind::RtHandle) {
  Device* d = deviceOf(hDevice);
  Resource* r = a ? resourceOf(a->hDrvResource) : nullptr;
  typename Kind::Desc desc;
  if (!r || !hView.pDrvPrivate || !Kind::describe(*a, *r, desc)) {
    d->setError(E_INVALIDARG);
    return;
  }
  ComPtr<typename Kind::Api> view;
  const HRESULT hr = Kind::create(d->device(), r->resource.Get(), &desc, &view);
  if (FAILED(hr)) {
    d->targetFailed(Kind::kEntryName, hr);
    return;
  }
  (new (hView.pDrvPrivate) typename Kind::Object)->view = std::move(view);
}

template <class Kind>
void TRITON_APIENTRY destroyView(ddi::D3D10DDI_HDEVICE, typename Kind::Handle h) {
  destroyObject<typename Kind::Object>(h.pDrvPrivate);
}

template <class Table>
void fillViewCreationMembers(Table& t) {
  t.pfnCalcPrivateShaderResourceViewSize = calcPrivateViewSize<ShaderResourceViewKind>;
  t.pfnCreateShaderResourceView = createView<ShaderResourceViewKind>;
  t.pfnDestroyShaderResourceView = destroyView<ShaderResourceViewKind>;
  t.pfnCalcPrivateRenderTargetViewSize = calcPrivateViewSize<RenderTargetViewKind>;
  t.pfnCreateRenderTargetView = createView<RenderTargetViewKind>;
  t.pfnDestroyRenderTargetView = destroyView<RenderTargetViewKind>;
  t.pfnCalcPrivateDepthStencilViewSize = calcPrivateViewSize<DepthStencilViewKind>;
  t.pfnCreateDepthStencilView = createView<DepthStencilViewKind>;
  t.pfnDestroyDepthStencilView = destroyView<DepthStencilViewKind>;
  t.pfnCalcPrivateUnorderedAccessViewSize = calcPrivateViewSize<UnorderedAccessViewKind>;
  t.pfnCreateUnorderedAccessView = createView<UnorderedAccessViewKind>;
  t.pfnDestroyUnorderedAccessView = destroyView<UnorderedAccessViewKind>;
}

}  // namespace

void fillViewCreation(ddi::D3D11DDI_DEVICEFUNCS& t) { fillViewCreationMembers(t); }
void fillViewCreation(ddi::D3D11_1DDI_DEVICEFUNCS& t) { fillViewCreationMembers(t); }

}  // namespace triton::driver
