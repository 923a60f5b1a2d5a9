// SPDX-License-Identifier: MIT
// neptune-server.exe under Wine in its default (executor) mode, the CI configuration:
// a PE guest speaks the Neptune protocol over the transport, the server decodes,
// validates and executes on the system d3d11 (wined3d), replies come back through the
// reply slots, query results through push slots.
#include <gtest/gtest.h>
#include <windows.h>
#include <psapi.h>
#include <tlhelp32.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include <d3d11.h>

#include "npt/protocol/host_info.h"
#include "npt_encode.h"
#include "win32_server_process.h"

using namespace npt;
using namespace npt::transport;

namespace {

// A guest speaking the wire protocol directly (what the guest runtime does for real).
class WireGuest {
public:
  explicit WireGuest(Win32ServerProcess& server) : m_buffer(512 * 1024), m_writer(m_buffer.data(), m_buffer.size()) {
    Geometry g;
    g.ring_count = 1;
    g.ring_size = 1u << 20;
    g.reply_slot_count = 4;
    g.reply_slot_size = 1u << 20;
    g.push_slot_count = 64;
    g.bulk_size = 8u << 20;
    std::string error;
    m_status = server.connect(&m_connection, &error, g);
    m_geometry = g;
  }
  bool connected() const { return m_status == kOk; }
  protocol::CommandWriter& w() { return m_writer; }
  protocol::ObjectId newId() { return m_next++; }
  GuestConnection& connection() { return *m_connection; }

  Status submit() {
    Status s = m_connection->submit(0, m_buffer.data(), m_writer.size());
    m_writer.clear();
    return s;
  }
  Status call(std::vector<uint8_t>& reply) {
    reply.assign(1u << 20, 0);
    size_t size = 0;
    Status s = m_connection->call(0, m_buffer.data(), m_writer.size(), reply.data(), reply.size(), &size);
    m_writer.clear();
    reply.resize(s == kOk ? size : 0);
    return s;
  }
  const uint8_t* bulk(const protocol::BulkRef& ref) const {
    return m_connection->shared_base() + m_geometry.bulk_offset() + ref.offset;
  }

  HRESULT createDevice(protocol::ObjectId* device, protocol::ObjectId* context) {
    *device = newId();
    *context = newId();
    protocol::encode_D3D11CreateDevice(m_writer, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                                       D3D11_SDK_VERSION, *device, *context);
    std::vector<uint8_t> reply;
    if (call(reply) != kOk) return DXGI_ERROR_DEVICE_REMOVED;
    HRESULT hr = E_FAIL;
    D3D_FEATURE_LEVEL level;
    if (protocol::decodeReply_D3D11CreateDevice(reply.data(), reply.size(), &hr, &level) != protocol::ErrorCode::Ok)
      return E_FAIL;
    return hr;
  }

private:
  std::unique_ptr<GuestConnection> m_connection;
  Status m_status = kDeviceRemoved;
  Geometry m_geometry;
  std::vector<uint8_t> m_buffer;
  protocol::CommandWriter m_writer;
  protocol::ObjectId m_next = 1;
};

D3D11_TEXTURE2D_DESC textureDesc(UINT size, D3D11_USAGE usage, UINT bind, UINT cpu) {
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = desc.Height = size;
  desc.MipLevels = desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = usage;
  desc.BindFlags = bind;
  desc.CPUAccessFlags = cpu;
  return desc;
}

// Clears a size x size render target, copies it to staging and reads it back with Map.
std::vector<uint8_t> clearAndReadBack(WireGuest& guest, protocol::ObjectId device, protocol::ObjectId context,
                                      UINT size, const FLOAT color[4], bool* viaBulk) {
  protocol::ObjectId texture = guest.newId(), rtv = guest.newId(), staging = guest.newId();
  D3D11_TEXTURE2D_DESC target = textureDesc(size, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  D3D11_TEXTURE2D_DESC readable = textureDesc(size, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  protocol::encode_ID3D11Device_CreateTexture2D(guest.w(), device, &target, 0, nullptr, texture);
  protocol::encode_ID3D11Device_CreateRenderTargetView(guest.w(), device, texture, nullptr, rtv);
  protocol::encode_ID3D11Device_CreateTexture2D(guest.w(), device, &readable, 0, nullptr, staging);
  protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(guest.w(), context, rtv, color);
  protocol::encode_ID3D11DeviceContext_CopyResource(guest.w(), context, staging, texture);
  EXPECT_EQ(guest.submit(), kOk);
  protocol::encode_ID3D11DeviceContext_Map(guest.w(), context, staging, 0, D3D11_MAP_READ, 0);
  std::vector<uint8_t> reply;
  EXPECT_EQ(guest.call(reply), kOk);
  HRESULT hr = E_FAIL;
  UINT rowPitch = 0, depthPitch = 0;
  protocol::Payload data;
  EXPECT_EQ(protocol::decodeReply_ID3D11DeviceContext_Map(reply.data(), reply.size(), &hr, &rowPitch, &depthPitch, &data),
            protocol::ErrorCode::Ok);
  EXPECT_EQ(hr, S_OK);
  EXPECT_EQ(rowPitch, size * 4);
  std::vector<uint8_t> bytes;
  *viaBulk = data.isBulk;
  if (data.isBulk) {
    const uint8_t* p = guest.bulk(data.bulk);
    bytes.assign(p, p + data.bulk.size);
  } else if (!data.isNull) {
    bytes.assign(static_cast<const uint8_t*>(data.data), static_cast<const uint8_t*>(data.data) + data.size);
  }
  protocol::encode_ID3D11DeviceContext_Unmap(guest.w(), context, staging, 0, D3D11_MAP_READ, 0, nullptr, protocol::Payload::none());
  for (protocol::ObjectId id : {rtv, texture, staging}) {
    guest.w().u32(protocol::packHeader(protocol::OpDestroyObject, 2));
    guest.w().u32(id);
  }
  EXPECT_EQ(guest.submit(), kOk);
  return bytes;
}

class ExecutorServer : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::getenv("NPT_SERVER_BIN")) GTEST_SKIP() << "NPT_SERVER_BIN not set";
    ASSERT_TRUE(server.running());
  }
  Win32ServerProcess server{"--dispatch executor"};
};

