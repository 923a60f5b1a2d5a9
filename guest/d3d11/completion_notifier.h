// SPDX-License-Identifier: MIT
#pragma once

#include <windows.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

// Events set once the GPU finished everything submitted before them:
// ID3D11DeviceContext3::Flush1's event and IDXGIDevice3::EnqueueSetEvent. The host
// cannot set a guest event, so the device ends an internal EVENT query on its immediate
// context, flushes, and one watcher thread (running only while requests are pending)
// reads the query's push slot every 500 us and sets the event when the result arrived
// or the device was removed. Nothing waits for the host on the calling thread.
namespace npt::guest {

class Query;

class CompletionNotifier {
public:
  struct Hooks {
    std::function<Query*()> endEventQuery;     // a new EVENT query, ended and flushed (private ref); null on failure
    std::function<bool()> removed;             // the device is gone: nothing will complete
  };
  explicit CompletionNotifier(Hooks hooks) : m_hooks(std::move(hooks)) {}
  ~CompletionNotifier() { stop(); }
  CompletionNotifier(const CompletionNotifier&) = delete;
  CompletionNotifier& operator=(const CompletionNotifier&) = delete;

  // The event is duplicated (the caller may close its handle). Fails only when the
  // handle cannot be duplicated or no query can be made (E_OUTOFMEMORY).
  HRESULT signalWhenDone(HANDLE event);
  // Sets every pending event and releases the queries (the device is going away; its
  // DestroyObject must follow theirs).
  void stop();

private:
  struct Pending {
    Query* query;
    HANDLE event;
  };
  void watch();
  static void finish(const Pending& pending);

  Hooks m_hooks;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::vector<Pending> m_pending;
  bool m_stopping = false;
  std::thread m_watcher;
};

}
