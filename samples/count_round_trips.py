#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counts the synchronous round trips each sample makes through Neptune per frame
(the target: none in steady state) and fails on any the sample did not ask for.

Every sample runs twice through our DLLs and the render server, with SHORT and LONG
frames and --readback-every 0 (the framework reads back the last frame only). The guest
runtime logs each device's statistics when the device is destroyed (NPT_LOG=info,
guest/README.md); the difference between the two runs' sync round trips, divided by
LONG - SHORT, is the per-frame figure. It must equal the readbacks the sample's own
frame code makes (a Map(READ) of data the GPU wrote: the answer exists only on the
host); every other call is fire-and-forget. The first run's total also shows device
creation's cost, which guest/tests checks against its own limit.

Usage: count_round_trips.py --dll-dir DIR --server EXE SAMPLE.exe...
"""
import argparse
import os
import re
import shlex
import sys
import tempfile

import compare_runs

DEVICE_STATS = re.compile(r"device \d+ destroyed: .* (\d+) sync round trips")

# The readbacks a sample's frame makes itself (samples/<name>/<name>.cpp): compute reads
# its indirect-argument buffer back, copy checks a texture and a buffer it copied.
OWN_READBACKS_PER_FRAME = {"compute": 1, "copy": 2}

SHORT, LONG = 2, 6


def sync_round_trips(wrapper, exe, frames, work, env):
    os.makedirs(work)
    args = ["--frames", str(frames), "--size", "128x128", "--readback-every", "0"]
    returncode, _, output = compare_runs.run_sample(wrapper, exe, args, work, env)
    if returncode != 0:
        raise RuntimeError("%s --frames %d exited %d:\n%s" % (exe, frames, returncode, output[-3000:]))
    counts = [int(m.group(1)) for m in map(DEVICE_STATS.search, output.splitlines()) if m]
    if not counts:
        raise RuntimeError("%s --frames %d logged no device statistics:\n%s" % (exe, frames, output[-3000:]))
    return sum(counts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dll-dir", required=True, help="where our d3d11.dll/dxgi.dll are")
    parser.add_argument("--server", required=True, help="neptune-server.exe")
    parser.add_argument("samples", nargs="+", help="sample executables")
    options = parser.parse_args()

    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    work = tempfile.mkdtemp(prefix="npt-round-trips-")
    server = compare_runs.Server(wrapper, options.server, work)
    env = {"WINEDLLOVERRIDES": "d3d11,dxgi=n,b", "NPT_SERVER": server.address(), "NPT_LOG": "info"}
    failures = []
    try:
        for exe in options.samples:
            name = os.path.basename(exe)[:-len(".exe")].replace("sample-", "")
            program = compare_runs.program_for_b(exe, options.dll_dir, os.path.join(work, name))
            short = sync_round_trips(wrapper, program, SHORT, os.path.join(work, name, "short"), env)
            long = sync_round_trips(wrapper, program, LONG, os.path.join(work, name, "long"), env)
            extra = long - short
            expected = (LONG - SHORT) * OWN_READBACKS_PER_FRAME.get(name, 0)
            verdict = "ok" if extra == expected else "FAIL"
            print("%-15s %d frames: %2d sync round trips, %d frames: %2d; per frame %.2f, the sample's own %d  %s"
                  % (name, SHORT, short, LONG, long, extra / (LONG - SHORT), expected // (LONG - SHORT), verdict))
            if extra != expected:
                failures.append(name)
    except RuntimeError as error:
        print("count_round_trips: %s" % error, file=sys.stderr)
        failures.append("(error)")
    finally:
        server.stop()
    if failures:
        print("synchronous round trips per frame beyond the samples' own readbacks: %s (work kept in %s)"
              % (", ".join(failures), work), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
