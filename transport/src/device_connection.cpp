// SPDX-License-Identifier: MIT
// The guest end of a shared-memory device (QEMU ivshmem): claim a slot, hand the Hello
// over through its mailbox, keep the lease, attach to the context's memory inside the
// device. README.md, "Shared-memory device".
#include "neptune/transport/guest_connection.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <condition_variable>
#include <thread>
#include <utility>

#if defined(_WIN32)
#include <windows.h>
#else
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#endif

#include "neptune/transport/device_layout.h"
#include "neptune/transport/handshake.h"
#include "neptune/transport/ivshmem_driver.h"
#include "neptune/transport/wait.h"

namespace npt::transport {

using namespace npt::transport::device;

namespace {

int env_int(const char* name, int fallback, int max) {
  char value[16] = {};
#if defined(_WIN32)
  if (!GetEnvironmentVariableA(name, value, sizeof(value)))
    value[0] = 0;
#else
  if (const char* env = std::getenv(name))
    std::snprintf(value, sizeof(value), "%s", env);
#endif
  char* end = nullptr;
  const unsigned long v = std::strtoul(value, &end, 10);
  if (end == value || *end || v == 0 || v > unsigned(max))
    return fallback;
  return int(v);
}

// Polls a word with growing pauses: the guest cannot sleep on the host's writes (a
// futex does not reach across a VM, nor onto a PCI BAR's mapping).
class Backoff {
public:
  void pause() {
    if (m_round < 64) {
      cpu_relax();
    } else {
      sleep_us(m_us);
      m_us = m_us * 2 > 1000 ? 1000 : m_us * 2;
    }
    m_round++;
  }

private:
  uint32_t m_round = 0;
  uint32_t m_us = 20;
};

uint32_t random_nonce() {
  uint64_t v = now_ns();
#if defined(_WIN32)
  v ^= uint64_t(GetCurrentProcessId()) << 20;
#else
  v ^= uint64_t(::getpid()) << 20;
#endif
  v ^= uint64_t(uintptr_t(&v));
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdull;
  v ^= v >> 33;
  const uint32_t nonce = uint32_t(v);
  return nonce ? nonce : 1;
}

// The device's memory as this process maps it: a file mapping, (a PE process under Wine
// whose file mapping failed) the Linux mmap system call issued directly, or (a Windows
// guest) the virtio-win IVSHMEM driver's mapping, which also rings doorbells.
class DeviceMemory {
public:
  DeviceMemory() = default;
  explicit DeviceMemory(SharedMapping mapping) : m_mapping(std::move(mapping)) {}
  DeviceMemory(uint8_t* raw, uint64_t size) : m_raw(raw), m_raw_size(size) {}
#if defined(_WIN32)
  explicit DeviceMemory(std::unique_ptr<ivshmem::DriverMapping> driver) : m_driver(std::move(driver)) {}
#endif
  DeviceMemory(DeviceMemory&& other) noexcept { *this = std::move(other); }
  DeviceMemory& operator=(DeviceMemory&& other) noexcept {
    std::swap(m_mapping, other.m_mapping);
    std::swap(m_raw, other.m_raw);
    std::swap(m_raw_size, other.m_raw_size);
#if defined(_WIN32)
    std::swap(m_driver, other.m_driver);
#endif
    return *this;
  }
  ~DeviceMemory();
#if defined(_WIN32)
  uint8_t* data() const { return m_driver ? m_driver->data() : m_raw ? m_raw : m_mapping.data(); }
  uint64_t size() const { return m_driver ? m_driver->size() : m_raw ? m_raw_size : m_mapping.size(); }
  // The driver's doorbell (false where this memory did not come from the driver).
  bool ring(uint16_t peer) const { return m_driver && m_driver->ring(peer, 0); }
  bool rings() const { return m_driver != nullptr; }
#else
  uint8_t* data() const { return m_raw ? m_raw : m_mapping.data(); }
  uint64_t size() const { return m_raw ? m_raw_size : m_mapping.size(); }
  bool ring(uint16_t) const { return false; }
  bool rings() const { return false; }
#endif
  bool valid() const { return data() != nullptr; }

private:
  SharedMapping m_mapping;
  uint8_t* m_raw = nullptr;
  uint64_t m_raw_size = 0;
#if defined(_WIN32)
  std::unique_ptr<ivshmem::DriverMapping> m_driver;
#endif
};

#if defined(_WIN32) && defined(__x86_64__)
int64_t linux_syscall(int64_t number, int64_t a, int64_t b, int64_t c, int64_t d = 0, int64_t e = 0, int64_t f = 0) {
  int64_t ret;
  register int64_t r10 asm("r10") = d;
  register int64_t r8 asm("r8") = e;
  register int64_t r9 asm("r9") = f;
  asm volatile("syscall" : "=a"(ret) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
}

// Wine's file mapping of a sysfs resource file can fail where Linux's mmap does not (a PCI
// BAR is no ordinary file): a PE process under Wine on Linux may call Linux directly, as
// the transport does for futexes (wait.cpp). `path` is the Linux path.
DeviceMemory map_with_linux_syscalls(const std::string& path) {
  if (!address_wait_is_cross_process() || path.empty() || path[0] != '/')
    return {};
  const int64_t fd = linux_syscall(2 /* open */, int64_t(intptr_t(path.c_str())), 02 /* O_RDWR */ | 02000000 /* O_CLOEXEC */, 0);
  if (fd < 0)
    return {};
  alignas(8) uint8_t st[256] = {};
  int64_t size = 0;
  if (linux_syscall(5 /* fstat */, fd, int64_t(intptr_t(st)), 0) == 0)
    std::memcpy(&size, st + 48, sizeof(size));   // struct stat's st_size on x86_64
  int64_t p = -1;
  if (size > 0)
    p = linux_syscall(9 /* mmap */, 0, size, 3 /* PROT_READ|PROT_WRITE */, 1 /* MAP_SHARED */, fd, 0);
  linux_syscall(3 /* close */, fd, 0, 0);
  if (p < 0 && p > -4096)
    return {};
  return DeviceMemory(reinterpret_cast<uint8_t*>(intptr_t(p)), uint64_t(size));
}

DeviceMemory::~DeviceMemory() {
  if (m_raw)
    linux_syscall(11 /* munmap */, int64_t(intptr_t(m_raw)), int64_t(m_raw_size), 0);
}
#else
DeviceMemory::~DeviceMemory() = default;
#endif

#if defined(_WIN32)
// A Linux path as Wine's Z: drive shows it.
std::string windows_path(std::string path) {
  if (!path.empty() && path[0] == '/') {
    path = "Z:" + path;
    for (char& c : path)
      if (c == '/')
        c = '\\';
  }
  return path;
}
#endif

// A file of the device (BAR2's memory, BAR0's registers) mapped whole: path in this
// platform's form, linux_path the same for the system calls of a PE process under Wine.
DeviceMemory map_device_file(const std::string& path, const std::string& linux_path) {
#if defined(_WIN32) && defined(__x86_64__)
  // NPT_IVSHMEM_LINUX_MMAP=1 (tests) goes straight to the system calls.
  DeviceMemory mapping;
  if (env_int("NPT_IVSHMEM_LINUX_MMAP", 0, 1) != 1)
    mapping = DeviceMemory(SharedMapping::map_file(path.c_str()));
  if (!mapping.valid())
    mapping = map_with_linux_syscalls(linux_path);
  return mapping;
#else
  (void)linux_path;
  return DeviceMemory(SharedMapping::map_file(path.c_str()));
#endif
}

// The device as this guest holds it: the whole mapping, its slot, the lease thread.
class DeviceSession {
public:
  DeviceSession(DeviceMemory mapping, uint32_t slot_index, uint32_t claim)
  : m_mapping(std::move(mapping)), m_claim(claim) {
    m_header = reinterpret_cast<DeviceHeader*>(m_mapping.data());
    m_slot = reinterpret_cast<DeviceSlot*>(m_mapping.data() + kSlotsOffset + uint64_t(slot_index) * kSlotStride);
    m_generation = load_acquire(m_slot->generation);
    m_host_beat = load_acquire(m_header->heartbeat);
    m_host_beat_at = now_ns();
    m_lease = std::thread([this] { renew_lease(); });
  }
  ~DeviceSession() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_stop_cv.notify_all();
    m_lease.join();
    // Given back, unless the host took the slot back already.
    if (ours())
      store_release(m_slot->release, 1u);
  }

  uint8_t* base() const { return m_mapping.data(); }
  uint64_t size() const { return m_mapping.size(); }
  const DeviceMemory& memory() const { return m_mapping; }
  DeviceSlot* slot() const { return m_slot; }
  const DeviceHeader* header() const { return m_header; }

  // The slot is still this guest's. Not judged by the header: any process may scribble
  // over it until the host's next tick rewrites it. A restarted server starts every slot
  // afresh (claim 0), which this sees.
  bool ours() const {
    return load_acquire(m_slot->generation) == m_generation && load_acquire(m_slot->claim) == m_claim;
  }
  // Whether the host is alive: its heartbeat moved within kHostSilenceMs.
  bool host_alive() {
    std::lock_guard lock(m_beat_mutex);
    const uint64_t beat = load_acquire(m_header->heartbeat);
    const uint64_t now = now_ns();
    if (beat != m_host_beat) {
      m_host_beat = beat;
      m_host_beat_at = now;
      return true;
    }
    return now - m_host_beat_at < uint64_t(kHostSilenceMs) * 1000000;
  }

private:
  void renew_lease() {
    std::unique_lock lock(m_mutex);
    // Only while the slot is ours: a slot the host took back may be another guest's soon.
    while (!m_stop && ours()) {
      std::atomic_ref<uint64_t>(m_slot->guest_heartbeat).fetch_add(1, std::memory_order_release);
      m_stop_cv.wait_for(lock, std::chrono::milliseconds(kGuestHeartbeatMs));
    }
  }

  DeviceMemory m_mapping;
  DeviceHeader* m_header = nullptr;
  DeviceSlot* m_slot = nullptr;
  uint32_t m_claim;
  uint32_t m_generation = 0;
  std::mutex m_beat_mutex;
  uint64_t m_host_beat = 0;
  uint64_t m_host_beat_at = 0;
  std::mutex m_mutex;
  std::condition_variable m_stop_cv;
  bool m_stop = false;
  std::thread m_lease;
};

// The device address (NPT_IVSHMEM_DEVICE) of the virtio-win IVSHMEM driver's device.
constexpr const char* kDriverAddress = "driver";

// ivshmem's BAR0 register (docs/specs/ivshmem-spec.rst in QEMU): a write asks the device
// to signal vector (bits 0..15) of peer (bits 16..31).
constexpr uint64_t kDoorbellRegister = 12;

class DeviceChannel final : public GuestChannel {
public:
  // registers: BAR0, where the device is an ivshmem-doorbell and this process could map it.
  DeviceChannel(std::unique_ptr<DeviceSession> session, DeviceMemory registers)
  : m_session(std::move(session)), m_registers(std::move(registers)) {
    const uint32_t peer = load_acquire(m_session->header()->doorbell_peer);
    if (!peer || peer - 1 > 0xFFFF)
      return;
    m_peer = uint16_t(peer - 1);
    if (m_registers.size() >= kDoorbellRegister + 4)
      m_doorbell = reinterpret_cast<volatile uint32_t*>(m_registers.data() + kDoorbellRegister);
    m_driver_rings = m_session->memory().rings();
  }

