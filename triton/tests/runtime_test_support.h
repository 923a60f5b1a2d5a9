// SPDX-License-Identifier: MIT
#pragma once

// The API-level runtime next to the system d3d11.dll in one test program: the runtime is
// loaded as a copy under another name (TRITON_RUNTIME_DLL), since a process has one
// module of a name, and each test compares the two devices' answers.

#include <windows.h>

#include <d3d11.h>
#include <wrl/client.h>

#include <gtest/gtest.h>

#include <cstdlib>

#include "neptune_server_env.h"

namespace triton::test {

using CreateDevice = decltype(&D3D11CreateDevice);

struct Loaded {
  HMODULE module = nullptr;
  CreateDevice create = nullptr;
};

inline Loaded load(const char* path) {
  Loaded out;
  out.module = LoadLibraryA(path);
  if (out.module)
    out.create = reinterpret_cast<CreateDevice>(reinterpret_cast<void*>(GetProcAddress(out.module, "D3D11CreateDevice")));
  return out;
}

inline Loaded loadRuntime() {
  const char* path = std::getenv("TRITON_RUNTIME_DLL");
  return path ? load(windowsPath(path).c_str()) : Loaded{};
}

inline Loaded loadSystem() { return load("d3d11.dll"); }

// The program's server (triton_runtime_api: runtime_api_main.cpp).
const NeptuneServer& apiServer();

// A device of `loaded` at `level` (null when its creation fails).
inline Microsoft::WRL::ComPtr<ID3D11Device> createDevice(const Loaded& loaded, D3D_FEATURE_LEVEL level,
                                                         ID3D11DeviceContext** context = nullptr) {
  Microsoft::WRL::ComPtr<ID3D11Device> device;
  if (!loaded.create ||
      FAILED(loaded.create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &device,
                           nullptr, context)))
    return nullptr;
  return device;
}

}  // namespace triton::test
