// SPDX-License-Identifier: MIT
#pragma once

// Triton's log: one line per event on stderr, "triton: <level>: <text>". The level
// comes from TRITON_LOG (error, warn, info, debug; default warn). A driver has no
// console of its own, but under Wine and in the harness stderr is where people look.

#include <cstdarg>

namespace triton::driver {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

bool logEnabled(LogLevel level);
void logMessage(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace triton::driver

#define TRITON_LOG(level, ...)                                            \
  do {                                                                    \
    if (::triton::driver::logEnabled(::triton::driver::LogLevel::level))  \
      ::triton::driver::logMessage(::triton::driver::LogLevel::level, __VA_ARGS__); \
  } while (0)
