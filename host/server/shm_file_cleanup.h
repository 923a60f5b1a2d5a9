// SPDX-License-Identifier: MIT
#pragma once

// The native server's /dev/shm files for PE guests: a context's own file
// (`/dev/shm/neptune-<server pid>-<context>`) and its bulk regions added after connect
// (`...-r<region>`). The worker removes them once the guest confirmed its mapping, and at
// its end; a worker killed before that (crash, watchdog, SIGKILL) or a whole server
// killed leaves them behind, and nothing else would ever remove them (tmpfs: memory).
#include <cstdint>
#include <string>

namespace npt::server {

// Removes a context's own file and every region file of it (`<context_path>-r<digits>`);
// for the parent once the context's worker has ended. Returns how many files went.
uint32_t remove_context_shm_files(const std::string& context_path);

// Removes the context and region files of servers that no longer run (the pid in the
// name names no process) unchanged for a minute; at a server's start, as sharing::Registry
// does for the sharing files of dead instances. A guest of a dead server that still maps one keeps its memory
// (unlink removes the name only). Returns how many files went.
uint32_t remove_shm_files_of_dead_servers();

}
