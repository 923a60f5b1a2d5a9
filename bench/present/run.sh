#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Present benchmarks (README.md): builds what they need, owns its Wine environment.
# Usage: bench/present/run.sh [run.py options, e.g. --frames 60 --rounds 3]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/deps.sh
source scripts/lib/build.sh
source scripts/lib/wine-env.sh

npt_install_deps
npt_build_all >"$npt_build/build.log" 2>&1 || { tail -n 40 "$npt_build/build.log" >&2; exit 1; }
trap npt_wine_stop EXIT
npt_wine_start "$npt_build_win"
/usr/bin/python3 bench/present/run.py --win-build "$npt_build_win" "$@"
