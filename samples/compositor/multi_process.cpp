// SPDX-License-Identifier: MIT
#include "multi_process.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <cwchar>

namespace npt::samples::compositor {

  namespace {

    constexpr DWORD kTimeoutMs = 30000;  // a frame that takes this long means a peer is stuck

    // Waits on the CPU until `fence` reaches `value`; fails when `peer` exits first.
    Status waitForFence(ID3D11Fence* fence, UINT64 value, HANDLE event, HANDLE peer, const std::string& what) {
      const ULONGLONG deadline = GetTickCount64() + kTimeoutMs;
      while (fence->GetCompletedValue() < value) {
        NPT_CHECK_HR(fence->SetEventOnCompletion(value, event));
        if (WaitForSingleObject(event, 50) == WAIT_OBJECT_0)
          continue;
        if (peer && WaitForSingleObject(peer, 0) == WAIT_OBJECT_0)
          return Status::fail(what + ": the other process exited first");
        if (GetTickCount64() > deadline)
          return Status::fail(what + ": timed out at fence value " + std::to_string(fence->GetCompletedValue()) +
                              " of " + std::to_string(value));
      }
      return Status::ok();
    }

    // One line from a producer's stdout (blocking; end of file when it exits).
    bool readLine(HANDLE pipe, std::string& line) {
      line.clear();
      char c = 0;
      DWORD got = 0;
      while (ReadFile(pipe, &c, 1, &got, nullptr) && got == 1) {
        if (c == '\n')
          return true;
        line += c;
      }
      return false;
    }

    HANDLE handleFrom(unsigned long long value) { return reinterpret_cast<HANDLE>(uintptr_t(value)); }

  }

  ProducerProcesses::~ProducerProcesses() {
    for (Producer& producer : m_producers) {
      if (!producer.process.hProcess)
        continue;
      if (WaitForSingleObject(producer.process.hProcess, 0) != WAIT_OBJECT_0)
        TerminateProcess(producer.process.hProcess, 1);
      CloseHandle(producer.process.hProcess);
      CloseHandle(producer.process.hThread);
    }
    // The producers hold their own references to the fence once they opened it.
    if (m_consumedHandle) CloseHandle(m_consumedHandle);
    if (m_fenceEvent) CloseHandle(m_fenceEvent);
    m_swapchain.reset();
    if (m_window) DestroyWindow(m_window);
  }

