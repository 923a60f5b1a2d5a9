// SPDX-License-Identifier: MIT
// Map/Unmap, CopyResource/CopySubresourceRegion and Set* slot ranges.
// Map returns E_INVALIDARG for bad arguments (D3D11_MAP documentation; Wine
// test_resource_map records Windows' results). Copies and Set* calls return nothing:
// invalid ones are dropped, as the Windows runtime does.

#include "test_helpers.h"

#include <cmath>

#include "npt/validation/context_calls.h"

using namespace npt::validation;

namespace {

ResourceShape buffer(D3D11_USAGE usage, uint32_t bind, uint32_t cpu, uint32_t width = 256) {
  D3D11_BUFFER_DESC desc{width, usage, bind, cpu, 0, 0};
  return shapeOf(desc);
}

ResourceShape texture2D(DXGI_FORMAT format, uint32_t w, uint32_t h, uint32_t mips = 1, uint32_t slices = 1,
                        D3D11_USAGE usage = D3D11_USAGE_DEFAULT, uint32_t bind = D3D11_BIND_SHADER_RESOURCE,
                        uint32_t cpu = 0) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = w;
  desc.Height = h;
  desc.MipLevels = mips;
  desc.ArraySize = slices;
  desc.Format = format;
  desc.SampleDesc.Count = 1;
  desc.Usage = usage;
  desc.BindFlags = bind;
  desc.CPUAccessFlags = cpu;
  return shapeOf(desc);
}

TEST(Map, ValidMaps) {
  auto dynamicVb = buffer(D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
  EXPECT_PASS(validateMap(dynamicVb, 0, D3D11_MAP_WRITE_DISCARD, 0, false));
  EXPECT_PASS(validateMap(dynamicVb, 0, D3D11_MAP_WRITE_NO_OVERWRITE, D3D11_MAP_FLAG_DO_NOT_WAIT, false));
  auto staging = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 2, 2, D3D11_USAGE_STAGING, 0,
                           D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
  EXPECT_PASS(validateMap(staging, 3, D3D11_MAP_READ_WRITE, 0, false));
  EXPECT_PASS(validateMap(staging, 0, D3D11_MAP_READ, 0, false));
}

TEST(Map, SubresourceTypeAndFlags) {
  auto staging = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 2, 2, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  EXPECT_REJECT(validateMap(staging, 4, D3D11_MAP_READ, 0, false), MapSubresource, Fail);
  EXPECT_REJECT(validateMap(staging, 0, D3D11_MAP(0), 0, false), MapType, Fail);
  EXPECT_REJECT(validateMap(staging, 0, D3D11_MAP(6), 0, false), MapType, Fail);
  EXPECT_REJECT(validateMap(staging, 0, D3D11_MAP_READ, 0x1, false), MapFlags, Fail);
  EXPECT_REJECT(validateMap(staging, 0, D3D11_MAP_READ, 0, true), MapAlreadyMapped, Fail);
}

TEST(Map, AccessRules) {
  auto readOnly = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  EXPECT_REJECT(validateMap(readOnly, 0, D3D11_MAP_WRITE, 0, false), MapAccess, Fail);
  EXPECT_REJECT(validateMap(readOnly, 0, D3D11_MAP_READ_WRITE, 0, false), MapAccess, Fail);
  EXPECT_REJECT(validateMap(readOnly, 0, D3D11_MAP_WRITE_DISCARD, 0, false), MapAccess, Fail);
  auto gpuOnly = buffer(D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0);
  EXPECT_REJECT(validateMap(gpuOnly, 0, D3D11_MAP_READ, 0, false), MapAccess, Fail);
  EXPECT_REJECT(validateMap(gpuOnly, 0, D3D11_MAP_WRITE_DISCARD, 0, false), MapAccess, Fail);
  auto dynamic = buffer(D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
  EXPECT_REJECT(validateMap(dynamic, 0, D3D11_MAP_WRITE, 0, false), MapAccess, Fail);
  auto dynamicTexture = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, D3D11_USAGE_DYNAMIC,
                                  D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE);
  EXPECT_PASS(validateMap(dynamicTexture, 0, D3D11_MAP_WRITE_DISCARD, 0, false));
  EXPECT_REJECT(validateMap(dynamicTexture, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, false), MapAccess, Fail);
}

TEST(Map, NoOverwriteOnConstantBuffersFollowsCaps) {
  auto cb = buffer(D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE);
  EXPECT_PASS(validateMap(cb, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, false));
  DeviceLimits d3d11_0;
  d3d11_0.mapNoOverwriteOnDynamicConstantBuffer = false;
  EXPECT_REJECT(validateMap(cb, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, false, d3d11_0), MapAccess, Fail);
}

TEST(Unmap, Rules) {
  auto staging = texture2D(DXGI_FORMAT_R8_UNORM, 8, 8, 1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  EXPECT_PASS(validateUnmap(staging, 0, true));
  EXPECT_REJECT(validateUnmap(staging, 0, false), UnmapNotMapped, Ignore);
  EXPECT_REJECT(validateUnmap(staging, 1, true), SubresourceIndex, Ignore);
}

TEST(CopyResource, Rules) {
  auto a = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2);
  auto srgb = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 64, 64, 2);
  EXPECT_PASS(validateCopyResource(a, srgb, false));
  EXPECT_REJECT(validateCopyResource(a, a, true), CopySameSubresource, Ignore);
  EXPECT_REJECT(validateCopyResource(a, texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 32, 2), false),
                CopyResourceMismatch, Ignore);
  EXPECT_REJECT(validateCopyResource(a, texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 1), false),
                CopyResourceMismatch, Ignore);
  EXPECT_REJECT(validateCopyResource(a, texture2D(DXGI_FORMAT_R32_FLOAT, 64, 64, 2), false), CopyFormat, Ignore);
  EXPECT_REJECT(validateCopyResource(a, buffer(D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0), false),
                CopyResourceMismatch, Ignore);
  auto msaa = a;
  msaa.sampleCount = 4;
  msaa.mipLevels = 2;
  EXPECT_REJECT(validateCopyResource(a, msaa, false), CopySampleCount, Ignore);
  auto immutable = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2, 1, D3D11_USAGE_IMMUTABLE);
  EXPECT_REJECT(validateCopyResource(immutable, a, false), CopyDestination, Ignore);
}

