// SPDX-License-Identifier: MIT
// Triton's kernel transport behind the harness (triton/kernel/CONTRACT.md): the harness
// plays the runtime, a fake kernel (fake_kernel.h) answers the escapes and blob
// allocations and carries the bytes to a neptune-server.exe this program starts; Triton's
// target is the Neptune guest runtime.
//
// * Frames: the same scene, three frames, drawn through the DDI once with the guest
//   runtime's own socket connection (TRITON_TRANSPORT=socket) and once through the kernel
//   callbacks (TRITON_TRANSPORT=kernel), each in a process of its own (one connection per
//   process): the read-back bytes are identical.
// * Bulk regions after creation: a 72 MiB upload and readbacks larger than a reply slot
//   through the kernel path, the regions allocated, locked and freed as blobs 1..63.
// * The transport chosen from the adapter key's TritonTransport (the INF's), the
//   environment overriding it.
// * The fake kernel's answers to malformed escapes and allocations (the documented
//   statuses), and Triton's refusal of a kernel that answers the contract wrongly.
//
//   NPT_SERVER_BIN   the server to start       NPT_TEST_D3D11   the Neptune guest d3d11.dll
//   TRITON_DRIVER    the driver DLL (default: this build's)

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fake_kernel.h"
#include "neptune_server_env.h"
#include "triton/harness/runtime.h"

