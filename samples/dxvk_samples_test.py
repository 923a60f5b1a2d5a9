#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The samples through the Linux host: each sample of the Windows build runs once directly on
Wine's d3d11 (wined3d) and once with our d3d11.dll/dxgi.dll against the native neptune-server
on DXVK-native (compare_runs.py --b-server-native). Where both runs end in llvmpipe (wined3d's
GL renderer and DXVK on lavapipe are both Mesa's llvmpipe rasterizer) the frames must be
byte-identical, and both runs must pass the sample's own pixel checks.

Usage: dxvk_samples_test.py COMPARE_RUNS NEPTUNE_SERVER [SAMPLE...]
Needs NPT_WIN_BUILD_DIR (the Windows build: samples and guest DLLs) and NPT_DXVK_PATH
(scripts/test sets both); without them it reports a skip (exit 77) and says why.
"""
import glob
import os
import subprocess
import sys

# Samples left out on DXVK-native, and why; the reason is printed on every run. Suite
# neptune-samples runs them through Neptune on wined3d.
DXVK_LIMITS = {
    "stream_output": "DXVK-native does not rasterize a geometry shader's stream that stream output also "
                     "captures (its log: 'CreateGeometryShaderWithStreamOutput: Rasterized stream not "
                     "supported'), so the sample's left half stays empty; and with the rasterized stream "
                     "turned off, the first frame's SO_STATISTICS query read 0 primitives in 6 of 35 runs "
                     "on lavapipe, with DXVK's graphics pipeline libraries on or off (not isolated between "
                     "DXVK, lavapipe and the host's query path)",
}


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    compare_runs, server = sys.argv[1], sys.argv[2]
    names = sys.argv[3:]
    win_build = os.environ.get("NPT_WIN_BUILD_DIR")
    if not win_build:
        print("SKIP NPT_WIN_BUILD_DIR is not set (scripts/test sets it): no Windows samples or guest DLLs")
        return 77
    if not os.environ.get("NPT_DXVK_PATH"):
        print("SKIP NPT_DXVK_PATH is not set (scripts/test sets it from scripts/setup-dxvk): no DXVK-native")
        return 77
    if names:
        exes = [os.path.join(win_build, "samples", "sample-%s.exe" % name) for name in names]
    else:
        exes = sorted(glob.glob(os.path.join(win_build, "samples", "sample-*.exe")))
    missing = [exe for exe in exes if not os.path.exists(exe)]
    if not exes or missing:
        print("FAIL no sample programs at %s" % (missing or os.path.join(win_build, "samples")))
        return 1
    env = dict(os.environ, NPT_BACKEND="dxvk")
    env.setdefault("DXVK_LOG_LEVEL", "warn")
    env.setdefault("DXVK_STATE_CACHE", "0")
    through_dxvk = [sys.executable, compare_runs, "--check", "--b-dll-dir", os.path.join(win_build, "guest"),
                    "--b-server", server, "--b-server-native"]
    command = through_dxvk + ["--frames", "3", "--size", "128x128"]
    for exe in exes:
        if sample_name(exe) in DXVK_LIMITS:
            print("NOTE %s is left out: %s" % (sample_name(exe), DXVK_LIMITS[sample_name(exe)]))
    status = subprocess.run(command + [exe for exe in exes if sample_name(exe) not in DXVK_LIMITS], env=env).returncode
    # The compositor in three processes: two producers' shared textures and fences through
    # three contexts of the native server, against the single-process direct run.
    compositor = [exe for exe in exes if sample_name(exe) == "compositor"]
    if compositor:
        returncode = subprocess.run(through_dxvk + ["--frames", "60", "--size", "64x32", "--b-arg=--processes"]
                                    + compositor, env=env).returncode
        status = status or returncode
    return status


def sample_name(exe):
    name = os.path.basename(exe)
    return name[len("sample-"):-len(".exe")] if name.startswith("sample-") and name.endswith(".exe") else name


if __name__ == "__main__":
    sys.exit(main())
