// SPDX-License-Identifier: MIT
#pragma once

// View descriptions in one form for the four view kinds (SRV, RTV, DSV, UAV), shared by
// the driver (DDI arguments -> API description) and the API-level runtime (API
// description -> DDI arguments; the rules complete a default description). Windows
// builds only (it names the SDK's view descriptions).
//
// Every view names a Shape (the API's view dimensions, once for all kinds) and a Range of
// subresources. What differs between the kinds is data, not code: which API dimension
// value each shape has (none where the kind has no such view) and at which UINT
// position the API description's union and the DDI arguments' union keep each part of
// the range. Buffers are the exception each caller handles itself (their elements and
// flags are not a subresource range).

#include <d3d11.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "triton/ddi/ddi.h"

namespace triton::views {

namespace ddi = triton::ddi;

enum class Shape : uint8_t {
  Buffer, BufferEx, Tex1D, Tex1DArray, Tex2D, Tex2DArray, Tex2DMS, Tex2DMSArray, Tex3D, Cube, CubeArray,
};
inline constexpr size_t kShapeCount = size_t(Shape::CubeArray) + 1;

// A view's subresources: a mip range (one mip for RTV/DSV/UAV) and a slice range (array
// slices; W slices of a 3D RTV/UAV; cubes of a cube-array SRV). A part a shape does not
// carry keeps its default: mip 0, one mip, slice 0, one slice.
struct Range {
  UINT firstMip = 0, mipCount = 1, firstSlice = 0, sliceCount = 1;
};

// Where a union keeps each part of a Range, as UINT positions (-1: not carried).
struct Fields {
  int8_t firstMip = -1, mipCount = -1, firstSlice = -1, sliceCount = -1;
};

struct Kind {
  std::array<UINT, kShapeCount> apiDimension;   // 0: this kind has no view of the shape
  std::array<Fields, kShapeCount> apiFields;    // in the API description's union
  std::array<Fields, kShapeCount> ddiFields;    // in the DDI arguments' union
  bool mipRange;                                // SRV: a mip range; the others: one mip
};

namespace layout {
// The API unions: D3D11_TEX2D_ARRAY_SRV {MostDetailedMip, MipLevels, FirstArraySlice,
// ArraySize} and its kin; D3D11_TEX2D_ARRAY_RTV {MipSlice, FirstArraySlice, ArraySize}
// (the DSV/UAV ones and the 3D {MipSlice, FirstWSlice, WSize} alike); the MS arrays
// {FirstArraySlice, ArraySize}.
inline constexpr Fields kNone{};
inline constexpr Fields kMips{0, 1, -1, -1};
inline constexpr Fields kMipsSlices{0, 1, 2, 3};
inline constexpr Fields kMip{0, -1, -1, -1};
inline constexpr Fields kMipSlices{0, -1, 1, 2};
inline constexpr Fields kSlices{-1, -1, 0, 1};
// The DDI unions: D3D10DDIARG_TEX1D/TEX2D_SHADERRESOURCEVIEW {MostDetailedMip,
// FirstArraySlice, MipLevels, ArraySize}, TEX3D {MostDetailedMip, MipLevels}, the 10.1
// TEXCUBE {MostDetailedMip, MipLevels, First2DArrayFace, NumCubes}; every RTV/DSV/UAV
// texture member {MipSlice, First(ArraySlice|W), (ArraySize|WSize)}.
inline constexpr Fields kDdiSrvArray{0, 2, 1, 3};
}  // namespace layout

// Shapes in declaration order: Buffer, BufferEx, Tex1D, Tex1DArray, Tex2D, Tex2DArray,
// Tex2DMS, Tex2DMSArray, Tex3D, Cube, CubeArray.
inline constexpr Kind kShaderResourceView{
    {D3D11_SRV_DIMENSION_BUFFER, D3D11_SRV_DIMENSION_BUFFEREX, D3D11_SRV_DIMENSION_TEXTURE1D,
     D3D11_SRV_DIMENSION_TEXTURE1DARRAY, D3D11_SRV_DIMENSION_TEXTURE2D, D3D11_SRV_DIMENSION_TEXTURE2DARRAY,
     D3D11_SRV_DIMENSION_TEXTURE2DMS, D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY, D3D11_SRV_DIMENSION_TEXTURE3D,
     D3D11_SRV_DIMENSION_TEXTURECUBE, D3D11_SRV_DIMENSION_TEXTURECUBEARRAY},
    {layout::kNone, layout::kNone, layout::kMips, layout::kMipsSlices, layout::kMips, layout::kMipsSlices,
     layout::kNone, layout::kSlices, layout::kMips, layout::kMips, layout::kMipsSlices},
    {layout::kNone, layout::kNone, layout::kDdiSrvArray, layout::kDdiSrvArray, layout::kDdiSrvArray,
     layout::kDdiSrvArray, layout::kDdiSrvArray, layout::kDdiSrvArray, layout::kMips, layout::kMipsSlices,
     layout::kMipsSlices},
    true};

inline constexpr std::array<Fields, kShapeCount> kSingleMipDdiFields{
    layout::kNone,      layout::kNone,      layout::kMipSlices, layout::kMipSlices, layout::kMipSlices, layout::kMipSlices,
    layout::kMipSlices, layout::kMipSlices, layout::kMipSlices, layout::kMipSlices, layout::kMipSlices};
inline constexpr std::array<Fields, kShapeCount> kSingleMipApiFields{
    layout::kNone,      layout::kNone, layout::kMip,    layout::kMipSlices, layout::kMip,  layout::kMipSlices,
    layout::kNone,      layout::kSlices, layout::kMipSlices, layout::kNone, layout::kNone};

inline constexpr Kind kRenderTargetView{
    {D3D11_RTV_DIMENSION_BUFFER, 0, D3D11_RTV_DIMENSION_TEXTURE1D, D3D11_RTV_DIMENSION_TEXTURE1DARRAY,
     D3D11_RTV_DIMENSION_TEXTURE2D, D3D11_RTV_DIMENSION_TEXTURE2DARRAY, D3D11_RTV_DIMENSION_TEXTURE2DMS,
     D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY, D3D11_RTV_DIMENSION_TEXTURE3D, 0, 0},
    kSingleMipApiFields, kSingleMipDdiFields, false};

inline constexpr Kind kDepthStencilView{
    {0, 0, D3D11_DSV_DIMENSION_TEXTURE1D, D3D11_DSV_DIMENSION_TEXTURE1DARRAY, D3D11_DSV_DIMENSION_TEXTURE2D,
     D3D11_DSV_DIMENSION_TEXTURE2DARRAY, D3D11_DSV_DIMENSION_TEXTURE2DMS, D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY, 0, 0,
     0},
    kSingleMipApiFields, kSingleMipDdiFields, false};

inline constexpr Kind kUnorderedAccessView{
    {D3D11_UAV_DIMENSION_BUFFER, 0, D3D11_UAV_DIMENSION_TEXTURE1D, D3D11_UAV_DIMENSION_TEXTURE1DARRAY,
     D3D11_UAV_DIMENSION_TEXTURE2D, D3D11_UAV_DIMENSION_TEXTURE2DARRAY, 0, 0, D3D11_UAV_DIMENSION_TEXTURE3D, 0, 0},
    kSingleMipApiFields, kSingleMipDdiFields, false};

constexpr bool has(const Kind& kind, Shape shape) { return kind.apiDimension[size_t(shape)] != 0; }

// The API dimension value of a shape, and back (false: the kind has no such view).
constexpr UINT apiDimension(const Kind& kind, Shape shape) { return kind.apiDimension[size_t(shape)]; }
constexpr bool shapeOf(const Kind& kind, UINT dimension, Shape* out) {
  for (size_t i = 0; i < kShapeCount; ++i)
    if (dimension != 0 && kind.apiDimension[i] == dimension) {
      *out = Shape(i);
      return true;
    }
  return false;
}

// The shape a view of a whole resource has: an array resource gets the array view, a
// multisampled one the MS view where the kind has one, a cube the cube view where the
// kind has one (faces are 2D array slices to the others), a structured/raw buffer the
// BUFFEREX view where the kind has one. This is both the runtime's default description
// and how the driver turns the DDI's resource dimension back into an API view.
constexpr bool resourceShape(const Kind& kind, ddi::D3D10DDIRESOURCE_TYPE dimension, UINT arraySize, UINT sampleCount,
                             Shape* out) {
  const bool array = arraySize > 1;
  Shape shape{};
  switch (dimension) {
    case ddi::D3D10DDIRESOURCE_BUFFER: shape = Shape::Buffer; break;
    case ddi::D3D11DDIRESOURCE_BUFFEREX: shape = has(kind, Shape::BufferEx) ? Shape::BufferEx : Shape::Buffer; break;
    case ddi::D3D10DDIRESOURCE_TEXTURE1D: shape = array ? Shape::Tex1DArray : Shape::Tex1D; break;
    case ddi::D3D10DDIRESOURCE_TEXTURE2D:
      if (sampleCount > 1 && has(kind, Shape::Tex2DMS))
        shape = array ? Shape::Tex2DMSArray : Shape::Tex2DMS;
      else
        shape = array ? Shape::Tex2DArray : Shape::Tex2D;
      break;
    case ddi::D3D10DDIRESOURCE_TEXTURECUBE:
      shape = !has(kind, Shape::Cube) ? Shape::Tex2DArray : arraySize > 6 ? Shape::CubeArray : Shape::Cube;
      break;
    case ddi::D3D10DDIRESOURCE_TEXTURE3D: shape = Shape::Tex3D; break;
    default: return false;
  }
  *out = shape;
  return has(kind, shape);
}

// Reads and writes a Range in a union of UINTs that starts at `unionStart` and holds
// `bytes` bytes (copied, so no union member is read through another's type).
inline Range readRange(const void* unionStart, size_t bytes, const Fields& f) {
  UINT words[4] = {};
  std::memcpy(words, unionStart, std::min(bytes, sizeof(words)));
  Range r;
  if (f.firstMip >= 0) r.firstMip = words[f.firstMip];
  if (f.mipCount >= 0) r.mipCount = words[f.mipCount];
  if (f.firstSlice >= 0) r.firstSlice = words[f.firstSlice];
  if (f.sliceCount >= 0) r.sliceCount = words[f.sliceCount];
  return r;
}

inline void writeRange(void* unionStart, size_t bytes, const Fields& f, const Range& r) {
  UINT words[4] = {};
  std::memcpy(words, unionStart, std::min(bytes, sizeof(words)));
  if (f.firstMip >= 0) words[f.firstMip] = r.firstMip;
  if (f.mipCount >= 0) words[f.mipCount] = r.mipCount;
  if (f.firstSlice >= 0) words[f.firstSlice] = r.firstSlice;
  if (f.sliceCount >= 0) words[f.sliceCount] = r.sliceCount;
  std::memcpy(unionStart, words, std::min(bytes, sizeof(words)));
}

// The union of an API view description or DDI view arguments: every one of them names
// its first texture member Texture1D (API) or Tex1D (DDI), and the union runs to the end.
template <class Desc>
Range readApiRange(const Kind& kind, Shape shape, const Desc& d) {
  return readRange(&d.Texture1D, sizeof(Desc) - offsetof(Desc, Texture1D), kind.apiFields[size_t(shape)]);
}
template <class Desc>
void writeApiRange(const Kind& kind, Shape shape, const Range& r, Desc& d) {
  d.ViewDimension = decltype(d.ViewDimension)(apiDimension(kind, shape));
  writeRange(&d.Texture1D, sizeof(Desc) - offsetof(Desc, Texture1D), kind.apiFields[size_t(shape)], r);
}
template <class Args>
Range readDdiRange(const Kind& kind, Shape shape, const Args& a) {
  return readRange(&a.Tex1D, sizeof(Args) - offsetof(Args, Tex1D), kind.ddiFields[size_t(shape)]);
}
template <class Args>
void writeDdiRange(const Kind& kind, Shape shape, const Range& r, Args& a) {
  writeRange(&a.Tex1D, sizeof(Args) - offsetof(Args, Tex1D), kind.ddiFields[size_t(shape)], r);
}

}  // namespace triton::views
