// SPDX-License-Identifier: MIT
// The DXGI base functions: Present and DXGI 1.3's Present1 onto the target's present
// path (dxgi_present.h),
// Blt/Blt1 as copies, resolves or drawn blits (stretch, format conversion, rotation:
// dxgi_blit.h), identity rotation as a rotation of contents, gamma caps from the target's
// output, priorities, residency, shared-resource resolves and offer/reclaim.
// SetDisplayMode (exclusive fullscreen) and the multiplane-overlay members refuse, each
// with one log line; WDDM 2.0's residency trim has nothing to trim.

#include <algorithm>
#include <vector>

#include <dxgi.h>

#include "device.h"
#include "dxgi_present.h"
#include "entries.h"
#include "log.h"
#include "translate.h"

namespace triton::driver {
namespace {

Device* dxgiDevice(ddi::DXGI_DDI_HDEVICE h) { return reinterpret_cast<Device*>(h); }
Resource* dxgiResource(ddi::DXGI_DDI_HRESOURCE h) { return reinterpret_cast<Resource*>(h); }

HRESULT overlaysNotSupported(const char* entryName) {
  TRITON_LOG(Warn, "%s: Triton has no multiplane overlays (E_NOTIMPL)", entryName);
  return E_NOTIMPL;
}

bool isIdentity(ddi::DXGI_DDI_MODE_ROTATION rotation) {
  return rotation == ddi::DXGI_DDI_MODE_ROTATION_UNSPECIFIED || rotation == ddi::DXGI_DDI_MODE_ROTATION_IDENTITY;
}

// The size of a texture subresource (buffers and other dimensions: false).
bool subresourceSize(ID3D11Resource* resource, UINT subresource, UINT& width, UINT& height) {
  ComPtr<ID3D11Texture2D> texture;
  if (FAILED(resource->QueryInterface(IID_PPV_ARGS(&texture))))
    return false;
  D3D11_TEXTURE2D_DESC desc{};
  texture->GetDesc(&desc);
  if (subresource >= desc.MipLevels * desc.ArraySize)
    return false;
  const UINT mip = subresource % desc.MipLevels;
  width = std::max(1u, desc.Width >> mip);
  height = std::max(1u, desc.Height >> mip);
  return true;
}

// Blt and Blt1: a resolve, a copy when nothing changes size, format or orientation,
// otherwise a drawn blit. srcRect null: the whole source subresource.
HRESULT blt(ddi::DXGI_DDI_HDEVICE hDevice, ddi::DXGI_DDI_HRESOURCE hDst, UINT dstSub, const BlitRect& dstRect,
            ddi::DXGI_DDI_HRESOURCE hSrc, UINT srcSub, const BlitRect* srcRect, ddi::DXGI_DDI_ARG_BLT_FLAGS flags,
            ddi::DXGI_DDI_MODE_ROTATION rotation, const char* entryName) {
  Device* d = dxgiDevice(hDevice);
  Resource* dst = dxgiResource(hDst);
  Resource* src = dxgiResource(hSrc);
  if (!d || !dst || !src || !d->presenter())
    return E_INVALIDARG;
  UINT srcWidth = 0, srcHeight = 0;
  if (!subresourceSize(src->resource.Get(), srcSub, srcWidth, srcHeight))
    return E_INVALIDARG;
  const BlitRect source = srcRect ? *srcRect : BlitRect{0, 0, srcWidth, srcHeight};
  const bool drawn = flags.Stretch || flags.Convert || !isIdentity(rotation);
  if (flags.Resolve && !drawn) {
    ComPtr<ID3D11Texture2D> texture;
    D3D11_TEXTURE2D_DESC desc{};
    if (FAILED(dst->resource.As(&texture)))
      return E_INVALIDARG;
    texture->GetDesc(&desc);
    d->context()->ResolveSubresource(dst->resource.Get(), dstSub, src->resource.Get(), srcSub, desc.Format);
    return S_OK;
  }
  // A resolve that also stretches, converts or rotates is drawn too: the blitter resolves
  // the source into a scratch texture first.
  if (!drawn) {
    const D3D11_BOX box{source.left, source.top, 0, source.right, source.bottom, 1};
    d->context()->CopySubresourceRegion(dst->resource.Get(), dstSub, dstRect.left, dstRect.top, 0,
                                        src->resource.Get(), srcSub, &box);
    return S_OK;
  }
  const HRESULT hr = d->presenter()->blitter().blit(d->context(), dst->resource.Get(), dstSub, dstRect,
                                                    src->resource.Get(), srcSub, source, rotation, flags.Stretch);
  if (hr == E_NOTIMPL)
    TRITON_LOG(Warn, "%s: a drawn blit needs a source format the target samples and a "
               "destination format it renders to (E_NOTIMPL)", entryName);
  return hr == E_NOTIMPL || hr == E_INVALIDARG ? hr : runtimeError(hr);
}

// The destination rectangle of a Blt: as given, or (empty, as for a plain copy) the
// source's size at DstLeft/DstTop.
BlitRect destinationRect(UINT left, UINT top, UINT right, UINT bottom, UINT srcWidth, UINT srcHeight) {
  if (right > left && bottom > top)
    return {left, top, right, bottom};
  return {left, top, left + srcWidth, top + srcHeight};
}

// Present and Present1: with a destination (a primary, fullscreen) the surface is
// copied there first and the primary is shown.
HRESULT presentSurface(ddi::DXGI_DDI_HDEVICE hDevice, ddi::DXGI_DDI_HRESOURCE hSurface, UINT srcSub,
                       ddi::DXGI_DDI_HRESOURCE hDst, UINT dstSub, ddi::DXGI_DDI_FLIP_INTERVAL_TYPE flipInterval,
                       void* dxgiContext) {
  Device* d = dxgiDevice(hDevice);
  Resource* surface = dxgiResource(hSurface);
  if (!d || !surface || !d->presenter())
    return E_INVALIDARG;
  Resource* shown = surface;
  if (Resource* primary = dxgiResource(hDst)) {
    d->context()->CopySubresourceRegion(primary->resource.Get(), dstSub, 0, 0, 0, surface->resource.Get(), srcSub,
                                        nullptr);
    shown = primary;
  }
  const HRESULT hr = d->presenter()->present(shown->resource.Get(), flipInterval, dxgiContext);
  if (hr == ddi::D3DDDIERR_DEVICEREMOVED)
    d->checkTargetAlive();
  return hr;
}

// Present1's list: every surface named, the last one shown.
HRESULT presentLastSurface(ddi::DXGI_DDI_HDEVICE hDevice, const ddi::DXGI_DDI_ARG_PRESENTSURFACE* surfaces,
                           UINT count, ddi::DXGI_DDI_HRESOURCE hDst, UINT dstSub,
                           ddi::DXGI_DDI_FLIP_INTERVAL_TYPE flipInterval, void* dxgiContext) {
  if (!surfaces || !count)
    return E_INVALIDARG;
  for (UINT i = 0; i < count; ++i)
    if (!surfaces[i].hSurface)
      return E_INVALIDARG;
  const ddi::DXGI_DDI_ARG_PRESENTSURFACE& last = surfaces[count - 1];
  return presentSurface(hDevice, last.hSurface, last.SubResourceIndex, hDst, dstSub, flipInterval, dxgiContext);
}

}  // namespace

namespace entry {

// Present (blt model: Flags.Blt, flip model: Flags.Flip): with a destination (a
// primary, fullscreen) the surface is copied there first and the primary is shown.
HRESULT TRITON_APIENTRY dxgiPresent(ddi::DXGI_DDI_ARG_PRESENT* a) {
  if (!a)
    return E_INVALIDARG;
  return presentSurface(a->hDevice, a->hSurfaceToPresent, a->SrcSubResourceIndex, a->hDstResource,
                        a->DstSubResourceIndex, a->FlipInterval, a->pDXGIContext);
}

// Present1 (DXGI 1.3): the same present of a list of surfaces. With several, the
// destination is null and "the driver must only translate the last source resource
// handle" for the present callback: the last one is shown. Dirty rectangles are a hint
// the driver "is not required to use" and must never fail on: the whole surface is
// presented (the host presenter shows whole buffers).
HRESULT TRITON_APIENTRY dxgiPresent1(ddi::DXGI_DDI_ARG_PRESENT1* a) {
  if (!a)
    return E_INVALIDARG;
  return presentLastSurface(a->hDevice, a->phSurfacesToPresent, a->SurfacesToPresent, a->hDstResource,
                            a->DstSubResourceIndex, a->FlipInterval, a->pDXGIContext);
}

// DXGI 1.6.1's Present1: the same, with a rotation hint in place of the reserved word.
// The hint says the application rendered the frame rotated against scanout so that a
// display engine could skip a rotation; the host presenter shows buffers as they are
// (no scanout orientation to match), so there is nothing to skip and nothing to undo.
HRESULT TRITON_APIENTRY dxgiPresent1_6_1(ddi::DXGI1_6_1_DDI_ARG_PRESENT* a) {
  if (!a)
    return E_INVALIDARG;
  return presentLastSurface(a->hDevice, a->phSurfacesToPresent, a->SurfacesToPresent, a->hDstResource,
                            a->DstSubResourceIndex, a->FlipInterval, a->pDXGIContext);
}

// Custom present durations (IDXGISwapChainMedia): the host presenter has no refresh
// rates to switch between. Both closest durations 0 is the documented "cannot switch
// seamlessly" answer, which the API passes on as such.
HRESULT TRITON_APIENTRY dxgiCheckPresentDurationSupport(ddi::DXGI_DDI_ARG_CHECKPRESENTDURATIONSUPPORT* a) {
  if (!a || !dxgiDevice(a->hDevice))
    return E_INVALIDARG;
  a->ClosestSmallerDuration = 0;
  a->ClosestLargerDuration = 0;
  return S_OK;
}

// Software gamma: the target's output answers when it can; otherwise (no DXGI output
// behind the target) the caps of a plain 1025-point ramp over [0, 1] without scale and
// offset, which any ramp the runtime sets can be applied with.
HRESULT TRITON_APIENTRY dxgiGetGammaCaps(ddi::DXGI_DDI_ARG_GET_GAMMA_CONTROL_CAPS* a) {
  Device* d = a ? dxgiDevice(a->hDevice) : nullptr;
  if (!d || !a->pGammaCapabilities)
    return E_INVALIDARG;
  ComPtr<IDXGIDevice> dxgiDevice;
  ComPtr<IDXGIAdapter> adapter;
  ComPtr<IDXGIOutput> output;
  if (SUCCEEDED(d->device()->QueryInterface(IID_PPV_ARGS(&dxgiDevice))) &&
      SUCCEEDED(dxgiDevice->GetAdapter(&adapter)) && SUCCEEDED(adapter->EnumOutputs(0, &output)) &&
      SUCCEEDED(output->GetGammaControlCapabilities(a->pGammaCapabilities)))
    return S_OK;
  DXGI_GAMMA_CONTROL_CAPABILITIES& caps = *a->pGammaCapabilities;
  caps = {};
  caps.ScaleAndOffsetSupported = FALSE;
  caps.MinConvertedValue = 0.0f;
  caps.MaxConvertedValue = 1.0f;
  caps.NumGammaControlPoints = 1025;
  for (UINT i = 0; i < caps.NumGammaControlPoints; ++i)
    caps.ControlPointPositions[i] = float(i) / 1024.0f;
  return S_OK;
}

// Exclusive fullscreen: the host presenter shows frames in a window (or headless) and
// has no display mode to set, as the Neptune swapchain's SetFullscreenState says; a
// null resource (leaving fullscreen) has nothing to undo.
HRESULT TRITON_APIENTRY dxgiSetDisplayMode(ddi::DXGI_DDI_ARG_SETDISPLAYMODE* a) {
  if (!a || !dxgiDevice(a->hDevice))
    return E_INVALIDARG;
  if (!a->hResource)
    return S_OK;
  TRITON_LOG(Warn, "DXGI SetDisplayMode: the host presenter has no exclusive fullscreen "
             "(DXGI_ERROR_NOT_CURRENTLY_AVAILABLE)");
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

// Each handle takes the identity of the next, the last the first's. Views of the
// target resources stay with their resources, so the contents rotate instead (one
// scratch copy and one copy per resource on the GPU), which every view then sees.
HRESULT TRITON_APIENTRY dxgiRotateResourceIdentities(ddi::DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES* a) {
  Device* d = a ? dxgiDevice(a->hDevice) : nullptr;
  if (!d || (a->Resources && !a->pResources))
    return E_INVALIDARG;
  if (a->Resources < 2)
    return S_OK;
  std::vector<ID3D11Resource*> resources;
  for (UINT i = 0; i < a->Resources; ++i) {
    Resource* r = dxgiResource(a->pResources[i]);
    if (!r)
      return E_INVALIDARG;
    resources.push_back(r->resource.Get());
  }
  ComPtr<ID3D11Texture2D> first;
  D3D11_TEXTURE2D_DESC desc{};
  if (FAILED(resources[0]->QueryInterface(IID_PPV_ARGS(&first))))
    return E_INVALIDARG;
  first->GetDesc(&desc);
  for (ID3D11Resource* r : resources) {
    ComPtr<ID3D11Texture2D> texture;
    D3D11_TEXTURE2D_DESC other{};
    if (FAILED(r->QueryInterface(IID_PPV_ARGS(&texture))))
      return E_INVALIDARG;
    texture->GetDesc(&other);
    if (other.Width != desc.Width || other.Height != desc.Height || other.Format != desc.Format ||
        other.MipLevels != desc.MipLevels || other.ArraySize != desc.ArraySize ||
        other.SampleDesc.Count != desc.SampleDesc.Count)
      return E_INVALIDARG;
  }
  D3D11_TEXTURE2D_DESC scratchDesc = desc;
  scratchDesc.Usage = D3D11_USAGE_DEFAULT;
  scratchDesc.BindFlags = 0;
  scratchDesc.CPUAccessFlags = 0;
  scratchDesc.MiscFlags = 0;
  ComPtr<ID3D11Texture2D> scratch;
  const HRESULT hr = d->device()->CreateTexture2D(&scratchDesc, nullptr, &scratch);
  if (FAILED(hr))
    return runtimeError(hr);
  ID3D11DeviceContext* c = d->context();
  c->CopyResource(scratch.Get(), resources[0]);
  for (size_t i = 0; i + 1 < resources.size(); ++i)
    c->CopyResource(resources[i], resources[i + 1]);
  c->CopyResource(resources.back(), scratch.Get());
  return S_OK;
}

HRESULT TRITON_APIENTRY dxgiSetResourcePriority(ddi::DXGI_DDI_ARG_SETRESOURCEPRIORITY* a) {
  Resource* r = a ? dxgiResource(a->hResource) : nullptr;
  if (!r)
    return E_INVALIDARG;
  r->resource->SetEvictionPriority(a->Priority);
  return S_OK;
}

HRESULT TRITON_APIENTRY dxgiQueryResourceResidency(ddi::DXGI_DDI_ARG_QUERYRESOURCERESIDENCY* a) {
  if (!a || (a->Resources && (!a->pResources || !a->pStatus)))
    return E_INVALIDARG;
  // Target resources are resident whenever the target device is alive.
  for (SIZE_T i = 0; i < a->Resources; ++i)
    a->pStatus[i] = ddi::DXGI_DDI_RESIDENCY_FULLY_RESIDENT;
  return S_OK;
}

HRESULT TRITON_APIENTRY dxgiBlt(ddi::DXGI_DDI_ARG_BLT* a) {
  Resource* src = a ? dxgiResource(a->hSrcResource) : nullptr;
  UINT width = 0, height = 0;
  if (!src || !subresourceSize(src->resource.Get(), a->SrcSubresource, width, height))
    return E_INVALIDARG;
  return blt(a->hDevice, a->hDstResource, a->DstSubresource,
             destinationRect(a->DstLeft, a->DstTop, a->DstRight, a->DstBottom, width, height), a->hSrcResource,
             a->SrcSubresource, nullptr, a->Flags, a->Rotate, "DXGI Blt");
}

HRESULT TRITON_APIENTRY dxgiBlt1(ddi::DXGI_DDI_ARG_BLT1* a) {
  if (!a || a->SrcRight <= a->SrcLeft || a->SrcBottom <= a->SrcTop)
    return E_INVALIDARG;
  const BlitRect source{a->SrcLeft, a->SrcTop, a->SrcRight, a->SrcBottom};
  return blt(a->hDevice, a->hDstResource, a->DstSubresource,
             destinationRect(a->DstLeft, a->DstTop, a->DstRight, a->DstBottom, source.right - source.left,
                             source.bottom - source.top),
             a->hSrcResource, a->SrcSubresource, &source, a->Flags, a->Rotate, "DXGI Blt1");
}

// The runtime resolves a shared resource before another device uses it: the driver
// submits what it has recorded that may write it. Triton's recording is the target
// context's, so a flush of that context is the whole resolve.
HRESULT TRITON_APIENTRY dxgiResolveSharedResource(ddi::DXGI_DDI_ARG_RESOLVESHAREDRESOURCE* a) {
  Device* d = a ? dxgiDevice(a->hDevice) : nullptr;
  if (!d || !dxgiResource(a->hResource))
    return E_INVALIDARG;
  d->context()->Flush();
  return S_OK;
}

// Offering lets the driver drop contents; keeping them is always allowed, so a
// reclaim reports every resource intact.
HRESULT TRITON_APIENTRY dxgiOfferResources(ddi::DXGI_DDI_ARG_OFFERRESOURCES* a) {
  return a ? S_OK : E_INVALIDARG;
}

HRESULT TRITON_APIENTRY dxgiReclaimResources(ddi::DXGI_DDI_ARG_RECLAIMRESOURCES* a) {
  if (!a)
    return E_INVALIDARG;
  for (UINT i = 0; a->pDiscarded && i < a->Resources; ++i)
    a->pDiscarded[i] = FALSE;
  return S_OK;
}

// WDDM 2.1's forms: AllowDecommit lets the driver give the memory back too, which
// keeping everything never needs; each reclaim result is OK (contents kept, committed).
HRESULT TRITON_APIENTRY dxgiOfferResources1(ddi::DXGI_DDI_ARG_OFFERRESOURCES1* a) {
  if (!a || !dxgiDevice(a->hDevice) || (a->Resources && !a->pResources))
    return E_INVALIDARG;
  return S_OK;
}

HRESULT TRITON_APIENTRY dxgiReclaimResources1(ddi::DXGI_DDI_ARG_RECLAIMRESOURCES1* a) {
  if (!a || !dxgiDevice(a->hDevice) || (a->Resources && (!a->pResources || !a->pResults)))
    return E_INVALIDARG;
  for (UINT i = 0; i < a->Resources; ++i)
    a->pResults[i] = ddi::D3DDDI_RECLAIM_RESULT_OK;
  return S_OK;
}

// Multiplane overlays: Triton exposes no overlay plane, so the kernel side reports none
// and the runtime has no reason to call these; each refuses with one log line.
HRESULT TRITON_APIENTRY dxgiGetMultiplaneOverlayCaps(ddi::DXGI_DDI_ARG_GETMULTIPLANEOVERLAYCAPS*) {
  return overlaysNotSupported("DXGI GetMultiplaneOverlayCaps");
}
HRESULT TRITON_APIENTRY dxgiGetMultiplaneOverlayFilterRange(ddi::DXGI_DDI_ARG_GETMULTIPLANEOVERLAYFILTERRANGE*) {
  return overlaysNotSupported("DXGI GetMultiplaneOverlayFilterRange");
}
HRESULT TRITON_APIENTRY dxgiCheckMultiplaneOverlaySupport(ddi::DXGI_DDI_ARG_CHECKMULTIPLANEOVERLAYSUPPORT*) {
  return overlaysNotSupported("DXGI CheckMultiplaneOverlaySupport");
}
HRESULT TRITON_APIENTRY dxgiPresentMultiplaneOverlay(ddi::DXGI_DDI_ARG_PRESENTMULTIPLANEOVERLAY*) {
  return overlaysNotSupported("DXGI PresentMultiplaneOverlay");
}
HRESULT TRITON_APIENTRY dxgiGetMultiplaneOverlayGroupCaps(ddi::DXGI_DDI_ARG_GETMULTIPLANEOVERLAYGROUPCAPS*) {
  return overlaysNotSupported("DXGI GetMultiplaneOverlayGroupCaps");
}
HRESULT TRITON_APIENTRY dxgiCheckMultiplaneOverlayColorSpaceSupport(
    ddi::DXGI_DDI_ARG_CHECKMULTIPLANEOVERLAYCOLORSPACESUPPORT*) {
  return overlaysNotSupported("DXGI CheckMultiplaneOverlayColorSpaceSupport");
}
HRESULT TRITON_APIENTRY dxgiPresentMultiplaneOverlay1(ddi::DXGI_DDI_ARG_PRESENTMULTIPLANEOVERLAY1*) {
  return overlaysNotSupported("DXGI PresentMultiplaneOverlay1");
}
HRESULT TRITON_APIENTRY dxgiPresentMultiplaneOverlay1_6_1(ddi::DXGI1_6_1_DDI_ARG_PRESENTMULTIPLANEOVERLAY*) {
  return overlaysNotSupported("DXGI PresentMultiplaneOverlay1 (DXGI 1.6.1)");
}

// WDDM 2.0's residency management: the kernel asks the driver to evict what it made
// resident (periodically, or to get under the process's budget). Triton makes nothing
// resident: its resources are the target device's, without kernel allocations, and it
// never calls pfnMakeResidentCb, so its residency set is empty whatever the flags ask.
HRESULT TRITON_APIENTRY dxgiTrimResidencySet(ddi::DXGI_DDI_ARG_TRIMRESIDENCYSET* a) {
  if (!a || !dxgiDevice(a->hDevice))
    return E_INVALIDARG;
  return S_OK;
}

}  // namespace entry
}  // namespace triton::driver
