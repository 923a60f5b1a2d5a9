// SPDX-License-Identifier: MIT
#pragma once

// The seam between the host executor and a real D3D11 implementation. A backend hands
// out plain COM objects (ID3D11Device, ID3D11DeviceContext, IDXGIFactory); everything
// above this interface is backend-agnostic.
//
// Backends (selected by name, or by NPT_BACKEND, at context creation):
//   system    Windows build: the system d3d11.dll / dxgi.dll (wined3d under Wine).
//   dxvk      Linux build: DXVK-native (libdxvk_d3d11.so, libdxvk_dxgi.so), loaded with
//             dlopen from NPT_DXVK_PATH or the library search path.
//   dxmt      macOS: DXMT (Metal). Reserved; not built here.
//   d3dmetal  macOS: Apple's D3DMetal. Reserved; not built here.
// A backend that is not built, or whose libraries are missing, fails with a stable
// code and a message that names what was looked for.

#include <cstdint>
#include <memory>
#include <string>

#include "npt/d3d11_api.h"

namespace npt::backends {

// Stable codes; append only.
enum class BackendError : uint32_t {
  Ok                  = 0,
  UnknownBackend      = 13001,  // NPT_BACKEND names nothing we know
  NotBuilt            = 13002,  // known backend, not available on this platform/build
  LibraryMissing      = 13003,  // shared library could not be loaded
  EntryPointMissing   = 13004,  // library loaded but lacks D3D11CreateDevice / CreateDXGIFactory1
  DeviceCreation      = 13005,  // D3D11CreateDevice failed
  FactoryCreation     = 13006,  // CreateDXGIFactory1 failed
  CapsQuery           = 13007,  // a caps query that must succeed failed
  WindowSystem        = 13008,  // the backend's window system cannot start here (DXVK-native: SDL2 video)
};

struct BackendStatus {
  BackendError error = BackendError::Ok;
  HRESULT hr = S_OK;
  std::string message;

  bool ok() const { return error == BackendError::Ok; }
  static BackendStatus fail(BackendError error, HRESULT hr, std::string message) {
    return BackendStatus{error, hr, std::move(message)};
  }
};

struct DeviceRequest {
  UINT flags = 0;   // D3D11_CREATE_DEVICE_* (BGRA support is always added)
  // Tried in order; the first the implementation accepts wins.
  static constexpr UINT kMaxFeatureLevels = 16;   // the protocol's bound on D3D11CreateDevice's list
  D3D_FEATURE_LEVEL featureLevels[kMaxFeatureLevels] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0,
                                                        D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0};
  UINT featureLevelCount = 4;
};

struct DeviceObjects {
  ID3D11Device* device = nullptr;                 // one reference each, owned by the caller
  ID3D11DeviceContext* immediateContext = nullptr;
  D3D_FEATURE_LEVEL featureLevel = D3D_FEATURE_LEVEL(0);
};

class Backend {
public:
  virtual ~Backend() = default;

  virtual const char* name() const = 0;

  virtual BackendStatus createDevice(const DeviceRequest& request, DeviceObjects& out) = 0;

  // CreateDXGIFactory1 with the given interface (IDXGIFactory1 or newer).
  virtual BackendStatus createFactory(REFIID iid, void** factory) = 0;
  // Why the host must not enumerate this backend's outputs here, or empty when it may:
  // a backend that fails on this machine's displays (DXVK-native on a 0 Hz display)
  // describes an adapter without outputs instead of taking the process down.
  virtual std::string outputsUnavailable() const { return {}; }
};

// Opens the backend named `name`; null or empty means NPT_BACKEND, and if that is unset
// the platform default (system on Windows, dxvk elsewhere).
BackendStatus openBackend(const char* name, std::unique_ptr<Backend>& out);

// The name openBackend(nullptr, ...) would use.
std::string defaultBackendName();

const char* backendErrorName(BackendError error);

// Adds a backend openBackend() finds by name (tests and fuzzing: the recording backend,
// host/backends/recording). A later registration under the same name replaces it.
using BackendFactory = BackendStatus (*)(std::unique_ptr<Backend>& out);
void registerBackend(const char* name, BackendFactory factory);

}  // namespace npt::backends
