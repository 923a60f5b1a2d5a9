// SPDX-License-Identifier: MIT
#pragma once

#include <cstdarg>

// Leveled logging of the guest runtime, configured by NPT_LOG (design.md decision 8):
//   NPT_LOG=none|error|warn|info|debug|trace   (default warn)
//   NPT_LOG_FILE=<path>                         (default: stderr)
// Lines look like "neptune-guest: warn: <message>". Logging never fails a call.
namespace npt::guest {

enum class LogLevel : int { None = 0, Error = 1, Warn = 2, Info = 3, Debug = 4, Trace = 5 };

LogLevel logLevel();
bool logEnabled(LogLevel level);
void logMessage(LogLevel level, const char* format, ...)
#if defined(__GNUC__)
  __attribute__((format(gnu_printf, 2, 3)))
#endif
  ;

}

#define NPT_LOG_AT(level, ...) \
  do { if (::npt::guest::logEnabled(level)) ::npt::guest::logMessage(level, __VA_ARGS__); } while (0)
#define NPT_ERROR(...) NPT_LOG_AT(::npt::guest::LogLevel::Error, __VA_ARGS__)
#define NPT_WARN(...)  NPT_LOG_AT(::npt::guest::LogLevel::Warn, __VA_ARGS__)
#define NPT_INFO(...)  NPT_LOG_AT(::npt::guest::LogLevel::Info, __VA_ARGS__)
#define NPT_DEBUG(...) NPT_LOG_AT(::npt::guest::LogLevel::Debug, __VA_ARGS__)
#define NPT_TRACE(...) NPT_LOG_AT(::npt::guest::LogLevel::Trace, __VA_ARGS__)