  Status ProducerProcesses::start(SampleContext& sc) {
    ComPtr<ID3D11Device5> device5;
    NPT_CHECK_HR(sc.device->QueryInterface(__uuidof(ID3D11Device5), reinterpret_cast<void**>(device5.put())));
    NPT_CHECK_HR(sc.context->QueryInterface(__uuidof(ID3D11DeviceContext4), reinterpret_cast<void**>(m_context4.put())));
    NPT_CHECK_HR(device5->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence),
      reinterpret_cast<void**>(m_consumed.put())));
    // An NT handle the producers inherit (the same value in every process).
    SECURITY_ATTRIBUTES inheritable = { sizeof(inheritable), nullptr, TRUE };
    NPT_CHECK_HR(m_consumed->CreateSharedHandle(&inheritable, GENERIC_ALL, nullptr, &m_consumedHandle));
    m_fenceEvent = CreateEventW(nullptr, FALSE, FALSE, nullptr);

    // The composed frames are presented like an application's (through the guest's
    // swapchain, to the host presenter when run through Neptune).
    m_window = CreateWindowExW(0, L"STATIC", L"compositor", WS_POPUP, 0, 0, int(sc.width), int(sc.height),
                               nullptr, nullptr, GetModuleHandleW(nullptr), nullptr);
    if (!m_window)
      return Status::fail("CreateWindow failed");
    ComPtr<IDXGIDevice> dxgiDevice;
    ComPtr<IDXGIAdapter> adapter;
    ComPtr<IDXGIFactory> factory;
    NPT_CHECK_HR(sc.device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(dxgiDevice.put())));
    NPT_CHECK_HR(dxgiDevice->GetAdapter(adapter.put()));
    NPT_CHECK_HR(adapter->GetParent(__uuidof(IDXGIFactory), reinterpret_cast<void**>(factory.put())));
    DXGI_SWAP_CHAIN_DESC desc = {};
    desc.BufferDesc = { sc.width, sc.height, { 0, 1 }, DXGI_FORMAT_R8G8B8A8_UNORM };
    desc.SampleDesc.Count = 1;
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 2;
    desc.OutputWindow = m_window;
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
    NPT_CHECK_HR(factory->CreateSwapChain(sc.device, &desc, m_swapchain.put()));

    for (uint32_t scene = 0; scene < kScenes; scene++) {
      std::string handles;
      NPT_CHECK_STATUS(startProducer(sc, scene, handles));
      NPT_CHECK_STATUS(openProducer(sc, scene, handles));
    }
    return Status::ok();
  }

  Status ProducerProcesses::startProducer(const SampleContext& sc, uint32_t scene, std::string& handles) {
    Producer& producer = m_producers[scene];
    wchar_t exe[MAX_PATH];
    if (!GetModuleFileNameW(nullptr, exe, MAX_PATH))
      return Status::fail("GetModuleFileName failed");
    wchar_t commandLine[2 * MAX_PATH + 256];
    std::swprintf(commandLine, sizeof(commandLine) / sizeof(commandLine[0]),
      L"\"%ls\" --produce %u --frames %u --size %ux%u --consumed %llx", exe, scene, sc.options.frames, sc.width,
      sc.height, (unsigned long long)(uintptr_t)m_consumedHandle);
    SECURITY_ATTRIBUTES inherit = { sizeof(inherit), nullptr, TRUE };
    HANDLE readEnd = nullptr, writeEnd = nullptr;
    if (!CreatePipe(&readEnd, &writeEnd, &inherit, 0))
      return Status::fail("CreatePipe failed");
    SetHandleInformation(readEnd, HANDLE_FLAG_INHERIT, 0);
    STARTUPINFOW startup = { sizeof(startup) };
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    startup.hStdOutput = writeEnd;
    startup.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    const BOOL started = CreateProcessW(exe, commandLine, nullptr, nullptr, TRUE, 0, nullptr, nullptr, &startup,
                                        &producer.process);
    CloseHandle(writeEnd);
    std::string line;
    const bool gotLine = started && readLine(readEnd, line);
    CloseHandle(readEnd);
    if (!started)
      return Status::fail("CreateProcess of producer " + std::to_string(scene) + " failed: " +
                          std::to_string(GetLastError()));
    if (!gotLine || line.rfind("handles ", 0) != 0)
      return Status::fail("producer " + std::to_string(scene) + " reported no handles (\"" + line + "\")");
    handles = line.substr(8);
    return Status::ok();
  }

  Status ProducerProcesses::openProducer(const SampleContext& sc, uint32_t scene, const std::string& handles) {
    Producer& producer = m_producers[scene];
    unsigned long long values[3] = {};
    if (std::sscanf(handles.c_str(), "%llx %llx %llx", &values[0], &values[1], &values[2]) != 3)
      return Status::fail("producer " + std::to_string(scene) + ": unreadable handles \"" + handles + "\"");
    for (int slot = 0; slot < 2; slot++) {
      ComPtr<ID3D11Texture2D> texture;
      NPT_CHECK_HR(sc.device->OpenSharedResource(handleFrom(values[slot]), __uuidof(ID3D11Texture2D),
        reinterpret_cast<void**>(texture.put())));
      NPT_CHECK_HR(sc.device->CreateShaderResourceView(texture.get(), nullptr, producer.slots[slot].put()));
    }
    ComPtr<ID3D11Device5> device5;
    NPT_CHECK_HR(sc.device->QueryInterface(__uuidof(ID3D11Device5), reinterpret_cast<void**>(device5.put())));
    // The fence's NT handle is the producer's: duplicated into this process, as on Windows.
    HANDLE fenceHandle = nullptr;
    if (!DuplicateHandle(producer.process.hProcess, handleFrom(values[2]), GetCurrentProcess(), &fenceHandle, 0, FALSE,
                         DUPLICATE_SAME_ACCESS))
      return Status::fail("DuplicateHandle of producer " + std::to_string(scene) + "'s fence handle failed: " +
                          std::to_string(GetLastError()));
    const HRESULT openSharedFence = device5->OpenSharedFence(fenceHandle, __uuidof(ID3D11Fence),
      reinterpret_cast<void**>(producer.produced.put()));
    CloseHandle(fenceHandle);
    NPT_CHECK_HR(openSharedFence);
    return Status::ok();
  }

  Status ProducerProcesses::acquire(SampleContext&, uint32_t frame, ID3D11ShaderResourceView* views[kScenes]) {
    for (uint32_t scene = 0; scene < kScenes; scene++) {
      Producer& producer = m_producers[scene];
      NPT_CHECK_STATUS(waitForFence(producer.produced.get(), frame + 1, m_fenceEvent, producer.process.hProcess,
        "frame " + std::to_string(frame) + " of producer " + std::to_string(scene)));
      NPT_CHECK_HR(m_context4->Wait(producer.produced.get(), frame + 1));
      views[scene] = producer.slots[frame % 2].get();
    }
    return Status::ok();
  }

  Status ProducerProcesses::release(SampleContext& sc, uint32_t frame) {
    // Ordered after the composition on this context: the slots of `frame` are free again.
    NPT_CHECK_HR(m_context4->Signal(m_consumed.get(), frame + 1));
    ComPtr<ID3D11Texture2D> backBuffer;
    NPT_CHECK_HR(m_swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(backBuffer.put())));
    sc.context->CopyResource(backBuffer.get(), sc.target);
    NPT_CHECK_HR(m_swapchain->Present(0, 0));
    if (frame + 1 < sc.options.frames)
      return Status::ok();
    sc.context->Flush();  // the producers wait for this frame's signal before they exit
    for (uint32_t scene = 0; scene < kScenes; scene++) {
      HANDLE process = m_producers[scene].process.hProcess;
      DWORD code = 1;
      if (WaitForSingleObject(process, kTimeoutMs) != WAIT_OBJECT_0 || !GetExitCodeProcess(process, &code) || code)
        return Status::fail("producer " + std::to_string(scene) + " failed (exit code " + std::to_string(code) + ")");
    }
    return Status::ok();
  }

  int runProducer(int scene, int argc, char** argv) {
    const char* consumedText = nullptr;
    for (int i = 1; i + 1 < argc; i++)
      if (std::strcmp(argv[i], "--consumed") == 0) {
        consumedText = argv[i + 1];
        for (int j = i; j + 2 < argc; j++) argv[j] = argv[j + 2];
        argc -= 2;
        break;
      }
    Options options;
    const std::string error = parseOptions(argc, argv, options);
    unsigned long long consumedValue = 0;
    if (!consumedText || std::sscanf(consumedText, "%llx", &consumedValue) != 1 || scene < 0 ||
        scene >= int(kScenes) || !error.empty()) {
      std::fprintf(stderr, "compositor producer: bad arguments %s\n", error.c_str());
      return 2;
    }
    const uint32_t width = options.width / 2, height = options.height;
    auto fail = [&](const Status& status) {
      std::fprintf(stderr, "compositor producer %d: %s\n", scene, status.message.c_str());
      return 1;
    };
    ComPtr<ID3D11Device> device;
    ComPtr<ID3D11DeviceContext> context;
    const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0 };
    HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, 1, D3D11_SDK_VERSION,
                                   device.put(), nullptr, context.put());
    if (FAILED(hr)) return fail(Status::hresult("D3D11CreateDevice", hr));
    ComPtr<ID3D11Device5> device5;
    ComPtr<ID3D11DeviceContext4> context4;
    ComPtr<ID3D11Fence> produced, consumed;
    if (FAILED(hr = device->QueryInterface(__uuidof(ID3D11Device5), reinterpret_cast<void**>(device5.put()))) ||
        FAILED(hr = context->QueryInterface(__uuidof(ID3D11DeviceContext4), reinterpret_cast<void**>(context4.put()))))
      return fail(Status::hresult("QueryInterface (11.4 interfaces)", hr));

    // The slots and the fence, created here so that this context's writes are the ones shared.
    SceneTarget slots[2];
    HANDLE slotHandles[2] = {}, producedHandle = nullptr;
    for (int slot = 0; slot < 2; slot++) {
      Status status = createSceneTarget(device.get(), width, height, D3D11_RESOURCE_MISC_SHARED, slots[slot]);
      if (!status.isOk()) return fail(status);
      ComPtr<IDXGIResource> resource;
      if (FAILED(hr = slots[slot].texture->QueryInterface(__uuidof(IDXGIResource),
                                                           reinterpret_cast<void**>(resource.put()))) ||
          FAILED(hr = resource->GetSharedHandle(&slotHandles[slot])))
        return fail(Status::hresult("IDXGIResource::GetSharedHandle", hr));
    }
    if (FAILED(hr = device5->CreateFence(0, D3D11_FENCE_FLAG_SHARED, __uuidof(ID3D11Fence),
                                         reinterpret_cast<void**>(produced.put()))) ||
        FAILED(hr = produced->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &producedHandle)))
      return fail(Status::hresult("shared fence", hr));
    // Inherited from the compositor; this process's copy of the handle is closed once opened.
    if (FAILED(hr = device5->OpenSharedFence(handleFrom(consumedValue), __uuidof(ID3D11Fence),
                                             reinterpret_cast<void**>(consumed.put()))))
      return fail(Status::hresult("OpenSharedFence (the compositor's)", hr));
    CloseHandle(handleFrom(consumedValue));
    std::printf("handles %llx %llx %llx\n", (unsigned long long)(uintptr_t)slotHandles[0],
                (unsigned long long)(uintptr_t)slotHandles[1], (unsigned long long)(uintptr_t)producedHandle);
    std::fflush(stdout);

    SampleContext sc = { options, device.get(), context.get(), nullptr, nullptr, width, height };
    SceneRenderer renderer;
    Status status = renderer.init(sc);
    if (!status.isOk()) return fail(status);
    HANDLE event = CreateEventW(nullptr, FALSE, FALSE, nullptr);
    for (uint32_t frame = 0; frame < options.frames; frame++) {
      // Slot frame % 2 was last sampled by the compositor's frame - 2.
      if (frame >= 2) {
        status = waitForFence(consumed.get(), frame - 1, event, nullptr, "the compositor's fence");
        if (!status.isOk()) return fail(status);
      }
      SceneTarget& slot = slots[frame % 2];
      renderer.render(context.get(), slot.texture.get(), slot.rtv.get(), width, height, uint32_t(scene), frame);
      if (FAILED(hr = context4->Signal(produced.get(), frame + 1))) return fail(Status::hresult("Signal", hr));
      context->Flush();
    }
    // The compositor samples the last frames after this loop: the textures must outlive that.
    if (options.frames) {
      status = waitForFence(consumed.get(), options.frames, event, nullptr, "the compositor's last frame");
      if (!status.isOk()) return fail(status);
    }
    CloseHandle(event);
    CloseHandle(producedHandle);   // the compositor duplicated it at start
    return 0;
  }

}
