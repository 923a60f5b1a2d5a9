// SPDX-License-Identifier: MIT
#include "sample.h"
#include "png_writer.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace npt::samples {

  namespace {

    // The framework-owned pieces behind a SampleContext.
    struct OffscreenDevice {
      ComPtr<ID3D11Device>           device;
      ComPtr<ID3D11DeviceContext>    context;
      ComPtr<ID3D11Texture2D>        target;
      ComPtr<ID3D11RenderTargetView> targetView;
      ComPtr<ID3D11Texture2D>        staging;
    };

    Status createOffscreenDevice(const Options& options, OffscreenDevice& out) {
      // Hardware driver type: wined3d under Wine, and what our d3d11.dll will
      // remote when the same binary runs through Neptune.
      const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0 };
      D3D_FEATURE_LEVEL level = {};
      NPT_CHECK_HR(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0,
        levels, 1, D3D11_SDK_VERSION, out.device.put(), &level, out.context.put()));

      D3D11_TEXTURE2D_DESC desc = {};
      desc.Width = options.width;
      desc.Height = options.height;
      desc.MipLevels = 1;
      desc.ArraySize = 1;
      desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
      desc.SampleDesc.Count = 1;
      desc.Usage = D3D11_USAGE_DEFAULT;
      desc.BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
      NPT_CHECK_HR(out.device->CreateTexture2D(&desc, nullptr, out.target.put()));
      NPT_CHECK_HR(out.device->CreateRenderTargetView(out.target.get(), nullptr, out.targetView.put()));

      desc.Usage = D3D11_USAGE_STAGING;
      desc.BindFlags = 0;
      desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
      NPT_CHECK_HR(out.device->CreateTexture2D(&desc, nullptr, out.staging.put()));
      return Status::ok();
    }

    Status readBack(OffscreenDevice& gpu, Image& image) {
      gpu.context->CopyResource(gpu.staging.get(), gpu.target.get());
      D3D11_MAPPED_SUBRESOURCE mapped = {};
      NPT_CHECK_HR(gpu.context->Map(gpu.staging.get(), 0, D3D11_MAP_READ, 0, &mapped));
      const size_t rowBytes = size_t(image.width()) * 4;
      for (uint32_t y = 0; y < image.height(); y++) {
        std::memcpy(image.bytes() + y * rowBytes,
          static_cast<const uint8_t*>(mapped.pData) + size_t(y) * mapped.RowPitch, rowBytes);
      }
      gpu.context->Unmap(gpu.staging.get(), 0);
      return Status::ok();
    }

    // The exact bytes that were hashed, for tools that locate a difference.
    Status writeRaw(const std::string& path, const Image& image) {
      FILE* file = std::fopen(path.c_str(), "wb");
      if (!file)
        return Status::fail("cannot create " + path);
      size_t written = std::fwrite(image.bytes(), 1, image.byteSize(), file);
      bool closed = std::fclose(file) == 0;
      if (written != image.byteSize() || !closed)
        return Status::fail("cannot write " + path);
      return Status::ok();
    }

    int report(const char* sample, const Status& status) {
      if (status.code == Status::Code::Skip) {
        std::printf("%s: SKIP: %s\n", sample, status.message.c_str());
        return 77;
      }
      std::fprintf(stderr, "%s: FAIL: %s\n", sample, status.message.c_str());
      return 1;
    }

  }

  int runSample(Sample& sample, int argc, char** argv) {
    // Unbuffered so output interleaves sanely with Wine's own messages.
    std::setvbuf(stdout, nullptr, _IONBF, 0);

    Options options;
    std::string error = parseOptions(argc, argv, options);
    if (!error.empty()) {
      std::fprintf(stderr, "%s: %s\n%s", sample.name(), error.c_str(), usageText());
      return 2;
    }

    if (!options.outDir.empty()) {
      // One level is enough: the caller names a directory for this run's PNGs.
      if (!CreateDirectoryA(options.outDir.c_str(), nullptr) && GetLastError() != ERROR_ALREADY_EXISTS)
        return report(sample.name(), Status::fail("cannot create --out directory " + options.outDir));
    }

    OffscreenDevice gpu;
    Status status = createOffscreenDevice(options, gpu);
    if (!status.isOk())
      return report(sample.name(), status);

    SampleContext sc = { options, gpu.device.get(), gpu.context.get(), gpu.target.get(),
      gpu.targetView.get(), options.width, options.height };

    status = sample.init(sc);
    if (!status.isOk())
      return report(sample.name(), status);

    Image image(options.width, options.height);
    uint32_t failedFrames = 0;
    // Render + readback time only: PNG encoding and checks are not the frame. The last frame is
    // always read back, so the total covers all the work submitted.
    LARGE_INTEGER frequency, begin, end;
    QueryPerformanceFrequency(&frequency);
    double frameSeconds = 0.0;
    // The process's CPU time over the same spans (every thread: a sample's workers, the
    // d3d11.dll's own): what recording and submitting a frame cost the application side,
    // apart from the wait for the GPU (or the remote host) that the frame time includes.
    double frameCpuSeconds = 0.0;
    auto processCpuSeconds = [] {
      FILETIME creation, exit, kernel, user;
      if (!GetProcessTimes(GetCurrentProcess(), &creation, &exit, &kernel, &user))
        return 0.0;
      auto seconds = [](const FILETIME& t) { return double((uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime) * 1e-7; };
      return seconds(kernel) + seconds(user);
    };
    uint32_t readBackFrames = 0;

    for (uint32_t frame = 0; frame < options.frames; frame++) {
      const bool last = frame + 1 == options.frames;
      const bool readThisFrame = last || (options.readbackEvery && frame % options.readbackEvery == 0);
      const double cpuBegin = processCpuSeconds();
      QueryPerformanceCounter(&begin);
      status = sample.render(sc, frame);
      if (status.isOk() && readThisFrame)
        status = readBack(gpu, image);
      if (!status.isOk())
        return report(sample.name(), status);
      QueryPerformanceCounter(&end);
      frameSeconds += double(end.QuadPart - begin.QuadPart) / double(frequency.QuadPart);
      frameCpuSeconds += processCpuSeconds() - cpuBegin;
      if (!readThisFrame)
        continue;
      readBackFrames++;

      std::printf("frame %u %016" PRIx64 "\n", frame, image.checksum());

      if (!options.outDir.empty()) {
        char name[64];
        std::snprintf(name, sizeof(name), "%s-%04u.png", sample.name(), frame);
        std::string path = options.outDir + "\\" + name;
        std::string pngError = writePng(path, image);
        if (!pngError.empty())
          return report(sample.name(), Status::fail(path + ": " + pngError));
        if (options.raw) {
          std::snprintf(name, sizeof(name), "%s-%04u.rgba", sample.name(), frame);
          status = writeRaw(options.outDir + "\\" + name, image);
          if (!status.isOk())
            return report(sample.name(), status);
        }
      }

      if (options.check) {
        FrameCheck check(image);
        sample.check(sc, frame, check);
        for (const std::string& failure : check.failures())
          std::fprintf(stderr, "%s: frame %u: %s\n", sample.name(), frame, failure.c_str());
        if (!check.failures().empty())
          failedFrames++;
      }
    }

    if (!options.quiet) {
      std::printf("%s: %u frames, %.3f ms per frame (render + %u readbacks), process CPU %.3f ms per frame\n",
        sample.name(), options.frames, 1000.0 * frameSeconds / options.frames, readBackFrames,
        1000.0 * frameCpuSeconds / options.frames);
    }

    if (options.check) {
      if (failedFrames) {
        std::fprintf(stderr, "%s: FAIL: %u of %u checked frames failed their checks\n",
          sample.name(), failedFrames, readBackFrames);
        return 1;
      }
      if (!options.quiet)
        std::printf("%s: all %u checked frames passed their checks\n", sample.name(), readBackFrames);
    }
    return 0;
  }

}
