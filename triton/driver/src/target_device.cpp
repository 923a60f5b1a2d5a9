// SPDX-License-Identifier: MIT
#include "target_device.h"

#include <windows.h>

#include <cstdlib>

#include "log.h"

namespace triton::driver {
namespace {

class LoadedTargetDevice final : public TargetDevice {
public:
  LoadedTargetDevice(ID3D11Device* device, ID3D11DeviceContext* context, D3D_FEATURE_LEVEL level)
      : device_(device), context_(context), level_(level) {
    device_->QueryInterface(__uuidof(ID3D11Device1), reinterpret_cast<void**>(&device1_));
    context_->QueryInterface(__uuidof(ID3D11DeviceContext1), reinterpret_cast<void**>(&context1_));
  }
  ~LoadedTargetDevice() override {
    if (context1_) context1_->Release();
    if (device1_) device1_->Release();
    context_->ClearState();
    context_->Release();
    device_->Release();
  }
  ID3D11Device* device() override { return device_; }
  ID3D11DeviceContext* context() override { return context_; }
  ID3D11Device1* device1() override { return device1_; }
  ID3D11DeviceContext1* context1() override { return context1_; }
  D3D_FEATURE_LEVEL featureLevel() override { return level_; }

private:
  ID3D11Device* device_;
  ID3D11DeviceContext* context_;
  ID3D11Device1* device1_ = nullptr;
  ID3D11DeviceContext1* context1_ = nullptr;
  D3D_FEATURE_LEVEL level_;
};

using CreateDeviceFn = decltype(&D3D11CreateDevice);

CreateDeviceFn targetCreateDevice() {
  static CreateDeviceFn function = []() -> CreateDeviceFn {
    HMODULE module = targetModule();
    if (!module)
      return nullptr;
    auto fn = reinterpret_cast<CreateDeviceFn>(
        reinterpret_cast<void*>(GetProcAddress(module, "D3D11CreateDevice")));
    if (!fn)
      TRITON_LOG(Error, "the target D3D11 implementation exports no D3D11CreateDevice");
    return fn;
  }();
  return function;
}

}  // namespace

// The module stays loaded for the life of the process: devices may outlive any one
// adapter, and unloading a D3D11 implementation under live objects is never safe.
HMODULE targetModule() {
  static HMODULE module = []() -> HMODULE {
    const char* path = std::getenv("TRITON_TARGET_D3D11");
    if (!path || !*path)
      path = "d3d11.dll";
    HMODULE loaded = LoadLibraryA(path);
    if (!loaded)
      TRITON_LOG(Error, "cannot load the target D3D11 implementation '%s' (error %lu)", path, GetLastError());
    else
      TRITON_LOG(Info, "target D3D11 implementation: %s", path);
    return loaded;
  }();
  return module;
}

HRESULT createTargetDevice(const D3D_FEATURE_LEVEL* levels, UINT levelCount,
                           std::unique_ptr<TargetDevice>& out) {
  CreateDeviceFn create = targetCreateDevice();
  if (!create)
    return E_FAIL;
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  D3D_FEATURE_LEVEL level{};
  HRESULT hr = create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, levelCount,
                      D3D11_SDK_VERSION, &device, &level, &context);
  if (FAILED(hr)) {
    TRITON_LOG(Error, "target D3D11CreateDevice failed: 0x%08lx", static_cast<unsigned long>(hr));
    return hr;
  }
  out = std::make_unique<LoadedTargetDevice>(device, context, level);
  return S_OK;
}

}  // namespace triton::driver
