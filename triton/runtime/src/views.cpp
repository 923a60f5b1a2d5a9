// SPDX-License-Identifier: MIT
// Views: the API description, checked and completed by the rules as Windows' runtime does
// (npt/validation/views.h, view_desc.h), onto the DDI's create arguments, which name the
// resource's dimension. The four kinds share one path; what differs between them is the
// data of triton/view_ranges.h (dimension values and where each union keeps the range).

#include "objects.h"
#include "npt/validation/view_desc.h"
#include "npt/validation/views.h"
#include "triton/view_ranges.h"

namespace triton::runtime {
namespace {

using Lock = std::lock_guard<std::recursive_mutex>;

// Creates a driver view object through its CalcPrivate*Size/Create* pair.
template <class View, class Args, class Calc, class Create, class RtHandle, class Interface>
HRESULT createView(Device* device, ID3D11Resource* resource, const typename View::DescType& desc, const Args& args,
                   Calc calc, Create create, RtHandle, Interface** out) {
  auto view = startCreating<View>(device, resource, desc);
  Lock lock(device->lock());
  const SIZE_T size = calc(device->handle(), &args);
  if (!size)
    return E_INVALIDARG;
  view->memory = allocatePrivate(size);
  view->handle.pDrvPrivate = view->memory.get();
  create(device->handle(), &args, view->handle, RtHandle{view.get()});
  const HRESULT hr = device->takeError();
  if (FAILED(hr)) {
    view->handle.pDrvPrivate = nullptr;
    return hr;
  }
  *out = view.release();
  return S_OK;
}

// The shape the rules complete a view description against.
npt::validation::ResourceShape shapeOf(const ResourceInfo& info) {
  npt::validation::ResourceShape shape;
  shape.dimension = info.type;
  shape.format = info.format;
  shape.width = info.width;
  shape.height = info.height;
  shape.depth = info.depth;
  shape.mipLevels = info.mipLevels;
  shape.arraySize = info.arraySize;
  shape.sampleCount = info.sampleCount;
  shape.sampleQuality = info.sampleQuality;
  shape.usage = info.usage;
  shape.bindFlags = info.bindFlags;
  shape.cpuAccessFlags = info.cpuFlags;
  shape.miscFlags = info.miscFlags;
  shape.structureByteStride = info.byteStride;
  return shape;
}

// The API description of a view as Windows' runtime completes it (the caller's, or the
// default view of the whole resource; npt/validation/view_desc.h), with the shape and
// range the DDI arguments are written from.
template <class Desc, class Complete>
bool describe(const views::Kind& kind, const ResourceInfo& info, const Desc* given, Complete complete, Desc& d,
              views::Shape& shape, views::Range& range) {
  if (!complete(shapeOf(info), given, &d) || !views::shapeOf(kind, UINT(d.ViewDimension), &shape))
    return false;
  range = views::readApiRange(kind, shape, d);
  return true;
}

// The DDI arguments every view kind shares: resource, format, the resource's dimension
// and the range in the DDI union (buffers are the caller's).
template <class Args, class Desc>
Args ddiArgs(const views::Kind& kind, const ResourceRef& r, const Desc& d, views::Shape shape, const views::Range& range) {
  Args a{};
  a.hDrvResource = r.handle;
  a.Format = d.Format;
  a.ResourceDimension = r.info->ddiDimension;
  views::writeDdiRange(kind, shape, range, a);
  return a;
}

}  // namespace

HRESULT Device::CreateShaderResourceView(ID3D11Resource* resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* pDesc,
                                         ID3D11ShaderResourceView** out) {
  if (out)
    *out = nullptr;
  const views::Kind& kind = views::kShaderResourceView;
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateShaderResourceView(shapeOf(*r.info), pDesc, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_SHADER_RESOURCE_VIEW_DESC d{};
  views::Shape shape{};
  views::Range range;
  if (!describe(kind, *r.info, pDesc, npt::validation::completeShaderResourceViewDesc<D3D11_SHADER_RESOURCE_VIEW_DESC>, d,
                shape, range))
    return E_INVALIDARG;
  auto a = ddiArgs<ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW>(kind, r, d, shape, range);
  if (shape == views::Shape::Buffer && r.info->ddiDimension == ddi::D3D11DDIRESOURCE_BUFFEREX) {
    a.BufferEx = {{d.Buffer.FirstElement}, {d.Buffer.NumElements}, 0};
  } else if (shape == views::Shape::Buffer) {
    a.Buffer = {{d.Buffer.FirstElement}, {d.Buffer.NumElements}};
  } else if (shape == views::Shape::BufferEx) {
    a.ResourceDimension = ddi::D3D11DDIRESOURCE_BUFFEREX;
    a.BufferEx = {{d.BufferEx.FirstElement}, {d.BufferEx.NumElements},
                  d.BufferEx.Flags & D3D11_BUFFEREX_SRV_FLAG_RAW ? ddi::D3D11_DDI_BUFFEREX_SRV_FLAG_RAW : 0u};
  }
  ShaderResourceView* view = nullptr;
  const HRESULT hr = createView<ShaderResourceView>(this, resource, d, a, ddi().pfnCalcPrivateShaderResourceViewSize,
                                                    ddi().pfnCreateShaderResourceView,
                                                    ddi::D3D10DDI_HRTSHADERRESOURCEVIEW{}, &view);
  *out = view;
  return hr;
}

HRESULT Device::CreateRenderTargetView(ID3D11Resource* resource, const D3D11_RENDER_TARGET_VIEW_DESC* pDesc,
                                       ID3D11RenderTargetView** out) {
  if (out)
    *out = nullptr;
  const views::Kind& kind = views::kRenderTargetView;
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateRenderTargetView(shapeOf(*r.info), pDesc, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_RENDER_TARGET_VIEW_DESC d{};
  views::Shape shape{};
  views::Range range;
  if (!describe(kind, *r.info, pDesc, npt::validation::completeRenderTargetViewDesc<D3D11_RENDER_TARGET_VIEW_DESC>, d,
                shape, range))
    return E_INVALIDARG;
  auto a = ddiArgs<ddi::D3D10DDIARG_CREATERENDERTARGETVIEW>(kind, r, d, shape, range);
  if (shape == views::Shape::Buffer)
    a.Buffer = {{d.Buffer.FirstElement}, {d.Buffer.NumElements}};
  RenderTargetView* view = nullptr;
  const HRESULT hr = createView<RenderTargetView>(this, resource, d, a, ddi().pfnCalcPrivateRenderTargetViewSize,
                                                  ddi().pfnCreateRenderTargetView,
                                                  ddi::D3D10DDI_HRTRENDERTARGETVIEW{}, &view);
  *out = view;
  return hr;
}

HRESULT Device::CreateDepthStencilView(ID3D11Resource* resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* pDesc,
                                       ID3D11DepthStencilView** out) {
  if (out)
    *out = nullptr;
  const views::Kind& kind = views::kDepthStencilView;
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateDepthStencilView(shapeOf(*r.info), pDesc, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_DEPTH_STENCIL_VIEW_DESC d{};
  views::Shape shape{};
  views::Range range;
  if (!describe(kind, *r.info, pDesc, npt::validation::completeDepthStencilViewDesc, d, shape, range))
    return E_INVALIDARG;
  auto a = ddiArgs<ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW>(kind, r, d, shape, range);
  a.Flags = d.Flags & (D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL);   // value-equal
  DepthStencilView* view = nullptr;
  const HRESULT hr = createView<DepthStencilView>(this, resource, d, a, ddi().pfnCalcPrivateDepthStencilViewSize,
                                                  ddi().pfnCreateDepthStencilView,
                                                  ddi::D3D10DDI_HRTDEPTHSTENCILVIEW{}, &view);
  *out = view;
  return hr;
}

HRESULT Device::CreateUnorderedAccessView(ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* pDesc,
                                          ID3D11UnorderedAccessView** out) {
  if (out)
    *out = nullptr;
  const views::Kind& kind = views::kUnorderedAccessView;
  const ResourceRef r = resourceRef(resource);
  if (!r.info)
    return E_INVALIDARG;
  if (const HRESULT hr = refusalOf(npt::validation::validateUnorderedAccessView(shapeOf(*r.info), pDesc, limits())))
    return hr;
  if (!out)
    return S_FALSE;
  D3D11_UNORDERED_ACCESS_VIEW_DESC d{};
  views::Shape shape{};
  views::Range range;
  if (!describe(kind, *r.info, pDesc, npt::validation::completeUnorderedAccessViewDesc<D3D11_UNORDERED_ACCESS_VIEW_DESC>,
                d, shape, range))
    return E_INVALIDARG;
  auto a = ddiArgs<ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW>(kind, r, d, shape, range);
  if (shape == views::Shape::Buffer) {
    // D3D11_DDI_BUFFER_UAV_FLAG_* equal D3D11_BUFFER_UAV_FLAG_* (RAW 1, APPEND 2, COUNTER 4).
    a.Buffer = {d.Buffer.FirstElement, d.Buffer.NumElements,
                d.Buffer.Flags & (D3D11_BUFFER_UAV_FLAG_RAW | D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER)};
  }
  UnorderedAccessView* view = nullptr;
  const HRESULT hr = createView<UnorderedAccessView>(this, resource, d, a,
                                                     ddi().pfnCalcPrivateUnorderedAccessViewSize,
                                                     ddi().pfnCreateUnorderedAccessView,
                                                     ddi::D3D11DDI_HRTUNORDEREDACCESSVIEW{}, &view);
  *out = view;
  return hr;
}

}  // namespace triton::runtime