TEST_F(ExecutorServer, GuestCreatesADeviceClearsAndReadsBackTheRightBytes) {
  WireGuest guest(server);
  ASSERT_TRUE(guest.connected());
  // Host info first, as the guest runtime does (contract 2).
  ASSERT_TRUE(protocol::encode_QueryHostInfo(guest.w()));
  std::vector<uint8_t> reply, blob;
  ASSERT_EQ(guest.call(reply), kOk);
  ASSERT_EQ(protocol::decodeReply_QueryHostInfo(reply.data(), reply.size(), blob), protocol::ErrorCode::Ok);
  protocol::HostInfo info;
  ASSERT_EQ(protocol::parseHostInfo(blob.data(), blob.size(), &info), protocol::ErrorCode::Ok);
  EXPECT_GE(info.featureLevel, D3D_FEATURE_LEVEL_10_0);

  protocol::ObjectId device = 0, context = 0;
  ASSERT_EQ(guest.createDevice(&device, &context), S_OK);
  const FLOAT magenta[4] = {1, 0, 1, 1};
  bool viaBulk = true;
  std::vector<uint8_t> pixels = clearAndReadBack(guest, device, context, 16, magenta, &viaBulk);
  EXPECT_FALSE(viaBulk);
  ASSERT_EQ(pixels.size(), 16u * 16 * 4);
  for (size_t i = 0; i < 16 * 16; i++) {
    uint32_t value;
    std::memcpy(&value, &pixels[i * 4], 4);
    ASSERT_EQ(value, 0xffff00ffu) << "pixel " << i;
  }
  // 256 KiB does not fit a reply inline: the bytes come through bulk memory.
  const FLOAT cyan[4] = {0, 1, 1, 1};
  pixels = clearAndReadBack(guest, device, context, 256, cyan, &viaBulk);
  EXPECT_TRUE(viaBulk);
  ASSERT_EQ(pixels.size(), 256u * 256 * 4);
  for (size_t i = 0; i < 256 * 256; i++) {
    uint32_t value;
    std::memcpy(&value, &pixels[i * 4], 4);
    ASSERT_EQ(value, 0xffffff00u) << "pixel " << i;
  }
  EXPECT_EQ(guest.connection().status(), kOk);
}

