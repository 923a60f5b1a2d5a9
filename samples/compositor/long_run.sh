#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On demand (the sharing target): the compositor sample's multi-process version, through
# Neptune, for 10,000 consecutive frames, each byte-identical to the single-process
# reference run directly on Wine's d3d11 and each with the stamps of exactly its own frame
# (no torn, stale or out-of-order frame). Builds what it needs (both build directories, as
# scripts/test does; --no-build: uses $NPT_BUILD_DIR/win as it is, which must hold
# sample-compositor.exe, neptune-server.exe and the guest DLLs), owns its Wine environment.
# Usage: samples/compositor/long_run.sh [--frames N] [--size WxH] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/deps.sh
source scripts/lib/build.sh
source scripts/lib/wine-env.sh

frames=10000
size=64x32
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "usage: $0 [--frames N] [--size WxH] [--no-build]" >&2; exit 2 ;;
  esac
done

if [ "$build" = 1 ]; then
  npt_install_deps
  mkdir -p "$npt_build"
  npt_build_all >"$npt_build/build.log" 2>&1 || { tail -n 40 "$npt_build/build.log" >&2; exit 1; }
fi
for needed in samples/sample-compositor.exe host/server/neptune-server.exe guest/d3d11.dll guest/dxgi.dll; do
  [ -f "$npt_build_win/$needed" ] || { echo "long_run.sh: $npt_build_win/$needed is missing" >&2; exit 1; }
done
trap npt_wine_stop EXIT
npt_wine_start "$npt_build_win"
start=$(date +%s)
/usr/bin/python3 samples/compare_runs.py --check --frames "$frames" --size "$size" --timeout 7200 \
  --b-dll-dir "$npt_build_win/guest" --b-server "$npt_build_win/host/server/neptune-server.exe" \
  --b-arg=--processes "$npt_build_win/samples/sample-compositor.exe"
echo "compositor: $frames frames at $size compared in $(( $(date +%s) - start )) s"
