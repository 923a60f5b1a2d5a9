// SPDX-License-Identifier: MIT
// CreateBuffer / CreateTexture{1D,2D,3D} description rules. Expected results follow the
// D3D11_BUFFER_DESC, D3D11_TEXTURE*_DESC and D3D11_USAGE documentation; where the
// documentation is silent the reference is Wine's d3d11 conformance tests
// (dlls/d3d11/tests/d3d11.c: test_create_buffer, test_create_texture2d, ...), which
// record Windows' results.

#include "test_helpers.h"

#include "npt/validation/resource.h"

using namespace npt::validation;
using npt::validation::test::Case;

namespace {

D3D11_BUFFER_DESC validBuffer() {
  D3D11_BUFFER_DESC desc{};
  desc.ByteWidth = 1024;
  desc.Usage = D3D11_USAGE_DEFAULT;
  desc.BindFlags = D3D11_BIND_VERTEX_BUFFER;
  return desc;
}

using BufferCase = Case<D3D11_BUFFER_DESC>;

class BufferDescTest : public ::testing::TestWithParam<BufferCase> {};

TEST_P(BufferDescTest, Rule) {
  D3D11_BUFFER_DESC desc = validBuffer();
  GetParam().mutate(desc);
  const bool immutable = desc.Usage == D3D11_USAGE_IMMUTABLE;
  Check check = validateBufferDesc(desc, /*hasInitialData=*/immutable && GetParam().name != "ImmutableWithoutData");
  EXPECT_TRUE(test::hasResult(check, GetParam().rule, GetParam().outcome));
}

const BufferCase kBufferCases[] = {
  {"Valid", [](auto&) {}, Rule::Ok, Outcome::Pass},
  {"ValidConstant", [](auto& d) { d.BindFlags = D3D11_BIND_CONSTANT_BUFFER; d.ByteWidth = 256; }, Rule::Ok, Outcome::Pass},
  {"ValidDynamicConstant", [](auto& d) { d.BindFlags = D3D11_BIND_CONSTANT_BUFFER; d.ByteWidth = 64;
     d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; }, Rule::Ok, Outcome::Pass},
  {"ValidStaging", [](auto& d) { d.BindFlags = 0; d.Usage = D3D11_USAGE_STAGING;
     d.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE; }, Rule::Ok, Outcome::Pass},
  {"ValidStructured", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 16; }, Rule::Ok, Outcome::Pass},
  {"ValidRaw", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS; }, Rule::Ok, Outcome::Pass},
  {"ValidImmutable", [](auto& d) { d.Usage = D3D11_USAGE_IMMUTABLE; }, Rule::Ok, Outcome::Pass},
  // Wine test_create_buffer: DEFAULT + SRV-only with CPU access succeeds on Windows (FL11).
  {"DefaultSrvWithCpuAccess", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
     d.CPUAccessFlags = D3D11_CPU_ACCESS_READ; }, Rule::Ok, Outcome::Pass},
  // Wine test_create_rendertarget_view: a buffer bound as a render target is created (Windows, FL11).
  {"RenderTargetBuffer", [](auto& d) { d.BindFlags = D3D11_BIND_RENDER_TARGET; }, Rule::Ok, Outcome::Pass},
  {"ZeroByteWidth", [](auto& d) { d.ByteWidth = 0; }, Rule::BufferByteWidthZero, Outcome::Fail},
  {"ConstantNotMultipleOf16", [](auto& d) { d.BindFlags = D3D11_BIND_CONSTANT_BUFFER; d.ByteWidth = 20; },
   Rule::BufferConstantSize, Outcome::Fail},
  {"ConstantCombined", [](auto& d) { d.BindFlags = D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_VERTEX_BUFFER; },
   Rule::BufferConstantBindExclusive, Outcome::Fail},
  {"DefaultWithCpuAccess", [](auto& d) { d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; }, Rule::ResourceCpuAccess,
   Outcome::Fail},
  {"DynamicWithoutCpuWrite", [](auto& d) { d.Usage = D3D11_USAGE_DYNAMIC; }, Rule::ResourceCpuAccess, Outcome::Fail},
  {"DynamicWithCpuRead", [](auto& d) { d.Usage = D3D11_USAGE_DYNAMIC;
     d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE | D3D11_CPU_ACCESS_READ; }, Rule::ResourceCpuAccess, Outcome::Fail},
  {"DynamicUav", [](auto& d) { d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
     d.BindFlags = D3D11_BIND_UNORDERED_ACCESS; }, Rule::ResourceUsage, Outcome::Fail},
  {"DynamicStreamOutput", [](auto& d) { d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
     d.BindFlags = D3D11_BIND_STREAM_OUTPUT; }, Rule::ResourceUsage, Outcome::Fail},
  {"DynamicNoBind", [](auto& d) { d.Usage = D3D11_USAGE_DYNAMIC; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
     d.BindFlags = 0; }, Rule::ResourceUsage, Outcome::Fail},
  {"StagingBound", [](auto& d) { d.Usage = D3D11_USAGE_STAGING; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ; },
   Rule::ResourceUsage, Outcome::Fail},
  {"StagingNoCpuAccess", [](auto& d) { d.Usage = D3D11_USAGE_STAGING; d.BindFlags = 0; }, Rule::ResourceCpuAccess,
   Outcome::Fail},
  {"ImmutableCpuAccess", [](auto& d) { d.Usage = D3D11_USAGE_IMMUTABLE; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ; },
   Rule::ResourceCpuAccess, Outcome::Fail},
  {"ImmutableUav", [](auto& d) { d.Usage = D3D11_USAGE_IMMUTABLE; d.BindFlags = D3D11_BIND_UNORDERED_ACCESS; },
   Rule::ResourceUsage, Outcome::Fail},
  {"ImmutableWithoutData", [](auto& d) { d.Usage = D3D11_USAGE_IMMUTABLE; }, Rule::ResourceImmutableNoData,
   Outcome::Fail},
  {"InvalidUsage", [](auto& d) { d.Usage = D3D11_USAGE(7); }, Rule::ResourceUsage, Outcome::Fail},
  {"UnknownBindFlag", [](auto& d) { d.BindFlags |= 0x10000; }, Rule::ResourceUnknownFlags, Outcome::Fail},
  {"UnknownCpuFlag", [](auto& d) { d.Usage = D3D11_USAGE_STAGING; d.BindFlags = 0; d.CPUAccessFlags = 0x4; },
   Rule::ResourceUnknownFlags, Outcome::Fail},
  {"UnknownMiscFlag", [](auto& d) { d.MiscFlags = 0x80000000u; }, Rule::ResourceUnknownFlags, Outcome::Fail},
  {"DepthStencilBuffer", [](auto& d) { d.BindFlags = D3D11_BIND_DEPTH_STENCIL; }, Rule::BufferBindFlags,
   Outcome::Fail},
  {"TextureCubeOnBuffer", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE; }, Rule::BufferMiscFlags,
   Outcome::Fail},
  {"GenerateMipsOnBuffer", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS; }, Rule::BufferMiscFlags,
   Outcome::Fail},
  {"StructuredStrideZero", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; }, Rule::BufferStructureStride, Outcome::Fail},
  {"StructuredStrideUnaligned", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 6; }, Rule::BufferStructureStride,
   Outcome::Fail},
  {"StructuredStrideTooLarge", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE; d.ByteWidth = 4096;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 4096; }, Rule::BufferStructureStride,
   Outcome::Fail},
  {"StructuredWidthNotMultiple", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE; d.ByteWidth = 1000;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 12; }, Rule::BufferStructureStride,
   Outcome::Fail},
  {"StructuredVertexBuffer", [](auto& d) { d.BindFlags = D3D11_BIND_VERTEX_BUFFER;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; d.StructureByteStride = 16; }, Rule::BufferBindFlags,
   Outcome::Fail},
  {"StructuredAndRaw", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE; d.StructureByteStride = 16;
     d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS; },
   Rule::BufferMiscFlags, Outcome::Fail},
  {"RawWithoutViewBinding", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS; },
   Rule::BufferMiscFlags, Outcome::Fail},
  {"SharedKeyedMutexAndShared", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_SHARED |
     D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX; }, Rule::ResourceSharedFlags, Outcome::Fail},
  {"TooLarge", [](auto& d) { d.ByteWidth = 0xfffffff0u; }, Rule::BufferTooLarge, Outcome::Fail},
};

