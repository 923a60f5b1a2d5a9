# SPDX-License-Identifier: MIT
"""The VM's boot files: Debian's stock kernel and busybox-static, and an initramfs made of them.

Packages are fetched with apt-get download into a cache outside the clone
(NPT_VM_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/neptune/vm) and reused. The kernel
package is the one Debian's linux-image-amd64 metapackage currently depends on; when
apt knows no candidate (no package lists), the newest kernel already in the cache is
used, and only an empty cache makes apt fetch lists into a private state directory.
Nothing is written to /etc/apt or the system's apt state.
"""

import fcntl
import lzma
import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

APT_TIMEOUT_S = 300
KERNEL_METAPACKAGE = "linux-image-amd64"
BUSYBOX_PACKAGE = "busybox-static"
INIT_SCRIPT = Path(__file__).with_name("vm_init.sh")

# What the init script needs from the kernel that Debian builds as modules: the
# virtio PCI transport and 9p over it. Their dependencies are added from .modinfo.
GUEST_MODULES = ["virtio_pci", "9pnet_virtio", "9p"]


class AssetError(RuntimeError):
    pass


def cache_dir():
    explicit = os.environ.get("NPT_VM_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "neptune" / "vm"


def _run(argv, cwd=None):
    try:
        result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=APT_TIMEOUT_S)
    except subprocess.TimeoutExpired as error:
        raise AssetError(f"{argv[0]} timed out after {APT_TIMEOUT_S} s: {' '.join(argv)}") from error
    return result


class _Apt:
    """apt-get/apt-cache with the system's state, or a private one under the cache."""

    def __init__(self, cache):
        self.options = []
        self.private_root = cache / "apt"
        # apt drops to the _apt user for downloads; that user cannot write into a
        # private cache, so downloads run as whoever runs this.
        if os.geteuid() == 0:
            self.options += ["-o", "APT::Sandbox::User=root"]

    def use_private_state(self):
        lists = self.private_root / "lists"
        archives = self.private_root / "archives"
        (lists / "partial").mkdir(parents=True, exist_ok=True)
        (archives / "partial").mkdir(parents=True, exist_ok=True)
        self.options += [
            "-o", f"Dir::State::Lists={lists}",
            "-o", f"Dir::Cache={self.private_root}",
            "-o", f"Dir::Cache::archives={archives}",
            "-o", f"Dir::State::status={self.private_root / 'status'}",
            "-o", "Debug::NoLocking=true",
        ]
        (self.private_root / "status").touch()
        result = _run(["apt-get", *self.options, "update", "-q"])
        if result.returncode != 0:
            raise AssetError(f"apt-get update (private state) failed:\n{result.stderr}")

    def candidate_depends(self, package):
        result = _run(["apt-cache", *self.options, "show", "--no-all-versions", package])
        if result.returncode != 0:
            return None
        match = re.search(r"^Depends:\s*(\S+)", result.stdout, re.MULTILINE)
        return match.group(1) if match else None

    def download(self, package, directory):
        result = _run(["apt-get", *self.options, "download", "-q", package], cwd=directory)
        debs = sorted(Path(directory).glob(f"{package}_*.deb"))
        if result.returncode != 0 or not debs:
            raise AssetError(f"apt-get download {package} failed:\n{result.stderr}")
        return debs[-1]


def _unpack_deb(deb, target):
    target.mkdir(parents=True, exist_ok=True)
    result = _run(["dpkg-deb", "-x", str(deb), str(target)])
    if result.returncode != 0:
        raise AssetError(f"dpkg-deb -x {deb} failed:\n{result.stderr}")


def _modinfo_depends(module_path):
    """The depends= entry of a kernel module's .modinfo section (ELF64 little-endian)."""
    data = module_path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise AssetError(f"{module_path} is not an ELF64 module")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def section(index):
        name, _type, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + index * shentsize)
        return name, offset, size

    _, strtab_offset, _ = section(shstrndx)
    for index in range(shnum):
        name, offset, size = section(index)
        end = data.index(b"\0", strtab_offset + name)
        if data[strtab_offset + name:end] == b".modinfo":
            for entry in data[offset:offset + size].split(b"\0"):
                if entry.startswith(b"depends="):
                    value = entry[len(b"depends="):].decode()
                    return [d for d in value.split(",") if d]
            return []
    raise AssetError(f"{module_path} has no .modinfo section")