namespace triton::test {
namespace {

namespace ddi = triton::ddi;
namespace harness = triton::harness;
namespace kc = triton::kernel;

std::string driverPath() {
  const char* env = std::getenv("TRITON_DRIVER");
  return env ? env : TRITON_DRIVER_PATH;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> corpusFile(const char* relative) {
  const char* env = std::getenv("DXBC_CORPUS_DIR");
  return readFile(std::string(env ? env : DXBC_CORPUS_DIR) + "/" + relative);
}

void setEnvironment(const char* name, const char* value) {
  _putenv_s(name, value ? value : "");
  SetEnvironmentVariableA(name, value);
}

// The server's rendezvous file, as the guest runtime derives it from NPT_SERVER.
std::string serverAddress() {
  const char* server = std::getenv("NPT_SERVER");
  return server ? std::string(server) + ".tcp" : std::string();
}

// --- The scene ------------------------------------------------------------------------

constexpr UINT kSize = 64;
constexpr UINT kFrames = 3;
constexpr const char* kVertexShader = "vkd3d/vkd3d_0009_44272e4b5582.dxbc";         // POSITION pass-through
constexpr const char* kPixelShaderConstant = "vkd3d/vkd3d_0004_5463946b1053.dxbc";  // SV_Target = cb0[0]
constexpr float kVertices[] = {-0.5f, -0.5f, 0.5f, 1.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.5f, -0.5f, 0.5f, 1.0f};
const D3D11_INPUT_ELEMENT_DESC kLayout[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0}};

float clearValue(UINT frame) { return 0.1f + 0.2f * float(frame); }
float constantValue(UINT frame) { return 0.25f + 0.25f * float(frame); }

// Draws kFrames frames (clear, a triangle in a per-frame colour from a discard-mapped
// constant buffer) and reads each back: kFrames * kSize * kSize RGBA8 pixels.
bool renderFrames(harness::Adapter& adapter, std::vector<uint8_t>& out, std::string& error) {
  const std::vector<uint8_t> vsContainer = corpusFile(kVertexShader);
  const std::vector<uint8_t> psContainer = corpusFile(kPixelShaderConstant);
  if (vsContainer.empty() || psContainer.empty()) {
    error = "DXBC corpus not found";
    return false;
  }
  harness::Device device;
  const UINT version = harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
  if (HRESULT hr = device.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version,
                                 ddi::D3D11DDI_3DPIPELINELEVEL_11_0);
      FAILED(hr)) {
    char text[64];
    std::snprintf(text, sizeof(text), "CreateDevice: 0x%08lx", static_cast<unsigned long>(hr));
    error = text;
    return false;
  }
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  const D3D11_TEXTURE2D_DESC targetDesc{kSize, kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_RENDER_TARGET, 0, 0};
  const D3D11_TEXTURE2D_DESC stagingDesc{kSize, kSize, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_STAGING,
                                         0, D3D11_CPU_ACCESS_READ, 0};
  harness::Resource target = device.createTexture2D(targetDesc);
  harness::Resource staging = device.createTexture2D(stagingDesc);
  harness::RenderTargetView rtv = device.createRenderTargetView(target, DXGI_FORMAT_R8G8B8A8_UNORM);
  const D3D11_BUFFER_DESC vbd{sizeof(kVertices), D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
  const D3D11_SUBRESOURCE_DATA vbData{kVertices, 0, 0};
  harness::Resource vb = device.createBuffer(vbd, &vbData);
  const D3D11_BUFFER_DESC cbd{16, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  harness::Resource cb = device.createBuffer(cbd);
  harness::StrippedShader vs, ps;
  if (!harness::stripShader(vsContainer, vs) || !harness::stripShader(psContainer, ps)) {
    error = "cannot strip the corpus shaders";
    return false;
  }
  harness::Shader vertexShader = device.createShader(harness::ShaderStage::Vertex, vs);
  harness::Shader pixelShader = device.createShader(harness::ShaderStage::Pixel, ps);
  harness::ElementLayout layout = device.createElementLayout(kLayout, vsContainer);
  if (!target || !staging || !rtv || !vb || !cb || !vertexShader || !pixelShader || !layout ||
      device.takeError() != S_OK) {
    error = "creating the scene's objects failed";
    return false;
  }

  for (UINT frame = 0; frame < kFrames; ++frame) {
    ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
    TRITON_DDI(device, pfnDynamicConstantBufferMapDiscard)(h, cb.handle, 0, ddi::D3D10_DDI_MAP_WRITE_DISCARD, 0,
                                                           &mapped);
    if (!mapped.pData) {
      error = "the constant buffer did not map";
      return false;
    }
    const float colour[4] = {constantValue(frame), 1.0f - constantValue(frame), 0.5f, 1.0f};
    std::memcpy(mapped.pData, colour, sizeof(colour));
    TRITON_DDI(device, pfnDynamicConstantBufferUnmap)(h, cb.handle, 0);

    float clear[4] = {clearValue(frame), 0.2f, 0.3f, 1.0f};
    TRITON_DDI(device, pfnClearRenderTargetView)(h, rtv.handle, clear);
    TRITON_DDI(device, pfnIaSetInputLayout)(h, layout.handle);
    const UINT stride = 16, offset = 0;
    TRITON_DDI(device, pfnIaSetVertexBuffers)(h, 0, 1, &vb.handle, &stride, &offset);
    TRITON_DDI(device, pfnIaSetTopology)(h, ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    TRITON_DDI(device, pfnVsSetShader)(h, vertexShader.handle);
    TRITON_DDI(device, pfnPsSetShader)(h, pixelShader.handle);
    device.setConstantBuffers(harness::ShaderStage::Pixel, 0, std::span(&cb.handle, 1));
    const ddi::D3D10_DDI_VIEWPORT viewport{0, 0, float(kSize), float(kSize), 0, 1};
    TRITON_DDI(device, pfnSetViewports)(h, 1, 0, &viewport);
    TRITON_DDI(device, pfnSetRenderTargets)(h, &rtv.handle, 1, 0, ddi::D3D10DDI_HDEPTHSTENCILVIEW{}, nullptr, nullptr,
                                            0, 0, 0, 0);
    TRITON_DDI(device, pfnDraw)(h, 3, 0);
    TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, target.handle);
    TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
    if (device.takeError() != S_OK || !mapped.pData) {
      error = "the frame did not read back";
      return false;
    }
    for (UINT y = 0; y < kSize; ++y) {
      const auto* row = static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch;
      out.insert(out.end(), row, row + kSize * 4);
    }
    TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);
  }

  device.destroy(layout);
  device.destroy(pixelShader);
  device.destroy(vertexShader);
  device.destroy(rtv);
  for (harness::Resource* r : {&cb, &vb, &staging, &target})
    device.destroyResource(*r);
  if (device.errorCount() != 0) {
    error = "the driver reported errors";
    return false;
  }
  return true;
}

// --- Transfers larger than the context's first bulk region -------------------------------

// Deterministic texels of a pattern.
std::vector<uint32_t> pattern(size_t count, uint32_t seed) {
  std::vector<uint32_t> texels(count);
  uint32_t x = seed;
  for (uint32_t& t : texels) {
    x = x * 1664525u + 1013904223u;
    t = x;
  }
  return texels;
}

// Uploads a texture's initial data and reads it back through a staging copy; false (and
// why) unless every byte came back.
bool roundTrip(harness::Device& device, UINT width, UINT height, uint32_t seed, std::string& error) {
  const ddi::D3D10DDI_HDEVICE h = device.handle();
  const std::vector<uint32_t> texels = pattern(size_t(width) * height, seed);
  const D3D11_TEXTURE2D_DESC desc{width, height, 1, 1, DXGI_FORMAT_R8G8B8A8_UINT, {1, 0}, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_SHADER_RESOURCE, 0, 0};
  D3D11_TEXTURE2D_DESC stagingDesc = desc;
  stagingDesc.Usage = D3D11_USAGE_STAGING;
  stagingDesc.BindFlags = 0;
  stagingDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  const D3D11_SUBRESOURCE_DATA init{texels.data(), width * 4, 0};
  harness::Resource texture = device.createTexture2D(desc, &init);
  harness::Resource staging = device.createTexture2D(stagingDesc);
  if (!texture || !staging || device.takeError() != S_OK) {
    error = "creating a " + std::to_string(width) + "x" + std::to_string(height) + " texture with its data failed";
    return false;
  }
  TRITON_DDI(device, pfnResourceCopy)(h, staging.handle, texture.handle);
  ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
  TRITON_DDI(device, pfnStagingResourceMap)(h, staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0, &mapped);
  bool same = device.takeError() == S_OK && mapped.pData && mapped.RowPitch >= width * 4;
  for (UINT row = 0; same && row < height; ++row)
    same = std::memcmp(static_cast<const uint8_t*>(mapped.pData) + size_t(row) * mapped.RowPitch,
                       texels.data() + size_t(row) * width, size_t(width) * 4) == 0;
  if (mapped.pData)
    TRITON_DDI(device, pfnStagingResourceUnmap)(h, staging.handle, 0);
  device.destroyResource(staging);
  device.destroyResource(texture);
  if (!same)
    error = "the " + std::to_string(width) + "x" + std::to_string(height) + " texture did not read back whole";
  return same;
}

// An 8 MiB texture (its data fits region 0; its readback, larger than a reply slot, needs
// a reply region), then a 72 MiB one (more than region 0, 64 MiB: the guest runtime asks
// for a bulk region; its readback a larger reply region, which replaces the first).
bool largeTransfers(harness::Adapter& adapter, std::string& error) {
  harness::Device device;
  const UINT version = harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
  if (FAILED(device.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0))) {
    error = "CreateDevice failed";
    return false;
  }
  return roundTrip(device, 2048, 1024, 1, error) && roundTrip(device, 4096, 4608, 2, error);
}

// The child process: renders with one transport and writes the frames to `out`.
// Exit status: 0 done, 77 corpus missing, 1 failure (the reason on stderr).
// The runtime asks for caps before its first CreateDevice; on the kernel path no context
// exists yet, so Triton answers from the floor: every pipeline level up to 11_1, driver
// command lists but no free-threaded creation, no optional shader features.
bool capsBeforeTheFirstDevice(harness::Adapter& adapter, std::string& error) {
  ddi::D3D11DDI_3DPIPELINESUPPORT_CAPS pipelines{};
  ddi::D3D11DDI_THREADING_CAPS threading{};
  ddi::D3D11DDI_SHADER_CAPS shader{~0u};
  ddi::D3D11_1DDI_D3D11_OPTIONS_DATA options{};
  const HRESULT hr[] = {
      adapter.getCaps(ddi::D3D11DDICAPS_3DPIPELINESUPPORT, &pipelines, sizeof(pipelines)),
      adapter.getCaps(ddi::D3D11DDICAPS_THREADING, &threading, sizeof(threading)),
      adapter.getCaps(ddi::D3D11DDICAPS_SHADER, &shader, sizeof(shader)),
      adapter.getCaps(ddi::D3D11_1DDICAPS_D3D11_OPTIONS, &options, sizeof(options)),
  };
  for (HRESULT each : hr)
    if (FAILED(each)) {
      char text[64];
      std::snprintf(text, sizeof(text), "GetCaps before the first device: 0x%08lx", static_cast<unsigned long>(each));
      error = text;
      return false;
    }
  const UINT level11_1 = ddi::D3D11DDI_ENCODE_3DPIPELINESUPPORT_CAP(ddi::D3D11_1DDI_3DPIPELINELEVEL_11_1);
  if (!(pipelines.Caps & level11_1) || threading.Caps != ddi::D3D11DDICAPS_COMMANDLISTS_BUILD_2 ||
      shader.Caps != 0 || options.OutputMergerLogicOp) {
    error = "GetCaps before the first device did not answer the floor";
    return false;
  }
  return true;
}

int renderChild(const std::string& mode, const std::string& out) {
  // Triton's target: the Neptune guest runtime the test was given.
  if (const char* target = std::getenv("NPT_TEST_D3D11")) {
    const std::string path = windowsPath(target);
    setEnvironment("TRITON_TARGET_D3D11", path.c_str());
  }
  std::unique_ptr<kc::FakeKernel> kernel;
  const bool large = mode == "kernel-large";
  if (mode == "kernel" || large) {
    kernel = std::make_unique<kc::FakeKernel>(serverAddress());
    const ddi::D3DDDI_DEVICECALLBACKS callbacks = kc::FakeKernel::callbacks();
    harness::setKernelCallbackOverrides(&callbacks);
    // Only the fake kernel may reach the server: a guest runtime that fell back to its
    // own socket connection finds no NPT_SERVER.
    setEnvironment("NPT_SERVER", nullptr);
  }
  setEnvironment("TRITON_TRANSPORT", kernel ? "kernel" : mode.c_str());
  std::vector<uint8_t> frames;
  std::string error;
  bool ok;
  {
    std::unique_ptr<harness::Driver> driver;
    harness::Adapter adapter;
    if (FAILED(harness::Driver::load(driverPath(), driver)) || FAILED(adapter.open(*driver))) {
      std::fprintf(stderr, "cannot load the driver %s\n", driverPath().c_str());
      return 1;
    }
    ok = !kernel || capsBeforeTheFirstDevice(adapter, error);
    ok = ok && (large ? largeTransfers(adapter, error) : renderFrames(adapter, frames, error));
    // The owner device is gone, and with it the context: no later device reaches the
    // guest runtime again (CONTRACT.md, "Lifetime").
    if (ok && kernel) {
      harness::Device later;
      const UINT version = harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
      if (SUCCEEDED(later.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version,
                                 ddi::D3D11DDI_3DPIPELINELEVEL_11_0)) ||
          !adapter.supportedVersions().empty()) {
        ok = false;
        error = "a device was created after the owner of the kernel context was destroyed";
      }
    }
  }
  if (!ok) {
    std::fprintf(stderr, "%s: %s\n", mode.c_str(), error.c_str());
    return error == "DXBC corpus not found" ? 77 : 1;
  }
  if (kernel) {
    const kc::FakeKernel::Counts c = kernel->counts();
    std::printf("fake kernel: %u QueryCapset, %u CreateContext, %u DestroyContext, %u Notify, %u Wait, %u refused, "
                "%u allocations (%u regions, the largest %llu bytes), %u locks, %u unlocks, %u frees\n",
                c.queryCapset, c.createContext, c.destroyContext, c.notify, c.wait, c.refused, c.allocations,
                c.regionAllocations, static_cast<unsigned long long>(c.largestRegion), c.locks, c.unlocks, c.frees);
    // The context was made, mapped and ended through the callbacks, and the host was
    // reached through them (the read-backs wait for replies).
    if (c.queryCapset != 1 || c.createContext != 1 || c.destroyContext != 1 || c.notify + c.wait == 0 ||
        c.refused != 0 || c.locks != c.allocations) {
      std::fprintf(stderr, "the fake kernel did not see the expected escapes\n");
      return 1;
    }
    if (!large && (c.allocations != 1 || c.regionAllocations != 0)) {
      std::fprintf(stderr, "small frames needed blob memory beyond blob 0\n");
      return 1;
    }
    // Large transfers: the upload's region, the first reply region and the larger one
    // that replaced it were blobs; the replaced one was unlocked and freed (the others
    // live as long as the context, and go with the owner device).
    if (large && (c.regionAllocations < 3 || c.allocations != 1 + c.regionAllocations ||
                  c.largestRegion < (72ull << 20) || c.frees < 1 || c.unlocks != c.frees)) {
      std::fprintf(stderr, "the bulk regions were not blob allocations and frees as expected\n");
      return 1;
    }
  }
  std::FILE* f = std::fopen(out.c_str(), "wb");
  if (!f || std::fwrite(frames.data(), 1, frames.size(), f) != frames.size()) {
    std::fprintf(stderr, "cannot write %s\n", out.c_str());
    return 1;
  }
  std::fclose(f);
  // The guest runtime keeps the process's connection until the process ends: the fake
  // kernel's mapping stays with it.
  (void)kernel.release();
  return 0;
}

