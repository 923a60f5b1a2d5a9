// SPDX-License-Identifier: MIT
#include "com.h"

#include "device.h"

namespace triton::runtime {

PrivateData::~PrivateData() {
  for (auto& [guid, entry] : entries_)
    if (entry.object)
      entry.object->Release();
}

HRESULT PrivateData::get(REFGUID guid, UINT* size, void* data) {
  if (!size)
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = entries_.find(guid);
  if (found == entries_.end()) {
    *size = 0;
    return DXGI_ERROR_NOT_FOUND;
  }
  const Entry& entry = found->second;
  const UINT needed = entry.object ? UINT(sizeof(IUnknown*)) : UINT(entry.bytes.size());
  if (!data) {
    *size = needed;
    return S_OK;
  }
  if (*size < needed) {
    *size = needed;
    return DXGI_ERROR_MORE_DATA;
  }
  *size = needed;
  if (entry.object) {
    entry.object->AddRef();
    *static_cast<IUnknown**>(data) = entry.object;
  } else if (needed) {
    std::memcpy(data, entry.bytes.data(), needed);
  }
  return S_OK;
}

HRESULT PrivateData::set(REFGUID guid, UINT size, const void* data) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = entries_.find(guid);
  if (found != entries_.end()) {
    if (found->second.object)
      found->second.object->Release();
    entries_.erase(found);
  }
  if (!data)
    return S_OK;   // removes the entry
  Entry entry;
  entry.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
  entries_.emplace(guid, std::move(entry));
  return S_OK;
}

HRESULT PrivateData::setInterface(REFGUID guid, const IUnknown* object) {
  set(guid, 0, nullptr);
  if (!object)
    return S_OK;
  std::lock_guard<std::mutex> lock(mutex_);
  Entry entry;
  entry.object = const_cast<IUnknown*>(object);
  entry.object->AddRef();
  entries_.emplace(guid, std::move(entry));
  return S_OK;
}

ChildBase::ChildBase(Device* device, bool holdsDevice) : device_(device), holdsDevice_(holdsDevice) {
  if (holdsDevice_)
    device_->AddRef();
}

ULONG ChildBase::addPublic() {
  const ULONG refs = ++publicRefs_;
  if (refs == 1 && holdsDevice_)
    device_->AddRef();
  return refs;
}

ULONG ChildBase::releasePublic() {
  const ULONG refs = --publicRefs_;
  if (refs == 0) {
    // Destroy before letting go of the device: the driver object needs it.
    Device* device = device_;
    const bool holds = holdsDevice_;
    if (privateRefs_ == 0)
      delete this;
    if (holds)
      device->Release();
  }
  return refs;
}

void ChildBase::releasePrivate() {
  if (--privateRefs_ == 0 && publicRefs_ == 0)
    delete this;
}

}  // namespace triton::runtime
