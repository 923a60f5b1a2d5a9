#!/bin/bash
# On demand: runs samples directly on Wine's d3d11 and through Neptune (the guest's
# d3d11.dll/dxgi.dll -> neptune-server.exe in executor mode -> wined3d) and compares
# every frame byte for byte.
# Usage: host/server/tests/samples_through_neptune.sh WIN_BUILD_DIR SAMPLE...
#   (build first: ninja -C WIN_BUILD_DIR guest/d3d11.dll guest/dxgi.dll host/server/neptune-server.exe samples/sample-NAME.exe)
set -u
build=$(cd "$1" && pwd); shift
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d /tmp/npt-samples-XXXXXX)
source "$root/scripts/lib/wine-env.sh"
npt_wine_start "$build"
cp "$build/guest/d3d11.dll" "$build/guest/dxgi.dll" "$work/"
wine "$build/host/server/neptune-server.exe" --socket "Z:${work//\//\\}\\npt.sock" </dev/null >"$work/server.log" 2>&1 &
server=$!
for i in $(seq 1 100); do [ -f "$work/npt.sock.tcp" ] && break; sleep 0.1; done
failed=0
for sample in "$@"; do
  cp "$build/samples/sample-$sample.exe" "$work/"
  mkdir -p "$work/$sample-direct" "$work/$sample-neptune"
  (cd "$build/samples" && timeout 300 wine "sample-$sample.exe" --frames 2 --raw --quiet \
     --out "Z:${work//\//\\}\\$sample-direct" </dev/null >"$work/$sample-direct.log" 2>&1)
  (cd "$work" && NPT_SERVER="$work/npt.sock" WINEDLLOVERRIDES="d3d11,dxgi=n,b" timeout 300 wine "sample-$sample.exe" \
     --frames 2 --raw --quiet --out "Z:${work//\//\\}\\$sample-neptune" </dev/null >"$work/$sample-neptune.log" 2>&1)
  result=identical
  frames=$(ls "$work/$sample-direct"/*.rgba 2>/dev/null | wc -l)
  [ "$frames" -eq 0 ] && result="no direct frames"
  for f in "$work/$sample-direct"/*.rgba; do
    [ -f "$f" ] || continue
    cmp -s "$f" "$work/$sample-neptune/$(basename "$f")" || result=DIFFERENT
  done
  [ "$result" = identical ] || failed=1
  echo "$sample: $result ($frames frames; neptune: $(tail -1 "$work/$sample-neptune.log"))"
done
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null
npt_wine_stop
echo "frames and logs: $work"
exit $failed
