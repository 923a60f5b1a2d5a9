// SPDX-License-Identifier: MIT
#include "log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace triton::driver {
namespace {

LogLevel configuredLevel() {
  const char* value = std::getenv("TRITON_LOG");
  if (!value)
    return LogLevel::Warn;
  if (!std::strcmp(value, "error")) return LogLevel::Error;
  if (!std::strcmp(value, "info")) return LogLevel::Info;
  if (!std::strcmp(value, "debug")) return LogLevel::Debug;
  return LogLevel::Warn;
}

const char* levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warn: return "warn";
    case LogLevel::Info: return "info";
    case LogLevel::Debug: return "debug";
  }
  return "?";
}

}  // namespace

bool logEnabled(LogLevel level) {
  static const LogLevel threshold = configuredLevel();
  return level <= threshold;
}

void logMessage(LogLevel level, const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  std::fprintf(stderr, "triton: %s: %s\n", levelName(level), text);
}

}  // namespace triton::driver
