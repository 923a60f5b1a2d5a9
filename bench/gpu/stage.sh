#!/bin/sh
# SPDX-License-Identifier: MIT
# Stages what a GPU run on the device machine needs into build/devicebench/gpu (ignored by
# git; the device tool's `carry`): the native bench, neptune-server and the host tests, DXVK-native's two
# libraries, the headless SDL2 stand-in and the GL/Vulkan loader packages NVIDIA's Vulkan
# driver needs there (its ICD, libGLX_nvidia.so.0, loads only with glvnd's libGLdispatch).
# Run here, then on the device machine: bench/gpu/device_run.sh (README.md).
#   bench/gpu/stage.sh [BUILD_DIR (build/dxvk-native)] [DXVK_LIB_DIR (scripts/setup-dxvk's build)]
set -eu
build=${1:-build/dxvk-native}
dxvk=${2:-$(scripts/setup-dxvk)}
stage=build/devicebench/gpu
[ -d "$build" ] || meson setup "$build" >/dev/null
nice -n 5 ninja -j2 -C "$build" bench/gpu/gpu-frame-bench bench/gpu/gpu-share-bench host/backends/tests/host_backend_test \
  host/backends/tests/host_real_backend_test host/executor/tests/host_executor_tests host/server/neptune-server
rm -rf "$stage/bin" "$stage/dxvk" "$stage/sdl"
mkdir -p "$stage/bin" "$stage/dxvk" "$stage/sdl" "$stage/deb"
cp "$build/bench/gpu/gpu-frame-bench" "$build/bench/gpu/gpu-share-bench" "$build/host/server/neptune-server" "$build/host/backends/tests/host_backend_test" \
   "$build/host/backends/tests/host_real_backend_test" "$build/host/executor/tests/host_executor_tests" "$stage/bin/"
strip --strip-debug "$stage"/bin/*
cp "$dxvk/libdxvk_d3d11.so" "$dxvk/libdxvk_dxgi.so" "$stage/dxvk/"
gcc -O2 -shared -fPIC -Wl,-soname,libSDL2-2.0.so.0 bench/gpu/sdl_headless.c -o "$stage/sdl/libSDL2-2.0.so.0"
if ! ls "$stage"/deb/libglvnd0_*.deb >/dev/null 2>&1; then
  # amd64 packages whatever this machine is (the device machine is x86-64), lists kept apart.
  lists=/tmp/npt-devicebench-apt; mkdir -p "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update >/dev/null
  (cd "$stage/deb" && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
fi
du -sh "$stage"
