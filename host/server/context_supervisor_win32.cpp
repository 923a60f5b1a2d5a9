// SPDX-License-Identifier: MIT
#include <winsock2.h>

#include "context_supervisor_win32.h"
#include "sharing_cleanup.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "neptune/transport/handshake.h"
#include "neptune/transport/wait.h"

namespace npt::server {

using namespace npt::transport;

namespace {

// A worker that does not end this long after its guest left is terminated.
constexpr uint64_t kQuitGraceNs = 2000ull * 1000000;
// The supervising thread wakes at least this often to run the watchdog.
constexpr DWORD kSupervisionSliceMs = 50;
// Exit code of a worker the watchdog terminated.
constexpr UINT kHungExitCode = 0x4E505448;   // "NPTH"

// Handles are made inheritable only while one worker is created, so that no worker
// inherits another context's handles (the guests' sockets are never inheritable).
std::mutex g_inheritance_mutex;

void set_inheritable(HANDLE h, bool on) {
  SetHandleInformation(h, HANDLE_FLAG_INHERIT, on ? HANDLE_FLAG_INHERIT : 0);
}

// Test hook (NPT_TEST_WORKER_JOB_DELAY_MS): how long the parent waits between starting a
// worker and putting it in the job, so that a test can end the server in that window.
DWORD test_delay_before_job_ms() {
  char text[16] = {};
  if (!GetEnvironmentVariableA("NPT_TEST_WORKER_JOB_DELAY_MS", text, sizeof(text)))
    return 0;
  return DWORD(std::strtoul(text, nullptr, 10));
}

}

std::unique_ptr<ContextSupervisor> ContextSupervisor::start(const Setup& setup, std::string* error) {
  std::unique_ptr<ContextSupervisor> s(new ContextSupervisor(setup));
  const npt_host_geometry& g = setup.geometry;
  s->m_geometry.ring_count = g.ring_count;
  s->m_geometry.ring_size = g.ring_size;
  s->m_geometry.reply_slot_count = g.reply_slot_count;
  s->m_geometry.reply_slot_size = g.reply_slot_size;
  s->m_geometry.push_slot_count = g.push_slot_count;
  s->m_geometry.fence_count = g.fence_count;
  s->m_geometry.bulk_size = g.bulk_size;

  s->m_supervision_mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, 4096, nullptr);
  if (s->m_supervision_mapping)
    s->m_supervision = static_cast<WorkerSupervision*>(
        MapViewOfFile(s->m_supervision_mapping, FILE_MAP_ALL_ACCESS, 0, 0, sizeof(WorkerSupervision)));
  // With event wakeups the guest's named events are the worker's doorbell and wake
  // request: the guest waits on the latter itself.
  s->m_events_to_guest = setup.guest_doorbell && setup.guest_wake;
  s->m_doorbell = s->m_events_to_guest ? setup.guest_doorbell : CreateEventA(nullptr, FALSE, FALSE, nullptr);
  s->m_quit = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  s->m_wake_request = s->m_events_to_guest ? setup.guest_wake : CreateEventA(nullptr, FALSE, FALSE, nullptr);
  s->m_socket_event = WSACreateEvent();
  HANDLE parent = nullptr;
  DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(), &parent, SYNCHRONIZE, FALSE, 0);
  if (!s->m_supervision || !s->m_doorbell || !s->m_quit || !s->m_wake_request || !parent ||
      s->m_socket_event == WSA_INVALID_EVENT) {
    if (parent)
      CloseHandle(parent);
    *error = "cannot create the worker's supervision objects";
    s->m_setup.base = nullptr;
    s->m_setup.mapping = nullptr;
    return nullptr;
  }

  WorkerLaunch launch;
  launch.context_id = setup.id;
  launch.mapping_name = setup.mapping_name;
  launch.size = setup.size;
  launch.geometry = g;
  launch.limits = setup.config->limits;
  launch.dispatch = setup.config->dispatch;
  launch.spin_us = setup.config->spin_us;
  launch.socket_wake = setup.socket_wake;
  launch.supervision = s->m_supervision_mapping;
  launch.doorbell = s->m_doorbell;
  launch.quit = s->m_quit;
  launch.wake_request = s->m_wake_request;
  launch.parent = parent;
  std::string command = launch.command_line(setup.exe);

  STARTUPINFOA si = {};
  si.cb = sizeof(si);
  // The worker logs to the server's stderr.
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION pi = {};
  BOOL created;
  {
    std::lock_guard lock(g_inheritance_mutex);
    HANDLE inherited[] = { s->m_supervision_mapping, s->m_doorbell, s->m_quit, s->m_wake_request, parent };
    for (HANDLE h : inherited)
      set_inheritable(h, true);
    // Under Wine a process start fails now and then with ERROR_INTERNAL_ERROR (seen once in a
    // full test run, triton-sample-compositor): a transient failure must not cost the guest its device.
    for (int attempt = 0; attempt < 3; attempt++) {
      created = CreateProcessA(nullptr, command.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi);
      if (created)
        break;
      Sleep(50);
    }
    for (HANDLE h : inherited)
      set_inheritable(h, false);
  }
  CloseHandle(parent);
  if (!created) {
    char text[96];
    std::snprintf(text, sizeof(text), "cannot start a worker process (error %lu)", GetLastError());
    *error = text;
    s->m_setup.base = nullptr;
    s->m_setup.mapping = nullptr;
    return nullptr;
  }
  // A job with kill-on-close ends the workers with the server, however it ends (a worker
  // that hangs included). The worker is not created suspended for it: a server that died
  // before it resumed one (TerminateProcess during a guest's connect) left a suspended
  // process behind for good under Wine, holding the output pipe it inherited. A worker
  // not in the job yet ends by itself once it sees the parent's handle signalled
  // (worker_process_win32.cpp), as where jobs are unavailable.
  if (const DWORD delay_ms = test_delay_before_job_ms())
    Sleep(delay_ms);
  if (setup.job)
    AssignProcessToJobObject(setup.job, pi.hProcess);
  CloseHandle(pi.hThread);
  s->m_process = pi.hProcess;
  s->m_worker_pid = pi.dwProcessId;
  return s;
}

