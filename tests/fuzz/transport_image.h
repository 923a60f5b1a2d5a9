// SPDX-License-Identifier: MIT
#pragma once

// The fuzz input format of the transport target, shared by the harness and the seed
// generator:
//
//   [0]      geometry selector (geometryFor)
//   [1]      flags: bits 0..2 rounds - 1, bits 3..5 budget selector, bit 6 re-entrant
//            dispatch, bit 7 shared memory rewritten during dispatch
//   [2..3]   image length L (little endian)
//   [4..4+L) bytes copied over the shared memory from the first ring header on
//   rest     guest writes applied between and during host polls: u16 offset, u32 value

#include <cstdint>

#include "neptune/transport/layout.h"

namespace npt::fuzz {

inline npt::transport::Geometry geometryFor(uint8_t selector) {
  // Ring sizes the host's geometry check accepts (npt_host_check_geometry: >= 4096).
  static const uint32_t ringSizes[] = {4096, 8192, 4096, 4096};
  npt::transport::Geometry g;
  g.ring_count = 1 + (selector & 3);
  g.ring_size = ringSizes[(selector >> 2) & 3];
  g.reply_slot_count = 1 + ((selector >> 4) & 3);
  g.reply_slot_size = (selector & 0x40) ? 256 : 64;
  g.push_slot_count = 4;
  g.fence_count = 4;
  g.bulk_size = (selector & 0x80) ? 8192 : 4096;
  return g;
}

constexpr uint8_t kFlagReentrant = 0x40;
constexpr uint8_t kFlagMutateInDispatch = 0x80;
constexpr size_t kTransportPrefix = 4;
constexpr uint32_t kRegion1Size = 512;
constexpr uint32_t kRegion2Size = 64;

// Dispatcher commands (first word of a command span; the protocol is not involved).
constexpr uint32_t kRejectMarker = 0xEE;   // top byte: the dispatcher rejects the command

}  // namespace npt::fuzz
