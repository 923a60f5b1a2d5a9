// SPDX-License-Identifier: MIT
// Copies, clears, resolves, mip generation and discards: regions and subresources are
// checked against the shapes the host recorded, views against their resources.
#include <cmath>

#include "npt/executor/executor.h"
#include "npt/validation/context_calls.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

namespace {

// The channels of an unordered-access format that ClearView clears with integers.
struct IntegerChannels {
  bool isSigned = false;
  uint8_t bits[4] = {};   // 0: the format has no such channel
};

// Raw (R32_TYPELESS) and structured (UNKNOWN) buffer views hold 32-bit words: ClearView
// takes them as integral values too (the float clear is not defined on them).
bool integerChannels(DXGI_FORMAT format, IntegerChannels* out) {
  auto set = [&](bool isSigned, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    *out = {isSigned, {r, g, b, a}};
    return true;
  };
  switch (format) {
  case DXGI_FORMAT_R32G32B32A32_UINT: return set(false, 32, 32, 32, 32);
  case DXGI_FORMAT_R32G32B32A32_SINT: return set(true, 32, 32, 32, 32);
  case DXGI_FORMAT_R32G32B32_UINT: return set(false, 32, 32, 32, 0);
  case DXGI_FORMAT_R32G32B32_SINT: return set(true, 32, 32, 32, 0);
  case DXGI_FORMAT_R16G16B16A16_UINT: return set(false, 16, 16, 16, 16);
  case DXGI_FORMAT_R16G16B16A16_SINT: return set(true, 16, 16, 16, 16);
  case DXGI_FORMAT_R32G32_UINT: return set(false, 32, 32, 0, 0);
  case DXGI_FORMAT_R32G32_SINT: return set(true, 32, 32, 0, 0);
  case DXGI_FORMAT_R10G10B10A2_UINT: return set(false, 10, 10, 10, 2);
  case DXGI_FORMAT_R8G8B8A8_UINT: return set(false, 8, 8, 8, 8);
  case DXGI_FORMAT_R8G8B8A8_SINT: return set(true, 8, 8, 8, 8);
  case DXGI_FORMAT_R16G16_UINT: return set(false, 16, 16, 0, 0);
  case DXGI_FORMAT_R16G16_SINT: return set(true, 16, 16, 0, 0);
  case DXGI_FORMAT_R32_UINT: return set(false, 32, 0, 0, 0);
  case DXGI_FORMAT_R32_SINT: return set(true, 32, 0, 0, 0);
  case DXGI_FORMAT_R8G8_UINT: return set(false, 8, 8, 0, 0);
  case DXGI_FORMAT_R8G8_SINT: return set(true, 8, 8, 0, 0);
  case DXGI_FORMAT_R16_UINT: return set(false, 16, 0, 0, 0);
  case DXGI_FORMAT_R16_SINT: return set(true, 16, 0, 0, 0);
  case DXGI_FORMAT_R8_UINT: return set(false, 8, 0, 0, 0);
  case DXGI_FORMAT_R8_SINT: return set(true, 8, 0, 0, 0);
  case DXGI_FORMAT_R32_TYPELESS:
  case DXGI_FORMAT_UNKNOWN: return set(false, 32, 32, 32, 32);
  default: return false;
  }
}

// ClearUnorderedAccessViewUint writes "the lower n bits" of each value to a channel of n
// bits. Handing the backend only those bits is the same clear on Windows and wined3d, and
// the only form DXVK-native gets right: it passes the whole 32-bit value to Vulkan, where
// a value out of the channel's range is undefined (lavapipe and NVIDIA saturate it, so -128
// of an R8_SINT channel, 0xFFFFFF80, read back as -1).
UINT lowBits(UINT value, unsigned bits) {
  return bits >= 32 ? value : value & ((1u << bits) - 1);
}

// ClearView's rule for integer formats (ID3D11DeviceContext1::ClearView remarks): the
// floats are integral values, rounded toward zero (235.7f -> 235), values out of the
// channel's range and +-INF clamped to it, NaN -> 0. The result is in the form
// ClearUnorderedAccessViewUint takes: the channel's bits of the value, so a negative value
// is its two's complement.
UINT integralClearValue(float value, bool isSigned, unsigned bits) {
  if (bits == 0 || std::isnan(value)) return 0;
  const double lowest = isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
  const double highest = isSigned ? std::ldexp(1.0, int(bits) - 1) - 1 : std::ldexp(1.0, int(bits)) - 1;
  const double integral = std::fmin(std::fmax(std::trunc(double(value)), lowest), highest);
  return lowBits(isSigned ? UINT(int32_t(int64_t(integral))) : UINT(uint64_t(integral)), bits);
}

}  // namespace

