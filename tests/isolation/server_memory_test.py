#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The server-wide memory bound of neptune-server.exe (--max-memory) under a flood.

Guests (isolation_guest.exe --mode hold) connect one after another, each
holding textures with content, until the server refuses one; more guests
knock. It asserts that
  * every refused guest's D3D11CreateDevice returns E_OUTOFMEMORY and the
    server logs why ("server memory exhausted: a context reserves X MiB ...");
  * as many guests were admitted as reservations of X fit in the bound;
  * the server's resident memory (server and worker processes, proportional
    set size) stays under the bound while they hold their memory;
  * the admitted guests render afterwards, unaffected;
  * once one ends, the sample renders through the server, byte-identical to
    the same sample run directly on Wine's d3d11.

Windows programs run through $MESON_EXE_WRAPPER (wine)."""
import argparse
import os
import re
import shlex
import sys
import tempfile
import time

from isolation_test import Program, frames_of, reference_frames, report, start_server, wine_path, with_dlls

E_OUTOFMEMORY = 0x8007000E
MIB = 1 << 20
MAPPING_LINE = re.compile(r"context \d+ in worker process \d+ \((Local\\neptune-\d+-)\d+\)")
RESERVATION_LINE = re.compile(r"server memory exhausted: a context reserves (\d+) MiB")
# More guests knocking once the server is full.
FLOOD = 4


def server_processes(server_exe, server_pid, mappings):
    """Linux pids of this server's processes under Wine: the server (started as
    server_pid) and its workers, whose command lines name their context's mapping, which
    starts with `mappings` ("Local\\neptune-<server's Windows pid>-"). Other tests may run
    servers of the same program at the same time; Wine starts processes detached, so the
    workers are not the server's children."""
    name = os.path.basename(server_exe).lower().encode()
    worker_mark = b"--mapping\0" + mappings.lower().encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                cmdline = f.read().lower()
        except OSError:
            continue
        program = cmdline.split(b"\0")[0]
        if not (program.endswith(b"\\" + name) or program.endswith(b"/" + name)):
            continue
        if int(entry) == server_pid or worker_mark in cmdline:
            pids.append(int(entry))
    return pids


