// SPDX-License-Identifier: MIT
#define _CRT_RAND_S  // rand_s: the token must not be guessable
#include <cstdlib>
#include "server_win32.h"
#include "context_supervisor_win32.h"
#include "hello_checks.h"
#include "protocol_identity.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include <winsock2.h>
#include <windows.h>

#include "neptune/transport/handshake.h"
#include "neptune/transport/host_context.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/wait.h"

namespace npt::server {

using namespace npt::transport;

namespace {

std::string random_token() {
  std::string s;
  char hex[9];
  for (int i = 0; i < 4; i++) {
    unsigned int v = 0;
    rand_s(&v);
    std::snprintf(hex, sizeof(hex), "%08x", v);
    s += hex;
  }
  return s;
}

}

Win32Server::Win32Server(const ServerConfig& config) : m_config(config), m_budget(config.max_memory) {}

Win32Server::~Win32Server() {
  m_listener.close();
  if (!m_rendezvous_path.empty())
    DeleteFileA(m_rendezvous_path.c_str());
  for (auto& c : m_threads)
    if (c.thread.joinable())
      c.thread.detach();
  // Supervising threads end with their workers, which end with the job.
  for (auto& s : m_supervised)
    s.supervisor.release();
}

bool Win32Server::start() {
  if (!socket_library_init())
    return false;
  char exe[MAX_PATH];
  DWORD n = GetModuleFileNameA(nullptr, exe, sizeof(exe));
  if (n == 0 || n >= sizeof(exe))
    return false;
  m_exe = exe;
  if (!m_config.contexts_in_threads) {
    HANDLE job = CreateJobObjectA(nullptr, nullptr);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (job && SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof(limits)))
      m_job = job;
    else if (job)
      CloseHandle(job);
  }
  SOCKET s = WSASocketA(AF_INET, SOCK_STREAM, 0, nullptr, 0, WSA_FLAG_NO_HANDLE_INHERIT);
  sockaddr_in in = {};
  in.sin_family = AF_INET;
  in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int len = sizeof(in);
  if (s == INVALID_SOCKET || ::bind(s, reinterpret_cast<sockaddr*>(&in), sizeof(in)) != 0 ||
      ::listen(s, 64) != 0 || ::getsockname(s, reinterpret_cast<sockaddr*>(&in), &len) != 0) {
    std::fprintf(stderr, "neptune-server: cannot listen on loopback TCP (%d)\n", WSAGetLastError());
    return false;
  }
  m_listener = Socket(Socket::Native(s));
  m_token = random_token();
  m_rendezvous_path = m_config.socket_path + ".tcp";
  std::string tmp = m_rendezvous_path + ".new";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f)
    return false;
  std::fprintf(f, "%u %s\n", unsigned(ntohs(in.sin_port)), m_token.c_str());
  std::fclose(f);
  return MoveFileExA(tmp.c_str(), m_rendezvous_path.c_str(), MOVEFILE_REPLACE_EXISTING) != 0;
}

int Win32Server::run() {
  for (;;) {
    SOCKET c = ::accept(SOCKET(m_listener.native()), nullptr, nullptr);
    if (c == INVALID_SOCKET)
      return 1;
    // No worker may inherit another guest's socket.
    SetHandleInformation(HANDLE(c), HANDLE_FLAG_INHERIT, 0);
    reap();
    accept_guest(Socket(Socket::Native(c)));
  }
}

