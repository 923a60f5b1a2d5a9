// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace npt::samples {

  // Command line shared by every sample. Parsing failures are reported as a
  // message instead of exiting so main() owns the exit code.
  struct Options {
    uint32_t    frames = 3;
    uint32_t    width = 256;
    uint32_t    height = 256;
    std::string outDir;      // PNGs are written only when set
    bool        raw = false; // with --out: also <sample>-NNNN.rgba, the exact read-back bytes
    std::string shaderDir;   // where assembled .dxbc files live; empty: next to the exe
    bool        check = false;
    bool        quiet = false;
    // Read back (and print) every Nth frame; 0 = the last frame only. Benchmarks use 0 so the
    // frame loop has no synchronous readback except the one that ends the timed run.
    uint32_t    readbackEvery = 1;
  };

  // Returns an empty string on success, otherwise a message for the user.
  std::string parseOptions(int argc, char** argv, Options& options);

  const char* usageText();

}
