#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-process fence latency, a baseline against the default, in one run:
bench-fence.exe against a neptune-server.exe started with the baseline's setting and one
with the default, rounds alternating; medians of the per-run medians and their ratio
(baseline / default: above 1 means the default is faster). Prints the load average,
because the machine is shared.

--compare wake (default): NPT_FENCE_WAKE=poll (workers holding shared fences poll every
  200 us, GPU Waits and keyed-mutex acquires yield and sleep 50 us) against the sharing
  registry's sync epoch (waiters sleep on a futex until a signal wakes them).
--compare publish: NPT_SHARED_PUBLISH=always (a shared resource's creator copies it into
  its section at every Signal/Flush, written or not; its openers copy it in whenever that
  moved) against write tracking (only what a context wrote is copied); run it with
  --layers 2 or more, where the producer writes one of its shared textures per frame. Also
  prints the CPU copies per frame the contexts logged.

Usage (inside a Wine environment, e.g. after `source scripts/lib/wine-env.sh;
npt_wine_start build/win`):
  fence_run.py --win-build build/win [--frames 200] [--rounds 3] [--sizes 256x256,1920x1080]
               [--compare wake|publish] [--layers L]
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
import compare_runs  # noqa: E402  (Server)

FIGURES = {
    "fence": re.compile(r"^signal -> CPU wait returns: median ([0-9.]+) us, p99 ([0-9.]+) us"),
    "frame": re.compile(r"^frame start -> compositor has the pixel: median ([0-9.]+) us, p99 ([0-9.]+) us"),
    "waits": re.compile(r"^satisfied waits: GetCompletedValue ([0-9.]+) ns, SetEventOnCompletion ([0-9.]+) us, "
                        r"Wait ([0-9.]+) us"),
}
STALE = re.compile(r"^fence \d+x\d+: (\d+) frames, producer exit (\d+), (\d+) stale")
# A context's closing line (host/executor/src/sharing.cpp).
COPIES = re.compile(r"sharing: (\d+) publishes \((\d+) bytes\), (\d+) refreshes \((\d+) bytes\)")
COMPARISONS = {
    # name: (variable, baseline value, default value)
    "wake": ("NPT_FENCE_WAKE", "poll", "wake"),
    "publish": ("NPT_SHARED_PUBLISH", "always", "written"),
}


def run_once(wrapper, server_exe, bench_exe, size, frames, layers, variable, mode, work):
    os.makedirs(work, exist_ok=True)
    saved = dict(os.environ)
    os.environ[variable] = mode
    try:
        server = compare_runs.Server(wrapper, server_exe, work)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    env = dict(os.environ, WINEDEBUG="-all", WINEDLLOVERRIDES="d3d11,dxgi=n,b", NPT_SERVER=server.address())
    try:
        result = subprocess.run(wrapper + [bench_exe, "--size", size, "--frames", str(frames), "--layers", str(layers)],
                                env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1200)
        # The two contexts (producer, compositor) log their copies when their workers end,
        # a little after the programs exit.
        deadline = time.monotonic() + 20
        while len(COPIES.findall(server.output())) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.stop()
    figures = {}
    for line in result.stdout.splitlines():
        for name, pattern in FIGURES.items():
            match = pattern.match(line)
            if match:
                figures[name] = [float(g) for g in match.groups()]
        match = STALE.match(line)
        if match:
            figures["stale"] = int(match.group(3))
    copies = [0, 0]
    for match in COPIES.finditer(server.output()):
        copies[0] += int(match.group(1)) + int(match.group(3))
        copies[1] += int(match.group(2)) + int(match.group(4))
    figures["copies"] = copies
    if result.returncode != 0 or len(figures) != len(FIGURES) + 2:
        raise RuntimeError("bench-fence (%s) exited %d:\n%s\n%s\n--- server ---\n%s" %
                           (mode, result.returncode, result.stdout[-2000:], result.stderr[-2000:], server.output()[-2000:]))
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--win-build", default="build/win")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="256x256,1920x1080")
    parser.add_argument("--compare", choices=sorted(COMPARISONS), default="wake")
    parser.add_argument("--layers", type=int, default=1)
    options = parser.parse_args()
    variable, baseline, default = COMPARISONS[options.compare]
    modes = (baseline, default)
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    server_exe = os.path.join(options.win_build, "host", "server", "neptune-server.exe")
    print("load average before: %.2f %.2f %.2f (%d CPUs)" % (os.getloadavg() + (os.cpu_count(),)))
    work = tempfile.mkdtemp(prefix="npt-fence-bench-")
    # The program with our d3d11.dll/dxgi.dll beside it.
    bench_exe = compare_runs.program_for_b(os.path.join(options.win_build, "bench", "present", "bench-fence.exe"),
                                           os.path.join(options.win_build, "guest"), work)
    for size in options.sizes.split(","):
        runs = {mode: [] for mode in modes}
        for round_index in range(options.rounds):
            for mode in modes:
                figures = run_once(wrapper, server_exe, bench_exe, size, options.frames, options.layers, variable, mode,
                                   os.path.join(work, "%s-%s-%d" % (size, mode, round_index)))
                runs[mode].append(figures)
                print("  %s %s=%s round %d: fence median %.0f us p99 %.0f us, frame median %.0f us, Wait %.1f us, "
                      "%d stale, %.2f CPU copies (%.1f MB) per frame" %
                      (size, variable, mode, round_index + 1, figures["fence"][0], figures["fence"][1],
                       figures["frame"][0], figures["waits"][2], figures["stale"],
                       figures["copies"][0] / options.frames, figures["copies"][1] / options.frames / 1e6),
                      flush=True)

        def median(mode, name, index):
            return statistics.median(run[name][index] for run in runs[mode])

        print("fence %s, %d layers, %d frames x %d rounds (medians of the runs' medians; ratio = %s / %s):" %
              (size, options.layers, options.frames, options.rounds, baseline, default))
        for label, name, index, unit in (("signal -> other process's CPU wait returns, median", "fence", 0, "us"),
                                         ("signal -> other process's CPU wait returns, p99", "fence", 1, "us"),
                                         ("frame start -> compositor has the pixel, median", "frame", 0, "us"),
                                         ("satisfied GPU Wait", "waits", 2, "us")):
            slow, fast = median(baseline, name, index), median(default, name, index)
            print("  %-52s %s %9.1f %s   %s %9.1f %s   ratio %.2fx" % (label, baseline, slow, unit, default, fast, unit,
                                                                     slow / fast if fast else float("nan")))
        slow, fast = (statistics.median(run["copies"][0] for run in runs[mode]) / options.frames for mode in modes)
        print("  %-52s %s %9.2f      %s %9.2f      ratio %.2fx" % ("CPU copies per frame (all contexts)", baseline, slow,
                                                                   default, fast, slow / fast if fast else float("nan")))
    print("load average after:  %.2f %.2f %.2f" % os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
