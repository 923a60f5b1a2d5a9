// SPDX-License-Identifier: MIT
#include "npt/validation/views.h"

#include "npt/validation/format_table.h"

namespace npt::validation {

namespace {

// What every view kind reduces to once its union member has been picked.
struct ViewRange {
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  bool multisampled = false;
  bool cube = false;
  uint32_t firstMip = 0;
  uint32_t mipCount = 1;          // UINT32_MAX: all remaining
  uint32_t firstSlice = 0;
  uint32_t sliceCount = 1;        // UINT32_MAX: all remaining (RTV/UAV 3D WSize)
  uint32_t firstElement = 0;      // buffers
  uint32_t elementCount = 0;
};

// The view descs name their per-dimension members alike (RTV/DSV/UAV: MipSlice, SRV:
// MostDetailedMip/MipLevels; arrays add FirstArraySlice/ArraySize): one reader per shape.
template <typename Member>
ViewRange oneMip(D3D11_RESOURCE_DIMENSION dimension, const Member& member) {
  ViewRange range;
  range.dimension = dimension;
  range.firstMip = member.MipSlice;
  return range;
}

template <typename Member>
ViewRange oneMipOfSlices(D3D11_RESOURCE_DIMENSION dimension, const Member& member) {
  ViewRange range = oneMip(dimension, member);
  range.firstSlice = member.FirstArraySlice;
  range.sliceCount = member.ArraySize;
  return range;
}

template <typename Member>
ViewRange mips(D3D11_RESOURCE_DIMENSION dimension, const Member& member) {
  ViewRange range;
  range.dimension = dimension;
  range.firstMip = member.MostDetailedMip;
  range.mipCount = member.MipLevels;
  return range;
}

template <typename Member>
ViewRange mipsOfSlices(D3D11_RESOURCE_DIMENSION dimension, const Member& member) {
  ViewRange range = mips(dimension, member);
  range.firstSlice = member.FirstArraySlice;
  range.sliceCount = member.ArraySize;
  return range;
}

ViewRange multisampled2D() {
  ViewRange range;
  range.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
  range.multisampled = true;
  return range;
}

template <typename Member>
ViewRange multisampled2DSlices(const Member& member) {
  ViewRange range = multisampled2D();
  range.firstSlice = member.FirstArraySlice;
  range.sliceCount = member.ArraySize;
  return range;
}

// RTV and UAV: one mip of a 3D texture, a range of its depth (WSize -1: all remaining).
template <typename Member>
ViewRange oneMipOfDepth(const Member& member) {
  ViewRange range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE3D, member);
  range.firstSlice = member.FirstWSlice;
  range.sliceCount = member.WSize;
  return range;
}

Check checkRanges(const ResourceShape& resource, const ViewRange& view) {
  if (view.dimension != resource.dimension)
    return Check::reject(Rule::ViewDimension, "view dimension does not match resource dimension %u",
                         unsigned(resource.dimension));
  if (view.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) return Check::pass();
  // A multisampled view of a single-sampled texture is valid (Windows creates it: Wine's d3d11
  // suite lists TEXTURE2DMS and TEXTURE2DMSARRAY views of such textures among the valid SRV,
  // RTV and DSV descs); the other way round is not.
  if (!view.multisampled && resource.sampleCount > 1)
    return Check::reject(Rule::ViewDimension, "single-sampled view of a multisampled resource");
  if (view.cube && !(resource.miscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE))
    return Check::reject(Rule::ViewDimension, "cube view of a resource created without TEXTURECUBE");
  if (view.firstMip >= resource.mipLevels)
    return Check::reject(Rule::ViewMipRange, "first mip %u of %u", view.firstMip, resource.mipLevels);
  if (view.mipCount != UINT32_MAX &&
      (view.mipCount == 0 || uint64_t(view.firstMip) + view.mipCount > resource.mipLevels))
    return Check::reject(Rule::ViewMipRange, "mips %u+%u of %u", view.firstMip, view.mipCount, resource.mipLevels);

  const bool is3D = resource.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
  const uint32_t slices = is3D ? resource.mipDepth(view.firstMip) : resource.arraySize;
  if (view.firstSlice >= slices)
    return Check::reject(is3D ? Rule::ViewDepthRange : Rule::ViewArrayRange, "first slice %u of %u", view.firstSlice,
                         slices);
  if (view.sliceCount != UINT32_MAX &&
      (view.sliceCount == 0 || uint64_t(view.firstSlice) + view.sliceCount > slices))
    return Check::reject(is3D ? Rule::ViewDepthRange : Rule::ViewArrayRange, "slices %u+%u of %u", view.firstSlice,
                         view.sliceCount, slices);
  return Check::pass();
}

// Buffer views: element size from the format (typed), 4 (raw) or the stride (structured).
Check checkBufferElements(const ResourceShape& resource, DXGI_FORMAT format, bool raw, uint32_t first, uint32_t count,
                          bool allowZero) {
  const bool structured = resource.miscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;
  uint32_t elementSize = 0;
  if (raw) {
    if (format != DXGI_FORMAT_R32_TYPELESS)
      return Check::reject(Rule::ViewRawBuffer, "raw views need R32_TYPELESS");
    if (!(resource.miscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS))
      return Check::reject(Rule::ViewRawBuffer, "raw view of a buffer created without ALLOW_RAW_VIEWS");
    elementSize = 4;
  } else if (structured) {
    if (format != DXGI_FORMAT_UNKNOWN)
      return Check::reject(Rule::ViewStructuredBuffer, "views of structured buffers need DXGI_FORMAT_UNKNOWN");
    elementSize = resource.structureByteStride;
  } else {
    const FormatInfo* info = lookupFormat(format);
    if (!info || info->is(FormatTypeless) || info->is(FormatCompressed) || info->is(FormatDepth) ||
        info->is(FormatVideo) || info->blockWidth != 1 || info->blockHeight != 1)
      return Check::reject(Rule::ViewFormat, "format %u cannot view a typed buffer", unsigned(format));
    elementSize = info->blockBytes;
  }
  if (!elementSize)
    return Check::reject(Rule::ViewStructuredBuffer, "buffer has no element size");
  const uint64_t elements = resource.width / elementSize;
  if ((count == 0 && !allowZero) || uint64_t(first) + count > elements)
    return Check::reject(Rule::ViewBufferRange, "elements %u+%u of %llu (element size %u)", first, count,
                         (unsigned long long)elements, elementSize);
  return Check::pass();
}

// The view format against the resource format: a typed resource only takes its own
// format; a typeless one any member of its family; a planar one a format of one plane.
Check checkDefaultFormat(const ResourceShape& resource);

// A texture view's format: a desc's UNKNOWN stands for the resource's own.
DXGI_FORMAT textureViewFormat(const ResourceShape& resource, DXGI_FORMAT requested) {
  return requested == DXGI_FORMAT_UNKNOWN ? DXGI_FORMAT(resource.format) : requested;
}

Check checkFormat(const ResourceShape& resource, DXGI_FORMAT viewFormat, bool allowDepthView) {
  if (resource.isBuffer()) return Check::pass();
  // A desc's UNKNOWN format stands for the resource's own, as for a default view (Windows
  // and Wine create such views: Wine's d3d11 suite, test_render_target_views).
  if (viewFormat == DXGI_FORMAT_UNKNOWN) return checkDefaultFormat(resource);
  const FormatInfo* view = lookupFormat(viewFormat);
  if (!view) return Check::reject(Rule::ViewFormat, "view format %u is not a DXGI format", unsigned(viewFormat));
  const FormatInfo* planar = lookupFormat(resource.format);
  if (planar && planar->is(FormatPlanar)) {
    if (planeOfViewFormat(resource.format, viewFormat) < 0)
      return Check::reject(Rule::ViewFormat, "view format %s views no plane of %s", view->name, planar->name);
    return Check::pass();
  }
  const bool typelessView = view->is(FormatTypeless) && !(allowDepthView && view->is(FormatDepthView));
  if (typelessView)
    return Check::reject(Rule::ViewFormat, "view format %s is typeless", view->name);
  const FormatInfo* res = lookupFormat(resource.format);
  if (!res) return Check::reject(Rule::ViewFormat, "resource has no format");
  if (!res->is(FormatTypeless)) {
    if (viewFormat != resource.format)
      return Check::reject(Rule::ViewFormat, "view format %s differs from typed resource format %s", view->name,
                           res->name);
  } else if (!formatsShareFamily(viewFormat, resource.format)) {
    return Check::reject(Rule::ViewFormat, "view format %s is not in the family of %s", view->name, res->name);
  }
  return Check::pass();
}

// Default views (null desc) take the resource's format, which must then be typed.
Check checkDefaultFormat(const ResourceShape& resource) {
  if (resource.isBuffer())
    return resource.miscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED
        ? Check::pass()
        : Check::reject(Rule::ViewFormat, "a default view of a non-structured buffer needs a desc");
  const FormatInfo* res = lookupFormat(resource.format);
  if (!res || res->is(FormatTypeless))
    return Check::reject(Rule::ViewFormat, "a default view of a typeless resource needs a desc");
  if (res->is(FormatPlanar))
    return Check::reject(Rule::ViewFormat, "a view of planar %s needs a desc with the format of a plane", res->name);
  return Check::pass();
}

}  // namespace