// Runs this program as a render child; its exit status.
DWORD runChild(const std::string& mode, const std::string& out) {
  char self[MAX_PATH];
  GetModuleFileNameA(nullptr, self, sizeof(self));
  std::string cmd = "\"" + std::string(self) + "\" --render " + mode + " \"" + out + "\"";
  STARTUPINFOA si{};
  si.cb = sizeof(si);
  PROCESS_INFORMATION pi{};
  if (!CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &pi))
    return 2;
  WaitForSingleObject(pi.hProcess, 240000);
  DWORD code = 3;
  GetExitCodeProcess(pi.hProcess, &code);
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  return code;
}

std::string tempFile(const char* name) {
  char temp[MAX_PATH];
  GetTempPathA(sizeof(temp), temp);
  return std::string(temp) + name + "-" + std::to_string(GetCurrentProcessId());
}

TEST(KernelTransport, FramesThroughTheKernelCallbacksEqualTheSocketPath) {
  const std::string socketFrames = tempFile("triton-kernel-socket"), kernelFrames = tempFile("triton-kernel-kernel");
  const DWORD socketRun = runChild("socket", socketFrames);
  if (socketRun == 77)
    GTEST_SKIP() << "DXBC corpus not found";
  ASSERT_EQ(socketRun, 0u) << "the socket run failed";
  ASSERT_EQ(runChild("kernel", kernelFrames), 0u) << "the kernel run failed";
  const std::vector<uint8_t> viaSocket = readFile(socketFrames), viaKernel = readFile(kernelFrames);
  DeleteFileA(socketFrames.c_str());
  DeleteFileA(kernelFrames.c_str());
  ASSERT_EQ(viaSocket.size(), size_t(kFrames) * kSize * kSize * 4);
  EXPECT_TRUE(viaKernel == viaSocket) << "the frames differ between the two transports";
  // Not trivially equal: each frame has its clear colour in the corner and its triangle
  // colour in the centre.
  for (UINT frame = 0; frame < kFrames; ++frame) {
    const uint8_t* pixels = viaKernel.data() + size_t(frame) * kSize * kSize * 4;
    const uint8_t* centre = pixels + (kSize / 2 * kSize + kSize / 2) * 4;
    // UNORM conversion may round either way at .5 (0.3f is just below 76.5 / 255).
    EXPECT_NEAR(pixels[0], clearValue(frame) * 255.0f, 0.51f) << "frame " << frame;
    EXPECT_NEAR(centre[0], constantValue(frame) * 255.0f, 0.51f) << "frame " << frame;
    EXPECT_NEAR(centre[2], 127.5f, 0.51f) << "frame " << frame;
  }
}

