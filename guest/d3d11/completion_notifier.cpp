// SPDX-License-Identifier: MIT
#include "completion_notifier.h"

#include <chrono>

#include "query.h"

namespace npt::guest {

HRESULT CompletionNotifier::signalWhenDone(HANDLE event) {
  HANDLE own = nullptr;
  if (!event || !DuplicateHandle(GetCurrentProcess(), event, GetCurrentProcess(), &own, 0, FALSE, DUPLICATE_SAME_ACCESS))
    return E_INVALIDARG;
  if (m_hooks.removed()) {
    SetEvent(own);   // nothing is pending on a removed device
    CloseHandle(own);
    return S_OK;
  }
  Query* query = m_hooks.endEventQuery();
  if (!query) {
    CloseHandle(own);
    return E_OUTOFMEMORY;
  }
  std::lock_guard<std::mutex> lock(m_mutex);
  m_pending.push_back({ query, own });
  if (!m_watcher.joinable())
    m_watcher = std::thread([this] { watch(); });
  m_wake.notify_all();
  return S_OK;
}

void CompletionNotifier::finish(const Pending& pending) {
  SetEvent(pending.event);
  CloseHandle(pending.event);
  pending.query->releasePrivate();
}

void CompletionNotifier::stop() {
  std::vector<Pending> left;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
    left.swap(m_pending);
  }
  m_wake.notify_all();
  if (m_watcher.joinable())
    m_watcher.join();
  for (const Pending& pending : left)
    finish(pending);
}

void CompletionNotifier::watch() {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_stopping) {
    if (m_pending.empty()) {
      m_wake.wait(lock, [this] { return m_stopping || !m_pending.empty(); });
      continue;
    }
    bool removed = m_hooks.removed();
    for (size_t i = 0; i < m_pending.size();) {
      BOOL done = FALSE;
      if (removed || m_pending[i].query->readResult(&done, sizeof(done)) == S_OK) {
        // Released outside the lock: a query's destruction records its DestroyObject.
        Pending pending = m_pending[i];
        m_pending.erase(m_pending.begin() + i);
        lock.unlock();
        finish(pending);
        lock.lock();
        continue;
      }
      i++;
    }
    m_wake.wait_for(lock, std::chrono::microseconds(500), [this] { return m_stopping; });
  }
}

}
