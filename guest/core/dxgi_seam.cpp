// SPDX-License-Identifier: MIT
#include <atomic>

#include "log.h"
#include "private_interfaces.h"

namespace npt::guest {

namespace {
std::atomic<CreateDefaultAdapterFn> g_createDefaultAdapter{nullptr};
}

void registerDefaultAdapterFactory(CreateDefaultAdapterFn create) {
  g_createDefaultAdapter.store(create);
}

HRESULT createDefaultAdapter(IDXGIAdapter** adapter) {
  if (!adapter)
    return E_INVALIDARG;
  *adapter = nullptr;
  CreateDefaultAdapterFn create = g_createDefaultAdapter.load();
  if (!create) {
    NPT_WARN("no DXGI adapter available: this d3d11.dll was built without the DXGI objects");
    return DXGI_ERROR_UNSUPPORTED;
  }
  return create(adapter);
}

}
