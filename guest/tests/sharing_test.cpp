// SPDX-License-Identifier: MIT
// Shared resources, keyed mutexes and fences across processes, under Wine:
// this program starts a neptune-server.exe, plays the producer in its own process and
// starts itself again as the consumer (`--child <role> ...`), so every case runs through
// two host contexts of one server. Neptune only (Wine's d3d11 cannot share).
//
//   NPT_TEST_D3D11   our d3d11.dll        NPT_SERVER_BIN   the server to start
#include <windows.h>
#include <d3d11_4.h>
#include <sddl.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <string>
#include <vector>

#include "npt/sharing/registry.h"
#include "shared_handle_object.h"

namespace {

using CreateDeviceFn = HRESULT (WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT, const D3D_FEATURE_LEVEL*, UINT,
                                         UINT, ID3D11Device**, D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);

constexpr HRESULT kWaitTimeout = HRESULT(0x00000102);
constexpr HRESULT kNameAlreadyExists = HRESULT(0x887A002C);   // DXGI_ERROR_NAME_ALREADY_EXISTS
constexpr HRESULT kFileNotFound = HRESULT(0x80070002);        // HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND)
// How long a step may take on a loaded machine (wined3d on llvmpipe, many processes on
// two cores): generous, since a step that never comes fails the same way, only later.
constexpr DWORD kPatienceMs = 60000;

std::string windowsPath(std::string path) {
  if (!path.empty() && path[0] == '/') path = "Z:" + path;
  for (char& c : path)
    if (c == '/') c = '\\';
  return path;
}

// The d3d11.dll under test, loaded once per process; the server, started by the parent.
struct Neptune {
  CreateDeviceFn create = nullptr;
  std::string error;
  PROCESS_INFORMATION server = {};
  DWORD serverPid = 0;

  static Neptune& get() {
    static Neptune instance;
    return instance;
  }

  bool load() {
    if (create) return true;
    const char* dll = std::getenv("NPT_TEST_D3D11");
    if (!dll || !*dll) {
      error = "NPT_TEST_D3D11 is not set";
      return false;
    }
    HMODULE module = LoadLibraryA(windowsPath(dll).c_str());
    if (module)
      create = reinterpret_cast<CreateDeviceFn>(reinterpret_cast<void*>(GetProcAddress(module, "D3D11CreateDevice")));
    if (!create) error = "cannot load D3D11CreateDevice from " + std::string(dll);
    return create != nullptr;
  }

  // Starts a neptune-server.exe on socket <temp>/npt-sharing-test-<pid><suffix>, with
  // NPT_FENCE_TIMEOUT_MS = fenceTimeoutMs; returns the socket ("" on failure).
  std::string startServerProcess(const std::string& suffix, const char* fenceTimeoutMs, PROCESS_INFORMATION* process) {
    const char* bin = std::getenv("NPT_SERVER_BIN");
    if (!bin) {
      error = "NPT_SERVER_BIN is not set";
      return "";
    }
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    std::string socket = std::string(temp) + "npt-sharing-test-" + std::to_string(GetCurrentProcessId()) + suffix;
    // The watchdog (a worker stuck in one command) is the isolation tests' concern; on a
    // loaded machine wined3d's device creation alone can pass its default 10 s.
    std::string cmd = "\"" + windowsPath(bin) + "\" --socket \"" + socket + "\" --watchdog-ms 120000";
    // A terminated server leaves its rendezvous file, and process ids repeat in a fresh
    // wineserver: a stale file would be taken for this server's before it listens.
    const std::string rendezvous = socket + ".tcp";
    DeleteFileA(rendezvous.c_str());
    STARTUPINFOA si = {};
    si.cb = sizeof(si);
    SetEnvironmentVariableA("NPT_FENCE_TIMEOUT_MS", fenceTimeoutMs);
    const BOOL started = CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, process);
    SetEnvironmentVariableA("NPT_FENCE_TIMEOUT_MS", nullptr);
    if (!started) {
      error = "cannot start " + cmd;
      return "";
    }
    for (int i = 0; i < 6000 && GetFileAttributesA(rendezvous.c_str()) == INVALID_FILE_ATTRIBUTES; i++) Sleep(10);
    return socket;
  }

  bool startServer() {
    if (serverPid) return true;
    // Legitimate Waits of the cases may last seconds on a loaded machine.
    std::string socket = startServerProcess("", "60000", &server);
    if (socket.empty()) return false;
    serverPid = server.dwProcessId;
    // The C runtime's copy (read by the guest runtime) and the process's (children).
    _putenv(("NPT_SERVER=" + socket).c_str());
    SetEnvironmentVariableA("NPT_SERVER", socket.c_str());
    return true;
  }

  ~Neptune() {
    if (server.hProcess) {
      TerminateProcess(server.hProcess, 0);
      WaitForSingleObject(server.hProcess, 5000);
      CloseHandle(server.hProcess);
      CloseHandle(server.hThread);
    }
  }
};

struct Device {
  ID3D11Device5* device = nullptr;
  ID3D11DeviceContext4* context = nullptr;

  HRESULT create() {
    ID3D11Device* d = nullptr;
    ID3D11DeviceContext* c = nullptr;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
    HRESULT hr = Neptune::get().create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &d,
                                       nullptr, &c);
    if (FAILED(hr)) return hr;
    hr = d->QueryInterface(__uuidof(ID3D11Device5), reinterpret_cast<void**>(&device));
    if (SUCCEEDED(hr)) hr = c->QueryInterface(__uuidof(ID3D11DeviceContext4), reinterpret_cast<void**>(&context));
    d->Release();
    c->Release();
    return hr;
  }
  ~Device() {
    if (context) context->Release();
    if (device) device->Release();
  }
};

// Texel of `round` in subresource `sub` at (x, y): every texel of every round differs.
uint32_t texel(uint32_t round, uint32_t sub, uint32_t x, uint32_t y) {
  return 0x80000000u ^ (round << 24) ^ (sub << 18) ^ (y << 9) ^ x;
}

void fillTexture(ID3D11DeviceContext* context, ID3D11Texture2D* texture, uint32_t round) {
  D3D11_TEXTURE2D_DESC desc;
  texture->GetDesc(&desc);
  for (UINT sub = 0; sub < desc.MipLevels * desc.ArraySize; sub++) {
    const UINT mip = sub % desc.MipLevels;
    const UINT w = std::max(1u, desc.Width >> mip), h = std::max(1u, desc.Height >> mip);
    std::vector<uint32_t> texels(size_t(w) * h);
    for (UINT y = 0; y < h; y++)
      for (UINT x = 0; x < w; x++) texels[size_t(y) * w + x] = texel(round, sub, x, y);
    context->UpdateSubresource(texture, sub, nullptr, texels.data(), w * 4, w * h * 4);
  }
}

// Reads every subresource back through a staging copy; "" when each texel is round's.
std::string checkTexture(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11Texture2D* texture, uint32_t round) {
  D3D11_TEXTURE2D_DESC desc;
  texture->GetDesc(&desc);
  D3D11_TEXTURE2D_DESC stagingDesc = desc;
  stagingDesc.Usage = D3D11_USAGE_STAGING;
  stagingDesc.BindFlags = 0;
  stagingDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  stagingDesc.MiscFlags = 0;
  ID3D11Texture2D* staging = nullptr;
  if (FAILED(device->CreateTexture2D(&stagingDesc, nullptr, &staging))) return "cannot create a staging texture";
  context->CopyResource(staging, texture);
  std::string why;
  for (UINT sub = 0; sub < desc.MipLevels * desc.ArraySize && why.empty(); sub++) {
    const UINT mip = sub % desc.MipLevels;
    const UINT w = std::max(1u, desc.Width >> mip), h = std::max(1u, desc.Height >> mip);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    HRESULT hr = context->Map(staging, sub, D3D11_MAP_READ, 0, &mapped);
    if (FAILED(hr)) {
      char text[64];
      std::snprintf(text, sizeof(text), "Map of subresource %u: 0x%08lx", sub, hr);
      why = text;
      break;
    }
    for (UINT y = 0; y < h && why.empty(); y++)
      for (UINT x = 0; x < w && why.empty(); x++) {
        uint32_t got = 0;
        std::memcpy(&got, static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch + x * 4, 4);
        if (got != texel(round, sub, x, y)) {
          char text[160];
          std::snprintf(text, sizeof(text), "subresource %u texel (%u,%u): 0x%08x, expected 0x%08x (round %u)", sub, x, y,
                        got, texel(round, sub, x, y), round);
          why = text;
        }
      }
    context->Unmap(staging, sub);
  }
  staging->Release();
  return why;
}

std::string checkBuffer(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11Buffer* buffer, uint32_t round) {
  D3D11_BUFFER_DESC desc;
  buffer->GetDesc(&desc);
  D3D11_BUFFER_DESC stagingDesc = {desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  ID3D11Buffer* staging = nullptr;
  if (FAILED(device->CreateBuffer(&stagingDesc, nullptr, &staging))) return "cannot create a staging buffer";
  context->CopyResource(staging, buffer);
  D3D11_MAPPED_SUBRESOURCE mapped{};
  std::string why;
  if (FAILED(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped))) why = "Map of the buffer failed";
  for (UINT i = 0; why.empty() && i < desc.ByteWidth / 4; i++) {
    uint32_t got = 0;
    std::memcpy(&got, static_cast<const uint8_t*>(mapped.pData) + i * 4, 4);
    if (got != texel(round, 99, i, 0)) why = "buffer word " + std::to_string(i) + " differs (round " + std::to_string(round) + ")";
  }
  if (mapped.pData) context->Unmap(staging, 0);
  staging->Release();
  return why;
}

