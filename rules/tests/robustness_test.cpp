// SPDX-License-Identifier: MIT
// Hostile input: random descriptions, boxes, pitches and bytecode never crash a
// validator, and every rejection is a known rule with a message. Deterministic (fixed
// seeds) and bounded so it stays in the default test set; longer fuzzing belongs in
// bench/.

#include "test_helpers.h"

#include <cstring>
#include <random>
#include <vector>

#include "npt/validation/context_calls.h"
#include "npt/validation/shaders.h"
#include "npt/validation/states.h"
#include "npt/validation/subresource.h"
#include "npt/validation/views.h"

using namespace npt::validation;

namespace {

struct Random {
  std::mt19937 engine;
  explicit Random(uint32_t seed) : engine(seed) {}
  // Mostly small values (where the interesting boundaries are), sometimes anything.
  uint32_t value() {
    switch (engine() % 4) {
      case 0: return engine() % 8;
      case 1: return engine() % 300;
      case 2: return 1u << (engine() % 32);
      default: return engine();
    }
  }
  template <typename T>
  void fill(T& object) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint32_t words[(sizeof(T) + 3) / 4];
    for (uint32_t& word : words) word = value();
    std::memcpy(&object, words, sizeof(T));
  }
};

::testing::AssertionResult wellFormed(const Check& check) {
  if (check.passed()) return ::testing::AssertionSuccess();
  if (std::strcmp(ruleName(check.rule()), "UnknownRule") == 0)
    return ::testing::AssertionFailure() << "unknown rule " << check.code();
  if (check.message().empty()) return ::testing::AssertionFailure() << "no message for " << ruleName(check.rule());
  if (check.outcome() == Outcome::Fail && check.hr() != E_INVALIDARG)
    return ::testing::AssertionFailure() << "Fail without E_INVALIDARG";
  return ::testing::AssertionSuccess();
}

constexpr int kIterations = 20000;

TEST(Robustness, ResourceDescsViewsAndRegions) {
  Random random(1);
  size_t passedTextures = 0;
  for (int i = 0; i < kIterations; i++) {
    D3D11_TEXTURE2D_DESC desc;
    random.fill(desc);
    if (i % 2) {   // keep half of them plausible so later stages are reached
      desc.Width %= 512;
      desc.Height %= 512;
      desc.MipLevels %= 11;
      desc.ArraySize %= 8;
      static const DXGI_FORMAT formats[] = {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_TYPELESS,
                                            DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_NV12,
                                            DXGI_FORMAT_R16G16B16A16_FLOAT};
      desc.Format = formats[desc.Format % 6];
      desc.SampleDesc = {1, 0};
      desc.Usage = D3D11_USAGE_DEFAULT;
      desc.BindFlags &= D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS;
      desc.CPUAccessFlags = 0;
      desc.MiscFlags = 0;
    }
    Check check = validateTexture2DDesc(desc, i % 3 == 0);
    ASSERT_TRUE(wellFormed(check));
    if (!check.passed()) continue;
    passedTextures++;
    const ResourceShape shape = shapeOf(desc);
    D3D11_SHADER_RESOURCE_VIEW_DESC srv;
    random.fill(srv);
    srv.ViewDimension = D3D11_SRV_DIMENSION(srv.ViewDimension % 12);
    ASSERT_TRUE(wellFormed(validateShaderResourceView(shape, i % 5 ? &srv : nullptr)));
    D3D11_RENDER_TARGET_VIEW_DESC rtv;
    random.fill(rtv);
    ASSERT_TRUE(wellFormed(validateRenderTargetView(shape, &rtv)));
    D3D11_UNORDERED_ACCESS_VIEW_DESC uav;
    random.fill(uav);
    ASSERT_TRUE(wellFormed(validateUnorderedAccessView(shape, &uav)));
    D3D11_BOX box;
    random.fill(box);
    UpdateSubresourceArgs update;
    update.subresource = random.value() % (shape.subresourceCount() + 2);
    update.box = i % 4 ? &box : nullptr;
    update.rowPitch = random.value();
    update.depthPitch = random.value();
    update.size = random.value();
    ASSERT_TRUE(wellFormed(validateUpdateSubresource(shape, update)));
    std::vector<SubresourceData> data(shape.subresourceCount());
    for (SubresourceData& entry : data) entry = {true, random.value(), random.value(), random.value()};
    ASSERT_TRUE(wellFormed(validateInitialData(shape, data.data(), data.size())));
    CopyRegionArgs copy{random.value(), random.value(), random.value(), random.value(), random.value(),
                        i % 3 ? &box : nullptr};
    ASSERT_TRUE(wellFormed(validateCopySubresourceRegion(shape, shape, i % 2 == 0, copy)));
    ASSERT_TRUE(wellFormed(validateMap(shape, random.value(), D3D11_MAP(random.value()), random.value(), false)));
  }
  // The plausible half must reach the later stages often enough to mean something.
  EXPECT_GT(passedTextures, size_t(kIterations / 50));
}

TEST(Robustness, BuffersAndStates) {
  Random random(2);
  for (int i = 0; i < kIterations; i++) {
    D3D11_BUFFER_DESC buffer;
    random.fill(buffer);
    ASSERT_TRUE(wellFormed(validateBufferDesc(buffer, i % 2 == 0)));
    D3D11_BLEND_DESC1 blend;
    random.fill(blend);
    ASSERT_TRUE(wellFormed(validateBlendDesc1(blend)));
    D3D11_DEPTH_STENCIL_DESC depth;
    random.fill(depth);
    ASSERT_TRUE(wellFormed(validateDepthStencilDesc(depth)));
    D3D11_RASTERIZER_DESC2 raster;
    random.fill(raster);
    ASSERT_TRUE(wellFormed(validateRasterizerDesc2(raster)));
    D3D11_SAMPLER_DESC sampler;
    random.fill(sampler);
    ASSERT_TRUE(wellFormed(validateSamplerDesc(sampler)));
    ASSERT_TRUE(wellFormed(validateSlotRange(SlotKind(random.value() % 10), random.value(), random.value())));
  }
}

TEST(Robustness, ShaderContainers) {
  Random random(3);
  std::vector<uint8_t> bytes;
  for (int i = 0; i < kIterations; i++) {
    bytes.resize(random.value() % 512);
    for (uint8_t& b : bytes) b = uint8_t(random.engine());
    if (bytes.size() >= 32 && i % 2) {
      // A plausible header: magic, version 1, size = length, a few chunks.
      std::memcpy(bytes.data(), "DXBC", 4);
      const uint32_t one = 1, size = uint32_t(bytes.size()), count = random.value() % 6;
      std::memcpy(bytes.data() + 20, &one, 4);
      std::memcpy(bytes.data() + 24, &size, 4);
      std::memcpy(bytes.data() + 28, &count, 4);
    }
    Check check = validateShaderBytecode(bytes.data(), bytes.size(), ShaderStage(random.value() % 6));
    ASSERT_TRUE(wellFormed(check));
    // Random bytes never carry a valid checksum.
    EXPECT_FALSE(check.passed());
    D3D11_INPUT_ELEMENT_DESC element{"POSITION", 0, DXGI_FORMAT(random.value() % 120), random.value() % 40,
                                     random.value(), D3D11_INPUT_CLASSIFICATION(random.value() % 3), random.value()};
    ASSERT_TRUE(wellFormed(validateInputLayout(&element, 1, bytes.data(), bytes.size())));
  }
}

}  // namespace