TEST(CopySubresourceRegion, TextureRegions) {
  auto dst = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2);
  auto src = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1);
  CopyRegionArgs args;
  args.dstX = 32;
  args.dstY = 32;
  EXPECT_PASS(validateCopySubresourceRegion(dst, src, false, args));
  args.dstX = 33;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopyBox, Ignore);
  args.dstX = 0;
  args.dstY = 0;
  args.dstSubresource = 1;   // 32x32 mip: fits exactly
  EXPECT_PASS(validateCopySubresourceRegion(dst, src, false, args));
  args.dstSubresource = 2;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopySubresource, Ignore);
  args.dstSubresource = 0;
  D3D11_BOX box{16, 16, 0, 40, 20, 1};   // right beyond the 32-wide source
  args.srcBox = &box;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopyBox, Ignore);
  D3D11_BOX empty{4, 4, 0, 4, 8, 1};
  args.srcBox = &empty;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopyBox, Ignore);
  args.srcBox = nullptr;
  args.srcSubresource = 1;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopySubresource, Ignore);
  args.srcSubresource = 0;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, dst, true, args), CopySameSubresource, Ignore);
  args.srcSubresource = 1;
  EXPECT_PASS(validateCopySubresourceRegion(dst, dst, true, args));   // other mip of the same texture
}

TEST(CopySubresourceRegion, CompressedReinterpretation) {
  // BC1 blocks (8 bytes) copy to R32G32_UINT texels: one block per texel.
  auto bc1 = texture2D(DXGI_FORMAT_BC1_UNORM, 64, 64);
  auto plain = texture2D(DXGI_FORMAT_R32G32_UINT, 16, 16);
  CopyRegionArgs args;
  EXPECT_PASS(validateCopySubresourceRegion(plain, bc1, false, args));
  EXPECT_PASS(validateCopySubresourceRegion(bc1, plain, false, args));
  auto wide = texture2D(DXGI_FORMAT_R32G32B32A32_UINT, 16, 16);
  EXPECT_REJECT(validateCopySubresourceRegion(wide, bc1, false, args), CopyFormat, Ignore);
  D3D11_BOX unaligned{2, 0, 0, 8, 4, 1};
  args.srcBox = &unaligned;
  EXPECT_REJECT(validateCopySubresourceRegion(plain, bc1, false, args), CopyBox, Ignore);
  args.srcBox = nullptr;
  args.dstX = 2;   // BC destination offsets are block-aligned
  EXPECT_REJECT(validateCopySubresourceRegion(bc1, plain, false, args), CopyBox, Ignore);
}

