// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

// Spinning and blocking on words in shared memory. On Linux a futex works across
// processes on a shared mapping. A PE guest under Wine cannot reach the host's futexes
// (Wine's WaitOnAddress is process-local), so it blocks on its socket instead; see
// README.md.
namespace npt::transport {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// How long a host that has caught up with its guest pauses between two reads of the ring
// heads. Each read pulls the head's cache line away from the producer, whose next publish
// then waits for it. bench/transport on a quiet 16-core Xeon VM (2026-11-30): with 4
// pauses the frame mix ran at 4.2-8.5 M commands/s in 15 of 16 runs (median 5.5), with 16
// at 6.4-18.9 M/s (median 8.0, 7 runs), while a spinning call's round trip went from
// 456-610 ns to 553-824 ns (1.5-2.3x a bare ping-pong); 64 pauses cost 1.3-1.6 us (3.5-5x).
constexpr int kHostPollPauses = 16;

uint64_t now_ns();

// True where address_wait/address_wake work across processes.
bool address_wait_is_cross_process();

// Blocks while *word == expected, at most timeout_us. Returns early on wake or change.
void address_wait(const uint32_t* word, uint32_t expected, uint32_t timeout_us);
void address_wake_all(uint32_t* word);

void sleep_us(uint32_t us);

}
