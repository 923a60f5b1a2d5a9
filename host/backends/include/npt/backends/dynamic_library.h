// SPDX-License-Identifier: MIT
#pragma once

// dlopen / LoadLibrary behind one small class, with the loader's own error text.

#include <string>

namespace npt::backends {

class DynamicLibrary {
public:
  DynamicLibrary() = default;
  ~DynamicLibrary();

  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  // False on failure; error() then says why.
  bool open(const std::string& path);
  void* symbol(const char* name);
  bool isOpen() const { return m_handle != nullptr; }
  const std::string& error() const { return m_error; }

private:
  void* m_handle = nullptr;
  std::string m_error;
};

}  // namespace npt::backends