int planeOfViewFormat(DXGI_FORMAT resourceFormat, DXGI_FORMAT viewFormat) {
  switch (resourceFormat) {
    case DXGI_FORMAT_NV12:
    case DXGI_FORMAT_NV11:
      if (viewFormat == DXGI_FORMAT_R8_UNORM || viewFormat == DXGI_FORMAT_R8_UINT) return 0;
      if (viewFormat == DXGI_FORMAT_R8G8_UNORM || viewFormat == DXGI_FORMAT_R8G8_UINT) return 1;
      return -1;
    case DXGI_FORMAT_P010:
    case DXGI_FORMAT_P016:
      if (viewFormat == DXGI_FORMAT_R16_UNORM || viewFormat == DXGI_FORMAT_R16_UINT) return 0;
      if (viewFormat == DXGI_FORMAT_R16G16_UNORM || viewFormat == DXGI_FORMAT_R16G16_UINT) return 1;
      return -1;
    default:
      return -1;
  }
}

Check validateViewPlane(const ResourceShape& resource, DXGI_FORMAT viewFormat, uint32_t planeSlice) {
  const FormatInfo* info = lookupFormat(resource.format);
  if (!info || !info->is(FormatPlanar)) {
    if (planeSlice != 0)
      return Check::reject(Rule::ViewPlaneSlice, "plane slice %u of a resource that is not planar", planeSlice);
    return Check::pass();
  }
  const int plane = planeOfViewFormat(resource.format, viewFormat);
  if (plane < 0) return Check::pass();   // the format check refuses it
  if (planeSlice != uint32_t(plane)) {
    const FormatInfo* view = lookupFormat(viewFormat);
    return Check::reject(Rule::ViewPlaneSlice, "plane slice %u, but %s views plane %d of %s", planeSlice,
                         view ? view->name : "?", plane, info->name);
  }
  return Check::pass();
}

