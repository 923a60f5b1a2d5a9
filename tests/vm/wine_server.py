# SPDX-License-Identifier: MIT
"""neptune-server.exe serving a shared-memory device, under the Wine environment of scripts/test.

The native tests get that environment (WINEPREFIX, DISPLAY, a running wineserver) from
scripts/test, and the Windows build directory from NPT_WIN_BUILD_DIR.
"""

import os
import signal
import subprocess
import time
from pathlib import Path

READY_LINE = "neptune-server: serving the device"
START_TIMEOUT_S = 120


class ServerError(RuntimeError):
    pass


def server_exe(win_build_dir):
    return Path(win_build_dir) / "host" / "server" / "neptune-server.exe"


class WineDeviceServer:
    """Use as a context manager: the server (and with it its workers) is stopped on exit."""

    def __init__(self, exe, device_file, size, log_path, extra_args=()):
        self.exe = Path(exe)
        self.device_file = Path(device_file)
        self.size = size
        self.log_path = Path(log_path)
        self.extra_args = list(extra_args)
        self._process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    @property
    def pid(self):
        return self._process.pid

    def start(self):
        env = dict(os.environ)
        env.setdefault("WINEDEBUG", "-all")
        # Under Wine the server reaches the Unix file through drive Z:.
        command = ["wine", str(self.exe), "--vm-shm", f"Z:{self.device_file}", "--size", str(self.size),
                   "--verbose", *self.extra_args]
        with open(self.log_path, "wb") as log:
            self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                             env=env, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while READY_LINE not in self.log():
            if self._process.poll() is not None:
                raise ServerError(f"neptune-server.exe exited with {self._process.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                raise ServerError(f"neptune-server.exe did not serve the device in {START_TIMEOUT_S} s:\n{self.log()}")
            time.sleep(0.1)
        return self

    def running(self):
        return self._process is not None and self._process.poll() is None

    def log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def worker_pids(self, slot):
        """Linux ids of the worker processes serving a device slot of this server: Wine starts
        processes detached from their parent, so they are found by their command line
        (`--worker ... --device SLOT,...`) and the device file in their mappings."""
        device = f"--device\0{slot},".encode()
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command_line = (entry / "cmdline").read_bytes()
                if b"--worker\0" not in command_line or device not in command_line:
                    continue
                if f" {self.device_file}\n" in (entry / "maps").read_text(errors="replace"):
                    pids.append(int(entry.name))
            except OSError:
                continue
        return pids

    def stop(self):
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        # Its workers end with it (a job object); anything left in its session goes too.
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
