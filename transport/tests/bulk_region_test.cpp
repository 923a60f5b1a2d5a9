// SPDX-License-Identifier: MIT
// Bulk regions added after connect, in process: the guest library asks HostContext for
// more regions through Control records, the host bounds every reference by the sizes it
// gave the regions and keeps their total within the context's limit, and a hostile
// guest's Control or Bulk records end its context only. The regions are real named
// shared memory (a /dev/shm file natively, a named file mapping under Wine), mapped by
// the guest library through the same path as across processes.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "in_process_host.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

// Hashes every command; replies with the hash of all commands so far.
class HashingDispatcher final : public Dispatcher {
public:
  uint64_t hash = 1469598103934665603ull;
  uint64_t commands = 0;
  bool dispatch(uint32_t, const uint8_t* span, size_t size, Reply* reply) override {
    commands++;
    for (size_t i = 0; i < size; i++)
      hash = (hash ^ span[i]) * 1099511628211ull;
    if (reply)
      reply->write(&hash, sizeof(hash));
    return true;
  }
};

uint64_t fnv(const uint8_t* data, size_t size, uint64_t hash = 1469598103934665603ull) {
  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 1099511628211ull;
  return hash;
}

// Named shared memory per region, as the servers create it.
class NamedRegions final : public RegionProvider {
public:
  ~NamedRegions() override {
    for (auto& r : m_regions) {
#if defined(_WIN32)
      UnmapViewOfFile(r.base);
      CloseHandle(r.mapping);
#else
      ::munmap(r.base, r.size);
      if (!r.unlinked)
        ::unlink(r.name.c_str());
#endif
    }
  }
  uint8_t* create(uint32_t id, uint64_t size) override {
    Region r;
    r.size = size_t(size);
#if defined(_WIN32)
    r.name = "Local\\npt-unit-" + std::to_string(GetCurrentProcessId()) + "-" + std::to_string(m_serial++) + "-r" +
             std::to_string(id);
    r.mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, DWORD(size), r.name.c_str());
    if (!r.mapping)
      return nullptr;
    r.base = static_cast<uint8_t*>(MapViewOfFile(r.mapping, FILE_MAP_ALL_ACCESS, 0, 0, r.size));
#else
    r.name = "/dev/shm/npt-unit-" + std::to_string(getpid()) + "-" + std::to_string(m_serial++) + "-r" +
             std::to_string(id);
    int fd = ::open(r.name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || ::ftruncate(fd, off_t(size)) != 0)
      return nullptr;
    void* p = ::mmap(nullptr, r.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED)
      return nullptr;
    r.base = static_cast<uint8_t*>(p);
#endif
    r.id = id;
    m_regions.push_back(r);
    created++;
    return r.base;
  }
  bool share(uint32_t id, RegionGrant* grant) override {
    for (auto& r : m_regions) {
      if (r.id != id)
        continue;
      grant->share = kRegionByName;
      std::snprintf(grant->name, sizeof(grant->name), "%s", r.name.c_str());
      return true;
    }
    return false;
  }
  void mapped(uint32_t id) override {
    acknowledged++;
#if !defined(_WIN32)
    for (auto& r : m_regions)
      if (r.id == id && !r.unlinked) {
        ::unlink(r.name.c_str());
        r.unlinked = true;
      }
#else
    (void)id;
#endif
  }
  void release(uint32_t id) override {
    for (auto it = m_regions.begin(); it != m_regions.end(); ++it) {
      if (it->id != id)
        continue;
#if defined(_WIN32)
      UnmapViewOfFile(it->base);
      CloseHandle(it->mapping);
#else
      ::munmap(it->base, it->size);
      if (!it->unlinked)
        ::unlink(it->name.c_str());
#endif
      m_regions.erase(it);
      released.push_back(id);
      return;
    }
  }
  int created = 0;
  int acknowledged = 0;
  std::vector<uint32_t> released;

private:
  struct Region {
    uint32_t id = 0;
    uint8_t* base = nullptr;
    size_t size = 0;
    std::string name;
    bool unlinked = false;
#if defined(_WIN32)
    HANDLE mapping = nullptr;
#endif
  };
  std::vector<Region> m_regions;
  int m_serial = 0;
};

