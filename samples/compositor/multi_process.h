// SPDX-License-Identifier: MIT
#pragma once

// The multi-process roles of the compositor sample: the compositor's side (two producer
// processes it starts, their shared textures and fences it opens) and the producer's loop.
// Each producer creates its own shared textures and fence (the creator's context is the
// one whose writes are published, host/sharing) and reports their handles on its stdout,
// a pipe to the compositor; the compositor's fence goes the other way on the producer's
// command line. Textures use the global handles of IDXGIResource::GetSharedHandle, valid
// in any process; fence handles are NT handles (process-local, as on Windows): the
// compositor's is inherited by the producers, a producer's is duplicated into the
// compositor with DuplicateHandle.
//
// Per producer: two scene textures (frame N goes to slot N % 2) and a fence the producer
// signals with N + 1 after frame N's drawing and stamps. One fence of the compositor's,
// signalled with N + 1 after it composed frame N: a producer renders frame N only once
// the compositor composed frame N - 2, the previous user of that slot, so a producer can
// neither overwrite a frame being sampled nor run ahead.

#include "sample.h"
#include "scene.h"

#include <d3d11_4.h>

#include <string>

namespace npt::samples::compositor {

  class ProducerProcesses {
  public:
    ~ProducerProcesses();
    // Creates its fence, starts both producers, opens their textures and fences, and opens
    // the window the composed frames are presented in.
    Status start(SampleContext& sc);
    // Waits until both producers finished `frame` (on the CPU, so that a dead producer is
    // noticed, then on the context, which orders the reads after the producers' writes);
    // the views of the slots holding that frame.
    Status acquire(SampleContext& sc, uint32_t frame, ID3D11ShaderResourceView* views[kScenes]);
    // After composing `frame`: signal the compositor's fence, present. After the last
    // frame, waits for both producers to exit and checks their exit codes.
    Status release(SampleContext& sc, uint32_t frame);

  private:
    struct Producer {
      ComPtr<ID3D11ShaderResourceView> slots[2];
      ComPtr<ID3D11Fence> produced;
      PROCESS_INFORMATION process = {};
    };
    Status startProducer(const SampleContext& sc, uint32_t scene, std::string& handles);
    Status openProducer(const SampleContext& sc, uint32_t scene, const std::string& handles);

    Producer m_producers[kScenes];
    ComPtr<ID3D11Fence> m_consumed;
    HANDLE m_consumedHandle = nullptr;
    HANDLE m_fenceEvent = nullptr;
    ComPtr<ID3D11DeviceContext4> m_context4;
    HWND m_window = nullptr;
    ComPtr<IDXGISwapChain> m_swapchain;
  };

  // A producer process: renders `scene` into its two shared textures. argv holds the
  // framework's options (--frames, --size, --shaders) and --consumed HANDLE.
  int runProducer(int scene, int argc, char** argv);

}
