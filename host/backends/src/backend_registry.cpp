// SPDX-License-Identifier: MIT
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "library_backend.h"
#ifndef _WIN32
#include "dxvk_resident_instance.h"
#include "dxvk_window_system.h"
#endif

namespace npt::backends {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

BackendStatus notBuilt(const std::string& name, const char* why) {
  return BackendStatus::fail(BackendError::NotBuilt, E_FAIL, "backend '" + name + "' is not available: " + why);
}

BackendStatus openSystem(std::unique_ptr<Backend>& out) {
#ifdef _WIN32
  return LibraryBackend::open({"system", "dxgi.dll", "d3d11.dll", "system library search order"}, out);
#else
  return notBuilt("system", "the system d3d11.dll backend exists only in the Windows build");
#endif
}

BackendStatus openDxvk(std::unique_ptr<Backend>& out) {
#ifdef _WIN32
  return notBuilt("dxvk", "DXVK-native is a Linux backend; Windows builds use 'system'");
#else
  // NPT_DXVK_PATH names the directory holding both libraries; otherwise the dynamic
  // loader's search path (LD_LIBRARY_PATH, ld.so.cache) decides.
  const std::string dir = environment("NPT_DXVK_PATH");
  const std::string prefix = dir.empty() ? "" : (dir.back() == '/' ? dir : dir + "/");
  const std::string hint = dir.empty() ? "library search path; set NPT_DXVK_PATH to its directory"
                                       : "NPT_DXVK_PATH=" + dir;
  BackendStatus status =
      LibraryBackend::open({"dxvk", prefix + "libdxvk_dxgi.so", prefix + "libdxvk_d3d11.so", hint, dxvkOutputsUnavailable}, out);
  if (status.ok()) status = prepareDxvkWindowSystem();
  if (status.ok()) keepDxvkVulkanDriverLoaded(prefix + "libdxvk_dxgi.so");
  if (!status.ok()) out.reset();
  return status;
#endif
}

std::mutex g_registeredMutex;
std::map<std::string, BackendFactory>& registered() {
  static std::map<std::string, BackendFactory> backends;
  return backends;
}

}  // namespace

void registerBackend(const char* name, BackendFactory factory) {
  std::lock_guard<std::mutex> lock(g_registeredMutex);
  registered()[name] = factory;
}

std::string defaultBackendName() {
  std::string name = environment("NPT_BACKEND");
  if (!name.empty()) return name;
#ifdef _WIN32
  return "system";
#else
  return "dxvk";
#endif
}

BackendStatus openBackend(const char* requested, std::unique_ptr<Backend>& out) {
  out.reset();
  const std::string name = requested && *requested ? requested : defaultBackendName();
  if (name == "system") return openSystem(out);
  if (name == "dxvk") return openDxvk(out);
  {
    std::lock_guard<std::mutex> lock(g_registeredMutex);
    auto found = registered().find(name);
    if (found != registered().end()) return found->second(out);
  }
  // macOS backends use this same seam: DXMT ships D3D11/DXGI entry points and can be a
  // LibraryBackend; D3DMetal would implement Backend around its own loader. Neither is
  // buildable here.
  if (name == "dxmt" || name == "d3dmetal") return notBuilt(name, "macOS backends are not built on this platform");
  return BackendStatus::fail(BackendError::UnknownBackend, E_INVALIDARG,
                             "unknown backend '" + name + "' (NPT_BACKEND: system, dxvk, dxmt, d3dmetal)");
}

const char* backendErrorName(BackendError error) {
  switch (error) {
    case BackendError::Ok: return "Ok";
    case BackendError::UnknownBackend: return "UnknownBackend";
    case BackendError::NotBuilt: return "NotBuilt";
    case BackendError::LibraryMissing: return "LibraryMissing";
    case BackendError::EntryPointMissing: return "EntryPointMissing";
    case BackendError::DeviceCreation: return "DeviceCreation";
    case BackendError::FactoryCreation: return "FactoryCreation";
    case BackendError::CapsQuery: return "CapsQuery";
    case BackendError::WindowSystem: return "WindowSystem";
  }
  return "?";
}

}  // namespace npt::backends
