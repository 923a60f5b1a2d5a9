// SPDX-License-Identifier: MIT
#include "com.h"

#include "device.h"

namespace triton::runtime {

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
