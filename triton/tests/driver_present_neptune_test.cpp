// DXGI Present through the DDI with the Neptune guest runtime as Triton's target: the
// presented surfaces reach the host presenter of a neptune-server.exe this program
// starts (NPT_PRESENT_LOG=1: the server logs a checksum per presented frame, FNV-1a 64
// over the frame as RGBA bytes), in order, with the flip interval as sync interval.
//
//   TRITON_DRIVER          the driver DLL (default: this build's)
//   NPT_TEST_D3D11         the Neptune guest d3d11.dll (Triton's target; a copy named
//                          neptune_d3d11.dll, so it never meets Wine's d3d11.dll)
//   NPT_SERVER_BIN         the server to start

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
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

// One server for the program: the guest runtime keeps its process's connection, so a
// second server in the same process would not be reached.
class DriverPresentNeptune : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    server_ = new PresentServer;
    started_ = server_->start();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(started_) << "NPT_SERVER_BIN and NPT_TEST_D3D11 must name the server and the guest runtime";
  }
  static PresentServer* server_;
  static bool started_;
};
PresentServer* DriverPresentNeptune::server_ = nullptr;
bool DriverPresentNeptune::started_ = false;

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

}  // namespace
}  // namespace triton::test
