// SPDX-License-Identifier: MIT
// Dynamic linkage (and the GetCaps-backed CheckFeatureSupport) through the API-level runtime (triton/runtime's d3d11.dll) on Triton
// with the Neptune guest runtime as Triton's target: ID3D11ClassLinkage and its instances
// are the runtime's (CreateClassInstance, GetClassInstance from the shader's IFCE chunk,
// CSGetShader's instances), CSSetShader with an instance becomes CsSetShaderWithIfaces,
// Triton binds a target class instance of the Neptune device, the host executes on Wine's
// d3d11. The program's output is compared with the system d3d11 running the same shader.
//
//   TRITON_RUNTIME_DLL   a copy of the runtime's d3d11.dll under another name (the system
//                        d3d11.dll is loaded too), beside a copy of triton_umd.dll

#include <gtest/gtest.h>

#include <d3d11.h>
#include <wrl/client.h>

#include <cstring>
#include <vector>

#include "cs_interfaces.h"
#include "dxbc/interfaces.h"
#include "runtime_test_support.h"

namespace triton::test {
namespace {

using Microsoft::WRL::ComPtr;

constexpr UINT kTexels = 4;
constexpr float kConstants[16] = {1, 0, 0, 1, 0, 1, 0, 1, 0.5f, 0.25f, 0.125f, 1, 0, 0, 1, 1};

// The same classes as driver_class_linkage_test: type 0 cConstant -> table 1, type 1
// cFromData -> table 0, instance g_third of cFromData at cb0[2].
std::vector<uint8_t> interfaceContainer() {
  std::vector<uint8_t> container(cs_interfaces, cs_interfaces + cs_interfaces_size);
  dxbc::InterfacesChunk chunk;
  chunk.types = {{"cConstant", 0, 0, 0, 0}, {"cFromData", 1, 1, 0, 0}};
  chunk.instances = {{"g_third", 1, 0, 0, 2, dxbc::kNoInstanceBinding, dxbc::kNoInstanceBinding}};
  chunk.slots = {{1, {0, 1}, {1, 0}}};
  chunk.slotCount = 1;
  EXPECT_TRUE(dxbc::addInterfacesChunk(container, chunk).ok());
  return container;
}

// Dispatches one 4x4 group of `cs` bound with `instance` (may be null) and reads u0.
std::vector<float> dispatch(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11ComputeShader* cs,
                            ID3D11ClassInstance* instance) {
  ComPtr<ID3D11Buffer> cb;
  const D3D11_BUFFER_DESC cbDesc{sizeof(kConstants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA init{kConstants, 0, 0};
  EXPECT_EQ(device->CreateBuffer(&cbDesc, &init, &cb), S_OK);
  D3D11_TEXTURE2D_DESC desc{kTexels, kTexels, 1, 1, DXGI_FORMAT_R32G32B32A32_FLOAT, {1, 0}, D3D11_USAGE_DEFAULT,
                            D3D11_BIND_UNORDERED_ACCESS, 0, 0};
  ComPtr<ID3D11Texture2D> target, staging;
  EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &target), S_OK);
  desc.Usage = D3D11_USAGE_STAGING;
  desc.BindFlags = 0;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &staging), S_OK);
  ComPtr<ID3D11UnorderedAccessView> uav;
  EXPECT_EQ(device->CreateUnorderedAccessView(target.Get(), nullptr, &uav), S_OK);
  context->CSSetShader(cs, &instance, 1);
  context->CSSetConstantBuffers(0, 1, cb.GetAddressOf());
  context->CSSetUnorderedAccessViews(0, 1, uav.GetAddressOf(), nullptr);
  context->Dispatch(1, 1, 1);
  context->CopyResource(staging.Get(), target.Get());
  D3D11_MAPPED_SUBRESOURCE mapped{};
  std::vector<float> out;
  if (context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK) {
    for (UINT y = 0; y < kTexels; ++y) {
      const float* row = reinterpret_cast<const float*>(static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch);
      out.insert(out.end(), row, row + kTexels * 4);
    }
    context->Unmap(staging.Get(), 0);
  }
  context->CSSetShader(nullptr, nullptr, 0);
  return out;
}