TEST(CopySubresourceRegion, DepthAndMultisampleCopyWholeSubresources) {
  auto depth = texture2D(DXGI_FORMAT_R32_TYPELESS, 16, 16, 1, 1, D3D11_USAGE_DEFAULT, D3D11_BIND_DEPTH_STENCIL);
  CopyRegionArgs args;
  EXPECT_PASS(validateCopySubresourceRegion(depth, depth, false, args));
  D3D11_BOX box{0, 0, 0, 8, 8, 1};
  args.srcBox = &box;
  EXPECT_REJECT(validateCopySubresourceRegion(depth, depth, false, args), CopyWholeSubresourceOnly, Ignore);
}

TEST(CopySubresourceRegion, Buffers) {
  auto dst = buffer(D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 256);
  auto src = buffer(D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_WRITE, 128);
  CopyRegionArgs args;
  args.dstX = 128;
  EXPECT_PASS(validateCopySubresourceRegion(dst, src, false, args));
  args.dstX = 129;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopyBox, Ignore);
  args.dstX = 0;
  D3D11_BOX box{64, 0, 0, 200, 1, 1};
  args.srcBox = &box;
  EXPECT_REJECT(validateCopySubresourceRegion(dst, src, false, args), CopyBox, Ignore);
}

TEST(Slots, ApiLimits) {
  EXPECT_PASS(validateSlotRange(SlotKind::ShaderResource, 0, 128));
  EXPECT_REJECT(validateSlotRange(SlotKind::ShaderResource, 127, 2), SlotRange, Ignore);
  EXPECT_REJECT(validateSlotRange(SlotKind::ShaderResource, 0xffffffffu, 2), SlotRange, Ignore);
  EXPECT_PASS(validateSlotRange(SlotKind::Sampler, 15, 1));
  EXPECT_REJECT(validateSlotRange(SlotKind::Sampler, 16, 1), SlotRange, Ignore);
  EXPECT_PASS(validateSlotRange(SlotKind::ConstantBuffer, 0, 14));
  EXPECT_REJECT(validateSlotRange(SlotKind::ConstantBuffer, 14, 1), SlotRange, Ignore);
  EXPECT_REJECT(validateSlotRange(SlotKind::VertexBuffer, 31, 2), SlotRange, Ignore);
  EXPECT_REJECT(validateSlotRange(SlotKind::StreamOutput, 0, 5), StreamOutputCount, Ignore);
  EXPECT_REJECT(validateSlotRange(SlotKind::Viewport, 0, 17), ViewportCount, Ignore);
  EXPECT_REJECT(validateSlotRange(SlotKind::RenderTarget, 0, 9), RenderTargetCount, Ignore);
  EXPECT_PASS(validateSlotRange(SlotKind::UnorderedAccess, 0, 64));
  DeviceLimits d3d11_0;
  d3d11_0.uavSlotCount = D3D11_PS_CS_UAV_REGISTER_COUNT;
  EXPECT_REJECT(validateSlotRange(SlotKind::UnorderedAccess, 0, 9, d3d11_0), UavSlotRange, Ignore);
}

TEST(Slots, RenderTargetsAndUavs) {
  EXPECT_PASS(validateRenderTargetsAndUavs(4, 4, 4));
  EXPECT_REJECT(validateRenderTargetsAndUavs(4, 2, 1), UavSlotRange, Ignore);
  EXPECT_REJECT(validateRenderTargetsAndUavs(9, 0, 0), RenderTargetCount, Ignore);
  EXPECT_PASS(validateRenderTargetsAndUavs(8, 0, 0));
}