void Executor::ID3D11DeviceContext_CopyResource(ObjectId self, ObjectId pDstResource, ObjectId pSrcResource) {
  const char* method = "CopyResource";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11Resource *dst = nullptr, *src = nullptr;
  Record *dstRecord = nullptr, *srcRecord = nullptr;
  if (!context || !resolveAs(pDstResource, InterfaceId::ID3D11Resource, false, method, &dst, &dstRecord) ||
      !resolveAs(pSrcResource, InterfaceId::ID3D11Resource, false, method, &src, &srcRecord))
    return;
  if (!sameDevice(dstRecord, device, pDstResource, method) || !sameDevice(srcRecord, device, pSrcResource, method)) return;
  if (!admit(validation::validateCopyResource(static_cast<ResourceState*>(dstRecord)->shape,
                                              static_cast<ResourceState*>(srcRecord)->shape, dst == src),
             method))
    return;
  context->CopyResource(dst, src);
  noteWrite(self, context, dst);
}

void Executor::copyRegion(const char* method, ObjectId self, ObjectId pDst, UINT dstSub, UINT x, UINT y, UINT z,
                          ObjectId pSrc, UINT srcSub, const D3D11_BOX* box, UINT copyFlags, bool version1) {
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  ID3D11Resource *dst = nullptr, *src = nullptr;
  Record *dstRecord = nullptr, *srcRecord = nullptr;
  if (!context || !resolveAs(pDst, InterfaceId::ID3D11Resource, false, method, &dst, &dstRecord) ||
      !resolveAs(pSrc, InterfaceId::ID3D11Resource, false, method, &src, &srcRecord))
    return;
  if (!sameDevice(dstRecord, device, pDst, method) || !sameDevice(srcRecord, device, pSrc, method)) return;
  validation::CopyRegionArgs args;
  args.dstSubresource = dstSub;
  args.dstX = x;
  args.dstY = y;
  args.dstZ = z;
  args.srcSubresource = srcSub;
  args.srcBox = box;
  if (!admit(validation::validateCopySubresourceRegion(static_cast<ResourceState*>(dstRecord)->shape,
                                                       static_cast<ResourceState*>(srcRecord)->shape, dst == src, args),
             method))
    return;
  if (version1) {
    // D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD are the only flags.
    if (copyFlags & ~UINT(D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD))
      return drop(method, "unknown copy flags 0x%x", copyFlags);
    // The flags are promises about the destination's use (performance hints): a backend
    // without ID3D11DeviceContext1 makes the plain copy, which keeps both promises.
    if (state->context1)
      state->context1->CopySubresourceRegion1(dst, dstSub, x, y, z, src, srcSub, box, copyFlags);
    else
      context->CopySubresourceRegion(dst, dstSub, x, y, z, src, srcSub, box);
  } else {
    context->CopySubresourceRegion(dst, dstSub, x, y, z, src, srcSub, box);
  }
  noteWrite(self, context, dst);
}

void Executor::ID3D11DeviceContext_CopySubresourceRegion(ObjectId self, ObjectId pDstResource, UINT DstSubresource,
                                                         UINT DstX, UINT DstY, UINT DstZ, ObjectId pSrcResource,
                                                         UINT SrcSubresource, const D3D11_BOX* pSrcBox) {
  copyRegion("CopySubresourceRegion", self, pDstResource, DstSubresource, DstX, DstY, DstZ, pSrcResource,
             SrcSubresource, pSrcBox, 0, false);
}

void Executor::ID3D11DeviceContext1_CopySubresourceRegion1(ObjectId self, ObjectId pDstResource, UINT DstSubresource,
                                                           UINT DstX, UINT DstY, UINT DstZ, ObjectId pSrcResource,
                                                           UINT SrcSubresource, const D3D11_BOX* pSrcBox,
                                                           UINT CopyFlags) {
  copyRegion("CopySubresourceRegion1", self, pDstResource, DstSubresource, DstX, DstY, DstZ, pSrcResource,
             SrcSubresource, pSrcBox, CopyFlags, true);
}

void Executor::ID3D11DeviceContext_CopyStructureCount(ObjectId self, ObjectId pDstBuffer, UINT DstAlignedByteOffset,
                                                      ObjectId pSrcView) {
  const char* method = "CopyStructureCount";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11Buffer* dst = nullptr;
  ID3D11UnorderedAccessView* view = nullptr;
  Record *dstRecord = nullptr, *viewRecord = nullptr;
  if (!context || !resolveAs(pDstBuffer, InterfaceId::ID3D11Buffer, false, method, &dst, &dstRecord) ||
      !resolveAs(pSrcView, InterfaceId::ID3D11UnorderedAccessView, false, method, &view, &viewRecord))
    return;
  if (!sameDevice(dstRecord, device, pDstBuffer, method) || !sameDevice(viewRecord, device, pSrcView, method)) return;
  const auto& shape = static_cast<ResourceState*>(dstRecord)->shape;
  if (DstAlignedByteOffset % 4 || uint64_t(DstAlignedByteOffset) + 4 > shape.width)
    return drop(method, "offset %u of a %u-byte buffer", DstAlignedByteOffset, shape.width);
  context->CopyStructureCount(dst, DstAlignedByteOffset, view);
  noteWrite(self, context, dst);
}

