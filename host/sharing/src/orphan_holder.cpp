// SPDX-License-Identifier: MIT
// OrphanContentHolder (registry.h): the server process keeps the content of orphaned
// entries (kept by guest NT handles after their creator's context ended) alive.
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "npt/sharing/registry.h"

namespace npt::sharing {

namespace {

constexpr auto kSweepPeriod = std::chrono::milliseconds(20);
constexpr auto kRegistryRetry = std::chrono::milliseconds(200);

// One pass: the content of new orphans opened and marked held, that of freed entries closed.
void sweep(Registry& registry, std::map<uint64_t, Section>& held) {
  for (auto it = held.begin(); it != held.end();) {
    EntryInfo info;
    if (registry.lookup(it->first, info) != LookupError::Ok)
      it = held.erase(it);
    else
      ++it;
  }
  for (uint64_t handle : registry.orphans()) {
    if ((handle & 0xf) == uint64_t(Kind::Fence)) continue;   // a fence's value lives in the entry
    if (held.count(handle)) {
      registry.markServerHeld(handle);
      continue;
    }
    EntryInfo info;
    if (registry.lookup(handle, info) != LookupError::Ok) continue;
    // Sizes come from the entry (bounded by kMaxContentBytes in lookup); a section of
    // another size than its creator's does not open.
    Section content = Section::open(Registry::contentName(registry.instance(), handle),
                                    info.contentBytes ? info.contentBytes : 1);
    if (!content.valid()) continue;
    held.emplace(handle, std::move(content));
    registry.markServerHeld(handle);
  }
}

}  // namespace

void OrphanContentHolder::start(const std::string& instance) {
  static std::once_flag once;
  std::call_once(once, [instance] {
    std::thread([instance] {
      std::unique_ptr<Registry> registry;
      std::map<uint64_t, Section> held;
      for (;;) {
        if (!registry) {
          // Created by the first context that shares something.
          registry = Registry::open(instance, nullptr, false);
          if (!registry) {
            std::this_thread::sleep_for(kRegistryRetry);
            continue;
          }
          registry->registerOrphanHolder();
        }
        sweep(*registry, held);
        std::this_thread::sleep_for(kSweepPeriod);
      }
    }).detach();
  });
}

}  // namespace npt::sharing
