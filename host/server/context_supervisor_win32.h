// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <windows.h>

#include "neptune/transport/layout.h"
#include "neptune/transport/socket.h"
#include "server_config.h"
#include "worker_process_win32.h"

// The parent's side of one context in neptune-server.exe: it starts the worker process,
// keeps the guest's socket and, on a thread of its own, relays socket doorbells and wake
// bytes, notices the guest leaving (and tells the worker to end), watches the worker's
// progress (the watchdog), and, when the worker ends for any reason, marks the context
// removed in the control block and wakes the guest.
namespace npt::server {

class ContextSupervisor {
public:
  struct Setup {
    uint32_t id = 0;
    std::string exe;                 // neptune-server.exe itself
    std::string mapping_name;
    HANDLE mapping = nullptr;        // taken over: closed when the context ends
    uint8_t* base = nullptr;         // the parent's view, taken over
    uint64_t size = 0;
    npt_host_geometry geometry = {};
    const ServerConfig* config = nullptr;
    bool socket_wake = false;
    HANDLE job = nullptr;            // workers join it (they die with the server)
    // Event wakeups granted (kWelcomeEventWake): the guest's named doorbell and wake
    // events, taken over; the worker uses them directly, the parent relays nothing.
    HANDLE guest_doorbell = nullptr;
    HANDLE guest_wake = nullptr;
  };

  // Starts the worker process; null (and *error) if it cannot. The mapping and view in
  // setup are taken over on success only.
  static std::unique_ptr<ContextSupervisor> start(const Setup& setup, std::string* error);
  ~ContextSupervisor();

  DWORD worker_pid() const { return m_worker_pid; }
  // After the guest got its Welcome: the supervising thread takes the socket over.
  void supervise(transport::Socket guest);
  bool done() const { return m_done.load(); }

private:
  explicit ContextSupervisor(const Setup& setup) : m_setup(setup) {}
  void run();
  void relay_guest_bytes();
  void mark_removed(uint32_t reason);

  Setup m_setup;
  transport::Geometry m_geometry;
  transport::Socket m_socket;
  HANDLE m_socket_event = nullptr;
  HANDLE m_process = nullptr;
  DWORD m_worker_pid = 0;
  HANDLE m_supervision_mapping = nullptr;
  WorkerSupervision* m_supervision = nullptr;
  HANDLE m_doorbell = nullptr;
  HANDLE m_quit = nullptr;
  HANDLE m_wake_request = nullptr;
  bool m_guest_gone = false;
  bool m_events_to_guest = false;
  std::thread m_thread;
  std::atomic<bool> m_done{false};
};

}
