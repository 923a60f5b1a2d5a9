// SPDX-License-Identifier: MIT
// The victim guest of the isolation tests (isolation_test.py): a D3D11 program run with
// Neptune's d3d11.dll beside it. It works until a call reports the device removed (its
// worker was killed or hung, or it ran out of a quota), then checks what an application
// sees afterwards and prints one "removed ..." line the test parses:
//
//   isolation_guest --mode render   clear + copy + Map readback each frame (checked)
//   isolation_guest --mode objects  creates small buffers (kept alive) until removed
//   isolation_guest --mode memory   creates 1 MiB textures (kept alive) until removed
//   isolation_guest --mode hold     creates N 1 MiB textures with content (--frames N), says
//                                   "holding N", waits for --release FILE, then renders 5
//                                   frames (checked) with everything still alive
//   --frames N                      stop after N frames/objects (0: until removed)
//   --go FILE                       once connected, wait for FILE to exist before working
//   --release FILE                  hold: wait for FILE before the last frames
//
// Lines: "frame N ok" (render), "created N" every 100 objects, and at the end
// "removed after=N call=NAME hr=0x... blocked_ms=T reason=0x... map=0x... create=0x...
//  reason_again=0x..." or "finished N". Exit status 0 when what it saw is what Windows
// reports for a removed device (or it finished), 1 otherwise, 77 with no device.
#include <d3d11.h>
#include <dxgi.h>
#include <windows.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

template<typename T> void release(T*& p) {
  if (p)
    p->Release();
  p = nullptr;
}

double now_ms() {
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return 1000.0 * double(c.QuadPart) / double(f.QuadPart);
}

struct Gpu {
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  ID3D11Texture2D* target = nullptr;
  ID3D11RenderTargetView* view = nullptr;
  ID3D11Texture2D* staging = nullptr;
};

D3D11_TEXTURE2D_DESC texture_desc(UINT size, D3D11_USAGE usage, UINT bind, UINT cpu) {
  D3D11_TEXTURE2D_DESC d = {};
  d.Width = size;
  d.Height = size;
  d.MipLevels = 1;
  d.ArraySize = 1;
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  d.SampleDesc.Count = 1;
  d.Usage = usage;
  d.BindFlags = bind;
  d.CPUAccessFlags = cpu;
  return d;
}

