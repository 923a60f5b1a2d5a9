#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Suite vm: an ivshmem-doorbell device. The native neptune-server serves a device file and
speaks QEMU's ivshmem server protocol on a UNIX socket (--ivshmem-socket); QEMU's
ivshmem-doorbell device takes the memory and the server's doorbell from it. Inside the VM,
device_echo finds the device by its PCI id, maps BAR2 and BAR0, and makes echo calls after
stretches of quiet: each finds its worker idle and rings (a write into BAR0's Doorbell
register, which QEMU turns into the server's eventfd). Checked: the guest says it rings,
every call comes back with its words, and the server counted at least one ring per call.

    vm_doorbell_test.py DEVICE_ECHO NEPTUNE_SERVER

Exit 0: passed; 77: skipped, only when QEMU is not installed; anything else: failed.
"""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device_slots  # noqa: E402
import vm_run  # noqa: E402

EXIT_SKIP = 77
DEVICE_SIZE = 64 << 20  # a PCI BAR's size is a power of two
CALLS = 8
QUIET_MS = 300  # past the worker's first slice of quiet: its polls would pause 20 ms
VM_TIMEOUT_S = 240


def fail(message, vm_result=None, server_log=None):
    print(f"FAIL {message}")
    if vm_result is not None:
        print(vm_result.describe())
        print("--- guest stderr ---\n" + vm_result.stderr[-3000:])
        print("--- serial ---\n" + vm_result.serial_log[-3000:])
    if server_log is not None and server_log.exists():
        print("--- server ---\n" + server_log.read_text(errors="replace")[-3000:])
    return 1


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    echo, server = (Path(arg).resolve() for arg in sys.argv[1:])
    if not vm_run.qemu_available():
        print(f"SKIP {vm_run.QEMU} is not installed (Debian package qemu-system-x86)")
        return EXIT_SKIP
    vm_run.terminate_on_signal()
    started = time.monotonic()
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"neptune-vm-doorbell-{os.getpid()}"
    work.mkdir(parents=True, exist_ok=True)
    device_file = Path("/dev/shm") / f"neptune-vm-doorbell-{os.getpid()}"
    socket = work / "ivshmem.sock"
    server_log = work / "server.log"
    with open(server_log, "wb") as log:
        process = subprocess.Popen([str(server), "--vm-shm", str(device_file), "--size", str(DEVICE_SIZE),
                                    "--ivshmem-socket", str(socket), "--dispatch", "diag"],
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while not socket.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if not socket.exists():
            return fail("the server did not listen on its ivshmem socket", server_log=server_log)
        result = vm_run.run([str(echo), "--calls", str(CALLS), "--quiet-ms", str(QUIET_MS), "--expect-wake", "doorbell"],
                            doorbell_socket=socket, results_dir=work / "vm", timeout_s=VM_TIMEOUT_S)
        print(result.stdout, end="")
        if result.status != 0:
            return fail(f"device_echo in the VM ended with {result.status}", result, server_log)
        view = device_slots.DeviceView(device_file)
        header = view.header()
        view.close()
        if header["doorbell_rings"] < CALLS:
            return fail(f"the server counted {header['doorbell_rings']} doorbell rings for {CALLS} calls",
                        result, server_log)
        print(f"PASS {CALLS} calls rang the host through QEMU's ivshmem-doorbell "
              f"({header['doorbell_rings']} rings counted; boot {result.boot_s:.1f} s, "
              f"{time.monotonic() - started:.1f} s in all)")
        return 0
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        device_file.unlink(missing_ok=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
