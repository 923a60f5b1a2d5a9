// SPDX-License-Identifier: MIT
#pragma once

// A backend that is a pair of shared libraries exporting the standard entry points
// (D3D11CreateDevice, CreateDXGIFactory1): the system DLLs on Windows, DXVK-native on
// Linux. A macOS backend that ships as libraries with the same exports (DXMT) fits
// here as well; one that needs different setup implements Backend directly.

#include "npt/backends/backend.h"
#include "npt/backends/dynamic_library.h"

namespace npt::backends {

struct LibraryBackendConfig {
  const char* name;            // backend name for messages
  std::string dxgiLibrary;     // loaded first: the D3D11 library depends on it
  std::string d3d11Library;
  std::string searchHint;      // how the libraries were searched, for error messages
  std::string (*outputsUnavailable)() = nullptr;   // Backend::outputsUnavailable; null: always enumerable
};

class LibraryBackend final : public Backend {
public:
  static BackendStatus open(const LibraryBackendConfig& config, std::unique_ptr<Backend>& out);

  const char* name() const override { return m_name; }
  BackendStatus createDevice(const DeviceRequest& request, DeviceObjects& out) override;
  BackendStatus createFactory(REFIID iid, void** factory) override;
  std::string outputsUnavailable() const override { return m_outputsUnavailable ? m_outputsUnavailable() : ""; }

private:
  using CreateDeviceFn = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT, const D3D_FEATURE_LEVEL*,
                                          UINT, UINT, ID3D11Device**, D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);
  using CreateFactoryFn = HRESULT(WINAPI*)(REFIID, void**);

  const char* m_name = "";
  DynamicLibrary m_dxgi;
  DynamicLibrary m_d3d11;
  CreateDeviceFn m_createDevice = nullptr;
  CreateFactoryFn m_createFactory = nullptr;
  std::string (*m_outputsUnavailable)() = nullptr;
};

}  // namespace npt::backends
