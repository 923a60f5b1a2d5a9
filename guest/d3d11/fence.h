// SPDX-License-Identifier: MIT
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "d3d11_child.h"

// ID3D11Fence. The host emulates fences (host/executor/src/fences.cpp) and
// writes each completed value into this fence's slot of the transport's fence area:
// GetCompletedValue and SetEventOnCompletion read the slot locally, without a round trip.
// Creating or opening a fence is one synchronous call: the host has written the slot
// before it answers, so a slot a previous fence used never shows its old value.
// Shared fences (D3D11_FENCE_FLAG_SHARED) get a registry handle valid in every context
// of the server; CreateSharedHandle hands out NT handles naming it (shared_handle.h),
// which OpenSharedFence takes.
namespace npt::guest {

struct KeepCallbacks;

class Fence final : public D3D11Child<ID3D11Fence> {
public:
  // Creation (ID3D11Device5::CreateFence) and opening (OpenSharedFence): sync calls.
  static HRESULT create(Device* device, UINT64 initialValue, D3D11_FENCE_FLAG flags, REFIID iid, void** out);
  static HRESULT open(Device* device, HANDLE handle, REFIID iid, void** out);

  ~Fence() override;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  HRESULT STDMETHODCALLTYPE CreateSharedHandle(const SECURITY_ATTRIBUTES* attributes, DWORD access, const WCHAR* name,
                                               HANDLE* handle) override;
  UINT64 STDMETHODCALLTYPE GetCompletedValue() override;
  HRESULT STDMETHODCALLTYPE SetEventOnCompletion(UINT64 value, HANDLE event) override;

private:
  Fence(Device* device, protocol::ObjectId id, uint32_t slot, D3D11_FENCE_FLAG flags, UINT64 handle);
  void watch();   // the thread that sets events of SetEventOnCompletion
  // Private references on this fence and its device, for a keeper of an NT handle's object.
  KeepCallbacks keepCallbacks();

  struct Waiter {
    UINT64 value;
    HANDLE event;   // a duplicate, closed once set
  };

  uint32_t m_slot;
  D3D11_FENCE_FLAG m_flags;
  UINT64 m_handle;   // the registry handle once shared or opened (0: none)
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::vector<Waiter> m_waiters;
  std::thread m_watcher;
  bool m_stopping = false;
};

}  // namespace npt::guest
