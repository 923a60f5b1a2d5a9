#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs on the device machine (one NVIDIA GPU, no display, no network), from the repository
# root, with build/devicebench/gpu carried (bench/gpu/stage.sh made it). Figures to stdout;
# logs under $OUT when the device tool sets it.
#   bench/gpu/device_run.sh [--tests] [--sizes 256x256,1920x1080,3840x2160|none] [--frames 30] [--rounds 5]
#                           [--share-sizes 1920x1080,3840x2160|none]
set -u
stage=$PWD/build/devicebench/gpu
sizes=256x256,1920x1080,3840x2160; share_sizes=1920x1080,3840x2160; frames=30; rounds=5; tests=0
while [ $# -gt 0 ]; do
  case $1 in
    --tests) tests=1 ;;
    --sizes) sizes=$2; shift ;;
    --share-sizes) share_sizes=$2; shift ;;
    --frames) frames=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    *) echo "unknown argument $1" >&2; exit 1 ;;
  esac
  shift
done
out=${OUT:-/tmp/gpu-bench-out}; mkdir -p "$out"
# glvnd and the Vulkan loader (Debian 12's), unpacked over the image as the device notes say.
for f in "$stage"/deb/*.deb; do dpkg -x "$f" /; done; ldconfig
export LD_LIBRARY_PATH=$stage/sdl          # the headless SDL2 stand-in DXVK and the host link
export NPT_DXVK_PATH=$stage/dxvk NPT_BACKEND=dxvk
export DXVK_LOG_LEVEL=${DXVK_LOG_LEVEL:-warn} DXVK_STATE_CACHE=0
if [ ! -e /usr/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "open files limit: $(ulimit -n)"
echo "cpu: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$out"
status=0
if [ $tests = 1 ]; then
  for t in host_backend_test host_real_backend_test host_executor_tests; do
    "$stage/bin/$t" --gtest_brief=1 >"$out/$t.log" 2>&1; rc=$?
    echo "$t: rc $rc; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')"
    grep -E '^\[  FAILED  \] [A-Za-z]' "$out/$t.log" | head -5
    [ $rc = 0 ] || status=1
  done
fi
[ "$sizes" = none ] && sizes=
[ "$share_sizes" = none ] && share_sizes=
for size in ${sizes//,/ }; do
  "$stage/bin/gpu-frame-bench" --size "$size" --frames "$frames" --rounds "$rounds" --server "$stage/bin/neptune-server" \
    2>"$out/frame-bench-$size.err" | tee "$out/frame-bench-$size.txt"
  rc=${PIPESTATUS[0]}
  [ $rc = 0 ] || { echo "gpu-frame-bench $size: rc $rc"; tail -5 "$out/frame-bench-$size.err"; status=1; }
done
for size in ${share_sizes//,/ }; do
  "$stage/bin/gpu-share-bench" --size "$size" --frames "$frames" --rounds "$rounds" \
    2>"$out/share-bench-$size.err" | tee "$out/share-bench-$size.txt"
  rc=${PIPESTATUS[0]}
  [ $rc = 0 ] || { echo "gpu-share-bench $size: rc $rc"; tail -5 "$out/share-bench-$size.err"; status=1; }
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
