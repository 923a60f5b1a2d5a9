#!/usr/bin/env python3
"""Frame time of samples run directly on the backend (Wine's d3d11) versus
through Neptune (our d3d11.dll/dxgi.dll -> neptune-server.exe on the same
backend), as a ratio measured in one run: the machine is shared and noisy, so
the two modes alternate round by round and the medians are compared.

Each run renders --frames frames with --readback-every 0: the frame loop holds
no synchronous readback except the one after the last frame, which waits for
all the work, so the per-frame time includes the host's execution.

Usage (inside a Wine environment, see bench/samples/run.sh):
  frame_ratio.py --win-build build/win --dll-dir DIR [--samples many_draws,cube]
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples"))
import compare_runs  # noqa: E402  (the samples' runner: Server, program_for_b, wine_path)

TIME_LINE = re.compile(r"^(\w+): (\d+) frames, ([0-9.]+) ms per frame")
STATS_LINE = re.compile(r"device \d+ destroyed: .*commands")


def run(wrapper, exe, args, env, log_path):
    with open(log_path, "w+") as log:
        rc = subprocess.run(wrapper + [exe] + args, env=env, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=subprocess.STDOUT, timeout=900).returncode
        log.seek(0)
        output = log.read()
    if rc != 0:
        raise RuntimeError("%s exited %d:\n%s" % (exe, rc, output[-4000:]))
    for line in output.splitlines():
        match = TIME_LINE.match(line)
        if match:
            return float(match.group(3)), [l for l in output.splitlines() if STATS_LINE.search(l)]
    raise RuntimeError("%s printed no timing line:\n%s" % (exe, output[-4000:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--win-build", required=True, help="the Windows build directory")
    parser.add_argument("--dll-dir", required=True, help="where our d3d11.dll/dxgi.dll are")
    parser.add_argument("--samples", default="many_draws,cube")
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--size", default="256x256")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()

    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    server_exe = os.path.join(options.win_build, "host", "server", "neptune-server.exe")
    args = ["--frames", str(options.frames), "--size", options.size, "--readback-every", "0"]
    work = tempfile.mkdtemp(prefix="npt-frame-ratio-")
    server = compare_runs.Server(wrapper, server_exe, work)
    failed = False
    try:
        for sample in options.samples.split(","):
            exe = os.path.join(options.win_build, "samples", "sample-%s.exe" % sample)
            sample_work = os.path.join(work, sample)
            os.makedirs(sample_work)
            exe_neptune = compare_runs.program_for_b(exe, options.dll_dir, sample_work)
            direct_env = dict(os.environ, WINEDEBUG="-all")
            neptune_env = dict(direct_env, WINEDLLOVERRIDES="d3d11,dxgi=n,b",
                               NPT_SERVER=server.address(), NPT_LOG=os.environ.get("NPT_LOG", "info"))
            direct, neptune, stats = [], [], []
            for round_index in range(options.rounds):
                log = os.path.join(sample_work, "round%d" % round_index)
                direct.append(run(wrapper, exe, args, direct_env, log + "-direct.txt")[0])
                ms, stats = run(wrapper, exe_neptune, args, neptune_env, log + "-neptune.txt")
                neptune.append(ms)
            d, n = statistics.median(direct), statistics.median(neptune)
            print("%-12s direct %8.3f ms/frame  neptune %8.3f ms/frame  ratio %.3f  (median of %d rounds, %d frames, %s)"
                  % (sample, d, n, n / d, options.rounds, options.frames, options.size))
            for line in stats:
                print("  " + line.strip())
    except RuntimeError as error:
        print("frame_ratio: %s" % error, file=sys.stderr)
        failed = True
    finally:
        server.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
