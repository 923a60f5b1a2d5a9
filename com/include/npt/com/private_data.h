// SPDX-License-Identifier: MIT
#pragma once

#include <mutex>
#include <vector>

#include <d3d11_4.h>

// Private data of D3D11 device children and DXGI objects: SetPrivateData,
// SetPrivateDataInterface, GetPrivateData with the HRESULTs Windows returns (checked by
// Wine's d3d11/dxgi tests), for both runtimes of the guest: Neptune's d3d11.dll/dxgi.dll
// and Triton's API-level runtime. A local answer: never on the wire.
namespace npt::com {

class PrivateDataStore {
public:
  PrivateDataStore() = default;
  PrivateDataStore(const PrivateDataStore&) = delete;
  PrivateDataStore& operator=(const PrivateDataStore&) = delete;
  ~PrivateDataStore();

  HRESULT get(REFGUID guid, UINT* size, void* data);
  // data NULL removes the entry (S_FALSE when there was none).
  HRESULT set(REFGUID guid, UINT size, const void* data);
  // The store holds a reference on object. A NULL object is an entry too, as on Windows:
  // GetPrivateData then answers a null pointer of sizeof(IUnknown*) bytes (Wine's d3d11
  // suite, test_private_data).
  HRESULT setInterface(REFGUID guid, const IUnknown* object);

private:
  struct Entry {
    GUID guid;
    std::vector<uint8_t> bytes;
    bool isInterface = false;     // the entry is an interface pointer (object, perhaps null)
    IUnknown* object = nullptr;   // owned reference when the entry holds an interface
  };
  Entry* find(REFGUID guid);
  void erase(Entry* entry);

  std::mutex m_mutex;
  std::vector<Entry> m_entries;
};

}  // namespace npt::com
