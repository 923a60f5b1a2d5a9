#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs one command inside a QEMU VM (TCG) that sees the host's root filesystem.

The guest is Debian's stock kernel with a busybox initramfs (vm_assets.py). It mounts
the host's / read-only over virtio-9p and runs the command in a chroot of it, so
programs built on the host run unchanged; the results directory is a second, writable
9p share mounted at the same path inside the guest. Optionally a file on the host backs
an ivshmem-plain device (PCI 1af4:1110, the region in BAR2).

    vm_run.py [--shm FILE --size N] [--env NAME=VALUE]... [--timeout S] -- COMMAND...

exits with the command's status after printing its output; 124 when the VM ran out of
time, 125 when it ended without running the command. As a module: VirtualMachine.
"""

import argparse
import ctypes
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm_assets  # noqa: E402

QEMU = "qemu-system-x86_64"
BOOT_MARKER = "neptune-vm: booted"
ERROR_MARKER = "neptune-vm: error"
GUEST_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
EXIT_TIMEOUT = 124
EXIT_NO_RESULT = 125
PR_SET_PDEATHSIG = 1


class VmError(RuntimeError):
    pass


def qemu_available():
    return shutil.which(QEMU) is not None


def _die_with_parent():
    # QEMU must not outlive whoever started it, even one killed without a chance to clean up.
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class VmResult:
    def __init__(self, status, stdout, stderr, boot_s, wall_s, serial_log, timed_out):
        self.status = status  # None: the command never finished
        self.stdout = stdout
        self.stderr = stderr
        self.boot_s = boot_s  # QEMU start to the init's "booted" line (host clock)
        self.wall_s = wall_s  # QEMU start to QEMU exit
        self.serial_log = serial_log
        self.timed_out = timed_out

    def describe(self):
        boot = f"{self.boot_s:.1f} s" if self.boot_s is not None else "never"
        return f"status {self.status}, boot {boot}, wall {self.wall_s:.1f} s" + (
            ", timed out" if self.timed_out else "")


class VirtualMachine:
    """A VM running one command. Use as a context manager: the VM is killed on exit.

    start() boots it; wait_booted() and wait() block with timeouts; the host can work
    with the shared-memory file in between (the VM runs concurrently).
    """

    def __init__(self, command, *, shm=None, shm_size=None, doorbell_socket=None, env=None, cwd=None,
                 results_dir=None, timeout_s=240, memory_mb=512, cpus=1, log=None):
        if not command:
            raise ValueError("no command")
        if (shm is None) != (shm_size is None):
            raise ValueError("--shm and --size go together")
        if doorbell_socket and shm:
            raise ValueError("an ivshmem-doorbell device takes its memory from the server's socket, not --shm")
        if shm_size is not None and (shm_size <= 0 or shm_size & (shm_size - 1)):
            # QEMU aborts on a BAR whose size is not a power of two.
            raise ValueError(f"the shared-memory size {shm_size} is not a power of two")
        self.command = list(command)
        self.shm = Path(shm).resolve() if shm else None
        self.shm_size = shm_size
        # ivshmem-doorbell: memory and doorbell from an ivshmem server on this UNIX socket
        # (neptune-server --ivshmem-socket), which must listen before the VM starts.
        self.doorbell_socket = Path(doorbell_socket).resolve() if doorbell_socket else None
        self.env = dict(env or {})
        self.cwd = Path(cwd or os.getcwd()).resolve()
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.cpus = cpus
        self.log = log or (lambda message: print(message, file=sys.stderr))
        self._owns_results = results_dir is None
        self.results = Path(results_dir or tempfile.mkdtemp(prefix="neptune-vm-")).resolve()
        if any(c.isspace() for c in str(self.results)):
            raise VmError(f"the results directory path has whitespace (it goes on the kernel command line): {self.results}")
        self.serial_log = self.results / "serial.log"
        self.qemu_log = self.results / "qemu.log"
        self._process = None
        self._started = None
        self.boot_s = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        return False

    def _write_job(self):
        self.results.mkdir(parents=True, exist_ok=True)
        for name in ("status", "stdout", "stderr", "serial.log", "qemu.log"):
            (self.results / name).unlink(missing_ok=True)
        guest_tmp = self.results / "tmp"
        guest_tmp.mkdir(exist_ok=True)
        env = {"PATH": GUEST_PATH, "HOME": "/root", "TMPDIR": str(guest_tmp), **self.env}
        lines = ["# written by vm_run.py: runs in the guest, in a chroot of the host's root"]
        lines += [f"export {name}={shlex.quote(value)}" for name, value in env.items()]
        lines.append(f"cd {shlex.quote(str(self.cwd))} || exit {EXIT_NO_RESULT}")
        lines.append("exec " + " ".join(shlex.quote(str(part)) for part in self.command))
        (self.results / "job.sh").write_text("\n".join(lines) + "\n")

    def qemu_command(self, assets):
        command = [
            QEMU, "-accel", "tcg", "-machine", "pc", "-cpu", "max",
            "-m", str(self.memory_mb), "-smp", str(self.cpus),
            "-nodefaults", "-no-user-config", "-display", "none", "-monitor", "none", "-no-reboot",
            "-serial", f"file:{self.serial_log}",
            "-kernel", str(assets.kernel), "-initrd", str(assets.initramfs),
            "-append", f"console=ttyS0 panic=-1 quiet neptune_results={self.results}",
            "-fsdev", "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap",
            "-device", "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot",
            "-fsdev", f"local,id=results,path={self.results},security_model=none,multidevs=remap",
            "-device", "virtio-9p-pci,fsdev=results,mount_tag=results",
        ]
        if self.shm:
            command += [
                "-object", f"memory-backend-file,id=hostmem,share=on,mem-path={self.shm},size={self.shm_size}",
                "-device", "ivshmem-plain,memdev=hostmem",
            ]
        if self.doorbell_socket:
            command += [
                "-chardev", f"socket,path={self.doorbell_socket},id=ivshmem",
                "-device", "ivshmem-doorbell,chardev=ivshmem,vectors=1",
            ]
        return command

    def start(self, assets=None):
        if not qemu_available():
            raise VmError(f"{QEMU} is not installed (Debian package qemu-system-x86)")
        assets = assets or vm_assets.prepare(log=self.log)
        self._write_job()
        command = self.qemu_command(assets)
        self._started = time.monotonic()
        with open(self.qemu_log, "wb") as qemu_log:
            self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=qemu_log,
                                             stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        return self

    def running(self):
        return self._process is not None and self._process.poll() is None

    def _serial_text(self):
        try:
            return self.serial_log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def _remaining(self):
        return self.timeout_s - (time.monotonic() - self._started)

    def wait_booted(self, timeout_s=None):
        """Seconds from QEMU's start until the guest is about to run the command."""
        deadline = time.monotonic() + (timeout_s if timeout_s is not None else self._remaining())
        while self.boot_s is None:
            text = self._serial_text()
            if BOOT_MARKER in text:
                self.boot_s = time.monotonic() - self._started
                break
            if ERROR_MARKER in text or self._process.poll() is not None:
                raise VmError(f"the VM did not boot:\n{self.diagnostics()}")
            if time.monotonic() > deadline or self._remaining() <= 0:
                raise VmError(f"the VM did not boot in time:\n{self.diagnostics()}")
            time.sleep(0.05)
        return self.boot_s

    def diagnostics(self):
        try:
            qemu_output = self.qemu_log.read_text(errors="replace")
        except FileNotFoundError:
            qemu_output = ""
        return f"--- serial console ---\n{self._serial_text()[-6000:]}\n--- qemu ---\n{qemu_output[-3000:]}"

    def wait(self):
        """Waits (within the VM's timeout) for the command and the VM to end; kills the VM."""
        timed_out = False
        while self._process.poll() is None:
            if self.boot_s is None and BOOT_MARKER in self._serial_text():
                self.boot_s = time.monotonic() - self._started
            if self._remaining() <= 0:
                timed_out = True
                break
            time.sleep(0.05)
        self.kill()
        wall_s = time.monotonic() - self._started
        status_file = self.results / "status"
        status = int(status_file.read_text()) if status_file.exists() else None

        def read(name):
            path = self.results / name
            return path.read_text(errors="replace") if path.exists() else ""

        return VmResult(status, read("stdout"), read("stderr"), self.boot_s, wall_s, self._serial_text(), timed_out)

    def kill(self):
        if self._process and self._process.poll() is None:
            self._process.kill()
        if self._process:
            self._process.wait()

    def cleanup(self):
        self.kill()
        if self._owns_results:
            shutil.rmtree(self.results, ignore_errors=True)


