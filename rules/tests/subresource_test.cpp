// SPDX-License-Identifier: MIT
// Initial data and UpdateSubresource: pitches and boxes against subresource footprints.
// UpdateSubresource returns nothing; per its documentation an empty box, a box outside
// the subresource, and destinations that cannot be updated drop the call. Reading past
// the bytes the guest sent is a protocol violation (fatal), never a backend read.

#include "test_helpers.h"

#include <vector>

#include "npt/validation/subresource.h"

using namespace npt::validation;

namespace {

ResourceShape texture2D(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t mips, uint32_t slices = 1) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = width;
  desc.Height = height;
  desc.MipLevels = mips;
  desc.ArraySize = slices;
  desc.Format = format;
  desc.SampleDesc.Count = 1;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  return shapeOf(desc);
}

TEST(Footprint, MipsAndSlices) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 32, 3, 2);
  SubresourceFootprint fp;
  ASSERT_TRUE(footprintOf(shape, 4, fp));   // slice 1, mip 1
  EXPECT_EQ(fp.mip, 1u);
  EXPECT_EQ(fp.arraySlice, 1u);
  EXPECT_EQ(fp.width, 32u);
  EXPECT_EQ(fp.height, 16u);
  EXPECT_EQ(fp.rowBytes, 128u);
  EXPECT_EQ(fp.rows, 16u);
  EXPECT_FALSE(footprintOf(shape, 6, fp));
}

TEST(InitialData, TightAndPaddedPitchesPass) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 8, 2);
  std::vector<SubresourceData> data = {{true, 64, 0, 64 * 8}, {true, 256, 0, 256 * 3 + 32}};
  EXPECT_PASS(validateInitialData(shape, data.data(), data.size()));
}

TEST(InitialData, NullSysMemFails) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 8, 1);
  SubresourceData data{false, 64, 0, 0};
  EXPECT_REJECT(validateInitialData(shape, &data, 1), InitialDataMissing, Fail);
}

TEST(InitialData, TruncatedDataIsFatal) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 8, 1);
  SubresourceData data{true, 64, 0, 64 * 8 - 1};
  EXPECT_REJECT(validateInitialData(shape, &data, 1), InitialDataTruncated, Fatal);
  // A huge pitch cannot wrap around.
  SubresourceData huge{true, 0xffffffffu, 0, 4096};
  EXPECT_REJECT(validateInitialData(shape, &huge, 1), InitialDataTruncated, Fatal);
}

TEST(InitialData, BlockCompressedRowsAreBlockRows) {
  ResourceShape shape = texture2D(DXGI_FORMAT_BC3_UNORM, 16, 16, 1);
  SubresourceData exact{true, 64, 0, 64 * 4};   // 4 blocks of 16 bytes per row, 4 block rows
  EXPECT_PASS(validateInitialData(shape, &exact, 1));
  SubresourceData shortData{true, 64, 0, 64 * 4 - 16};
  EXPECT_REJECT(validateInitialData(shape, &shortData, 1), InitialDataTruncated, Fatal);
}

TEST(InitialData, Texture3DUsesSlicePitch) {
  D3D11_TEXTURE3D_DESC desc{};
  desc.Width = 4;
  desc.Height = 4;
  desc.Depth = 4;
  desc.MipLevels = 1;
  desc.Format = DXGI_FORMAT_R32_FLOAT;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  ResourceShape shape = shapeOf(desc);
  SubresourceData data{true, 16, 64, 64 * 4};
  EXPECT_PASS(validateInitialData(shape, &data, 1));
  data.slicePitch = 128;   // last slice starts at 384
  EXPECT_REJECT(validateInitialData(shape, &data, 1), InitialDataTruncated, Fatal);
}

TEST(InitialData, CountMustMatchSubresources) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8_UNORM, 8, 8, 0);   // 4 mips
  std::vector<SubresourceData> data(3, SubresourceData{true, 8, 0, 64});
  EXPECT_REJECT(validateInitialData(shape, data.data(), data.size()), InitialDataCount, Fatal);
}

TEST(InitialData, MultisampledCannotBeInitialized) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8_UNORM, 8, 8, 1);
  shape.sampleCount = 4;
  SubresourceData data{true, 8, 0, 64};
  EXPECT_REJECT(validateInitialData(shape, &data, 1), InitialDataNotAllowed, Fail);
}

TEST(InitialData, BufferNeedsByteWidth) {
  D3D11_BUFFER_DESC desc{256, D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
  ResourceShape shape = shapeOf(desc);
  SubresourceData ok{true, 0, 0, 256};
  EXPECT_PASS(validateInitialData(shape, &ok, 1));
  SubresourceData shortData{true, 0, 0, 255};
  EXPECT_REJECT(validateInitialData(shape, &shortData, 1), InitialDataTruncated, Fatal);
}

TEST(UpdateSubresource, WholeAndBoxedUpdatesPass) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2);
  UpdateSubresourceArgs args;
  args.rowPitch = 256;
  args.size = 256 * 64;
  EXPECT_PASS(validateUpdateSubresource(shape, args));
  D3D11_BOX box{8, 8, 0, 24, 16, 1};
  args.subresource = 1;
  args.box = &box;
  args.rowPitch = 64;
  args.size = 64 * 7 + 64;
  EXPECT_PASS(validateUpdateSubresource(shape, args));
}

