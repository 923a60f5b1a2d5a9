// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

// A mapping of shared memory: a memfd or /dev/shm file on Linux; a file mapping on
// Windows, including a Linux /dev/shm file reached from Wine through its Z: path.
namespace npt::transport {

class SharedMapping {
public:
  SharedMapping() = default;
  ~SharedMapping() { unmap(); }
  SharedMapping(SharedMapping&& other) noexcept { *this = static_cast<SharedMapping&&>(other); }
  SharedMapping& operator=(SharedMapping&& other) noexcept;
  SharedMapping(const SharedMapping&) = delete;
  SharedMapping& operator=(const SharedMapping&) = delete;

#if !defined(_WIN32)
  // Maps size bytes of fd (the fd is not kept).
  static SharedMapping map_fd(int fd, size_t size);
  // Creates an anonymous memfd of size bytes; returns -1 on failure.
  static int create_memfd(const char* name, size_t size);
  // Creates /dev/shm/<name> (mode 0600) of size bytes; returns the fd or -1.
  static int create_shm_file(const char* name, size_t size);
#endif
  // Opens an existing file by path (Windows: CreateFile+CreateFileMapping; Linux: open)
  // or, on Windows, a named mapping "Local\\..." / "Global\\...".
  static SharedMapping map_path(const char* path, size_t size);
  // A whole existing file, as large as it is (a shared-memory device: a PCI BAR's sysfs
  // resource file, or a file standing in for it).
  static SharedMapping map_file(const char* path);

  uint8_t* data() const { return m_base; }
  size_t size() const { return m_size; }
  bool valid() const { return m_base != nullptr; }
  void unmap();

private:
  uint8_t* m_base = nullptr;
  size_t m_size = 0;
#if defined(_WIN32)
  void* m_mapping = nullptr;
#endif
};

}
