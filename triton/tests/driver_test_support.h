// SPDX-License-Identifier: MIT
#pragma once

// Shared pieces of the driver tests: the driver DLL and corpus paths, an opened
// adapter, and reading the DXBC corpus (../shared/corpus/dxbc, read at test time).

#include <d3d11_1.h>
#include <wrl/client.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "triton/harness/runtime.h"

namespace triton::test {

using Microsoft::WRL::ComPtr;
namespace ddi = triton::ddi;
namespace harness = triton::harness;

inline std::string driverPath() {
  if (const char* env = std::getenv("TRITON_DRIVER"))
    return env;
  return TRITON_DRIVER_PATH;
}

inline std::vector<uint8_t> readCorpusFile(const std::string& relative) {
  const char* env = std::getenv("DXBC_CORPUS_DIR");
  std::ifstream file(std::string(env ? env : DXBC_CORPUS_DIR) + "/" + relative, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// The runtime's view of one interface version: (interface, version).
struct InterfaceVersion {
  const char* name;
  UINT interfaceVersion;
  UINT version;
};

// The Windows 7 D3D11.0 runtime passes the resolve level (DXGI 1.1 table), the D3D11.1
// runtime the offer/reclaim level (its DXGI 1.2 table comes with the interface).
inline const InterfaceVersion kD3D11_0{"D3D11_0", ddi::D3D11_0_DDI_INTERFACE_VERSION,
                                       harness::runtimeVersion(ddi::D3D11_0_DDI_BUILD_VERSION,
                                                               ddi::DXGI_RESOLVE_SHARED_RESOURCE)};
inline const InterfaceVersion kD3D11_0_7{"D3D11_0_7", ddi::D3D11_0_7_DDI_INTERFACE_VERSION,
                                         harness::runtimeVersion(ddi::D3D11_0_7_DDI_BUILD_VERSION,
                                                                 ddi::DXGI_RESOLVE_SHARED_RESOURCE)};
inline const InterfaceVersion kD3D11_1{"D3D11_1", ddi::D3D11_1_DDI_INTERFACE_VERSION,
                                       harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM)};
// WDDM 1.3 (the 11.2 runtime): its DXGI 1.3 table comes with the interface; the low word
// is given the newest level declared here.
inline const InterfaceVersion kWddm1_3{"WDDM1_3", ddi::D3DWDDM1_3_DDI_INTERFACE_VERSION,
                                       harness::runtimeVersion(ddi::D3DWDDM1_3_DDI_BUILD_VERSION,
                                                               ddi::DXGI_OFFER_RECLAIM)};
// WDDM 2.0 and 2.1 (Windows 10): their DXGI 1.4 / 1.5 tables come with the interface.
inline const InterfaceVersion kWddm2_0{"WDDM2_0", ddi::D3DWDDM2_0_DDI_INTERFACE_VERSION,
                                       harness::runtimeVersion(ddi::D3DWDDM2_0_DDI_BUILD_VERSION,
                                                               ddi::DXGI_OFFER_RECLAIM)};
inline const InterfaceVersion kWddm2_1{"WDDM2_1", ddi::D3DWDDM2_1_DDI_INTERFACE_VERSION,
                                       harness::runtimeVersion(ddi::D3DWDDM2_1_DDI_BUILD_VERSION,
                                                               ddi::DXGI_OFFER_RECLAIM)};

// Loads the driver and opens its adapter once per test.
class DriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK) << driverPath();
    ASSERT_EQ(adapter.open(*driver), S_OK);
  }

  std::unique_ptr<harness::Driver> driver;
  harness::Adapter adapter;
};

// A device of the system d3d11 (Wine's wined3d under Wine): the reference.
inline HRESULT createReferenceDevice(ComPtr<ID3D11Device>& device, ComPtr<ID3D11DeviceContext>& context,
                                     D3D_FEATURE_LEVEL* level = nullptr) {
  const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1,
                                      D3D_FEATURE_LEVEL_10_0};
  return D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, 4, D3D11_SDK_VERSION, &device,
                           level, &context);
}

// The same at one feature level (what a DDI device at a pipeline level sees).
inline HRESULT createReferenceDeviceAt(D3D_FEATURE_LEVEL level, ComPtr<ID3D11Device>& device,
                                       ComPtr<ID3D11DeviceContext>& context) {
  return D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &device,
                           nullptr, &context);
}

}  // namespace triton::test
