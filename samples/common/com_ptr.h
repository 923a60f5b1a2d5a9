// SPDX-License-Identifier: MIT
#pragma once

#include <utility>

namespace npt::samples {

  // Minimal owning COM pointer; the samples avoid WRL so mingw needs nothing extra.
  template<typename T>
  class ComPtr {
  public:
    ComPtr() = default;
    ComPtr(const ComPtr& other) : m_ptr(other.m_ptr) { if (m_ptr) m_ptr->AddRef(); }
    ComPtr(ComPtr&& other) noexcept : m_ptr(std::exchange(other.m_ptr, nullptr)) { }
    ~ComPtr() { reset(); }

    ComPtr& operator=(ComPtr other) noexcept { std::swap(m_ptr, other.m_ptr); return *this; }

    void reset() { if (m_ptr) std::exchange(m_ptr, nullptr)->Release(); }

    T* get() const { return m_ptr; }
    T* operator->() const { return m_ptr; }
    explicit operator bool() const { return m_ptr != nullptr; }

    // For out-parameters of Create* calls; releases whatever was held.
    T** put() { reset(); return &m_ptr; }
    // For APIs taking an array of one pointer (e.g. *SetShaderResources).
    T* const* addressOf() const { return &m_ptr; }

  private:
    T* m_ptr = nullptr;
  };

}