def _module_load_order(modules_root, wanted):
    """Modules in an order insmod accepts: every module after its dependencies."""
    by_name = {}
    for path in modules_root.rglob("*.ko"):
        by_name[path.stem.replace("-", "_")] = path
    order, visiting = [], set()

    def visit(name):
        key = name.replace("-", "_")
        if key not in by_name:
            raise AssetError(f"kernel module {name} is not in {modules_root}")
        path = by_name[key]
        if path in order:
            return
        if key in visiting:
            raise AssetError(f"kernel module dependency cycle at {name}")
        visiting.add(key)
        for dependency in _modinfo_depends(path):
            visit(dependency)
        order.append(path)

    for name in wanted:
        visit(name)
    return order


class _Cpio:
    """A cpio archive in the kernel's initramfs format (newc)."""

    def __init__(self):
        self.chunks = []
        self.inode = 1

    def _entry(self, name, mode, data=b"", device=(0, 0)):
        header = "070701" + "".join(f"{value:08x}" for value in (
            self.inode, mode, 0, 0, 1, 0, len(data), 0, 0, device[0], device[1], len(name) + 1, 0))
        self.inode += 1
        record = header.encode() + name.encode() + b"\0"
        record += b"\0" * (-len(record) % 4)
        record += data + b"\0" * (-len(data) % 4)
        self.chunks.append(record)

    def directory(self, name):
        self._entry(name, 0o040755)

    def file(self, name, data, executable=False):
        self._entry(name, 0o100755 if executable else 0o100644, data)

    def character_device(self, name, major, minor):
        self._entry(name, 0o020600, device=(major, minor))

    def bytes(self):
        self._entry("TRAILER!!!", 0)
        return b"".join(self.chunks)


class VmAssets:
    def __init__(self, kernel, initramfs, kernel_release):
        self.kernel = kernel
        self.initramfs = initramfs
        self.kernel_release = kernel_release


def _uncompressed_kernel(bzimage, config):
    """The ELF kernel inside a bzImage, when QEMU can boot it directly (PVH entry).

    Under TCG the kernel's own decompressor takes about 6 s of the boot; QEMU loads an
    ELF kernel with a PVH entry note as it is. None when the kernel cannot boot so.
    """
    if not re.search(r"^CONFIG_PVH=y$", config, re.MULTILINE):
        return None
    if bzimage[0x202:0x206] != b"HdrS":
        return None
    setup_sectors = bzimage[0x1F1] or 4
    payload_offset, = struct.unpack_from("<I", bzimage, 0x248)
    payload = bzimage[(setup_sectors + 1) * 512 + payload_offset:]
    # Debian compresses its kernels with xz; anything else boots through the decompressor.
    if not payload.startswith(b"\xfd7zXZ\0"):
        return None
    elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
    return elf if elf.startswith(b"\x7fELF") else None


def _kernel_release(package_name):
    prefix = "linux-image-"
    if not package_name.startswith(prefix):
        raise AssetError(f"unexpected kernel package name {package_name}")
    return package_name[len(prefix):]


def _fetched(release_dir):
    """Whether a release's kernel, modules and busybox are in the cache."""
    return (release_dir / "fetched").exists()


def _newest_cached_release(cache):
    fetched = [p.parent for p in cache.glob("*/fetched")]
    return max(fetched, key=lambda p: p.stat().st_mtime).name if fetched else None