TEST_F(ExecutorServer, QueryResultsArriveInTheBoundPushSlot) {
  WireGuest guest(server);
  ASSERT_TRUE(guest.connected());
  protocol::ObjectId device = 0, context = 0;
  ASSERT_EQ(guest.createDevice(&device, &context), S_OK);
  D3D11_QUERY_DESC desc = {D3D11_QUERY_EVENT, 0};
  protocol::ObjectId query = guest.newId();
  protocol::encode_ID3D11Device_CreateQuery(guest.w(), device, &desc, query);
  protocol::encode_BindPushSlot(guest.w(), query, 5);
  protocol::encode_ID3D11DeviceContext_End(guest.w(), context, query);
  protocol::encode_ID3D11DeviceContext_Flush(guest.w(), context);
  ASSERT_EQ(guest.submit(), kOk);
  uint8_t slot[128] = {};
  size_t size = 0;
  bool pushed = false;
  for (int i = 0; i < 500 && !pushed; i++) {
    pushed = guest.connection().read_push_slot(5, slot, sizeof(slot), &size, nullptr) && size >= 8;
    if (!pushed) Sleep(2);
  }
  ASSERT_TRUE(pushed);
  uint32_t ends = 0;
  BOOL done = FALSE;
  std::memcpy(&ends, slot, 4);
  std::memcpy(&done, slot + 4, 4);
  EXPECT_EQ(ends, 1u);
  EXPECT_EQ(done, TRUE);
}

TEST_F(ExecutorServer, AProtocolViolationRemovesOnlyThatContext) {
  WireGuest bad(server), good(server);
  ASSERT_TRUE(bad.connected());
  ASSERT_TRUE(good.connected());
  protocol::ObjectId device = 0, context = 0;
  ASSERT_EQ(bad.createDevice(&device, &context), S_OK);
  // Initial data shorter than the texture's footprint: no runtime could send it.
  D3D11_TEXTURE2D_DESC desc = textureDesc(64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
  NPT_SUBRESOURCE_DATA data = {{0, 0, 16}, 256, 0};
  protocol::encode_ID3D11Device_CreateTexture2D(bad.w(), device, &desc, 1, &data, bad.newId());
  ASSERT_EQ(bad.submit(), kOk);
  protocol::encode_ID3D11DeviceContext_Flush(bad.w(), context);
  std::vector<uint8_t> reply;
  EXPECT_EQ(bad.call(reply), kDeviceRemoved);
  // The other context keeps working.
  ASSERT_EQ(good.createDevice(&device, &context), S_OK);
  const FLOAT white[4] = {1, 1, 1, 1};
  bool viaBulk = false;
  std::vector<uint8_t> pixels = clearAndReadBack(good, device, context, 4, white, &viaBulk);
  EXPECT_EQ(pixels, std::vector<uint8_t>(64, 0xff));
  EXPECT_TRUE(server.running());
}

}  // namespace

namespace {

struct Memory {
  double workingSetMiB = 0;
  double privateMiB = 0;
};

Memory memoryOf(HANDLE process) {
  PROCESS_MEMORY_COUNTERS_EX counters = {};
  counters.cb = sizeof(counters);
  GetProcessMemoryInfo(process, reinterpret_cast<PROCESS_MEMORY_COUNTERS*>(&counters), sizeof(counters));
  return Memory{counters.WorkingSetSize / 1048576.0, counters.PrivateUsage / 1048576.0};
}

// Working set of a process's children (the server's worker processes).
Memory memoryOfChildren(DWORD parent, int* count) {
  Memory total;
  *count = 0;
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  PROCESSENTRY32 entry = {};
  entry.dwSize = sizeof(entry);
  for (BOOL more = Process32First(snapshot, &entry); more; more = Process32Next(snapshot, &entry)) {
    if (entry.th32ParentProcessID != parent) continue;
    HANDLE child = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_VM_READ, FALSE, entry.th32ProcessID);
    if (!child) continue;
    Memory m = memoryOf(child);
    CloseHandle(child);
    total.workingSetMiB += m.workingSetMiB;
    total.privateMiB += m.privateMiB;
    (*count)++;
  }
  CloseHandle(snapshot);
  return total;
}