// Blob ids 1..63: a transfer larger than region 0 works through the kernel path, its
// regions allocated, locked and (when the host replaced one) freed through the callbacks.
TEST(KernelTransport, BulkRegionsAfterCreationAreBlobAllocations) {
  const std::string out = tempFile("triton-kernel-large");
  const DWORD run = runChild("kernel-large", out);
  DeleteFileA(out.c_str());
  ASSERT_EQ(run, 0u) << "the large transfers through the kernel path failed (the child's output says why)";
}

// --- The fake kernel's answers to malformed escapes -------------------------------------

struct Answer {
  HRESULT hr;
  kc::EscapeHeader header;
};

template <class Body>
Answer send(kc::FakeKernel& kernel, Body& body, uint32_t size = sizeof(Body)) {
  ddi::D3DDDICB_ESCAPE args{};
  args.pPrivateDriverData = &body;
  args.PrivateDriverDataSize = size;
  Answer a{kernel.escape(&args), {}};
  std::memcpy(&a.header, &body, sizeof(a.header));
  return a;
}

kc::KernelStatus statusOf(const Answer& a) { return kc::KernelStatus(a.header.status); }

kc::ContextGeometry smallGeometry() {
  return kc::ContextGeometry{1, 1u << 16, 2, 4096, 16, 8, 1u << 20};
}