TEST(RuntimeClassLinkage, InstancesReachTheDriverAndTheTarget) {
  const std::vector<uint8_t> container = interfaceContainer();
  const char* runtimePath = std::getenv("TRITON_RUNTIME_DLL");
  ASSERT_TRUE(runtimePath);
  Loaded runtime = load(windowsPath(runtimePath).c_str());
  Loaded system = load("d3d11.dll");
  ASSERT_TRUE(system.create && runtime.create);
  ASSERT_NE(system.module, runtime.module);

  const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  ASSERT_EQ(runtime.create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &device,
                           nullptr, &context),
            S_OK);
  ComPtr<ID3D11ClassLinkage> linkage;
  ASSERT_EQ(device->CreateClassLinkage(&linkage), S_OK);
  ComPtr<ID3D11ComputeShader> cs;
  ASSERT_EQ(device->CreateComputeShader(container.data(), container.size(), linkage.Get(), &cs), S_OK);

  // The declared instance, from the shader's IFCE chunk.
  ComPtr<ID3D11ClassInstance> declared;
  ASSERT_EQ(linkage->GetClassInstance("g_third", 0, &declared), S_OK);
  D3D11_CLASS_INSTANCE_DESC desc{};
  declared->GetDesc(&desc);
  EXPECT_EQ(desc.TypeId, 1u);
  EXPECT_EQ(desc.BaseConstantBufferOffset, 2u);
  EXPECT_FALSE(desc.Created);
  char name[32] = {};
  SIZE_T length = sizeof(name);
  declared->GetTypeName(name, &length);
  EXPECT_STREQ(name, "cFromData");
  EXPECT_EQ(length, sizeof("cFromData"));
  length = sizeof(name);
  declared->GetInstanceName(name, &length);
  EXPECT_STREQ(name, "g_third");
  ComPtr<ID3D11ClassInstance> missing;
  EXPECT_EQ(linkage->GetClassInstance("g_none", 0, &missing), E_INVALIDARG);
  ComPtr<ID3D11ClassLinkage> owner;
  declared->GetClassLinkage(&owner);
  EXPECT_EQ(owner.Get(), linkage.Get());

  ComPtr<ID3D11ClassInstance> created;
  ASSERT_EQ(linkage->CreateClassInstance("cConstant", 0, 0, 0, 0, &created), S_OK);
  created->GetDesc(&desc);
  EXPECT_EQ(desc.TypeId, 0u);
  EXPECT_TRUE(desc.Created);

  // Bound instances come back from CSGetShader.
  ID3D11ClassInstance* bound = declared.Get();
  context->CSSetShader(cs.Get(), &bound, 1);
  ComPtr<ID3D11ComputeShader> got;
  ID3D11ClassInstance* instances[4] = {};
  UINT count = 4;
  context->CSGetShader(&got, instances, &count);
  EXPECT_EQ(got.Get(), cs.Get());
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(instances[0], declared.Get());
  EXPECT_EQ(instances[1], nullptr);
  if (instances[0]) instances[0]->Release();

  // Through the runtime, Triton and Neptune the binding succeeds (the Neptune device takes
  // class instances; the host's Wine d3d11 does not run them). The texels equal the
  // system d3d11 running the shader with the instance its linkage can give (none: Wine's
  // CreateClassInstance is E_NOTIMPL).
  for (ID3D11ClassInstance* instance : {declared.Get(), created.Get()}) {
    const std::vector<float> viaTriton = dispatch(device.Get(), context.Get(), cs.Get(), instance);
    EXPECT_EQ(device->GetDeviceRemovedReason(), S_OK);
    ComPtr<ID3D11Device> direct;
    ComPtr<ID3D11DeviceContext> directContext;
    ASSERT_EQ(system.create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &direct,
                            nullptr, &directContext),
              S_OK);
    ComPtr<ID3D11ClassLinkage> directLinkage;
    ComPtr<ID3D11ComputeShader> directCs;
    ASSERT_EQ(direct->CreateClassLinkage(&directLinkage), S_OK);
    ASSERT_EQ(direct->CreateComputeShader(container.data(), container.size(), directLinkage.Get(), &directCs), S_OK);
    ComPtr<ID3D11ClassInstance> directInstance;
    instance->GetDesc(&desc);
    length = sizeof(name);
    instance->GetTypeName(name, &length);
    const HRESULT hr = directLinkage->CreateClassInstance(name, desc.ConstantBuffer, desc.BaseConstantBufferOffset,
                                                          0, 0, &directInstance);
    const std::vector<float> reference = dispatch(direct.Get(), directContext.Get(), directCs.Get(),
                                                  directInstance.Get());
    ASSERT_EQ(viaTriton.size(), size_t(kTexels * kTexels * 4));
    EXPECT_TRUE(viaTriton == reference) << name;
    if (FAILED(hr))
      std::printf("[ note ] the system d3d11 refuses CreateClassInstance (0x%08lx); u0[0] = %g %g %g %g both ways\n",
                  static_cast<unsigned long>(hr), viaTriton[0], viaTriton[1], viaTriton[2], viaTriton[3]);
  }
}

