// SPDX-License-Identifier: MIT
#include "dxvk_resident_instance.h"

#include <mutex>

#include "npt/backends/dynamic_library.h"
#include "npt/d3d11_api.h"

namespace npt::backends {

void keepDxvkVulkanDriverLoaded(const std::string& dxgiLibrary) {
  static std::once_flag once;
  std::call_once(once, [&dxgiLibrary] {
    // Deliberately leaked, with the factory below: closing the library at exit while the
    // factory lives would only add an exit-time hazard.
    auto* library = new DynamicLibrary();
    if (!library->open(dxgiLibrary)) return;
    using CreateFactoryFn = HRESULT (*)(REFIID, void**);
    auto createFactory = reinterpret_cast<CreateFactoryFn>(library->symbol("CreateDXGIFactory1"));
    void* factory = nullptr;
    if (createFactory) createFactory(__uuidof(IDXGIFactory1), &factory);   // never released: see the header
  });
}

}  // namespace npt::backends