TEST(UpdateSubresource, SubresourceOutOfRangeIsIgnored) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2);
  UpdateSubresourceArgs args;
  args.subresource = 2;
  args.size = 1 << 20;
  args.rowPitch = 256;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), SubresourceIndex, Ignore);
}

TEST(UpdateSubresource, BoxRules) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2);
  UpdateSubresourceArgs args;
  args.rowPitch = 256;
  args.size = 1 << 20;
  D3D11_BOX empty{8, 8, 0, 8, 16, 1};
  args.box = &empty;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateBoxEmpty, Ignore);
  D3D11_BOX outside{0, 0, 0, 65, 1, 1};
  args.box = &outside;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateBoxOutOfBounds, Ignore);
  D3D11_BOX mipOutside{0, 0, 0, 33, 1, 1};
  args.subresource = 1;   // mip 1 is 32x32
  args.box = &mipOutside;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateBoxOutOfBounds, Ignore);
  D3D11_BOX deep{0, 0, 0, 1, 1, 2};
  args.box = &deep;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateBoxOutOfBounds, Ignore);
}

TEST(UpdateSubresource, BlockCompressedBoxesAreBlockAligned) {
  ResourceShape shape = texture2D(DXGI_FORMAT_BC1_UNORM, 16, 12, 1);
  UpdateSubresourceArgs args;
  args.rowPitch = 32;
  args.size = 1 << 16;
  D3D11_BOX aligned{4, 4, 0, 12, 12, 1};
  args.box = &aligned;
  EXPECT_PASS(validateUpdateSubresource(shape, args));
  D3D11_BOX unaligned{2, 0, 0, 8, 4, 1};
  args.box = &unaligned;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateBoxAlignment, Ignore);
  D3D11_BOX ragged{0, 0, 0, 6, 4, 1};
  args.box = &ragged;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateBoxAlignment, Ignore);
  // A 6x6 mip: boxes may end at the mip edge.
  ResourceShape smallTexture = texture2D(DXGI_FORMAT_BC1_UNORM, 12, 12, 2);
  D3D11_BOX edge{4, 4, 0, 6, 6, 1};
  args.subresource = 1;
  args.box = &edge;
  EXPECT_PASS(validateUpdateSubresource(smallTexture, args));
}

TEST(UpdateSubresource, DataMustCoverTheBox) {
  ResourceShape shape = texture2D(DXGI_FORMAT_R32_FLOAT, 64, 64, 1);
  D3D11_BOX box{0, 0, 0, 16, 16, 1};
  UpdateSubresourceArgs args;
  args.box = &box;
  args.rowPitch = 64;
  args.size = 64 * 15 + 64;
  EXPECT_PASS(validateUpdateSubresource(shape, args));
  args.size -= 1;
  EXPECT_REJECT(validateUpdateSubresource(shape, args), UpdateDataTruncated, Fatal);
}

TEST(UpdateSubresource, Destinations) {
  D3D11_BUFFER_DESC dynamic{256, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  UpdateSubresourceArgs args;
  args.size = 256;
  EXPECT_REJECT(validateUpdateSubresource(shapeOf(dynamic), args), UpdateDestination, Ignore);
  D3D11_BUFFER_DESC immutable{256, D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
  EXPECT_REJECT(validateUpdateSubresource(shapeOf(immutable), args), UpdateDestination, Ignore);
  ResourceShape depth = texture2D(DXGI_FORMAT_D32_FLOAT, 8, 8, 1);
  depth.bindFlags = D3D11_BIND_DEPTH_STENCIL;
  args.rowPitch = 32;
  EXPECT_REJECT(validateUpdateSubresource(depth, args), UpdateDestination, Ignore);
  ResourceShape msaa = texture2D(DXGI_FORMAT_R8_UNORM, 8, 8, 1);
  msaa.sampleCount = 4;
  EXPECT_REJECT(validateUpdateSubresource(msaa, args), UpdateDestination, Ignore);
}

TEST(UpdateSubresource, ConstantBufferBoxNeedsUpdateSubresource1) {
  D3D11_BUFFER_DESC cb{256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  D3D11_BOX box{0, 0, 0, 64, 1, 1};
  UpdateSubresourceArgs args;
  args.box = &box;
  args.size = 64;
  EXPECT_REJECT(validateUpdateSubresource(shapeOf(cb), args), UpdateConstantBufferBox, Ignore);
  args.partialConstantUpdate = true;
  EXPECT_PASS(validateUpdateSubresource(shapeOf(cb), args));
  D3D11_BOX past{200, 0, 0, 257, 1, 1};
  args.box = &past;
  EXPECT_REJECT(validateUpdateSubresource(shapeOf(cb), args), UpdateBoxOutOfBounds, Ignore);
}

}  // namespace
