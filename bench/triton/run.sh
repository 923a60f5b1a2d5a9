#!/usr/bin/env bash
# Driver command lists vs the runtime's emulation of deferred contexts through Triton, as a
# ratio from one run (deferred_ratio.py). Builds what it needs (the Windows build only,
# -j2), owns its Wine environment.
# Usage: bench/triton/run.sh [--priority] [deferred_ratio.py options, e.g. --samples deferred_draws --frames 60]
#   --priority  (root) run in a session of its own whose autogroup has nice -20 (see
#               bench/samples/README.md: plain nice does nothing across sessions)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--priority" ]; then
  shift
  exec setsid bash -c 'echo -20 > /proc/$$/autogroup && exec nice -n -20 "$0" "$@"' "$PWD/bench/triton/run.sh" "$@"
fi
source scripts/lib/deps.sh
source scripts/lib/build.sh
source scripts/lib/wine-env.sh

samples=deferred_draws,deferred
previous=
for arg in "$@"; do
  case "$arg" in
    --samples=*) samples=${arg#--samples=} ;;
  esac
  [ "$previous" = "--samples" ] && samples=$arg
  previous=$arg
done
targets=(triton/runtime/d3d11.dll triton/runtime/triton_umd.dll triton/runtime/neptune_d3d11.dll
         guest/d3d11.dll guest/dxgi.dll host/server/neptune-server.exe)
for sample in ${samples//,/ }; do
  targets+=("samples/sample-$sample.exe")
done

npt_install_deps
mkdir -p "$npt_build"
npt_configure "$npt_build_win" --cross-file "$npt_root/cross/x86_64-w64-mingw32.txt"
ninja -j2 -C "$npt_build_win" "${targets[@]}" >"$npt_build/bench-triton-build.log" 2>&1 ||
  { tail -n 40 "$npt_build/bench-triton-build.log" >&2; exit 1; }
trap npt_wine_stop EXIT
npt_wine_start "$npt_build_win"
/usr/bin/python3 bench/triton/deferred_ratio.py --win-build "$npt_build_win" "$@"