// The test's own shared words between parent and child: QueryPerformanceCounter stamps
// of the producer's Signals, and results the child reports.
struct Board {
  volatile LONGLONG signalled[64];
  volatile LONGLONG observed[64];
  volatile LONGLONG frequency;
};

Board* openBoard(DWORD parentPid, HANDLE* mapping) {
  std::string name = "Local\\npt-sharing-test-board-" + std::to_string(parentPid);
  *mapping = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, sizeof(Board), name.c_str());
  return *mapping ? static_cast<Board*>(MapViewOfFile(*mapping, FILE_MAP_ALL_ACCESS, 0, 0, sizeof(Board))) : nullptr;
}

LONGLONG now() {
  LARGE_INTEGER t;
  QueryPerformanceCounter(&t);
  return t.QuadPart;
}

// Starts this program as `--child <args> <this process's id>`; returns the process. With
// `inherit`, the child inherits this process's inheritable handles (same values).
HANDLE startChild(const std::string& args, bool inherit = false) {
  char self[MAX_PATH];
  GetModuleFileNameA(nullptr, self, sizeof(self));
  std::string cmd = "\"" + std::string(self) + "\" --child " + args + " " + std::to_string(GetCurrentProcessId());
  STARTUPINFOA si = {};
  si.cb = sizeof(si);
  PROCESS_INFORMATION pi = {};
  if (!CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, inherit, 0, nullptr, nullptr, &si, &pi)) return nullptr;
  CloseHandle(pi.hThread);
  return pi.hProcess;
}

// An NT handle of the parent process, duplicated into this one (as a Windows program
// passes NT shared handles); nullptr when that fails.
HANDLE fromParent(HANDLE parentHandle, DWORD parentPid) {
  HANDLE parent = OpenProcess(PROCESS_DUP_HANDLE, FALSE, parentPid);
  if (!parent) return nullptr;
  HANDLE local = nullptr;
  if (!DuplicateHandle(parent, parentHandle, GetCurrentProcess(), &local, 0, FALSE, DUPLICATE_SAME_ACCESS)) local = nullptr;
  CloseHandle(parent);
  return local;
}

// The host registry entry an NT handle of this process names.
uint64_t entryOf(HANDLE ntHandle) { return npt::guest::registryValueOfSharedHandle(ntHandle); }

DWORD finishChild(HANDLE child, DWORD timeoutMs) {
  DWORD code = 999;
  if (WaitForSingleObject(child, timeoutMs) != WAIT_OBJECT_0) {
    TerminateProcess(child, 998);
    WaitForSingleObject(child, 5000);
  }
  GetExitCodeProcess(child, &code);
  CloseHandle(child);
  return code;
}

std::string hex(HANDLE handle) {
  char text[32];
  std::snprintf(text, sizeof(text), "%llx", static_cast<unsigned long long>(uintptr_t(handle)));
  return text;
}

HANDLE parseHandle(const char* text) { return HANDLE(uintptr_t(std::strtoull(text, nullptr, 16))); }

#define CHILD_CHECK(cond, code, ...)      \
  do {                                    \
    if (!(cond)) {                        \
      std::printf("child: " __VA_ARGS__); \
      std::printf("\n");                  \
      std::fflush(stdout);                \
      return code;                        \
    }                                     \
  } while (0)

// ---- children

// Opens the producer's texture, buffer and fence; waits on the GPU for rounds 1 and 2 and
// checks every texel; then times the CPU-side fence path for rounds 3..22.
int fenceConsumer(HANDLE textureHandle, HANDLE bufferHandle, HANDLE fenceHandle, DWORD parentPid) {
  HANDLE boardMapping = nullptr;
  Board* board = openBoard(parentPid, &boardMapping);
  CHILD_CHECK(board, 2, "no board");
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  ID3D11Texture2D* texture = nullptr;
  HRESULT hr = d.device->OpenSharedResource(textureHandle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 4, "OpenSharedResource(texture): 0x%08lx", hr);
  D3D11_TEXTURE2D_DESC desc;
  texture->GetDesc(&desc);
  CHILD_CHECK(desc.Width == 64 && desc.Height == 32 && desc.MipLevels == 2 && desc.ArraySize == 2 &&
                  (desc.MiscFlags & D3D11_RESOURCE_MISC_SHARED),
              5, "desc %ux%u mips %u array %u misc %#x", desc.Width, desc.Height, desc.MipLevels, desc.ArraySize,
              desc.MiscFlags);
  ID3D11Buffer* buffer = nullptr;
  hr = d.device->OpenSharedResource(bufferHandle, __uuidof(ID3D11Buffer), reinterpret_cast<void**>(&buffer));
  CHILD_CHECK(hr == S_OK && buffer, 6, "OpenSharedResource(buffer): 0x%08lx", hr);
  ID3D11Fence* fence = nullptr;
  HANDLE localFence = fromParent(fenceHandle, parentPid);
  CHILD_CHECK(localFence, 7, "DuplicateHandle of the parent's fence handle: %lu", GetLastError());
  hr = d.device->OpenSharedFence(localFence, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence));
  CHILD_CHECK(hr == S_OK && fence, 7, "OpenSharedFence: 0x%08lx", hr);
  CHILD_CHECK(CloseHandle(localFence), 7, "CloseHandle of the duplicated fence handle");

  // Round 1 was signalled before this process started.
  CHILD_CHECK(d.context->Wait(fence, 1) == S_OK, 8, "Wait(1)");
  std::string why = checkTexture(d.device, d.context, texture, 1);
  CHILD_CHECK(why.empty(), 9, "round 1: %s", why.c_str());
  why = checkBuffer(d.device, d.context, buffer, 1);
  CHILD_CHECK(why.empty(), 10, "round 1 buffer: %s", why.c_str());
  CHILD_CHECK(fence->GetCompletedValue() >= 1, 11, "GetCompletedValue %llu", fence->GetCompletedValue());
  board->observed[0] = 1;   // the producer starts round 2 now

  // Round 2: this GPU Wait holds the consumer's host context until the producer signals;
  // the readback behind it must see round 2.
  CHILD_CHECK(d.context->Wait(fence, 2) == S_OK, 12, "Wait(2)");
  why = checkTexture(d.device, d.context, texture, 2);
  board->observed[2] = now();
  CHILD_CHECK(why.empty(), 13, "round 2: %s", why.c_str());

  // CPU waits: SetEventOnCompletion on the opened fence.
  HANDLE event = CreateEventA(nullptr, FALSE, FALSE, nullptr);
  for (UINT64 value = 3; value < 23; value++) {
    CHILD_CHECK(fence->SetEventOnCompletion(value, event) == S_OK, 14, "SetEventOnCompletion(%llu)", value);
    CHILD_CHECK(WaitForSingleObject(event, kPatienceMs) == WAIT_OBJECT_0, 15, "fence value %llu never came", value);
    board->observed[value] = now();
    CHILD_CHECK(fence->GetCompletedValue() >= value, 16, "event before the value");
  }
  CloseHandle(event);
  // The same values read by spinning on GetCompletedValue: the host's part alone.
  for (UINT64 value = 23; value < 43; value++) {
    const ULONGLONG start = GetTickCount64();
    while (fence->GetCompletedValue() < value && GetTickCount64() - start < kPatienceMs) SwitchToThread();
    board->observed[value] = now();
    CHILD_CHECK(fence->GetCompletedValue() >= value, 17, "fence value %llu never came", value);
  }
  fence->Release();
  buffer->Release();
  texture->Release();
  UnmapViewOfFile(const_cast<Board*>(board));
  CloseHandle(boardMapping);
  return 0;
}

// Alternates with the producer over a keyed mutex: acquires key 2i+1, checks the
// producer's round i, writes round 100+i, releases to key 2i+2.
int mutexConsumer(HANDLE parentHandle, int rounds, DWORD parentPid) {
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  HANDLE textureHandle = fromParent(parentHandle, parentPid);
  CHILD_CHECK(textureHandle, 4, "DuplicateHandle of the parent's texture handle: %lu", GetLastError());
  ID3D11Texture2D* texture = nullptr;
  HRESULT hr = d.device->OpenSharedResource1(textureHandle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 4, "OpenSharedResource1: 0x%08lx", hr);
  IDXGIKeyedMutex* mutex = nullptr;
  CHILD_CHECK(texture->QueryInterface(__uuidof(IDXGIKeyedMutex), reinterpret_cast<void**>(&mutex)) == S_OK, 5, "QI mutex");
  CHILD_CHECK(mutex->ReleaseSync(0) == E_FAIL, 6, "ReleaseSync without holding: 0x%08lx", mutex->ReleaseSync(0));
  for (int i = 0; i < rounds; i++) {
    // The last round waits without a time-out (INFINITE: the parent releases it).
    hr = mutex->AcquireSync(2 * i + 1, i == rounds - 1 ? INFINITE : kPatienceMs);
    CHILD_CHECK(hr == S_OK, 7, "AcquireSync(%d): 0x%08lx", 2 * i + 1, hr);
    std::string why = checkTexture(d.device, d.context, texture, i);
    CHILD_CHECK(why.empty(), 8, "round %d: %s", i, why.c_str());
    fillTexture(d.context, texture, 100 + i);
    CHILD_CHECK(mutex->ReleaseSync(2 * i + 2) == S_OK, 9, "ReleaseSync");
  }
  mutex->Release();
  texture->Release();
  CloseHandle(textureHandle);
  return 0;
}

