// SPDX-License-Identifier: MIT
#pragma once

// The transport geometry the Neptune guest runtime asks a server for (Runtime::
// defaultGeometry), in one place: Triton's kernel transport asks the kernel for the same
// context (triton/driver/src/kernel_transport.cpp), so that the guest runtime it hands the
// context to finds the rings it expects. Header only: Triton includes it without linking
// the guest runtime.

#include <cstdint>

#include "neptune/transport/layout.h"

namespace npt::guest {

// Rings for deferred contexts besides ring 0 (each ring is ring_size of shared memory).
inline constexpr uint32_t kDeferredRings = 4;

inline transport::Geometry defaultGeometry() {
  transport::Geometry g;
  // Ring 0 for the devices and immediate contexts, four for deferred contexts: threads
  // recording deferred contexts each write a ring of their own.
  g.ring_count = 1 + kDeferredRings;
  g.ring_size = 4u << 20;
  g.reply_slot_count = 8;
  g.reply_slot_size = 1u << 20;     // the largest reply the server allows: Map readbacks
  g.push_slot_count = 1024;
  g.fence_count = 64;
  g.bulk_size = 64ull << 20;
  return g;
}

}  // namespace npt::guest
