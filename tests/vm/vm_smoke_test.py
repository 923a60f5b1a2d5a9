#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Suite vm: boots the test VM with an ivshmem-plain device backed by a host file and runs
ivshmem_probe (built natively, run from the host's root through 9p) in it. The probe checks
a pattern the host wrote before the boot, writes one the host checks in the file while the
VM runs, and checks the host's answer: the BAR the guest maps is the host's memory.

    vm_smoke_test.py PROBE

Exit 0: passed; 77: skipped, only when QEMU is not installed; anything else: failed.
"""

import mmap
import os
import random
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm_run  # noqa: E402

EXIT_SKIP = 77
REGION_SIZE = 1 << 20  # a PCI BAR's size is a power of two
GUEST_STATE_OFFSET = 0
HOST_STATE_OFFSET = 4
GUEST_PATTERN_OFFSET = 64
TAG_HOST_BEFORE_BOOT = 1
TAG_GUEST = 2
TAG_HOST_ANSWER = 3
GUEST_PATTERN_TIMEOUT_S = 120
VM_TIMEOUT_S = 240


def probe_pattern(seed, tag, begin, end):
    """ivshmem_probe.c's pattern_word for the 4-byte words in [begin, end), as bytes."""
    mask = 0xFFFFFFFF
    key = (seed * 40503 + tag * 0x9E3779B9) & mask
    words = []
    for index in range(begin // 4, end // 4):
        x = (((index + 1) * 2654435761) & mask) ^ key
        x ^= x >> 15
        x = (x * 0x2C1B3C6D) & mask
        x ^= x >> 12
        words.append(x)
    return struct.pack(f"<{len(words)}I", *words)


def first_difference(actual, expected, base):
    for offset in range(0, len(expected), 4):
        if actual[offset:offset + 4] != expected[offset:offset + 4]:
            return f"offset {base + offset}: {actual[offset:offset + 4].hex()} instead of {expected[offset:offset + 4].hex()}"
    return None


def fail(message, vm=None):
    print(f"FAIL {message}")
    if vm is not None:
        print(vm.diagnostics())
    return 1


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    probe = Path(sys.argv[1]).resolve()
    if not vm_run.qemu_available():
        print(f"SKIP {vm_run.QEMU} is not installed (Debian package qemu-system-x86)")
        return EXIT_SKIP
    vm_run.terminate_on_signal()
    started = time.monotonic()
    seed = random.randrange(1, 1 << 31)
    half = REGION_SIZE // 2
    shm_path = Path("/dev/shm") / f"neptune-vm-smoke-{os.getpid()}"
    with open(shm_path, "w+b") as shm_file:
        shm_file.truncate(REGION_SIZE)
        region = mmap.mmap(shm_file.fileno(), REGION_SIZE)
    region[half:REGION_SIZE] = probe_pattern(seed, TAG_HOST_BEFORE_BOOT, half, REGION_SIZE)

    vm = vm_run.VirtualMachine([str(probe), str(seed), str(REGION_SIZE)], shm=shm_path, shm_size=REGION_SIZE,
                               timeout_s=VM_TIMEOUT_S)
    try:
        vm.start()
        boot_s = vm.wait_booted()
        print(f"booted in {boot_s:.1f} s")
        deadline = time.monotonic() + GUEST_PATTERN_TIMEOUT_S
        while struct.unpack_from("<I", region, GUEST_STATE_OFFSET)[0] != 1:
            if time.monotonic() > deadline or not vm.running():
                result = vm.wait()
                return fail(f"the guest never wrote its pattern ({result.describe()})\n"
                            f"--- probe output ---\n{result.stdout}{result.stderr}", vm)
            time.sleep(0.02)
        seen_after_s = time.monotonic() - started
        expected = probe_pattern(seed, TAG_GUEST, GUEST_PATTERN_OFFSET, half)
        actual = region[GUEST_PATTERN_OFFSET:half]
        if actual != expected:
            return fail(f"the guest's pattern in the host's file differs: {first_difference(actual, expected, 64)}", vm)
        print(f"host read the guest's {half - GUEST_PATTERN_OFFSET} bytes from {shm_path} while the VM ran")
        region[half:REGION_SIZE] = probe_pattern(seed, TAG_HOST_ANSWER, half, REGION_SIZE)
        struct.pack_into("<I", region, HOST_STATE_OFFSET, 1)

        result = vm.wait()
        print(f"--- probe output ---\n{result.stdout}{result.stderr}---")
        if result.status != 0:
            return fail(f"the probe in the VM failed ({result.describe()})", vm)
        if "device " not in result.stdout or "vendor 0x1af4 device 0x1110" not in result.stdout:
            return fail("the probe did not report the ivshmem device", vm)
        wall_s = time.monotonic() - started
        print(f"vm smoke: boot {result.boot_s:.1f} s, guest pattern seen {seen_after_s:.1f} s after start, "
              f"VM {result.wall_s:.1f} s, test wall {wall_s:.1f} s")
        return 0
    except (vm_run.VmError, vm_run.vm_assets.AssetError) as error:
        return fail(str(error))
    finally:
        vm.cleanup()
        region.close()
        shm_path.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
