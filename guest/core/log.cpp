// SPDX-License-Identifier: MIT
// mingw-w64's own printf (static, C99: %zu, %llu) rather than msvcrt's.
#define __USE_MINGW_ANSI_STDIO 1
#include "log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace npt::guest {

namespace {

struct LogConfig {
  LogLevel level = LogLevel::Warn;
  FILE* file = stderr;

  LogConfig() {
    if (const char* v = std::getenv("NPT_LOG")) {
      static const struct { const char* name; LogLevel level; } names[] = {
        { "none", LogLevel::None }, { "error", LogLevel::Error }, { "warn", LogLevel::Warn },
        { "info", LogLevel::Info }, { "debug", LogLevel::Debug }, { "trace", LogLevel::Trace },
      };
      for (const auto& n : names)
        if (std::strcmp(v, n.name) == 0)
          level = n.level;
    }
    if (const char* path = std::getenv("NPT_LOG_FILE")) {
      if (FILE* f = std::fopen(path, "a"))
        file = f;
    }
  }
};

LogConfig& config() {
  static LogConfig c;
  return c;
}

const char* levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warn:  return "warn";
    case LogLevel::Info:  return "info";
    case LogLevel::Debug: return "debug";
    case LogLevel::Trace: return "trace";
    default:              return "";
  }
}

}

LogLevel logLevel() { return config().level; }

bool logEnabled(LogLevel level) { return int(level) <= int(config().level) && level != LogLevel::None; }

void logMessage(LogLevel level, const char* format, ...) {
  static std::mutex mutex;
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(config().file, "neptune-guest: %s: %s\n", levelName(level), line);
  std::fflush(config().file);
}

}
