// SPDX-License-Identifier: MIT
#include "sample.h"

#include <d3dcompiler.h>

#ifdef NPT_SAMPLES_HAVE_ASSEMBLER
#include "dxbc/asm/assembler.h"
#endif

#include <cstdio>
#include <cstring>

namespace npt::samples {

  namespace {

    std::string executableDirectory() {
      char path[MAX_PATH];
      DWORD length = GetModuleFileNameA(nullptr, path, MAX_PATH);
      if (length == 0 || length >= MAX_PATH)
        return ".";
      std::string text(path, length);
      size_t slash = text.find_last_of("\\/");
      return slash == std::string::npos ? "." : text.substr(0, slash);
    }

  }

  Status SampleContext::compile(const char* source, const char* sourceName, const char* entry,
                                const char* profile, ComPtr<ID3DBlob>& bytecode) const {
    ComPtr<ID3DBlob> errors;
    // Fixed flags: both runs of an equality test must get identical bytecode.
    UINT flags = D3DCOMPILE_OPTIMIZATION_LEVEL3 | D3DCOMPILE_ENABLE_STRICTNESS;
    HRESULT hr = D3DCompile(source, std::strlen(source), sourceName, nullptr, nullptr,
      entry, profile, flags, 0, bytecode.put(), errors.put());
    if (FAILED(hr)) {
      std::string message = std::string("D3DCompile ") + sourceName + ":" + entry + " (" + profile + ") failed";
      if (errors)
        message += ": " + std::string(static_cast<const char*>(errors->GetBufferPointer()), errors->GetBufferSize());
      return Status::fail(message);
    }
    return Status::ok();
  }

  Status SampleContext::createVertexShader(const char* source, const char* sourceName, const char* entry,
                                           ComPtr<ID3D11VertexShader>& shader, ComPtr<ID3DBlob>* bytecode) const {
    ComPtr<ID3DBlob> blob;
    NPT_CHECK_STATUS(compile(source, sourceName, entry, "vs_5_0", blob));
    NPT_CHECK_HR(device->CreateVertexShader(blob->GetBufferPointer(), blob->GetBufferSize(), nullptr, shader.put()));
    if (bytecode)
      *bytecode = blob;
    return Status::ok();
  }

  Status SampleContext::createPixelShader(const char* source, const char* sourceName, const char* entry,
                                          ComPtr<ID3D11PixelShader>& shader) const {
    ComPtr<ID3DBlob> blob;
    NPT_CHECK_STATUS(compile(source, sourceName, entry, "ps_5_0", blob));
    NPT_CHECK_HR(device->CreatePixelShader(blob->GetBufferPointer(), blob->GetBufferSize(), nullptr, shader.put()));
    return Status::ok();
  }

  Status SampleContext::assemble(const char* source, const char* sourceName,
                                 std::vector<uint8_t>& bytecode) const {
    if (!options.shaderDir.empty()) {
      std::string file = sourceName;
      if (file.size() > 4 && file.compare(file.size() - 4, 4, ".asm") == 0)
        file.resize(file.size() - 4);
      return loadAssembled((file + ".dxbc").c_str(), bytecode);
    }
#ifdef NPT_SAMPLES_HAVE_ASSEMBLER
    dxbc::sm::AssemblyResult result = dxbc::sm::assembleContainer(source, bytecode);
    if (!result.ok)
      return Status::fail("assembling " + result.error.format(sourceName));
    return Status::ok();
#else
    return Status::skip(std::string(sourceName) + " needs the DXBC assembler (dxbc/asm), which this build "
      "lacks; pass --shaders DIR with assembled .dxbc files");
#endif
  }

  Status SampleContext::loadAssembled(const char* fileName, std::vector<uint8_t>& bytecode) const {
    std::string dir = options.shaderDir.empty() ? executableDirectory() : options.shaderDir;
    std::string path = dir + "\\" + fileName;

    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
      return Status::skip("assembled shader " + path + " not found (build it natively with "
        "`dxbc-tool asm`, then pass --shaders DIR)");

    std::fseek(file, 0, SEEK_END);
    long size = std::ftell(file);
    std::fseek(file, 0, SEEK_SET);
    if (size <= 0 || size > (16 << 20)) {
      std::fclose(file);
      return Status::fail("assembled shader " + path + " has an implausible size");
    }
    bytecode.resize(size_t(size));
    size_t read = std::fread(bytecode.data(), 1, bytecode.size(), file);
    std::fclose(file);
    if (read != bytecode.size())
      return Status::fail("short read from " + path);
    return Status::ok();
  }

  void SampleContext::setFullViewport() const {
    D3D11_VIEWPORT viewport = { 0.0f, 0.0f, float(width), float(height), 0.0f, 1.0f };
    context->RSSetViewports(1, &viewport);
  }

  Status SampleContext::createDepthBuffer(DXGI_FORMAT format, ComPtr<ID3D11Texture2D>& texture,
                                          ComPtr<ID3D11DepthStencilView>& view) const {
    D3D11_TEXTURE2D_DESC desc = {};
    desc.Width = width;
    desc.Height = height;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.BindFlags = D3D11_BIND_DEPTH_STENCIL;
    NPT_CHECK_HR(device->CreateTexture2D(&desc, nullptr, texture.put()));
    NPT_CHECK_HR(device->CreateDepthStencilView(texture.get(), nullptr, view.put()));
    return Status::ok();
  }

}
