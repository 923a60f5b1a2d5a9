#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Soak of neptune-server.exe: for a given time, one server serves

  guest A  the samples one after another, a few frames each (a new process,
           connection and worker per run);
  guest B  one sample with many frames per run (a worker that lives for minutes);
  hostile  soak_hostile_guest.exe fuzzing its own ring and command stream
           (random and mutated streams, ring garbage), reconnecting after each
           fatal context;

every frame of A and B is compared with the same sample run directly on Wine's
d3d11 (byte-identical checksums, as the neptune-samples suite). Every
--sample-every seconds it records the server's memory (VmRSS) and open files
of the parent and of its worker processes (found by their command lines in
/proc), and the wineserver's memory and open files (Windows handles live in
the wineserver; Wine 8's GetProcessHandleCount reports 0). At the end it
prints the series and the growth after warm-up and exits non-zero on any
failed run, frame mismatch, server exit or growth beyond the thresholds.

Run through scripts/soak (it builds, provides the Wine environment and nices
everything); Windows programs run through $MESON_EXE_WRAPPER or wine."""
import argparse
import csv
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

FRAME_LINE = re.compile(r"^frame (\d+) ([0-9a-f]{16})\s*$")
HOSTILE_LINE = re.compile(r"^hostile: connections (\d+) fatal (\d+) valid_ok (\d+) commands (\d+) refused (\d+)", re.M)
PARENT_PID = re.compile(r"Local\\neptune-(\d+)-\d+")
SAMPLES_A = ["triangle", "cube", "instancing", "mrt", "rtt_mips", "copy", "occlusion", "many_draws", "deferred",
             "compute", "stream_output", "tessellation"]
SAMPLE_B = "cube"


def wine_path(path):
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def run_windows(wrapper, argv, log_path, env=None, timeout=600):
    full = dict(os.environ)
    full.setdefault("WINEDEBUG", "-all")
    full.update(env or {})
    with open(log_path, "w+") as log:
        try:
            code = subprocess.run(wrapper + argv, env=full, stdin=subprocess.DEVNULL, stdout=log,
                                  stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            code = -1
        log.seek(0)
        return code, log.read()


def frames_of(output):
    return {int(m.group(1)): m.group(2) for m in map(FRAME_LINE.match, output.splitlines()) if m}


class Totals:
    def __init__(self):
        self.lock = threading.Lock()
        self.runs = {"A": 0, "B": 0}
        self.frames = {"A": 0, "B": 0}
        self.failures = []

    def record(self, guest, frames=0, failure=None):
        with self.lock:
            self.runs[guest] += 1
            self.frames[guest] += frames
            if failure:
                self.failures.append("%s %s: %s" % (time.strftime("%H:%M:%S"), guest, failure))


def proc_status(pid):
    """VmRSS in KiB and open files of a Linux process (None if gone)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            rss = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        fds = len(os.listdir("/proc/%d/fd" % pid))
        return rss, fds
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None