// Opens the parent's texture, shares one of its own (its handle in observed[2]), reports
// (observed[1]); once the parent's worker was killed (signalled[1]) checks that the texture
// still works and the parent's fence no longer opens.
int survivor(HANDLE textureHandle, HANDLE fenceHandle, DWORD parentPid) {
  HANDLE boardMapping = nullptr;
  Board* board = openBoard(parentPid, &boardMapping);
  CHILD_CHECK(board, 2, "no board");
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  ID3D11Texture2D* texture = nullptr;
  HRESULT hr = d.device->OpenSharedResource(textureHandle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 4, "OpenSharedResource: 0x%08lx", hr);
  std::string why = checkTexture(d.device, d.context, texture, 6);
  CHILD_CHECK(why.empty(), 5, "the parent's texture: %s", why.c_str());
  D3D11_TEXTURE2D_DESC desc = {16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                               D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_SHARED};
  ID3D11Texture2D* own = nullptr;
  CHILD_CHECK(d.device->CreateTexture2D(&desc, nullptr, &own) == S_OK, 6, "CreateTexture2D");
  IDXGIResource* ownResource = nullptr;
  CHILD_CHECK(own->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&ownResource)) == S_OK, 7, "QI");
  HANDLE ownHandle = nullptr;
  CHILD_CHECK(ownResource->GetSharedHandle(&ownHandle) == S_OK, 8, "GetSharedHandle");
  board->observed[2] = LONGLONG(uintptr_t(ownHandle));
  board->observed[1] = 1;
  for (int i = 0; i < 6000 && !board->signalled[1]; i++) Sleep(10);
  CHILD_CHECK(board->signalled[1], 9, "the parent never said go on");
  fillTexture(d.context, texture, 7);
  why = checkTexture(d.device, d.context, texture, 7);
  CHILD_CHECK(why.empty(), 10, "after the kill: %s", why.c_str());
  void* out = nullptr;
  HANDLE localFence = fromParent(fenceHandle, parentPid);
  CHILD_CHECK(localFence, 11, "DuplicateHandle of the parent's fence handle: %lu", GetLastError());
  hr = d.device->OpenSharedFence(localFence, __uuidof(ID3D11Fence), &out);
  CHILD_CHECK(hr == E_INVALIDARG, 11, "OpenSharedFence of the dead worker's fence: 0x%08lx", hr);
  CloseHandle(localFence);
  ownResource->Release();
  own->Release();
  texture->Release();
  d.context->Flush();
  return 0;
}

// A GPU Wait on a value nobody signals: the host removes this device after its timeout.
int hungWait() {
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  ID3D11Fence* fence = nullptr;
  CHILD_CHECK(d.device->CreateFence(0, D3D11_FENCE_FLAG_NONE, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)) == S_OK,
              4, "CreateFence");
  D3D11_BUFFER_DESC desc = {16, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
  ID3D11Buffer* staging = nullptr;
  CHILD_CHECK(d.device->CreateBuffer(&desc, nullptr, &staging) == S_OK, 5, "CreateBuffer");
  d.context->Wait(fence, 1);
  D3D11_MAPPED_SUBRESOURCE mapped{};
  HRESULT hr = d.context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped);
  CHILD_CHECK(hr == DXGI_ERROR_DEVICE_REMOVED, 6, "Map after a hung Wait: 0x%08lx", hr);
  CHILD_CHECK(fence->GetCompletedValue() == UINT64_MAX, 7, "a removed device's fence reads %llu", fence->GetCompletedValue());
  return 0;
}

// Opens the parent's texture and fence, writes round 5 into every subresource of the
// texture (an opener's writes) and signals the fence (which publishes them).
int openerWriter(HANDLE textureHandle, HANDLE parentFenceHandle, DWORD parentPid) {
  HANDLE fenceHandle = fromParent(parentFenceHandle, parentPid);
  CHILD_CHECK(fenceHandle, 2, "DuplicateHandle of the parent's fence handle: %lu", GetLastError());
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  ID3D11Texture2D* texture = nullptr;
  HRESULT hr = d.device->OpenSharedResource(textureHandle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 4, "OpenSharedResource: 0x%08lx", hr);
  ID3D11Fence* fence = nullptr;
  hr = d.device->OpenSharedFence(fenceHandle, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence));
  CHILD_CHECK(hr == S_OK && fence, 5, "OpenSharedFence: 0x%08lx", hr);
  std::string why = checkTexture(d.device, d.context, texture, 1);
  CHILD_CHECK(why.empty(), 6, "the parent's round 1: %s", why.c_str());
  fillTexture(d.context, texture, 5);
  CHILD_CHECK(d.context->Signal(fence, 1) == S_OK, 7, "Signal");
  d.context->Flush();
  for (int i = 0; i < 1000 && fence->GetCompletedValue() < 1; i++) Sleep(5);
  CHILD_CHECK(fence->GetCompletedValue() == 1, 8, "the Signal never completed");
  fence->Release();
  texture->Release();
  CloseHandle(fenceHandle);
  return 0;
}

// Opens the parent's NT-handle texture (released by the parent, kept by its handles)
// three ways: an inherited handle, a handle duplicated from the parent, and by name;
// checks round 8 each time and closes the handles it holds.
int ntOpener(HANDLE inherited, HANDLE parentHandle, const char* name, DWORD parentPid) {
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  ID3D11Texture2D* texture = nullptr;
  HRESULT hr = d.device->OpenSharedResource1(inherited, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 4, "OpenSharedResource1 of the inherited handle: 0x%08lx", hr);
  std::string why = checkTexture(d.device, d.context, texture, 8);
  CHILD_CHECK(why.empty(), 5, "through the inherited handle: %s", why.c_str());
  texture->Release();
  HANDLE duplicated = fromParent(parentHandle, parentPid);
  CHILD_CHECK(duplicated, 6, "DuplicateHandle from the parent: %lu", GetLastError());
  hr = d.device->OpenSharedResource1(duplicated, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 7, "OpenSharedResource1 of the duplicated handle: 0x%08lx", hr);
  why = checkTexture(d.device, d.context, texture, 8);
  CHILD_CHECK(why.empty(), 8, "through the duplicated handle: %s", why.c_str());
  texture->Release();
  const std::wstring wide(name, name + std::strlen(name));
  hr = d.device->OpenSharedResourceByName(wide.c_str(), DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                          __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 9, "OpenSharedResourceByName: 0x%08lx", hr);
  why = checkTexture(d.device, d.context, texture, 8);
  CHILD_CHECK(why.empty(), 10, "by name: %s", why.c_str());
  texture->Release();
  CHILD_CHECK(CloseHandle(inherited) && CloseHandle(duplicated), 11, "CloseHandle");
  CHILD_CHECK(!CloseHandle(duplicated), 12, "a closed handle closed again");
  return 0;
}

// Acquires the parent's keyed mutex with key 0 and ends without releasing it.
int mutexAbandoner(HANDLE parentHandle, DWORD parentPid) {
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  HANDLE handle = fromParent(parentHandle, parentPid);
  CHILD_CHECK(handle, 4, "DuplicateHandle of the parent's texture handle: %lu", GetLastError());
  ID3D11Texture2D* texture = nullptr;
  HRESULT hr = d.device->OpenSharedResource1(handle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
  CHILD_CHECK(hr == S_OK && texture, 5, "OpenSharedResource1: 0x%08lx", hr);
  IDXGIKeyedMutex* mutex = nullptr;
  CHILD_CHECK(texture->QueryInterface(__uuidof(IDXGIKeyedMutex), reinterpret_cast<void**>(&mutex)) == S_OK, 6, "QI mutex");
  hr = mutex->AcquireSync(0, kPatienceMs);
  CHILD_CHECK(hr == S_OK, 7, "AcquireSync(0): 0x%08lx", hr);
  std::printf("child: holding the keyed mutex, exiting\n");
  std::fflush(stdout);
  ExitProcess(0);   // no ReleaseSync, no Release: the process just ends
}

// Creates a texture (round 9, two mips, two slices) and a fence (value 42), each with an
// NT handle, duplicates both handles into the parent (observed[10], observed[11]; the
// entries in observed[12], observed[13]; observed[14] = 1: ready), then ends without
// releasing or closing anything: `exit` returns through ExitProcess, `terminate` waits
// for the parent to terminate it.
int orphaner(const std::string& mode, DWORD parentPid) {
  HANDLE boardMapping = nullptr;
  Board* board = openBoard(parentPid, &boardMapping);
  CHILD_CHECK(board, 2, "no board");
  Device d;
  CHILD_CHECK(d.create() == S_OK, 3, "device");
  D3D11_TEXTURE2D_DESC desc = {64, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                               D3D11_BIND_SHADER_RESOURCE,
                               0, D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE};
  ID3D11Texture2D* texture = nullptr;
  CHILD_CHECK(d.device->CreateTexture2D(&desc, nullptr, &texture) == S_OK, 4, "CreateTexture2D");
  fillTexture(d.context, texture, 9);
  IDXGIResource1* resource = nullptr;
  CHILD_CHECK(texture->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&resource)) == S_OK, 5, "QI");
  HANDLE textureHandle = nullptr;
  CHILD_CHECK(resource->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &textureHandle) == S_OK, 6, "CreateSharedHandle");
  ID3D11Fence* fence = nullptr;
  CHILD_CHECK(d.device->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)) == S_OK,
              7, "CreateFence");
  CHILD_CHECK(d.context->Signal(fence, 42) == S_OK && fence->SetEventOnCompletion(42, nullptr) == S_OK, 8, "Signal");
  HANDLE fenceHandle = nullptr;
  CHILD_CHECK(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &fenceHandle) == S_OK, 9, "fence CreateSharedHandle");
  HANDLE parent = OpenProcess(PROCESS_DUP_HANDLE, FALSE, parentPid);
  CHILD_CHECK(parent, 10, "OpenProcess: %lu", GetLastError());
  HANDLE remoteTexture = nullptr, remoteFence = nullptr;
  CHILD_CHECK(DuplicateHandle(GetCurrentProcess(), textureHandle, parent, &remoteTexture, 0, FALSE, DUPLICATE_SAME_ACCESS) &&
                  DuplicateHandle(GetCurrentProcess(), fenceHandle, parent, &remoteFence, 0, FALSE, DUPLICATE_SAME_ACCESS),
              11, "DuplicateHandle into the parent: %lu", GetLastError());
  board->observed[10] = LONGLONG(uintptr_t(remoteTexture));
  board->observed[11] = LONGLONG(uintptr_t(remoteFence));
  board->observed[12] = LONGLONG(entryOf(textureHandle));
  board->observed[13] = LONGLONG(entryOf(fenceHandle));
  board->observed[14] = 1;
  if (mode == "terminate") {
    Sleep(INFINITE);
  }
  std::printf("child: exiting with everything held\n");
  std::fflush(stdout);
  ExitProcess(0);
}

