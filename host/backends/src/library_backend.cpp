// SPDX-License-Identifier: MIT
#include "library_backend.h"

#include <cstdio>

namespace npt::backends {

static std::string hex(HRESULT hr) {
  char text[16];
  std::snprintf(text, sizeof(text), "%#010x", unsigned(hr));
  return text;
}

BackendStatus LibraryBackend::open(const LibraryBackendConfig& config, std::unique_ptr<Backend>& out) {
  auto backend = std::unique_ptr<LibraryBackend>(new LibraryBackend());
  backend->m_name = config.name;
  backend->m_outputsUnavailable = config.outputsUnavailable;
  if (!backend->m_dxgi.open(config.dxgiLibrary))
    return BackendStatus::fail(BackendError::LibraryMissing, E_FAIL,
                               std::string(config.name) + " backend: cannot load " + config.dxgiLibrary + " (" +
                                   config.searchHint + "): " + backend->m_dxgi.error());
  if (!backend->m_d3d11.open(config.d3d11Library))
    return BackendStatus::fail(BackendError::LibraryMissing, E_FAIL,
                               std::string(config.name) + " backend: cannot load " + config.d3d11Library + " (" +
                                   config.searchHint + "): " + backend->m_d3d11.error());
  backend->m_createDevice = reinterpret_cast<CreateDeviceFn>(backend->m_d3d11.symbol("D3D11CreateDevice"));
  backend->m_createFactory = reinterpret_cast<CreateFactoryFn>(backend->m_dxgi.symbol("CreateDXGIFactory1"));
  if (!backend->m_createDevice)
    return BackendStatus::fail(BackendError::EntryPointMissing, E_FAIL,
                               std::string(config.name) + " backend: " + config.d3d11Library +
                                   " does not export D3D11CreateDevice");
  if (!backend->m_createFactory)
    return BackendStatus::fail(BackendError::EntryPointMissing, E_FAIL,
                               std::string(config.name) + " backend: " + config.dxgiLibrary +
                                   " does not export CreateDXGIFactory1");
  out = std::move(backend);
  return {};
}

BackendStatus LibraryBackend::createDevice(const DeviceRequest& request, DeviceObjects& out) {
  out = DeviceObjects{};
  const UINT flags = request.flags | D3D11_CREATE_DEVICE_BGRA_SUPPORT;
  HRESULT hr = m_createDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, flags, request.featureLevels,
                              request.featureLevelCount, D3D11_SDK_VERSION, &out.device, &out.featureLevel,
                              &out.immediateContext);
  // Runtimes without 11.1 reject a list that starts with it (E_INVALIDARG): retry without.
  if (hr == E_INVALIDARG && request.featureLevelCount > 1 && request.featureLevels[0] == D3D_FEATURE_LEVEL_11_1)
    hr = m_createDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, flags, request.featureLevels + 1,
                        request.featureLevelCount - 1, D3D11_SDK_VERSION, &out.device, &out.featureLevel,
                        &out.immediateContext);
  if (FAILED(hr) || !out.device || !out.immediateContext) {
    if (out.immediateContext) out.immediateContext->Release();
    if (out.device) out.device->Release();
    out = DeviceObjects{};
    return BackendStatus::fail(BackendError::DeviceCreation, FAILED(hr) ? hr : E_FAIL,
                               std::string(m_name) + " backend: D3D11CreateDevice failed with " + hex(hr));
  }
  return {};
}

BackendStatus LibraryBackend::createFactory(REFIID iid, void** factory) {
  *factory = nullptr;
  HRESULT hr = m_createFactory(iid, factory);
  if (FAILED(hr) || !*factory)
    return BackendStatus::fail(BackendError::FactoryCreation, FAILED(hr) ? hr : E_FAIL,
                               std::string(m_name) + " backend: CreateDXGIFactory1 failed with " + hex(hr));
  return {};
}

}  // namespace npt::backends