TEST(FakeKernelEscapes, MalformedHeadersAreAnsweredWithTheirStatus) {
  kc::FakeKernel kernel(serverAddress());
  // Not a Neptune escape: E_INVALIDARG, nothing written.
  ddi::D3DDDICB_ESCAPE none{};
  EXPECT_EQ(kernel.escape(&none), E_INVALIDARG);
  EXPECT_EQ(kernel.escape(nullptr), E_INVALIDARG);
  kc::NotifyBody shortBody{kc::escapeHeader(kc::EscapeCode::Notify), 1, 0};
  EXPECT_EQ(send(kernel, shortBody, 20).hr, E_INVALIDARG);
  EXPECT_EQ(shortBody.header.status, 0) << "a buffer shorter than a header was written";
  kc::NotifyBody foreign{kc::escapeHeader(kc::EscapeCode::Notify), 1, 0};
  foreign.header.magic = 0x41414141;
  EXPECT_EQ(send(kernel, foreign).hr, E_INVALIDARG);
  EXPECT_EQ(foreign.header.kernel_max_version, 0) << "a foreign escape was written";

  // A Neptune escape: S_OK and the status, with the kernel's versions.
  kc::NotifyBody badVersion{kc::escapeHeader(kc::EscapeCode::Notify), 1, 0};
  badVersion.header.version = 9;
  Answer a = send(kernel, badVersion);
  EXPECT_EQ(a.hr, S_OK);
  EXPECT_EQ(statusOf(a), kc::KernelStatus::BadVersion);
  EXPECT_EQ(a.header.kernel_min_version, kc::kContractMinVersion);
  EXPECT_EQ(a.header.kernel_max_version, kc::kContractVersion);

  kc::CreateContextBody create{kc::escapeHeader(kc::EscapeCode::CreateContext)};
  EXPECT_EQ(statusOf(send(kernel, create, sizeof(create) - 16)), kc::KernelStatus::BadSize)
      << "PrivateDriverDataSize shorter than the header says";
  kc::EscapeHeader headerOnly = kc::escapeHeader(kc::EscapeCode::CreateContext);
  headerOnly.size = sizeof(headerOnly);
  EXPECT_EQ(statusOf(send(kernel, headerOnly)), kc::KernelStatus::BadSize) << "a CreateContext without its body";

  kc::NotifyBody unknown{kc::escapeHeader(kc::EscapeCode::Notify), 1, 0};
  unknown.header.code = 200;
  EXPECT_EQ(statusOf(send(kernel, unknown)), kc::KernelStatus::UnknownCode);

  // Context escapes without a context.
  kc::NotifyBody notify{kc::escapeHeader(kc::EscapeCode::Notify), 1, 0};
  EXPECT_EQ(statusOf(send(kernel, notify)), kc::KernelStatus::NoContext);
  kc::WaitBody wait{kc::escapeHeader(kc::EscapeCode::Wait)};
  wait.context_id = 1;
  EXPECT_EQ(statusOf(send(kernel, wait)), kc::KernelStatus::NoContext);
  kc::ContextBody destroy{kc::escapeHeader(kc::EscapeCode::DestroyContext), 1, 0};
  EXPECT_EQ(statusOf(send(kernel, destroy)), kc::KernelStatus::NoContext);
}