Check validateShaderResourceView(const ResourceShape& resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* desc,
                                 const DeviceLimits& limits) {
  if (!(resource.bindFlags & D3D11_BIND_SHADER_RESOURCE))
    return Check::reject(Rule::ViewBindFlag, "resource was not created with BIND_SHADER_RESOURCE");
  if (!desc) {
    NPT_CHECK(checkDefaultFormat(resource));
    if (resource.isBuffer())
      return checkBufferElements(resource, DXGI_FORMAT_UNKNOWN, false, 0,
                                 resource.structureByteStride ? resource.width / resource.structureByteStride : 0, false);
    return Check::pass();
  }

  ViewRange range;
  switch (desc->ViewDimension) {
    case D3D11_SRV_DIMENSION_BUFFER:
      range.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
      NPT_CHECK(checkRanges(resource, range));
      return checkBufferElements(resource, desc->Format, false, desc->Buffer.FirstElement, desc->Buffer.NumElements, false);
    case D3D11_SRV_DIMENSION_BUFFEREX:
      range.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
      NPT_CHECK(checkRanges(resource, range));
      if (desc->BufferEx.Flags & ~uint32_t(D3D11_BUFFEREX_SRV_FLAG_RAW))
        return Check::reject(Rule::ViewFlags, "unknown BufferEx flags %#x", desc->BufferEx.Flags);
      return checkBufferElements(resource, desc->Format, desc->BufferEx.Flags & D3D11_BUFFEREX_SRV_FLAG_RAW,
                                 desc->BufferEx.FirstElement, desc->BufferEx.NumElements, false);
    case D3D11_SRV_DIMENSION_TEXTURE1D:
      range = mips(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1D);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1DARRAY:
      range = mipsOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1DArray);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2D:
      range = mips(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2D);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
      range = mipsOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2DArray);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMS:
      range = multisampled2D();
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY:
      range = multisampled2DSlices(desc->Texture2DMSArray);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE3D:
      range = mips(D3D11_RESOURCE_DIMENSION_TEXTURE3D, desc->Texture3D);
      range.sliceCount = UINT32_MAX;   // an SRV sees the whole depth
      break;
    case D3D11_SRV_DIMENSION_TEXTURECUBE:
      range = mips(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->TextureCube);
      range.cube = true;
      range.sliceCount = 6;
      break;
    case D3D11_SRV_DIMENSION_TEXTURECUBEARRAY: {
      range = mips(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->TextureCubeArray);
      range.cube = true;
      range.firstSlice = desc->TextureCubeArray.First2DArrayFace;
      // NumCubes -1: every whole cube from the first face on (as Windows reads it: Wine's d3d11
      // suite, test_create_shader_resource_view).
      const uint32_t numCubes = desc->TextureCubeArray.NumCubes != UINT32_MAX ? desc->TextureCubeArray.NumCubes
                              : range.firstSlice < resource.arraySize ? (resource.arraySize - range.firstSlice) / 6
                                                                       : 0;
      const uint64_t faces = uint64_t(numCubes) * 6;
      if (numCubes == 0 || faces + range.firstSlice > resource.arraySize)
        return Check::reject(Rule::ViewCubeRange, "%u cubes from face %u exceed %u slices",
                             desc->TextureCubeArray.NumCubes, range.firstSlice, resource.arraySize);
      range.sliceCount = uint32_t(faces);
      break;
    }
    default:
      return Check::reject(Rule::ViewDimension, "invalid SRV dimension %u", unsigned(desc->ViewDimension));
  }
  // MipLevels -1 means "all mips from MostDetailedMip".
  if (range.mipCount == UINT32_MAX && range.firstMip < resource.mipLevels) range.mipCount = resource.mipLevels - range.firstMip;
  NPT_CHECK(checkRanges(resource, range));
  return checkFormat(resource, desc->Format, /*allowDepthView=*/true);
}

