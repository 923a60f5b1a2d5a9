// SPDX-License-Identifier: MIT
#include "device_server.h"
#include "sharing_cleanup.h"
#include "worker_process_win32.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <thread>

#include <windows.h>

#include "neptune/transport/wait.h"

namespace npt::server {

using namespace npt::transport;

namespace {

// A Linux path (QEMU's backing file under /dev/shm) is reached through Wine's Z: drive.
std::string windows_path(const std::string& path) {
  if (path.empty() || path[0] != '/')
    return path;
  std::string p = "Z:" + path;
  for (char& c : p)
    if (c == '/')
      c = '\\';
  return p;
}

// The parent reads a device worker's supervision page through DeviceWorkerWords.
static_assert(offsetof(DeviceWorkerWords, progress) == offsetof(WorkerSupervision, progress) &&
              offsetof(DeviceWorkerWords, running) == offsetof(WorkerSupervision, running) &&
              offsetof(DeviceWorkerWords, cpu_ns) == offsetof(WorkerSupervision, cpu_ns));

void set_inheritable(HANDLE h, bool on) { SetHandleInformation(h, HANDLE_FLAG_INHERIT, on ? HANDLE_FLAG_INHERIT : 0); }

}

DeviceServer::~DeviceServer() {
  if (m_base) {
    stop_all();
    for (Worker& w : m_workers) {
      if (w.process)
        WaitForSingleObject(HANDLE(w.process), 5000);
      release_worker(w);
    }
    UnmapViewOfFile(m_base);
  }
  if (m_chunk_owners)
    UnmapViewOfFile(m_chunk_owners);
  for (void* h : { m_section, m_chunk_section, m_file })
    if (h)
      CloseHandle(HANDLE(h));
}

bool DeviceServer::start() {
  m_size = m_config.device_size;
  if (m_size < device::kMinDeviceSize || m_size % device::kChunkSize) {
    std::fprintf(stderr, "neptune-server: --size must be a multiple of 64 KiB and at least 4 MiB\n");
    return false;
  }
  char exe[MAX_PATH];
  DWORD n = GetModuleFileNameA(nullptr, exe, sizeof(exe));
  if (n == 0 || n >= sizeof(exe))
    return false;
  m_exe = exe;
  const std::string path = windows_path(m_config.device_path);
  // QEMU may have created the file first, and a restarted server serves the file QEMU
  // still maps: opened if it exists, grown to the size, never shrunk.
  HANDLE file = CreateFileA(path.c_str(), GENERIC_READ | GENERIC_WRITE,
                            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) {
    std::fprintf(stderr, "neptune-server: cannot open %s (%lu)\n", path.c_str(), GetLastError());
    return false;
  }
  m_file = file;
  LARGE_INTEGER current = {};
  GetFileSizeEx(file, &current);
  if (uint64_t(current.QuadPart) > m_size) {
    std::fprintf(stderr, "neptune-server: %s is larger (%lld bytes) than --size %llu: refusing to shrink it\n",
                 path.c_str(), (long long)current.QuadPart, (unsigned long long)m_size);
    return false;
  }
  LARGE_INTEGER wanted;
  wanted.QuadPart = LONGLONG(m_size);
  if (uint64_t(current.QuadPart) < m_size && (!SetFilePointerEx(file, wanted, nullptr, FILE_BEGIN) || !SetEndOfFile(file))) {
    std::fprintf(stderr, "neptune-server: cannot size %s (%lu)\n", path.c_str(), GetLastError());
    return false;
  }
  // Named, so that workers open it as they open a socket context's mapping.
  char name[64];
  std::snprintf(name, sizeof(name), "Local\\neptune-device-%lu", GetCurrentProcessId());
  HANDLE section = CreateFileMappingA(file, nullptr, PAGE_READWRITE, DWORD(m_size >> 32), DWORD(m_size), name);
  void* base = section ? MapViewOfFile(section, FILE_MAP_ALL_ACCESS, 0, 0, size_t(m_size)) : nullptr;
  const uint64_t table = DeviceChunks::table_bytes(m_size);
  HANDLE chunks = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, DWORD(table >> 32), DWORD(table), nullptr);
  void* owners = chunks ? MapViewOfFile(chunks, FILE_MAP_ALL_ACCESS, 0, 0, size_t(table)) : nullptr;
  m_section = section;
  m_chunk_section = chunks;
  if (!base || !owners) {
    std::fprintf(stderr, "neptune-server: cannot map %s (%lu)\n", path.c_str(), GetLastError());
    return false;
  }
  m_section_name = name;
  m_base = static_cast<uint8_t*>(base);
  m_chunk_owners = static_cast<uint8_t*>(owners);
  m_instance = (uint64_t(GetCurrentProcessId()) << 32) ^ now_ns();
  m_host_pid = uint32_t(GetCurrentProcessId());
  lay_out();
  m_workers.assign(device::kMaxSlots, Worker());
  HANDLE job = CreateJobObjectA(nullptr, nullptr);
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  if (job && SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof(limits)))
    m_job = job;
  else if (job)
    CloseHandle(job);
  return true;
}

