// SPDX-License-Identifier: MIT
// Producer-to-compositor latency and fence wait overhead across two guest processes
// (bench/present): one frame in flight at a time, so each figure is pure latency.
//
//   bench-fence.exe [--frames N] [--size WxH] [--layers L]  the compositor: starts the producer
//   bench-fence.exe --produce --ack H --times NAME          the producer (started by the above)
//
// Frame i: the producer waits until the compositor acknowledged frame i - 1, takes t0,
// clears its shared texture (with --layers L: texture i % L of L shared textures, as a
// producer with L swapchain-like buffers, or a surface with static layers, would) to
// colour(i) and signals its fence with i. The compositor
// waits for the fence on the CPU (t1: fence latency = t1 - t0), then waits on its context,
// reads one pixel of the texture back (t2: frame latency = t2 - t0; the pixel must be
// colour(i), else the frame is stale) and signals its acknowledgement fence. t0 travels
// through a named file mapping; QueryPerformanceCounter is one clock for both processes.
// Then the overhead of waits that are already satisfied: GetCompletedValue,
// SetEventOnCompletion, and ID3D11DeviceContext4::Wait.
#include <windows.h>

#include <d3d11_4.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr DWORD kTimeoutMs = 30000;

struct Args {
  unsigned width = 1920, height = 1080, frames = 300, layers = 1;
  bool produce = false;
  unsigned long long ack = 0;
  std::string times;
};

int fail(const char* role, const char* what, HRESULT hr) {
  std::fprintf(stderr, "bench-fence %s: %s failed (0x%08lx)\n", role, what, (unsigned long)hr);
  return 1;
}

double now(const LARGE_INTEGER& frequency) {
  LARGE_INTEGER t;
  QueryPerformanceCounter(&t);
  return double(t.QuadPart) / double(frequency.QuadPart);
}

bool waitFence(ID3D11Fence* fence, UINT64 value, HANDLE event) {
  const ULONGLONG deadline = GetTickCount64() + kTimeoutMs;
  while (fence->GetCompletedValue() < value) {
    if (FAILED(fence->SetEventOnCompletion(value, event))) return false;
    WaitForSingleObject(event, 50);
    if (GetTickCount64() > deadline) return false;
  }
  return true;
}

UINT32 colour(unsigned frame) { return 0xff000000u | (frame * 2654435761u & 0x00ffffffu); }

struct Device {
  ID3D11Device* device = nullptr;
  ID3D11Device5* device5 = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ID3D11DeviceContext4* context4 = nullptr;
  HRESULT create() {
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
    HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION,
                                   &device, nullptr, &context);
    if (SUCCEEDED(hr)) hr = device->QueryInterface(__uuidof(ID3D11Device5), reinterpret_cast<void**>(&device5));
    if (SUCCEEDED(hr)) hr = context->QueryInterface(__uuidof(ID3D11DeviceContext4), reinterpret_cast<void**>(&context4));
    return hr;
  }
};

int produce(const Args& args) {
  Device d;
  HRESULT hr = d.create();
  if (FAILED(hr)) return fail("producer", "device", hr);
  HANDLE mapping = OpenFileMappingA(FILE_MAP_ALL_ACCESS, FALSE, args.times.c_str());
  auto* times = mapping ? static_cast<double*>(MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, 0)) : nullptr;
  if (!times) return fail("producer", "OpenFileMapping", HRESULT_FROM_WIN32(GetLastError()));
  D3D11_TEXTURE2D_DESC desc = { args.width, args.height, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 },
                                D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, D3D11_RESOURCE_MISC_SHARED };
  std::vector<ID3D11RenderTargetView*> views(args.layers);
  std::string handles;
  for (unsigned layer = 0; layer < args.layers; layer++) {
    ID3D11Texture2D* texture = nullptr;
    IDXGIResource* resource = nullptr;
    HANDLE textureHandle = nullptr;
    if (FAILED(hr = d.device->CreateTexture2D(&desc, nullptr, &texture)) ||
        FAILED(hr = d.device->CreateRenderTargetView(texture, nullptr, &views[layer])) ||
        FAILED(hr = texture->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&resource))) ||
        FAILED(hr = resource->GetSharedHandle(&textureHandle)))
      return fail("producer", "shared texture", hr);
    char hex[24];
    std::snprintf(hex, sizeof(hex), " %llx", (unsigned long long)(uintptr_t)textureHandle);
    handles += hex;
  }
  ID3D11Fence* fence = nullptr;
  ID3D11Fence* ack = nullptr;
  HANDLE fenceHandle = nullptr;
  if (FAILED(hr = d.device5->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence))) ||
      FAILED(hr = fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &fenceHandle)) ||
      FAILED(hr = d.device5->OpenSharedFence(reinterpret_cast<HANDLE>(uintptr_t(args.ack)), __uuidof(ID3D11Fence),
                                             reinterpret_cast<void**>(&ack))))   // inherited from the compositor
    return fail("producer", "fences", hr);
  std::printf("handles %llx%s\n", (unsigned long long)(uintptr_t)fenceHandle, handles.c_str());
  std::fflush(stdout);
  LARGE_INTEGER frequency;
  QueryPerformanceFrequency(&frequency);
  HANDLE event = CreateEventW(nullptr, FALSE, FALSE, nullptr);
  for (unsigned frame = 1; frame <= args.frames; frame++) {
    if (!waitFence(ack, frame - 1, event)) return fail("producer", "waiting for the acknowledgement", E_FAIL);
    times[frame] = now(frequency);
    const UINT32 c = colour(frame);
    const float rgba[4] = { float(c & 0xff) / 255.0f, float(c >> 8 & 0xff) / 255.0f, float(c >> 16 & 0xff) / 255.0f, 1.0f };
    d.context->ClearRenderTargetView(views[frame % args.layers], rgba);
    if (FAILED(hr = d.context4->Signal(fence, frame))) return fail("producer", "Signal", hr);
    d.context->Flush();
  }
  // The compositor reads the last frame after this loop: keep the texture until it did.
  if (!waitFence(ack, args.frames, event)) return fail("producer", "waiting for the last acknowledgement", E_FAIL);
  return 0;
}