Check validateRenderTargetView(const ResourceShape& resource, const D3D11_RENDER_TARGET_VIEW_DESC* desc,
                               const DeviceLimits& limits) {
  if (!(resource.bindFlags & D3D11_BIND_RENDER_TARGET))
    return Check::reject(Rule::ViewBindFlag, "resource was not created with BIND_RENDER_TARGET");
  if (!desc) {
    if (resource.isBuffer()) return Check::reject(Rule::ViewFormat, "a render target view of a buffer needs a desc");
    NPT_CHECK(checkDefaultFormat(resource));
    return Check::pass();
  }
  ViewRange range;
  switch (desc->ViewDimension) {
    case D3D11_RTV_DIMENSION_BUFFER:
      range.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
      NPT_CHECK(checkRanges(resource, range));
      return checkBufferElements(resource, desc->Format, false, desc->Buffer.FirstElement, desc->Buffer.NumElements, false);
    case D3D11_RTV_DIMENSION_TEXTURE1D:
      range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1D);
      break;
    case D3D11_RTV_DIMENSION_TEXTURE1DARRAY:
      range = oneMipOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1DArray);
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2D:
      range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2D);
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
      range = oneMipOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2DArray);
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2DMS:
      range = multisampled2D();
      break;
    case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
      range = multisampled2DSlices(desc->Texture2DMSArray);
      break;
    case D3D11_RTV_DIMENSION_TEXTURE3D:
      range = oneMipOfDepth(desc->Texture3D);
      break;
    default:
      return Check::reject(Rule::ViewDimension, "invalid RTV dimension %u", unsigned(desc->ViewDimension));
  }
  NPT_CHECK(checkRanges(resource, range));
  NPT_CHECK(checkFormat(resource, desc->Format, false));
  const FormatInfo* info = lookupFormat(textureViewFormat(resource, desc->Format));
  if (!info->is(FormatRenderable))
    return Check::reject(Rule::ViewFormat, "%s cannot be a render target", info->name);
  return Check::pass();
}