// Host memory per idle context (<= 16 MiB beyond the backend's own). The
// server's growth per idle context (connected, host info sent, one device created) is
// measured, and so is the backend's own cost of one more device on its own thread,
// created directly in this process; the difference is what the host adds per context
// (transport memory, decoder, executor, tables, worker thread). Contexts run on threads
// of the server here (--contexts thread) so that the figures compare like with like;
// the default worker process per context adds a Wine process with its own backend
// (next test).
TEST_F(ExecutorServer, IdleContextCostsAtMost16MiBBeyondTheBackend) {
  constexpr int kContexts = 8;
  // Nine contexts of the default limits reserve about 28 GiB (transport/README.md, "The
  // server's memory bound"): more than some hosts have, and idle ones use little of it.
  Win32ServerProcess server("--dispatch executor --contexts thread --max-memory 64G");
  ASSERT_TRUE(server.running());
  std::vector<std::unique_ptr<WireGuest>> guests;
  auto addContext = [&] {
    guests.push_back(std::make_unique<WireGuest>(server));
    WireGuest& guest = *guests.back();
    ASSERT_TRUE(guest.connected());
    ASSERT_TRUE(protocol::encode_QueryHostInfo(guest.w()));
    std::vector<uint8_t> reply;
    ASSERT_EQ(guest.call(reply), kOk);
    protocol::ObjectId device, context;
    ASSERT_EQ(guest.createDevice(&device, &context), S_OK);
  };
  addContext();   // loads the backend: not a per-context cost
  Sleep(300);
  Memory first = memoryOf(server.process());
  for (int i = 0; i < kContexts; i++) addContext();
  Sleep(300);
  Memory all = memoryOf(server.process());
  const double serverPerContext = (all.workingSetMiB - first.workingSetMiB) / kContexts;

  // The backend alone: one more device per context, each created and used on its own
  // thread kept alive (as each context has its worker thread), in this process.
  HMODULE d3d11 = LoadLibraryA("d3d11.dll");
  ASSERT_NE(d3d11, nullptr);
  auto create = reinterpret_cast<PFN_D3D11_CREATE_DEVICE>(GetProcAddress(d3d11, "D3D11CreateDevice"));
  HANDLE release = CreateEventA(nullptr, TRUE, FALSE, nullptr);
  std::vector<std::thread> threads;
  std::atomic<int> ready{0};
  auto addDevice = [&] {
    threads.emplace_back([&] {
      ID3D11Device* device = nullptr;
      ID3D11DeviceContext* context = nullptr;
      if (SUCCEEDED(create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, D3D11_CREATE_DEVICE_BGRA_SUPPORT, nullptr, 0,
                           D3D11_SDK_VERSION, &device, nullptr, &context))) {
        context->Flush();
        ready++;
        WaitForSingleObject(release, INFINITE);
        context->Release();
        device->Release();
      } else {
        ready++;
      }
    });
    while (ready.load() < int(threads.size())) Sleep(1);
  };
  addDevice();
  Sleep(300);
  Memory before = memoryOf(GetCurrentProcess());
  for (int i = 0; i < kContexts; i++) addDevice();
  Sleep(300);
  Memory after = memoryOf(GetCurrentProcess());
  const double backendPerDevice = (after.workingSetMiB - before.workingSetMiB) / kContexts;
  SetEvent(release);
  for (std::thread& thread : threads) thread.join();
  CloseHandle(release);

  const double hostPerContext = serverPerContext - backendPerDevice;
  std::printf("idle context: server working set +%.2f MiB/context (private +%.2f), backend device alone +%.2f MiB "
              "-> host overhead %.2f MiB/context\n",
              serverPerContext, (all.privateMiB - first.privateMiB) / kContexts, backendPerDevice, hostPerContext);
  RecordProperty("server_mib_per_context", std::to_string(serverPerContext));
  RecordProperty("backend_mib_per_device", std::to_string(backendPerDevice));
  RecordProperty("host_mib_per_context", std::to_string(hostPerContext));
  EXPECT_LE(hostPerContext, 16.0);
}