int DeviceServer::run() {
  // Starting a worker (CreateProcess under Wine) can hold a tick for seconds: the heartbeat
  // guests judge the server by goes on regardless.
  std::thread([this] {
    for (;;) {
      Sleep(device::kHostSilenceMs / 6);
      beat();
    }
  }).detach();
  for (;;) {
    Sleep(device::kHostHeartbeatMs);
    tick();
  }
}

bool DeviceServer::launch_worker(const WorkerSpec& spec, uint32_t* pid_out, std::string* error) {
  Worker& w = m_workers[spec.slot];
  w = Worker();
  HANDLE supervision = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, 4096, nullptr);
  void* words = supervision ? MapViewOfFile(supervision, FILE_MAP_ALL_ACCESS, 0, 0, sizeof(WorkerSupervision)) : nullptr;
  HANDLE quit = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  // The worker's doorbell and wake-request events go unused (the guest polls and is polled).
  HANDLE doorbell = CreateEventA(nullptr, FALSE, FALSE, nullptr);
  HANDLE wake_request = CreateEventA(nullptr, FALSE, FALSE, nullptr);
  HANDLE parent = nullptr;
  DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(), &parent, SYNCHRONIZE, FALSE, 0);
  auto close_all = [&] {
    if (words)
      UnmapViewOfFile(words);
    for (HANDLE h : { supervision, quit, doorbell, wake_request, parent })
      if (h)
        CloseHandle(h);
  };
  if (!words || !quit || !doorbell || !wake_request || !parent) {
    close_all();
    *error = "cannot create the worker's supervision objects";
    return false;
  }
  WorkerLaunch launch;
  launch.context_id = spec.slot;
  launch.mapping_name = m_section_name;
  launch.size = spec.context_size;
  launch.geometry = spec.geometry;
  launch.limits = m_config.limits;
  launch.dispatch = m_config.dispatch;
  launch.spin_us = m_config.spin_us;
  launch.supervision = supervision;
  launch.doorbell = doorbell;
  launch.quit = quit;
  launch.wake_request = wake_request;
  launch.parent = parent;
  launch.device = true;
  launch.device_slot = spec.slot;
  launch.device_offset = spec.context_offset;
  launch.device_size = m_size;
  launch.device_data_offset = device::data_offset(slot_count_for(m_config));
  launch.chunks = m_chunk_section;
  std::string command = launch.command_line(m_exe);

  STARTUPINFOA si = {};
  si.cb = sizeof(si);
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION pi = {};
  HANDLE inherited[] = { supervision, doorbell, quit, wake_request, parent, HANDLE(m_chunk_section) };
  for (HANDLE h : inherited)
    set_inheritable(h, true);
  BOOL created = FALSE;
  for (int attempt = 0; attempt < 3 && !created; attempt++) {
    created = CreateProcessA(nullptr, command.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi);
    if (!created)
      Sleep(50);
  }
  for (HANDLE h : inherited)
    set_inheritable(h, false);
  CloseHandle(parent);
  CloseHandle(doorbell);
  CloseHandle(wake_request);
  if (!created) {
    char text[64];
    std::snprintf(text, sizeof(text), "CreateProcess failed (%lu)", GetLastError());
    *error = text;
    UnmapViewOfFile(words);
    CloseHandle(supervision);
    CloseHandle(quit);
    return false;
  }
  if (m_job)
    AssignProcessToJobObject(HANDLE(m_job), pi.hProcess);
  CloseHandle(pi.hThread);
  w.running = true;
  w.pid = pi.dwProcessId;
  w.process = pi.hProcess;
  w.quit = quit;
  w.supervision_mapping = supervision;
  w.words = static_cast<DeviceWorkerWords*>(words);
  *pid_out = pi.dwProcessId;
  return true;
}

void DeviceServer::request_quit(uint32_t slot) {
  if (m_workers[slot].quit)
    SetEvent(HANDLE(m_workers[slot].quit));
}

void DeviceServer::terminate_worker(uint32_t slot) {
  if (m_workers[slot].process)
    TerminateProcess(HANDLE(m_workers[slot].process), 1);
}

bool DeviceServer::worker_ended(uint32_t slot, bool* clean) {
  Worker& w = m_workers[slot];
  if (w.process && WaitForSingleObject(HANDLE(w.process), 0) == WAIT_TIMEOUT)
    return false;
  DWORD code = 1;
  if (w.process)
    GetExitCodeProcess(HANDLE(w.process), &code);
  *clean = code == 0;
  if (w.process && code != 0)
    reclaim_sharing_of_dead_workers("device slot", slot);
  release_worker(w);
  return true;
}

DeviceWorkerWords* DeviceServer::worker_words(uint32_t slot) { return m_workers[slot].words; }

void DeviceServer::release_worker(Worker& w) {
  if (w.words)
    UnmapViewOfFile(w.words);
  for (void* h : { w.process, w.quit, w.supervision_mapping })
    if (h)
      CloseHandle(HANDLE(h));
  w = Worker();
}

}
