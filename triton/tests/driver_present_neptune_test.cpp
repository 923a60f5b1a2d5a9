// SPDX-License-Identifier: MIT
// DXGI Present through the DDI with the Neptune guest runtime as Triton's target: the
// presented surfaces reach the host presenter of a neptune-server.exe this program
// starts (NPT_PRESENT_LOG=1: the server logs a checksum per presented frame, FNV-1a 64
// over the frame as RGBA bytes), in order, with the flip interval as sync interval; and
// the run-ahead bound: with the host frozen (its worker processes suspended, a host that
// retires no frame), Present returns for as many frames as the bound allows and then
// waits until the host is thawed and finishes one.
//
//   TRITON_DRIVER          the driver DLL (default: this build's)
//   NPT_TEST_D3D11         the Neptune guest d3d11.dll (Triton's target; a copy named
//                          neptune_d3d11.dll, so it never meets Wine's d3d11.dll)
//   NPT_SERVER_BIN         the server to start

#include <gtest/gtest.h>

#include <windows.h>
#include <tlhelp32.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "server_launch_win32.h"
#include "triton/harness/runtime.h"

namespace triton::test {
namespace {

namespace ddi = triton::ddi;
namespace harness = triton::harness;

using npt::testing::windowsPath;

std::string driverPath() {
  const char* env = std::getenv("TRITON_DRIVER");
  return env ? env : TRITON_DRIVER_PATH;
}

// The server, its output in a file the test reads back.
class PresentServer {
public:
  bool start() {
    // Copies: changing the environment below may move what getenv pointed at.
    const char* binEnv = std::getenv("NPT_SERVER_BIN");
    const char* targetEnv = std::getenv("NPT_TEST_D3D11");
    if (!binEnv || !targetEnv)
      return false;
    const std::string bin = binEnv, target = targetEnv;
    npt::testing::ServerProcess::Options options;
    options.name = "triton-present-test";
    options.presentLog = true;
    if (!server_.start(bin, options))
      return false;
    _putenv_s("NPT_SERVER", server_.socket().c_str());
    _putenv_s("TRITON_TARGET_D3D11", windowsPath(target).c_str());
    return true;
  }
  std::string log() const { return server_.log(); }
  DWORD processId() const { return GetProcessId(server_.process()); }

private:
  npt::testing::ServerProcess server_;
};

constexpr UINT kWidth = 64, kHeight = 32;

struct Frame {
  FLOAT colour[4];
  ddi::DXGI_DDI_FLIP_INTERVAL_TYPE interval;
  bool flip;
};

// A device on the interface, with the server started first (Triton's target is then the
// Neptune guest runtime).
HRESULT createDevice(harness::Adapter& adapter, harness::Device& device, UINT interfaceVersion, UINT build) {
  return device.create(adapter, interfaceVersion, harness::runtimeVersion(build, ddi::DXGI_OFFER_RECLAIM),
                       ddi::D3D11DDI_3DPIPELINELEVEL_11_0);
}

harness::Resource createBackBuffer(harness::Device& device) {
  const D3D11_TEXTURE2D_DESC desc{kWidth, kHeight, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0, 0};
  return device.createTexture2D(desc);
}

ddi::DXGI_DDI_PRESENT_FLAGS presentFlags(const Frame& frame) {
  ddi::DXGI_DDI_PRESENT_FLAGS flags{};
  flags.Blt = frame.flip ? 0 : 1;
  flags.Flip = frame.flip ? 1 : 0;
  return flags;
}

// The host logs a present when it executes it: waits until an event query behind the
// last one is done, then until the server's log (written a little later) names every
// frame, and checks each frame's size, interval and FNV-1a checksum, in order.
uint64_t frameChecksum(const FLOAT colour[4]) {
  uint64_t hash = 1469598103934665603ull;
  for (UINT pixel = 0; pixel < kWidth * kHeight; ++pixel)
    for (int c = 0; c < 4; ++c)
      hash = (hash ^ uint8_t(colour[c] * 255.0f + 0.5f)) * 1099511628211ull;
  return hash;
}

void expectFramesInServerLog(harness::Device& device, const PresentServer& server, const std::string& before,
                             const std::vector<Frame>& frames, std::string* logOut = nullptr) {
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  harness::Query done = device.createQuery(ddi::D3D10DDI_QUERY_EVENT);
  device.funcs11_1.pfnQueryEnd(h, done.handle);
  device.funcs11_1.pfnFlush(h, 0);
  BOOL finished = FALSE;
  for (int i = 0; i < 5000; ++i) {
    device.funcs11_1.pfnQueryGetData(h, done.handle, &finished, sizeof(finished), 0);
    if (device.takeError() == S_OK && finished)
      break;
    Sleep(1);
  }
  device.destroy(done);
  ASSERT_TRUE(finished);

  std::string log;
  size_t at = 0;
  for (int attempt = 0; attempt < 200; ++attempt) {
    log = server.log().substr(before.size());
    if (log.find("checksum", 0) != std::string::npos &&
        size_t(std::count(log.begin(), log.end(), '\n')) >= frames.size())
      break;
    Sleep(10);
  }
  if (logOut)
    *logOut = log;
  for (const Frame& frame : frames) {
    const uint64_t hash = frameChecksum(frame.colour);
    char expected[128];
    std::snprintf(expected, sizeof(expected), "%ux%u interval %u flags 0x0 checksum %016llx", kWidth, kHeight,
                  unsigned(frame.interval), static_cast<unsigned long long>(hash));
    const size_t found = log.find(expected, at);
    EXPECT_NE(found, std::string::npos) << "no \"" << expected << "\" (in order) in the server log:\n" << log;
    if (found != std::string::npos)
      at = found + 1;
  }
}

// One server for the program (every test suite): the guest runtime keeps its process's
// connection, so a second server in the same process would not be reached.
class PresentServerEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    server = new PresentServer;
    started = server->start();
  }
  void TearDown() override {
    delete server;
    server = nullptr;
  }
  static PresentServer* server;
  static bool started;
};
PresentServer* PresentServerEnvironment::server = nullptr;
bool PresentServerEnvironment::started = false;
::testing::Environment* const kPresentServerEnvironment =
    ::testing::AddGlobalTestEnvironment(new PresentServerEnvironment);

