// SPDX-License-Identifier: MIT
// Properties of the whole stack — application -> API-level runtime -> Triton -> Neptune
// guest runtime -> neptune-server.exe (which this program starts) — that no single layer
// shows:
//
// * Steady-state frames cost no synchronous round trip beyond the Wine path's (the
//   application's own Map(READ) of the frame): counted from the guest runtime's
//   statistics line (NPT_LOG=info into NPT_LOG_FILE) of a device that ran 2 and one that
//   ran 6 frames, through the runtime and with the Neptune guest runtime loaded directly.
// * Host loss becomes device removed: the server is terminated; the guest device is
//   removed, Triton reports D3DDDIERR_DEVICEREMOVED through pfnSetErrorCb and the
//   application sees DXGI_ERROR_DEVICE_REMOVED (Map, GetDeviceRemovedReason, creations).
//   It runs last: it ends the server.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime_test_support.h"

namespace triton::test {
namespace {

using Microsoft::WRL::ComPtr;

NeptuneServer* server = nullptr;
std::string logPath;

std::string readLog() {
  std::string text;
  FILE* f = std::fopen(logPath.c_str(), "rb");
  if (!f)
    return text;
  char buffer[4096];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof(buffer), f)) > 0)
    text.append(buffer, got);
  std::fclose(f);
  return text;
}

// The sync round trips of the busiest device whose statistics line is in `text` (a
// device through Triton comes with the adapter's probe device, which sends little).
long long syncRoundTrips(const std::string& text) {
  long long best = -1, bestCommands = -1;
  for (size_t at = text.find("destroyed:"); at != std::string::npos; at = text.find("destroyed:", at + 1)) {
    unsigned long long commands = 0, bytes = 0, trips = 0;
    if (std::sscanf(text.c_str() + at, "destroyed: %llu commands, %llu bytes, %llu sync round trips", &commands,
                    &bytes, &trips) == 3 &&
        (long long)commands > bestCommands) {
      bestCommands = (long long)commands;
      best = (long long)trips;
    }
  }
  return best;
}

// Creates a device of `loaded`, renders `frames` frames as the samples do (clear, a copy
// to a staging texture, Map(READ) of it), destroys the device and returns its sync round
// trips.
long long roundTripsOf(const Loaded& loaded, int frames) {
  const std::string before = readLog();
  {
    ComPtr<ID3D11DeviceContext> context;
    ComPtr<ID3D11Device> device = createDevice(loaded, D3D_FEATURE_LEVEL_11_0, &context);
    EXPECT_TRUE(device);
    if (!device)
      return -1;
    D3D11_TEXTURE2D_DESC desc{64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                              D3D11_BIND_RENDER_TARGET, 0, 0};
    ComPtr<ID3D11Texture2D> target, staging;
    EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &target), S_OK);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &staging), S_OK);
    ComPtr<ID3D11RenderTargetView> rtv;
    EXPECT_EQ(device->CreateRenderTargetView(target.Get(), nullptr, &rtv), S_OK);
    for (int frame = 0; frame < frames; ++frame) {
      const FLOAT colour[4] = {float(frame) / 8, 0.5f, 0.25f, 1};
      context->OMSetRenderTargets(1, rtv.GetAddressOf(), nullptr);
      context->ClearRenderTargetView(rtv.Get(), colour);
      context->CopyResource(staging.Get(), target.Get());
      D3D11_MAPPED_SUBRESOURCE mapped{};
      EXPECT_EQ(context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
      context->Unmap(staging.Get(), 0);
    }
  }
  std::string added;
  for (int attempt = 0; attempt < 500; ++attempt) {   // the line is written at destruction
    added = readLog().substr(before.size());
    if (added.find("destroyed:") != std::string::npos)
      break;
    Sleep(10);
  }
  return syncRoundTrips(added);
}

