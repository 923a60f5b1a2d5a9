#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Frame time directly vs through Neptune on the same backend (Wine's d3d11), as ratios from
# one run. Builds what it needs (the Windows build only, -j2), owns its Wine environment.
# Usage: bench/samples/run.sh [--priority] [frame_ratio.py options, e.g. --samples many_draws --frames 60]
#   --priority  (root) run in a session of its own whose autogroup has nice -20, so that
#               on a machine shared with compilers the benchmark gets the CPU share of a
#               quiet one (the kernel's autogroups make plain nice useless across sessions)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/windows-bench.sh
npt_bench_with_priority "$PWD/bench/samples/run.sh" "$@"

samples=$(npt_bench_samples many_draws,cube "$@")
targets=(guest/d3d11.dll guest/dxgi.dll host/server/neptune-server.exe)
for sample in ${samples//,/ }; do
  targets+=("samples/sample-$sample.exe")
done
npt_bench_prepare samples "${targets[@]}"
/usr/bin/python3 bench/samples/frame_ratio.py --win-build "$npt_build_win" \
  --dll-dir "$npt_build_win/guest" "$@"
