// SPDX-License-Identifier: MIT
#pragma once

#include <cstring>
#include <vector>

#include "device_chunks.h"
#include "neptune/host.h"
#include "neptune/transport/device_layout.h"
#include "neptune/transport/layout.h"

// The bulk regions a device context's guest gets after connect (transport/README.md),
// allocated inside the shared-memory device from the chunks its worker may take for its
// slot. The grant says "in the device"; the slot's region table (host-written, never read
// back) says where, and the guest maps base + offset of the device it already maps.
namespace npt::server {

class DeviceRegions {
public:
  DeviceRegions(uint8_t* device_base, DeviceChunks chunks, uint32_t slot, transport::device::DeviceSlot* slot_memory)
  : m_base(device_base), m_chunks(chunks), m_slot(slot), m_slot_memory(slot_memory) {}
  ~DeviceRegions() {
    for (const Region& r : m_regions)
      m_chunks.free(m_slot, r.offset, r.size);
  }
  DeviceRegions(const DeviceRegions&) = delete;
  DeviceRegions& operator=(const DeviceRegions&) = delete;

  npt_host_region_provider provider() {
    npt_host_region_provider p = {};
    p.user = this;
    p.create = create;
    p.share = share;
    p.release = release;
    return p;
  }

private:
  struct Region {
    uint32_t id;
    uint64_t offset;
    uint64_t size;
  };

  static void* create(void* self, uint32_t id, uint64_t size) {
    auto* me = static_cast<DeviceRegions*>(self);
    if (id == 0 || id >= transport::kMaxBulkRegions || me->find(id))
      return nullptr;
    const uint64_t offset = me->m_chunks.allocate(me->m_slot, size);
    if (!offset)
      return nullptr;
    uint8_t* base = me->m_base + offset;
    std::memset(base, 0, size_t(size));
    me->m_regions.push_back({ id, offset, size });
    // Listed before the grant is published (the reply's release store orders it).
    transport::device::SlotRegion& entry = me->m_slot_memory->regions[id];
    transport::store_release(entry.size, size);
    transport::store_release(entry.offset, offset);
    return base;
  }

  static int share(void* self, uint32_t id, uint32_t* how, char* name, size_t name_size) {
    auto* me = static_cast<DeviceRegions*>(self);
    if (!me->find(id) || name_size == 0)
      return -1;
    name[0] = 0;
    *how = NPT_HOST_REGION_IN_DEVICE;
    return 0;
  }

  static void release(void* self, uint32_t id) {
    auto* me = static_cast<DeviceRegions*>(self);
    for (auto it = me->m_regions.begin(); it != me->m_regions.end(); ++it) {
      if (it->id != id)
        continue;
      transport::device::SlotRegion& entry = me->m_slot_memory->regions[id];
      transport::store_release(entry.offset, uint64_t(0));
      transport::store_release(entry.size, uint64_t(0));
      me->m_chunks.free(me->m_slot, it->offset, it->size);
      me->m_regions.erase(it);
      return;
    }
  }

  const Region* find(uint32_t id) const {
    for (const Region& r : m_regions)
      if (r.id == id)
        return &r;
    return nullptr;
  }

  uint8_t* m_base;
  DeviceChunks m_chunks;
  uint32_t m_slot;
  transport::device::DeviceSlot* m_slot_memory;
  std::vector<Region> m_regions;
};

}
