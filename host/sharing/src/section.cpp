// SPDX-License-Identifier: MIT
// Named shared-memory sections: Windows file mappings in the Local\ namespace (the
// Windows server, also under Wine, where every process of one wineserver sees them), or
// /dev/shm files natively.
#include "npt/sharing/registry.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <chrono>
#include <thread>

namespace npt::sharing {

Section::~Section() { close(); }

Section::Section(Section&& other) noexcept { *this = static_cast<Section&&>(other); }

Section& Section::operator=(Section&& other) noexcept {
  if (this != &other) {
    close();
    m_data = other.m_data;
    m_size = other.m_size;
    m_handle = other.m_handle;
    m_fd = other.m_fd;
    other.m_data = nullptr;
    other.m_size = 0;
    other.m_handle = nullptr;
    other.m_fd = -1;
  }
  return *this;
}

#if defined(_WIN32)

namespace {

uint8_t* mapView(HANDLE mapping, uint64_t size) {
  return static_cast<uint8_t*>(MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, SIZE_T(size)));
}

}  // namespace

Section Section::create(const std::string& name, uint64_t size, bool* created) {
  Section section;
  if (created) *created = false;
  HANDLE mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, DWORD(size >> 32),
                                      DWORD(size & 0xffffffffu), name.c_str());
  if (!mapping) return section;
  const bool existed = GetLastError() == ERROR_ALREADY_EXISTS;
  uint8_t* data = mapView(mapping, size);
  if (!data) {
    CloseHandle(mapping);
    return section;
  }
  // An existing mapping smaller than asked for would fault on access.
  MEMORY_BASIC_INFORMATION info{};
  if (existed && (!VirtualQuery(data, &info, sizeof(info)) || info.RegionSize < size)) {
    UnmapViewOfFile(data);
    CloseHandle(mapping);
    return section;
  }
  if (created) *created = !existed;
  section.m_data = data;
  section.m_size = size;
  section.m_handle = mapping;
  return section;
}

Section Section::open(const std::string& name, uint64_t size) {
  Section section;
  HANDLE mapping = OpenFileMappingA(FILE_MAP_ALL_ACCESS, FALSE, name.c_str());
  if (!mapping) return section;
  uint8_t* data = mapView(mapping, size);
  MEMORY_BASIC_INFORMATION info{};
  if (!data || !VirtualQuery(data, &info, sizeof(info)) || info.RegionSize < size) {
    if (data) UnmapViewOfFile(data);
    CloseHandle(mapping);
    return section;
  }
  section.m_data = data;
  section.m_size = size;
  section.m_handle = mapping;
  return section;
}

void Section::unlinkName(const std::string&) {}

// A Windows section vanishes with its last handle.
bool Section::removeIfUnused(const std::string&, int64_t) { return false; }

void Section::close() {
  if (m_data) UnmapViewOfFile(m_data);
  if (m_handle) CloseHandle(static_cast<HANDLE>(m_handle));
  m_data = nullptr;
  m_handle = nullptr;
  m_size = 0;
}

#else

namespace {

std::string shmPath(const std::string& name) { return "/dev/shm/" + name; }

}  // namespace

Section Section::create(const std::string& name, uint64_t size, bool* created) {
  Section section;
  if (created) *created = false;
  const std::string path = shmPath(name);
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool made = fd >= 0;
  if (made) {
    if (::ftruncate(fd, off_t(size)) != 0) {
      ::close(fd);
      ::unlink(path.c_str());
      return section;
    }
  } else if (errno == EEXIST) {
    fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return section;
    // The creator sizes the file right after creating it.
    struct stat st{};
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (::fstat(fd, &st) == 0 && uint64_t(st.st_size) < size && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    if (uint64_t(st.st_size) < size) {
      ::close(fd);
      return section;
    }
  } else {
    return section;
  }
  void* data = ::mmap(nullptr, size_t(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    ::close(fd);
    return section;
  }
  // In use while this lock is held (removeIfUnused); the kernel drops it with the process.
  ::flock(fd, LOCK_SH);
  if (created) *created = made;
  section.m_data = static_cast<uint8_t*>(data);
  section.m_size = size;
  section.m_fd = fd;
  return section;
}

Section Section::open(const std::string& name, uint64_t size) {
  Section section;
  int fd = ::open(shmPath(name).c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return section;
  struct stat st{};
  if (::fstat(fd, &st) != 0 || uint64_t(st.st_size) < size) {
    ::close(fd);
    return section;
  }
  void* data = ::mmap(nullptr, size_t(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    ::close(fd);
    return section;
  }
  ::flock(fd, LOCK_SH);
  section.m_data = static_cast<uint8_t*>(data);
  section.m_size = size;
  section.m_fd = fd;
  return section;
}

void Section::unlinkName(const std::string& name) { ::unlink(shmPath(name).c_str()); }

bool Section::removeIfUnused(const std::string& name, int64_t minAgeSeconds) {
  const std::string path = shmPath(name);
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  bool removed = false;
  struct stat st{};
  // A file sized a moment ago may not be locked by its creator yet: only old files.
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && int64_t(std::time(nullptr)) - int64_t(st.st_mtime) >= minAgeSeconds &&
      ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
    // Nobody holds it; an opener that comes now finds the name gone and creates anew.
    removed = ::unlink(path.c_str()) == 0;
  }
  ::close(fd);
  return removed;
}

void Section::close() {
  if (m_data) ::munmap(m_data, size_t(m_size));
  if (m_fd >= 0) ::close(m_fd);
  m_data = nullptr;
  m_size = 0;
  m_fd = -1;
}

#endif

}  // namespace npt::sharing