TEST(RuntimeStack, SteadyStateFramesCostNoRoundTripBeyondTheWinePath) {
  // Set here, after the server started (it must not log into the file), before the guest
  // runtime is loaded (by Triton, or below): it reads them when it first logs.
  // The C runtime's copy (what the guest runtime's getenv reads) and the process's.
  _putenv_s("NPT_LOG", "info");
  _putenv_s("NPT_LOG_FILE", logPath.c_str());
  SetEnvironmentVariableA("NPT_LOG", "info");
  SetEnvironmentVariableA("NPT_LOG_FILE", logPath.c_str());
  const char* guestPath = std::getenv("NPT_TEST_D3D11");
  ASSERT_TRUE(guestPath);
  Loaded runtime = loadRuntime();
  Loaded neptune = load(windowsPath(guestPath).c_str());   // the Wine path: Neptune's own d3d11.dll
  ASSERT_TRUE(runtime.create && neptune.create);
  const long long triton2 = roundTripsOf(runtime, 2), triton6 = roundTripsOf(runtime, 6);
  const long long direct2 = roundTripsOf(neptune, 2), direct6 = roundTripsOf(neptune, 6);
  ASSERT_GE(triton2, 0) << "no statistics line in " << logPath;
  ASSERT_GE(direct2, 0);
  std::printf("[ note ] sync round trips for 2 / 6 frames: through Triton %lld / %lld, Neptune directly %lld / %lld\n",
              triton2, triton6, direct2, direct6);
  // Four more frames: four more Map(READ) round trips, and nothing else, both ways.
  EXPECT_EQ(triton6 - triton2, 4);
  EXPECT_EQ(direct6 - direct2, 4);
}

TEST(RuntimeStack, HostLossBecomesDeviceRemoved) {
  Loaded runtime = loadRuntime();
  ComPtr<ID3D11DeviceContext> context;
  ComPtr<ID3D11Device> device = createDevice(runtime, D3D_FEATURE_LEVEL_11_0, &context);
  ASSERT_TRUE(device);
  // A read back of what the host drew: it needs the host.
  D3D11_TEXTURE2D_DESC targetDesc{8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET, 0, 0};
  ComPtr<ID3D11Texture2D> target, staging;
  ASSERT_EQ(device->CreateTexture2D(&targetDesc, nullptr, &target), S_OK);
  D3D11_TEXTURE2D_DESC stagingDesc = targetDesc;
  stagingDesc.Usage = D3D11_USAGE_STAGING;
  stagingDesc.BindFlags = 0;
  stagingDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  ASSERT_EQ(device->CreateTexture2D(&stagingDesc, nullptr, &staging), S_OK);
  ComPtr<ID3D11RenderTargetView> rtv;
  ASSERT_EQ(device->CreateRenderTargetView(target.Get(), nullptr, &rtv), S_OK);
  auto readBack = [&](float red) {
    const FLOAT colour[4] = {red, 0, 0, 1};
    context->ClearRenderTargetView(rtv.Get(), colour);
    context->CopyResource(staging.Get(), target.Get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    const HRESULT hr = context->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &mapped);
    if (SUCCEEDED(hr))
      context->Unmap(staging.Get(), 0);
    return hr;
  };
  ASSERT_EQ(readBack(1.0f), S_OK);
  ASSERT_EQ(device->GetDeviceRemovedReason(), S_OK);

  server->terminate();

  // Once the guest runtime notices the loss, the read fails.
  HRESULT hr = S_OK;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int i = 0; std::chrono::steady_clock::now() < deadline; ++i) {
    hr = readBack(float(i % 2));
    if (hr == DXGI_ERROR_DEVICE_REMOVED)
      break;
    Sleep(20);
  }
  EXPECT_EQ(hr, DXGI_ERROR_DEVICE_REMOVED);
  EXPECT_EQ(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
  // Creations reach the driver, which reports the loss; outs stay null.
  const D3D11_TEXTURE2D_DESC desc{8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_RENDER_TARGET, 0, 0};
  ComPtr<ID3D11Texture2D> texture;
  EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &texture), DXGI_ERROR_DEVICE_REMOVED);
  EXPECT_FALSE(texture);
  EXPECT_EQ(device->GetDeviceRemovedReason(), DXGI_ERROR_DEVICE_REMOVED);
}

}  // namespace
}  // namespace triton::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char temp[MAX_PATH];
  GetTempPathA(sizeof(temp), temp);
  triton::test::logPath = std::string(temp) + "triton-runtime-stack-" + std::to_string(GetCurrentProcessId()) + ".log";
  DeleteFileA(triton::test::logPath.c_str());
  triton::test::server = new triton::test::NeptuneServer("triton-runtime-stack-test");
  ::testing::AddGlobalTestEnvironment(triton::test::server);
  const int result = RUN_ALL_TESTS();
  DeleteFileA(triton::test::logPath.c_str());
  return result;
}