INSTANTIATE_TEST_SUITE_P(Buffer, BufferDescTest, ::testing::ValuesIn(kBufferCases), test::caseName<D3D11_BUFFER_DESC>);

TEST(BufferDesc, ConstantBufferLimitDependsOnFeatureLevel) {
  D3D11_BUFFER_DESC desc = validBuffer();
  desc.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
  desc.ByteWidth = 65536 + 16;
  DeviceLimits fl11_0;
  fl11_0.featureLevel = D3D_FEATURE_LEVEL_11_0;
  EXPECT_REJECT(validateBufferDesc(desc, false, fl11_0), BufferConstantSize, Fail);
  EXPECT_PASS(validateBufferDesc(desc, false));
}

D3D11_TEXTURE2D_DESC validTexture2D() {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = 256;
  desc.Height = 128;
  desc.MipLevels = 0;
  desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = D3D11_USAGE_DEFAULT;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
  return desc;
}

using Texture2DCase = Case<D3D11_TEXTURE2D_DESC>;
class Texture2DDescTest : public ::testing::TestWithParam<Texture2DCase> {};

TEST_P(Texture2DDescTest, Rule) {
  D3D11_TEXTURE2D_DESC desc = validTexture2D();
  GetParam().mutate(desc);
  EXPECT_TRUE(test::hasResult(validateTexture2DDesc(desc, desc.Usage == D3D11_USAGE_IMMUTABLE), GetParam().rule,
                              GetParam().outcome));
}

