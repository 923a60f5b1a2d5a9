// SPDX-License-Identifier: MIT
#include "removal_notifier.h"

#include <chrono>

namespace npt::guest {

RemovalNotifier::~RemovalNotifier() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_watcher.joinable())
    m_watcher.join();
  for (auto& [cookie, event] : m_events)
    CloseHandle(event);
}

HRESULT RemovalNotifier::add(HANDLE event, DWORD* cookie) {
  if (!event || !cookie)
    return E_INVALIDARG;
  HANDLE own = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), event, GetCurrentProcess(), &own, 0, FALSE, DUPLICATE_SAME_ACCESS))
    return E_INVALIDARG;
  std::lock_guard<std::mutex> lock(m_mutex);
  *cookie = m_nextCookie++;
  m_events[*cookie] = own;
  if (m_signalled || m_removed()) {
    // Already removed: the event says so at once.
    m_signalled = true;
    SetEvent(own);
    return S_OK;
  }
  if (!m_watcher.joinable())
    m_watcher = std::thread([this] { watch(); });
  m_wake.notify_all();
  return S_OK;
}

void RemovalNotifier::remove(DWORD cookie) {
  std::lock_guard<std::mutex> lock(m_mutex);
  auto it = m_events.find(cookie);
  if (it == m_events.end())
    return;
  CloseHandle(it->second);
  m_events.erase(it);
}

void RemovalNotifier::signalAllLocked() {
  m_signalled = true;
  for (auto& [cookie, event] : m_events)
    SetEvent(event);
}

void RemovalNotifier::watch() {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_stopping && !m_signalled) {
    if (m_events.empty()) {
      // Nothing to tell: sleep until an event is registered or the device goes.
      m_wake.wait(lock, [this] { return m_stopping || !m_events.empty(); });
      continue;
    }
    if (m_removed()) {
      signalAllLocked();
      break;
    }
    m_wake.wait_for(lock, std::chrono::milliseconds(10), [this] { return m_stopping; });
  }
}

}