TEST(FakeKernelEscapes, ContextEscapesCheckEveryField) {
  auto owned = std::make_unique<kc::FakeKernel>(serverAddress());
  kc::FakeKernel& kernel = *owned;
  kc::CapsetBody capset{kc::escapeHeader(kc::EscapeCode::QueryCapset)};
  ASSERT_EQ(statusOf(send(kernel, capset)), kc::KernelStatus::Ok);
  EXPECT_EQ(capset.capset.capset_id, kc::kNeptuneCapsetId);
  EXPECT_LE(capset.capset.transport_min_version, capset.capset.transport_max_version);

  // The wrong capset, then a geometry beyond the server's limits: refused, with its reason.
  kc::CreateContextBody wrongCapset{kc::escapeHeader(kc::EscapeCode::CreateContext)};
  wrongCapset.capset_id = 4;   // Venus'
  wrongCapset.geometry = smallGeometry();
  EXPECT_EQ(statusOf(send(kernel, wrongCapset)), kc::KernelStatus::BadArgument);
  kc::CreateContextBody tooMany{kc::escapeHeader(kc::EscapeCode::CreateContext)};
  tooMany.capset_id = kc::kNeptuneCapsetId;
  tooMany.geometry = smallGeometry();
  tooMany.geometry.ring_count = 1000;
  EXPECT_EQ(statusOf(send(kernel, tooMany)), kc::KernelStatus::Refused);
  EXPECT_NE(std::string(tooMany.message).find("ring count"), std::string::npos) << tooMany.message;

  kc::CreateContextBody create{kc::escapeHeader(kc::EscapeCode::CreateContext)};
  create.capset_id = kc::kNeptuneCapsetId;
  create.geometry = smallGeometry();
  ASSERT_EQ(statusOf(send(kernel, create)), kc::KernelStatus::Ok) << create.message;
  EXPECT_NE(create.context_id, 0u);
  EXPECT_GE(create.context_blob_size, 4096u);
  // Nothing below needs the worker, so without this wait the test could end while it is
  // still starting. A worker still inside Wine's process start-up when the test environment
  // terminated the server was left stuck there for good, holding the test's output open
  // (meson waited until its timeout). The control block shows the context's id until the
  // worker attaches and writes its own pid there.
  HANDLE worker = nullptr;
  for (int i = 0; i < 3000 && !worker; i++) {
    if (kernel.workerPid() != create.context_id)
      worker = OpenProcess(SYNCHRONIZE, FALSE, kernel.workerPid());
    if (!worker)
      Sleep(10);
  }
  ASSERT_NE(worker, nullptr) << "the context's worker did not start in 30 s (control block: " << kernel.workerPid() << ")";
  kc::CreateContextBody again = create;
  again.header = kc::escapeHeader(kc::EscapeCode::CreateContext);
  EXPECT_EQ(statusOf(send(kernel, again)), kc::KernelStatus::ContextExists);

  // Waits: a word outside blob 0, unaligned, another blob, a timeout over the limit.
  auto waitFor = [&](uint32_t blob, uint64_t offset, uint32_t timeout) {
    kc::WaitBody w{kc::escapeHeader(kc::EscapeCode::Wait)};
    w.context_id = create.context_id;
    w.blob_id = blob;
    w.offset = offset;
    w.timeout_us = timeout;
    w.expected = 0xFFFFFFFFu;
    return statusOf(send(kernel, w));
  };
  EXPECT_EQ(waitFor(0, create.context_blob_size, 10), kc::KernelStatus::BadArgument);
  EXPECT_EQ(waitFor(0, create.context_blob_size - 2, 10), kc::KernelStatus::BadArgument);
  EXPECT_EQ(waitFor(0, ~0ull - 3, 10), kc::KernelStatus::BadArgument);
  EXPECT_EQ(waitFor(0, 6, 10), kc::KernelStatus::BadArgument);
  EXPECT_EQ(waitFor(3, 0, 10), kc::KernelStatus::BadArgument);
  EXPECT_EQ(waitFor(0, 0, kc::kMaxWaitMicroseconds + 1), kc::KernelStatus::BadArgument);
  // A good wait: the control block's magic never holds 0xFFFFFFFF, so it returns at once.
  EXPECT_EQ(waitFor(0, 0, 10), kc::KernelStatus::Ok);
  // A word that does not change: Timeout.
  kc::WaitBody still{kc::escapeHeader(kc::EscapeCode::Wait)};
  still.context_id = create.context_id;
  still.offset = 0;
  std::memcpy(&still.expected, kernel.blob0(), 4);
  still.timeout_us = 20000;
  EXPECT_EQ(statusOf(send(kernel, still)), kc::KernelStatus::Timeout);
  EXPECT_EQ(still.value, still.expected);
  kc::NotifyBody wrongContext{kc::escapeHeader(kc::EscapeCode::Notify), create.context_id + 1, 0};
  EXPECT_EQ(statusOf(send(kernel, wrongContext)), kc::KernelStatus::NoContext);

  // Blob allocations: only the contract's private data for this context's blob 0.
  kc::BlobAllocation blob{kc::kBlobMagic, kc::kContractVersion, 0, create.context_id, kc::kContextBlobId,
                          create.context_blob_size, 0};
  auto allocateWith = [&](kc::BlobAllocation data, UINT size) {
    ddi::D3DDDI_ALLOCATIONINFO info{};
    info.pPrivateDriverData = &data;
    info.PrivateDriverDataSize = size;
    ddi::D3DDDICB_ALLOCATE args{};
    args.NumAllocations = 1;
    args.pAllocationInfo = &info;
    const HRESULT hr = kernel.allocate(&args);
    return std::make_pair(hr, info.hAllocation);
  };
  kc::BlobAllocation wrongSize = blob;
  wrongSize.size += 4096;
  EXPECT_EQ(allocateWith(wrongSize, sizeof(blob)).first, E_INVALIDARG);
  kc::BlobAllocation wrongMagic = blob;
  wrongMagic.magic = 0;
  EXPECT_EQ(allocateWith(wrongMagic, sizeof(blob)).first, E_INVALIDARG);
  EXPECT_EQ(allocateWith(blob, sizeof(blob) - 8).first, E_INVALIDARG);
  const auto [hr, allocation] = allocateWith(blob, sizeof(blob));
  ASSERT_EQ(hr, S_OK);
  ddi::D3DDDICB_LOCK lock{};
  lock.hAllocation = allocation + 1;
  EXPECT_EQ(kernel.lock(&lock), E_INVALIDARG);
  lock.hAllocation = allocation;
  ASSERT_EQ(kernel.lock(&lock), S_OK);
  EXPECT_EQ(lock.pData, kernel.blob0());

  EXPECT_EQ(allocateWith(blob, sizeof(blob)).first, E_INVALIDARG) << "blob 0 allocated twice";
  // Region blobs: only one the host created, at its size, and never past blob 63.
  kc::BlobAllocation noRegion = blob;
  noRegion.blob_id = 5;
  noRegion.size = 1u << 20;
  EXPECT_EQ(allocateWith(noRegion, sizeof(blob)).first, E_INVALIDARG) << "a region the host never created";
  kc::BlobAllocation pastLast = noRegion;
  pastLast.blob_id = kc::kMaxBlobId + 1;
  EXPECT_EQ(allocateWith(pastLast, sizeof(blob)).first, E_INVALIDARG);
  const ddi::D3DKMT_HANDLE unknown = allocation + 100;
  const ddi::D3DDDICB_DEALLOCATE freeUnknown{nullptr, 1, &unknown};
  EXPECT_EQ(kernel.deallocate(&freeUnknown), E_INVALIDARG);

  kc::ContextBody destroy{kc::escapeHeader(kc::EscapeCode::DestroyContext), create.context_id, 0};
  EXPECT_EQ(statusOf(send(kernel, destroy)), kc::KernelStatus::Ok);
  EXPECT_EQ(statusOf(send(kernel, destroy)), kc::KernelStatus::NoContext) << "destroyed twice";
  EXPECT_EQ(waitFor(0, 0, 10), kc::KernelStatus::NoContext);

  // The connection ends here, and the test waits for the server's worker to follow it.
  owned.reset();
  EXPECT_EQ(WaitForSingleObject(worker, 10000), WAIT_OBJECT_0) << "the worker outlived its guest";
  CloseHandle(worker);
}

