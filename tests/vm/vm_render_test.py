#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Suite vm: a guest program in the VM renders through Neptune on the host.

neptune-server.exe (the Windows build, under the Wine environment scripts/test provides)
serves a shared-memory device from a file in /dev/shm; QEMU backs the VM's ivshmem-plain
device with the same file. The guest program renders a frame and writes its readback:
run on the host against the same device file it gives the reference, run in the VM
(vm_render_guest.sh) it must give the same bytes. In the VM a second guest program is
killed in the middle of its frame; its slot and its worker must be taken back within
RECLAIM_LIMIT_S and a third program must render the same frame again.

    vm_render_test.py GUEST_PROGRAM      (neptune-vm-frame, tools/vm-frame)

Exit 0: passed; 77: skipped (no QEMU, or no Windows build: NPT_WIN_BUILD_DIR unset, as
the other native tests that start Windows programs); anything else: failed.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import device_slots  # noqa: E402
import vm_run  # noqa: E402
import wine_server  # noqa: E402

EXIT_SKIP = 77
DEVICE_SIZE = 128 << 20  # a PCI BAR's size is a power of two
RECLAIM_LIMIT_S = 2.0
HOST_RUN_TIMEOUT_S = 120
VM_TIMEOUT_S = 420
MARKER_TIMEOUT_S = 240


def fail(message):
    print(f"FAIL {message}")
    return 1


def wait_for_file(path, vm, timeout_s):
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        if not vm.running() or time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def run_on_host(guest, device_file, out, log):
    command = [str(guest), "--transport", "ivshmem", "--device", str(device_file), "--output", str(out)]
    with open(log, "wb") as log_file:
        return subprocess.run(command, stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                              timeout=HOST_RUN_TIMEOUT_S).returncode