// Shares a texture through an NT handle it keeps open, releases every object and frees
// our d3d11.dll (the application's only reference): the runtime keeps the texture for the
// handle, so the module must stay loaded for its keeper thread; then closes the handle,
// lets the keeper let go and ends normally (a keeper running unloaded code would crash it).
int unloader() {
  HMODULE module = nullptr;
  CHILD_CHECK(GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                                 reinterpret_cast<LPCSTR>(Neptune::get().create), &module),
              2, "no module");
  HANDLE handle = nullptr;
  {
    Device d;
    CHILD_CHECK(d.create() == S_OK, 3, "device");
    D3D11_TEXTURE2D_DESC desc = {16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_SHADER_RESOURCE, 0,
                                 D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE};
    ID3D11Texture2D* texture = nullptr;
    CHILD_CHECK(d.device->CreateTexture2D(&desc, nullptr, &texture) == S_OK, 4, "CreateTexture2D");
    IDXGIResource1* resource = nullptr;
    CHILD_CHECK(texture->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&resource)) == S_OK, 5, "QI");
    CHILD_CHECK(resource->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &handle) == S_OK, 6, "CreateSharedHandle");
    resource->Release();
    texture->Release();
  }
  CHILD_CHECK(FreeLibrary(module), 7, "FreeLibrary: %lu", GetLastError());
  Neptune::get().create = nullptr;
  HMODULE still = nullptr;
  CHILD_CHECK(GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                                 reinterpret_cast<LPCSTR>(module) + 0x1000, &still) && still == module,
              8, "d3d11.dll was unloaded while it keeps a texture");
  Sleep(200);   // the keeper runs a few checks
  CHILD_CHECK(CloseHandle(handle), 9, "CloseHandle");
  Sleep(500);   // and lets go
  std::printf("child: the keeper outlived FreeLibrary\n");
  std::fflush(stdout);
  return 0;
}

int runChild(int argc, char** argv) {
  if (!Neptune::get().load()) {
    std::printf("child: %s\n", Neptune::get().error.c_str());
    return 1;
  }
  std::string role = argv[2];
  if (role == "fence-consumer" && argc >= 7)
    return fenceConsumer(parseHandle(argv[3]), parseHandle(argv[4]), parseHandle(argv[5]), DWORD(std::atoi(argv[6])));
  if (role == "mutex-consumer" && argc >= 6)
    return mutexConsumer(parseHandle(argv[3]), std::atoi(argv[4]), DWORD(std::atoi(argv[5])));
  if (role == "hung-wait") return hungWait();
  if (role == "mutex-abandoner" && argc >= 5) return mutexAbandoner(parseHandle(argv[3]), DWORD(std::atoi(argv[4])));
  if (role == "nt-opener" && argc >= 7)
    return ntOpener(parseHandle(argv[3]), parseHandle(argv[4]), argv[5], DWORD(std::atoi(argv[6])));
  if (role == "opener-writer" && argc >= 6)
    return openerWriter(parseHandle(argv[3]), parseHandle(argv[4]), DWORD(std::atoi(argv[5])));
  if (role == "survivor" && argc >= 6) return survivor(parseHandle(argv[3]), parseHandle(argv[4]), DWORD(std::atoi(argv[5])));
  if (role == "orphaner" && argc >= 5) return orphaner(argv[3], DWORD(std::atoi(argv[4])));
  if (role == "unloader") return unloader();
  std::printf("child: unknown role %s\n", role.c_str());
  return 1;
}

// ---- parent side

class Sharing : public ::testing::Test {
protected:
  void SetUp() override {
    Neptune& n = Neptune::get();
    ASSERT_TRUE(n.startServer() && n.load()) << n.error;
    ASSERT_EQ(d.create(), S_OK);
  }

  ID3D11Texture2D* sharedTexture(UINT misc, UINT mips = 2, UINT array = 2) {
    D3D11_TEXTURE2D_DESC desc = {64, 32, mips, array, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, 0, misc};
    ID3D11Texture2D* texture = nullptr;
    EXPECT_EQ(d.device->CreateTexture2D(&desc, nullptr, &texture), S_OK);
    return texture;
  }

  std::unique_ptr<npt::sharing::Registry> registry() {
    std::string error;
    auto r = npt::sharing::Registry::open(std::to_string(Neptune::get().serverPid), &error);
    EXPECT_TRUE(r) << error;
    return r;
  }

  Device d;
};

TEST_F(Sharing, TextureBufferAndFenceReachAnotherProcess) {
  ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  ASSERT_TRUE(texture);
  D3D11_BUFFER_DESC bufferDesc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_SHARED, 0};
  ID3D11Buffer* buffer = nullptr;
  ASSERT_EQ(d.device->CreateBuffer(&bufferDesc, nullptr, &buffer), S_OK);
  ID3D11Fence* fence = nullptr;
  ASSERT_EQ(d.device->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
  HANDLE fenceHandle = nullptr;
  ASSERT_EQ(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &fenceHandle), S_OK);
  IDXGIResource* dxgiTexture = nullptr;
  IDXGIResource* dxgiBuffer = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&dxgiTexture)), S_OK);
  ASSERT_EQ(buffer->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&dxgiBuffer)), S_OK);
  HANDLE textureHandle = nullptr, bufferHandle = nullptr, again = nullptr;
  ASSERT_EQ(dxgiTexture->GetSharedHandle(&textureHandle), S_OK);
  ASSERT_EQ(dxgiTexture->GetSharedHandle(&again), S_OK);
  EXPECT_EQ(again, textureHandle);
  ASSERT_EQ(dxgiBuffer->GetSharedHandle(&bufferHandle), S_OK);

  HANDLE boardMapping = nullptr;
  Board* board = openBoard(GetCurrentProcessId(), &boardMapping);
  ASSERT_TRUE(board);
  std::memset(const_cast<Board*>(board), 0, sizeof(Board));
  auto counters = registry();
  const npt::sharing::CopyCounters before = counters->copyCounters();

  // Round 1 before the consumer exists.
  fillTexture(d.context, texture, 1);
  std::vector<uint32_t> words(64);
  for (UINT i = 0; i < 64; i++) words[i] = texel(1, 99, i, 0);
  d.context->UpdateSubresource(buffer, 0, nullptr, words.data(), 256, 256);
  ASSERT_EQ(d.context->Signal(fence, 1), S_OK);
  HANDLE child = startChild("fence-consumer " + hex(textureHandle) + " " + hex(bufferHandle) + " " + hex(fenceHandle));
  ASSERT_TRUE(child);

  // Round 2 once the consumer checked round 1 (its GPU Wait(2) is already queued).
  for (int i = 0; i < 1000 && !board->observed[0]; i++) Sleep(10);
  EXPECT_EQ(board->observed[0], 1) << "the consumer never checked round 1";
  Sleep(100);
  fillTexture(d.context, texture, 2);
  board->signalled[2] = now();
  ASSERT_EQ(d.context->Signal(fence, 2), S_OK);
  for (int i = 0; i < 1000 && !board->observed[2]; i++) Sleep(1);
  for (UINT64 value = 3; value < 43; value++) {
    Sleep(5);
    board->signalled[value] = now();
    d.context->Signal(fence, value);
  }
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);

  LARGE_INTEGER frequency;
  QueryPerformanceFrequency(&frequency);
  auto latencies = [&](UINT64 first, UINT64 end) {
    std::vector<double> us;
    for (UINT64 value = first; value < end; value++)
      if (board->observed[value] && board->signalled[value])
        us.push_back(double(board->observed[value] - board->signalled[value]) * 1e6 / double(frequency.QuadPart));
    std::sort(us.begin(), us.end());
    return us;
  };
  const std::vector<double> byEvent = latencies(3, 23), bySpin = latencies(23, 43);
  if (!byEvent.empty() && !bySpin.empty()) {
    const double gpuWait = double(board->observed[2] - board->signalled[2]) * 1e6 / double(frequency.QuadPart);
    std::printf("fence latency, producer Signal -> consumer sees the value (20 values each): SetEventOnCompletion "
                "median %.0f us, max %.0f us; GetCompletedValue spin median %.0f us, max %.0f us; GPU Wait + "
                "64x32 (2 mips x 2 slices) readback behind it: %.0f us\n",
                byEvent[byEvent.size() / 2], byEvent.back(), bySpin[bySpin.size() / 2], bySpin.back(), gpuWait);
    RecordProperty("fence_latency_event_median_us", int(byEvent[byEvent.size() / 2]));
    RecordProperty("fence_latency_spin_median_us", int(bySpin[bySpin.size() / 2]));
  }
  // Every publish and refresh is one counted CPU copy (wined3d cannot share): at least the
  // producer's rounds 1 and 2 and the consumer's refreshes of them.
  const npt::sharing::CopyCounters after = counters->copyCounters();
  EXPECT_GE(after.copies - before.copies, 4u);
  std::printf("CPU copies counted: %llu (%llu bytes)\n", static_cast<unsigned long long>(after.copies - before.copies),
              static_cast<unsigned long long>(after.bytes - before.bytes));
  UnmapViewOfFile(const_cast<Board*>(board));
  CloseHandle(boardMapping);
  dxgiTexture->Release();
  dxgiBuffer->Release();
  EXPECT_TRUE(CloseHandle(fenceHandle));   // the creator closes its NT handle
  fence->Release();
  buffer->Release();
  texture->Release();
}

