// SPDX-License-Identifier: MIT
// Every corpus shader through the DDI: stripped to tokens + signature entries of the
// interface's stride, created by Triton (which rebuilds the container) and, as the
// reference, created directly from the original container on the system d3d11. Both
// must agree on success for every shader and stage.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "driver_test_support.h"

namespace triton::test {
namespace {

std::vector<std::string> corpusShaders() {
  std::vector<std::string> files;
  const char* env = std::getenv("DXBC_CORPUS_DIR");
  std::error_code error;
  const std::filesystem::path root(env ? env : DXBC_CORPUS_DIR);
  if (!std::filesystem::is_directory(root, error))
    return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root, error))
    if (entry.is_regular_file() && entry.path().extension() == ".dxbc")
      files.push_back(std::filesystem::relative(entry.path(), root).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

HRESULT createDirect(ID3D11Device* device, harness::ShaderStage stage, const std::vector<uint8_t>& code) {
  const void* p = code.data();
  const SIZE_T n = code.size();
  switch (stage) {
    case harness::ShaderStage::Vertex: { ComPtr<ID3D11VertexShader> s; return device->CreateVertexShader(p, n, nullptr, &s); }
    case harness::ShaderStage::Pixel: { ComPtr<ID3D11PixelShader> s; return device->CreatePixelShader(p, n, nullptr, &s); }
    case harness::ShaderStage::Geometry: { ComPtr<ID3D11GeometryShader> s; return device->CreateGeometryShader(p, n, nullptr, &s); }
    case harness::ShaderStage::Hull: { ComPtr<ID3D11HullShader> s; return device->CreateHullShader(p, n, nullptr, &s); }
    case harness::ShaderStage::Domain: { ComPtr<ID3D11DomainShader> s; return device->CreateDomainShader(p, n, nullptr, &s); }
    case harness::ShaderStage::Compute: { ComPtr<ID3D11ComputeShader> s; return device->CreateComputeShader(p, n, nullptr, &s); }
  }
  return E_INVALIDARG;
}

class DriverCorpus : public DriverTest, public ::testing::WithParamInterface<const InterfaceVersion*> {};

TEST_P(DriverCorpus, EveryShaderCreatedAsDirectly) {
  const std::vector<std::string> files = corpusShaders();
  if (files.empty())
    GTEST_SKIP() << "DXBC corpus not found";
  harness::Device device;
  ASSERT_EQ(device.create(adapter, GetParam()->interfaceVersion, GetParam()->version,
                          ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  ComPtr<ID3D11Device> reference;
  ComPtr<ID3D11DeviceContext> referenceContext;
  ASSERT_EQ(createReferenceDeviceAt(D3D_FEATURE_LEVEL_11_0, reference, referenceContext), S_OK);

  UINT shaders = 0, created = 0;
  for (const std::string& file : files) {
    const std::vector<uint8_t> container = readCorpusFile(file);
    harness::StrippedShader stripped;
    if (!harness::stripShader(container, stripped))
      continue;   // root signatures and other non-shader containers
    ++shaders;
    const HRESULT direct = createDirect(reference.Get(), stripped.stage, container);
    harness::Shader shader = device.createShader(stripped.stage, stripped);
    const HRESULT viaTriton = device.takeError();
    EXPECT_EQ(SUCCEEDED(direct), viaTriton == S_OK)
        << file << ": direct 0x" << std::hex << direct << ", through Triton 0x" << viaTriton;
    if (viaTriton == S_OK) {
      ++created;
      device.destroy(shader);   // only a created shader is the driver's to destroy
    }
  }
  EXPECT_GT(shaders, 250u);
  EXPECT_GT(created, 200u);
  std::printf("%s: %u corpus shaders, %u created through Triton\n", GetParam()->name, shaders, created);
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverCorpus, ::testing::Values(&kD3D11_0, &kD3D11_1),
                         [](const ::testing::TestParamInfo<const InterfaceVersion*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace triton::test
