// SPDX-License-Identifier: MIT
#pragma once

#include "com.h"
#include "npt/com/private_data.h"
#include "runtime.h"

// Base of every D3D11 device child (resources, views, shaders, states, queries,
// input layouts, class linkages, command lists, deferred contexts).
//
// Windows' reference semantics, checked by Wine's d3d11 tests: a device child holds a
// reference on its device while the application holds one on the child (creating a
// buffer raises the device's count by one, releasing it lowers it again); GetDevice
// returns the device AddRef'd. When the child is finally destroyed its guest id is
// released with a DestroyObject command.
namespace npt::guest {

template<typename Base>
class DeviceChild : public ComObject<Base> {
public:
  DeviceChild(ID3D11Device* device, Runtime* runtime, Statistics* statistics, protocol::ObjectId id)
  : m_device(device), m_runtime(runtime), m_statistics(statistics), m_id(id) {}

  ~DeviceChild() override {
    if (m_id)
      m_runtime->destroyObject(m_statistics, m_id);
  }

  void STDMETHODCALLTYPE GetDevice(ID3D11Device** device) override {
    *device = addRefed(m_device);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return m_privateData.get(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return m_privateData.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* data) override {
    return m_privateData.setInterface(guid, data);
  }

  protocol::ObjectId objectId() const { return m_id; }
  ID3D11Device* device() const { return m_device; }
  Runtime* runtime() const { return m_runtime; }
  Statistics* statistics() const { return m_statistics; }

protected:
  void onFirstPublicRef() override { m_device->AddRef(); }
  void onLastPublicRef() override {
    // The child may be destroyed here; its destructor still needs the device's
    // statistics, so the device reference goes last.
    ID3D11Device* device = m_device;
    this->releasePrivate();
    device->Release();
  }

  ID3D11Device* m_device;
  Runtime* m_runtime;
  Statistics* m_statistics;
  protocol::ObjectId m_id;
  com::PrivateDataStore m_privateData;
};

// Holds the private reference a context binding keeps on a device child (the public
// count the application sees is unaffected, as on Windows).
template<typename T>
class Binding {
public:
  Binding() = default;
  Binding(const Binding& o) : Binding(o.m_p) {}
  explicit Binding(T* p) : m_p(p) { if (m_p) m_p->addRefPrivate(); }
  Binding& operator=(const Binding& o) { reset(o.m_p); return *this; }
  ~Binding() { if (m_p) m_p->releasePrivate(); }
  void reset(T* p = nullptr) {
    if (p == m_p)
      return;
    if (p) p->addRefPrivate();
    T* old = m_p;
    m_p = p;
    if (old) old->releasePrivate();
  }
  T* get() const { return m_p; }
  T* operator->() const { return m_p; }
  explicit operator bool() const { return m_p != nullptr; }
  protocol::ObjectId id() const { return m_p ? m_p->objectId() : 0; }

private:
  T* m_p = nullptr;
};

}