TEST_F(Sharing, AnOpenersWritesReachTheCreatorAtItsSignal) {
  ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED);
  ASSERT_TRUE(texture);
  fillTexture(d.context, texture, 1);
  IDXGIResource* resource = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&resource)), S_OK);
  HANDLE textureHandle = nullptr;
  ASSERT_EQ(resource->GetSharedHandle(&textureHandle), S_OK);
  ID3D11Fence* fence = nullptr;
  ASSERT_EQ(d.device->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
  HANDLE fenceHandle = nullptr;
  ASSERT_EQ(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &fenceHandle), S_OK);
  auto counters = registry();
  const uint64_t before = counters->copyCounters(uint64_t(uintptr_t(textureHandle))).copies;   // a registry handle

  HANDLE child = startChild("opener-writer " + hex(textureHandle) + " " + hex(fenceHandle));
  ASSERT_TRUE(child);
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);
  // The creator waits for the opener's Signal; what the opener wrote is its content now.
  ASSERT_EQ(d.context->Wait(fence, 1), S_OK);
  EXPECT_EQ(checkTexture(d.device, d.context, texture, 5), "");
  // The opener's publish and this context's refresh, and nothing else (the opener's
  // Flush after its Signal had nothing new to copy).
  EXPECT_EQ(counters->copyCounters(uint64_t(uintptr_t(textureHandle))).copies - before, 3u)
      << "expected: the opener's refresh at open, its publish, this context's refresh";
  resource->Release();
  EXPECT_TRUE(CloseHandle(fenceHandle));
  fence->Release();
  texture->Release();
}

TEST_F(Sharing, KeyedMutexOrdersTwoProcesses) {
  ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 1, 1);
  ASSERT_TRUE(texture);
  IDXGIKeyedMutex* mutex = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIKeyedMutex), reinterpret_cast<void**>(&mutex)), S_OK);
  IDXGIResource1* resource = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&resource)), S_OK);
  HANDLE handle = nullptr;
  ASSERT_EQ(resource->CreateSharedHandle(nullptr, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE, nullptr, &handle), S_OK);
  // Ownerless: only key 0 acquires. A time-out of 0 tests once and returns at once.
  const ULONGLONG zeroStart = GetTickCount64();
  EXPECT_EQ(mutex->AcquireSync(1, 0), kWaitTimeout);
  EXPECT_LT(GetTickCount64() - zeroStart, 1000u);
  EXPECT_EQ(mutex->ReleaseSync(0), E_FAIL) << "not held";
  const int rounds = 6;
  HANDLE child = startChild("mutex-consumer " + hex(handle) + " " + std::to_string(rounds));
  ASSERT_TRUE(child);
  for (int i = 0; i < rounds; i++) {
    ASSERT_EQ(mutex->AcquireSync(2 * i, kPatienceMs), S_OK) << "round " << i;
    if (i > 0) {
      EXPECT_EQ(checkTexture(d.device, d.context, texture, 100 + i - 1), "") << "round " << i;
    }
    fillTexture(d.context, texture, i);
    ASSERT_EQ(mutex->ReleaseSync(2 * i + 1), S_OK);
  }
  ASSERT_EQ(mutex->AcquireSync(2 * rounds, kPatienceMs), S_OK);
  EXPECT_EQ(checkTexture(d.device, d.context, texture, 100 + rounds - 1), "");
  // The keyed mutex is not recursive: the owner acquiring again stalls until the time
  // asked for runs out (Windows stalls the thread; nothing else releases it here).
  const ULONGLONG recursiveStart = GetTickCount64();
  EXPECT_EQ(mutex->AcquireSync(2 * rounds, 150), kWaitTimeout);
  EXPECT_GE(GetTickCount64() - recursiveStart, 140u);
  // Not released with key 5 by anyone: times out after about the time asked for.
  const ULONGLONG start = GetTickCount64();
  EXPECT_EQ(mutex->ReleaseSync(7), S_OK);
  EXPECT_EQ(mutex->AcquireSync(5, 150), kWaitTimeout);
  EXPECT_GE(GetTickCount64() - start, 140u);
  EXPECT_LT(GetTickCount64() - start, 150u + kPatienceMs / 4) << "the time-out ran far over";
  // Released with key 7 by this device: key 7 acquires it again, at once.
  EXPECT_EQ(mutex->AcquireSync(7, 0), S_OK);
  EXPECT_EQ(mutex->ReleaseSync(8), S_OK);
  EXPECT_EQ(mutex->ReleaseSync(8), E_FAIL) << "released twice";
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);
  EXPECT_TRUE(CloseHandle(handle));
  resource->Release();
  mutex->Release();
  texture->Release();
}

TEST_F(Sharing, AKeyedMutexHeldByAnEndedProcessIsAbandoned) {
  ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 1, 1);
  ASSERT_TRUE(texture);
  IDXGIKeyedMutex* mutex = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIKeyedMutex), reinterpret_cast<void**>(&mutex)), S_OK);
  IDXGIResource1* resource = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&resource)), S_OK);
  HANDLE handle = nullptr;
  ASSERT_EQ(resource->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &handle), S_OK);
  HANDLE child = startChild("mutex-abandoner " + hex(handle));
  ASSERT_TRUE(child);
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);
  // The holder's context ended with the mutex held: WAIT_ABANDONED, whatever the key, and
  // again at every later call (the surface is in no consistent state; the documented
  // remedy is to recreate both).
  EXPECT_EQ(mutex->AcquireSync(0, kPatienceMs), HRESULT(WAIT_ABANDONED));
  EXPECT_EQ(mutex->AcquireSync(1, 0), HRESULT(WAIT_ABANDONED));
  EXPECT_EQ(mutex->ReleaseSync(0), E_FAIL) << "WAIT_ABANDONED does not make this device the owner";
  EXPECT_TRUE(CloseHandle(handle));
  resource->Release();
  mutex->Release();
  texture->Release();
}