const Texture2DCase kTexture2DCases[] = {
  {"Valid", [](auto&) {}, Rule::Ok, Outcome::Pass},
  {"ValidMaxSize", [](auto& d) { d.Width = 16384; d.Height = 16384; d.MipLevels = 1;
     d.Format = DXGI_FORMAT_R8_UNORM; }, Rule::Ok, Outcome::Pass},
  {"ValidFullChainExplicit", [](auto& d) { d.MipLevels = 9; }, Rule::Ok, Outcome::Pass},
  {"ValidCube", [](auto& d) { d.Height = 256; d.ArraySize = 12; d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE; },
   Rule::Ok, Outcome::Pass},
  {"ValidDepth", [](auto& d) { d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT; d.BindFlags = D3D11_BIND_DEPTH_STENCIL; },
   Rule::Ok, Outcome::Pass},
  {"ValidTypelessDepthSrv", [](auto& d) { d.Format = DXGI_FORMAT_R24G8_TYPELESS;
     d.BindFlags = D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE; }, Rule::Ok, Outcome::Pass},
  {"ValidBc1", [](auto& d) { d.Format = DXGI_FORMAT_BC1_UNORM; d.BindFlags = D3D11_BIND_SHADER_RESOURCE; },
   Rule::Ok, Outcome::Pass},
  {"ValidMsaa", [](auto& d) { d.MipLevels = 1; d.SampleDesc.Count = 4; }, Rule::Ok, Outcome::Pass},
  // Fixed sample patterns: D3D11_STANDARD_MULTISAMPLE_QUALITY_LEVELS documentation (10.1 and later; 1, 2, 4,
  // 8 and 16 samples).
  {"ValidStandardPattern", [](auto& d) { d.MipLevels = 1; d.SampleDesc = {4, UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN)}; },
   Rule::Ok, Outcome::Pass},
  {"ValidCenterPattern", [](auto& d) { d.MipLevels = 1; d.SampleDesc = {8, UINT(D3D11_CENTER_MULTISAMPLE_PATTERN)}; },
   Rule::Ok, Outcome::Pass},
  {"StandardPatternThreeSamples", [](auto& d) { d.MipLevels = 1;
     d.SampleDesc = {3, UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN)}; }, Rule::TextureSampleDesc, Outcome::Fail},
  {"CenterPatternThirtyTwoSamples", [](auto& d) { d.MipLevels = 1;
     d.SampleDesc = {32, UINT(D3D11_CENTER_MULTISAMPLE_PATTERN)}; }, Rule::TextureSampleDesc, Outcome::Fail},
  {"StandardPatternWithMips", [](auto& d) { d.SampleDesc = {4, UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN)}; },
   Rule::TextureSampleDesc, Outcome::Fail},
  {"ValidNv12", [](auto& d) { d.Format = DXGI_FORMAT_NV12; d.MipLevels = 1;
     d.BindFlags = D3D11_BIND_SHADER_RESOURCE; }, Rule::Ok, Outcome::Pass},
  {"ValidGenerateMips", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS; }, Rule::Ok, Outcome::Pass},
  {"ValidDynamic", [](auto& d) { d.MipLevels = 1; d.Usage = D3D11_USAGE_DYNAMIC;
     d.BindFlags = D3D11_BIND_SHADER_RESOURCE; d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; }, Rule::Ok, Outcome::Pass},
  // Wine test_create_texture2d: DEFAULT + RENDER_TARGET-only with CPU access succeeds on Windows.
  {"DefaultRtWithCpuAccess", [](auto& d) { d.BindFlags = D3D11_BIND_RENDER_TARGET;
     d.CPUAccessFlags = D3D11_CPU_ACCESS_READ; }, Rule::Ok, Outcome::Pass},
  {"ZeroWidth", [](auto& d) { d.Width = 0; }, Rule::TextureDimension, Outcome::Fail},
  {"ZeroHeight", [](auto& d) { d.Height = 0; }, Rule::TextureDimension, Outcome::Fail},
  {"TooWide", [](auto& d) { d.Width = 16385; }, Rule::TextureDimension, Outcome::Fail},
  {"ZeroArraySize", [](auto& d) { d.ArraySize = 0; }, Rule::TextureArraySize, Outcome::Fail},
  {"TooManySlices", [](auto& d) { d.ArraySize = 2049; }, Rule::TextureArraySize, Outcome::Fail},
  {"TooManyMips", [](auto& d) { d.MipLevels = 10; }, Rule::TextureMipLevels, Outcome::Fail},
  {"UnknownFormat", [](auto& d) { d.Format = DXGI_FORMAT_UNKNOWN; }, Rule::TextureFormat, Outcome::Fail},
  {"UndefinedFormat", [](auto& d) { d.Format = DXGI_FORMAT(150); }, Rule::TextureFormat, Outcome::Fail},
  {"D3D12OnlyFormat", [](auto& d) { d.Format = DXGI_FORMAT(189); }, Rule::TextureFormat, Outcome::Fail},
  {"Bc1Unaligned", [](auto& d) { d.Format = DXGI_FORMAT_BC1_UNORM; d.Width = 6; d.Height = 8;
     d.BindFlags = D3D11_BIND_SHADER_RESOURCE; }, Rule::TextureBlockAlignment, Outcome::Fail},
  {"Nv12OddSize", [](auto& d) { d.Format = DXGI_FORMAT_NV12; d.Width = 3; d.MipLevels = 1;
     d.BindFlags = D3D11_BIND_SHADER_RESOURCE; }, Rule::TextureBlockAlignment, Outcome::Fail},
  {"Bc1RenderTarget", [](auto& d) { d.Format = DXGI_FORMAT_BC1_UNORM; }, Rule::TextureFormatBind, Outcome::Fail},
  {"ColorDepthStencil", [](auto& d) { d.BindFlags = D3D11_BIND_DEPTH_STENCIL; }, Rule::TextureFormatBind,
   Outcome::Fail},
  {"DepthAndRenderTarget", [](auto& d) { d.Format = DXGI_FORMAT_R32_TYPELESS;
     d.BindFlags = D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_RENDER_TARGET; }, Rule::TextureFormatBind, Outcome::Fail},
  {"TypedDepthShaderResource", [](auto& d) { d.Format = DXGI_FORMAT_D32_FLOAT;
     d.BindFlags = D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE; }, Rule::TextureFormatBind, Outcome::Fail},
  {"VertexBufferTexture", [](auto& d) { d.BindFlags = D3D11_BIND_VERTEX_BUFFER; }, Rule::TextureBindFlags,
   Outcome::Fail},
  {"ConstantBufferTexture", [](auto& d) { d.BindFlags = D3D11_BIND_CONSTANT_BUFFER; }, Rule::TextureBindFlags,
   Outcome::Fail},
  {"StructuredTexture", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED; }, Rule::TextureMiscFlags,
   Outcome::Fail},
  {"ZeroSamples", [](auto& d) { d.SampleDesc.Count = 0; }, Rule::TextureSampleDesc, Outcome::Fail},
  {"QualityWithoutMsaa", [](auto& d) { d.SampleDesc.Quality = 1; }, Rule::TextureSampleDesc, Outcome::Fail},
  {"MsaaWithMips", [](auto& d) { d.SampleDesc.Count = 4; }, Rule::TextureSampleDesc, Outcome::Fail},
  {"MsaaUav", [](auto& d) { d.MipLevels = 1; d.SampleDesc.Count = 4; d.BindFlags = D3D11_BIND_UNORDERED_ACCESS; },
   Rule::TextureSampleDesc, Outcome::Fail},
  {"MsaaNotPowerOfTwo", [](auto& d) { d.MipLevels = 1; d.SampleDesc.Count = 3; }, Rule::TextureSampleDesc,
   Outcome::Fail},
  {"CubeTooFewSlices", [](auto& d) { d.Height = 256; d.ArraySize = 5; d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE; },
   Rule::TextureCube, Outcome::Fail},
  {"CubeNotSquare", [](auto& d) { d.ArraySize = 6; d.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE; },
   Rule::TextureCube, Outcome::Fail},
  {"GenerateMipsWithoutRt", [](auto& d) { d.BindFlags = D3D11_BIND_SHADER_RESOURCE;
     d.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS; }, Rule::TextureGenerateMips, Outcome::Fail},
  {"GenerateMipsSingleLevel", [](auto& d) { d.MipLevels = 1; d.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS; },
   Rule::TextureGenerateMips, Outcome::Fail},
  {"GdiCompatibleWrongFormat", [](auto& d) { d.MiscFlags = D3D11_RESOURCE_MISC_GDI_COMPATIBLE; },
   Rule::TextureMiscFlags, Outcome::Fail},
  {"DynamicRenderTarget", [](auto& d) { d.MipLevels = 1; d.Usage = D3D11_USAGE_DYNAMIC;
     d.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE; }, Rule::ResourceUsage, Outcome::Fail},
  {"StagingBound", [](auto& d) { d.Usage = D3D11_USAGE_STAGING; d.CPUAccessFlags = D3D11_CPU_ACCESS_READ; },
   Rule::ResourceUsage, Outcome::Fail},
  {"TooLarge", [](auto& d) { d.Width = 16384; d.Height = 16384; d.ArraySize = 64; d.MipLevels = 1;
     d.Format = DXGI_FORMAT_R32G32B32A32_FLOAT; }, Rule::TextureTooLarge, Outcome::Fail},
};

