// SPDX-License-Identifier: MIT
// Process identities for the registry's holders (process.h).
#include "npt/sharing/process.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#endif

#include <atomic>
#include <string>

namespace npt::sharing {

namespace {

#if defined(_WIN32)

// The creation time of a process, or 0 if it cannot be opened or has ended.
uint64_t startTimeOf(uint32_t pid) {
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!process) return 0;
  uint64_t started = 0;
  DWORD code = 0;
  FILETIME creation{}, exit{}, kernel{}, user{};
  if (GetExitCodeProcess(process, &code) && code == STILL_ACTIVE && GetProcessTimes(process, &creation, &exit, &kernel, &user))
    started = (uint64_t(creation.dwHighDateTime) << 32) | creation.dwLowDateTime;
  CloseHandle(process);
  return started;
}

uint32_t currentPid() { return GetCurrentProcessId(); }

#else

// Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or 0 if the
// process does not exist. A zombie (killed, not yet reaped) counts as ended.
uint64_t startTimeOf(uint32_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  FILE* file = std::fopen(path.c_str(), "r");
  if (!file) return 0;
  char text[1024];
  const size_t length = std::fread(text, 1, sizeof(text) - 1, file);
  std::fclose(file);
  text[length] = 0;
  // The command name (field 2) may hold spaces and parentheses: fields restart after
  // the last ')'.
  const char* p = std::strrchr(text, ')');
  if (!p) return 0;
  p++;
  char state = 0;
  if (std::sscanf(p, " %c", &state) != 1 || state == 'Z' || state == 'X') return 0;
  // Field 3 is the state; field 22 is 19 fields further on.
  for (int field = 3; field < 22 && *p; field++) {
    while (*p == ' ') p++;
    while (*p && *p != ' ') p++;
  }
  char* end = nullptr;
  const unsigned long long started = std::strtoull(p, &end, 10);
  return end != p ? uint64_t(started) : 0;
}

uint32_t currentPid() { return uint32_t(getpid()); }

#endif

}  // namespace

ProcessIdentity currentProcess() {
  // Recomputed when the pid changes: a forked child (the Linux server's workers) is
  // another holder than its parent.
  static std::atomic<uint32_t> cachedPid{0};
  static std::atomic<uint64_t> cachedStarted{0};
  const uint32_t pid = currentPid();
  if (cachedPid.load(std::memory_order_acquire) != pid) {
    cachedStarted.store(startTimeOf(pid), std::memory_order_relaxed);
    cachedPid.store(pid, std::memory_order_release);
  }
  return ProcessIdentity{pid, cachedStarted.load(std::memory_order_relaxed)};
}

bool processAlive(const ProcessIdentity& identity) {
  if (!identity.pid) return false;
  if (identity == currentProcess()) return true;
  const uint64_t started = startTimeOf(identity.pid);
  return started != 0 && started == identity.started;
}

}  // namespace npt::sharing