  // The connection incremented the doorbell counter and found the host idle: an
  // ivshmem-doorbell device wakes it (one MMIO write, a VM exit; or the Windows driver's
  // ioctl, which writes the same register); otherwise the host polls.
  void doorbell(uint32_t*) override {
    if (m_doorbell)
      *m_doorbell = uint32_t(m_peer) << 16;   // vector 0
    else if (m_driver_rings)
      m_session->memory().ring(m_peer);
  }
  bool rings() const { return m_doorbell != nullptr || m_driver_rings; }

  bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
    const uint64_t end = now_ns() + uint64_t(timeout_us) * 1000;
    Backoff backoff;
    while (load_acquire(*word) == expected) {
      if (now_ns() >= end)
        break;
      backoff.pause();
    }
    if (load_acquire(*word) != expected)
      return true;
    return m_session->ours() && load_acquire(m_session->slot()->state) == kSlotActive && m_session->host_alive();
  }

  void wait_word(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
    const uint64_t end = now_ns() + uint64_t(timeout_us) * 1000;
    Backoff backoff;
    while (load_acquire(*word) == expected && now_ns() < end)
      backoff.pause();
  }

  // Regions lie in the device: the slot's table (host-written) says where.
  bool maps_regions() const override { return true; }
  uint8_t* map_region(uint32_t region, uint64_t size) override {
    if (region == 0 || region >= kMaxBulkRegions)
      return nullptr;
    const SlotRegion& entry = m_session->slot()->regions[region];
    const uint64_t offset = load_acquire(entry.offset);
    const uint64_t listed = load_acquire(entry.size);
    const uint64_t data = load_acquire(m_session->header()->data_offset);
    if (listed != size || offset < data || offset % kPageSize || offset > m_session->size() ||
        size > m_session->size() - offset)
      return nullptr;
    return m_session->base() + offset;
  }
  void unmap_region(uint32_t) override {}

private:
  std::unique_ptr<DeviceSession> m_session;
  DeviceMemory m_registers;
  volatile uint32_t* m_doorbell = nullptr;
  uint16_t m_peer = 0;
  bool m_driver_rings = false;
};

// Where BAR0 is: NPT_IVSHMEM_REGISTERS when set (tests: a file standing in for it), else
// the resource0 beside a PCI device's resource2; empty when neither applies.
std::string registers_path(const std::string& device_path) {
  char value[512] = {};
#if defined(_WIN32)
  if (!GetEnvironmentVariableA("NPT_IVSHMEM_REGISTERS", value, sizeof(value)))
    value[0] = 0;
#else
  if (const char* env = std::getenv("NPT_IVSHMEM_REGISTERS"))
    std::snprintf(value, sizeof(value), "%s", env);
#endif
  if (value[0])
    return value;
  const std::string bar2 = "resource2";
  if (device_path.size() > bar2.size() && device_path.compare(device_path.size() - bar2.size(), bar2.size(), bar2) == 0)
    return device_path.substr(0, device_path.size() - 1) + "0";
  return {};
}

}

