// SPDX-License-Identifier: MIT
#include "neptune/transport/shared_memory.h"

#include <cstdio>
#include <cstring>

#if defined(_WIN32)
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace npt::transport {

SharedMapping& SharedMapping::operator=(SharedMapping&& other) noexcept {
  if (this != &other) {
    unmap();
    m_base = other.m_base;
    m_size = other.m_size;
    other.m_base = nullptr;
    other.m_size = 0;
#if defined(_WIN32)
    m_mapping = other.m_mapping;
    other.m_mapping = nullptr;
#endif
  }
  return *this;
}

#if !defined(_WIN32)

SharedMapping SharedMapping::map_fd(int fd, size_t size) {
  SharedMapping m;
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    return m;
  m.m_base = static_cast<uint8_t*>(p);
  m.m_size = size;
  return m;
}

int SharedMapping::create_memfd(const char* name, size_t size) {
  int fd = ::memfd_create(name, MFD_CLOEXEC);
  if (fd < 0)
    return -1;
  if (::ftruncate(fd, off_t(size)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int SharedMapping::create_shm_file(const char* name, size_t size) {
  char path[256];
  if (std::snprintf(path, sizeof(path), "/dev/shm/%s", name) >= int(sizeof(path)))
    return -1;
  int fd = ::open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  if (::ftruncate(fd, off_t(size)) != 0) {
    ::close(fd);
    ::unlink(path);
    return -1;
  }
  return fd;
}

SharedMapping SharedMapping::map_path(const char* path, size_t size) {
  int fd = ::open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return SharedMapping();
  SharedMapping m = map_fd(fd, size);
  ::close(fd);
  return m;
}

SharedMapping SharedMapping::map_file(const char* path) {
  int fd = ::open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return SharedMapping();
  struct stat st = {};
  SharedMapping m;
  if (::fstat(fd, &st) == 0 && st.st_size > 0)
    m = map_fd(fd, size_t(st.st_size));
  ::close(fd);
  return m;
}

void SharedMapping::unmap() {
  if (m_base)
    ::munmap(m_base, m_size);
  m_base = nullptr;
  m_size = 0;
}

#else

SharedMapping SharedMapping::map_path(const char* path, size_t size) {
  SharedMapping m;
  HANDLE mapping = nullptr;
  if (!std::strncmp(path, "Local\\", 6) || !std::strncmp(path, "Global\\", 7)) {
    mapping = OpenFileMappingA(FILE_MAP_ALL_ACCESS, FALSE, path);
  } else {
    HANDLE file = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
      nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
      return m;
    mapping = CreateFileMappingA(file, nullptr, PAGE_READWRITE, DWORD(uint64_t(size) >> 32), DWORD(size), nullptr);
    // The mapping keeps the file referenced.
    CloseHandle(file);
  }
  if (!mapping)
    return m;
  void* p = MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, size);
  if (!p) {
    CloseHandle(mapping);
    return m;
  }
  m.m_base = static_cast<uint8_t*>(p);
  m.m_size = size;
  m.m_mapping = mapping;
  return m;
}

SharedMapping SharedMapping::map_file(const char* path) {
  SharedMapping m;
  HANDLE file = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                            nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE)
    return m;
  LARGE_INTEGER size = {};
  if (!GetFileSizeEx(file, &size) || size.QuadPart <= 0) {
    CloseHandle(file);
    return m;
  }
  HANDLE mapping = CreateFileMappingA(file, nullptr, PAGE_READWRITE, 0, 0, nullptr);
  CloseHandle(file);
  void* p = mapping ? MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, 0) : nullptr;
  if (!p) {
    if (mapping)
      CloseHandle(mapping);
    return m;
  }
  m.m_base = static_cast<uint8_t*>(p);
  m.m_size = size_t(size.QuadPart);
  m.m_mapping = mapping;
  return m;
}

void SharedMapping::unmap() {
  if (m_base)
    UnmapViewOfFile(m_base);
  if (m_mapping)
    CloseHandle(HANDLE(m_mapping));
  m_base = nullptr;
  m_size = 0;
  m_mapping = nullptr;
}

#endif

}