ContextSupervisor::~ContextSupervisor() {
  if (m_thread.joinable())
    m_thread.join();
  if (m_process && WaitForSingleObject(m_process, 0) == WAIT_TIMEOUT) {
    // Never supervised (the guest's Welcome failed): nobody else will end the worker.
    TerminateProcess(m_process, 1);
    WaitForSingleObject(m_process, 5000);
  }
  for (HANDLE h : { m_process, m_doorbell, m_quit, m_wake_request })
    if (h)
      CloseHandle(h);
  if (m_socket_event && m_socket_event != WSA_INVALID_EVENT)
    WSACloseEvent(m_socket_event);
  if (m_supervision)
    UnmapViewOfFile(m_supervision);
  if (m_supervision_mapping)
    CloseHandle(m_supervision_mapping);
  if (m_setup.base)
    UnmapViewOfFile(m_setup.base);
  if (m_setup.mapping)
    CloseHandle(m_setup.mapping);
}

void ContextSupervisor::supervise(Socket guest) {
  m_socket = std::move(guest);
  m_thread = std::thread([this] { run(); });
}

// Doorbell bytes (and the mapped acknowledgement) wake the worker; the end of the stream
// means the guest is gone.
void ContextSupervisor::relay_guest_bytes() {
  WSANETWORKEVENTS events = {};
  WSAEnumNetworkEvents(SOCKET(m_socket.native()), m_socket_event, &events);
  char buf[256];
  bool rang = false;
  for (;;) {
    int n = ::recv(SOCKET(m_socket.native()), buf, sizeof(buf), 0);
    if (n > 0) {
      rang = true;
      continue;
    }
    if (n == 0 || WSAGetLastError() != WSAEWOULDBLOCK)
      m_guest_gone = true;
    break;
  }
  if (rang)
    SetEvent(m_doorbell);
  if (m_guest_gone)
    SetEvent(m_quit);
}