#if defined(_WIN32)

namespace {

// No Linux sysfs (a Windows guest, not Wine): the virtio-win driver's device, if any.
std::string find_driver_device() {
  std::string error;
  return ivshmem::open_driver_port(&error) ? std::string(kDriverAddress) : std::string();
}

}

std::string GuestConnection::find_ivshmem_device() {
  // Wine's Z: drive shows the Linux guest's sysfs.
  const std::string root = "Z:\\sys\\bus\\pci\\devices\\";
  WIN32_FIND_DATAA found;
  HANDLE search = FindFirstFileA((root + "*").c_str(), &found);
  if (search == INVALID_HANDLE_VALUE)
    return find_driver_device();
  std::string result;
  do {
    if (found.cFileName[0] == '.')
      continue;
    const std::string dir = root + found.cFileName + "\\";
    auto read_id = [&](const char* name) {
      char text[16] = {};
      FILE* f = std::fopen((dir + name).c_str(), "r");
      if (!f)
        return 0ul;
      const size_t n = std::fread(text, 1, sizeof(text) - 1, f);
      std::fclose(f);
      text[n] = 0;
      return std::strtoul(text, nullptr, 16);
    };
    if (read_id("vendor") == 0x1af4 && read_id("device") == 0x1110) {
      if (FILE* f = std::fopen((dir + "enable").c_str(), "w")) {
        std::fputs("1", f);
        std::fclose(f);
      }
      result = dir + "resource2";
      break;
    }
  } while (FindNextFileA(search, &found));
  FindClose(search);
  return result;
}


