// SPDX-License-Identifier: MIT
#include "sharing_cleanup.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "npt/sharing/registry.h"

namespace npt::server {

void reclaim_sharing_of_dead_workers(const char* who, uint32_t id) {
  // Opened once, the first time a worker dies after some context created the registry;
  // kept for the server's life (the parent never takes references itself).
  static std::mutex mutex;
  static std::unique_ptr<sharing::Registry> registry;
  std::lock_guard<std::mutex> lock(mutex);
  if (!registry) {
    std::string error;
    registry = sharing::Registry::open(sharing::Registry::instanceFromEnvironment(), &error, false);
    if (!registry)
      return;   // no context shared anything yet (or the section is not ours: logged by the workers)
  }
  const sharing::Reclaimed taken = registry->reclaimDeadHolders();
  if (taken.references || taken.abandonedMutexes)
    std::fprintf(stderr,
                 "neptune-server: %s %u died: the sharing registry took back %u references of %u dead processes "
                 "(%u entries freed, %u keyed mutexes abandoned)\n",
                 who, id, taken.references, taken.deadProcesses, taken.freedEntries, taken.abandonedMutexes);
}

void hold_orphaned_sharing_content() {
  sharing::OrphanContentHolder::start(sharing::Registry::instanceFromEnvironment());
}

}
