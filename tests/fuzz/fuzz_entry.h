// SPDX-License-Identifier: MIT
#pragma once

// libFuzzer glue: a broken invariant aborts, so libFuzzer saves the input as a crasher.

#include <cstdio>
#include <cstdlib>

#include "harness.h"

#define NPT_FUZZ_ENTRY(run)                                                      \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {     \
    npt::fuzz::Outcome outcome = run(data, size);                                \
    if (!outcome.broken.empty()) {                                               \
      std::fprintf(stderr, "npt-fuzz: invariant broken: %s\n",                   \
                   outcome.broken.c_str());                                      \
      std::abort();                                                              \
    }                                                                            \
    return 0;                                                                    \
  }