Check validateDepthStencilView(const ResourceShape& resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                               const DeviceLimits& limits) {
  if (!(resource.bindFlags & D3D11_BIND_DEPTH_STENCIL))
    return Check::reject(Rule::ViewBindFlag, "resource was not created with BIND_DEPTH_STENCIL");
  if (!desc) return checkDefaultFormat(resource);

  if (desc->Flags & ~uint32_t(D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL))
    return Check::reject(Rule::ViewFlags, "unknown DSV flags %#x", desc->Flags);
  const DXGI_FORMAT format = textureViewFormat(resource, desc->Format);
  const FormatInfo* info = lookupFormat(format);
  if (!info || !info->is(FormatDepth))
    return Check::reject(Rule::ViewFormat, "format %u is not a depth format", unsigned(format));
  if ((desc->Flags & D3D11_DSV_READ_ONLY_STENCIL) && !info->is(FormatStencil))
    return Check::reject(Rule::ViewFlags, "READ_ONLY_STENCIL with stencil-less format %s", info->name);

  ViewRange range;
  switch (desc->ViewDimension) {
    case D3D11_DSV_DIMENSION_TEXTURE1D:
      range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1D);
      break;
    case D3D11_DSV_DIMENSION_TEXTURE1DARRAY:
      range = oneMipOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1DArray);
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2D:
      range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2D);
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2DARRAY:
      range = oneMipOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2DArray);
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2DMS:
      range = multisampled2D();
      break;
    case D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY:
      range = multisampled2DSlices(desc->Texture2DMSArray);
      break;
    default:
      return Check::reject(Rule::ViewDimension, "invalid DSV dimension %u", unsigned(desc->ViewDimension));
  }
  NPT_CHECK(checkRanges(resource, range));
  return checkFormat(resource, desc->Format, false);
}

Check validateUnorderedAccessView(const ResourceShape& resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc,
                                  const DeviceLimits& limits) {
  if (!(resource.bindFlags & D3D11_BIND_UNORDERED_ACCESS))
    return Check::reject(Rule::ViewBindFlag, "resource was not created with BIND_UNORDERED_ACCESS");
  if (!desc) {
    NPT_CHECK(checkDefaultFormat(resource));
    if (resource.isBuffer())
      return checkBufferElements(resource, DXGI_FORMAT_UNKNOWN, false, 0,
                                 resource.structureByteStride ? resource.width / resource.structureByteStride : 0, false);
    return Check::pass();
  }
  ViewRange range;
  switch (desc->ViewDimension) {
    case D3D11_UAV_DIMENSION_BUFFER: {
      range.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
      NPT_CHECK(checkRanges(resource, range));
      const uint32_t flags = desc->Buffer.Flags;
      if (flags & ~uint32_t(D3D11_BUFFER_UAV_FLAG_RAW | D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER))
        return Check::reject(Rule::ViewFlags, "unknown buffer UAV flags %#x", flags);
      const bool raw = flags & D3D11_BUFFER_UAV_FLAG_RAW;
      const bool counter = flags & (D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER);
      if ((flags & D3D11_BUFFER_UAV_FLAG_APPEND) && (flags & D3D11_BUFFER_UAV_FLAG_COUNTER))
        return Check::reject(Rule::ViewFlags, "APPEND and COUNTER are exclusive");
      if (counter && (raw || !(resource.miscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED)))
        return Check::reject(Rule::ViewFlags, "APPEND/COUNTER need a structured buffer view");
      return checkBufferElements(resource, desc->Format, raw, desc->Buffer.FirstElement, desc->Buffer.NumElements, false);
    }
    case D3D11_UAV_DIMENSION_TEXTURE1D:
      range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1D);
      break;
    case D3D11_UAV_DIMENSION_TEXTURE1DARRAY:
      range = oneMipOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE1D, desc->Texture1DArray);
      break;
    case D3D11_UAV_DIMENSION_TEXTURE2D:
      range = oneMip(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2D);
      break;
    case D3D11_UAV_DIMENSION_TEXTURE2DARRAY:
      range = oneMipOfSlices(D3D11_RESOURCE_DIMENSION_TEXTURE2D, desc->Texture2DArray);
      break;
    case D3D11_UAV_DIMENSION_TEXTURE3D:
      range = oneMipOfDepth(desc->Texture3D);
      break;
    default:
      return Check::reject(Rule::ViewDimension, "invalid UAV dimension %u", unsigned(desc->ViewDimension));
  }
  NPT_CHECK(checkRanges(resource, range));
  NPT_CHECK(checkFormat(resource, desc->Format, false));
  const FormatInfo* info = lookupFormat(textureViewFormat(resource, desc->Format));
  if (!info->is(FormatRenderable))
    return Check::reject(Rule::ViewFormat, "%s cannot be an unordered access view format", info->name);
  return Check::pass();
}

}  // namespace npt::validation
