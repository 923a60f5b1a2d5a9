# SPDX-License-Identifier: MIT
"""What the Windows sample benchmarks (bench/samples/frame_ratio.py,
bench/triton/deferred_ratio.py) share: the server's malloc settings, the load
average and one logged run of a sample program."""
import os
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# llvmpipe allocates and frees megabytes per flush; glibc's default thresholds hand them back
# to the kernel and fault them in again, and memory freed into other arenas is not reused
# (bench/samples/README.md: up to ~60 MB of page faults per many_draws frame).
# scripts/demo starts its server with the same settings, from the same file.
with open(os.path.join(ROOT, "scripts", "lib", "server-glibc-tunables")) as tunables_file:
    MALLOC_TUNABLES = tunables_file.read().strip()


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run_logged(wrapper, exe, args, env, log_path, time_line):
    """Runs exe (under wrapper) with its output in log_path. Returns the match of the
    compiled pattern time_line against the first line it matches, and the output's lines;
    raises with the output's tail when the program fails or prints no such line."""
    with open(log_path, "w+") as log:
        rc = subprocess.run(wrapper + [exe] + args, env=env, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=subprocess.STDOUT, timeout=900).returncode
        log.seek(0)
        output = log.read()
    if rc != 0:
        raise RuntimeError("%s exited %d:\n%s" % (exe, rc, output[-4000:]))
    lines = output.splitlines()
    for line in lines:
        match = time_line.match(line)
        if match:
            return match, lines
    raise RuntimeError("%s printed no timing line:\n%s" % (exe, output[-4000:]))