def resident_kib(pid, field):
    """Pss or Rss of a process in KiB (0 once it is gone)."""
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(options, wrapper, work):
    problems, figures = [], []
    sample_args = ["--frames", "60", "--size", options.size, "--quiet"]
    reference, why = reference_frames(options, wrapper, work, sample_args)
    if reference is None:
        return [why], figures
    bound = options.max_memory_mib * MIB
    server, env = start_server(options, wrapper, work, [
        "--max-memory", "%dM" % options.max_memory_mib, "--max-object-memory", "%dM" % options.object_mib,
        "--max-bulk", "64M", "--worker-memory", "%dM" % options.worker_mib])
    holders = []
    try:
        if server.process.poll() is not None:
            return ["the server did not start:\n" + server.output()], figures
        guest_exe = with_dlls(options.victim, options.dll_dir, os.path.join(work, "bin"))
        sample_exe = with_dlls(options.sample, options.dll_dir, os.path.join(work, "bin"))

        def guest(index):
            release = os.path.join(work, "release-%d" % index)
            program = Program(wrapper, [guest_exe, "--mode", "hold", "--frames", str(options.hold_mib),
                                        "--release", wine_path(release)],
                              os.path.join(work, "guest-%d.txt" % index), env)
            return program, release

        # Guests one at a time until the server refuses one.
        refused = None
        for index in range(64):
            program, release = guest(index)
            answer = program.wait_for(r"^(holding \d+|no device: 0x[0-9a-f]+)", 120, "guest %d" % index)
            if answer.group(1).startswith("holding"):
                holders.append((program, release))
                continue
            refused = int(answer.group(1).split()[-1], 16)
            program.finish(30)
            break
        if refused is None:
            return ["64 guests were admitted: no bound"], figures
        if refused != E_OUTOFMEMORY:
            problems.append("the refused guest's D3D11CreateDevice returned 0x%08x, not E_OUTOFMEMORY" % refused)
        flood = [guest(len(holders) + 1 + i)[0] for i in range(FLOOD)]
        flood_results = []
        for program in flood:
            answer = program.wait_for(r"^(holding \d+|no device: 0x[0-9a-f]+)", 120, "flood guest")
            flood_results.append(answer.group(1))
            program.finish(30)
        admitted_in_flood = [r for r in flood_results if r.startswith("holding")]
        if admitted_in_flood or any(int(r.split()[-1], 16) != E_OUTOFMEMORY for r in flood_results):
            problems.append("the flood's guests got %s, not E_OUTOFMEMORY each" % flood_results)

        reservation = server.wait_for(RESERVATION_LINE.pattern, 30, "server (refusal)")
        reserved_mib = int(reservation.group(1))
        expected = options.max_memory_mib // reserved_mib
        figures.append("each context reserves %d MiB; %d admitted under %d MiB, then %d guests refused with "
                       "E_OUTOFMEMORY" % (reserved_mib, len(holders), options.max_memory_mib, 1 + FLOOD))
        if len(holders) != expected or len(holders) < 2:
            problems.append("%d guests admitted, %d reservations of %d MiB fit in %d MiB"
                            % (len(holders), expected, reserved_mib, options.max_memory_mib))

        mappings = server.wait_for(MAPPING_LINE.pattern, 30, "server (a context's mapping)").group(1)
        pids = server_processes(options.server, server.process.pid, mappings)
        pss = sum(resident_kib(pid, "Pss") for pid in pids) * 1024
        rss = sum(resident_kib(pid, "Rss") for pid in pids) * 1024
        figures.append("server resident while %d guests hold %d MiB of textures each: %d processes, proportional "
                       "%.0f MiB (resident %.0f MiB counting shared pages in each), bound %d MiB"
                       % (len(holders), options.hold_mib, len(pids), pss / MIB, rss / MIB, options.max_memory_mib))
        if len(pids) != len(holders) + 1:
            problems.append("found %d server processes for %d contexts: %s" % (len(pids), len(holders), pids))
        if pss > bound:
            problems.append("the server's proportional resident memory %.0f MiB exceeds the bound %d MiB"
                            % (pss / MIB, options.max_memory_mib))

        # The admitted go on; the first one ends and its reservation serves the sample.
        first, first_release = holders.pop(0)
        open(first_release, "w").close()
        if first.finish(120) != 0 or "finished 5" not in first.output():
            problems.append("an admitted guest could not render after the flood:\n" + first.output())
        # Its reservation comes back once its worker is gone.
        deadline = time.monotonic() + 30
        while len(server_processes(options.server, server.process.pid, mappings)) > len(holders) + 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        sample = Program(wrapper, [sample_exe] + sample_args, os.path.join(work, "sample.txt"), env)
        sample.finish(300)
        frames = frames_of(sample.output())
        if sample.process.returncode != 0 or frames != reference:
            problems.append("the sample through the server after the flood: exit %d, %d of %d frames identical:\n%s"
                            % (sample.process.returncode, sum(frames.get(f) == v for f, v in reference.items()),
                               len(reference), sample.output()))
        else:
            figures.append("sample after the flood: %d frames byte-identical to the direct run" % len(frames))
        for program, release in holders:
            open(release, "w").close()
            if program.finish(120) != 0 or "finished 5" not in program.output():
                problems.append("an admitted guest could not render after the flood:\n" + program.output())
        holders = []
        if server.process.poll() is not None:
            problems.append("the server exited (%d)" % server.process.returncode)
    except RuntimeError as error:
        problems.append(str(error))
    finally:
        for program, _ in holders:
            program.stop()
        server.stop()
    if problems:
        problems.append("server log:\n" + server.output())
    return problems, figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True)
    parser.add_argument("--dll-dir", required=True, help="where our d3d11.dll/dxgi.dll are")
    parser.add_argument("--victim", required=True, help="isolation_guest.exe")
    parser.add_argument("--sample", required=True, help="the sample run after the flood")
    parser.add_argument("--size", default="64x64")
    parser.add_argument("--max-memory-mib", type=int, default=800)
    parser.add_argument("--object-mib", type=int, default=32, help="--max-object-memory")
    parser.add_argument("--worker-mib", type=int, default=128, help="--worker-memory")
    parser.add_argument("--hold-mib", type=int, default=24, help="MiB of textures each guest holds")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    options = parser.parse_args()
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    work = tempfile.mkdtemp(prefix="npt-isolation-server-memory-")
    problems, figures = run(options, wrapper, work)
    return report("server-memory", problems, figures, work, options.keep)


if __name__ == "__main__":
    sys.exit(main())