TEST(Slots, IndexBufferFormat) {
  EXPECT_PASS(validateIndexBufferFormat(DXGI_FORMAT_R16_UINT));
  EXPECT_PASS(validateIndexBufferFormat(DXGI_FORMAT_R32_UINT));
  EXPECT_REJECT(validateIndexBufferFormat(DXGI_FORMAT_R8_UINT), IndexBufferFormat, Ignore);
  EXPECT_REJECT(validateIndexBufferFormat(DXGI_FORMAT_R32_FLOAT), IndexBufferFormat, Ignore);
}

TEST(Rules, CodesAreUniqueAndNamed) {
#define NPT_RULE_CHECK(name, code, outcome) EXPECT_STREQ(ruleName(Rule::name), #name);
  NPT_VALIDATION_RULES(NPT_RULE_CHECK)
#undef NPT_RULE_CHECK
  const uint32_t codes[] = {
#define NPT_RULE_CODE(name, code, outcome) code,
    NPT_VALIDATION_RULES(NPT_RULE_CODE)
#undef NPT_RULE_CODE
  };
  for (size_t i = 0; i < std::size(codes); i++)
    for (size_t j = i + 1; j < std::size(codes); j++) EXPECT_NE(codes[i], codes[j]);
  Check check = Check::reject(Rule::ViewMipRange, "mips %u+%u", 3u, 4u);
  EXPECT_EQ(check.describe(), "E4004 ViewMipRange (fail): mips 3+4");
}

}  // namespace

namespace {

TEST(DrawState, PrimitiveTopology) {
  EXPECT_PASS(validatePrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST));
  EXPECT_PASS(validatePrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ));
  EXPECT_PASS(validatePrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST));
  // The default state: applications and runtimes resetting state set it (Wine's
  // test_clear_state reads it back after ClearState).
  EXPECT_PASS(validatePrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED));
  for (uint32_t bad : {6u, 9u, 14u, 32u, 65u, 0xffffffffu})
    EXPECT_REJECT(validatePrimitiveTopology(bad), PrimitiveTopology, Ignore);
}

TEST(DrawState, ClearDepthStencil) {
  EXPECT_PASS(validateClearDepthStencil(D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 1.0f));
  EXPECT_PASS(validateClearDepthStencil(D3D11_CLEAR_STENCIL, 7.0f));   // depth unused
  EXPECT_REJECT(validateClearDepthStencil(0, 0.0f), ClearDepthStencilFlags, Ignore);
  EXPECT_REJECT(validateClearDepthStencil(0x4, 0.0f), ClearDepthStencilFlags, Ignore);
  EXPECT_REJECT(validateClearDepthStencil(D3D11_CLEAR_DEPTH, 1.5f), ClearDepthStencilFlags, Ignore);
  EXPECT_REJECT(validateClearDepthStencil(D3D11_CLEAR_DEPTH, std::nanf("")), ClearDepthStencilFlags, Ignore);
}

TEST(DrawState, ResolveSubresource) {
  auto msaa = texture2D(DXGI_FORMAT_R8G8B8A8_TYPELESS, 64, 64);
  msaa.sampleCount = 4;
  auto single = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64);
  EXPECT_PASS(validateResolveSubresource(single, 0, msaa, 0, DXGI_FORMAT_R8G8B8A8_UNORM));
  EXPECT_REJECT(validateResolveSubresource(single, 0, single, 0, DXGI_FORMAT_R8G8B8A8_UNORM), ResolveMismatch, Ignore);
  EXPECT_REJECT(validateResolveSubresource(single, 0, msaa, 0, DXGI_FORMAT_R8G8B8A8_TYPELESS), ResolveMismatch, Ignore);
  EXPECT_REJECT(validateResolveSubresource(single, 0, msaa, 0, DXGI_FORMAT_R32_FLOAT), ResolveMismatch, Ignore);
  EXPECT_REJECT(validateResolveSubresource(texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 64), 0, msaa, 0,
                                           DXGI_FORMAT_R8G8B8A8_UNORM), ResolveMismatch, Ignore);
  EXPECT_REJECT(validateResolveSubresource(single, 1, msaa, 0, DXGI_FORMAT_R8G8B8A8_UNORM), SubresourceIndex, Ignore);
}

TEST(DrawState, GenerateMips) {
  auto plain = texture2D(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 0);
  EXPECT_REJECT(validateGenerateMips(plain), GenerateMipsResource, Ignore);
  plain.miscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS;
  EXPECT_PASS(validateGenerateMips(plain));
}

}  // namespace
