#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Present throughput through Neptune's host presenter (NPT_PRESENT=window): the GPU path
(the back buffer copied by the GPU into the window's swapchain, zero CPU copies) against
the CPU-copy path (NPT_PRESENT_COPY=cpu: read back, upload), at 1920x1080 and 3840x2160,
as frames/s and a ratio from one run (rounds alternate; medians). Each configuration gets
its own neptune-server.exe, whose closing presenter line gives the copies per frame and
the CPU time of the process that presented (the context's worker). Prints the load average, because the machine is shared.

Usage (inside a Wine environment, see bench/present/run.sh):
  run.py --win-build build/win [--frames 120] [--rounds 3] [--sizes 1920x1080,3840x2160]
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples"))
import compare_runs  # noqa: E402  (Server, program_for_b)

FPS_LINE = re.compile(r"^present (\d+)x(\d+): (\d+) frames in ([0-9.]+) s: ([0-9.]+) frames/s, guest CPU ([0-9.]+) s")
SUMMARY_LINE = re.compile(r"present: (\d+) frames, (\d+) cpu copies, (\d+) gpu copies, (\d+) latency waits, "
                          r"process CPU ([0-9.]+) s")


def run_once(wrapper, exe, size, frames, server_env, work, tag):
    os.makedirs(work, exist_ok=True)
    saved = dict(os.environ)
    os.environ.update(server_env)
    try:
        server = compare_runs.Server(wrapper, SERVER_EXE, work)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    env = dict(os.environ, WINEDEBUG="-all", WINEDLLOVERRIDES="d3d11,dxgi=n,b", NPT_SERVER=server.address())
    log_path = os.path.join(work, "bench-%s.txt" % tag)
    try:
        with open(log_path, "w+") as log:
            rc = subprocess.run(wrapper + [exe, "--size", size, "--frames", str(frames)], env=env,
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, timeout=900).returncode
            log.seek(0)
            output = log.read()
        # The presenter's closing line comes when the server has noticed the guest is gone.
        deadline = time.monotonic() + 20
        while not SUMMARY_LINE.search(server.output()) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.stop()
    summary = SUMMARY_LINE.search(server.output())
    match = next((m for m in map(FPS_LINE.match, output.splitlines()) if m), None)
    if rc != 0 or not match:
        raise RuntimeError("bench-present exited %d:\n%s\n--- server ---\n%s" % (rc, output[-3000:], server.output()[-3000:]))
    copies = (int(summary.group(2)) / int(summary.group(1)), int(summary.group(3)) / int(summary.group(1))) \
        if summary else (float("nan"), float("nan"))
    server_cpu = float(summary.group(5)) if summary else float("nan")
    return float(match.group(5)), float(match.group(6)), server_cpu, copies


def main():
    global SERVER_EXE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--win-build", required=True)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="1920x1080,3840x2160")
    options = parser.parse_args()
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    SERVER_EXE = os.path.join(options.win_build, "host", "server", "neptune-server.exe")
    work = tempfile.mkdtemp(prefix="npt-bench-present-")
    exe = compare_runs.program_for_b(os.path.join(options.win_build, "bench", "present", "bench-present.exe"),
                                     os.path.join(options.win_build, "guest"), work)
    paths = {"gpu": {"NPT_PRESENT": "window"}, "cpu": {"NPT_PRESENT": "window", "NPT_PRESENT_COPY": "cpu"}}
    print("load average before: %.2f %.2f %.2f (%d CPUs)" % (os.getloadavg() + (os.cpu_count(),)))
    for size in options.sizes.split(","):
        results = {name: [] for name in paths}
        for round_index in range(options.rounds):
            for name, env in paths.items():
                results[name].append(run_once(wrapper, exe, size, options.frames, env,
                                              os.path.join(work, "%s-%s-%d" % (size, name, round_index)), name))
        medians = {name: statistics.median(r[0] for r in rows) for name, rows in results.items()}
        for name, rows in results.items():
            fps, guest_cpu, server_cpu, copies = rows[len(rows) // 2]
            print("%-9s %-3s path: %7.1f frames/s (median of %d; rounds %s), %.1f CPU copies and %.1f GPU copies per "
                  "frame, host CPU %.2f s, guest CPU %.2f s for %d frames"
                  % (size, name, medians[name], options.rounds, " ".join("%.1f" % r[0] for r in rows), copies[0],
                     copies[1], server_cpu, guest_cpu, options.frames))
        print("%-9s gpu/cpu throughput ratio %.2f" % (size, medians["gpu"] / medians["cpu"]))
    print("load average after:  %.2f %.2f %.2f" % os.getloadavg())
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:
        print("bench/present: %s" % error, file=sys.stderr)
        sys.exit(1)