#else

std::string GuestConnection::find_ivshmem_device() {
  const std::string root = "/sys/bus/pci/devices/";
  DIR* dir = ::opendir(root.c_str());
  if (!dir)
    return {};
  std::string result;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.')
      continue;
    const std::string device = root + e->d_name + "/";
    auto read_id = [&](const char* name) {
      char text[16] = {};
      int fd = ::open((device + name).c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        return 0ul;
      const ssize_t n = ::read(fd, text, sizeof(text) - 1);
      ::close(fd);
      text[n > 0 ? n : 0] = 0;
      return std::strtoul(text, nullptr, 16);
    };
    if (read_id("vendor") == 0x1af4 && read_id("device") == 0x1110) {
      // The BAR can be mapped only once the device is enabled (root; may be enabled already).
      int fd = ::open((device + "enable").c_str(), O_WRONLY | O_CLOEXEC);
      if (fd >= 0) {
        if (::write(fd, "1", 1) != 1) {
        }
        ::close(fd);
      }
      result = device + "resource2";
      break;
    }
  }
  ::closedir(dir);
  return result;
}

#endif

Status GuestConnection::connect_device(const char* device, const Geometry& geometry,
                                       std::unique_ptr<GuestConnection>* out, std::string* error,
                                       const ProtocolIdentity& protocol) {
  auto fail = [&](Status s, const std::string& message) {
    if (error)
      *error = message;
    return s;
  };
  std::string path = device ? device : "";
#if defined(_WIN32)
  const std::string linux_path = path;
  path = windows_path(path);
#else
  const std::string linux_path = path;
#endif
#if defined(_WIN32)
  // A Windows guest: the virtio-win IVSHMEM driver maps the device (ivshmem_driver.h).
  DeviceMemory mapping;
  if (path == kDriverAddress) {
    std::string driver_error;
    auto driver = ivshmem::DriverMapping::map(&driver_error);
    if (!driver)
      return fail(kDeviceRemoved, "the IVSHMEM driver: " + driver_error);
    mapping = DeviceMemory(std::move(driver));
  } else {
    mapping = map_device_file(path, linux_path);
  }
#else
  DeviceMemory mapping = map_device_file(path, linux_path);
#endif
  if (!mapping.valid())
    return fail(kDeviceRemoved, "cannot map the shared-memory device " + path);
  const uint64_t size = mapping.size();
  auto* header = reinterpret_cast<DeviceHeader*>(mapping.data());
  if (size < kMinDeviceSize || load_acquire(header->magic) != kDeviceMagic)
    return fail(kDeviceRemoved, "no Neptune server serves the device " + path + " (no device header)");
  const uint32_t slot_count = load_acquire(header->slot_count);
  if (load_acquire(header->layout_version) != kDeviceLayoutVersion || load_acquire(header->region_size) > size ||
      slot_count == 0 || slot_count > kMaxSlots || load_acquire(header->slot_stride) != kSlotStride ||
      load_acquire(header->slots_offset) != kSlotsOffset || load_acquire(header->data_offset) != data_offset(slot_count))
    return fail(kDeviceRemoved, "the device's header is of another layout version or inconsistent");
  if (load_acquire(header->state) != kDeviceServing)
    return fail(kDeviceRemoved, "the server of the device has stopped");

  const int timeout_ms = env_int("NPT_CONNECT_TIMEOUT_MS", 5000, 600000);
  // A live server moves its heartbeat every kHostHeartbeatMs; a file left by a dead one does not.
  {
    const uint64_t beat = load_acquire(header->heartbeat);
    const uint64_t end = now_ns() + uint64_t(kHostSilenceMs) * 1000000;
    Backoff backoff;
    while (load_acquire(header->heartbeat) == beat) {
      if (now_ns() > end)
        return fail(kDeviceRemoved, "the device's server does not run (its heartbeat stands still)");
      backoff.pause();
    }
  }

  // A free slot, claimed by a compare-exchange: another guest process may race for it.
  const uint32_t nonce = random_nonce();
  int slot_index = -1;
  for (uint32_t i = 0; i < slot_count && slot_index < 0; i++) {
    auto* slot = reinterpret_cast<DeviceSlot*>(mapping.data() + kSlotsOffset + uint64_t(i) * kSlotStride);
    if (load_acquire(slot->state) != kSlotFree)
      continue;
    uint32_t expected = 0;
    if (std::atomic_ref<uint32_t>(slot->claim).compare_exchange_strong(expected, nonce))
      slot_index = int(i);
  }
  if (slot_index < 0)
    return fail(kInvalidArg, "every slot of the device is taken (" + std::to_string(slot_count) + " contexts)");

  auto session = std::make_unique<DeviceSession>(std::move(mapping), uint32_t(slot_index), nonce);
  DeviceSlot* slot = session->slot();

  Hello hello = hello_for(geometry, protocol);
  hello.flags = kHelloBulkRegions;
  std::memcpy(slot->hello, &hello, sizeof(hello));
  store_release(slot->request, 1u);

  const uint64_t end = now_ns() + uint64_t(timeout_ms) * 1000000;
  Backoff backoff;
  while (load_acquire(slot->answered) != 1) {
    if (!session->ours())
      return fail(kDeviceRemoved, "the server took the device slot back during the handshake");
    if (now_ns() > end)
      return fail(kDeviceRemoved, "no answer from the device's server");
    backoff.pause();
  }
  Welcome welcome;
  std::memcpy(&welcome, slot->welcome, sizeof(welcome));
  welcome.message[sizeof(welcome.message) - 1] = 0;
  if (welcome.magic != kWelcomeMagic)
    return fail(kDeviceRemoved, "not a Neptune server");
  if (welcome.error != uint32_t(ConnectError::None))
    return fail(refusal_status(ConnectError(welcome.error)), welcome.message);
  if (welcome.version < kMinVersion || welcome.version > kVersion ||
      (welcome.flags & ~uint32_t(kWelcomeDevice | kWelcomeBulkRegions)) || !(welcome.flags & kWelcomeDevice) ||
      welcome.reserved != 0 || load_acquire(slot->state) != kSlotActive)
    return fail(kDeviceRemoved, "the server answered with a version or features this guest did not offer");
  const uint64_t offset = load_acquire(slot->context_offset);
  const uint64_t context_size = load_acquire(slot->context_size);
  if (offset < load_acquire(session->header()->data_offset) || offset % kPageSize || offset > session->size() ||
      context_size > session->size() - offset || context_size != welcome.shm_size)
    return fail(kDeviceRemoved, "the server placed the context outside the device");

  uint8_t* base = session->base() + offset;
  // BAR0 only where the host takes a doorbell; a guest that cannot map it is polled.
  DeviceMemory registers;
  if (load_acquire(session->header()->doorbell_peer)) {
    const std::string bar0 = registers_path(linux_path);
#if defined(_WIN32)
    registers = bar0.empty() ? DeviceMemory() : map_device_file(windows_path(bar0), bar0);
#else
    registers = bar0.empty() ? DeviceMemory() : map_device_file(bar0, bar0);
#endif
  }
  auto channel = std::make_unique<DeviceChannel>(std::move(session), std::move(registers));
  const bool rings = channel->rings();
  std::unique_ptr<GuestConnection> c;
  Status s = attach(base, size_t(context_size), std::move(channel), &c, (welcome.flags & kWelcomeBulkRegions) != 0);
  if (s != kOk)
    return fail(kDeviceRemoved, "server laid out the memory inconsistently");
  c->m_wake_mode = rings ? "doorbell" : "poll";
  c->m_shared_name = path;
  *out = std::move(c);
  return kOk;
}

}
