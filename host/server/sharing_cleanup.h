// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

// A worker that dies without running its clean-up (killed, crashed, terminated by the
// watchdog) leaves its references in the cross-context sharing registry (host/sharing):
// entries only it held, keyed mutexes it owned. The server takes them back as soon as it
// sees such a worker end, so the bounded table does not fill with the dead's entries
// while the other contexts run on.
namespace npt::server {

// Reclaims every registry reference of processes that no longer run (the registry of
// this server instance; nothing happens if no context ever shared anything). Logs what
// it took back, naming the dead worker (`who` and `id`: "context" 3, "worker pid" 4711).
void reclaim_sharing_of_dead_workers(const char* who, uint32_t id);

// Starts the thread that holds orphaned entries' content sections open in this process
// (sharing::OrphanContentHolder; the Windows server: a section lives while a process has
// it open, and an orphan's creator worker is gone).
void hold_orphaned_sharing_content();

}
