// SPDX-License-Identifier: MIT
#pragma once

#include "device.h"
#include "device_child.h"

// A D3D11 device child of a Neptune Device: the core DeviceChild plus typed access
// to the device (its command stream and statistics).
namespace npt::guest {

template<typename Base>
class D3D11Child : public DeviceChild<Base> {
public:
  D3D11Child(Device* device, protocol::ObjectId id)
  : DeviceChild<Base>(device->asDevice(), device->runtime(), device->statistics(), id), m_parent(device) {}

  Device* parent() const { return m_parent; }

protected:
  // QueryInterface tail shared by every child: IUnknown and ID3D11DeviceChild.
  HRESULT queryChild(REFIID riid, void** object) {
    if (IsEqualGUID(riid, __uuidof(IUnknown)) || IsEqualGUID(riid, __uuidof(ID3D11DeviceChild))) {
      *object = addRefed(static_cast<ID3D11DeviceChild*>(this));
      return S_OK;
    }
    *object = nullptr;
    return E_NOINTERFACE;
  }

  Device* m_parent;
};

// QueryInterface's argument checks, as Windows does them.
#define NPT_QI_PROLOGUE(riid, object) \
  do { if (!(object)) return E_POINTER; *(object) = nullptr; } while (0)

}
