// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>

#include <d3d11_4.h>

// COM object base of the guest runtime.
//
// Reference counting follows Windows' D3D11 runtime (and DXVK): an object has a public
// count, the one AddRef/Release report to the application, and a private count held by
// the runtime itself (context bindings, containers). The object lives while either is
// non-zero: an application may release a shader that is still bound, and VSGetShader
// hands it back (public count 0 -> 1 again). While the public count is non-zero the
// object holds one private reference on itself.
namespace npt::guest {

template<typename Base>
class ComObject : public Base {
public:
  virtual ~ComObject() = default;

  ULONG STDMETHODCALLTYPE AddRef() override {
    ULONG refs = ++m_refPublic;
    if (refs == 1) {
      addRefPrivate();
      onFirstPublicRef();
    }
    return refs;
  }

  ULONG STDMETHODCALLTYPE Release() override {
    ULONG refs = --m_refPublic;
    if (refs == 0)
      onLastPublicRef();
    return refs;
  }

  void addRefPrivate() { ++m_refPrivate; }
  void releasePrivate() {
    if (--m_refPrivate == 0)
      delete this;
  }
  ULONG publicRefs() const { return m_refPublic.load(); }
  // The runtime's own references (bindings, views on a resource, containers), counting
  // the one a publicly referenced object holds on itself.
  ULONG privateRefs() const { return m_refPrivate.load(); }

protected:
  // Hooks for device children (device reference while publicly referenced).
  virtual void onFirstPublicRef() {}
  // Must end with releasePrivate() (the object may be gone afterwards).
  virtual void onLastPublicRef() { releasePrivate(); }

  std::atomic<ULONG> m_refPublic{0};
  std::atomic<ULONG> m_refPrivate{0};
};

// Writes an AddRef'd interface pointer, or NULL, to an out parameter.
template<typename T>
T* addRefed(T* object) {
  if (object)
    object->AddRef();
  return object;
}

// Owning smart pointer for a public reference (for the runtime's own holds of
// objects it did not create itself, e.g. the adapter a device was created on).
template<typename T>
class ComRef {
public:
  ComRef() = default;
  ComRef(T* p) : m_p(p) { if (m_p) m_p->AddRef(); }
  ComRef(const ComRef& o) : ComRef(o.m_p) {}
  ComRef& operator=(const ComRef& o) { reset(o.m_p); return *this; }
  ~ComRef() { if (m_p) m_p->Release(); }
  void reset(T* p = nullptr) {
    if (p) p->AddRef();
    if (m_p) m_p->Release();
    m_p = p;
  }
  T* get() const { return m_p; }
  T* operator->() const { return m_p; }
  explicit operator bool() const { return m_p != nullptr; }
  T** put() { reset(); return &m_p; }

private:
  T* m_p = nullptr;
};

}