TEST_F(Sharing, BadAndClosedHandlesAreRefused) {
  void* out = reinterpret_cast<void*>(1);
  // Not a handle, a fence's handle, a handle of the wrong kind.
  EXPECT_EQ(d.device->OpenSharedResource(HANDLE(uintptr_t(0x12345)), __uuidof(ID3D11Texture2D), &out), E_INVALIDARG);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(d.device->OpenSharedResource(nullptr, __uuidof(ID3D11Texture2D), &out), E_INVALIDARG);
  EXPECT_EQ(d.device->OpenSharedFence(HANDLE(uintptr_t(0x40000008)), __uuidof(ID3D11Fence), &out), E_INVALIDARG);

  // Not created shared: no handle.
  ID3D11Texture2D* plain = sharedTexture(0, 1, 1);
  IDXGIResource1* plainResource = nullptr;
  ASSERT_EQ(plain->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&plainResource)), S_OK);
  HANDLE handle = HANDLE(uintptr_t(1));
  EXPECT_EQ(plainResource->GetSharedHandle(&handle), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(handle, nullptr);
  EXPECT_EQ(plainResource->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &handle), E_INVALIDARG);
  IDXGIKeyedMutex* noMutex = nullptr;
  EXPECT_EQ(plain->QueryInterface(__uuidof(IDXGIKeyedMutex), reinterpret_cast<void**>(&noMutex)), E_NOINTERFACE);
  plainResource->Release();
  plain->Release();

  // What sharing refuses (host/sharing/README.md, "What can be shared"): multisampled 2D
  // textures (their content cannot be copied through a staging texture) and 3D textures.
  D3D11_TEXTURE2D_DESC msaaDesc = {64, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {4, 0}, D3D11_USAGE_DEFAULT,
                                   D3D11_BIND_RENDER_TARGET, 0, D3D11_RESOURCE_MISC_SHARED};
  ID3D11Texture2D* msaa = nullptr;
  UINT qualityLevels = 0;
  d.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 4, &qualityLevels);
  if (qualityLevels) {
    ASSERT_EQ(d.device->CreateTexture2D(&msaaDesc, nullptr, &msaa), S_OK);
    IDXGIResource* msaaResource = nullptr;
    ASSERT_EQ(msaa->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&msaaResource)), S_OK);
    EXPECT_EQ(msaaResource->GetSharedHandle(&handle), E_INVALIDARG);
    EXPECT_EQ(handle, nullptr);
    msaaResource->Release();
    msaa->Release();
  } else {
    std::printf("no 4x MSAA for R8G8B8A8_UNORM on this backend: the multisampled case is not run\n");
  }
  D3D11_TEXTURE3D_DESC volumeDesc = {8, 8, 8, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                                     D3D11_RESOURCE_MISC_SHARED};
  ID3D11Texture3D* volume = nullptr;
  ASSERT_EQ(d.device->CreateTexture3D(&volumeDesc, nullptr, &volume), S_OK);
  {
    IDXGIResource* volumeResource = nullptr;
    ASSERT_EQ(volume->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&volumeResource)), S_OK);
    EXPECT_EQ(volumeResource->GetSharedHandle(&handle), DXGI_ERROR_INVALID_CALL);
    volumeResource->Release();
    volume->Release();
  }

  // An NT-handle resource: by name, through OpenSharedResource1 only.
  ID3D11Texture2D* named = sharedTexture(D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 1, 1);
  IDXGIResource1* namedResource = nullptr;
  ASSERT_EQ(named->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&namedResource)), S_OK);
  const std::wstring name = L"npt-sharing-test-" + std::to_wstring(GetCurrentProcessId());
  HANDLE ntHandle = nullptr;
  ASSERT_EQ(namedResource->CreateSharedHandle(nullptr, GENERIC_ALL, name.c_str(), &ntHandle), S_OK);
  EXPECT_EQ(namedResource->GetSharedHandle(&handle), E_INVALIDARG);
  EXPECT_EQ(d.device->OpenSharedResource(ntHandle, __uuidof(ID3D11Texture2D), &out), E_INVALIDARG);
  ID3D11Texture2D* opened = nullptr;
  ASSERT_EQ(d.device->OpenSharedResourceByName(name.c_str(), DXGI_SHARED_RESOURCE_READ, __uuidof(ID3D11Texture2D),
                                               reinterpret_cast<void**>(&opened)), S_OK);
  D3D11_TEXTURE2D_DESC desc;
  opened->GetDesc(&desc);
  EXPECT_EQ(desc.Width, 64u);
  EXPECT_EQ(desc.MiscFlags, UINT(D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE));
  opened->Release();
  EXPECT_EQ(d.device->OpenSharedResourceByName(L"npt-sharing-test-nobody", DXGI_SHARED_RESOURCE_READ,
                                               __uuidof(ID3D11Texture2D), &out),
            kFileNotFound);
  // A registry value is no NT handle: OpenSharedResource1 and OpenSharedFence refuse it.
  EXPECT_EQ(d.device->OpenSharedResource1(HANDLE(uintptr_t(entryOf(ntHandle))), __uuidof(ID3D11Texture2D), &out),
            E_INVALIDARG);
  EXPECT_EQ(d.device->OpenSharedFence(ntHandle, __uuidof(ID3D11Fence), &out), E_INVALIDARG);   // a texture's

  // Released by the application, kept by its open handle (as on Windows) ...
  const uint64_t entry = entryOf(ntHandle);
  namedResource->Release();
  EXPECT_EQ(named->Release(), 0u);
  ASSERT_EQ(d.device->OpenSharedResource1(ntHandle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&opened)), S_OK);
  opened->Release();
  // ... until the handle is closed: then the handle, the name and the entry are gone.
  EXPECT_TRUE(CloseHandle(ntHandle));
  EXPECT_EQ(d.device->OpenSharedResource1(ntHandle, __uuidof(ID3D11Texture2D), &out), E_INVALIDARG);
  EXPECT_EQ(out, nullptr);
  // The runtime lets go of its own handle (and with it the name) once it sees it is the
  // last one: within its 50 ms period, longer on a loaded machine.
  const ULONGLONG start = GetTickCount64();
  HRESULT byName = S_OK;
  while ((byName = d.device->OpenSharedResourceByName(name.c_str(), DXGI_SHARED_RESOURCE_READ, __uuidof(ID3D11Texture2D),
                                                      &out)) == S_OK &&
         GetTickCount64() - start < kPatienceMs) {
    static_cast<IUnknown*>(out)->Release();
    Sleep(20);
  }
  EXPECT_EQ(byName, kFileNotFound);
  auto reg = registry();
  npt::sharing::EntryInfo info;
  while (reg->lookup(entry, info) == npt::sharing::LookupError::Ok && GetTickCount64() - start < kPatienceMs) Sleep(20);
  EXPECT_EQ(reg->lookup(entry, info), npt::sharing::LookupError::NotShared) << "the last handle was closed";

  // The device goes on working after every refusal.
  ID3D11Texture2D* after = sharedTexture(0, 1, 1);
  fillTexture(d.context, after, 7);
  EXPECT_EQ(checkTexture(d.device, d.context, after, 7), "");
  after->Release();
}

TEST_F(Sharing, NtHandlesAreKernelHandles) {
  ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 1, 1);
  ASSERT_TRUE(texture);
  fillTexture(d.context, texture, 8);
  IDXGIResource1* resource = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&resource)), S_OK);
  HANDLE readWrite = nullptr, all = nullptr, writeOnly = nullptr, inheritable = nullptr, named = nullptr;
  ASSERT_EQ(resource->CreateSharedHandle(nullptr, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE, nullptr, &readWrite),
            S_OK);
  ASSERT_EQ(resource->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &all), S_OK);
  ASSERT_EQ(resource->CreateSharedHandle(nullptr, DXGI_SHARED_RESOURCE_WRITE, nullptr, &writeOnly), S_OK);
  SECURITY_ATTRIBUTES inherit = {sizeof(inherit), nullptr, TRUE};
  ASSERT_EQ(resource->CreateSharedHandle(&inherit, GENERIC_ALL, nullptr, &inheritable), S_OK);
  const std::string name = "npt-sharing-test-nt-" + std::to_string(GetCurrentProcessId());
  const std::wstring wideName(name.begin(), name.end());
  ASSERT_EQ(resource->CreateSharedHandle(nullptr, GENERIC_ALL, wideName.c_str(), &named), S_OK);

  // A new handle per call, each naming the one registry entry.
  const uint64_t entry = entryOf(all);
  EXPECT_NE(entry, 0u);
  EXPECT_NE(readWrite, all);
  EXPECT_NE(all, inheritable);
  for (HANDLE h : {readWrite, writeOnly, inheritable, named}) EXPECT_EQ(entryOf(h), entry);
  // The handles grant what was asked (DXGI_SHARED_RESOURCE_READ is GENERIC_READ): the
  // object manager checks each handle's access.
  void* view = MapViewOfFile(all, FILE_MAP_WRITE, 0, 0, 0);
  EXPECT_TRUE(view) << "GENERIC_ALL grants writing";
  if (view) UnmapViewOfFile(view);
  view = MapViewOfFile(readWrite, FILE_MAP_READ, 0, 0, 0);
  EXPECT_TRUE(view) << "DXGI_SHARED_RESOURCE_READ grants reading";
  if (view) UnmapViewOfFile(view);
  EXPECT_EQ(MapViewOfFile(readWrite, FILE_MAP_WRITE, 0, 0, 0), nullptr) << "READ | WRITE is not GENERIC_ALL";
  EXPECT_EQ(MapViewOfFile(writeOnly, FILE_MAP_READ, 0, 0, 0), nullptr) << "DXGI_SHARED_RESOURCE_WRITE alone grants no reading";
  DWORD flags = 0;
  ASSERT_TRUE(GetHandleInformation(inheritable, &flags));
  EXPECT_TRUE(flags & HANDLE_FLAG_INHERIT);
  ASSERT_TRUE(GetHandleInformation(readWrite, &flags));
  EXPECT_FALSE(flags & HANDLE_FLAG_INHERIT);

  // Names share the object namespace with every other object.
  HANDLE again = HANDLE(uintptr_t(1));
  EXPECT_EQ(resource->CreateSharedHandle(nullptr, GENERIC_ALL, wideName.c_str(), &again), kNameAlreadyExists);
  EXPECT_EQ(again, nullptr);
  const std::wstring eventName = wideName + L"-event";
  HANDLE event = CreateEventW(nullptr, FALSE, FALSE, eventName.c_str());
  ASSERT_TRUE(event);
  EXPECT_EQ(resource->CreateSharedHandle(nullptr, GENERIC_ALL, eventName.c_str(), &again), kNameAlreadyExists);
  EXPECT_EQ(resource->CreateSharedHandle(nullptr, GENERIC_ALL, L"npt-no-such-directory\\x", &again), DXGI_ERROR_INVALID_CALL);
  CloseHandle(event);
  // A security descriptor whose DACL grants nobody anything: the creator's handle works,
  // opening by name is refused (E_ACCESSDENIED, as documented for OpenSharedResourceByName).
  PSECURITY_DESCRIPTOR nobody = nullptr;
  ASSERT_TRUE(ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:", SDDL_REVISION_1, &nobody, nullptr));
  SECURITY_ATTRIBUTES locked = {sizeof(locked), nobody, FALSE};
  const std::wstring lockedName = wideName + L"-locked";
  HANDLE lockedHandle = nullptr;
  ASSERT_EQ(resource->CreateSharedHandle(&locked, GENERIC_ALL, lockedName.c_str(), &lockedHandle), S_OK);
  LocalFree(nobody);
  void* refused = reinterpret_cast<void*>(1);
  EXPECT_EQ(d.device->OpenSharedResourceByName(lockedName.c_str(), DXGI_SHARED_RESOURCE_READ, __uuidof(ID3D11Texture2D),
                                               &refused),
            E_ACCESSDENIED);
  EXPECT_EQ(refused, nullptr);
  EXPECT_EQ(entryOf(lockedHandle), entryOf(all)) << "the creator's own handle still resolves";
  EXPECT_TRUE(CloseHandle(lockedHandle));

  // A duplicate is a handle like any other.
  HANDLE duplicate = nullptr;
  ASSERT_TRUE(DuplicateHandle(GetCurrentProcess(), readWrite, GetCurrentProcess(), &duplicate, 0, FALSE, DUPLICATE_SAME_ACCESS));
  EXPECT_EQ(entryOf(duplicate), entry);
  EXPECT_TRUE(CloseHandle(duplicate));
  EXPECT_FALSE(CloseHandle(duplicate));

  // Released by the application: the open handles keep the texture and its content for
  // another process, which opens it through an inherited handle, a duplicated one and by name.
  d.context->Flush();
  resource->Release();
  EXPECT_EQ(texture->Release(), 0u);
  HANDLE child = startChild("nt-opener " + hex(inheritable) + " " + hex(readWrite) + " " + name, true);
  ASSERT_TRUE(child);
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);
  // A handle without read access opens too (the runtime resolves what it is given).
  ID3D11Texture2D* opened = nullptr;
  ASSERT_EQ(d.device->OpenSharedResource1(writeOnly, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&opened)), S_OK);
  EXPECT_EQ(checkTexture(d.device, d.context, opened, 8), "");
  opened->Release();

  // The creator closes its handles; with the last one the entry goes.
  auto reg = registry();
  npt::sharing::EntryInfo info;
  for (HANDLE h : {readWrite, all, writeOnly, inheritable}) EXPECT_TRUE(CloseHandle(h));
  Sleep(300);
  EXPECT_EQ(reg->lookup(entry, info), npt::sharing::LookupError::Ok) << "the named handle is still open";
  EXPECT_TRUE(CloseHandle(named));
  const ULONGLONG start = GetTickCount64();
  while (reg->lookup(entry, info) == npt::sharing::LookupError::Ok && GetTickCount64() - start < kPatienceMs) Sleep(20);
  EXPECT_EQ(reg->lookup(entry, info), npt::sharing::LookupError::NotShared);
  std::printf("the entry was freed %llu ms after the last handle was closed\n",
              static_cast<unsigned long long>(GetTickCount64() - start));
}