void Executor::ID3D11DeviceContext_ClearRenderTargetView(ObjectId self, ObjectId pRenderTargetView,
                                                         const FLOAT* ColorRGBA) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "ClearRenderTargetView", &device);
  ID3D11RenderTargetView* view = nullptr;
  Record* record = nullptr;
  if (!context ||
      !resolveAs(pRenderTargetView, InterfaceId::ID3D11RenderTargetView, false, "ClearRenderTargetView", &view, &record))
    return;
  if (!sameDevice(record, device, pRenderTargetView, "ClearRenderTargetView")) return;
  context->ClearRenderTargetView(view, ColorRGBA);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext_ClearUnorderedAccessViewUint(ObjectId self, ObjectId pView, const UINT* Values) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "ClearUnorderedAccessViewUint", &device);
  ID3D11UnorderedAccessView* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pView, InterfaceId::ID3D11UnorderedAccessView, false, "ClearUnorderedAccessViewUint", &view,
                             &record))
    return;
  if (!sameDevice(record, device, pView, "ClearUnorderedAccessViewUint")) return;
  UINT lowValues[4];
  const UINT* values = Values;
  IntegerChannels channels;
  if (integerChannels(static_cast<ViewState*>(record)->format, &channels)) {
    for (int i = 0; i < 4; i++) lowValues[i] = lowBits(Values[i], channels.bits[i] ? channels.bits[i] : 32);
    values = lowValues;
  }
  context->ClearUnorderedAccessViewUint(view, values);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext_ClearUnorderedAccessViewFloat(ObjectId self, ObjectId pView, const FLOAT* Values) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "ClearUnorderedAccessViewFloat", &device);
  ID3D11UnorderedAccessView* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pView, InterfaceId::ID3D11UnorderedAccessView, false, "ClearUnorderedAccessViewFloat",
                             &view, &record))
    return;
  if (!sameDevice(record, device, pView, "ClearUnorderedAccessViewFloat")) return;
  context->ClearUnorderedAccessViewFloat(view, Values);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext_ClearDepthStencilView(ObjectId self, ObjectId pDepthStencilView, UINT ClearFlags,
                                                         FLOAT Depth, UINT8 Stencil) {
  const char* method = "ClearDepthStencilView";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11DepthStencilView* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pDepthStencilView, InterfaceId::ID3D11DepthStencilView, false, method, &view, &record))
    return;
  if (!sameDevice(record, device, pDepthStencilView, method) ||
      !admit(validation::validateClearDepthStencil(ClearFlags, Depth), method))
    return;
  context->ClearDepthStencilView(view, ClearFlags, Depth, Stencil);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext_GenerateMips(ObjectId self, ObjectId pShaderResourceView) {
  const char* method = "GenerateMips";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11ShaderResourceView* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pShaderResourceView, InterfaceId::ID3D11ShaderResourceView, false, method, &view, &record))
    return;
  if (!sameDevice(record, device, pShaderResourceView, method) ||
      !admit(validation::validateGenerateMips(static_cast<ViewState*>(record)->resource), method))
    return;
  context->GenerateMips(view);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext_SetResourceMinLOD(ObjectId self, ObjectId pResource, FLOAT MinLOD) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "SetResourceMinLOD", &device);
  ID3D11Resource* resource = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pResource, InterfaceId::ID3D11Resource, false, "SetResourceMinLOD", &resource, &record))
    return;
  if (!sameDevice(record, device, pResource, "SetResourceMinLOD")) return;
  context->SetResourceMinLOD(resource, MinLOD);
}

void Executor::ID3D11DeviceContext_ResolveSubresource(ObjectId self, ObjectId pDstResource, UINT DstSubresource,
                                                      ObjectId pSrcResource, UINT SrcSubresource, DXGI_FORMAT Format) {
  const char* method = "ResolveSubresource";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11Resource *dst = nullptr, *src = nullptr;
  Record *dstRecord = nullptr, *srcRecord = nullptr;
  if (!context || !resolveAs(pDstResource, InterfaceId::ID3D11Resource, false, method, &dst, &dstRecord) ||
      !resolveAs(pSrcResource, InterfaceId::ID3D11Resource, false, method, &src, &srcRecord))
    return;
  if (!sameDevice(dstRecord, device, pDstResource, method) || !sameDevice(srcRecord, device, pSrcResource, method)) return;
  if (!admit(validation::validateResolveSubresource(static_cast<ResourceState*>(dstRecord)->shape, DstSubresource,
                                                    static_cast<ResourceState*>(srcRecord)->shape, SrcSubresource,
                                                    Format),
             method))
    return;
  context->ResolveSubresource(dst, DstSubresource, src, SrcSubresource, Format);
  noteWrite(self, context, dst);
}