Geometry small_bulk_geometry(uint32_t rings = 1) {
  Geometry g;
  g.ring_count = rings;
  g.ring_size = 64 * 1024;
  g.bulk_size = 256 * 1024;
  return g;
}

HostLimits limits_of(uint64_t bulk) {
  HostLimits l;
  l.max_bulk_size = bulk;
  return l;
}

void write_raw(InProcessHost& h, uint32_t ring, RecordHeader rec, const void* payload, size_t size) {
  uint64_t head = load_acquire(h.ring_header(ring)->head);
  uint8_t* at = h.ring_data(ring) + head;   // fresh rings: everything is contiguous
  std::memcpy(at, &rec, sizeof(rec));
  std::memcpy(at + sizeof(rec), payload, size);
  store_release(h.ring_header(ring)->head, head + align8(sizeof(rec) + size));
}

}

TEST(BulkRegions, GuestUploadsMoreThanRegionZeroHolds) {
  HashingDispatcher d;
  NamedRegions regions;
  InProcessHost host(small_bulk_geometry(), &d, limits_of(4u << 20));
  host.add_regions_through(&regions);
  host.start();
  GuestConnection& guest = host.guest();
  ASSERT_TRUE(guest.can_add_regions());

  // One command four times as large as region 0, then several in flight at once.
  uint64_t expected = 1469598103934665603ull;
  std::vector<uint8_t> big(1u << 20);
  for (int k = 0; k < 4; k++) {
    fill_pattern(big.data(), big.size() - k * 4096, 100 + k);
    ASSERT_EQ(guest.submit(0, big.data(), big.size() - k * 4096), kOk) << k;
    expected = fnv(big.data(), big.size() - k * 4096, expected);
  }
  uint64_t hash = 0;
  size_t n = 0;
  uint32_t query = 7;
  ASSERT_EQ(guest.call(0, &query, 4, &hash, sizeof(hash), &n), kOk);
  expected = fnv(reinterpret_cast<uint8_t*>(&query), 4, expected);
  EXPECT_EQ(hash, expected) << "every byte of every out-of-line command reached the host";
  EXPECT_EQ(guest.bulk().region_count(), 2u);
  EXPECT_GE(guest.bulk().largest_region(), big.size());
  EXPECT_EQ(regions.created, 1);
#if defined(_WIN32)
  EXPECT_EQ(regions.acknowledged, 0) << "a named mapping has no file to remove";
#else
  EXPECT_EQ(regions.acknowledged, 1) << "the guest acknowledged its mapping (the file may go)";
#endif
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
  ASSERT_EQ(guest.finish(0), kOk);   // the guest takes back what the host consumed

  // A payload reference into the added region: the host reads exactly the bytes the guest wrote.
  BulkRef ref;
  ASSERT_TRUE(guest.bulk().allocate(600000, &ref));
  EXPECT_NE(ref.region, 0u);
  fill_pattern(guest.bulk().pointer(ref), size_t(ref.size), 9);
  const uint8_t* seen = host.host().region_bytes(ref.region, ref.offset, ref.size);
  ASSERT_NE(seen, nullptr);
  EXPECT_TRUE(check_pattern(seen, size_t(ref.size), 9));
  EXPECT_EQ(host.host().region_bytes(ref.region, 0, (4u << 20) + 1), nullptr) << "bounded by the region's size";
  guest.bulk().free(ref);
}