TEST_F(Sharing, ASharedFenceLivesWhileAHandleIsOpen) {
  ID3D11Fence* fence = nullptr;
  ASSERT_EQ(d.device->CreateFence(3, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
  HANDLE first = nullptr, second = nullptr;
  // A fence's handle takes GENERIC_ALL only (documented).
  EXPECT_EQ(fence->CreateSharedHandle(nullptr, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE, nullptr, &first),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(first, nullptr);
  ASSERT_EQ(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &first), S_OK);
  ASSERT_EQ(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &second), S_OK);
  EXPECT_NE(first, second);
  const uint64_t entry = entryOf(first);
  EXPECT_EQ(entryOf(second), entry);
  ASSERT_EQ(d.context->Signal(fence, 7), S_OK);
  ASSERT_EQ(fence->SetEventOnCompletion(7, nullptr), S_OK);
  EXPECT_EQ(fence->Release(), 0u);
  EXPECT_TRUE(CloseHandle(first));
  ID3D11Fence* opened = nullptr;
  ASSERT_EQ(d.device->OpenSharedFence(second, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&opened)), S_OK);
  EXPECT_EQ(opened->GetCompletedValue(), 7u);
  opened->Release();
  EXPECT_TRUE(CloseHandle(second));
  auto reg = registry();
  npt::sharing::EntryInfo info;
  const ULONGLONG start = GetTickCount64();
  while (reg->lookup(entry, info) == npt::sharing::LookupError::Ok && GetTickCount64() - start < kPatienceMs) Sleep(20);
  EXPECT_EQ(reg->lookup(entry, info), npt::sharing::LookupError::NotShared);
}

// Windows keeps a shared resource while any NT handle to it is open in any process, also
// after its creator process ended (ExitProcess or TerminateProcess): a child creates a
// texture and a fence, duplicates their handles into this process and ends holding
// everything; this process opens both afterwards (the texture's content and the fence's
// value are the child's), and the host entries go once it lets go of them.
TEST_F(Sharing, ADuplicatedHandleKeepsTheResourceAfterItsCreatorEnds) {
  HANDLE boardMapping = nullptr;
  Board* board = openBoard(GetCurrentProcessId(), &boardMapping);
  ASSERT_TRUE(board);
  auto reg = registry();
  ASSERT_TRUE(reg);
  for (const std::string mode : {"exit", "terminate"}) {
    SCOPED_TRACE(mode);
    board->observed[14] = 0;
    HANDLE child = startChild("orphaner " + mode);
    ASSERT_TRUE(child);
    for (int i = 0; i < 6000 && !board->observed[14] && WaitForSingleObject(child, 0) == WAIT_TIMEOUT; i++) Sleep(10);
    ASSERT_EQ(board->observed[14], 1) << "the child never shared its texture";
    if (mode == "terminate") TerminateProcess(child, 7);
    EXPECT_EQ(finishChild(child, kPatienceMs), mode == "terminate" ? 7u : 0u);
    const HANDLE textureHandle = HANDLE(uintptr_t(board->observed[10]));
    const HANDLE fenceHandle = HANDLE(uintptr_t(board->observed[11]));
    const uint64_t textureEntry = uint64_t(board->observed[12]), fenceEntry = uint64_t(board->observed[13]);
    EXPECT_EQ(entryOf(textureHandle), textureEntry);
    // The child's context ends after its process (its worker sees the guest leave): once
    // its references are gone, the entries are the handles' alone.
    const ULONGLONG start = GetTickCount64();
    while ((!reg->holders(textureEntry).empty() || !reg->holders(fenceEntry).empty()) &&
           GetTickCount64() - start < kPatienceMs)
      Sleep(20);
    EXPECT_TRUE(reg->holders(textureEntry).empty()) << "the child's context never ended";
    npt::sharing::EntryInfo info;
    ASSERT_EQ(reg->lookup(textureEntry, info), npt::sharing::LookupError::Ok) << "the texture went with its creator";
    ASSERT_EQ(reg->lookup(fenceEntry, info), npt::sharing::LookupError::Ok) << "the fence went with its creator";

    ID3D11Texture2D* texture = nullptr;
    ASSERT_EQ(d.device->OpenSharedResource1(textureHandle, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture)),
              S_OK);
    EXPECT_EQ(checkTexture(d.device, d.context, texture, 9), "");
    ID3D11Fence* fence = nullptr;
    ASSERT_EQ(d.device->OpenSharedFence(fenceHandle, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
    EXPECT_EQ(fence->GetCompletedValue(), 42u);

    // Still a handle each: released by the application, both stay.
    EXPECT_EQ(texture->Release(), 0u);
    EXPECT_EQ(fence->Release(), 0u);
    Sleep(300);
    EXPECT_EQ(reg->lookup(textureEntry, info), npt::sharing::LookupError::Ok);
    EXPECT_EQ(reg->lookup(fenceEntry, info), npt::sharing::LookupError::Ok);
    EXPECT_TRUE(CloseHandle(textureHandle));
    EXPECT_TRUE(CloseHandle(fenceHandle));
    const ULONGLONG closed = GetTickCount64();
    while ((reg->lookup(textureEntry, info) == npt::sharing::LookupError::Ok ||
            reg->lookup(fenceEntry, info) == npt::sharing::LookupError::Ok) &&
           GetTickCount64() - closed < kPatienceMs)
      Sleep(20);
    EXPECT_EQ(reg->lookup(textureEntry, info), npt::sharing::LookupError::NotShared);
    EXPECT_EQ(reg->lookup(fenceEntry, info), npt::sharing::LookupError::NotShared);
    std::printf("%s: the entries were freed %llu ms after the last handles were closed\n", mode.c_str(),
                static_cast<unsigned long long>(GetTickCount64() - closed));
  }
  UnmapViewOfFile(board);
  CloseHandle(boardMapping);
}

// FreeLibrary of our d3d11.dll while the runtime keeps a resource for an open NT handle
// leaves the module loaded: its keeper thread runs on (the child ends normally).
TEST_F(Sharing, FreeLibraryWhileAResourceIsKeptLeavesTheModuleLoaded) {
  HANDLE child = startChild("unloader");
  ASSERT_TRUE(child);
  EXPECT_EQ(finishChild(child, 2 * kPatienceMs), 0u);
}

// OpenSharedResourceByName racing the close of the name's last handle answers as Windows
// does: the texture (with its content), or "not found"; never another error, never an
// entry that is gone. One thread shares a texture by name and closes its handle after a
// random moment, round after round; three threads (devices of their own) open by name.
TEST_F(Sharing, ANameLookupRacingTheLastCloseOpensOrFindsNothing) {
  const std::wstring name = L"npt-sharing-test-race-" + std::to_wstring(GetCurrentProcessId());
  std::atomic<int> round{-1};
  std::atomic<bool> done{false};
  std::atomic<int> opened{0}, notFound{0};
  std::vector<std::string> failures;
  std::mutex failuresMutex;
  auto fail = [&](const std::string& why) {
    std::lock_guard<std::mutex> lock(failuresMutex);
    if (failures.size() < 8) failures.push_back(why);
  };
  std::vector<std::thread> openers;
  for (int t = 0; t < 3; t++)
    openers.emplace_back([&] {
      Device own;
      if (own.create() != S_OK) return fail("an opener's device");
      std::mt19937 pause(GetCurrentThreadId());
      while (!done) {
        // Lookups in a tight loop would hold the object open most of the time (each holds
        // a handle while it opens): the keepers' checks need quiet moments to see the end.
        Sleep(pause() % 20);
        const int seen = round;
        ID3D11Texture2D* texture = nullptr;
        const HRESULT hr = own.device->OpenSharedResourceByName(name.c_str(), DXGI_SHARED_RESOURCE_READ,
                                                                __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&texture));
        if (hr == kFileNotFound) {
          notFound++;
          continue;
        }
        if (hr != S_OK || !texture) {
          char text[64];
          std::snprintf(text, sizeof(text), "OpenSharedResourceByName: 0x%08lx", hr);
          fail(text);
          continue;
        }
        opened++;
        // The round the name belonged to when it was found: the one seen before, or the
        // next (its object is named a moment before `round` says so).
        std::string why = checkTexture(own.device, own.context, texture, uint32_t(seen < 0 ? 0 : seen));
        if (!why.empty()) why = checkTexture(own.device, own.context, texture, uint32_t(seen + 1));
        if (!why.empty()) fail("an opened texture: " + why);
        texture->Release();
      }
    });
  std::mt19937 random(GetCurrentProcessId());
  for (int r = 0; r < 12; r++) {
    ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, 1, 1);
    if (!texture) break;
    fillTexture(d.context, texture, uint32_t(r));
    IDXGIResource1* resource = nullptr;
    EXPECT_EQ(texture->QueryInterface(__uuidof(IDXGIResource1), reinterpret_cast<void**>(&resource)), S_OK);
    HANDLE handle = nullptr;
    // The previous round's object may still be named until its keeper let go.
    HRESULT hr = kNameAlreadyExists;
    for (int i = 0; i < 1000 && hr == kNameAlreadyExists; i++) {
      hr = resource->CreateSharedHandle(nullptr, GENERIC_ALL, name.c_str(), &handle);
      if (hr == kNameAlreadyExists) Sleep(10);
    }
    EXPECT_EQ(hr, S_OK) << "round " << r;
    if (hr != S_OK) {
      resource->Release();
      texture->Release();
      break;
    }
    round = r;
    resource->Release();
    texture->Release();
    Sleep(random() % 150);
    EXPECT_TRUE(CloseHandle(handle));
  }
  Sleep(300);
  done = true;
  for (std::thread& t : openers) t.join();
  for (const std::string& why : failures) ADD_FAILURE() << why;
  EXPECT_GT(opened, 0);
  std::printf("%d opens, %d not found\n", int(opened), int(notFound));
}