// The default mode: each idle context is a worker process (Wine process, backend
// loaded, one device). Its whole working set is the per-context cost; the parent's
// growth is what it keeps per context (mapping view, supervising thread).
TEST_F(ExecutorServer, IdleWorkerProcessCostIsMeasured) {
  constexpr int kContexts = 4;
  Memory parentBefore = memoryOf(server.process());
  std::vector<std::unique_ptr<WireGuest>> guests;
  for (int i = 0; i < kContexts; i++) {
    guests.push_back(std::make_unique<WireGuest>(server));
    WireGuest& guest = *guests.back();
    ASSERT_TRUE(guest.connected());
    ASSERT_TRUE(protocol::encode_QueryHostInfo(guest.w()));
    std::vector<uint8_t> reply;
    ASSERT_EQ(guest.call(reply), kOk);
    protocol::ObjectId device, context;
    ASSERT_EQ(guest.createDevice(&device, &context), S_OK);
  }
  Sleep(300);
  int workers = 0;
  Memory children = memoryOfChildren(GetProcessId(server.process()), &workers);
  Memory parentAfter = memoryOf(server.process());
  ASSERT_EQ(workers, kContexts);
  const double perWorker = children.workingSetMiB / workers;
  const double parentPerContext = (parentAfter.workingSetMiB - parentBefore.workingSetMiB) / kContexts;
  std::printf("idle context in a worker process: %.2f MiB working set (private %.2f) per worker; "
              "parent +%.2f MiB per context\n",
              perWorker, children.privateMiB / workers, parentPerContext);
  RecordProperty("worker_process_mib", std::to_string(perWorker));
  RecordProperty("parent_mib_per_context", std::to_string(parentPerContext));
  // The parent keeps no backend state per context.
  EXPECT_LE(parentPerContext, 2.0);
}

// A worker that polls (here a shared fence under NPT_FENCE_WAKE=poll, the baseline of
// bench/present/fence_run.py; pending queries alike) never sleeps on the doorbell, where a
// guest's departure is noticed. It must still end on its own when its guest leaves: before,
// the parent terminated it 2 s later (exit code 1) and its closing log lines were lost.
TEST(ExecutorServerWorkers, APollingWorkerEndsWhenItsGuestLeaves) {
  if (!std::getenv("NPT_SERVER_BIN")) GTEST_SKIP() << "NPT_SERVER_BIN not set";
  SetEnvironmentVariableA("NPT_FENCE_WAKE", "poll");
  Win32ServerProcess server("--dispatch executor");
  SetEnvironmentVariableA("NPT_FENCE_WAKE", nullptr);
  ASSERT_TRUE(server.running());
  auto guest = std::make_unique<WireGuest>(server);
  ASSERT_TRUE(guest->connected());
  protocol::ObjectId device = 0, context = 0;
  ASSERT_EQ(guest->createDevice(&device, &context), S_OK);
  const protocol::ObjectId fence = guest->newId();
  protocol::encode_ID3D11Device5_CreateFence(guest->w(), device, 0, D3D11_FENCE_FLAG_SHARED, 0, fence);
  std::vector<uint8_t> reply;
  ASSERT_EQ(guest->call(reply), kOk);
  HRESULT hr = E_FAIL;
  ASSERT_EQ(protocol::decodeReply_ID3D11Device5_CreateFence(reply.data(), reply.size(), &hr), protocol::ErrorCode::Ok);
  ASSERT_EQ(hr, S_OK);
  protocol::encode_ID3D11Fence_CreateSharedHandle(guest->w(), fence, GENERIC_ALL, nullptr);
  ASSERT_EQ(guest->call(reply), kOk);
  UINT64 handle = 0;
  ASSERT_EQ(protocol::decodeReply_ID3D11Fence_CreateSharedHandle(reply.data(), reply.size(), &hr, &handle),
            protocol::ErrorCode::Ok);
  ASSERT_EQ(hr, S_OK);
  ASSERT_NE(handle, 0u);
  HANDLE worker = OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, guest->connection().worker_pid());
  ASSERT_NE(worker, nullptr);
  Sleep(300);   // polling
  ASSERT_EQ(WaitForSingleObject(worker, 0), DWORD(WAIT_TIMEOUT));
  const ULONGLONG left_at = GetTickCount64();
  guest.reset();
  const bool ended = WaitForSingleObject(worker, 5000) == WAIT_OBJECT_0;
  const ULONGLONG ms = GetTickCount64() - left_at;
  DWORD code = 0xFFFFFFFF;
  GetExitCodeProcess(worker, &code);
  CloseHandle(worker);
  ASSERT_TRUE(ended);
  std::printf("polling worker: ended %llu ms after its guest left, exit code %lu\n", ms, code);
  EXPECT_EQ(code, 0u) << "the worker was terminated instead of ending on its own";
  EXPECT_LT(ms, 1500u);
}

}  // namespace
