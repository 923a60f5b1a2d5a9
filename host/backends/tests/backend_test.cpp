// SPDX-License-Identifier: MIT
// Backend selection and loading errors (native and Windows builds). The errors must be
// clear at context creation: a stable code and a message naming what was looked for.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "npt/backends/backend.h"

using namespace npt::backends;

namespace {

void setEnv(const char* name, const char* value) {
#ifdef _WIN32
  _putenv_s(name, value ? value : "");
#else
  if (value) setenv(name, value, 1);
  else unsetenv(name);
#endif
}

struct ScopedEnv {
  std::string name;
  std::string saved;
  bool had = false;
  ScopedEnv(const char* n, const char* value) : name(n) {
    if (const char* old = std::getenv(n)) {
      had = true;
      saved = old;
    }
    setEnv(n, value);
  }
  ~ScopedEnv() { setEnv(name.c_str(), had ? saved.c_str() : nullptr); }
};

TEST(Backend, UnknownNameIsAClearError) {
  std::unique_ptr<Backend> backend;
  BackendStatus status = openBackend("vulkan", backend);
  EXPECT_EQ(status.error, BackendError::UnknownBackend);
  EXPECT_NE(status.message.find("'vulkan'"), std::string::npos) << status.message;
  EXPECT_EQ(backend, nullptr);
}

TEST(Backend, NptBackendSelectsTheBackend) {
  ScopedEnv env("NPT_BACKEND", "nonesuch");
  EXPECT_EQ(defaultBackendName(), "nonesuch");
  std::unique_ptr<Backend> backend;
  EXPECT_EQ(openBackend(nullptr, backend).error, BackendError::UnknownBackend);
}

TEST(Backend, MacBackendsAreReservedButNotBuilt) {
  std::unique_ptr<Backend> backend;
  for (const char* name : {"dxmt", "d3dmetal"}) {
    BackendStatus status = openBackend(name, backend);
    EXPECT_EQ(status.error, BackendError::NotBuilt) << name;
    EXPECT_NE(status.message.find(name), std::string::npos) << status.message;
  }
}

#ifndef _WIN32

TEST(Backend, PlatformDefaultIsDxvk) {
  ScopedEnv env("NPT_BACKEND", nullptr);
  EXPECT_EQ(defaultBackendName(), "dxvk");
}

TEST(Backend, SystemBackendIsWindowsOnly) {
  std::unique_ptr<Backend> backend;
  EXPECT_EQ(openBackend("system", backend).error, BackendError::NotBuilt);
}

TEST(DxvkBackend, MissingLibraryNamesPathAndLibrary) {
  ScopedEnv env("NPT_DXVK_PATH", "/nonexistent/dxvk-native");
  std::unique_ptr<Backend> backend;
  BackendStatus status = openBackend("dxvk", backend);
  EXPECT_EQ(status.error, BackendError::LibraryMissing);
  EXPECT_NE(status.message.find("libdxvk_dxgi.so"), std::string::npos) << status.message;
  EXPECT_NE(status.message.find("NPT_DXVK_PATH=/nonexistent/dxvk-native"), std::string::npos) << status.message;
  EXPECT_EQ(backend, nullptr);
}

TEST(DxvkBackend, LibraryWithoutEntryPoints) {
  // Any real shared library under the DXVK names: it loads, but exports nothing D3D.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "npt-fake-dxvk";
  std::filesystem::create_directories(dir);
  const char* candidates[] = {"/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6"};
  std::filesystem::path libm;
  for (const char* c : candidates)
    if (std::filesystem::exists(c)) libm = c;
  if (libm.empty()) GTEST_SKIP() << "no libm.so.6 to stand in for DXVK";
  for (const char* name : {"libdxvk_dxgi.so", "libdxvk_d3d11.so"}) {
    std::filesystem::remove(dir / name);
    std::filesystem::create_symlink(libm, dir / name);
  }
  ScopedEnv env("NPT_DXVK_PATH", dir.c_str());
  std::unique_ptr<Backend> backend;
  BackendStatus status = openBackend("dxvk", backend);
  EXPECT_EQ(status.error, BackendError::EntryPointMissing);
  EXPECT_NE(status.message.find("D3D11CreateDevice"), std::string::npos) << status.message;
  std::filesystem::remove_all(dir);
}

// DXVK tests run only where a DXVK-native build is installed: NPT_DXVK_PATH names its
// directory (then a missing library is a failure: the run asked for DXVK there) or the
// loader's search path holds it. Returns why a test is skipped here, or empty with
// `backend` open (or the test failed).
std::string openDxvkOrSkipReason(std::unique_ptr<Backend>& backend) {
  BackendStatus status = openBackend("dxvk", backend);
  const char* dxvkPath = std::getenv("NPT_DXVK_PATH");
  if (status.error == BackendError::LibraryMissing && !(dxvkPath && *dxvkPath))
    return "DXVK-native not available (set NPT_DXVK_PATH): " + status.message;
  if (status.error == BackendError::WindowSystem) return status.message;
  if (!status.ok()) ADD_FAILURE() << status.message;
  return {};
}

TEST(DxvkBackend, CreatesADeviceWhenAvailable) {
  std::unique_ptr<Backend> backend;
  const std::string skip = openDxvkOrSkipReason(backend);
  if (!skip.empty()) GTEST_SKIP() << skip;
  ASSERT_TRUE(backend);
  DeviceObjects objects;
  BackendStatus status = backend->createDevice({}, objects);
  ASSERT_TRUE(status.ok()) << status.message;
  EXPECT_GE(objects.featureLevel, D3D_FEATURE_LEVEL_10_0);
  objects.immediateContext->Release();
  objects.device->Release();
}

// A process creates and releases devices one after another (the executor's tests, a
// server worker's contexts): NVIDIA's Vulkan driver could not be loaded again after 14
// times, and the loader unloads it with the last instance; the backend keeps one instance
// for the process (dxvk_resident_instance.cpp). Other drivers pass either way.
TEST(DxvkBackend, DevicesCreatedOneAfterAnotherKeepWorking) {
  std::unique_ptr<Backend> backend;
  const std::string skip = openDxvkOrSkipReason(backend);
  if (!skip.empty()) GTEST_SKIP() << skip;
  ASSERT_TRUE(backend);
  for (int device = 0; device < 16; device++) {
    DeviceObjects objects;
    BackendStatus status = backend->createDevice({}, objects);
    ASSERT_TRUE(status.ok()) << "device " << device << ": " << status.message;
    objects.immediateContext->Release();
    objects.device->Release();
  }
}

// DXVK-native divides by each output's refresh rate when it enumerates outputs, and an
// Xvfb screen reports 0 Hz: the backend reports such displays instead (the executor then
// describes no outputs). Where it reports none, every output enumerates and describes
// itself; where it reports one, enumerating would kill this process with SIGFPE.
TEST(DxvkBackend, DisplaysItCannotDescribeAreReportedInsteadOfEnumerated) {
  std::unique_ptr<Backend> backend;
  const std::string skip = openDxvkOrSkipReason(backend);
  if (!skip.empty()) GTEST_SKIP() << skip;
  ASSERT_TRUE(backend);
  const std::string why = backend->outputsUnavailable();
  if (!why.empty()) {
    EXPECT_NE(why.find("0 Hz"), std::string::npos) << why;
    return;
  }
  IDXGIFactory1* factory = nullptr;
  BackendStatus status = backend->createFactory(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(&factory));
  ASSERT_TRUE(status.ok()) << status.message;
  IDXGIAdapter1* adapter = nullptr;
  ASSERT_EQ(factory->EnumAdapters1(0, &adapter), S_OK);
  for (UINT index = 0;; index++) {
    IDXGIOutput* output = nullptr;
    const HRESULT hr = adapter->EnumOutputs(index, &output);
    if (hr == DXGI_ERROR_NOT_FOUND) break;
    ASSERT_EQ(hr, S_OK) << "output " << index;
    DXGI_OUTPUT_DESC desc = {};
    EXPECT_EQ(output->GetDesc(&desc), S_OK) << "output " << index;
    output->Release();
  }
  adapter->Release();
  factory->Release();
}

#else

TEST(Backend, PlatformDefaultIsSystem) {
  ScopedEnv env("NPT_BACKEND", nullptr);
  EXPECT_EQ(defaultBackendName(), "system");
}

TEST(Backend, DxvkIsLinuxOnly) {
  std::unique_ptr<Backend> backend;
  EXPECT_EQ(openBackend("dxvk", backend).error, BackendError::NotBuilt);
}

#endif

}  // namespace
