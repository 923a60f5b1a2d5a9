#include "presenter.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "png_file.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;

Presenter::Presenter(Executor& executor) : m_executor(executor) {
  const char* log = std::getenv("NPT_PRESENT_LOG");
  m_log = log && std::strcmp(log, "0") != 0 && *log;
  if (const char* dir = std::getenv("NPT_PRESENT_CAPTURE")) m_captureDir = dir;
}

void Executor::presentBuffer(ObjectId texture, uint32_t interval, uint32_t flags) {
  m_presenter->present(texture, interval, flags);
}

namespace {

// Reads a single-sampled 8-bit RGBA/BGRA texture back as tightly packed RGBA.
bool readBack(DeviceState& device, ID3D11Texture2D* texture, const D3D11_TEXTURE2D_DESC& desc,
              std::vector<uint8_t>& rgba) {
  const bool bgra = desc.Format == DXGI_FORMAT_B8G8R8A8_UNORM || desc.Format == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB;
  const bool rgbaFormat = desc.Format == DXGI_FORMAT_R8G8B8A8_UNORM || desc.Format == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
  if ((!bgra && !rgbaFormat) || desc.SampleDesc.Count != 1) return false;
  D3D11_TEXTURE2D_DESC staging = desc;
  staging.MipLevels = 1;
  staging.ArraySize = 1;
  staging.Usage = D3D11_USAGE_STAGING;
  staging.BindFlags = 0;
  staging.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  staging.MiscFlags = 0;
  ID3D11Texture2D* copy = nullptr;
  if (FAILED(device.device->CreateTexture2D(&staging, nullptr, &copy))) return false;
  device.immediate->CopySubresourceRegion(copy, 0, 0, 0, 0, texture, 0, nullptr);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  bool ok = SUCCEEDED(device.immediate->Map(copy, 0, D3D11_MAP_READ, 0, &mapped));
  if (ok) {
    rgba.resize(size_t(desc.Width) * desc.Height * 4);
    for (UINT y = 0; y < desc.Height; y++) {
      const auto* row = static_cast<const uint8_t*>(mapped.pData) + size_t(y) * mapped.RowPitch;
      uint8_t* out = rgba.data() + size_t(y) * desc.Width * 4;
      std::memcpy(out, row, size_t(desc.Width) * 4);
      if (bgra)
        for (UINT x = 0; x < desc.Width; x++) std::swap(out[x * 4], out[x * 4 + 2]);
    }
    device.immediate->Unmap(copy, 0);
  }
  copy->Release();
  return ok;
}

}  // namespace

void Presenter::present(ObjectId texture, uint32_t interval, uint32_t flags) {
  const char* method = "PresentBuffer";
  ID3D11Texture2D* backBuffer = nullptr;
  Record* record = nullptr;
  if (!m_executor.resolveAs(texture, InterfaceId::ID3D11Texture2D, false, method, &backBuffer, &record)) return;
  DeviceState& device = *record->device;
  m_frames++;
  if (!m_log && m_captureDir.empty()) {
    // Headless: the frame's work is submitted, nothing is shown.
    device.immediate->Flush();
    return;
  }
  D3D11_TEXTURE2D_DESC desc = {};
  backBuffer->GetDesc(&desc);
  std::vector<uint8_t> rgba;
  if (!readBack(device, backBuffer, desc, rgba)) {
    m_executor.log("present: frame %llu: texture %u (format %u, %u samples) cannot be read back",
                   (unsigned long long)m_frames, texture, unsigned(desc.Format), desc.SampleDesc.Count);
    return;
  }
  uint64_t hash = 1469598103934665603ull;   // FNV-1a over the RGBA bytes
  for (uint8_t byte : rgba) hash = (hash ^ byte) * 1099511628211ull;
  if (m_log)
    m_executor.log("present: frame %llu texture %u %ux%u interval %u flags 0x%x checksum %016llx",
                   (unsigned long long)m_frames, texture, desc.Width, desc.Height, interval, flags,
                   (unsigned long long)hash);
  if (!m_captureDir.empty()) {
    char name[64];
    std::snprintf(name, sizeof(name), "/frame-%04llu.png", (unsigned long long)m_frames);
    std::string error = writePngFile(m_captureDir + name, desc.Width, desc.Height, rgba);
    if (!error.empty()) m_executor.log("present: capture: %s", error.c_str());
  }
}

}  // namespace npt::executor