void ContextSupervisor::run() {
  const ServerConfig& config = *m_setup.config;
  // Non-blocking from here on: reads are driven by the event, wake bytes never block.
  WSAEventSelect(SOCKET(m_socket.native()), m_socket_event, FD_READ | FD_CLOSE);
  uint64_t last_progress = 0;
  uint64_t progress_at = now_ns();
  uint64_t cpu_at = 0;
  uint64_t gone_at = 0;
  bool hung = false;
  for (;;) {
    // Wake requests are the guest's own event when it has event wakeups: not ours to take.
    HANDLE handles[3] = { m_process, m_socket_event, m_wake_request };
    DWORD count = m_guest_gone ? 1 : (m_events_to_guest ? 2 : 3);
    DWORD r = WaitForMultipleObjects(count, handles, FALSE, kSupervisionSliceMs);
    if (r == WAIT_OBJECT_0)
      break;
    if (r == WAIT_OBJECT_0 + 2)
      m_socket.send_byte_nonblocking(kWakeByte);
    if (r == WAIT_OBJECT_0 + 1 || (r == WAIT_TIMEOUT && !m_guest_gone)) {
      // Also on timeouts: an event lost to a race must not strand a doorbell.
      bool was_gone = m_guest_gone;
      relay_guest_bytes();
      if (m_guest_gone && !was_gone)
        gone_at = now_ns();
    }
    const uint64_t now = now_ns();
    if (m_guest_gone && now - gone_at > kQuitGraceNs) {
      std::fprintf(stderr, "neptune-server: context %u: worker %lu did not end after its guest left; terminating it\n",
                   m_setup.id, m_worker_pid);
      TerminateProcess(m_process, 1);
      WaitForSingleObject(m_process, 5000);
      break;
    }
    // The watchdog: a healthy worker bumps its progress word before every command and
    // at least every 100 ms while idle.
    if (config.watchdog_ms && load_acquire(m_supervision->running)) {
      uint64_t progress = load_relaxed(m_supervision->progress);
      uint64_t cpu = load_relaxed(m_supervision->cpu_ns);
      if (progress != last_progress) {
        last_progress = progress;
        progress_at = now;
        cpu_at = cpu;
      } else if (now - progress_at > uint64_t(config.watchdog_ms) * 1000000 &&
                 !worker_looks_hung(now - progress_at, cpu - cpu_at)) {
        // Working, on a starved machine: another period.
        progress_at = now;
        cpu_at = cpu;
      } else if (now - progress_at > uint64_t(config.watchdog_ms) * 1000000) {
        std::fprintf(stderr, "neptune-server: context %u: worker %lu made no progress for %u ms (CPU %llu ms); "
                     "terminating it\n", m_setup.id, m_worker_pid, config.watchdog_ms,
                     (unsigned long long)((cpu - cpu_at) / 1000000));
        hung = true;
        TerminateProcess(m_process, kHungExitCode);
        WaitForSingleObject(m_process, 5000);
        break;
      }
    } else {
      progress_at = now;
      cpu_at = load_relaxed(m_supervision->cpu_ns);
    }
  }

  DWORD exit_code = 0;
  GetExitCodeProcess(m_process, &exit_code);
  // A worker ends on its own only after its guest left or once its context is fatal
  // (then it recorded its own reason, which mark_removed keeps): anything else is a death.
  uint32_t reason = hung ? uint32_t(FatalReason::WorkerHung)
                  : m_guest_gone ? uint32_t(FatalReason::GuestDisconnected) : uint32_t(FatalReason::WorkerDied);
  mark_removed(reason);
  // A worker that did not end on its own ran no clean-up: its sharing entries come back.
  if (reason != uint32_t(FatalReason::GuestDisconnected))
    reclaim_sharing_of_dead_workers("context", m_setup.id);
  if (exit_code != 0 || config.verbose) {
    auto* control = reinterpret_cast<ControlBlock*>(m_setup.base);
    std::fprintf(stderr, "neptune-server: context %u: worker %lu ended (exit code 0x%lx); context removed: %s\n",
                 m_setup.id, m_worker_pid, exit_code,
                 fatal_reason_name(FatalReason(load_acquire(control->fatal_reason))));
  }
  // Guests that block on their socket learn it here; the others were woken above.
  m_socket.close();
  // The context's memory is released now, not when the accept loop next reaps.
  UnmapViewOfFile(m_setup.base);
  CloseHandle(m_setup.mapping);
  m_setup.base = nullptr;
  m_setup.mapping = nullptr;
  m_done = true;
}

void ContextSupervisor::mark_removed(uint32_t reason) {
  auto* control = reinterpret_cast<ControlBlock*>(m_setup.base);
  // Keep the worker's own reason when it declared the context fatal before exiting.
  if (load_acquire(control->device_state) == kDeviceAlive)
    store_release(control->fatal_reason, reason);
  store_seq_cst(control->device_state, uint32_t(kDeviceRemovedState));
  address_wake_all(&control->device_state);
  for (uint32_t i = 0; i < m_geometry.reply_slot_count; i++)
    address_wake_all(reinterpret_cast<uint32_t*>(m_setup.base + m_geometry.replies_offset() +
                                                 m_geometry.reply_stride() * i));
}

}
