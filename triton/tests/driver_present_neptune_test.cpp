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

#include "triton/harness/runtime.h"

namespace triton::test {
namespace {

namespace ddi = triton::ddi;
namespace harness = triton::harness;

std::string windowsPath(std::string path) {
  if (!path.empty() && path[0] == '/')
    path = "Z:" + path;
  for (char& c : path)
    if (c == '/')
      c = '\\';
  return path;
}

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
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    socket_ = std::string(temp) + "triton-present-test-" + std::to_string(GetCurrentProcessId());
    log_ = socket_ + ".log";
    SECURITY_ATTRIBUTES inherit{sizeof(inherit), nullptr, TRUE};
    HANDLE log = CreateFileA(log_.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, CREATE_ALWAYS,
                             FILE_ATTRIBUTE_NORMAL, nullptr);
    _putenv_s("NPT_PRESENT_LOG", "1");
    std::string cmd = "\"" + windowsPath(bin) + "\" --socket \"" + socket_ + "\"";
    STARTUPINFOA si{};
    si.cb = sizeof(si);
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = log;
    si.hStdError = log;
    const BOOL started = CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &process_);
    CloseHandle(log);
    _putenv_s("NPT_PRESENT_LOG", "");
    if (!started)
      return false;
    const std::string rendezvous = socket_ + ".tcp";
    for (int i = 0; i < 6000 && GetFileAttributesA(rendezvous.c_str()) == INVALID_FILE_ATTRIBUTES; ++i)
      Sleep(10);
    _putenv_s("NPT_SERVER", socket_.c_str());
    _putenv_s("TRITON_TARGET_D3D11", windowsPath(target).c_str());
    return GetFileAttributesA(rendezvous.c_str()) != INVALID_FILE_ATTRIBUTES;
  }
  ~PresentServer() {
    if (!process_.hProcess)
      return;
    TerminateProcess(process_.hProcess, 0);
    WaitForSingleObject(process_.hProcess, 5000);
    CloseHandle(process_.hProcess);
    CloseHandle(process_.hThread);
    DeleteFileA((socket_ + ".tcp").c_str());
    DeleteFileA(log_.c_str());
  }
  std::string log() const {
    std::string text;
    HANDLE file = CreateFileA(log_.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
      return text;
    char buffer[4096];
    DWORD got = 0;
    while (ReadFile(file, buffer, sizeof(buffer), &got, nullptr) && got)
      text.append(buffer, got);
    CloseHandle(file);
    return text;
  }

private:
  std::string socket_, log_;
  PROCESS_INFORMATION process_{};
};

constexpr UINT kWidth = 64, kHeight = 32;

TEST(DriverPresentNeptune, PresentedFramesReachTheHostPresenter) {
  PresentServer server;
  ASSERT_TRUE(server.start()) << "NPT_SERVER_BIN and NPT_TEST_D3D11 must name the server and the guest runtime";
  std::unique_ptr<harness::Driver> driver;
  ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK);
  harness::Adapter adapter;
  ASSERT_EQ(adapter.open(*driver), S_OK);
  harness::Device device;
  ASSERT_EQ(device.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION,
                          harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM),
                          ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
            S_OK);
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  const D3D11_TEXTURE2D_DESC desc{kWidth, kHeight, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0, 0};
  harness::Resource backBuffer = device.createTexture2D(desc);
  harness::RenderTargetView rtv = device.createRenderTargetView(backBuffer, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);
  const std::string before = server.log();

  struct Frame {
    FLOAT colour[4];
    ddi::DXGI_DDI_FLIP_INTERVAL_TYPE interval;
    bool flip;
  };
  Frame frames[] = {{{1, 0, 0, 1}, ddi::DXGI_DDI_FLIP_INTERVAL_IMMEDIATE, false},
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
    args.Flags.Blt = frame.flip ? 0 : 1;
    args.Flags.Flip = frame.flip ? 1 : 0;
    args.FlipInterval = frame.interval;
    ASSERT_EQ(device.dxgi1_2.pfnPresent(&args), S_OK);
  }
  EXPECT_EQ(device.presentCallbacks(), 4u);

  // The host logs a present when it executes it: wait until an event query behind the
  // last one is done.
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
  ASSERT_TRUE(finished);

  std::string log;
  size_t at = 0;
  for (int attempt = 0; attempt < 200; ++attempt) {   // the server's log reaches the file a little later
    log = server.log().substr(before.size());
    if (log.find("checksum", 0) != std::string::npos && std::count(log.begin(), log.end(), '\n') >= 4)
      break;
    Sleep(10);
  }
  for (const Frame& frame : frames) {
    uint64_t hash = 1469598103934665603ull;
    for (UINT pixel = 0; pixel < kWidth * kHeight; ++pixel)
      for (int c = 0; c < 4; ++c)
        hash = (hash ^ uint8_t(frame.colour[c] * 255.0f + 0.5f)) * 1099511628211ull;
    char expected[128];
    std::snprintf(expected, sizeof(expected), "%ux%u interval %u flags 0x0 checksum %016llx", kWidth, kHeight,
                  unsigned(frame.interval), static_cast<unsigned long long>(hash));
    const size_t found = log.find(expected, at);
    EXPECT_NE(found, std::string::npos) << "no \"" << expected << "\" (in order) in the server log:\n" << log;
    if (found != std::string::npos)
      at = found + 1;
  }
  device.destroy(done);
  device.destroy(rtv);
  device.destroyResource(backBuffer);
  EXPECT_EQ(device.errorCount(), 0u);
}

}  // namespace
}  // namespace triton::test
