// The DXGI base functions. Presentation is NOT done yet: Present, RotateResourceIdentities,
// SetDisplayMode and GetGammaCaps answer E_NOTIMPL with a log line (swapchains need
// the Neptune present path). Blts without stretch/convert/rotation, priorities,
// residency, shared-resource resolves and offer/reclaim are translated.

#include "device.h"
#include "entries.h"
#include "log.h"

namespace triton::driver {
namespace {

Device* dxgiDevice(ddi::DXGI_DDI_HDEVICE h) { return reinterpret_cast<Device*>(h); }
Resource* dxgiResource(ddi::DXGI_DDI_HRESOURCE h) { return reinterpret_cast<Resource*>(h); }

HRESULT presentNotDone(const char* entryName) {
  TRITON_LOG(Warn, "%s: presentation is not done yet (E_NOTIMPL)", entryName);
  return E_NOTIMPL;
}

HRESULT overlaysNotSupported(const char* entryName) {
  TRITON_LOG(Warn, "%s: Triton has no multiplane overlays (E_NOTIMPL)", entryName);
  return E_NOTIMPL;
}

HRESULT copyBlt(ddi::DXGI_DDI_HDEVICE hDevice, ddi::DXGI_DDI_HRESOURCE hDst, UINT dstSub, UINT dstLeft, UINT dstTop,
                ddi::DXGI_DDI_HRESOURCE hSrc, UINT srcSub, const D3D11_BOX* srcBox,
                ddi::DXGI_DDI_ARG_BLT_FLAGS flags, ddi::DXGI_DDI_MODE_ROTATION rotation, const char* entryName) {
  Device* d = dxgiDevice(hDevice);
  Resource* dst = dxgiResource(hDst);
  Resource* src = dxgiResource(hSrc);
  if (!d || !dst || !src)
    return E_INVALIDARG;
  if (flags.Convert || flags.Stretch ||
      (rotation != ddi::DXGI_DDI_MODE_ROTATION_UNSPECIFIED && rotation != ddi::DXGI_DDI_MODE_ROTATION_IDENTITY)) {
    TRITON_LOG(Warn, "%s: stretching, converting or rotating blts are not implemented yet (E_NOTIMPL)", entryName);
    return E_NOTIMPL;
  }
  if (flags.Resolve) {
    ComPtr<ID3D11Texture2D> texture;
    D3D11_TEXTURE2D_DESC desc{};
    if (FAILED(dst->resource.As(&texture)))
      return E_INVALIDARG;
    texture->GetDesc(&desc);
    d->context()->ResolveSubresource(dst->resource.Get(), dstSub, src->resource.Get(), srcSub, desc.Format);
    return S_OK;
  }
  d->context()->CopySubresourceRegion(dst->resource.Get(), dstSub, dstLeft, dstTop, 0, src->resource.Get(), srcSub,
                                      srcBox);
  return S_OK;
}

}  // namespace

namespace entry {

HRESULT TRITON_APIENTRY dxgiPresent(ddi::DXGI_DDI_ARG_PRESENT*) { return presentNotDone("DXGI Present"); }
HRESULT TRITON_APIENTRY dxgiGetGammaCaps(ddi::DXGI_DDI_ARG_GET_GAMMA_CONTROL_CAPS*) {
  return presentNotDone("DXGI GetGammaCaps");
}
HRESULT TRITON_APIENTRY dxgiSetDisplayMode(ddi::DXGI_DDI_ARG_SETDISPLAYMODE*) {
  return presentNotDone("DXGI SetDisplayMode");
}
HRESULT TRITON_APIENTRY dxgiRotateResourceIdentities(ddi::DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES*) {
  return presentNotDone("DXGI RotateResourceIdentities");
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
  if (!a)
    return E_INVALIDARG;
  return copyBlt(a->hDevice, a->hDstResource, a->DstSubresource, a->DstLeft, a->DstTop, a->hSrcResource,
                 a->SrcSubresource, nullptr, a->Flags, a->Rotate, "DXGI Blt");
}

HRESULT TRITON_APIENTRY dxgiBlt1(ddi::DXGI_DDI_ARG_BLT1* a) {
  if (!a)
    return E_INVALIDARG;
  const D3D11_BOX box{a->SrcLeft, a->SrcTop, 0, a->SrcRight, a->SrcBottom, 1};
  return copyBlt(a->hDevice, a->hDstResource, a->DstSubresource, a->DstLeft, a->DstTop, a->hSrcResource,
                 a->SrcSubresource, &box, a->Flags, a->Rotate, "DXGI Blt1");
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

}  // namespace entry
}  // namespace triton::driver
