// SPDX-License-Identifier: MIT
#pragma once

#include <dxgi1_6.h>

#include "../core/com.h"
#include "npt/com/private_data.h"

// Base of the DXGI objects that are not device children (factory, adapter, output,
// swapchain): plain COM reference counting and IDXGIObject's private data. GetParent
// is per object (Windows: the factory has none, an adapter's is its factory, an
// output's its adapter, a swapchain's its factory).
namespace npt::guest::dxgi {

template<typename Base>
class DxgiObject : public ComObject<Base> {
public:
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return m_privateData.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return m_privateData.setInterface(guid, object);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return m_privateData.get(guid, size, data);
  }

protected:
  com::PrivateDataStore m_privateData;
};

// QueryInterface helper: writes `self` AddRef'd as the requested interface.
template<typename T>
HRESULT returnInterface(T* self, void** out) {
  self->AddRef();
  *out = self;
  return S_OK;
}

}
