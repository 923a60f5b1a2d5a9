#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Driver command lists versus the runtime's emulation of deferred contexts, through
Triton, as a ratio measured in one run (the target: multi-threaded recording
faster than the emulated mode).

The program runs through the Triton stack (triton/runtime's d3d11.dll -> triton_umd.dll
-> the Neptune guest runtime -> one neptune-server.exe on Wine's d3d11) in two modes:
  driver    the runtime hands deferred contexts to the driver (GetCaps THREADING offers
            driver command lists): each worker thread records through the DDI onto its
            own Neptune deferred context;
  emulated  TRITON_DEFERRED=emulated: the runtime records every deferred call itself and
            replays it on the immediate context when the list is executed.
Optionally (--with-neptune) a third mode runs the program on the Neptune guest runtime
directly. The modes alternate round by round (the machine is shared and noisy) and the
medians are compared: speed-up = emulated / driver (> 1: driver command lists are faster).

Two figures per mode, both per frame: the frame time (render + the final readback: it
includes waiting for the host, whose single GL thread on llvmpipe bounds every mode here),
and the application process's CPU time over the same frames (GetProcessTimes: every thread
of the sample, the runtime, Triton and the Neptune guest runtime; printed by the samples'
runner) -- what recording and submitting cost, the work driver command lists spread over
the recording threads instead of replaying it on the immediate context.

Each run renders --frames frames with --readback-every 0 (no synchronous readback inside
the loop except the one that ends the timed run), so the per-frame time includes the
host's execution. The driver's statistics line (TRITON_LOG=info: command lists finished,
on how many threads) is printed for the driver mode, the guest's (NPT_LOG=info) for both.

Usage (inside a Wine environment, see bench/triton/run.sh):
  deferred_ratio.py --win-build build/win [--samples deferred_draws,deferred] [--frames 30]
"""
import argparse
import os
import re
import shlex
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "samples"))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import compare_runs  # noqa: E402  (the samples' runner: Server, program_for_b)
import sample_runs  # noqa: E402
from sample_runs import MALLOC_TUNABLES, load_average  # noqa: E402

TIME_LINE = re.compile(r"^(\w+): (\d+) frames, ([0-9.]+) ms per frame .*process CPU ([0-9.]+) ms per frame")
STATS_LINES = (re.compile(r"device \d+ destroyed: .*commands"), re.compile(r"command lists: "))


def run(wrapper, exe, args, env, log_path):
    match, lines = sample_runs.run_logged(wrapper, exe, args, env, log_path, TIME_LINE)
    stats = [l for l in lines if any(p.search(l) for p in STATS_LINES)]
    return (float(match.group(3)), float(match.group(4))), stats


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--win-build", required=True, help="the Windows build directory")
    parser.add_argument("--samples", default="deferred_draws,deferred")
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--size", default="256x256")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--with-neptune", action="store_true", help="also run on the Neptune guest runtime directly")
    options = parser.parse_args()

    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    server_exe = os.path.join(options.win_build, "host", "server", "neptune-server.exe")
    triton_dir = os.path.join(options.win_build, "triton", "runtime")
    guest_dir = os.path.join(options.win_build, "guest")
    args = ["--frames", str(options.frames), "--size", options.size, "--readback-every", "0"]
    modes = ["driver", "emulated"] + (["neptune"] if options.with_neptune else [])
    work = tempfile.mkdtemp(prefix="npt-triton-deferred-")
    print("load average before: %s" % load_average())
    saved = dict(os.environ)
    os.environ["GLIBC_TUNABLES"] = MALLOC_TUNABLES   # the server's workers inherit it (bench/samples/README.md)
    server = compare_runs.Server(wrapper, server_exe, work)
    os.environ.clear()
    os.environ.update(saved)
    failed = False
    try:
        for sample in options.samples.split(","):
            exe = os.path.join(options.win_build, "samples", "sample-%s.exe" % sample)
            sample_work = os.path.join(work, sample)
            programs = {}
            for mode, dll_dir in (("triton", triton_dir), ("neptune", guest_dir)):
                os.makedirs(os.path.join(sample_work, mode))
                programs[mode] = compare_runs.program_for_b(exe, dll_dir, os.path.join(sample_work, mode))
            base = dict(os.environ, WINEDEBUG="-all", WINEDLLOVERRIDES="d3d11,dxgi=n,b",
                        NPT_SERVER=server.address(), NPT_LOG="info")
            triton = dict(base, TRITON_TARGET_D3D11="neptune_d3d11.dll", TRITON_LOG="info")
            envs = {
                "driver": (programs["triton"], triton),
                "emulated": (programs["triton"], dict(triton, TRITON_DEFERRED="emulated")),
                "neptune": (programs["neptune"], base),
            }
            times = {mode: [] for mode in modes}
            cpu = {mode: [] for mode in modes}
            stats = {mode: [] for mode in modes}
            for round_index in range(options.rounds):
                for mode in modes:
                    program, env = envs[mode]
                    log = os.path.join(sample_work, "round%d-%s.txt" % (round_index, mode))
                    (ms, cpu_ms), lines = run(wrapper, program, args, env, log)
                    times[mode].append(ms)
                    cpu[mode].append(cpu_ms)
                    stats[mode] = lines
            median = {mode: statistics.median(times[mode]) for mode in modes}
            median_cpu = {mode: statistics.median(cpu[mode]) for mode in modes}
            line = ("%-15s frame: driver %8.3f  emulated %8.3f ms  speed-up emulated/driver %.3f"
                    "   application CPU: driver %7.3f  emulated %7.3f ms  ratio emulated/driver %.3f" % (
                        sample, median["driver"], median["emulated"], median["emulated"] / median["driver"],
                        median_cpu["driver"], median_cpu["emulated"], median_cpu["emulated"] / median_cpu["driver"]))
            if "neptune" in median:
                line += "  (neptune directly: frame %.3f, CPU %.3f)" % (median["neptune"], median_cpu["neptune"])
            print(line + "  (per frame, median of %d rounds, %d frames, %s)" % (options.rounds, options.frames,
                                                                             options.size))
            for mode in modes:
                print("  %-9s frame %s" % (mode, " ".join("%.2f" % t for t in times[mode])))
                print("  %-9s CPU   %s" % ("", " ".join("%.2f" % t for t in cpu[mode])))
                for stat in stats[mode]:
                    print("    " + stat.strip())
    except RuntimeError as error:
        print("deferred_ratio: %s" % error, file=sys.stderr)
        failed = True
    finally:
        server.stop()
        print("load average after: %s" % load_average())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