class DriverPresentNeptune : public ::testing::Test {
protected:
  void SetUp() override {
    server_ = PresentServerEnvironment::server;
    ASSERT_TRUE(PresentServerEnvironment::started)
        << "NPT_SERVER_BIN and NPT_TEST_D3D11 must name the server and the guest runtime";
  }
  PresentServer* server_ = nullptr;
};

TEST_F(DriverPresentNeptune, PresentedFramesReachTheHostPresenter) {
  const PresentServer& server = *server_;
  std::unique_ptr<harness::Driver> driver;
  ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK);
  harness::Adapter adapter;
  ASSERT_EQ(adapter.open(*driver), S_OK);
  harness::Device device;
  ASSERT_EQ(createDevice(adapter, device, ddi::D3D11_1_DDI_INTERFACE_VERSION, ddi::D3D11_1_DDI_BUILD_VERSION), S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  harness::Resource backBuffer = createBackBuffer(device);
  harness::RenderTargetView rtv = device.createRenderTargetView(backBuffer, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);
  const std::string before = server.log();

  std::vector<Frame> frames = {{{1, 0, 0, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_IMMEDIATE, false},
                                     {{0, 1, 0, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_ONE, false},
                                     {{0, 0, 1, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_IMMEDIATE, true},
                                     {{1, 1, 1, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_TWO, true}};
  int dxgiContext = 0;
  for (Frame& frame : frames) {
    device.funcs11_1.pfnClearRenderTargetView(h, rtv.handle, frame.colour);
    ddi::DXGI_DDI_ARG_PRESENT args{};
    args.hDevice = reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(h.pDrvPrivate);
    args.hSurfaceToPresent = reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(backBuffer.handle.pDrvPrivate);
    args.pDXGIContext = &dxgiContext;
    args.Flags = presentFlags(frame);
    args.FlipInterval = frame.interval;
    ASSERT_EQ(device.dxgi1_2.pfnPresent(&args), S_OK);
  }
  EXPECT_EQ(device.presentCallbacks(), 4u);
  expectFramesInServerLog(device, server, before, frames);
  ASSERT_FALSE(HasFatalFailure());
  device.destroy(rtv);
  device.destroyResource(backBuffer);
  EXPECT_EQ(device.errorCount(), 0u);
}

// DXGI 1.3's Present1 on the WDDM 1.3 interface takes the same path: of two surfaces,
// the last reaches the host presenter (the first holds another colour), whatever the
// dirty rectangles say.
TEST_F(DriverPresentNeptune, Present1FramesReachTheHostPresenter) {
  const PresentServer& server = *server_;
  std::unique_ptr<harness::Driver> driver;
  ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK);
  harness::Adapter adapter;
  ASSERT_EQ(adapter.open(*driver), S_OK);
  harness::Device device;
  ASSERT_EQ(createDevice(adapter, device, ddi::D3DWDDM1_3_DDI_INTERFACE_VERSION, ddi::D3DWDDM1_3_DDI_BUILD_VERSION),
            S_OK);
  ASSERT_TRUE(device.isWddm1_3());
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  harness::Resource other = createBackBuffer(device), shown = createBackBuffer(device);
  harness::RenderTargetView otherRtv = device.createRenderTargetView(other, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::RenderTargetView shownRtv = device.createRenderTargetView(shown, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);
  const std::string before = server.log();

  std::vector<Frame> frames = {{{0, 1, 1, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_ONE, true},
                                     {{1, 0, 1, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_IMMEDIATE, false}};
  FLOAT black[4] = {0, 0, 0, 1};
  const RECT dirty = {0, 0, 8, 8};
  int dxgiContext = 0;
  for (Frame& frame : frames) {
    device.funcs11_1.pfnClearRenderTargetView(h, otherRtv.handle, black);
    device.funcs11_1.pfnClearRenderTargetView(h, shownRtv.handle, frame.colour);
    const ddi::DXGI_DDI_ARG_PRESENTSURFACE surfaces[2] = {
        {reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(other.handle.pDrvPrivate), 0},
        {reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(shown.handle.pDrvPrivate), 0}};
    ddi::DXGI_DDI_ARG_PRESENT1 args{};
    args.hDevice = reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(h.pDrvPrivate);
    args.phSurfacesToPresent = surfaces;
    args.SurfacesToPresent = 2;
    args.pDXGIContext = &dxgiContext;
    args.Flags = presentFlags(frame);
    args.FlipInterval = frame.interval;
    args.pDirtyRects = &dirty;
    args.DirtyRects = 1;
    args.BackBufferMultiplicity = 1;
    ASSERT_EQ(device.dxgi1_3.pfnPresent1(&args), S_OK);
  }
  EXPECT_EQ(device.presentCallbacks(), 2u);
  std::string log;
  expectFramesInServerLog(device, server, before, frames, &log);
  ASSERT_FALSE(HasFatalFailure());
  char notShown[64];
  std::snprintf(notShown, sizeof(notShown), "checksum %016llx", static_cast<unsigned long long>(frameChecksum(black)));
  EXPECT_EQ(log.find(notShown), std::string::npos) << "the first surface was presented:\n" << log;
  device.destroy(otherRtv);
  device.destroy(shownRtv);
  device.destroyResource(other);
  device.destroyResource(shown);
  EXPECT_EQ(device.errorCount(), 0u);
}

// A host that makes no progress: every thread of the server's worker processes (one per
// context) suspended, as the isolation tests hang a worker. Nothing the guest submits is
// executed, so no frame finishes, until thaw().
class FrozenHost {
public:
  explicit FrozenHost(DWORD serverId) {
    std::vector<DWORD> workers;
    HANDLE processes = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    PROCESSENTRY32 process{};
    process.dwSize = sizeof(process);
    for (BOOL more = Process32First(processes, &process); more; more = Process32Next(processes, &process))
      if (process.th32ParentProcessID == serverId)
        workers.push_back(process.th32ProcessID);
    CloseHandle(processes);
    HANDLE threads = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    THREADENTRY32 thread{};
    thread.dwSize = sizeof(thread);
    for (BOOL more = Thread32First(threads, &thread); more; more = Thread32Next(threads, &thread)) {
      if (std::find(workers.begin(), workers.end(), thread.th32OwnerProcessID) == workers.end())
        continue;
      HANDLE handle = OpenThread(THREAD_SUSPEND_RESUME, FALSE, thread.th32ThreadID);
      if (handle && SuspendThread(handle) != DWORD(-1))
        suspended_.push_back(handle);
      else if (handle)
        CloseHandle(handle);
    }
    CloseHandle(threads);
    workers_ = workers.size();
  }
  ~FrozenHost() { thaw(); }
  void thaw() {
    for (HANDLE handle : suspended_) {
      ResumeThread(handle);
      CloseHandle(handle);
    }
    suspended_.clear();
  }
  size_t workers() const { return workers_; }
  size_t threads() const { return suspended_.size(); }

private:
  size_t workers_ = 0;
  std::vector<HANDLE> suspended_;
};

// Waits (bounded) until the host has executed everything submitted so far.
void waitUntilHostIdle(harness::Device& device) {
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  harness::Query done = device.createQuery(ddi::D3D10DDI_QUERY_EVENT);
  device.funcs11_1.pfnQueryEnd(h, done.handle);
  device.funcs11_1.pfnFlush(h, 0);
  BOOL finished = FALSE;
  for (int i = 0; i < 10000 && !finished; ++i) {
    device.funcs11_1.pfnQueryGetData(h, done.handle, &finished, sizeof(finished), 0);
    const HRESULT hr = device.takeError();   // not finished yet: DXGI_DDI_ERR_WASSTILLDRAWING
    ASSERT_TRUE(hr == S_OK || hr == DXGI_DDI_ERR_WASSTILLDRAWING) << std::hex << hr;
    if (!finished)
      Sleep(1);
  }
  device.destroy(done);
  ASSERT_TRUE(finished) << "the host did not finish the frames in 10 s";
}

// Run-ahead bound: the model (blt or flip) and the bound TRITON_MAX_FRAME_LATENCY sets
// (0: unset, DXGI's default 3).
struct RunAhead {
  const char* name;
  bool flip;
  UINT setting;
};

class DriverPresentRunAhead : public DriverPresentNeptune, public ::testing::WithParamInterface<RunAhead> {};

// With the host frozen, `bound` presents return (none waits: the host retires nothing, so
// a wait would never end) and each reaches pfnPresentCb; the next one waits, with its
// callback not made, for as long as the host stays frozen, and returns S_OK once the
// thawed host has finished the oldest frame.
TEST_P(DriverPresentRunAhead, PresentWaitsOnlyAtTheBound) {
  const RunAhead& param = GetParam();
  const UINT bound = param.setting ? param.setting : 3;
  // Read when the device is created; "" removes it (DXGI's default).
  _putenv_s("TRITON_MAX_FRAME_LATENCY", param.setting ? std::to_string(param.setting).c_str() : "");
  std::unique_ptr<harness::Driver> driver;
  ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK);
  harness::Adapter adapter;
  ASSERT_EQ(adapter.open(*driver), S_OK);
  harness::Device device;
  const HRESULT created =
      createDevice(adapter, device, ddi::D3D11_1_DDI_INTERFACE_VERSION, ddi::D3D11_1_DDI_BUILD_VERSION);
  _putenv_s("TRITON_MAX_FRAME_LATENCY", "");
  ASSERT_EQ(created, S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  harness::Resource backBuffer = createBackBuffer(device);
  harness::RenderTargetView rtv = device.createRenderTargetView(backBuffer, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);

  int dxgiContext = 0;
  std::vector<HRESULT> results;
  std::atomic<UINT> returned{0};
  auto presentFrame = [&](UINT frame) {
    FLOAT colour[4] = {float(frame % 2), float(frame % 3) / 2.0f, 1.0f, 1.0f};
    device.funcs11_1.pfnClearRenderTargetView(h, rtv.handle, colour);
    ddi::DXGI_DDI_ARG_PRESENT args{};
    args.hDevice = reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(h.pDrvPrivate);
    args.hSurfaceToPresent = reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(backBuffer.handle.pDrvPrivate);
    args.pDXGIContext = &dxgiContext;
    args.Flags.Blt = param.flip ? 0 : 1;
    args.Flags.Flip = param.flip ? 1 : 0;
    args.FlipInterval = param.flip ? ddi::DXGI_DDI_FLIP_INTERVAL_ONE : ddi::DXGI_DDI_FLIP_INTERVAL_IMMEDIATE;
    results.push_back(device.dxgi1_2.pfnPresent(&args));
    returned.fetch_add(1, std::memory_order_release);
  };

  // A frame the host finishes: what is in flight before the freeze is done.
  presentFrame(0);
  waitUntilHostIdle(device);
  ASSERT_FALSE(HasFatalFailure());
  const size_t callbacksBefore = device.presentCallbacks();
  returned = 0;
  results.clear();

  FrozenHost host(server_->processId());
  ASSERT_GT(host.threads(), 0u) << "no worker thread of the server was suspended";
  std::thread presenter([&] {
    for (UINT frame = 1; frame <= bound + 1; ++frame)
      presentFrame(frame);
  });
  // Below the bound nothing waits.
  for (int i = 0; i < 1000 && returned.load(std::memory_order_acquire) < bound; ++i)
    Sleep(10);
  EXPECT_EQ(returned.load(std::memory_order_acquire), bound) << "presents below the bound did not all return";
  // At the bound the next present waits for the frozen host.
  Sleep(500);
  EXPECT_EQ(returned.load(std::memory_order_acquire), bound) << "a present beyond the bound did not wait";
  EXPECT_EQ(device.presentCallbacks(), callbacksBefore + bound);
  host.thaw();
  for (int i = 0; i < 2000 && returned.load(std::memory_order_acquire) < bound + 1; ++i)
    Sleep(10);
  const UINT afterThaw = returned.load(std::memory_order_acquire);
  EXPECT_EQ(afterThaw, bound + 1) << "the waiting present did not return after the host was thawed";
  if (afterThaw < bound + 1)
    TerminateProcess(GetCurrentProcess(), 3);   // the presenter thread is stuck: no clean end
  presenter.join();
  for (HRESULT hr : results)
    EXPECT_EQ(hr, S_OK);
  EXPECT_EQ(device.presentCallbacks(), callbacksBefore + bound + 1);

  waitUntilHostIdle(device);
  device.destroy(rtv);
  device.destroyResource(backBuffer);
  EXPECT_EQ(device.errorCount(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverPresentRunAhead,
                         ::testing::Values(RunAhead{"BltModelDefaultBound", false, 0},
                                           RunAhead{"FlipModelDefaultBound", true, 0},
                                           RunAhead{"BltModelBoundOne", false, 1},
                                           RunAhead{"FlipModelBoundFive", true, 5}),
                         [](const ::testing::TestParamInfo<RunAhead>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace triton::test
