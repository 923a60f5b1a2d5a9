// SPDX-License-Identifier: MIT
#include "npt/com/private_data.h"

#include <cstring>

namespace npt::com {

PrivateDataStore::~PrivateDataStore() {
  for (Entry& e : m_entries)
    if (e.object)
      e.object->Release();
}

PrivateDataStore::Entry* PrivateDataStore::find(REFGUID guid) {
  for (Entry& e : m_entries)
    if (IsEqualGUID(e.guid, guid))
      return &e;
  return nullptr;
}

void PrivateDataStore::erase(Entry* entry) {
  if (entry->object)
    entry->object->Release();
  m_entries.erase(m_entries.begin() + (entry - m_entries.data()));
}

HRESULT PrivateDataStore::get(REFGUID guid, UINT* size, void* data) {
  if (!size)
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(m_mutex);
  Entry* e = find(guid);
  if (!e) {
    *size = 0;
    return DXGI_ERROR_NOT_FOUND;
  }
  UINT capacity = *size;
  UINT stored = e->isInterface ? UINT(sizeof(IUnknown*)) : UINT(e->bytes.size());
  *size = stored;
  if (!data)
    return S_OK;
  if (capacity < stored)
    return DXGI_ERROR_MORE_DATA;
  if (e->isInterface) {
    if (e->object)
      e->object->AddRef();
    std::memcpy(data, &e->object, sizeof(IUnknown*));
  } else if (stored) {
    std::memcpy(data, e->bytes.data(), stored);
  }
  return S_OK;
}

HRESULT PrivateDataStore::set(REFGUID guid, UINT size, const void* data) {
  std::lock_guard<std::mutex> lock(m_mutex);
  Entry* e = find(guid);
  if (!data) {
    if (!e)
      return S_FALSE;
    erase(e);
    return S_OK;
  }
  if (e)
    erase(e);
  Entry entry;
  entry.guid = guid;
  entry.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
  m_entries.push_back(std::move(entry));
  return S_OK;
}

HRESULT PrivateDataStore::setInterface(REFGUID guid, const IUnknown* object) {
  IUnknown* held = const_cast<IUnknown*>(object);
  if (held)
    held->AddRef();
  std::lock_guard<std::mutex> lock(m_mutex);
  if (Entry* e = find(guid))
    erase(e);
  Entry entry;
  entry.guid = guid;
  entry.isInterface = true;
  entry.object = held;
  m_entries.push_back(std::move(entry));
  return S_OK;
}

}  // namespace npt::com
