// SPDX-License-Identifier: MIT
#include "npt/backends/dynamic_library.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace npt::backends {

DynamicLibrary::~DynamicLibrary() {
  if (!m_handle) return;
#ifdef _WIN32
  FreeLibrary(static_cast<HMODULE>(m_handle));
#else
  dlclose(m_handle);
#endif
}

bool DynamicLibrary::open(const std::string& path) {
#ifdef _WIN32
  m_handle = reinterpret_cast<void*>(LoadLibraryA(path.c_str()));
  if (!m_handle) m_error = "LoadLibrary failed with error " + std::to_string(GetLastError());
#else
  m_handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!m_handle) {
    const char* text = dlerror();
    m_error = text ? text : "dlopen failed";
  }
#endif
  return m_handle != nullptr;
}

void* DynamicLibrary::symbol(const char* name) {
  if (!m_handle) return nullptr;
#ifdef _WIN32
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(m_handle), name));
#else
  return dlsym(m_handle, name);
#endif
}

}  // namespace npt::backends