TEST_F(Sharing, FenceValuesAreReadLocally) {
  ID3D11Fence* fence = nullptr;
  ASSERT_EQ(d.device->CreateFence(5, D3D11_FENCE_FLAG_NONE, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
  EXPECT_EQ(fence->GetCompletedValue(), 5u);
  HANDLE handle = nullptr;
  EXPECT_EQ(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &handle), E_INVALIDARG);   // not created shared
  ID3D11Device* parent = nullptr;
  fence->GetDevice(&parent);
  EXPECT_EQ(parent, static_cast<ID3D11Device*>(d.device));
  parent->Release();
  const GUID tag = {0x1b6d2c9a, 0x4e0f, 0x4a51, {0x8c, 0x22, 0x6e, 0x91, 0x0a, 0x3d, 0x57, 0x10}};
  const uint32_t data = 0xfeedf00d;
  EXPECT_EQ(fence->SetPrivateData(tag, 4, &data), S_OK);
  uint32_t read = 0;
  UINT size = 4;
  EXPECT_EQ(fence->GetPrivateData(tag, &size, &read), S_OK);
  EXPECT_EQ(read, data);

  // Signal -> the value arrives in the slot; SetEventOnCompletion without an event blocks.
  ASSERT_EQ(d.context->Signal(fence, 9), S_OK);
  ASSERT_EQ(fence->SetEventOnCompletion(9, nullptr), S_OK);
  EXPECT_EQ(fence->GetCompletedValue(), 9u);
  HANDLE event = CreateEventA(nullptr, FALSE, FALSE, nullptr);
  ASSERT_EQ(fence->SetEventOnCompletion(12, event), S_OK);
  EXPECT_EQ(WaitForSingleObject(event, 0), DWORD(WAIT_TIMEOUT));
  ASSERT_EQ(d.context->Signal(fence, 12), S_OK);
  EXPECT_EQ(WaitForSingleObject(event, 5000), DWORD(WAIT_OBJECT_0));
  // A reached value sets the event at once.
  ASSERT_EQ(fence->SetEventOnCompletion(3, event), S_OK);
  EXPECT_EQ(WaitForSingleObject(event, 0), DWORD(WAIT_OBJECT_0));
  // A GPU Wait on a value this context signalled before it passes.
  d.context->Wait(fence, 12);
  ID3D11Texture2D* texture = sharedTexture(0, 1, 1);
  fillTexture(d.context, texture, 3);
  EXPECT_EQ(checkTexture(d.device, d.context, texture, 3), "");
  texture->Release();
  CloseHandle(event);
  EXPECT_EQ(fence->Release(), 0u);
  // The fence held its device (a device child).
}

TEST_F(Sharing, AHungWaitRemovesOnlyThatDevice) {
  // A server of its own with NPT_FENCE_TIMEOUT_MS=1000; this process's device stays on
  // the first one and must go on working.
  PROCESS_INFORMATION hungServer = {};
  std::string socket = Neptune::get().startServerProcess("-hung", "1000", &hungServer);
  ASSERT_FALSE(socket.empty()) << Neptune::get().error;
  char previous[MAX_PATH] = {};
  GetEnvironmentVariableA("NPT_SERVER", previous, sizeof(previous));
  SetEnvironmentVariableA("NPT_SERVER", socket.c_str());
  const ULONGLONG start = GetTickCount64();
  HANDLE child = startChild("hung-wait");
  SetEnvironmentVariableA("NPT_SERVER", previous);
  ASSERT_TRUE(child);
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);
  std::printf("hung Wait: the device was removed after %llu ms (timeout 1000 ms, device creation included)\n",
              static_cast<unsigned long long>(GetTickCount64() - start));
  TerminateProcess(hungServer.hProcess, 0);
  WaitForSingleObject(hungServer.hProcess, 5000);
  CloseHandle(hungServer.hProcess);
  CloseHandle(hungServer.hThread);
  ID3D11Texture2D* texture = sharedTexture(0, 1, 1);
  fillTexture(d.context, texture, 4);
  EXPECT_EQ(checkTexture(d.device, d.context, texture, 4), "");
  texture->Release();
}

TEST_F(Sharing, AKilledWorkersEntriesAreTakenBackByTheServer) {
  // This process's worker shares a fence only it holds and a texture that a child (another
  // guest process: another worker) opens; the child shares a texture of its own. This
  // process's worker is killed (no clean-up runs in it): the server takes back exactly its
  // references, and the child goes on with what it holds.
  ID3D11Texture2D* texture = sharedTexture(D3D11_RESOURCE_MISC_SHARED, 1, 1);
  ASSERT_TRUE(texture);
  fillTexture(d.context, texture, 6);
  IDXGIResource* resource = nullptr;
  ASSERT_EQ(texture->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&resource)), S_OK);
  HANDLE textureHandle = nullptr;
  ASSERT_EQ(resource->GetSharedHandle(&textureHandle), S_OK);
  ID3D11Fence* fence = nullptr;
  ASSERT_EQ(d.device->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence), reinterpret_cast<void**>(&fence)), S_OK);
  HANDLE fenceHandle = nullptr;
  ASSERT_EQ(fence->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &fenceHandle), S_OK);
  d.context->Flush();

  HANDLE boardMapping = nullptr;
  Board* board = openBoard(GetCurrentProcessId(), &boardMapping);
  ASSERT_TRUE(board);
  std::memset(const_cast<Board*>(board), 0, sizeof(Board));
  HANDLE child = startChild("survivor " + hex(textureHandle) + " " + hex(fenceHandle));
  ASSERT_TRUE(child);
  for (int i = 0; i < 6000 && !board->observed[1]; i++) Sleep(10);
  ASSERT_EQ(board->observed[1], 1) << "the child never opened the texture";
  const uint64_t fenceEntry = entryOf(fenceHandle), textureEntry = uint64_t(uintptr_t(textureHandle)),
                 bystanderEntry = uint64_t(board->observed[2]);

  auto reg = registry();
  ASSERT_TRUE(reg);
  ASSERT_EQ(reg->holders(fenceEntry).size(), 1u);
  ASSERT_EQ(reg->holders(textureEntry).size(), 2u);
  ASSERT_EQ(reg->holders(bystanderEntry).size(), 1u);
  const npt::sharing::ProcessIdentity victim = reg->holders(fenceEntry)[0];
  ASSERT_NE(victim.pid, GetCurrentProcessId());   // a worker process, not this guest

  HANDLE worker = OpenProcess(PROCESS_TERMINATE | SYNCHRONIZE, FALSE, victim.pid);
  ASSERT_TRUE(worker) << "worker " << victim.pid;
  ASSERT_TRUE(TerminateProcess(worker, 9));
  WaitForSingleObject(worker, 10000);
  CloseHandle(worker);
  // The server's supervisor sees the worker die and reclaims; nobody opens the registry
  // meanwhile (an opener would reclaim too).
  npt::sharing::EntryInfo info;
  const ULONGLONG start = GetTickCount64();
  while (reg->lookup(fenceEntry, info) == npt::sharing::LookupError::Ok && GetTickCount64() - start < 30000) Sleep(20);
  EXPECT_EQ(reg->lookup(fenceEntry, info), npt::sharing::LookupError::NotShared) << "the dead worker's fence stayed";
  std::printf("the server took back the killed worker's entries after %llu ms\n",
              static_cast<unsigned long long>(GetTickCount64() - start));
  // The texture the child also holds stays, now held by the child's worker only; the
  // child's own entry is untouched.
  EXPECT_EQ(reg->lookup(textureEntry, info), npt::sharing::LookupError::Ok);
  ASSERT_EQ(reg->holders(textureEntry).size(), 1u);
  EXPECT_NE(reg->holders(textureEntry)[0].pid, victim.pid);
  EXPECT_EQ(reg->lookup(bystanderEntry, info), npt::sharing::LookupError::Ok);
  // The child checks that it goes on working and that the dead worker's fence no longer
  // opens, then lets everything go: the texture's entry is freed then (its count was right).
  board->signalled[1] = 1;
  EXPECT_EQ(finishChild(child, 4 * kPatienceMs), 0u);
  const ULONGLONG released = GetTickCount64();
  while (reg->lookup(textureEntry, info) == npt::sharing::LookupError::Ok && GetTickCount64() - released < 30000) Sleep(20);
  EXPECT_EQ(reg->lookup(textureEntry, info), npt::sharing::LookupError::NotShared);
  EXPECT_EQ(reg->lookup(bystanderEntry, info), npt::sharing::LookupError::NotShared);
  UnmapViewOfFile(const_cast<Board*>(board));
  CloseHandle(boardMapping);
  fence->Release();
  resource->Release();
  texture->Release();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--child") return runChild(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
