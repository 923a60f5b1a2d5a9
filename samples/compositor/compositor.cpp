// SPDX-License-Identifier: MIT
// Sample 13: a compositor. Two animated scenes, each stamped with its frame counter in
// two corner pixels, are composed side by side into the frame (scene.h).
//
// Roles (one program, so every process loads the same d3d11.dll):
//   (default)        the single-process reference: this process renders both scenes into
//                    textures of its own device and composes them;
//   --processes      the compositor of the multi-process version: it starts two producer
//                    processes (this program with --produce), samples their shared
//                    textures every frame after waiting on their fences, and presents;
//   --produce S      a producer of scene S (0 = A, 1 = B), started by the compositor.
// The composed frames of both versions must be byte-identical (samples/README.md).

#include "sample.h"
#include "scene.h"
#include "multi_process.h"

#include <cstring>
#include <memory>
#include <vector>

namespace npt::samples::compositor {

  namespace {

    class CompositorSample final : public Sample {
    public:
      explicit CompositorSample(bool processes) : m_processes(processes) { }

      const char* name() const override { return "compositor"; }

      Status init(SampleContext& sc) override {
        if (sc.width % 2 || sc.width < 4 || sc.height < 2)
          return Status::fail("the frame width must be even and at least 4 (two scenes side by side)");
        NPT_CHECK_STATUS(m_composer.init(sc));
        if (m_processes) {
          m_sources = std::make_unique<ProducerProcesses>();
          return m_sources->start(sc);
        }
        NPT_CHECK_STATUS(m_scenes.init(sc));
        for (SceneTarget& target : m_targets)
          NPT_CHECK_STATUS(createSceneTarget(sc.device, sc.width / 2, sc.height, 0, target));
        return Status::ok();
      }

      Status render(SampleContext& sc, uint32_t frame) override {
        ID3D11ShaderResourceView* views[kScenes] = {};
        if (m_processes) {
          // Waits on both producers' fences for this frame; their textures then hold it.
          NPT_CHECK_STATUS(m_sources->acquire(sc, frame, views));
        } else {
          for (uint32_t scene = 0; scene < kScenes; scene++) {
            SceneTarget& target = m_targets[scene];
            m_scenes.render(sc.context, target.texture.get(), target.rtv.get(), sc.width / 2, sc.height, scene, frame);
            views[scene] = target.srv.get();
          }
        }
        m_composer.compose(sc.context, sc.targetView, sc.width, sc.height, views[0], views[1]);
        if (m_processes)
          NPT_CHECK_STATUS(m_sources->release(sc, frame));
        return Status::ok();
      }

      void check(const SampleContext& sc, uint32_t frame, FrameCheck& check) override {
        const std::string problems = stampProblems(check, sc.width, sc.height, frame, m_previous);
        check.expect(problems.empty(), problems);
        // The band of each scene is white-ish somewhere, the gradient elsewhere.
        check.expectDistinctColours(16);
      }

    private:
      bool m_processes;
      SceneRenderer m_scenes;
      Composer m_composer;
      SceneTarget m_targets[kScenes];
      std::unique_ptr<ProducerProcesses> m_sources;
      int32_t m_previous[kScenes] = { -1, -1 };
    };

    // Removes this program's own options from argv (the framework rejects unknown ones).
    bool takeFlag(int& argc, char** argv, const char* flag, const char** value) {
      for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], flag) != 0)
          continue;
        const int taken = value ? 2 : 1;
        if (i + taken > argc)
          return false;
        if (value)
          *value = argv[i + 1];
        for (int j = i; j + taken < argc; j++)
          argv[j] = argv[j + taken];
        argc -= taken;
        return true;
      }
      return false;
    }

  }

}

int main(int argc, char** argv) {
  using namespace npt::samples::compositor;
  const char* scene = nullptr;
  if (takeFlag(argc, argv, "--produce", &scene))
    return runProducer(std::atoi(scene), argc, argv);
  const bool processes = takeFlag(argc, argv, "--processes", nullptr);
  CompositorSample sample(processes);
  return npt::samples::runSample(sample, argc, argv);
}