INSTANTIATE_TEST_SUITE_P(Texture2D, Texture2DDescTest, ::testing::ValuesIn(kTexture2DCases),
                         test::caseName<D3D11_TEXTURE2D_DESC>);

TEST(TextureDesc, CubesNeedSixSlicesButNotWholeCubes) {
  // Windows creates cube textures of 7, 9 or 10 slices and refuses 1, 3 or 5 (Wine's d3d11
  // suite, test_create_texture2d).
  D3D11_TEXTURE2D_DESC desc = validTexture2D();
  desc.Height = desc.Width;
  desc.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE;
  for (UINT slices : {6u, 7u, 9u, 10u, 12u}) {
    desc.ArraySize = slices;
    SCOPED_TRACE(slices);
    EXPECT_PASS(validateTexture2DDesc(desc, false));
  }
  desc.ArraySize = 5;
  EXPECT_REJECT(validateTexture2DDesc(desc, false), TextureCube, Fail);
}

TEST(TextureDesc, Texture1DRules) {
  D3D11_TEXTURE1D_DESC desc{};
  desc.Width = 1024;
  desc.MipLevels = 1;
  desc.ArraySize = 4;
  desc.Format = DXGI_FORMAT_R32_FLOAT;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  EXPECT_PASS(validateTexture1DDesc(desc, false));
  D3D11_TEXTURE1D_DESC bc = desc;
  bc.Format = DXGI_FORMAT_BC1_UNORM;
  EXPECT_REJECT(validateTexture1DDesc(bc, false), TextureFormat, Fail);
  D3D11_TEXTURE1D_DESC wide = desc;
  wide.Width = 16385;
  EXPECT_REJECT(validateTexture1DDesc(wide, false), TextureDimension, Fail);
  D3D11_TEXTURE1D_DESC mips = desc;
  mips.MipLevels = 12;   // 1024 has 11 levels
  EXPECT_REJECT(validateTexture1DDesc(mips, false), TextureMipLevels, Fail);
  D3D11_TEXTURE1D_DESC nv12 = desc;
  nv12.Format = DXGI_FORMAT_NV12;
  EXPECT_REJECT(validateTexture1DDesc(nv12, false), TextureFormat, Fail);
}