TEST(BulkRegions, TheLimitIsRefusedWithItsReason) {
  HashingDispatcher d;
  NamedRegions regions;
  InProcessHost host(small_bulk_geometry(), &d, limits_of(1u << 20));
  host.add_regions_through(&regions);
  host.start();
  GuestConnection& guest = host.guest();
  std::string error;
  // 256 KiB of region 0 + 512 KiB: within 1 MiB.
  ASSERT_EQ(guest.add_bulk_region(0, 512 * 1024, &error), kOk) << error;
  EXPECT_EQ(guest.add_bulk_region(0, 512 * 1024, &error), kOutOfMemory);
  EXPECT_NE(error.find("bulk memory limit"), std::string::npos) << error;
  EXPECT_NE(error.find("1048576"), std::string::npos) << "names the limit: " << error;
  // A command no region can hold and the limit cannot make room for.
  std::vector<uint8_t> huge(900 * 1024, 3);
  EXPECT_EQ(guest.submit(0, huge.data(), huge.size()), kOutOfMemory);
  // Refusals are answers, not faults: the context goes on.
  std::vector<uint8_t> fits(400 * 1024, 5);
  EXPECT_EQ(guest.submit(0, fits.data(), fits.size()), kOk);
  EXPECT_EQ(guest.finish(0), kOk);
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
  EXPECT_EQ(regions.created, 1);
}

TEST(BulkRegions, AHostWithoutProviderAnswersNotImplemented) {
  HashingDispatcher d;
  InProcessHost host(small_bulk_geometry(), &d);
  host.add_regions_through(nullptr);
  host.start();
  std::string error;
  EXPECT_EQ(host.guest().add_bulk_region(0, 4096, &error), kNotImpl);
  EXPECT_NE(error.find("adds no bulk regions"), std::string::npos) << error;
  std::vector<uint8_t> big(300 * 1024, 1);
  EXPECT_EQ(host.guest().submit(0, big.data(), big.size()), kNotImpl) << "larger than region 0, and no more to be had";
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
}

TEST(BulkRegions, ReplyAreasAreRegionZeroForOneRingElseTheRingsOwn) {
  HashingDispatcher d;
  {
    NamedRegions regions;
    InProcessHost host(small_bulk_geometry(1), &d, limits_of(2u << 20));
    host.add_regions_through(&regions);
    uint32_t region = 99;
    EXPECT_NE(host.host().reply_area(0, 100000, &region), nullptr);
    EXPECT_EQ(region, 0u) << "a single ring waiting on its call leaves region 0 unused";
    EXPECT_NE(host.host().reply_area(0, 300 * 1024, &region), nullptr);
    EXPECT_NE(region, 0u) << "larger than region 0: a region of its own";
  }
  {
    NamedRegions regions;
    InProcessHost host(small_bulk_geometry(3), &d, limits_of(2u << 20));
    host.add_regions_through(&regions);
    host.start();
    uint32_t r0 = 0, r1 = 0, again = 0;
    uint8_t* a0 = host.host().reply_area(0, 100000, &r0);
    uint8_t* a1 = host.host().reply_area(1, 100000, &r1);
    ASSERT_TRUE(a0 && a1);
    EXPECT_NE(r0, 0u) << "another ring's commands may still hold region 0";
    EXPECT_NE(r0, r1) << "each ring its own";
    EXPECT_EQ(host.host().reply_area(0, 50000, &again), a0);
    EXPECT_EQ(again, r0) << "reused while large enough";
    // The guest maps a region the host created for its replies on first use, bounded.
    fill_pattern(a1, 100000, 5);
    const uint8_t* seen = host.guest().region_bytes(1, r1, 0, 100000);
    ASSERT_NE(seen, nullptr);
    EXPECT_TRUE(check_pattern(seen, 100000, 5));
    EXPECT_EQ(host.guest().region_bytes(1, r1, 1, uint64_t(1) << 20), nullptr);
    EXPECT_EQ(host.guest().region_bytes(1, 40, 0, 1), nullptr) << "a region that does not exist";
    EXPECT_EQ(host.host().fatal(), FatalReason::None) << "asking for a missing region is answered, not fatal";
    // Past the limit: no area (the executor answers E_OUTOFMEMORY).
    EXPECT_EQ(host.host().reply_area(2, 2u << 20, &again), nullptr);
  }
}

