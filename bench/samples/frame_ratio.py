#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Frame time of samples run directly on the backend (Wine's d3d11) versus
through Neptune (our d3d11.dll/dxgi.dll -> neptune-server.exe on the same
backend), as ratios measured in one run: the machine is shared and noisy, so
the modes alternate round by round and the medians are compared.

Three modes per round:
  direct        the sample on Wine's d3d11 with Wine's defaults (wined3d's
                command-stream thread, glibc's default malloc);
  direct-tuned  the same with the backend settings the Neptune run gets:
                WINE_D3D_CONFIG csmt=0x0 (what neptune-server.exe gives its
                workers, host/server/main.cpp) and MALLOC_TUNABLES (bench/lib);
  neptune       the sample through our DLLs and the server; the server is
                started with MALLOC_TUNABLES in GLIBC_TUNABLES (a Wine process
                starts with its parent's Unix environment, so the server cannot
                give it to its workers itself).
The ratios are neptune / direct and neptune / direct-tuned; the second is the
cost of remoting alone, the figure the frame-time target is judged by.

Each run renders --frames frames with --readback-every 0: the frame loop holds
no synchronous readback except the one after the last frame, which waits for
all the work, so the per-frame time includes the host's execution. The load
average is printed before and after: figures taken while other programs keep
both cores busy say little (bench/samples/README.md).

Usage (inside a Wine environment, see bench/samples/run.sh):
  frame_ratio.py --win-build build/win --dll-dir DIR [--samples many_draws,cube]
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
import compare_runs  # noqa: E402  (the samples' runner: Server, program_for_b, wine_path)
import sample_runs  # noqa: E402
from sample_runs import MALLOC_TUNABLES, load_average  # noqa: E402

TIME_LINE = re.compile(r"^(\w+): (\d+) frames, ([0-9.]+) ms per frame")
STATS_LINE = re.compile(r"device \d+ destroyed: .*commands")

# What the Neptune run's backend gets: the server's csmt setting plus the malloc settings.
BACKEND_ENV = {"WINE_D3D_CONFIG": "csmt=0x0", "GLIBC_TUNABLES": MALLOC_TUNABLES}
MODES = ("direct", "direct-tuned", "neptune")


def run(wrapper, exe, args, env, log_path):
    match, lines = sample_runs.run_logged(wrapper, exe, args, env, log_path, TIME_LINE)
    return float(match.group(3)), [l for l in lines if STATS_LINE.search(l)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--win-build", required=True, help="the Windows build directory")
    parser.add_argument("--dll-dir", required=True, help="where our d3d11.dll/dxgi.dll are")
    parser.add_argument("--samples", default="many_draws,cube")
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--size", default="256x256")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()

    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    server_exe = os.path.join(options.win_build, "host", "server", "neptune-server.exe")
    args = ["--frames", str(options.frames), "--size", options.size, "--readback-every", "0"]
    work = tempfile.mkdtemp(prefix="npt-frame-ratio-")
    print("load average before: %s" % load_average())
    # The server (and the workers it starts) inherit this process's environment.
    saved = dict(os.environ)
    os.environ["GLIBC_TUNABLES"] = MALLOC_TUNABLES
    server = compare_runs.Server(wrapper, server_exe, work)
    os.environ.clear()
    os.environ.update(saved)
    failed = False
    try:
        for sample in options.samples.split(","):
            exe = os.path.join(options.win_build, "samples", "sample-%s.exe" % sample)
            sample_work = os.path.join(work, sample)
            os.makedirs(sample_work)
            exe_neptune = compare_runs.program_for_b(exe, options.dll_dir, sample_work)
            direct_env = dict(os.environ, WINEDEBUG="-all")
            envs = {
                "direct": direct_env,
                "direct-tuned": dict(direct_env, **BACKEND_ENV),
                "neptune": dict(direct_env, WINEDLLOVERRIDES="d3d11,dxgi=n,b", NPT_SERVER=server.address(),
                                NPT_LOG=os.environ.get("NPT_LOG", "info")),
            }
            times = {mode: [] for mode in MODES}
            stats = []
            for round_index in range(options.rounds):
                for mode in MODES:
                    program = exe_neptune if mode == "neptune" else exe
                    log = os.path.join(sample_work, "round%d-%s.txt" % (round_index, mode))
                    ms, lines = run(wrapper, program, args, envs[mode], log)
                    times[mode].append(ms)
                    if mode == "neptune":
                        stats = lines
            median = {mode: statistics.median(times[mode]) for mode in MODES}
            print("%-12s direct %8.3f  direct-tuned %8.3f  neptune %8.3f ms/frame  ratio %.3f (vs tuned %.3f)"
                  "  (median of %d rounds, %d frames, %s)"
                  % (sample, median["direct"], median["direct-tuned"], median["neptune"],
                     median["neptune"] / median["direct"], median["neptune"] / median["direct-tuned"],
                     options.rounds, options.frames, options.size))
            for mode in MODES:
                print("  %-13s %s" % (mode, " ".join("%.2f" % t for t in times[mode])))
            for line in stats:
                print("  " + line.strip())
    except RuntimeError as error:
        print("frame_ratio: %s" % error, file=sys.stderr)
        failed = True
    finally:
        server.stop()
        print("load average after: %s" % load_average())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
