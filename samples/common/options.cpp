// SPDX-License-Identifier: MIT
#include "options.h"

#include <cstdlib>
#include <cstring>

namespace npt::samples {

  namespace {

    bool parseUint(const char* text, uint32_t& value) {
      if (!text || !*text)
        return false;
      char* end = nullptr;
      unsigned long parsed = std::strtoul(text, &end, 10);
      if (*end != '\0' || parsed > 0xffffffffu)
        return false;
      value = uint32_t(parsed);
      return true;
    }

    bool parseSize(const char* text, uint32_t& w, uint32_t& h) {
      if (!text)
        return false;
      const char* x = std::strchr(text, 'x');
      if (!x)
        return false;
      std::string left(text, x - text);
      return parseUint(left.c_str(), w) && parseUint(x + 1, h);
    }

  }

  const char* usageText() {
    return "options:\n"
           "  --frames N      render N frames (default 3)\n"
           "  --size WxH      render target size (default 256x256)\n"
           "  --out DIR       write <sample>-<frame>.png into DIR\n"
           "  --raw           with --out, also write <sample>-<frame>.rgba (RGBA8 rows)\n"
           "  --shaders DIR   directory holding assembled .dxbc shaders\n"
           "  --check         verify each frame's content, exit 1 on mismatch\n"
           "  --quiet         print only the per-frame checksum lines\n"
           "  --readback-every N  read back every Nth frame (default 1); 0: the last frame only\n";
  }

  std::string parseOptions(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; i++) {
      std::string arg = argv[i];
      const char* next = i + 1 < argc ? argv[i + 1] : nullptr;

      if (arg == "--frames") {
        if (!parseUint(next, options.frames) || options.frames == 0)
          return "--frames needs a positive integer";
        i++;
      } else if (arg == "--size") {
        if (!parseSize(next, options.width, options.height)
         || options.width == 0 || options.height == 0
         || options.width > 16384 || options.height > 16384)
          return "--size needs WxH with 1 <= W,H <= 16384";
        i++;
      } else if (arg == "--out") {
        if (!next)
          return "--out needs a directory";
        options.outDir = next;
        i++;
      } else if (arg == "--shaders") {
        if (!next)
          return "--shaders needs a directory";
        options.shaderDir = next;
        i++;
      } else if (arg == "--readback-every") {
        if (!parseUint(next, options.readbackEvery))
          return "--readback-every needs an integer";
        i++;
      } else if (arg == "--raw") {
        options.raw = true;
      } else if (arg == "--check") {
        options.check = true;
      } else if (arg == "--quiet") {
        options.quiet = true;
      } else {
        return "unknown option: " + arg;
      }
    }
    if (options.raw && options.outDir.empty())
      return "--raw needs --out DIR";
    return std::string();
  }

}