def run(command, **options):
    """Boots a VM, runs command in it, returns a VmResult; the VM is always killed."""
    with VirtualMachine(command, **options) as vm:
        vm.start()
        return vm.wait()


def terminate_on_signal():
    # meson ends a timed-out test with SIGTERM: unwind so the VM is killed.
    def handler(signum, _frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGHUP, handler)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shm", help="file backing the ivshmem-plain device (created by QEMU if missing)")
    parser.add_argument("--size", type=int, help="the device's size in bytes (a power of two)")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--timeout", type=float, default=240, help="seconds for boot + command (default 240)")
    parser.add_argument("--results", help="results directory (default: a new temporary one, removed at the end)")
    parser.add_argument("--memory", type=int, default=512, help="guest memory in MiB")
    parser.add_argument("--cpus", type=int, default=1)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    env = dict(item.split("=", 1) for item in args.env)
    terminate_on_signal()
    vm = VirtualMachine(command, shm=args.shm, shm_size=args.size, env=env, results_dir=args.results,
                        timeout_s=args.timeout, memory_mb=args.memory, cpus=args.cpus)
    try:
        vm.start()
        result = vm.wait()
        sys.stdout.write(result.stdout)
        sys.stderr.write(result.stderr)
        print(f"vm_run: {result.describe()}", file=sys.stderr)
        if result.status is None:
            print(vm.diagnostics(), file=sys.stderr)
            return EXIT_TIMEOUT if result.timed_out else EXIT_NO_RESULT
        return result.status
    finally:
        if args.results:
            vm.kill()
        else:
            vm.cleanup()


if __name__ == "__main__":
    sys.exit(main())
