// SPDX-License-Identifier: MIT
#pragma once

// Time and medians of the gpu benches (frame_bench.cpp, share_bench.cpp).
#include <time.h>

#include <algorithm>
#include <vector>

namespace npt::bench::gpu {

// Milliseconds on `clock` (CLOCK_MONOTONIC for wall time, the CPU-time clocks for CPU).
inline double nowMs(clockid_t clock = CLOCK_MONOTONIC) {
  timespec ts;
  clock_gettime(clock, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n == 0 ? 0.0 : n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace npt::bench::gpu
