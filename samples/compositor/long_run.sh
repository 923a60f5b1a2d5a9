#!/usr/bin/env bash
# On demand (issue 10's target): the compositor sample's multi-process version, through
# Neptune, for 10,000 consecutive frames, each byte-identical to the single-process
# reference run directly on Wine's d3d11 and each with the stamps of exactly its own frame
# (no torn, stale or out-of-order frame). Builds what it needs, owns its Wine environment.
# Usage: samples/compositor/long_run.sh [--frames N] [--size WxH]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/deps.sh
source scripts/lib/build.sh
source scripts/lib/wine-env.sh

frames=10000
size=64x32
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    *) echo "usage: $0 [--frames N] [--size WxH]" >&2; exit 2 ;;
  esac
done

npt_install_deps
npt_build_all >"$npt_build/build.log" 2>&1 || { tail -n 40 "$npt_build/build.log" >&2; exit 1; }
trap npt_wine_stop EXIT
npt_wine_start "$npt_build_win"
start=$(date +%s)
/usr/bin/python3 samples/compare_runs.py --check --frames "$frames" --size "$size" --timeout 7200 \
  --b-dll-dir "$npt_build_win/guest" --b-server "$npt_build_win/host/server/neptune-server.exe" \
  --b-arg=--processes "$npt_build_win/samples/sample-compositor.exe"
echo "compositor: $frames frames at $size compared in $(( $(date +%s) - start )) s"
