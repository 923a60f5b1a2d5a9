#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Crash isolation and recovery through neptune-server.exe.

One server (a worker process per context), two guests with Neptune's DLLs:
a victim (isolation_guest.exe) and a sample rendering frames. Something
happens to the victim's context only:

  kill    its worker process is terminated mid-frame (TerminateProcess)
  hang    its worker's threads are suspended: the server's watchdog
          (--watchdog-ms) must terminate it and remove the context
  objects the victim creates objects past the server's --max-objects
  memory  the victim creates textures past --max-object-memory

The victim must see DXGI_ERROR_DEVICE_REMOVED from the failing call, from
GetDeviceRemovedReason and from the calls after it; the sample must render
frames byte-identical to the same sample run directly on Wine's d3d11, while
the victim's context dies; a new guest must connect afterwards; the server
must still run. Prints the figures (how long the victim waited) and exits
non-zero on any failure.

Windows programs run through $MESON_EXE_WRAPPER (wine)."""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

FRAME_LINE = re.compile(r"^frame (\d+) ([0-9a-f]{16})\s*$")
CONTEXT_LINE = re.compile(r"context (\d+) in worker process (\d+)")
REMOVED_LINE = re.compile(r"^removed after=(\d+) call=(\S+) hr=(0x[0-9a-f]+) blocked_ms=(\d+) reason=(0x[0-9a-f]+) "
                          r"map=(0x[0-9a-f]+) create=(0x[0-9a-f]+) reason_again=(0x[0-9a-f]+)")
DEVICE_REMOVED = 0x887A0005
DEVICE_HUNG = 0x887A0006

WATCHDOG_MS = 1000
# The hang must be noticed within the watchdog time plus this (supervision slices,
# terminating the worker, waking the guest), on a loaded 2-core machine.
HANG_MARGIN_MS = 1500
# A killed worker: the guest must see it within this.
KILL_LIMIT_MS = 1000


def wine_path(path):
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


class Program:
    """A Windows program whose output goes to a file (a pipe would be held open by
    Wine's system processes)."""

    def __init__(self, wrapper, argv, log_path, env):
        self.log_path = log_path
        self.log = open(log_path, "w")
        full_env = dict(os.environ)
        full_env.setdefault("WINEDEBUG", "-all")
        full_env.update(env)
        self.process = subprocess.Popen(wrapper + argv, env=full_env, stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def output(self):
        return read(self.log_path)

    def wait_for(self, pattern, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(pattern, self.output(), re.M)
            if match:
                return match
            if self.process.poll() is not None:
                match = re.search(pattern, self.output(), re.M)
                if match:
                    return match
                raise RuntimeError("%s: exited (%d) first; output:\n%s" % (what, self.process.returncode, self.output()))
            time.sleep(0.01)
        raise RuntimeError("%s: nothing after %d s; output:\n%s" % (what, timeout, self.output()))

    def finish(self, timeout):
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        return self.process.returncode

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        return self.finish(10)


def frames_of(output):
    return {int(m.group(1)): m.group(2) for m in map(FRAME_LINE.match, output.splitlines()) if m}


def with_dlls(exe, dll_dir, bin_dir):
    """A copy of the program beside our d3d11.dll/dxgi.dll (loaded first from there)."""
    os.makedirs(bin_dir, exist_ok=True)
    shutil.copy2(exe, bin_dir)
    for dll in os.listdir(dll_dir):
        if dll.lower().endswith(".dll"):
            shutil.copy2(os.path.join(dll_dir, dll), bin_dir)
    return os.path.join(bin_dir, os.path.basename(exe))


def start_server(options, wrapper, work, extra):
    """neptune-server.exe on a socket in `work`, ready (or exited) when this returns, and
    the environment a guest of it needs."""
    socket = os.path.join(work, "npt")
    server = Program(wrapper, [options.server, "--socket", wine_path(socket), "--verbose"] + extra,
                     os.path.join(work, "server.txt"), {})
    deadline = time.monotonic() + 60
    while not os.path.exists(socket + ".tcp") and server.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    if not os.path.exists(socket + ".tcp") and server.process.poll() is None:
        server.stop()
    return server, {"WINEDLLOVERRIDES": "d3d11,dxgi=n,b", "NPT_SERVER": wine_path(socket)}


def reference_frames(options, wrapper, work, sample_args):
    """The sample's frames directly on Wine's d3d11, or None and why."""
    direct = Program(wrapper, [options.sample] + sample_args, os.path.join(work, "direct.txt"), {})
    if direct.finish(300) != 0:
        return None, "direct run exited %d:\n%s" % (direct.process.returncode, direct.output())
    return frames_of(direct.output()), None


def run_case(case, options, wrapper, work):
    problems = []
    figures = []
    # The hang case needs the sample to outlive the watchdog period plus the suspension: on a quiet
    # machine 200 and even 1000 frames of 64x64 ended before that (no overlap to check).
    frames = options.frames or (5000 if case == "hang" else 200)
    sample_args = ["--frames", str(frames), "--size", options.size, "--quiet"]

    # The reference: the sample directly on Wine's d3d11.
    reference, why = reference_frames(options, wrapper, work, sample_args)
    if reference is None:
        return [why], figures

    extra = {
        "kill": [],
        "hang": ["--watchdog-ms", str(WATCHDOG_MS)],
        "objects": ["--max-objects", "200"],
        "memory": ["--max-object-memory", str(24 << 20)],
    }[case]
    server, env = start_server(options, wrapper, work, extra)
    try:
        if server.process.poll() is not None:
            return ["the server did not start:\n" + server.output()], figures
        victim_exe = with_dlls(options.victim, options.dll_dir, os.path.join(work, "bin"))
        sample_exe = with_dlls(options.sample, options.dll_dir, os.path.join(work, "bin"))
        mode = {"kill": "render", "hang": "render", "objects": "objects", "memory": "memory"}[case]

        # A quota victim starts creating once the sample is connected.
        go = os.path.join(work, "go")
        victim_args = ["--mode", mode] + (["--go", wine_path(go)] if mode != "render" else [])
        victim = Program(wrapper, [victim_exe] + victim_args, os.path.join(work, "victim.txt"), env)
        victim.wait_for(r"^connected$", 120, "victim")
        victim_context = server.wait_for(CONTEXT_LINE.pattern, 30, "server (victim's context)")
        victim_pid = victim_context.group(2)
        if mode == "render":
            victim.wait_for(r"^frame 20 ok$", 60, "victim")

        # The healthy guest: connected (its own worker) before anything happens to the victim.
        healthy = Program(wrapper, [sample_exe] + sample_args, os.path.join(work, "healthy.txt"), env)
        server.wait_for(r"context (\d+) in worker process (?!%s\b)(\d+)" % victim_pid, 120, "server (sample's context)")

        started = time.monotonic()
        open(go, "w").close()
        if case in ("kill", "hang"):
            action = "terminate" if case == "kill" else "suspend"
            control = Program(wrapper, [options.control, action, victim_pid], os.path.join(work, "control.txt"), {})
            if control.finish(60) != 0:
                problems.append("process_control %s %s failed:\n%s" % (action, victim_pid, control.output()))
            started = time.monotonic()
        removed = victim.wait_for(REMOVED_LINE.pattern, 120, "victim")
        seen_ms = (time.monotonic() - started) * 1000
        victim_status = victim.finish(60)
        healthy_running = healthy.process.poll() is None

        after, call, hr, blocked_ms, reason, mapped, create, reason_again = removed.groups()
        figures.append("victim removed after %s %s at %s (%s); waited %s ms in the failing call; seen %.0f ms after "
                       "the %s" % (after, "frames" if mode == "render" else "objects", call, hr, blocked_ms, seen_ms,
                                   {"kill": "TerminateProcess", "hang": "suspension"}.get(case, "start")))
        figures.append("GetDeviceRemovedReason %s, then Map %s, CreateBuffer %s, GetDeviceRemovedReason %s"
                       % (reason, mapped, create, reason_again))
        if victim_status != 0:
            problems.append("the victim did not see a removed device the Windows way (exit %d):\n%s"
                            % (victim_status, victim.output()))
        if int(hr, 16) != DEVICE_REMOVED or int(mapped, 16) != DEVICE_REMOVED:
            problems.append("the victim's calls returned %s / %s, not DXGI_ERROR_DEVICE_REMOVED" % (hr, mapped))
        if int(create, 16) != DEVICE_REMOVED:
            problems.append("CreateBuffer on the removed device returned %s, not DXGI_ERROR_DEVICE_REMOVED" % create)
        if int(reason, 16) not in (DEVICE_REMOVED, DEVICE_HUNG):
            problems.append("GetDeviceRemovedReason returned %s" % reason)
        if case == "kill" and seen_ms > KILL_LIMIT_MS:
            problems.append("the killed worker's guest learned it after %.0f ms (limit %d)" % (seen_ms, KILL_LIMIT_MS))
        if case == "hang" and seen_ms > WATCHDOG_MS + HANG_MARGIN_MS:
            problems.append("the hung worker's guest learned it after %.0f ms (limit %d)"
                            % (seen_ms, WATCHDOG_MS + HANG_MARGIN_MS))
        expected_reason = {"kill": "worker process died", "hang": "worker made no progress",
                           "objects": "command rejected", "memory": "command rejected"}[case]
        # The parent logs once the worker process has ended, which may be after the guest
        # saw the removal (a worker that made its context fatal writes that first).
        try:
            server.wait_for(r"worker %s ended .*context removed: %s" % (victim_pid, re.escape(expected_reason)), 30,
                            "server")
        except RuntimeError:
            problems.append("the server did not log the victim's context as removed with '%s'" % expected_reason)

        if healthy.finish(300) != 0:
            problems.append("the sample through Neptune exited %d:\n%s" % (healthy.process.returncode, healthy.output()))
        frames = frames_of(healthy.output())
        if frames != reference:
            problems.append("the sample's frames differ from the direct run: %d vs %d frames, first difference at %s"
                            % (len(frames), len(reference),
                               min([f for f in reference if frames.get(f) != reference[f]] or [None])))
        figures.append("sample: %d frames byte-identical to the direct run; %s when the victim saw the removal"
                       % (len(frames), "still rendering" if healthy_running else "already finished"))
        if not healthy_running:
            problems.append("the sample had already finished when the victim saw the removal: no overlap "
                            "(raise --frames)")

        # A new guest connects and renders on the same server afterwards.
        again = Program(wrapper, [victim_exe, "--mode", "render", "--frames", "5"], os.path.join(work, "again.txt"), env)
        if again.finish(120) != 0 or "finished 5" not in again.output():
            problems.append("a new guest could not render after the incident:\n" + again.output())
        if server.process.poll() is not None:
            problems.append("the server exited (%d)" % server.process.returncode)
    except RuntimeError as error:
        problems.append(str(error))
    finally:
        server.stop()
    if problems:
        problems.append("server log:\n" + server.output())
    return problems, figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", choices=["kill", "hang", "objects", "memory"])
    parser.add_argument("--server", required=True)
    parser.add_argument("--dll-dir", required=True, help="where our d3d11.dll/dxgi.dll are")
    parser.add_argument("--victim", required=True, help="isolation_guest.exe")
    parser.add_argument("--control", required=True, help="process_control.exe")
    parser.add_argument("--sample", required=True, help="the sample the healthy guest runs")
    parser.add_argument("--frames", type=int, default=0, help="the sample's frames (default 200; 5000 for hang)")
    parser.add_argument("--size", default="64x64")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    options = parser.parse_args()
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    work = tempfile.mkdtemp(prefix="npt-isolation-%s-" % options.case)
    problems, figures = run_case(options.case, options, wrapper, work)
    return report(options.case, problems, figures, work, options.keep)


def report(case, problems, figures, work, keep):
    """Prints a case's figures and problems; its exit status. A failed case's work
    directory is kept for its logs."""
    for line in figures:
        print("%s: %s" % (case, line))
    if problems:
        for problem in problems:
            print("FAIL: " + problem)
        print("kept in " + work)
        return 1
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    print("%s: OK" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