TEST(BulkRegions, HostileControlAndBulkRecordsEndOnlyTheirContext) {
  struct Case {
    const char* name;
    FatalReason expected;
    std::function<void(InProcessHost&)> corrupt;
  };
  std::vector<Case> cases = {
    { "AddRegion without a reply slot", FatalReason::BadRecord, [](InProcessHost& h) {
        ControlRequest r = { uint32_t(ControlOp::AddRegion), 0, 4096 };
        write_raw(h, 0, { make_size_kind(RecordKind::Control, sizeof(r)), 0 }, &r, sizeof(r)); } },
    { "RegionMapped expecting an answer", FatalReason::BadRecord, [](InProcessHost& h) {
        ControlRequest r = { uint32_t(ControlOp::RegionMapped), 1, 0 };
        write_raw(h, 0, { make_size_kind(RecordKind::Control, sizeof(r)), 1 }, &r, sizeof(r)); } },
    { "unknown control op", FatalReason::BadRecord, [](InProcessHost& h) {
        ControlRequest r = { 77, 0, 0 };
        write_raw(h, 0, { make_size_kind(RecordKind::Control, sizeof(r)), 1 }, &r, sizeof(r)); } },
    { "control record of the wrong size", FatalReason::BadRecord, [](InProcessHost& h) {
        write_raw(h, 0, { make_size_kind(RecordKind::Control, 8), 1 }, "12345678", 8); } },
    { "control reply slot out of range", FatalReason::BadReplySlot, [](InProcessHost& h) {
        ControlRequest r = { uint32_t(ControlOp::AddRegion), 0, 4096 };
        write_raw(h, 0, { make_size_kind(RecordKind::Control, sizeof(r)), 60 }, &r, sizeof(r)); } },
    { "bulk ref to a region never created", FatalReason::BadBulkRef, [](InProcessHost& h) {
        BulkRef ref = { 5, 0, 0, 64 };
        write_raw(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref)); } },
    { "bulk ref past an added region", FatalReason::BadBulkRef, [](InProcessHost& h) {
        BulkRef ref = { 1, 0, 4096, 1u << 20 };   // region 1 holds 512 KiB
        write_raw(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref)); } },
    { "bulk ref offset overflow in an added region", FatalReason::BadBulkRef, [](InProcessHost& h) {
        BulkRef ref = { 1, 0, ~uint64_t(0) - 8, 64 };
        write_raw(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref)); } },
    { "bulk ref region id beyond every table", FatalReason::BadBulkRef, [](InProcessHost& h) {
        BulkRef ref = { 0xFFFFFFFFu, 0, 0, 8 };
        write_raw(h, 0, { make_size_kind(RecordKind::Bulk, sizeof(ref)), 0 }, &ref, sizeof(ref)); } },
  };
  for (auto& c : cases) {
    HashingDispatcher d;
    NamedRegions regions;
    Geometry g = small_bulk_geometry(2);
    InProcessHost host(g, &d, limits_of(4u << 20));
    host.add_regions_through(&regions);
    host.start();
    GuestConnection& guest = host.guest();
    // A well-behaved start on ring 1: one added region of 512 KiB.
    std::string error;
    ASSERT_EQ(guest.add_bulk_region(1, 512 * 1024, &error), kOk) << c.name << ": " << error;
    const uint64_t commands = d.commands;
    c.corrupt(host);
    uint32_t cmd = 1;
    guest.submit(1, &cmd, 4);   // the doorbell
    for (int i = 0; i < 500 && host.host().fatal() == FatalReason::None; i++)
      sleep_us(1000);
    EXPECT_EQ(host.host().fatal(), c.expected) << c.name;
    // The doorbell command on ring 1 may run before ring 0 is read; nothing of the bad record does.
    EXPECT_LE(d.commands, commands + 1) << c.name;
    EXPECT_EQ(guest.status(), kDeviceRemoved) << c.name;
    EXPECT_EQ(guest.add_bulk_region(1, 4096, &error), kDeviceRemoved) << c.name;
  }
}