void Win32Server::reap() {
  for (auto it = m_threads.begin(); it != m_threads.end();) {
    if (it->done) {
      it->thread.join();
      it = m_threads.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = m_supervised.begin(); it != m_supervised.end();)
    it = it->supervisor->done() ? m_supervised.erase(it) : std::next(it);
}

void Win32Server::accept_guest(Socket conn) {
  int one = 1;
  setsockopt(SOCKET(conn.native()), IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&one), sizeof(one));
  Welcome welcome = {};
  welcome.magic = kWelcomeMagic;
  auto refuse = [&](ConnectError e, const char* message) {
    welcome.error = uint32_t(e);
    std::snprintf(welcome.message, sizeof(welcome.message), "%s", message);
    conn.send_all(&welcome, sizeof(welcome));
  };

  Hello hello = {};
  if (!receive_hello(conn, &hello, 2000))
    return;
  // In executor mode the guest's commands are decoded: its protocol must be this server's.
  const ProtocolIdentity own_protocol = executor_protocol();
  const ProtocolIdentity* protocol = m_config.dispatch == DispatchMode::Executor ? &own_protocol : nullptr;
  if (auto refusal = check_hello(hello, &m_token, live_contexts(), m_config.max_contexts, protocol)) {
    const std::string why = hello_refusal_message(hello, *refusal, protocol);
    // Always logged: a guest of another build is a deployment mistake worth seeing.
    if (*refusal == ConnectError::ProtocolMismatch)
      std::fprintf(stderr, "neptune-server: refused a guest: %s\n", why.c_str());
    return refuse(*refusal, why.c_str());
  }
  welcome.version = negotiate_version(hello);
  npt_host_geometry g = { hello.ring_count, hello.ring_size, hello.reply_slot_count, hello.reply_slot_size,
                          hello.push_slot_count, hello.fence_count, hello.bulk_size };
  const char* message = nullptr;
  if (uint32_t e = npt_host_check_geometry(&g, &m_config.limits, &message); e != 0)
    return refuse(ConnectError(e), message);
  MemoryBudget::Reservation memory;
  if (std::string why; !m_budget.reserve(context_memory(g, m_config.limits, m_config.worker_memory), &memory, &why)) {
    // Always logged: the operator sized the server (--max-memory, the per-context limits).
    std::fprintf(stderr, "neptune-server: refused a guest: %s\n", why.c_str());
    return refuse(ConnectError::ServerMemoryExhausted, why.c_str());
  }
  if ((hello.flags & kHelloSocketWake) == 0 && !address_wait_is_cross_process())
    return refuse(ConnectError::ServerError, "guest wants futex wakeups this server cannot give");

  const uint64_t size = npt_host_shared_memory_size(&g);
  const uint32_t id = m_next_id++;
  char name[96];
  std::snprintf(name, sizeof(name), "Local\\neptune-%lu-%u", GetCurrentProcessId(), id);
  HANDLE mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE,
                                     DWORD(size >> 32), DWORD(size), name);
  void* base = mapping ? MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, size_t(size)) : nullptr;
  if (!base) {
    if (mapping)
      CloseHandle(mapping);
    return refuse(ConnectError::ServerError, "cannot create shared memory");
  }
  HostContext::initialize_memory(static_cast<uint8_t*>(base), geometry_from_hello(hello), id);
  // Wake bytes on the socket in both modes; named events only where a worker process
  // and its guest can share them directly (process mode).
  const uint32_t granted = granted_offers(
    hello, kHelloSocketWake | kHelloBulkRegions | (m_config.contexts_in_threads ? 0u : uint32_t(kHelloEventWake)));
  const bool socket_wake = (granted & kHelloSocketWake) != 0;
  if (socket_wake)
    welcome.flags |= kWelcomeSocketWake;
  // Bulk regions after connect: named mappings "<name>-r<id>" the worker creates.
  if (granted & kHelloBulkRegions)
    welcome.flags |= kWelcomeBulkRegions;

  if (!m_config.contexts_in_threads) {
    ContextSupervisor::Setup setup;
    setup.id = id;
    setup.exe = m_exe;
    setup.mapping_name = name;
    setup.mapping = mapping;
    setup.base = static_cast<uint8_t*>(base);
    setup.size = size;
    setup.geometry = g;
    setup.config = &m_config;
    setup.socket_wake = socket_wake;
    setup.job = m_job;
    if ((granted & kHelloEventWake) && socket_wake) {
      // The guest rings and waits on named events it opens after the Welcome.
      setup.guest_doorbell = CreateEventA(nullptr, FALSE, FALSE, (std::string(name) + kDoorbellEventSuffix).c_str());
      setup.guest_wake = CreateEventA(nullptr, FALSE, FALSE, (std::string(name) + kWakeEventSuffix).c_str());
      if (setup.guest_doorbell && setup.guest_wake) {
        welcome.flags |= kWelcomeEventWake;
      } else {
        for (HANDLE h : { setup.guest_doorbell, setup.guest_wake })
          if (h)
            CloseHandle(h);
        setup.guest_doorbell = setup.guest_wake = nullptr;
      }
    }
    // The Welcome goes first: starting a Wine process can take seconds on a loaded
    // machine, and the guest may fill its ring meanwhile. The control block shows the
    // worker's pid once the worker has attached.
    welcome.worker_pid = 0;
    welcome.shm_size = size;
    welcome.flags |= kWelcomePath;
    std::snprintf(welcome.path, sizeof(welcome.path), "%s", name);
    if (!conn.send_all(&welcome, sizeof(welcome))) {
      for (HANDLE h : { setup.guest_doorbell, setup.guest_wake })
        if (h)
          CloseHandle(h);
      UnmapViewOfFile(base);
      CloseHandle(mapping);
      return;
    }
    std::string error;
    std::unique_ptr<ContextSupervisor> supervisor = ContextSupervisor::start(setup, &error);
    if (!supervisor) {
      // The guest learns it as from a worker that died at once.
      std::fprintf(stderr, "neptune-server: context %u: %s\n", id, error.c_str());
      auto* control = static_cast<ControlBlock*>(base);
      store_release(control->fatal_reason, uint32_t(FatalReason::WorkerDied));
      store_seq_cst(control->device_state, uint32_t(kDeviceRemovedState));
      address_wake_all(&control->device_state);
      UnmapViewOfFile(base);
      CloseHandle(mapping);
      return;
    }
    if (m_config.verbose)
      std::fprintf(stderr, "neptune-server: context %u in worker process %lu (%s)\n", id, supervisor->worker_pid(), name);
    supervisor->supervise(std::move(conn));
    m_supervised.push_back(Supervised{std::move(supervisor), std::move(memory)});
    return;
  }

  welcome.worker_pid = id;
  welcome.shm_size = size;
  welcome.flags |= kWelcomePath;
  std::snprintf(welcome.path, sizeof(welcome.path), "%s", name);
  if (!conn.send_all(&welcome, sizeof(welcome))) {
    UnmapViewOfFile(base);
    CloseHandle(mapping);
    return;
  }

  m_threads.emplace_back();
  ThreadContext& c = m_threads.back();
  c.memory = std::move(memory);
  auto params = std::make_shared<WorkerParams>();
  params->link = std::make_unique<SocketGuestLink>(std::move(conn));
  params->base = static_cast<uint8_t*>(base);
  params->size = size;
  params->geometry = g;
  params->limits = m_config.limits;
  params->socket_wake = socket_wake;
  params->wait_for_mapped_ack = true;
  params->region_prefix = name;
  params->dispatch = m_config.dispatch;
  params->spin_us = m_config.spin_us;
  params->worker_id = id;
  c.thread = std::thread([params, mapping, base, &c] {
    run_worker(*params);
    auto* control = reinterpret_cast<ControlBlock*>(base);
    if (load_acquire(control->device_state) == kDeviceAlive)
      store_release(control->fatal_reason, uint32_t(FatalReason::GuestDisconnected));
    store_seq_cst(control->device_state, uint32_t(kDeviceRemovedState));
    params->link.reset();
    UnmapViewOfFile(base);
    CloseHandle(mapping);
    c.done = true;
  });
  if (m_config.verbose)
    std::fprintf(stderr, "neptune-server: context %u on a thread (%s)\n", id, name);
}

}
