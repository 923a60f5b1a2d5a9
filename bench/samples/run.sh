#!/usr/bin/env bash
# Frame time directly vs through Neptune on the same backend (Wine's d3d11), as ratios from
# one run. Builds what it needs, owns its Wine environment.
# Usage: bench/samples/run.sh [frame_ratio.py options, e.g. --samples many_draws --frames 60]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/deps.sh
source scripts/lib/build.sh
source scripts/lib/wine-env.sh

npt_install_deps
npt_build_all >"$npt_build/build.log" 2>&1 || { tail -n 40 "$npt_build/build.log" >&2; exit 1; }
trap npt_wine_stop EXIT
npt_wine_start "$npt_build_win"
/usr/bin/python3 bench/samples/frame_ratio.py --win-build "$npt_build_win" \
  --dll-dir "$npt_build_win/guest" "$@"