struct Spread {
  double median, p99, max;
};
Spread spread(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  if (values.empty()) return { 0, 0, 0 };
  return { values[values.size() / 2], values[std::min(values.size() - 1, values.size() * 99 / 100)], values.back() };
}

int composite(const Args& args) {
  Device d;
  HRESULT hr = d.create();
  if (FAILED(hr)) return fail("compositor", "device", hr);
  char timesName[64];
  std::snprintf(timesName, sizeof(timesName), "Local\\npt-bench-fence-%lu", GetCurrentProcessId());
  HANDLE mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0,
                                      DWORD((args.frames + 1) * sizeof(double)), timesName);
  auto* times = mapping ? static_cast<const double*>(MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0, 0)) : nullptr;
  if (!times) return fail("compositor", "CreateFileMapping", HRESULT_FROM_WIN32(GetLastError()));
  ID3D11Fence* ack = nullptr;
  HANDLE ackHandle = nullptr;
  // An NT handle the producer inherits (same value in both processes).
  SECURITY_ATTRIBUTES inheritable = { sizeof(inheritable), nullptr, TRUE };
  if (FAILED(hr = d.device5->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&ack))) ||
      FAILED(hr = ack->CreateSharedHandle(&inheritable, GENERIC_ALL, nullptr, &ackHandle)))
    return fail("compositor", "acknowledgement fence", hr);

  // The producer: this program again, its stdout a pipe that brings back its handles.
  char exe[MAX_PATH];
  GetModuleFileNameA(nullptr, exe, MAX_PATH);
  char commandLine[2 * MAX_PATH];
  std::snprintf(commandLine, sizeof(commandLine),
                "\"%s\" --produce --size %ux%u --frames %u --layers %u --ack %llx --times %s", exe, args.width,
                args.height, args.frames, args.layers, (unsigned long long)(uintptr_t)ackHandle, timesName);
  SECURITY_ATTRIBUTES inherit = { sizeof(inherit), nullptr, TRUE };
  HANDLE readEnd = nullptr, writeEnd = nullptr;
  CreatePipe(&readEnd, &writeEnd, &inherit, 0);
  SetHandleInformation(readEnd, HANDLE_FLAG_INHERIT, 0);
  STARTUPINFOA startup = { sizeof(startup) };
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdOutput = writeEnd;
  startup.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION process = {};
  if (!CreateProcessA(exe, commandLine, nullptr, nullptr, TRUE, 0, nullptr, nullptr, &startup, &process))
    return fail("compositor", "CreateProcess", HRESULT_FROM_WIN32(GetLastError()));
  CloseHandle(writeEnd);
  std::string line;
  char c = 0;
  DWORD got = 0;
  while (ReadFile(readEnd, &c, 1, &got, nullptr) && got == 1 && c != '\n') line += c;
  unsigned long long fenceValue = 0;
  int used = 0;
  if (std::sscanf(line.c_str(), "handles %llx%n", &fenceValue, &used) != 1)
    return fail("compositor", ("the producer's handles (\"" + line + "\")").c_str(), E_FAIL);
  std::vector<ID3D11Texture2D*> textures(args.layers);
  for (unsigned layer = 0; layer < args.layers; layer++) {
    unsigned long long textureValue = 0;
    int more = 0;
    if (std::sscanf(line.c_str() + used, " %llx%n", &textureValue, &more) != 1)
      return fail("compositor", ("the producer's handles (\"" + line + "\")").c_str(), E_FAIL);
    used += more;
    if (FAILED(hr = d.device->OpenSharedResource(reinterpret_cast<HANDLE>(uintptr_t(textureValue)),
                                                 __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&textures[layer]))))
      return fail("compositor", "opening the producer's textures", hr);
  }
  ID3D11Texture2D* texture = textures[0];
  // The fence's NT handle is the producer's: duplicated into this process, as on Windows.
  ID3D11Fence* fence = nullptr;
  HANDLE fenceHandle = nullptr;
  if (!DuplicateHandle(process.hProcess, reinterpret_cast<HANDLE>(uintptr_t(fenceValue)), GetCurrentProcess(), &fenceHandle, 0,
                       FALSE, DUPLICATE_SAME_ACCESS))
    return fail("compositor", "duplicating the producer's fence handle", HRESULT_FROM_WIN32(GetLastError()));
  hr = d.device5->OpenSharedFence(fenceHandle, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence));
  CloseHandle(fenceHandle);
  if (FAILED(hr)) return fail("compositor", "opening the producer's fence", hr);
  D3D11_TEXTURE2D_DESC pixelDesc = { 1, 1, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_STAGING, 0,
                                     D3D11_CPU_ACCESS_READ, 0 };
  ID3D11Texture2D* pixel = nullptr;
  if (FAILED(hr = d.device->CreateTexture2D(&pixelDesc, nullptr, &pixel))) return fail("compositor", "staging", hr);

  LARGE_INTEGER frequency;
  QueryPerformanceFrequency(&frequency);
  HANDLE event = CreateEventW(nullptr, FALSE, FALSE, nullptr);
  std::vector<double> fenceLatency, frameLatency;
  unsigned stale = 0;
  const D3D11_BOX box = { 0, 0, 0, 1, 1, 1 };
  for (unsigned frame = 1; frame <= args.frames; frame++) {
    if (!waitFence(fence, frame, event)) return fail("compositor", "waiting for the producer", E_FAIL);
    const double t1 = now(frequency);
    if (FAILED(hr = d.context4->Wait(fence, frame))) return fail("compositor", "Wait", hr);
    d.context->CopySubresourceRegion(pixel, 0, 0, 0, 0, textures[frame % args.layers], 0, &box);
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    if (FAILED(hr = d.context->Map(pixel, 0, D3D11_MAP_READ, 0, &mapped))) return fail("compositor", "Map", hr);
    const UINT32 shown = *static_cast<const UINT32*>(mapped.pData);
    d.context->Unmap(pixel, 0);
    const double t2 = now(frequency);
    stale += shown != colour(frame);
    fenceLatency.push_back((t1 - times[frame]) * 1e6);
    frameLatency.push_back((t2 - times[frame]) * 1e6);
    if (FAILED(hr = d.context4->Signal(ack, frame))) return fail("compositor", "Signal", hr);
    d.context->Flush();
  }
  DWORD code = 1;
  WaitForSingleObject(process.hProcess, kTimeoutMs);
  GetExitCodeProcess(process.hProcess, &code);

  // Overhead of waits that are already satisfied.
  const unsigned reads = 100000, events = 1000, waits = 1000;
  double t = now(frequency);
  UINT64 sum = 0;
  for (unsigned i = 0; i < reads; i++) sum += fence->GetCompletedValue();
  const double readNs = (now(frequency) - t) * 1e9 / reads;
  t = now(frequency);
  for (unsigned i = 0; i < events; i++) {
    fence->SetEventOnCompletion(args.frames, event);
    WaitForSingleObject(event, 0);
  }
  const double eventUs = (now(frequency) - t) * 1e6 / events;
  t = now(frequency);
  for (unsigned i = 0; i < waits; i++) d.context4->Wait(fence, args.frames);
  d.context->CopySubresourceRegion(pixel, 0, 0, 0, 0, texture, 0, &box);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  d.context->Map(pixel, 0, D3D11_MAP_READ, 0, &mapped);
  d.context->Unmap(pixel, 0);
  const double waitUs = (now(frequency) - t) * 1e6 / waits;

  const Spread fenceSpread = spread(fenceLatency), frameSpread = spread(frameLatency);
  std::printf("fence %ux%u: %u frames, producer exit %lu, %u stale, %u layers\n", args.width, args.height, args.frames,
              code, stale, args.layers);
  std::printf("signal -> CPU wait returns: median %.1f us, p99 %.1f us, max %.1f us\n", fenceSpread.median,
              fenceSpread.p99, fenceSpread.max);
  std::printf("frame start -> compositor has the pixel: median %.1f us, p99 %.1f us, max %.1f us\n", frameSpread.median,
              frameSpread.p99, frameSpread.max);
  std::printf("satisfied waits: GetCompletedValue %.1f ns, SetEventOnCompletion %.2f us, Wait %.2f us (checksum %llu)\n",
              readNs, eventUs, waitUs, (unsigned long long)(sum & 1));
  return code == 0 && stale == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; i++) {
    const bool more = i + 1 < argc;
    if (!std::strcmp(argv[i], "--produce")) args.produce = true;
    else if (!std::strcmp(argv[i], "--size") && more) std::sscanf(argv[++i], "%ux%u", &args.width, &args.height);
    else if (!std::strcmp(argv[i], "--frames") && more) args.frames = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--layers") && more) args.layers = unsigned(std::max(1, std::atoi(argv[++i])));
    else if (!std::strcmp(argv[i], "--ack") && more) args.ack = std::strtoull(argv[++i], nullptr, 16);
    else if (!std::strcmp(argv[i], "--times") && more) args.times = argv[++i];
  }
  return args.produce ? produce(args) : composite(args);
}
