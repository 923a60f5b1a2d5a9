// SPDX-License-Identifier: MIT
#pragma once

// Which process holds a registry reference, told apart from a later process that was
// given the same id: the id and the process's start time. The registry reclaims the
// references of holders that no longer run (a worker killed without running any clean-up).
#include <cstdint>

namespace npt::sharing {

struct ProcessIdentity {
  uint32_t pid = 0;       // 0: nobody
  uint64_t started = 0;   // native: /proc/<pid>/stat start time (ticks); Windows: creation FILETIME
  bool operator==(const ProcessIdentity& other) const { return pid == other.pid && started == other.started; }
};

// This process (computed once).
ProcessIdentity currentProcess();

// True while the process named by `identity` runs. A pid that now belongs to another
// process (another start time) is not alive. Any pid is accepted (values read from the
// registry may be garbage): the answer is then just false or true, never a crash.
bool processAlive(const ProcessIdentity& identity);

}  // namespace npt::sharing
