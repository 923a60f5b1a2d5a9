// SPDX-License-Identifier: MIT
// What the isolation tests do to a worker process, the Windows way (under Wine these
// calls reach the wineserver like any Windows program's):
//
//   process_control terminate PID   TerminateProcess (a crash mid-frame)
//   process_control suspend PID     suspends every thread of PID (a hang: no progress)
//
// Exit status 0 when done, 1 otherwise.
#include <windows.h>
#include <tlhelp32.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: process_control terminate|suspend PID\n");
    return 2;
  }
  const DWORD pid = DWORD(std::strtoul(argv[2], nullptr, 0));
  if (!std::strcmp(argv[1], "terminate")) {
    HANDLE process = OpenProcess(PROCESS_TERMINATE | SYNCHRONIZE, FALSE, pid);
    if (!process || !TerminateProcess(process, 9)) {
      std::fprintf(stderr, "cannot terminate %lu: %lu\n", pid, GetLastError());
      return 1;
    }
    WaitForSingleObject(process, 5000);
    CloseHandle(process);
    return 0;
  }
  if (!std::strcmp(argv[1], "suspend")) {
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    THREADENTRY32 entry = {};
    entry.dwSize = sizeof(entry);
    int suspended = 0;
    for (BOOL more = Thread32First(snapshot, &entry); more; more = Thread32Next(snapshot, &entry)) {
      if (entry.th32OwnerProcessID != pid)
        continue;
      HANDLE thread = OpenThread(THREAD_SUSPEND_RESUME, FALSE, entry.th32ThreadID);
      if (thread && SuspendThread(thread) != DWORD(-1))
        suspended++;
      if (thread)
        CloseHandle(thread);
    }
    CloseHandle(snapshot);
    std::printf("suspended %d threads\n", suspended);
    return suspended ? 0 : 1;
  }
  std::fprintf(stderr, "unknown action %s\n", argv[1]);
  return 2;
}
