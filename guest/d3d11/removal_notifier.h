// SPDX-License-Identifier: MIT
#pragma once

#include <windows.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

// ID3D11Device4::RegisterDeviceRemovedEvent: the events an application registered are
// set when the host removes the device. The host writes removal into the connection's
// control block, not into a guest event, so one watcher thread per device polls the
// status every 10 ms while at least one event is registered (it sleeps while none is,
// and ends once it has set them).
namespace npt::guest {

class RemovalNotifier {
public:
  // removed() reports whether the device is gone (the connection's status).
  explicit RemovalNotifier(std::function<bool()> removed) : m_removed(std::move(removed)) {}
  ~RemovalNotifier();
  RemovalNotifier(const RemovalNotifier&) = delete;
  RemovalNotifier& operator=(const RemovalNotifier&) = delete;

  // The event is duplicated: the application may close its handle while registered.
  HRESULT add(HANDLE event, DWORD* cookie);
  void remove(DWORD cookie);

private:
  void watch();
  void signalAllLocked();

  std::function<bool()> m_removed;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::map<DWORD, HANDLE> m_events;
  DWORD m_nextCookie = 1;
  bool m_signalled = false;
  bool m_stopping = false;
  std::thread m_watcher;
};

}
