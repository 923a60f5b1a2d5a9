// SPDX-License-Identifier: MIT
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

#if defined(_WIN32)
#include <cstring>
#include <windows.h>
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

#elif defined(_WIN32) && defined(__x86_64__)

// A PE process under Wine on Linux is a Linux process: the futex system call works from
// it on memory shared with the native server, at native cost (a Wine socket or event
// round trip costs hundreds of microseconds; see README.md). Used only when Wine reports
// a Linux host; NPT_TRANSPORT_NO_RAW_FUTEX=1 forces the socket fallback.
namespace {

struct LinuxTimespec { int64_t sec; int64_t nsec; };

int64_t raw_futex(const uint32_t* word, int64_t op, uint32_t value, const LinuxTimespec* timeout) {
  int64_t ret;
  register int64_t r10 asm("r10") = int64_t(intptr_t(timeout));
  register int64_t r8 asm("r8") = 0;
  register int64_t r9 asm("r9") = 0;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(int64_t(202)), "D"(word), "S"(op), "d"(int64_t(value)), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
}

bool detect_wine_on_linux() {
  char env[8] = {};
  if (GetEnvironmentVariableA("NPT_TRANSPORT_NO_RAW_FUTEX", env, sizeof(env)) && env[0] == '1')
    return false;
  HMODULE ntdll = GetModuleHandleA("ntdll.dll");
  if (!ntdll)
    return false;
  using HostVersion = void (*)(const char** sysname, const char** release);
  auto host_version = reinterpret_cast<HostVersion>(reinterpret_cast<void*>(GetProcAddress(ntdll, "wine_get_host_version")));
  if (!host_version)
    return false;
  const char* sysname = nullptr;
  const char* release = nullptr;
  host_version(&sysname, &release);
  return sysname && !std::strcmp(sysname, "Linux");
}

bool wine_on_linux() {
  static const bool value = detect_wine_on_linux();
  return value;
}

}

bool address_wait_is_cross_process() { return wine_on_linux(); }

void address_wait(const uint32_t* word, uint32_t expected, uint32_t timeout_us) {
  if (!wine_on_linux()) {
    sleep_us(timeout_us < 1000 ? timeout_us : 1000);
    return;
  }
  LinuxTimespec ts = { int64_t(timeout_us / 1000000), int64_t(timeout_us % 1000000) * 1000 };
  raw_futex(word, 0 /* FUTEX_WAIT */, expected, &ts);
}

void address_wake_all(uint32_t* word) {
  if (wine_on_linux())
    raw_futex(word, 1 /* FUTEX_WAKE */, 0x7fffffff, nullptr);
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