void Executor::ID3D11DeviceContext1_DiscardResource(ObjectId self, ObjectId pResource) {
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "DiscardResource", &device, &state);
  ID3D11Resource* resource = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pResource, InterfaceId::ID3D11Resource, false, "DiscardResource", &resource, &record)) return;
  if (!sameDevice(record, device, pResource, "DiscardResource")) return;
  // Discarding is a hint: a backend without ID3D11DeviceContext1 keeps the contents.
  if (!state->context1) return log("DiscardResource: ignored (backend without ID3D11DeviceContext1)");
  state->context1->DiscardResource(resource);
  noteWrite(self, context, resource);
}

void Executor::ID3D11DeviceContext1_DiscardView(ObjectId self, ObjectId pResourceView) {
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "DiscardView", &device, &state);
  ID3D11View* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pResourceView, InterfaceId::ID3D11View, false, "DiscardView", &view, &record)) return;
  if (!sameDevice(record, device, pResourceView, "DiscardView")) return;
  if (!state->context1) return log("DiscardView: ignored (backend without ID3D11DeviceContext1)");
  state->context1->DiscardView(view);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext1_DiscardView1(ObjectId self, ObjectId pResourceView, const RECT* pRects,
                                                 UINT NumRects) {
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "DiscardView1", &device, &state);
  ID3D11View* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pResourceView, InterfaceId::ID3D11View, false, "DiscardView1", &view, &record)) return;
  if (!sameDevice(record, device, pResourceView, "DiscardView1")) return;
  if (!state->context1) return log("DiscardView1: ignored (backend without ID3D11DeviceContext1)");
  if (NumRects && !pRects) return drop("DiscardView1", "%u rects without an array", NumRects);
  state->context1->DiscardView1(view, NumRects ? pRects : nullptr, NumRects);
  noteViewWrite(self, context, view);
}

void Executor::ID3D11DeviceContext1_ClearView(ObjectId self, ObjectId pView, const FLOAT* Color, const RECT* pRect,
                                              UINT NumRects) {
  const char* method = "ClearView";
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  ID3D11View* view = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pView, InterfaceId::ID3D11View, false, method, &view, &record)) return;
  if (!sameDevice(record, device, pView, method)) return;
  // Render targets and unordered-access views only (and video views, not remoted).
  const ObjectType type = static_cast<ViewState*>(record)->viewType;
  if (type != ObjectType::RenderTargetView && type != ObjectType::UnorderedAccessView)
    return drop(method, "view %u is a %s", pView, objects::objectTypeName(type));
  // A NULL array with a count would be read by the backend (and here): no runtime sends it.
  if (NumRects && !pRect) return drop(method, "%u rects without an array", NumRects);
  for (UINT i = 0; i < NumRects; i++)
    if (pRect[i].left > pRect[i].right || pRect[i].top > pRect[i].bottom)
      return drop(method, "rect %u is inverted", i);
  // A whole-view clear is the 11.0 clear of its kind on every backend: the documented result
  // is the same, and Wine 8's ClearView is a stub that clears nothing. Integer UAVs get the
  // integral values of the colour through the integer clear (the float clear would convert
  // them as floats).
  IntegerChannels channels;
  if (NumRects == 0 && type == ObjectType::RenderTargetView) {
    context->ClearRenderTargetView(static_cast<ID3D11RenderTargetView*>(view), Color);
  } else if (NumRects == 0 && integerChannels(static_cast<ViewState*>(record)->format, &channels)) {
    UINT values[4];
    for (int i = 0; i < 4; i++) values[i] = integralClearValue(Color[i], channels.isSigned, channels.bits[i]);
    context->ClearUnorderedAccessViewUint(static_cast<ID3D11UnorderedAccessView*>(view), values);
  } else if (NumRects == 0) {
    context->ClearUnorderedAccessViewFloat(static_cast<ID3D11UnorderedAccessView*>(view), Color);
  } else if (state->context1) {
    state->context1->ClearView(view, Color, pRect, NumRects);
  } else {
    return drop(method, "rects on a backend without ID3D11DeviceContext1");
  }
  noteViewWrite(self, context, view);
}

}  // namespace npt::executor
