// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <d3d11.h>

#include "com_ptr.h"
#include "frame_check.h"
#include "options.h"
#include "status.h"

namespace npt::samples {

  // What a sample gets from the framework: an offscreen device and the frame's
  // render target (RGBA8 UNORM, bindable as render target and shader resource).
  // Everything the sample draws into `target` is read back after each frame.
  struct SampleContext {
    const Options&         options;
    ID3D11Device*          device;
    ID3D11DeviceContext*   context;
    ID3D11Texture2D*       target;
    ID3D11RenderTargetView* targetView;
    uint32_t               width;
    uint32_t               height;

    // HLSL is compiled at run time by d3dcompiler_47 (see samples/README.md).
    Status compile(const char* source, const char* sourceName, const char* entry,
                   const char* profile, ComPtr<ID3DBlob>& bytecode) const;
    Status createVertexShader(const char* source, const char* sourceName, const char* entry,
                              ComPtr<ID3D11VertexShader>& shader, ComPtr<ID3DBlob>* bytecode = nullptr) const;
    Status createPixelShader(const char* source, const char* sourceName, const char* entry,
                             ComPtr<ID3D11PixelShader>& shader) const;

    // Shader model 5 assembly (gs/hs/ds/cs, which Wine's HLSL compiler cannot
    // build) to a DXBC container with the project's assembler, linked in.
    // With --shaders DIR, `<source name minus .asm>.dxbc` is loaded from DIR
    // instead. Without an assembler in the build: Status::skip.
    Status assemble(const char* source, const char* sourceName, std::vector<uint8_t>& bytecode) const;

    // Loads a prebuilt container from --shaders DIR (or the executable's directory).
    Status loadAssembled(const char* fileName, std::vector<uint8_t>& bytecode) const;

    // Full-target viewport, the common case.
    void setFullViewport() const;

    // A depth(-stencil) buffer the size of the target, and its view.
    Status createDepthBuffer(DXGI_FORMAT format, ComPtr<ID3D11Texture2D>& texture,
                             ComPtr<ID3D11DepthStencilView>& view) const;
  };

  class Sample {
  public:
    virtual ~Sample() = default;

    virtual const char* name() const = 0;
    virtual Status init(SampleContext& sc) = 0;
    // Must depend only on `frame` (never on time) so frames compare byte for byte.
    virtual Status render(SampleContext& sc, uint32_t frame) = 0;
    // --check: assertions about the read-back frame.
    virtual void check(const SampleContext& sc, uint32_t frame, FrameCheck& check) = 0;
  };

  // Parses options, creates the device, runs the frame loop. Returns the
  // process exit code: 0 ok, 1 failure, 2 usage, 77 skipped.
  int runSample(Sample& sample, int argc, char** argv);

}
