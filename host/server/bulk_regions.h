// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "neptune/host.h"

// The memory of the bulk regions a worker's guest gets after connect (transport/README.md,
// "Bulk regions added after connect"). The transport library chooses the ids and keeps
// the total within the context's bulk limit; this creates the memory and tells the guest
// how to map it:
//  * native guests that take descriptors: a memfd sent on the guest's socket;
//  * PE guests of the native server: a /dev/shm file (0600) the guest maps through Wine's
//    Z: drive and acknowledges, then removed;
//  * the Windows server: a named file mapping "<context mapping>-r<id>" (refused if the
//    name exists already: nobody else may have placed memory under it).
// Everything is released when the object goes, after the context.
namespace npt::server {

class GuestLink;

class BulkRegions {
public:
  // descriptors: the link that carries them (native guests), else null. prefix: the
  // context's own shared-memory name (/dev/shm/neptune-PID-N, Local\neptune-PID-N).
  BulkRegions(GuestLink* descriptors, std::string prefix);
  ~BulkRegions();
  BulkRegions(const BulkRegions&) = delete;
  BulkRegions& operator=(const BulkRegions&) = delete;

  npt_host_region_provider provider();

private:
  struct Region {
    uint32_t id = 0;
    uint8_t* base = nullptr;
    uint64_t size = 0;
    int fd = -1;             // memfd (descriptor guests)
    std::string name;        // file path or mapping name
    bool file_present = false;
    void* mapping = nullptr; // Windows mapping handle
  };
  static void* create(void* self, uint32_t id, uint64_t size);
  static int share(void* self, uint32_t id, uint32_t* how, char* name, size_t name_size);
  static void mapped(void* self, uint32_t id);
  static void released(void* self, uint32_t id);
  Region* find(uint32_t id);
  static void release(Region& region);

  GuestLink* m_descriptors;
  std::string m_prefix;
  std::vector<Region> m_regions;
};

}
