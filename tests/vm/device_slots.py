# SPDX-License-Identifier: MIT
"""Reads the shared-memory device's header and slot table from its backing file, as the
host test sees them (transport/include/neptune/transport/device_layout.h is the layout)."""

import mmap
import struct

DEVICE_MAGIC = 0x4454504E  # "NPTD"
# DeviceHeader: state on its own line (offset 64), then the doorbell's peer and the heartbeat.
HEADER_DOORBELL_PEER = 68
HEADER_DOORBELL_RINGS = 80
SLOT_FREE = 0
SLOT_ACTIVE = 2
# DeviceSlot: line 0 guest-written, line 1 (offset 64) host-written.
SLOT_CLAIM = 0
SLOT_GUEST_HEARTBEAT = 16  # the guest's lease, bumped every 100 ms while it lives
SLOT_STATE = 64
SLOT_GENERATION = 68


class DeviceView:
    def __init__(self, path):
        self._file = open(path, "rb")
        self._map = mmap.mmap(self._file.fileno(), 0, prot=mmap.PROT_READ)

    def close(self):
        self._map.close()
        self._file.close()

    def _u32(self, offset):
        return struct.unpack_from("<I", self._map, offset)[0]

    def _u64(self, offset):
        return struct.unpack_from("<Q", self._map, offset)[0]

    def header(self):
        magic = self._u32(0)
        if magic != DEVICE_MAGIC:
            raise ValueError(f"the device file has no Neptune header (magic 0x{magic:08x})")
        return {
            "slot_count": self._u32(16),
            "slot_stride": self._u32(20),
            "slots_offset": self._u64(24),
            "doorbell_peer": self._u32(HEADER_DOORBELL_PEER),
            "doorbell_rings": self._u64(HEADER_DOORBELL_RINGS),
        }

    def slots(self):
        header = self.header()
        result = []
        for index in range(header["slot_count"]):
            base = header["slots_offset"] + index * header["slot_stride"]
            result.append({
                "index": index,
                "claim": self._u32(base + SLOT_CLAIM),
                "heartbeat": self._u64(base + SLOT_GUEST_HEARTBEAT),
                "state": self._u32(base + SLOT_STATE),
                "generation": self._u32(base + SLOT_GENERATION),
            })
        return result

    def active_slots(self):
        return [slot for slot in self.slots() if slot["state"] == SLOT_ACTIVE]