namespace {

// Answers a command {u64 bytes} with a reply area of that size on the command's ring,
// filled with a pattern, and {region, 0}.
class ReplyAreaDispatcher final : public Dispatcher {
public:
  bool dispatch(uint32_t ring, const uint8_t* span, size_t size, Reply* reply) override {
    uint64_t bytes = 0;
    if (size != sizeof(bytes) || !reply)
      return false;
    std::memcpy(&bytes, span, sizeof(bytes));
    uint32_t region = 0;
    uint8_t* area = host->reply_area(ring, bytes, &region);
    if (!area) {
      reply->set_status(kOutOfMemory);
      return true;
    }
    fill_pattern(area, size_t(bytes), bytes);
    const uint32_t out[2] = { region, 0 };
    return reply->write(out, sizeof(out));
  }
  HostContext* host = nullptr;
};

// A readback of `bytes` on ring: the region it came in, its bytes checked through the
// guest's mapping (0 when refused or wrong).
uint32_t read_back(GuestConnection& guest, uint32_t ring, uint64_t bytes) {
  uint32_t out[2] = {};
  size_t n = 0;
  if (guest.call(ring, &bytes, sizeof(bytes), out, sizeof(out), &n) != kOk || n != sizeof(out))
    return 0;
  const uint8_t* seen = guest.region_bytes(ring, out[0], 0, bytes);
  return seen && check_pattern(seen, size_t(bytes), bytes) ? out[0] : 0;
}

}

TEST(BulkRegions, OutgrownReplyRegionsAreFreedAndNoLongerCount) {
  ReplyAreaDispatcher d;
  NamedRegions regions;
  const Geometry g = small_bulk_geometry(2);   // two rings: each has reply regions of its own
  const uint64_t limit = g.bulk_size + (1280u << 10);
  InProcessHost host(g, &d, limits_of(limit));
  d.host = &host.host();
  host.add_regions_through(&regions);
  GuestConnection& guest = host.guest();
  host.start();

  const uint32_t small = read_back(guest, 1, 100000);
  ASSERT_NE(small, 0u);
  const uint32_t large = read_back(guest, 1, 600 * 1024);
  ASSERT_NE(large, 0u);
  EXPECT_NE(large, small) << "a larger reply gets a larger region";
  ASSERT_EQ(guest.finish(1), kOk);   // the guest's release of the outgrown one has executed
  EXPECT_EQ(regions.released, std::vector<uint32_t>{ small }) << "the outgrown region is freed";
  EXPECT_EQ(host.host().bulk_total(), g.bulk_size + 600 * 1024) << "and no longer counts";

  // Room that exists only because the outgrown region went: 256 KiB + 600 KiB + 400 KiB
  // fits the limit of 256 KiB + 1280 KiB; with the old 100 KB region it would not.
  const uint32_t other = read_back(guest, 0, 400 * 1024);
  ASSERT_NE(other, 0u) << "within the limit once the outgrown region is freed";
  EXPECT_EQ(other, small) << "its id is used again, and the guest maps the new memory under it";
  EXPECT_EQ(read_back(guest, 1, 500 * 1024), large) << "a smaller reply reuses the ring's region";
  EXPECT_EQ(host.host().fatal(), FatalReason::None);
}

TEST(BulkRegions, ReleasingARegionInUseEndsTheContext) {
  // Region 0, a ring's current reply region and a region that does not exist are not
  // outgrown reply regions: a guest that releases one is hostile.
  enum Case { kRegionZero, kCurrent, kMissing };
  for (Case c : { kRegionZero, kCurrent, kMissing }) {
    ReplyAreaDispatcher d;
    NamedRegions regions;
    InProcessHost victim(small_bulk_geometry(2), &d, limits_of(4u << 20));
    d.host = &victim.host();
    victim.add_regions_through(&regions);
    uint32_t current = 0;
    ASSERT_NE(victim.host().reply_area(1, 100000, &current), nullptr);
    const uint32_t region = c == kRegionZero ? 0u : c == kCurrent ? current : 40u;
    ControlRequest release = { uint32_t(ControlOp::ReleaseRegion), region, 0 };
    write_raw(victim, 0, { make_size_kind(RecordKind::Control, sizeof(release)), 0 }, &release, sizeof(release));
    victim.host().process();
    EXPECT_EQ(victim.host().fatal(), FatalReason::BadRecord) << "case " << int(c);
    EXPECT_TRUE(regions.released.empty());
  }
}