// --- Triton facing a kernel that answers the contract wrongly ----------------------------

// What the hostile kernel answers; the allocations it was asked for.
enum class Hostility { NoNeptune, ForeignCapset, OldLayout, Refusal, ShortBlob, ChangedHeader };
Hostility g_hostility;
int g_hostileAllocations;
int g_hostileEscapes;

HRESULT TRITON_CALLBACK hostileEscape(HANDLE, const ddi::D3DDDICB_ESCAPE* args) {
  ++g_hostileEscapes;
  if (g_hostility == Hostility::NoNeptune)
    return E_INVALIDARG;   // a kernel without the contract: not its escape
  auto* header = static_cast<kc::EscapeHeader*>(args->pPrivateDriverData);
  header->status = 0;
  if (header->code == uint16_t(kc::EscapeCode::QueryCapset)) {
    auto* body = static_cast<kc::CapsetBody*>(args->pPrivateDriverData);
    body->capset.capset_id = g_hostility == Hostility::ForeignCapset ? 4 : kc::kNeptuneCapsetId;
    body->capset.capset_version = kc::kNeptuneCapsetVersion;
    body->capset.transport_min_version = g_hostility == Hostility::OldLayout ? 1 : npt::transport::kVersion;
    body->capset.transport_max_version = g_hostility == Hostility::OldLayout ? 2 : npt::transport::kVersion;
  } else if (header->code == uint16_t(kc::EscapeCode::CreateContext)) {
    auto* body = static_cast<kc::CreateContextBody*>(args->pPrivateDriverData);
    if (g_hostility == Hostility::Refusal) {
      header->status = int32_t(kc::KernelStatus::Refused);
      std::snprintf(body->message, sizeof(body->message), "bulk memory over the host's limit");
    } else if (g_hostility == Hostility::ChangedHeader) {
      header->code = uint16_t(kc::EscapeCode::Wait);
    } else {
      body->context_id = 7;
      body->transport_version = npt::transport::kVersion;
      body->context_blob_size = 4096;   // smaller than the geometry asked for
    }
  }
  return S_OK;
}

HRESULT TRITON_CALLBACK countingAllocate(HANDLE, ddi::D3DDDICB_ALLOCATE*) {
  ++g_hostileAllocations;
  return E_FAIL;
}

TEST(KernelTransport, TritonRefusesAKernelThatAnswersWrongly) {
  struct Case {
    Hostility hostility;
    HRESULT expected;
  };
  const Case cases[] = {
      {Hostility::NoNeptune, E_FAIL},     {Hostility::ForeignCapset, E_FAIL}, {Hostility::OldLayout, E_FAIL},
      {Hostility::Refusal, E_OUTOFMEMORY}, {Hostility::ShortBlob, E_FAIL},     {Hostility::ChangedHeader, E_FAIL},
  };
  ddi::D3DDDI_DEVICECALLBACKS callbacks{};
  callbacks.pfnEscapeCb = hostileEscape;
  callbacks.pfnAllocateCb = countingAllocate;
  harness::setKernelCallbackOverrides(&callbacks);
  setEnvironment("TRITON_TRANSPORT", "kernel");
  for (const Case& c : cases) {
    g_hostility = c.hostility;
    g_hostileAllocations = 0;
    std::unique_ptr<harness::Driver> driver;
    ASSERT_EQ(harness::Driver::load(driverPath(), driver), S_OK);
    harness::Adapter adapter;
    ASSERT_EQ(adapter.open(*driver), S_OK);
    ASSERT_FALSE(adapter.supportedVersions().empty()) << "versions before any context";
    harness::Device device;
    const UINT version = harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
    EXPECT_EQ(device.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
              c.expected)
        << "case " << int(c.hostility);
    EXPECT_EQ(g_hostileAllocations, 0) << "case " << int(c.hostility) << ": blob memory asked of a bad context";
  }
  setEnvironment("TRITON_TRANSPORT", nullptr);
  harness::setKernelCallbackOverrides(nullptr);
}

