// SPDX-License-Identifier: MIT
#pragma once

// COM plumbing of the API-level runtime: device children with Windows' two kinds of
// reference (public references keep the device alive; the private ones a context
// takes for its bindings and a command list for what it recorded do not), and
// private data.

#include <windows.h>
#include <d3d11_1.h>

#include <atomic>
#include <memory>
#include <utility>

#include "npt/com/private_data.h"

namespace triton::runtime {

class Device;

// Private data with the HRESULTs Windows returns, the store Neptune's guest runtime uses.
using PrivateData = npt::com::PrivateDataStore;

// The part of every device child that is not its interface.
class ChildBase {
public:
  // A child holds a device reference while it has public references; the immediate
  // context, whose references are the device's own, holds none.
  explicit ChildBase(Device* device, bool holdsDevice = true);
  virtual ~ChildBase() = default;
  ChildBase(const ChildBase&) = delete;
  ChildBase& operator=(const ChildBase&) = delete;

  ULONG addPublic();
  ULONG releasePublic();
  void addPrivate() { ++privateRefs_; }
  void releasePrivate();
  Device* device() const { return device_; }
  PrivateData privateData;

private:
  Device* device_;
  bool holdsDevice_;
  std::atomic<ULONG> publicRefs_{1};
  std::atomic<ULONG> privateRefs_{0};
};

// A device child being created. When its creation fails, dropping it lets go of its public
// reference and so of the device reference that reference holds (deleting the object
// outright would leak the device reference).
struct ReleasePublic {
  void operator()(ChildBase* child) const { child->releasePublic(); }
};
template <class T>
using Creating = std::unique_ptr<T, ReleasePublic>;
template <class T, class... Args>
Creating<T> startCreating(Args&&... args) {
  return Creating<T>(new T(std::forward<Args>(args)...));
}

// A device child implementing Interface (and its bases up to ID3D11DeviceChild).
template <class Interface>
class Child : public Interface, public ChildBase {
public:
  explicit Child(Device* device, bool holdsDevice = true) : ChildBase(device, holdsDevice) {}

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (!out)
      return E_POINTER;
    *out = nullptr;
    if (riid == __uuidof(IUnknown) || riid == __uuidof(ID3D11DeviceChild) || implements(riid)) {
      *out = static_cast<Interface*>(this);
      AddRef();
      return S_OK;
    }
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return addPublic(); }
  ULONG STDMETHODCALLTYPE Release() override { return releasePublic(); }
  void STDMETHODCALLTYPE GetDevice(ID3D11Device** out) override;
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return privateData.get(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return privateData.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return privateData.setInterface(guid, object);
  }

protected:
  // The interfaces between ID3D11DeviceChild and Interface.
  virtual bool implements(REFIID riid) const { return riid == __uuidof(Interface); }
};

// A private reference (context bindings, recorded commands).
template <class T>
class Bound {
public:
  Bound() = default;
  Bound(T* object) : object_(object) { if (object_) object_->addPrivate(); }
  Bound(const Bound& other) : Bound(other.object_) {}
  Bound& operator=(const Bound& other) {
    if (other.object_) other.object_->addPrivate();
    if (object_) object_->releasePrivate();
    object_ = other.object_;
    return *this;
  }
  ~Bound() { if (object_) object_->releasePrivate(); }
  T* get() const { return object_; }
  T* operator->() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }

private:
  T* object_ = nullptr;
};

}  // namespace triton::runtime