def check_reclaim(vm, results, device, server):
    """Notes the mid-frame program's slot, lets the guest kill it and times the slot's and
    the worker's return from the guest's last sign of life: the last change of the slot's
    lease heartbeat the host saw (at most one heartbeat period before the kill; the marker
    file the guest writes after the kill can reach the host much later under load).
    Returns (error or None, seconds from the last heartbeat until both were back)."""
    if not wait_for_file(results / "victim-paused", vm, MARKER_TIMEOUT_S):
        return "the guest never reported its second program in the middle of its frame", None
    active = device.active_slots()
    if len(active) != 1:
        return f"expected one active device slot while the second program is paused, found {active}", None
    slot = active[0]
    if not server.worker_pids(slot["index"]):
        return f"no worker process for active slot {slot['index']}", None
    (results / "slot-noted").touch()
    try:
        heartbeat, last_beat = slot["heartbeat"], time.monotonic()
        killed_seen = None
        steps = {}
        while True:
            now = device.slots()[slot["index"]]
            clock = time.monotonic()
            if now["state"] == device_slots.SLOT_ACTIVE and now["heartbeat"] != heartbeat:
                heartbeat, last_beat = now["heartbeat"], clock
            if killed_seen is None:
                if (results / "killed").exists():
                    killed_seen = clock
                elif not vm.running() or clock - last_beat > MARKER_TIMEOUT_S:
                    return "the guest never reported the kill", None
                time.sleep(0.005)
                continue
            if now["state"] != device_slots.SLOT_ACTIVE:
                steps.setdefault("context ending", clock - last_beat)
            if now["state"] == device_slots.SLOT_FREE and now["generation"] != slot["generation"]:
                steps.setdefault("slot free", clock - last_beat)
            if not server.worker_pids(slot["index"]):
                steps.setdefault("worker gone", clock - last_beat)
            if "slot free" in steps and "worker gone" in steps:
                print(f"after the guest's last heartbeat: kill marker seen {killed_seen - last_beat:.2f} s, "
                      + ", ".join(f"{k} {v:.2f} s" for k, v in steps.items()))
                return None, max(steps["slot free"], steps["worker gone"])
            if clock - last_beat > RECLAIM_LIMIT_S * 10:
                return (f"slot {slot['index']} not taken back {clock - last_beat:.1f} s after the guest's last "
                        f"heartbeat (state {now['state']}, steps so far {steps})"), None
            time.sleep(0.005)
    finally:
        (results / "reclaim-checked").touch()


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    guest = Path(sys.argv[1]).resolve()
    if not vm_run.qemu_available():
        print(f"SKIP {vm_run.QEMU} is not installed (Debian package qemu-system-x86)")
        return EXIT_SKIP
    win_build = os.environ.get("NPT_WIN_BUILD_DIR")
    if not win_build:
        print("SKIP NPT_WIN_BUILD_DIR is not set (scripts/test sets it): no neptune-server.exe to render with")
        return EXIT_SKIP
    server_exe = wine_server.server_exe(win_build)
    if not server_exe.exists():
        return fail(f"{server_exe} does not exist (NPT_WIN_BUILD_DIR={win_build})")
    vm_run.terminate_on_signal()
    started = time.monotonic()

    results = Path(tempfile.mkdtemp(prefix="neptune-vm-render-"))
    device_file = Path("/dev/shm") / f"neptune-vm-render-{os.getpid()}"
    server = wine_server.WineDeviceServer(server_exe, device_file, DEVICE_SIZE, results / "server.log")
    vm = None
    device = None
    try:
        server.start()
        server_up_s = time.monotonic() - started
        device = device_slots.DeviceView(device_file)

        host_frame = results / "frame-host.bin"
        status = run_on_host(guest, device_file, host_frame, results / "guest-host.log")
        if status != 0 or not host_frame.exists():
            print((results / "guest-host.log").read_text(errors="replace"))
            return fail(f"the guest program on the host exited with {status}")
        host_run_s = time.monotonic() - started - server_up_s

        vm = vm_run.VirtualMachine(["/bin/sh", str(HERE / "vm_render_guest.sh"), str(results), str(guest)],
                                   shm=device_file, shm_size=DEVICE_SIZE, results_dir=results,
                                   timeout_s=VM_TIMEOUT_S)
        vm.start()
        vm.wait_booted()
        reclaim_error, reclaim_s = check_reclaim(vm, results, device, server)
        if reclaim_error:
            vm.kill()  # the guest script would wait for markers that will not come
        result = vm.wait()
        print(f"--- guest script ---\n{result.stdout}{result.stderr}---")
        for name in ("guest-first.log", "guest-victim.log", "guest-second.log"):
            path = results / name
            if path.exists():
                print(f"--- {name} (last lines) ---\n" + "\n".join(path.read_text(errors="replace").splitlines()[-8:]))
        if reclaim_error:
            return fail(reclaim_error + "\n" + vm.diagnostics())
        if result.status != 0:
            return fail(f"the guest script failed ({result.describe()})\n{vm.diagnostics()}")
        reference = host_frame.read_bytes()
        for name in ("frame-vm-first.bin", "frame-vm-second.bin"):
            frame = (results / name).read_bytes()
            if frame != reference:
                return fail(f"{name} ({len(frame)} bytes) differs from the host's frame ({len(reference)} bytes)")
        if reclaim_s > RECLAIM_LIMIT_S:
            return fail(f"the killed program's slot and worker came back {reclaim_s:.2f} s after its last "
                        f"heartbeat (limit {RECLAIM_LIMIT_S} s)")
        if not server.running():
            return fail("neptune-server.exe ended")
        print(f"vm render: frames byte-identical ({len(reference)} bytes, host and two VM runs); "
              f"slot and worker back {reclaim_s:.2f} s after the guest's last heartbeat; server up {server_up_s:.1f} s, "
              f"host run {host_run_s:.1f} s, VM boot {result.boot_s:.1f} s, VM {result.wall_s:.1f} s, "
              f"test wall {time.monotonic() - started:.1f} s")
        return 0
    except (wine_server.ServerError, vm_run.VmError, vm_run.vm_assets.AssetError, subprocess.TimeoutExpired,
            ValueError) as error:
        return fail(str(error))
    finally:
        if vm is not None:
            vm.kill()
        if device is not None:
            device.close()
        print(f"--- server log (last lines) ---\n" + "\n".join(server.log().splitlines()[-15:]))
        server.stop()
        device_file.unlink(missing_ok=True)
        shutil.rmtree(results, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