TEST(TextureDesc, Texture3DRules) {
  D3D11_TEXTURE3D_DESC desc{};
  desc.Width = 64;
  desc.Height = 64;
  desc.Depth = 2048;
  desc.MipLevels = 0;
  desc.Format = DXGI_FORMAT_R8_UNORM;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  EXPECT_PASS(validateTexture3DDesc(desc, false));
  EXPECT_EQ(shapeOf(desc).mipLevels, 12u);
  D3D11_TEXTURE3D_DESC deep = desc;
  deep.Depth = 2049;
  EXPECT_REJECT(validateTexture3DDesc(deep, false), TextureDimension, Fail);
  D3D11_TEXTURE3D_DESC depth = desc;
  depth.Depth = 4;
  depth.Format = DXGI_FORMAT_R32_TYPELESS;
  depth.BindFlags = D3D11_BIND_DEPTH_STENCIL;
  EXPECT_REJECT(validateTexture3DDesc(depth, false), TextureFormatBind, Fail);
  D3D11_TEXTURE3D_DESC cube = desc;
  cube.Depth = 64;
  cube.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE;
  EXPECT_REJECT(validateTexture3DDesc(cube, false), TextureCube, Fail);
}

// Device caps, when present, decide multisample quality and format support.
class FakeCaps : public FormatCaps {
public:
  UINT formatSupport(DXGI_FORMAT format) const override {
    if (format == DXGI_FORMAT_R32G32B32_FLOAT) return D3D11_FORMAT_SUPPORT_TEXTURE2D;   // no render target
    return D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_TEXTURE3D |
           D3D11_FORMAT_SUPPORT_TEXTURECUBE | D3D11_FORMAT_SUPPORT_RENDER_TARGET |
           D3D11_FORMAT_SUPPORT_DEPTH_STENCIL;
  }
  UINT multisampleQualityLevels(DXGI_FORMAT, UINT count) const override { return count == 4 ? 2 : count == 1; }
};

