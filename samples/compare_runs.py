#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs each sample twice and requires byte-identical frames (and, with
--check, that both runs pass the sample's own pixel checks).

Run A and run B differ only in their environment (--b-env KEY=VALUE), so the
same script serves two purposes: with no --b-env it proves a sample is
deterministic (the precondition of every equality test), and with
--b-dll-dir DIR (run B gets a copy of the program next to DIR's DLLs and
WINEDLLOVERRIDES=d3d11,dxgi=n,b) it compares direct rendering with rendering
through Neptune's d3d11.dll/dxgi.dll; --b-server EXE also starts that
render server (neptune-server.exe, under the same wrapper) for run B and
points the guest runtime at it with NPT_SERVER; with --b-server-native the
server is a Linux program (neptune-server on DXVK-native: NPT_BACKEND=dxvk in
this script's environment) started as it is, and the guest under Wine reaches
it through its rendezvous file and /dev/shm mapping on Z:; with --b-server-device the
server serves a shared-memory device file (QEMU ivshmem's backing file, --vm-shm) and run
B's guest runtime maps it through Z: (NPT_TRANSPORT=ivshmem). A difference names
the frame and the first differing pixel and keeps both runs' PNG and raw files.
--b-arg ARG gives run B arguments of its own: the compositor sample's run B renders
the same frames with three processes (--processes) against run A's single process.

The programs are Windows executables: they run through $MESON_EXE_WRAPPER
(set by meson for cross builds) or `wine`.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

FRAME_LINE = re.compile(r"^frame (\d+) ([0-9a-f]{16})\s*$")


def wine_path(path):
    """Z: is Wine's mapping of the Unix root."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def run_sample(wrapper, exe, args, out_dir, extra_env, timeout=300):
    """A sample prints a frame line or its FAIL line before it ends: a run that exits
    non-zero having printed nothing never reached the sample's own code (seen once in a
    full test run: a direct run under Wine ended in 0.2 s, exit status 1, not a word).
    Such a run is made once more, with Wine's error channel on, and the output says so."""
    started = time.monotonic()
    returncode, frames, output = run_sample_once(wrapper, exe, args, out_dir, extra_env, timeout)
    if returncode == 0 or output.strip():
        return returncode, frames, output
    note = ("compare_runs: the first attempt exited %d after %.1f s printing nothing; "
            "run again with WINEDEBUG=err+all\n" % (returncode, time.monotonic() - started))
    print(note, end="", file=sys.stderr)
    returncode, frames, output = run_sample_once(wrapper, exe, args, out_dir,
                                                 dict(extra_env, WINEDEBUG="err+all,fixme-all"), timeout)
    return returncode, frames, note + output


def run_sample_once(wrapper, exe, args, out_dir, extra_env, timeout):
    env = dict(os.environ)
    env.update(extra_env)
    env.setdefault("WINEDEBUG", "-all")
    command = wrapper + [exe] + args + ["--quiet", "--out", wine_path(out_dir), "--raw"]
    # Output goes to files, not pipes: the first Wine program of a session
    # starts Wine's system processes, which inherit its handles and outlive it,
    # and a pipe would stay open (and block us) until they exit.
    log_path = os.path.join(out_dir, "output.txt")
    with open(log_path, "w+") as log:
        returncode = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, timeout=timeout).returncode
        log.seek(0)
        output = log.read()
    frames = {}
    for line in output.splitlines():
        match = FRAME_LINE.match(line)
        if match:
            frames[int(match.group(1))] = match.group(2)
    return returncode, frames, output


