// SPDX-License-Identifier: MIT
#include "png_writer.h"
#include "com_ptr.h"

#include <windows.h>
#include <wincodec.h>

#include <cstdio>
#include <vector>

namespace npt::samples {

  namespace {

    std::string failure(const char* what, HRESULT hr) {
      char text[128];
      std::snprintf(text, sizeof(text), "%s failed: 0x%08lx", what, static_cast<unsigned long>(hr));
      return text;
    }

    std::wstring widen(const std::string& text) {
      int length = MultiByteToWideChar(CP_UTF8, 0, text.c_str(), -1, nullptr, 0);
      std::wstring wide(length > 0 ? length : 1, L'\0');
      MultiByteToWideChar(CP_UTF8, 0, text.c_str(), -1, wide.data(), length);
      wide.resize(wide.size() - 1);
      return wide;
    }

  }

  std::string writePng(const std::string& path, const Image& image) {
    // COM may already be initialised by the caller; S_FALSE is fine.
    HRESULT hr = CoInitializeEx(nullptr, COINIT_MULTITHREADED);
    if (FAILED(hr) && hr != RPC_E_CHANGED_MODE)
      return failure("CoInitializeEx", hr);

    ComPtr<IWICImagingFactory> factory;
    hr = CoCreateInstance(CLSID_WICImagingFactory, nullptr, CLSCTX_INPROC_SERVER,
      IID_IWICImagingFactory, reinterpret_cast<void**>(factory.put()));
    if (FAILED(hr))
      return failure("CoCreateInstance(WICImagingFactory)", hr);

    ComPtr<IWICStream> stream;
    if (FAILED(hr = factory->CreateStream(stream.put())))
      return failure("CreateStream", hr);
    if (FAILED(hr = stream->InitializeFromFilename(widen(path).c_str(), GENERIC_WRITE)))
      return failure("InitializeFromFilename", hr);

    ComPtr<IWICBitmapEncoder> encoder;
    if (FAILED(hr = factory->CreateEncoder(GUID_ContainerFormatPng, nullptr, encoder.put())))
      return failure("CreateEncoder", hr);
    if (FAILED(hr = encoder->Initialize(stream.get(), WICBitmapEncoderNoCache)))
      return failure("IWICBitmapEncoder::Initialize", hr);

    ComPtr<IWICBitmapFrameEncode> frame;
    if (FAILED(hr = encoder->CreateNewFrame(frame.put(), nullptr)))
      return failure("CreateNewFrame", hr);
    if (FAILED(hr = frame->Initialize(nullptr)))
      return failure("IWICBitmapFrameEncode::Initialize", hr);
    if (FAILED(hr = frame->SetSize(image.width(), image.height())))
      return failure("SetSize", hr);

    // 32bppBGRA is the format every WIC PNG encoder accepts, so swizzle here
    // rather than depend on an encoder converting RGBA for us.
    WICPixelFormatGUID format = GUID_WICPixelFormat32bppBGRA;
    if (FAILED(hr = frame->SetPixelFormat(&format)))
      return failure("SetPixelFormat", hr);
    if (format != GUID_WICPixelFormat32bppBGRA)
      return "PNG encoder refused 32bppBGRA";

    std::vector<uint8_t> bgra(image.byteSize());
    const uint8_t* rgba = image.bytes();
    for (size_t i = 0; i < bgra.size(); i += 4) {
      bgra[i + 0] = rgba[i + 2];
      bgra[i + 1] = rgba[i + 1];
      bgra[i + 2] = rgba[i + 0];
      bgra[i + 3] = rgba[i + 3];
    }

    UINT stride = image.width() * 4;
    if (FAILED(hr = frame->WritePixels(image.height(), stride, UINT(bgra.size()), bgra.data())))
      return failure("WritePixels", hr);
    if (FAILED(hr = frame->Commit()))
      return failure("IWICBitmapFrameEncode::Commit", hr);
    if (FAILED(hr = encoder->Commit()))
      return failure("IWICBitmapEncoder::Commit", hr);
    return std::string();
  }

}
