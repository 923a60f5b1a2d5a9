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

uint64_t now_ns();

// True where address_wait/address_wake work across processes.
bool address_wait_is_cross_process();

// Blocks while *word == expected, at most timeout_us. Returns early on wake or change.
void address_wait(const uint32_t* word, uint32_t expected, uint32_t timeout_us);
void address_wake_all(uint32_t* word);

void sleep_us(uint32_t us);

}