class Server:
    """A render server for run B: started before the run, its log kept beside
    the frames, stopped (and its exit checked) afterwards."""

    def __init__(self, wrapper, exe, work, native=False, device=False):
        self.socket = os.path.join(work, "npt")
        # A shared-memory device (QEMU ivshmem's backing file) instead of the socket.
        self.device = os.path.join("/dev/shm", os.path.basename(work) + "-device") if device else None
        self.log_path = os.path.join(work, "server.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.setdefault("WINEDEBUG", "-all")
        where = ["--vm-shm", self.device, "--size", "256M"] if device else ["--socket", self.socket]
        if not native and not device:
            where[1] = wine_path(self.socket)
        command = [exe] + where if native else wrapper + [exe] + where
        self.process = subprocess.Popen(command, env=env,
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        # The server writes its rendezvous file (or the device's header) once it accepts guests.
        deadline = time.monotonic() + 60
        while not self.ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start; its log:\n" + self.output())
            time.sleep(0.05)

    def ready(self):
        if not self.device:
            return os.path.exists(self.socket + ".tcp")
        try:
            with open(self.device, "rb") as f:
                return f.read(4) == b"NPTD"
        except OSError:
            return False

    def address(self):
        return wine_path(self.socket)

    def guest_env(self):
        if self.device:
            return {"NPT_TRANSPORT": "ivshmem", "NPT_IVSHMEM_DEVICE": self.device}
        return {"NPT_SERVER": self.address()}

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        if self.device and os.path.exists(self.device):
            os.unlink(self.device)


def first_difference(path_a, path_b, width):
    with open(path_a, "rb") as f:
        a = f.read()
    with open(path_b, "rb") as f:
        b = f.read()
    if len(a) != len(b):
        return "raw frames differ in size (%d vs %d bytes)" % (len(a), len(b))
    count = 0
    first = None
    for i in range(0, len(a), 4):
        if a[i:i + 4] != b[i:i + 4]:
            count += 1
            if first is None:
                first = i // 4
    if first is None:
        return "raw frames are identical although the checksums differ"
    x, y = first % width, first // width
    return "%d pixels differ; first at (%d,%d): A=%s B=%s" % (
        count, x, y, tuple(a[first * 4:first * 4 + 4]), tuple(b[first * 4:first * 4 + 4]))


def program_for_b(exe, dll_dir, work):
    """Run B's copy of the program, with the DLLs under test beside it (Windows
    and Wine load a DLL from the program's directory first)."""
    if not dll_dir:
        return exe
    bin_dir = os.path.join(work, "b-bin")
    os.makedirs(bin_dir)
    shutil.copy2(exe, bin_dir)
    dlls = [f for f in os.listdir(dll_dir) if f.lower().endswith(".dll")]
    if not dlls:
        raise SystemExit("--b-dll-dir %s holds no DLLs" % dll_dir)
    for dll in dlls:
        shutil.copy2(os.path.join(dll_dir, dll), bin_dir)
    return os.path.join(bin_dir, os.path.basename(exe))


def compare(wrapper, exe, args, width, b_env, b_dll_dir, b_server, keep_root, b_args=(), timeout=300,
            b_server_native=False, b_server_device=False):
    name = os.path.basename(exe)
    work = tempfile.mkdtemp(prefix="npt-compare-%s-" % name, dir=keep_root)
    dir_a, dir_b = os.path.join(work, "a"), os.path.join(work, "b")
    os.makedirs(dir_a)
    os.makedirs(dir_b)
    exe_b = program_for_b(exe, b_dll_dir, work)
    # One after the other: the runs must not share anything but the inputs.
    rc_a, frames_a, log_a = run_sample(wrapper, exe, args, dir_a, {}, timeout)
    server = None
    if b_server:
        try:
            server = Server(wrapper, b_server, work, b_server_native, b_server_device)
        except RuntimeError as error:
            return "FAIL", [str(error), "kept in %s" % work]
        b_env = dict(b_env, **server.guest_env())
    try:
        rc_b, frames_b, log_b = run_sample(wrapper, exe_b, args + list(b_args), dir_b, b_env, timeout)
    finally:
        if server:
            server.stop()
    if server and rc_b != 0:
        log_b += "\n--- server log ---\n" + server.output()

    problems = []
    if rc_a == 77 and rc_b == 77:
        shutil.rmtree(work)
        return "SKIP", ["%s skipped in both runs: %s" % (name, log_a.strip())]
    if rc_a != 0:
        problems.append("run A exited %d:\n%s" % (rc_a, log_a))
    if rc_b != 0:
        problems.append("run B exited %d:\n%s" % (rc_b, log_b))
    if not problems:
        if not frames_a:
            problems.append("run A printed no frame lines")
        if sorted(frames_a) != sorted(frames_b):
            problems.append("runs rendered different frame sets: %s vs %s" % (sorted(frames_a), sorted(frames_b)))
        for frame in sorted(set(frames_a) & set(frames_b)):
            if frames_a[frame] != frames_b[frame]:
                raw = "%s-%04d.rgba"
                stem = name[len("sample-"):-len(".exe")] if name.startswith("sample-") else name
                detail = first_difference(os.path.join(dir_a, raw % (stem, frame)),
                                          os.path.join(dir_b, raw % (stem, frame)), width)
                problems.append("frame %d: %s vs %s: %s" % (frame, frames_a[frame], frames_b[frame], detail))
    if problems:
        problems.append("both runs' PNG and raw frames kept in %s" % work)
        return "FAIL", problems
    shutil.rmtree(work)
    return "OK", ["%s: %d frames identical" % (name, len(frames_a))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("exes", nargs="+")
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--size", default="64x64")
    parser.add_argument("--b-env", action="append", default=[], metavar="KEY=VALUE",
                        help="environment of run B only (e.g. WINEDLLOVERRIDES=d3d11,dxgi=n,b)")
    parser.add_argument("--b-dll-dir", default=None, metavar="DIR",
                        help="run B loads the DLLs in DIR (our d3d11.dll/dxgi.dll) instead of the system's")
    parser.add_argument("--b-server", default=None, metavar="EXE",
                        help="start this render server for run B and set NPT_SERVER for it")
    parser.add_argument("--b-server-native", action="store_true",
                        help="the --b-server program is a native Linux server: started without the Wine wrapper")
    parser.add_argument("--b-server-device", action="store_true",
                        help="the --b-server serves a shared-memory device file (--vm-shm) and run B's guest "
                             "runtime connects through it (NPT_TRANSPORT=ivshmem)")
    parser.add_argument("--b-arg", action="append", default=[], metavar="ARG",
                        help="an argument for run B only (e.g. --processes: another version of the same frames)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds each run may take")
    parser.add_argument("--keep-dir", default=None, help="where differing runs are kept (default: temp dir)")
    parser.add_argument("--check", action="store_true", help="pass --check to both runs")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()

    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    b_env = dict(item.split("=", 1) for item in options.b_env)
    if options.b_dll_dir:
        b_env.setdefault("WINEDLLOVERRIDES", "d3d11,dxgi=n,b")
    width = int(options.size.split("x")[0])
    args = ["--frames", str(options.frames), "--size", options.size] + (["--check"] if options.check else [])

    failed = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        jobs = [pool.submit(compare, wrapper, exe, args, width, b_env, options.b_dll_dir, options.b_server, options.keep_dir,
                            options.b_arg, options.timeout, options.b_server_native, options.b_server_device)
                for exe in options.exes]
        for job in jobs:
            verdict, lines = job.result()
            failed |= verdict == "FAIL"
            for line in lines:
                print("%s: %s" % (verdict, line))
    if failed:
        return 1
    # All skipped: report a skip to meson rather than a pass.
    return 77 if all(job.result()[0] == "SKIP" for job in jobs) else 0


if __name__ == "__main__":
    sys.exit(main())
