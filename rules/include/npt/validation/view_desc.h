// SPDX-License-Identifier: MIT
#pragma once

// The description a view is created with, as Windows' runtime completes it before a
// driver sees it and as the view's GetDesc reports it: a null desc becomes the default
// view of the whole resource (a buffer's only when it is structured: all its elements),
// an UNKNOWN format becomes the resource's, and the "all remaining" counts (-1) are
// resolved against the resource. Returns false where Windows answers E_INVALIDARG at
// this stage (a range outside the resource, a dimension that cannot view it, a typeless
// or unknown format left for a texture); validate*View (views.h) checks the rest.
//
// Templates over the 11.0 and 11.3 descs (D3D11_*_VIEW_DESC and *_DESC1), whose members
// used here share names and offsets: the guest runtime keeps the 11.3 form, Triton's
// API-level runtime the 11.0 one.

#include <type_traits>
#include <utility>

#include "npt/validation/format_table.h"
#include "npt/validation/resource.h"

namespace npt::validation {

namespace view_desc_detail {

// A format a texture view cannot have: UNKNOWN or typeless (the depth formats' partially
// typeless SRV formats, R24_UNORM_X8_TYPELESS and friends, are real view formats).
inline bool needsTypedFormat(DXGI_FORMAT format) {
  if (format == DXGI_FORMAT_UNKNOWN)
    return true;
  const FormatInfo* info = lookupFormat(format);
  return info && info->is(FormatTypeless) && !info->is(FormatDepthView);
}

inline bool completeFormat(const ResourceShape& r, DXGI_FORMAT& format) {
  if (format == DXGI_FORMAT_UNKNOWN)
    format = r.format;
  return r.isBuffer() || !needsTypedFormat(format);
}

inline uint32_t remaining(uint32_t count, uint32_t first, uint32_t requested) {
  return requested == UINT32_MAX ? (first < count ? count - first : 0) : requested;
}

inline bool rangeInside(uint32_t first, uint32_t count, uint32_t total) {
  return count && first < total && count <= total - first;
}

inline bool structuredElements(const ResourceShape& r, uint32_t* elements) {
  if (!(r.miscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED) || !r.structureByteStride)
    return false;
  *elements = r.width / r.structureByteStride;
  return true;
}

}  // namespace view_desc_detail

template <class Desc>
bool completeShaderResourceViewDesc(const ResourceShape& r, const Desc* in, Desc* out) {
  using namespace view_desc_detail;
  Desc d = {};
  if (in) {
    d = *in;
  } else {
    d.Format = r.format;
    switch (r.dimension) {
      case D3D11_RESOURCE_DIMENSION_BUFFER:
        d.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
        d.Buffer.FirstElement = 0;
        if (!structuredElements(r, &d.Buffer.NumElements))
          return false;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        d.ViewDimension = r.arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE1DARRAY : D3D11_SRV_DIMENSION_TEXTURE1D;
        d.Texture1DArray.MipLevels = UINT32_MAX;
        d.Texture1DArray.ArraySize = UINT32_MAX;
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (r.sampleCount > 1) {
          d.ViewDimension = r.arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY : D3D11_SRV_DIMENSION_TEXTURE2DMS;
          d.Texture2DMSArray.ArraySize = UINT32_MAX;
        } else if (r.miscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE) {
          // Whole cubes only: 9 or 11 slices hold one cube (as Windows' default view says).
          d.ViewDimension = r.arraySize / 6 > 1 ? D3D11_SRV_DIMENSION_TEXTURECUBEARRAY : D3D11_SRV_DIMENSION_TEXTURECUBE;
          d.TextureCubeArray.MipLevels = UINT32_MAX;
          d.TextureCubeArray.NumCubes = r.arraySize / 6;
        } else {
          d.ViewDimension = r.arraySize > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DARRAY : D3D11_SRV_DIMENSION_TEXTURE2D;
          d.Texture2DArray.MipLevels = UINT32_MAX;
          d.Texture2DArray.ArraySize = UINT32_MAX;
        }
        break;
      case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D;
        d.Texture3D.MipLevels = UINT32_MAX;
        break;
      default:
        return false;
    }
  }
  if (!completeFormat(r, d.Format))
    return false;
  switch (d.ViewDimension) {
    case D3D11_SRV_DIMENSION_BUFFER:
    case D3D11_SRV_DIMENSION_BUFFEREX:
      if (!r.isBuffer())
        return false;
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1D:
    case D3D11_SRV_DIMENSION_TEXTURE2D:
    case D3D11_SRV_DIMENSION_TEXTURE3D:
    case D3D11_SRV_DIMENSION_TEXTURECUBE:
      // MostDetailedMip and MipLevels sit at the same offsets in these arms.
      d.Texture2D.MipLevels = remaining(r.mipLevels, d.Texture2D.MostDetailedMip, d.Texture2D.MipLevels);
      if (!rangeInside(d.Texture2D.MostDetailedMip, d.Texture2D.MipLevels, r.mipLevels))
        return false;
      break;
    case D3D11_SRV_DIMENSION_TEXTURE1DARRAY:
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
      d.Texture2DArray.MipLevels = remaining(r.mipLevels, d.Texture2DArray.MostDetailedMip, d.Texture2DArray.MipLevels);
      d.Texture2DArray.ArraySize = remaining(r.arraySize, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize);
      if (!rangeInside(d.Texture2DArray.MostDetailedMip, d.Texture2DArray.MipLevels, r.mipLevels) ||
          !rangeInside(d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize, r.arraySize))
        return false;
      break;
    case D3D11_SRV_DIMENSION_TEXTURECUBEARRAY:
      d.TextureCubeArray.MipLevels =
          remaining(r.mipLevels, d.TextureCubeArray.MostDetailedMip, d.TextureCubeArray.MipLevels);
      if (d.TextureCubeArray.NumCubes == UINT32_MAX)
        d.TextureCubeArray.NumCubes = remaining(r.arraySize, d.TextureCubeArray.First2DArrayFace, UINT32_MAX) / 6;
      if (!rangeInside(d.TextureCubeArray.MostDetailedMip, d.TextureCubeArray.MipLevels, r.mipLevels))
        return false;
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY:
      d.Texture2DMSArray.ArraySize = remaining(r.arraySize, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize);
      break;
    case D3D11_SRV_DIMENSION_TEXTURE2DMS:
      break;
    default:
      return false;
  }
  *out = d;
  return true;
}

namespace view_desc_detail {

// Depth-stencil views have no 3D arm, unordered-access views no multisampled ones.
template <class Desc, class = void>
struct HasTexture3D : std::false_type {};
template <class Desc>
struct HasTexture3D<Desc, std::void_t<decltype(std::declval<Desc>().Texture3D)>> : std::true_type {};
template <class Desc, class = void>
struct HasMultisampled : std::false_type {};
template <class Desc>
struct HasMultisampled<Desc, std::void_t<decltype(std::declval<Desc>().Texture2DMSArray)>> : std::true_type {};

// The view dimension values of a kind that views one mip of a range of slices (RTV, DSV,
// UAV); 0 where the kind has no such view.
struct SliceViewDimensions {
  uint32_t buffer, tex1D, tex1DArray, tex2D, tex2DArray, tex2DMS, tex2DMSArray, tex3D;
};
constexpr SliceViewDimensions kRenderTargetDimensions{
    D3D11_RTV_DIMENSION_BUFFER,    D3D11_RTV_DIMENSION_TEXTURE1D,        D3D11_RTV_DIMENSION_TEXTURE1DARRAY,
    D3D11_RTV_DIMENSION_TEXTURE2D, D3D11_RTV_DIMENSION_TEXTURE2DARRAY,   D3D11_RTV_DIMENSION_TEXTURE2DMS,
    D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY, D3D11_RTV_DIMENSION_TEXTURE3D};
constexpr SliceViewDimensions kDepthStencilDimensions{
    0, D3D11_DSV_DIMENSION_TEXTURE1D, D3D11_DSV_DIMENSION_TEXTURE1DARRAY, D3D11_DSV_DIMENSION_TEXTURE2D,
    D3D11_DSV_DIMENSION_TEXTURE2DARRAY, D3D11_DSV_DIMENSION_TEXTURE2DMS, D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY, 0};
constexpr SliceViewDimensions kUnorderedAccessDimensions{
    D3D11_UAV_DIMENSION_BUFFER, D3D11_UAV_DIMENSION_TEXTURE1D, D3D11_UAV_DIMENSION_TEXTURE1DARRAY,
    D3D11_UAV_DIMENSION_TEXTURE2D, D3D11_UAV_DIMENSION_TEXTURE2DARRAY, 0, 0, D3D11_UAV_DIMENSION_TEXTURE3D};

// The default view of a whole texture: every slice of mip 0 (multisampled where the kind
// has such views).
template <class Desc>
bool defaultSliceView(const ResourceShape& r, const SliceViewDimensions& dims, Desc& d) {
  using Dimension = decltype(d.ViewDimension);
  const bool array = r.arraySize > 1;
  d.Format = r.format;
  switch (r.dimension) {
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
      d.ViewDimension = Dimension(array ? dims.tex1DArray : dims.tex1D);
      d.Texture1DArray.ArraySize = r.arraySize;
      return true;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
      if constexpr (HasMultisampled<Desc>::value) {
        if (r.sampleCount > 1) {
          d.ViewDimension = Dimension(array ? dims.tex2DMSArray : dims.tex2DMS);
          d.Texture2DMSArray.ArraySize = r.arraySize;
          return true;
        }
      }
      d.ViewDimension = Dimension(array ? dims.tex2DArray : dims.tex2D);
      d.Texture2DArray.ArraySize = r.arraySize;
      return true;
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
      if constexpr (HasTexture3D<Desc>::value) {
        d.ViewDimension = Dimension(dims.tex3D);
        d.Texture3D.WSize = r.depth;
        return true;
      }
      return false;
    default:
      return false;
  }
}

// A texture view's mip and slices resolved and checked against the resource (buffer views
// are the caller's).
template <class Desc>
bool completeSliceRange(const ResourceShape& r, const SliceViewDimensions& dims, Desc& d) {
  const uint32_t dimension = d.ViewDimension;
  if (!dimension)
    return false;
  if (dimension == dims.tex1D || dimension == dims.tex2D)
    // MipSlice sits at the same offset in both arms.
    return d.Texture2D.MipSlice < r.mipLevels &&
           (dimension != dims.tex2D || r.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D);
  if (dimension == dims.tex1DArray || dimension == dims.tex2DArray) {
    d.Texture2DArray.ArraySize = remaining(r.arraySize, d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize);
    return d.Texture2DArray.MipSlice < r.mipLevels &&
           rangeInside(d.Texture2DArray.FirstArraySlice, d.Texture2DArray.ArraySize, r.arraySize);
  }
  if constexpr (HasTexture3D<Desc>::value) {
    if (dimension == dims.tex3D) {
      const uint32_t depth = r.mipDepth(d.Texture3D.MipSlice);
      d.Texture3D.WSize = remaining(depth, d.Texture3D.FirstWSlice, d.Texture3D.WSize);
      return d.Texture3D.MipSlice < r.mipLevels && rangeInside(d.Texture3D.FirstWSlice, d.Texture3D.WSize, depth);
    }
  }
  if constexpr (HasMultisampled<Desc>::value) {
    if (dimension == dims.tex2DMSArray) {
      d.Texture2DMSArray.ArraySize =
          remaining(r.arraySize, d.Texture2DMSArray.FirstArraySlice, d.Texture2DMSArray.ArraySize);
      return true;
    }
    return dimension == dims.tex2DMS;
  }
  return false;
}

}  // namespace view_desc_detail

template <class Desc>
bool completeRenderTargetViewDesc(const ResourceShape& r, const Desc* in, Desc* out) {
  using namespace view_desc_detail;
  Desc d = {};
  if (in)
    d = *in;
  else if (!defaultSliceView(r, kRenderTargetDimensions, d))
    return false;   // a buffer has no default render-target view
  if (!completeFormat(r, d.Format))
    return false;
  if (d.ViewDimension != D3D11_RTV_DIMENSION_BUFFER && !completeSliceRange(r, kRenderTargetDimensions, d))
    return false;
  *out = d;
  return true;
}

inline bool completeDepthStencilViewDesc(const ResourceShape& r, const D3D11_DEPTH_STENCIL_VIEW_DESC* in,
                                         D3D11_DEPTH_STENCIL_VIEW_DESC* out) {
  using namespace view_desc_detail;
  D3D11_DEPTH_STENCIL_VIEW_DESC d = {};
  if (in) {
    d = *in;
    if (d.Flags & ~uint32_t(D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL))
      return false;
  } else if (!defaultSliceView(r, kDepthStencilDimensions, d)) {
    return false;   // buffers and 3D textures have no depth-stencil views
  }
  if (!completeFormat(r, d.Format) || !completeSliceRange(r, kDepthStencilDimensions, d))
    return false;
  *out = d;
  return true;
}

template <class Desc>
bool completeUnorderedAccessViewDesc(const ResourceShape& r, const Desc* in, Desc* out) {
  using namespace view_desc_detail;
  Desc d = {};
  if (in) {
    d = *in;
  } else if (r.isBuffer()) {
    d.Format = r.format;
    d.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    if (!structuredElements(r, &d.Buffer.NumElements))
      return false;
  } else if (!defaultSliceView(r, kUnorderedAccessDimensions, d)) {
    return false;
  }
  if (!completeFormat(r, d.Format))
    return false;
  if (d.ViewDimension == D3D11_UAV_DIMENSION_BUFFER) {
    if (!r.isBuffer() || !d.Buffer.NumElements)
      return false;
  } else if (!completeSliceRange(r, kUnorderedAccessDimensions, d)) {
    return false;
  }
  *out = d;
  return true;
}

}  // namespace npt::validation