def prepare(log=print):
    """Kernel and initramfs for the current Debian kernel, fetched once and reused."""
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    # Tests of the suite run in parallel: one fetches, the others wait and reuse.
    with open(cache / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        release = _current_release(cache, log)
        release_dir = cache / release
        return VmAssets(release_dir / "kernel", _initramfs(release_dir, log), release)


def _current_release(cache, log):
    """The release linux-image-amd64 depends on now, fetched into the cache; when apt cannot
    say or fetch it, the newest release already there."""
    apt = _Apt(cache)
    cached = _newest_cached_release(cache)
    kernel_package = apt.candidate_depends(KERNEL_METAPACKAGE)
    if kernel_package is None:
        if cached is not None:
            log(f"apt has no {KERNEL_METAPACKAGE} candidate; using the cached kernel {cached}")
            return cached
        log("apt has no package lists; fetching them into a private apt state under the cache")
        apt.use_private_state()
        kernel_package = apt.candidate_depends(KERNEL_METAPACKAGE)
        if kernel_package is None:
            raise AssetError(f"apt knows no {KERNEL_METAPACKAGE} candidate")
    release = _kernel_release(kernel_package)
    if _fetched(cache / release):
        return release
    try:
        _fetch(apt, kernel_package, release, cache / release, log)
    except AssetError as error:
        if cached is None:
            raise
        log(f"{error}\nusing the cached kernel {cached} instead")
        return cached
    return release


def _fetch(apt, kernel_package, release, release_dir, log):
    log(f"fetching {kernel_package} and {BUSYBOX_PACKAGE} into {release_dir}")
    with tempfile.TemporaryDirectory(dir=release_dir.parent) as scratch:
        scratch = Path(scratch)
        kernel_deb = apt.download(kernel_package, scratch)
        busybox_deb = apt.download(BUSYBOX_PACKAGE, scratch)
        _unpack_deb(kernel_deb, scratch / "kernel")
        _unpack_deb(busybox_deb, scratch / "busybox")
        modules = _module_load_order(scratch / "kernel" / "lib" / "modules" / release, GUEST_MODULES)

        shutil.rmtree(release_dir, ignore_errors=True)
        (release_dir / "modules").mkdir(parents=True)
        for index, module in enumerate(modules):
            # The numeric prefix is the load order the init script follows.
            shutil.copyfile(module, release_dir / "modules" / f"{index:02d}-{module.name}")
        shutil.copyfile(scratch / "busybox" / "bin" / "busybox", release_dir / "busybox")
        bzimage = (scratch / "kernel" / "boot" / f"vmlinuz-{release}").read_bytes()
        config = (scratch / "kernel" / "boot" / f"config-{release}").read_text(errors="replace")
        (release_dir / "kernel").write_bytes(_uncompressed_kernel(bzimage, config) or bzimage)
        (release_dir / "fetched").touch()
    log(f"kernel {release}: modules {', '.join(m.stem for m in modules)}")


def _initramfs(release_dir, log):
    """The initramfs of a fetched release, rebuilt whenever the init script changed."""
    initramfs = release_dir / "initramfs.cpio"
    stamp = release_dir / "init.sh"
    if initramfs.exists() and stamp.exists() and stamp.read_bytes() == INIT_SCRIPT.read_bytes():
        return initramfs
    archive = _Cpio()
    for directory in ("bin", "dev", "proc", "sys", "host", "results", "modules"):
        archive.directory(directory)
    # The kernel opens the initial console before init runs; devtmpfs comes later.
    archive.character_device("dev/console", 5, 1)
    archive.file("bin/busybox", (release_dir / "busybox").read_bytes(), executable=True)
    archive.file("init", INIT_SCRIPT.read_bytes(), executable=True)
    for module in sorted((release_dir / "modules").iterdir()):
        archive.file(f"modules/{module.name}", module.read_bytes())
    staging = release_dir / "initramfs.cpio.new"
    staging.write_bytes(archive.bytes())
    os.replace(staging, initramfs)
    shutil.copyfile(INIT_SCRIPT, stamp)
    log(f"built {initramfs}")
    return initramfs


if __name__ == "__main__":
    assets = prepare()
    print(f"kernel {assets.kernel}\ninitramfs {assets.initramfs}")
