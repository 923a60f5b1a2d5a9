#include "neptune/transport/wait.h"

#include <chrono>
#include <thread>

#if defined(__linux__)
#include <climits>
#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace npt::transport {

uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
    std::chrono::steady_clock::now().time_since_epoch()).count());
}

#if defined(__linux__)

bool address_wait_is_cross_process() { return true; }

void address_wait(const uint32_t* word, uint32_t expected, uint32_t timeout_us) {
  timespec ts;
  ts.tv_sec = timeout_us / 1000000;
  ts.tv_nsec = long(timeout_us % 1000000) * 1000;
  // Not FUTEX_PRIVATE: the word lives in memory shared with another process.
  syscall(SYS_futex, word, FUTEX_WAIT, expected, &ts, nullptr, 0);
}

void address_wake_all(uint32_t* word) {
  syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

#else

bool address_wait_is_cross_process() { return false; }

void address_wait(const uint32_t* word, uint32_t expected, uint32_t timeout_us) {
  // No cross-process address wait: callers that need prompt wakeups use the socket.
  (void)word; (void)expected;
  sleep_us(timeout_us < 1000 ? timeout_us : 1000);
}

void address_wake_all(uint32_t* word) { (void)word; }

#endif

void sleep_us(uint32_t us) {
  std::this_thread::sleep_for(std::chrono::microseconds(us));
}

}