// CheckFeatureSupport of the features GetCaps describes: through the runtime, Triton and
// the Neptune device (the host's caps snapshot) they equal the system d3d11's answers,
// except DriverCommandLists (Triton always builds command lists on the target's deferred
// contexts). Format support and D3D11_OPTIONS: runtime_caps_test.cpp.
TEST(RuntimeFeatureSupport, GetCapsFeaturesMatchTheSystemD3D11) {
  const char* runtimePath = std::getenv("TRITON_RUNTIME_DLL");
  ASSERT_TRUE(runtimePath);
  Loaded runtime = load(windowsPath(runtimePath).c_str());
  Loaded system = load("d3d11.dll");
  ASSERT_TRUE(system.create && runtime.create);
  const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
  ComPtr<ID3D11Device> device, direct;
  ASSERT_EQ(runtime.create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &device,
                           nullptr, nullptr),
            S_OK);
  ASSERT_EQ(system.create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &direct,
                          nullptr, nullptr),
            S_OK);
  auto same = [&](D3D11_FEATURE feature, auto data) {
    decltype(data) ours{}, theirs{};
    ASSERT_EQ(device->CheckFeatureSupport(feature, &ours, sizeof(ours)), S_OK) << feature;
    // A feature the system d3d11 does not answer (Wine: SHADER_MIN_PRECISION_SUPPORT) is
    // one the target reports nothing for: Triton's GetCaps answers zero (none).
    if (FAILED(direct->CheckFeatureSupport(feature, &theirs, sizeof(theirs))))
      theirs = {};
    EXPECT_EQ(std::memcmp(&ours, &theirs, sizeof(ours)), 0) << feature;
    EXPECT_EQ(device->CheckFeatureSupport(feature, &ours, sizeof(ours) + 1), E_INVALIDARG) << feature;
  };
  same(D3D11_FEATURE_DOUBLES, D3D11_FEATURE_DATA_DOUBLES{});
  same(D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS{});
  same(D3D11_FEATURE_ARCHITECTURE_INFO, D3D11_FEATURE_DATA_ARCHITECTURE_INFO{});
  same(D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT, D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT{});
  // Wine answers E_NOTIMPL for the D3D9-era features; every level from 10_0 has them.
  D3D11_FEATURE_DATA_D3D9_OPTIONS d3d9{};
  ASSERT_EQ(device->CheckFeatureSupport(D3D11_FEATURE_D3D9_OPTIONS, &d3d9, sizeof(d3d9)), S_OK);
  EXPECT_TRUE(d3d9.FullNonPow2TextureSupport);
  D3D11_FEATURE_DATA_THREADING ours{}, theirs{};
  ASSERT_EQ(device->CheckFeatureSupport(D3D11_FEATURE_THREADING, &ours, sizeof(ours)), S_OK);
  ASSERT_EQ(direct->CheckFeatureSupport(D3D11_FEATURE_THREADING, &theirs, sizeof(theirs)), S_OK);
  EXPECT_EQ(ours.DriverConcurrentCreates, theirs.DriverConcurrentCreates);
  EXPECT_TRUE(ours.DriverCommandLists);
}

}  // namespace
}  // namespace triton::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new triton::test::NeptuneServer("triton-runtime-linkage-test"));
  return RUN_ALL_TESTS();
}