HRESULT create_gpu(Gpu& g) {
  HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION,
                                 &g.device, nullptr, &g.context);
  if (FAILED(hr))
    return hr;
  D3D11_TEXTURE2D_DESC rt = texture_desc(16, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  D3D11_TEXTURE2D_DESC st = texture_desc(16, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  if (FAILED(hr = g.device->CreateTexture2D(&rt, nullptr, &g.target)) ||
      FAILED(hr = g.device->CreateRenderTargetView(g.target, nullptr, &g.view)) ||
      FAILED(hr = g.device->CreateTexture2D(&st, nullptr, &g.staging)))
    return hr;
  return S_OK;
}

// One frame: clear to a colour of the frame, read it back, check the first texel.
HRESULT render_frame(Gpu& g, unsigned frame, bool* pixel_ok) {
  const float value = float(frame % 251) / 255.0f;
  const float colour[4] = { value, 1.0f - value, 0.5f, 1.0f };
  g.context->ClearRenderTargetView(g.view, colour);
  g.context->CopyResource(g.staging, g.target);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  HRESULT hr = g.context->Map(g.staging, 0, D3D11_MAP_READ, 0, &mapped);
  if (FAILED(hr))
    return hr;
  uint8_t texel[4];
  std::memcpy(texel, mapped.pData, 4);
  g.context->Unmap(g.staging, 0);
  *pixel_ok = texel[0] == uint8_t(frame % 251) && texel[2] == 128 && texel[3] == 255;
  return S_OK;
}

void wait_for_file(const std::string& path) {
  while (!path.empty() && GetFileAttributesA(path.c_str()) == INVALID_FILE_ATTRIBUTES)
    Sleep(10);
}

// Memory the worker really holds: textures with content, in use until the end.
int hold(Gpu& g, unsigned count, const std::string& release_file) {
  std::vector<uint8_t> content(512 * 512 * 4);
  std::vector<ID3D11Texture2D*> kept;
  HRESULT hr = S_OK;
  for (unsigned i = 0; i < count && SUCCEEDED(hr); i++) {
    std::memset(content.data(), int(i * 7 + 1), content.size());
    D3D11_SUBRESOURCE_DATA init = { content.data(), 512 * 4, 0 };
    D3D11_TEXTURE2D_DESC d = texture_desc(512, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
    ID3D11Texture2D* t = nullptr;
    hr = g.device->CreateTexture2D(&d, &init, &t);
    if (t)
      kept.push_back(t);
  }
  bool pixel_ok = false;
  if (SUCCEEDED(hr))
    hr = render_frame(g, 1, &pixel_ok);
  if (FAILED(hr) || !pixel_ok) {
    std::printf("hold failed: 0x%08lx\n", hr);
    return 1;
  }
  std::printf("holding %u\n", count);
  wait_for_file(release_file);
  unsigned ok = 0;
  for (unsigned frame = 2; frame < 7; frame++)
    if (SUCCEEDED(render_frame(g, frame, &pixel_ok)) && pixel_ok)
      ok++;
  for (ID3D11Texture2D* t : kept)
    t->Release();
  if (ok != 5) {
    std::printf("after the hold: %u of 5 frames right\n", ok);
    return 1;
  }
  std::printf("finished %u\n", ok);
  return 0;
}

}

int main(int argc, char** argv) {
  std::string mode = "render";
  unsigned limit = 0;
  std::string go_file;
  std::string release_file;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) mode = argv[++i];
    else if (!std::strcmp(argv[i], "--release") && i + 1 < argc) release_file = argv[++i];
    else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) limit = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (!std::strcmp(argv[i], "--go") && i + 1 < argc) go_file = argv[++i];
    else {
      std::fprintf(stderr, "usage: isolation_guest [--mode render|objects|memory|hold] [--frames N] [--go FILE] "
                           "[--release FILE]\n");
      return 2;
    }
  }
  setvbuf(stdout, nullptr, _IONBF, 0);

  Gpu g;
  HRESULT hr = create_gpu(g);
  if (FAILED(hr)) {
    std::printf("no device: 0x%08lx\n", hr);
    return 77;
  }
  std::printf("connected\n");
  wait_for_file(go_file);
  if (mode == "hold")
    return hold(g, limit, release_file);

  std::vector<IUnknown*> kept;
  const char* failed_call = nullptr;
  double call_started = 0, call_ended = 0;
  unsigned n = 0;
  for (; limit == 0 || n < limit; n++) {
    call_started = now_ms();
    if (mode == "render") {
      bool pixel_ok = false;
      hr = render_frame(g, n, &pixel_ok);
      failed_call = "Map";
      if (SUCCEEDED(hr)) {
        if (!pixel_ok) {
          std::printf("frame %u wrong pixel\n", n);
          return 1;
        }
        std::printf("frame %u ok\n", n);
      }
    } else {
      // Creation is fire-and-forget on the wire: the failure shows at the next sync call
      // (or at once, once the guest knows the device is gone).
      ID3D11Resource* resource = nullptr;
      if (mode == "objects") {
        D3D11_BUFFER_DESC d = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
        ID3D11Buffer* b = nullptr;
        hr = g.device->CreateBuffer(&d, nullptr, &b);
        resource = b;
        failed_call = "CreateBuffer";
      } else {
        D3D11_TEXTURE2D_DESC d = texture_desc(512, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
        ID3D11Texture2D* t = nullptr;
        hr = g.device->CreateTexture2D(&d, nullptr, &t);
        resource = t;
        failed_call = "CreateTexture2D";
      }
      if (resource)
        kept.push_back(resource);
      if (SUCCEEDED(hr) && n % 10 == 9) {
        bool pixel_ok = false;
        hr = render_frame(g, n, &pixel_ok);
        failed_call = "Map";
      }
      if (SUCCEEDED(hr) && n % 100 == 99)
        std::printf("created %u\n", n + 1);
    }
    call_ended = now_ms();
    if (FAILED(hr))
      break;
  }
  if (SUCCEEDED(hr)) {
    std::printf("finished %u\n", n);
    return 0;
  }

  // What an application sees from here on: the reason, and every call that can fail.
  HRESULT reason = g.device->GetDeviceRemovedReason();
  bool pixel_ok = false;
  HRESULT map = render_frame(g, 0, &pixel_ok);
  D3D11_BUFFER_DESC d = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0 };
  ID3D11Buffer* b = nullptr;
  HRESULT create = g.device->CreateBuffer(&d, nullptr, &b);
  release(b);
  HRESULT reason_again = g.device->GetDeviceRemovedReason();
  std::printf("removed after=%u call=%s hr=0x%08lx blocked_ms=%.0f reason=0x%08lx map=0x%08lx create=0x%08lx "
              "reason_again=0x%08lx\n",
              n, failed_call, hr, call_ended - call_started, reason, map, create, reason_again);
  for (IUnknown* u : kept)
    u->Release();
  release(g.staging);
  release(g.view);
  release(g.target);
  release(g.context);
  release(g.device);
  const bool removed = reason == DXGI_ERROR_DEVICE_REMOVED || reason == DXGI_ERROR_DEVICE_HUNG;
  return removed && hr == DXGI_ERROR_DEVICE_REMOVED && map == DXGI_ERROR_DEVICE_REMOVED && reason_again == reason
             ? 0 : 1;
}
