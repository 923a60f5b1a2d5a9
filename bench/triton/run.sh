#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Driver command lists vs the runtime's emulation of deferred contexts through Triton, as a
# ratio from one run (deferred_ratio.py). Builds what it needs (the Windows build only,
# -j2), owns its Wine environment.
# Usage: bench/triton/run.sh [--priority] [deferred_ratio.py options, e.g. --samples deferred_draws --frames 60]
#   --priority  (root) run in a session of its own whose autogroup has nice -20 (see
#               bench/samples/README.md: plain nice does nothing across sessions)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/windows-bench.sh
npt_bench_with_priority "$PWD/bench/triton/run.sh" "$@"

samples=$(npt_bench_samples deferred_draws,deferred "$@")
targets=(triton/runtime/d3d11.dll triton/runtime/triton_umd.dll triton/runtime/neptune_d3d11.dll
         guest/d3d11.dll guest/dxgi.dll host/server/neptune-server.exe)
for sample in ${samples//,/ }; do
  targets+=("samples/sample-$sample.exe")
done
npt_bench_prepare triton "${targets[@]}"
/usr/bin/python3 bench/triton/deferred_ratio.py --win-build "$npt_build_win" "$@"
