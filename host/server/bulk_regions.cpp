// SPDX-License-Identifier: MIT
#include "bulk_regions.h"

#include <cstdio>
#include <cstring>

#if defined(_WIN32)
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "neptune/transport/layout.h"
#include "neptune/transport/shared_memory.h"
#include "worker.h"

namespace npt::server {

BulkRegions::BulkRegions(GuestLink* descriptors, std::string prefix)
: m_descriptors(descriptors), m_prefix(std::move(prefix)) {}

BulkRegions::~BulkRegions() {
  for (Region& r : m_regions)
    release(r);
}

npt_host_region_provider BulkRegions::provider() {
  npt_host_region_provider p = {};
  p.user = this;
  p.create = create;
  p.share = share;
  p.mapped = mapped;
  p.release = released;
  return p;
}

BulkRegions::Region* BulkRegions::find(uint32_t id) {
  for (Region& r : m_regions)
    if (r.id == id)
      return &r;
  return nullptr;
}

void BulkRegions::release(Region& r) {
#if defined(_WIN32)
  if (r.base)
    UnmapViewOfFile(r.base);
  if (r.mapping)
    CloseHandle(HANDLE(r.mapping));
#else
  if (r.base)
    ::munmap(r.base, size_t(r.size));
  if (r.fd >= 0)
    ::close(r.fd);
  if (r.file_present)
    ::unlink(r.name.c_str());
#endif
  r = Region();
}

void* BulkRegions::create(void* self, uint32_t id, uint64_t size) {
  auto* me = static_cast<BulkRegions*>(self);
  if (me->find(id))
    return nullptr;
  Region r;
  r.id = id;
  r.size = size;
#if defined(_WIN32)
  r.name = me->m_prefix + "-r" + std::to_string(id);
  HANDLE mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, DWORD(size >> 32), DWORD(size),
                                      r.name.c_str());
  if (!mapping)
    return nullptr;
  if (GetLastError() == ERROR_ALREADY_EXISTS) {
    CloseHandle(mapping);
    return nullptr;
  }
  r.mapping = mapping;
  r.base = static_cast<uint8_t*>(MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, size_t(size)));
#else
  int fd = -1;
  if (me->m_descriptors) {
    fd = transport::SharedMapping::create_memfd("neptune-bulk-region", size_t(size));
  } else {
    r.name = me->m_prefix + "-r" + std::to_string(id);
    fd = ::open(r.name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    r.file_present = fd >= 0;
    if (fd >= 0 && ::ftruncate(fd, off_t(size)) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  if (fd >= 0) {
    void* p = ::mmap(nullptr, size_t(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    r.base = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
    if (me->m_descriptors)
      r.fd = fd;   // kept: sent with every grant of this region
    else
      ::close(fd);
  }
#endif
  if (!r.base) {
    release(r);
    return nullptr;
  }
  me->m_regions.push_back(r);
  return r.base;
}

int BulkRegions::share(void* self, uint32_t id, uint32_t* how, char* name, size_t name_size) {
  auto* me = static_cast<BulkRegions*>(self);
  Region* r = me->find(id);
  if (!r)
    return -1;
#if !defined(_WIN32)
  if (me->m_descriptors) {
    // Sent before the grant is published: the guest reads it once it has the answer.
    transport::RegionFdMessage message = { transport::kRegionFdMagic, id };
    if (!me->m_descriptors->send_descriptor(&message, sizeof(message), r->fd))
      return -1;
    *how = NPT_HOST_REGION_BY_DESCRIPTOR;
    return 0;
  }
  if (!r->file_present)
    return -1;   // already mapped and removed: nobody can open it again
#endif
  if (r->name.size() >= name_size)
    return -1;
  std::snprintf(name, name_size, "%s", r->name.c_str());
  *how = NPT_HOST_REGION_BY_NAME;
  return 0;
}

// An outgrown reply region: unmapped, its memfd closed, its file (if still there) removed.
void BulkRegions::released(void* self, uint32_t id) {
  auto* me = static_cast<BulkRegions*>(self);
  for (auto it = me->m_regions.begin(); it != me->m_regions.end(); ++it) {
    if (it->id == id) {
      release(*it);
      me->m_regions.erase(it);
      return;
    }
  }
}

void BulkRegions::mapped(void* self, uint32_t id) {
  auto* me = static_cast<BulkRegions*>(self);
  Region* r = me->find(id);
#if !defined(_WIN32)
  if (r && r->file_present) {
    ::unlink(r->name.c_str());
    r->file_present = false;
  }
#else
  (void)r;
#endif
}

}