// The transport comes from the adapter's software key (the INF's TritonTransport value,
// read through pfnQueryAdapterInfoCb2) unless TRITON_TRANSPORT overrides it. Which one
// was chosen shows in whether CreateDevice escapes to the kernel (here one without the
// contract: E_FAIL) or creates its target device by itself (Wine's d3d11: S_OK). Run in a
// child that Wine presents as Windows 10 1809 (the runtime's adapter callbacks have
// pfnQueryAdapterInfoCb2 from 1803 on; this test's Wine prefix says Windows 7, where Triton
// rightly never reads it). Returns the number of failed cases.
int registryCases() {
  OSVERSIONINFOW os{sizeof(os)};
  using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
  auto getVersion = reinterpret_cast<RtlGetVersionFn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleA("ntdll.dll"), "RtlGetVersion")));
  if (!getVersion || getVersion(&os) != 0 || os.dwMajorVersion < 10 || os.dwBuildNumber < 17134) {
    std::fprintf(stderr, "the registry child does not run as Windows 10 1803 or later (%lu.%lu.%lu)\n",
                 os.dwMajorVersion, os.dwMinorVersion, os.dwBuildNumber);
    return 100;
  }
  struct Case {
    const char* environment;    // TRITON_TRANSPORT, null: unset
    const wchar_t* adapterKey;  // TritonTransport in the adapter key, empty: absent
    bool kernel;
  };
  const Case cases[] = {
      {nullptr, L"kernel", true}, {"socket", L"kernel", false}, {nullptr, L"", false},
      {"kernel", L"socket", true}, {nullptr, L"socket", false},
  };
  ddi::D3DDDI_DEVICECALLBACKS callbacks{};
  callbacks.pfnEscapeCb = hostileEscape;
  callbacks.pfnAllocateCb = countingAllocate;
  harness::setKernelCallbackOverrides(&callbacks);
  g_hostility = Hostility::NoNeptune;
  int failures = 0;
  for (const Case& c : cases) {
    setEnvironment("TRITON_TRANSPORT", c.environment);
    harness::setAdapterRegistryString(L"TritonTransport", c.adapterKey);
    g_hostileEscapes = 0;
    std::unique_ptr<harness::Driver> driver;
    harness::Adapter adapter;
    if (FAILED(harness::Driver::load(driverPath(), driver)) || FAILED(adapter.open(*driver)))
      return 101;
    harness::Device device;
    const UINT version = harness::runtimeVersion(ddi::D3D11_1_DDI_BUILD_VERSION, ddi::DXGI_OFFER_RECLAIM);
    const HRESULT hr =
        device.create(adapter, ddi::D3D11_1_DDI_INTERFACE_VERSION, version, ddi::D3D11DDI_3DPIPELINELEVEL_11_0);
    const bool asExpected = c.kernel ? hr == E_FAIL && g_hostileEscapes > 0 : hr == S_OK && g_hostileEscapes == 0;
    std::printf("TRITON_TRANSPORT=%s, adapter key TritonTransport=%ls: CreateDevice 0x%08lx, %d escapes: %s\n",
                c.environment ? c.environment : "(unset)", *c.adapterKey ? c.adapterKey : L"(absent)",
                static_cast<unsigned long>(hr), g_hostileEscapes, asExpected ? "as expected" : "WRONG TRANSPORT");
    failures += asExpected ? 0 : 1;
  }
  return failures;
}

TEST(KernelTransport, TheAdapterKeyChoosesTheTransportAndTheEnvironmentOverridesIt) {
  // A copy of this program under a name of its own, which Wine's per-application settings
  // (HKCU\Software\Wine\AppDefaults\<name>) present as Windows 10 1809.
  char self[MAX_PATH];
  GetModuleFileNameA(nullptr, self, sizeof(self));
  std::string copy = self;
  copy = copy.substr(0, copy.find_last_of("\\/") + 1) + "triton_kernel_registry_child.exe";
  ASSERT_TRUE(CopyFileA(self, copy.c_str(), FALSE)) << "cannot copy the test program";
  HKEY key = nullptr;
  ASSERT_EQ(RegCreateKeyExA(HKEY_CURRENT_USER, "Software\\Wine\\AppDefaults\\triton_kernel_registry_child.exe", 0,
                            nullptr, 0, KEY_SET_VALUE, nullptr, &key, nullptr),
            ERROR_SUCCESS);
  const char win10[] = "win10";
  RegSetValueExA(key, "Version", 0, REG_SZ, reinterpret_cast<const BYTE*>(win10), sizeof(win10));
  RegCloseKey(key);
  std::string cmd = "\"" + copy + "\" --registry";
  STARTUPINFOA si{};
  si.cb = sizeof(si);
  PROCESS_INFORMATION pi{};
  ASSERT_TRUE(CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &pi));
  WaitForSingleObject(pi.hProcess, 120000);
  DWORD code = 3;
  GetExitCodeProcess(pi.hProcess, &code);
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  DeleteFileA(copy.c_str());
  EXPECT_EQ(code, 0u) << "cases with the wrong transport (or the child could not run as Windows 10): see its output";
}

}  // namespace
}  // namespace triton::test

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--registry") == 0)
    return triton::test::registryCases();
  if (argc == 4 && std::strcmp(argv[1], "--render") == 0) {
    // A render child: the parent's server (NPT_SERVER, TRITON_TARGET_D3D11 inherited).
    return triton::test::renderChild(argv[2], argv[3]);
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new triton::test::NeptuneServer("triton-kernel-test"));
  return RUN_ALL_TESTS();
}