TEST(TextureDesc, CapsDecideMultisampleAndFormatSupport) {
  FakeCaps caps;
  DeviceLimits limits;
  limits.caps = &caps;
  D3D11_TEXTURE2D_DESC desc = validTexture2D();
  desc.MipLevels = 1;
  desc.SampleDesc = {4, 1};
  EXPECT_PASS(validateTexture2DDesc(desc, false, limits));
  desc.SampleDesc = {4, 2};
  EXPECT_REJECT(validateTexture2DDesc(desc, false, limits), TextureSampleDesc, Fail);
  desc.SampleDesc = {8, 0};
  EXPECT_REJECT(validateTexture2DDesc(desc, false, limits), TextureSampleDesc, Fail);
  desc.SampleDesc = {1, 0};
  desc.Format = DXGI_FORMAT_R32G32B32_FLOAT;
  EXPECT_REJECT(validateTexture2DDesc(desc, false, limits), TextureFormatUnsupported, Fail);
}

// A fixed pattern needs quality levels for its count (any number of them) and feature level 10.1.
TEST(TextureDesc, FixedSamplePatternsNeedLevelsAndFeatureLevel) {
  FakeCaps caps;
  DeviceLimits limits;
  limits.caps = &caps;
  D3D11_TEXTURE2D_DESC desc = validTexture2D();
  desc.MipLevels = 1;
  for (UINT pattern : {UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN), UINT(D3D11_CENTER_MULTISAMPLE_PATTERN)}) {
    desc.SampleDesc = {4, pattern};
    EXPECT_PASS(validateTexture2DDesc(desc, false, limits));
    desc.SampleDesc = {1, pattern};
    EXPECT_PASS(validateTexture2DDesc(desc, false, limits));
    desc.SampleDesc = {8, pattern};  // FakeCaps: no levels for 8 samples
    EXPECT_REJECT(validateTexture2DDesc(desc, false, limits), TextureSampleDesc, Fail);
    desc.SampleDesc = {4, pattern};
    limits.featureLevel = D3D_FEATURE_LEVEL_10_0;
    EXPECT_REJECT(validateTexture2DDesc(desc, false, limits), TextureSampleDesc, Fail);
    limits.featureLevel = D3D_FEATURE_LEVEL_10_1;
    EXPECT_PASS(validateTexture2DDesc(desc, false, limits));
    limits.featureLevel = D3D_FEATURE_LEVEL_11_1;
  }
  desc.SampleDesc = {4, 0xFFFFFFFDu};  // next to the patterns, but an ordinary (unsupported) quality
  EXPECT_REJECT(validateTexture2DDesc(desc, false, limits), TextureSampleDesc, Fail);
}

TEST(TextureDesc, ByteSizeIsOverflowSafe) {
  ResourceShape shape;
  shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
  shape.format = DXGI_FORMAT_R32G32B32A32_FLOAT;
  shape.width = 16384;
  shape.height = 16384;
  shape.mipLevels = 1;
  shape.arraySize = 2048;
  uint64_t bytes = 0;
  ASSERT_TRUE(textureByteSize(shape, bytes));
  EXPECT_EQ(bytes, 16384ull * 16384 * 16 * 2048);
  shape.format = DXGI_FORMAT_BC1_UNORM;
  shape.width = 8;
  shape.height = 8;
  shape.arraySize = 1;
  shape.mipLevels = 4;   // 8x8, 4x4, 2x2, 1x1 -> 4 + 1 + 1 + 1 blocks
  ASSERT_TRUE(textureByteSize(shape, bytes));
  EXPECT_EQ(bytes, 7u * 8);
}

}  // namespace
