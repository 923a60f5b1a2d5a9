// SPDX-License-Identifier: MIT
// triton/view_ranges.h: the one description path of the four view kinds, shared by the
// driver and the API-level runtime. Every shape of every kind goes API description ->
// DDI arguments -> API description unchanged, each DDI field lands in the member the
// reference names, and the shape of a whole resource follows the resource.

#include <gtest/gtest.h>

#include <cstring>

#include "triton/view_ranges.h"

namespace triton::views {
namespace {

// Fills every word of an API description's union with distinct values, the way an
// application could name any subresource range.
template <class Desc>
Desc apiDesc(const Kind& kind, Shape shape) {
  Desc d{};
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  writeApiRange(kind, shape, Range{3, 5, 7, 11}, d);
  return d;
}

template <class Desc, class Args>
void roundTrips(const Kind& kind, const char* name) {
  for (size_t i = 0; i < kShapeCount; ++i) {
    const Shape shape = Shape(i);
    if (!has(kind, shape) || shape == Shape::Buffer || shape == Shape::BufferEx)
      continue;
    SCOPED_TRACE(::testing::Message() << name << " shape " << i);
    const Desc in = apiDesc<Desc>(kind, shape);
    Shape parsed{};
    ASSERT_TRUE(shapeOf(kind, UINT(in.ViewDimension), &parsed));
    EXPECT_EQ(parsed, shape);
    Args a{};
    writeDdiRange(kind, shape, readApiRange(kind, shape, in), a);
    Desc out{};
    out.Format = in.Format;
    writeApiRange(kind, shape, readDdiRange(kind, shape, a), out);
    EXPECT_EQ(std::memcmp(&in, &out, sizeof(Desc)), 0);
  }
}

TEST(ViewRanges, EveryShapeOfEveryKindRoundTrips) {
  roundTrips<D3D11_SHADER_RESOURCE_VIEW_DESC, ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW>(kShaderResourceView, "SRV");
  roundTrips<D3D11_RENDER_TARGET_VIEW_DESC, ddi::D3D10DDIARG_CREATERENDERTARGETVIEW>(kRenderTargetView, "RTV");
  roundTrips<D3D11_DEPTH_STENCIL_VIEW_DESC, ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW>(kDepthStencilView, "DSV");
  roundTrips<D3D11_UNORDERED_ACCESS_VIEW_DESC, ddi::D3D11DDIARG_CREATEUNORDEREDACCESSVIEW>(kUnorderedAccessView, "UAV");
}

TEST(ViewRanges, DdiFieldsLandInTheNamedMembers) {
  D3D11_SHADER_RESOURCE_VIEW_DESC srv{};
  srv.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
  srv.Texture2DArray = {1, 2, 3, 4};
  ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW a{};
  writeDdiRange(kShaderResourceView, Shape::Tex2DArray, readApiRange(kShaderResourceView, Shape::Tex2DArray, srv), a);
  EXPECT_EQ(a.Tex2D.MostDetailedMip, 1u);
  EXPECT_EQ(a.Tex2D.MipLevels, 2u);
  EXPECT_EQ(a.Tex2D.FirstArraySlice, 3u);
  EXPECT_EQ(a.Tex2D.ArraySize, 4u);

  srv.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBEARRAY;
  srv.TextureCubeArray = {1, 2, 6, 2};
  writeDdiRange(kShaderResourceView, Shape::CubeArray, readApiRange(kShaderResourceView, Shape::CubeArray, srv), a);
  EXPECT_EQ(a.TexCube.First2DArrayFace, 6u);
  EXPECT_EQ(a.TexCube.NumCubes, 2u);

  // A multisampled SRV names no range; the DDI gets mip 0 of 1, slice 0 of 1.
  ddi::D3D11DDIARG_CREATESHADERRESOURCEVIEW ms{};
  writeDdiRange(kShaderResourceView, Shape::Tex2DMS, Range{}, ms);
  EXPECT_EQ(ms.Tex2D.MipLevels, 1u);
  EXPECT_EQ(ms.Tex2D.ArraySize, 1u);

  D3D11_RENDER_TARGET_VIEW_DESC rtv{};
  rtv.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
  rtv.Texture3D = {2, 4, 8};
  ddi::D3D10DDIARG_CREATERENDERTARGETVIEW r{};
  writeDdiRange(kRenderTargetView, Shape::Tex3D, readApiRange(kRenderTargetView, Shape::Tex3D, rtv), r);
  EXPECT_EQ(r.Tex3D.MipSlice, 2u);
  EXPECT_EQ(r.Tex3D.FirstW, 4u);
  EXPECT_EQ(r.Tex3D.WSize, 8u);

  D3D11_DEPTH_STENCIL_VIEW_DESC dsv{};
  dsv.Flags = D3D11_DSV_READ_ONLY_DEPTH;   // before the union: not part of the range
  dsv.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY;
  dsv.Texture2DMSArray = {5, 3};
  ddi::D3D11DDIARG_CREATEDEPTHSTENCILVIEW d{};
  writeDdiRange(kDepthStencilView, Shape::Tex2DMSArray, readApiRange(kDepthStencilView, Shape::Tex2DMSArray, dsv), d);
  EXPECT_EQ(d.Tex2D.MipSlice, 0u);
  EXPECT_EQ(d.Tex2D.FirstArraySlice, 5u);
  EXPECT_EQ(d.Tex2D.ArraySize, 3u);
}

TEST(ViewRanges, TheWholeResourceHasTheResourcesShape) {
  Shape s{};
  EXPECT_TRUE(resourceShape(kShaderResourceView, ddi::D3D10DDIRESOURCE_TEXTURECUBE, 12, 1, &s));
  EXPECT_EQ(s, Shape::CubeArray);
  EXPECT_TRUE(resourceShape(kShaderResourceView, ddi::D3D10DDIRESOURCE_TEXTURECUBE, 6, 1, &s));
  EXPECT_EQ(s, Shape::Cube);
  EXPECT_TRUE(resourceShape(kRenderTargetView, ddi::D3D10DDIRESOURCE_TEXTURECUBE, 6, 1, &s));
  EXPECT_EQ(s, Shape::Tex2DArray);   // faces are array slices to RTV/DSV/UAV
  EXPECT_TRUE(resourceShape(kDepthStencilView, ddi::D3D10DDIRESOURCE_TEXTURE2D, 4, 4, &s));
  EXPECT_EQ(s, Shape::Tex2DMSArray);
  EXPECT_TRUE(resourceShape(kUnorderedAccessView, ddi::D3D10DDIRESOURCE_TEXTURE2D, 1, 4, &s));
  EXPECT_EQ(s, Shape::Tex2D);        // no multisampled UAVs
  EXPECT_TRUE(resourceShape(kShaderResourceView, ddi::D3D11DDIRESOURCE_BUFFEREX, 1, 1, &s));
  EXPECT_EQ(s, Shape::BufferEx);
  EXPECT_TRUE(resourceShape(kUnorderedAccessView, ddi::D3D11DDIRESOURCE_BUFFEREX, 1, 1, &s));
  EXPECT_EQ(s, Shape::Buffer);
  EXPECT_FALSE(resourceShape(kDepthStencilView, ddi::D3D10DDIRESOURCE_TEXTURE3D, 1, 1, &s));
  EXPECT_FALSE(resourceShape(kDepthStencilView, ddi::D3D10DDIRESOURCE_BUFFER, 1, 1, &s));
}

}  // namespace
}  // namespace triton::views