def processes_matching(*needles):
    """Linux processes whose command line holds every needle (Wine shows a program's
    Windows command line there)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                line = f.read().replace(b"\0", b" ").decode(errors="replace")
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        if all(n in line for n in needles):
            out.append(int(entry))
    return out


def start_time(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return 1 << 62


def guest_loop(guest, wrapper, exes, references, args, env, deadline, totals, work, stop):
    i = 0
    while time.monotonic() < deadline and not stop.is_set():
        name = exes[i % len(exes)]
        i += 1
        code, output = run_windows(wrapper, [exes_path(work, name)] + args[name], os.path.join(work, "%s.txt" % guest),
                                   env)
        frames = frames_of(output)
        failure = None
        if code != 0:
            failure = "%s exited %d: %s" % (name, code, output.strip()[-600:])
        elif frames != references[name]:
            bad = sorted(f for f in references[name] if frames.get(f) != references[name][f])
            failure = "%s: frames differ from the direct run at %s" % (name, bad[:5])
        if failure:
            shutil.copy(os.path.join(work, "%s.txt" % guest),
                        os.path.join(work, "%s-failure-%d.txt" % (guest, len(totals.failures))))
        totals.record(guest, len(frames), failure)


def exes_path(work, name):
    return os.path.join(work, "bin", "sample-%s.exe" % name)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True, help="the Windows build directory")
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--warmup-minutes", type=float, default=None, help="default: a sixth of the run, at least 1")
    parser.add_argument("--sample-every", type=float, default=30, help="seconds between resource samples")
    parser.add_argument("--b-frames", type=int, default=600, help="frames per run of guest B")
    parser.add_argument("--growth-limit-mib", type=float, default=8.0,
                        help="largest tolerated memory growth after warm-up (parent, wineserver)")
    parser.add_argument("--growth-limit-files", type=int, default=4, help="largest tolerated growth in open files")
    parser.add_argument("--out", default=None, help="where logs and the CSV go (default: a temp dir)")
    parser.add_argument("--server-args", default="", help="extra neptune-server.exe options")
    options = parser.parse_args()
    warmup = options.warmup_minutes if options.warmup_minutes is not None else max(1.0, options.minutes / 6)

    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    build = os.path.abspath(options.build_dir)
    work = os.path.abspath(options.out) if options.out else tempfile.mkdtemp(prefix="npt-soak-")
    os.makedirs(os.path.join(work, "bin"), exist_ok=True)
    server_exe = os.path.join(build, "host", "server", "neptune-server.exe")
    hostile_exe = os.path.join(build, "bench", "soak", "soak_hostile_guest.exe")
    names = [n for n in SAMPLES_A if os.path.exists(os.path.join(build, "samples", "sample-%s.exe" % n))]
    for dll in os.listdir(os.path.join(build, "guest")):
        if dll.lower().endswith(".dll"):
            shutil.copy2(os.path.join(build, "guest", dll), os.path.join(work, "bin"))
    for n in names:
        shutil.copy2(os.path.join(build, "samples", "sample-%s.exe" % n), os.path.join(work, "bin"))

    # References: each sample directly on Wine's d3d11, with the arguments its guest uses.
    args = {n: ["--frames", "3", "--size", "128x128", "--quiet"] for n in names}
    args_b = ["--frames", str(options.b_frames), "--size", "64x64", "--quiet"]
    references = {}
    for n in names:
        code, output = run_windows(wrapper, [os.path.join(build, "samples", "sample-%s.exe" % n)] + args[n],
                                   os.path.join(work, "direct-%s.txt" % n))
        if code != 0:
            print("direct run of %s failed (%d): %s" % (n, code, output))
            return 1
        references[n] = frames_of(output)
    code, output = run_windows(wrapper, [os.path.join(build, "samples", "sample-%s.exe" % SAMPLE_B)] + args_b,
                               os.path.join(work, "direct-B.txt"))
    reference_b = frames_of(output)
    print("soak: references recorded (%d samples; B: %s, %d frames per run)" % (len(names), SAMPLE_B, len(reference_b)))

    socket = os.path.join(work, "npt")
    server_log = open(os.path.join(work, "server.txt"), "w")
    env = dict(os.environ, WINEDEBUG=os.environ.get("WINEDEBUG", "-all"))
    server = subprocess.Popen(wrapper + [server_exe, "--socket", wine_path(socket), "--verbose"] +
                              shlex.split(options.server_args), env=env, stdin=subprocess.DEVNULL,
                              stdout=server_log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while not os.path.exists(socket + ".tcp"):
        if server.poll() is not None or time.monotonic() > deadline:
            print("the server did not start")
            return 1
        time.sleep(0.05)
    guest_env = {"WINEDLLOVERRIDES": "d3d11,dxgi=n,b", "NPT_SERVER": wine_path(socket)}

    start = time.monotonic()
    end = start + options.minutes * 60
    totals = Totals()
    stop = threading.Event()
    threads = [
        threading.Thread(target=guest_loop, args=("A", wrapper, names, references, args, guest_env, end, totals,
                                                  work, stop)),
        threading.Thread(target=guest_loop, args=("B", wrapper, [SAMPLE_B], {SAMPLE_B: reference_b},
                                                  {SAMPLE_B: args_b}, guest_env, end, totals, work, stop)),
    ]
    hostile_log = open(os.path.join(work, "hostile.txt"), "w")
    hostile = subprocess.Popen(wrapper + [hostile_exe, wine_path(socket + ".tcp"), str(options.minutes * 60), "1"],
                               env=env, stdin=subprocess.DEVNULL, stdout=hostile_log, stderr=subprocess.STDOUT)
    for t in threads:
        t.start()

    # The parent's Linux process: the one whose command line is the server's.
    server_pid = None
    wineserver_pid = int(os.environ.get("NPT_WINESERVER_PID", "0") or 0)
    rows = []
    columns = ["seconds", "parent_rss_kib", "parent_files", "workers", "workers_rss_kib", "workers_files",
               "oldest_worker_rss_kib", "wineserver_rss_kib", "wineserver_files",
               "runs_a", "runs_b", "hostile_connections", "failures", "watchdog_kills"]
    next_sample = start
    while time.monotonic() < end and server.poll() is None:
        time.sleep(max(0.0, min(next_sample - time.monotonic(), end - time.monotonic())))
        next_sample += options.sample_every
        now = time.monotonic() - start
        if server_pid is None:
            found = processes_matching("neptune-server.exe", "--socket", wine_path(socket))
            server_pid = found[0] if found else None
        parent = (proc_status(server_pid) if server_pid else None) or (0, 0)
        log = open(os.path.join(work, "server.txt")).read()
        parent_win = PARENT_PID.search(log)
        workers = []
        if parent_win:
            pids = processes_matching("--worker", "Local\\neptune-%s-" % parent_win.group(1))
            workers = [(pid, proc_status(pid)) for pid in pids]
            workers = [(pid, s) for pid, s in workers if s]
        # Guest B's worker lives longest: the oldest worker.
        oldest = min(workers, key=lambda w: start_time(w[0])) if workers else None
        ws = proc_status(wineserver_pid) if wineserver_pid else None
        hostile_counts = HOSTILE_LINE.findall(open(os.path.join(work, "hostile.txt")).read())
        row = [round(now), parent[0], parent[1], len(workers), sum(s[0] for _, s in workers),
               sum(s[1] for _, s in workers), oldest[1][0] if oldest else 0,
               ws[0] if ws else 0, ws[1] if ws else 0,
               totals.runs["A"], totals.runs["B"], int(hostile_counts[-1][0]) if hostile_counts else 0,
               len(totals.failures), log.count("made no progress")]
        rows.append(row)
        print("soak: " + " ".join("%s=%s" % (c, v) for c, v in zip(columns, row)), flush=True)

    stop.set()
    for t in threads:
        t.join()
    hostile_code = hostile.wait(timeout=120) if hostile.poll() is None else hostile.returncode
    server_alive = server.poll() is None
    if server_alive:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    server_log.close()
    hostile_log.close()

    with open(os.path.join(work, "soak.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        writer.writerows(rows)

    # Growth after warm-up: the mean of the samples in the first two minutes after warm-up
    # against the mean of the last two minutes.
    problems = []
    window = max(1, int(120 / options.sample_every))
    after = [r for r in rows if r[0] >= warmup * 60]
    summary = []
    if len(after) >= 2 * window:
        first, last = after[:window], after[-window:]

        def growth(index):
            return sum(r[index] for r in last) / len(last) - sum(r[index] for r in first) / len(first)

        for name, index, unit, limit in (("parent memory", 1, "MiB", options.growth_limit_mib),
                                         ("parent files", 2, "", options.growth_limit_files),
                                         ("wineserver memory", 7, "MiB", options.growth_limit_mib),
                                         ("wineserver files", 8, "", options.growth_limit_files)):
            g = growth(index) / (1024.0 if unit == "MiB" else 1)
            summary.append("%s %+.2f%s" % (name, g, " " + unit if unit else ""))
            if g > limit:
                problems.append("%s grew by %.2f%s after warm-up (limit %s)" % (name, g, unit, limit))
    else:
        problems.append("too few samples after warm-up to judge growth (%d)" % len(after))

    # Guest B's worker lives for a whole run: its memory from the first to the last sample of one run.
    hostile_counts = HOSTILE_LINE.findall(open(os.path.join(work, "hostile.txt")).read())
    fatal_lines = len(re.findall(r"context removed", open(os.path.join(work, "server.txt")).read()))
    print("soak: %.1f minutes, warm-up %.1f minutes, %d samples; guest A %d runs (%d frames), guest B %d runs "
          "(%d frames); hostile: %s; contexts removed (all causes): %d"
          % (options.minutes, warmup, len(rows), totals.runs["A"], totals.frames["A"], totals.runs["B"],
             totals.frames["B"], "connections %s fatal %s valid streams ok %s commands %s refused %s" % hostile_counts[-1]
             if hostile_counts else "no report", fatal_lines))
    if rows:
        peak_workers = max(r[3] for r in rows)
        print("soak: parent RSS %.1f -> %.1f MiB, files %d -> %d; wineserver RSS %.1f -> %.1f MiB, files %d -> %d; "
              "workers at once up to %d, mean worker RSS up to %.1f MiB; oldest worker %.1f MiB at the last sample; "
              "watchdog kills %d"
              % (rows[0][1] / 1024, rows[-1][1] / 1024, rows[0][2], rows[-1][2], rows[0][7] / 1024,
                 rows[-1][7] / 1024, rows[0][8], rows[-1][8], peak_workers,
                 max((r[4] / max(1, r[3])) for r in rows) / 1024, rows[-1][6] / 1024, rows[-1][13]))
    print("soak: growth after warm-up: " + (", ".join(summary) if summary else "not judged"))
    if not server_alive:
        problems.append("the server exited during the soak (%s)" % server.returncode)
    if hostile_code not in (0, None):
        problems.append("the hostile guest exited %s" % hostile_code)
    problems += totals.failures
    for p in problems:
        print("FAIL: " + p)
    print("soak: logs and soak.csv in " + work)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
