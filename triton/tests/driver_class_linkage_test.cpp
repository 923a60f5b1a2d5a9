// SPDX-License-Identifier: MIT
// Dynamic shader linkage through the DDI: an assembled cs_5_0 program with one interface
// slot that two classes implement (shaders/cs_interfaces.asm), its IFCE chunk added as fxc
// would write it. The harness resolves class instances the way the runtime does (class
// type -> the function table it selects in the slot, data location -> POINTERDATA) and
// calls CsSetShaderWithIfaces; Triton creates the shader with its class linkage and an
// IFCE of its own and binds target class instances. Each dispatch is compared with the
// same program run directly on the system d3d11 with ID3D11ClassLinkage.

#include <gtest/gtest.h>

#include <cstring>

#include "cs_interfaces.h"
#include "driver_test_support.h"
#include "dxbc/interfaces.h"

namespace triton::test {
namespace {

constexpr UINT kTexels = 4;   // one 4x4 thread group, one texel per thread
constexpr const char* kPlainComputeShader = "vkd3d/vkd3d_0206_34fed16759d7.dxbc";   // no interfaces

// cb0: four distinct colours; the data-reading class returns the one at its vector offset.
constexpr float kConstants[16] = {1, 0, 0, 1, 0, 1, 0, 1, 0.5f, 0.25f, 0.125f, 1, 0, 0, 1, 1};
constexpr float kTableOneColour[4] = {0.25f, 0.5f, 0.75f, 1};   // fb1's literal

// The program's classes: type 0 "cConstant" selects function table 1, type 1 "cFromData"
// table 0 (the ids differ on purpose: the runtime must map types to tables); one declared
// instance "g_third" of cFromData whose data is cb0[2].
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

D3D11_TEXTURE2D_DESC texture(D3D11_USAGE usage, UINT bind, UINT cpu) {
  return D3D11_TEXTURE2D_DESC{kTexels, kTexels, 1, 1, DXGI_FORMAT_R32G32B32A32_FLOAT, {1, 0}, usage, bind, cpu, 0};
}

std::vector<float> packRows(const void* data, UINT rowPitch) {
  std::vector<float> out(kTexels * kTexels * 4);
  for (UINT y = 0; y < kTexels; ++y)
    std::memcpy(out.data() + y * kTexels * 4, static_cast<const uint8_t*>(data) + y * rowPitch, kTexels * 16);
  return out;
}

// The same dispatch on the system d3d11 with the API's class linkage; `instanceResult`
// receives what the linkage answered for the instance (Wine's d3d11: E_NOTIMPL).
std::vector<float> runDirect(const std::vector<uint8_t>& container, const harness::ClassInstanceDesc& desc,
                             bool declared, HRESULT& instanceResult) {
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  EXPECT_EQ(createReferenceDeviceAt(D3D_FEATURE_LEVEL_11_0, device, context), S_OK);
  if (!device)
    return {};
  ComPtr<ID3D11ClassLinkage> linkage;
  ComPtr<ID3D11ComputeShader> cs;
  ComPtr<ID3D11ClassInstance> instance;
  EXPECT_EQ(device->CreateClassLinkage(&linkage), S_OK);
  EXPECT_EQ(device->CreateComputeShader(container.data(), container.size(), linkage.Get(), &cs), S_OK);
  // A declared instance is the same binding as one created at the declared location.
  instanceResult = declared ? linkage->GetClassInstance("g_third", 0, &instance) : E_FAIL;
  if (FAILED(instanceResult))
    instanceResult = linkage->CreateClassInstance(desc.typeName.c_str(), desc.constantBuffer,
                                                  desc.constantVectorOffset, desc.texture, desc.sampler, &instance);
  ComPtr<ID3D11Buffer> cb;
  const D3D11_BUFFER_DESC cbDesc{sizeof(kConstants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA init{kConstants, 0, 0};
  EXPECT_EQ(device->CreateBuffer(&cbDesc, &init, &cb), S_OK);
  ComPtr<ID3D11Texture2D> target, staging;
  const D3D11_TEXTURE2D_DESC targetDesc = texture(D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0);
  const D3D11_TEXTURE2D_DESC stagingDesc = texture(D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  EXPECT_EQ(device->CreateTexture2D(&targetDesc, nullptr, &target), S_OK);
  EXPECT_EQ(device->CreateTexture2D(&stagingDesc, nullptr, &staging), S_OK);
  ComPtr<ID3D11UnorderedAccessView> uav;
  EXPECT_EQ(device->CreateUnorderedAccessView(target.Get(), nullptr, &uav), S_OK);
  ID3D11ClassInstance* instances[] = {instance.Get()};
  context->CSSetShader(cs.Get(), instances, 1);
  context->CSSetConstantBuffers(0, 1, cb.GetAddressOf());
  context->CSSetUnorderedAccessViews(0, 1, uav.GetAddressOf(), nullptr);
  context->Dispatch(1, 1, 1);
  context->CopyResource(staging.Get(), target.Get());
  D3D11_MAPPED_SUBRESOURCE mapped{};
  EXPECT_EQ(context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  std::vector<float> out = mapped.pData ? packRows(mapped.pData, mapped.RowPitch) : std::vector<float>();
  context->Unmap(staging.Get(), 0);
  return out;
}

class DriverClassLinkage : public DriverTest, public ::testing::WithParamInterface<const InterfaceVersion*> {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_EQ(device.create(adapter, GetParam()->interfaceVersion, GetParam()->version,
                            ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
              S_OK);
    h = device.handle();
    container = interfaceContainer();
  }

  harness::Shader computeShader(const std::vector<uint8_t>& bytes) {
    harness::StrippedShader stripped;
    EXPECT_TRUE(harness::stripShader(bytes, stripped));
    return device.createShader(harness::ShaderStage::Compute, stripped);
  }

  // Binds the instances as the runtime does, dispatches one group and reads u0 back;
  // `bindResult` receives what the driver reported for the binding.
  std::vector<float> runThroughTriton(const harness::Shader& cs, std::span<const harness::ClassInstanceDesc> instances,
                                      HRESULT& bindResult) {
    harness::InterfaceArguments args;
    EXPECT_TRUE(harness::interfaceArguments(container, instances, args));
    const D3D11_BUFFER_DESC cbDesc{sizeof(kConstants), D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
    const D3D11_SUBRESOURCE_DATA init{kConstants, 0, 0};
    harness::Resource cb = device.createBuffer(cbDesc, &init);
    harness::Resource target = device.createTexture2D(texture(D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0));
    harness::Resource staging = device.createTexture2D(texture(D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ));
    harness::UnorderedAccessView uav = device.createUnorderedAccessView(target, DXGI_FORMAT_R32G32B32A32_FLOAT);
    EXPECT_TRUE(cb && target && staging && uav);
    TRITON_DDI(device, pfnCsSetShaderWithIfaces)(h, cs.handle, UINT(args.tables.size()), args.tables.data(),
                                                 args.data.data());
    bindResult = device.takeError();
    device.setConstantBuffers(harness::ShaderStage::Compute, 0, std::span(&cb.handle, 1));
    TRITON_DDI(device, pfnCsSetUnorderedAccessViews)(h, 0, 1, &uav.handle, nullptr);
    TRITON_DDI(device, pfnDispatch)(h, 1, 1, 1);
    TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, target.handle);
    ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
    TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
    EXPECT_EQ(device.takeError(), S_OK);
    std::vector<float> out = mapped.pData ? packRows(mapped.pData, mapped.RowPitch) : std::vector<float>();
    TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);
    TRITON_DDI(device, pfnCsSetShader)(h, ddi::D3D10DDI_HSHADER{});
    device.destroy(uav);
    for (harness::Resource* r : {&staging, &target, &cb})
      device.destroyResource(*r);
    return out;
  }

  // What the program computes when the target runs its function calls.
  static bool allTexels(const std::vector<float>& texels, const float* colour) {
    if (texels.size() != kTexels * kTexels * 4)
      return false;
    for (size_t i = 0; i < texels.size(); ++i) {
      if (texels[i] != colour[i % 4])
        return false;
    }
    return true;
  }

  harness::Device device;
  ddi::D3D10DDI_HDEVICE h{};
  std::vector<uint8_t> container;
};

// Both classes through Triton, each compared with the direct run. A target that cannot
// create class instances (Wine's d3d11: CreateClassInstance is E_NOTIMPL, and wined3d does
// not run fcall) refuses the binding with the same HRESULT the direct run got; a target
// that can must give the direct run's texels and the classes' values.
TEST_P(DriverClassLinkage, InstancesSelectTheirFunctionTables) {
  harness::Shader cs = computeShader(container);
  ASSERT_TRUE(cs);
  ASSERT_EQ(device.takeError(), S_OK) << "the shader with interfaces is created with the class linkage";
  const harness::ClassInstanceDesc fromData{"cFromData", 0, 2, 0, 0};
  const harness::ClassInstanceDesc constant{"cConstant", 0, 0, 0, 0};
  for (const harness::ClassInstanceDesc* desc : {&fromData, &constant, &fromData}) {
    SCOPED_TRACE(desc->typeName);
    HRESULT bound = S_OK, created = S_OK;
    const std::vector<float> viaTriton = runThroughTriton(cs, std::span(desc, 1), bound);
    const std::vector<float> reference = runDirect(container, *desc, false, created);
    if (FAILED(created)) {
      EXPECT_EQ(bound, created) << "the target's refusal reaches the runtime";
      std::printf("[ note ] the system d3d11 refuses CreateClassInstance (0x%08lx): class instances end there, "
                  "through Triton as directly\n", static_cast<unsigned long>(created));
      continue;
    }
    EXPECT_EQ(bound, S_OK);
    ASSERT_EQ(viaTriton.size(), size_t(kTexels * kTexels * 4));
    EXPECT_TRUE(viaTriton == reference);
    EXPECT_TRUE(allTexels(viaTriton, desc == &fromData ? &kConstants[8] : kTableOneColour));
  }
  device.destroy(cs);
}

// Without class instances the shader (IFCE chunk and linkage included) runs on any target:
// the same texels as the direct run of the same container without instances.
TEST_P(DriverClassLinkage, ShaderWithInterfacesRunsWithoutInstances) {
  harness::Shader cs = computeShader(container);
  ASSERT_TRUE(cs);
  HRESULT bound = S_OK, created = S_OK;
  const std::vector<float> viaTriton = runThroughTriton(cs, {}, bound);
  EXPECT_EQ(bound, S_OK);
  ComPtr<ID3D11Device> direct;
  ComPtr<ID3D11DeviceContext> context;
  ASSERT_EQ(createReferenceDeviceAt(D3D_FEATURE_LEVEL_11_0, direct, context), S_OK);
  (void)created;
  ComPtr<ID3D11ClassLinkage> linkage;
  ComPtr<ID3D11ComputeShader> dCs;
  ASSERT_EQ(direct->CreateClassLinkage(&linkage), S_OK);
  ASSERT_EQ(direct->CreateComputeShader(container.data(), container.size(), linkage.Get(), &dCs), S_OK);
  ComPtr<ID3D11Texture2D> target, staging;
  const D3D11_TEXTURE2D_DESC targetDesc = texture(D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0);
  const D3D11_TEXTURE2D_DESC stagingDesc = texture(D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  ASSERT_EQ(direct->CreateTexture2D(&targetDesc, nullptr, &target), S_OK);
  ASSERT_EQ(direct->CreateTexture2D(&stagingDesc, nullptr, &staging), S_OK);
  ComPtr<ID3D11UnorderedAccessView> uav;
  ASSERT_EQ(direct->CreateUnorderedAccessView(target.Get(), nullptr, &uav), S_OK);
  context->CSSetShader(dCs.Get(), nullptr, 0);
  context->CSSetUnorderedAccessViews(0, 1, uav.GetAddressOf(), nullptr);
  context->Dispatch(1, 1, 1);
  context->CopyResource(staging.Get(), target.Get());
  D3D11_MAPPED_SUBRESOURCE mapped{};
  ASSERT_EQ(context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  const std::vector<float> reference = packRows(mapped.pData, mapped.RowPitch);
  context->Unmap(staging.Get(), 0);
  EXPECT_TRUE(viaTriton == reference);
  device.destroy(cs);
  EXPECT_EQ(device.errorCount(), 0u);
}

// A shader-declared instance (GetClassInstance at the API) reaches the driver as the
// declared type's table and the declared data location.
TEST_P(DriverClassLinkage, DeclaredInstanceCarriesItsDataLocation) {
  harness::ClassInstanceDesc declared;
  ASSERT_TRUE(harness::declaredClassInstance(container, "g_third", declared));
  EXPECT_EQ(declared.typeName, "cFromData");
  EXPECT_EQ(declared.constantVectorOffset, 2u);
  harness::InterfaceArguments args;
  ASSERT_TRUE(harness::interfaceArguments(container, std::span(&declared, 1), args));
  ASSERT_EQ(args.tables.size(), 1u);
  EXPECT_EQ(args.tables[0], 0u);   // cFromData (type 1) selects table 0
  EXPECT_EQ(args.data[0].uCBOffset, 2u);
  harness::Shader cs = computeShader(container);
  ASSERT_TRUE(cs);
  HRESULT bound = S_OK, created = S_OK;
  const std::vector<float> viaTriton = runThroughTriton(cs, std::span(&declared, 1), bound);
  const std::vector<float> reference = runDirect(container, declared, true, created);
  if (FAILED(created))
    EXPECT_EQ(bound, created);
  else
    EXPECT_TRUE(viaTriton == reference);
  device.destroy(cs);
}

// Without instances the entry is SetShader; instances for a shader that declares fewer
// slots, or without their arrays, are arguments the runtime never sends.
TEST_P(DriverClassLinkage, RefusesInstancesTheShaderDoesNotDeclare) {
  harness::Shader withInterfaces = computeShader(container);
  const std::vector<uint8_t> plain = readCorpusFile(kPlainComputeShader);
  if (plain.empty())
    GTEST_SKIP() << "DXBC corpus not found";
  harness::Shader withoutInterfaces = computeShader(plain);
  ASSERT_TRUE(withInterfaces && withoutInterfaces);
  ASSERT_EQ(device.takeError(), S_OK);
  const UINT tables[2] = {0, 1};
  const ddi::D3D11DDIARG_POINTERDATA data[2] = {};
  TRITON_DDI(device, pfnCsSetShaderWithIfaces)(h, withoutInterfaces.handle, 0, nullptr, nullptr);
  EXPECT_EQ(device.takeError(), S_OK);
  TRITON_DDI(device, pfnCsSetShaderWithIfaces)(h, withoutInterfaces.handle, 1, tables, data);
  EXPECT_EQ(device.takeError(), E_INVALIDARG);
  TRITON_DDI(device, pfnCsSetShaderWithIfaces)(h, withInterfaces.handle, 2, tables, data);
  EXPECT_EQ(device.takeError(), E_INVALIDARG);
  TRITON_DDI(device, pfnCsSetShaderWithIfaces)(h, withInterfaces.handle, 1, nullptr, data);
  EXPECT_EQ(device.takeError(), E_INVALIDARG);
  TRITON_DDI(device, pfnCsSetShader)(h, ddi::D3D10DDI_HSHADER{});
  device.destroy(withInterfaces);
  device.destroy(withoutInterfaces);
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverClassLinkage, ::testing::Values(&kD3D11_0, &kD3D11_1),
                         [](const auto& info) { return std::string(info.param->name); });

}  // namespace
}  // namespace triton::test
