// SPDX-License-Identifier: MIT
// The default-state filter (driver/src/default_state_filter.*): a setter that binds the
// default state into a context already at it is dropped; everything else reaches the
// translation. Dropping is invisible by design (the target is at the default state
// already), so the test watches the filter's decisions through a probe the translation
// refuses and the filter does not look at: PsSetSamplers of one null sampler at slot 20
// (16 slots) is a default binding, so it is dropped while the context is at the default
// state and answered E_INVALIDARG by the translation otherwise. The states the driver
// tracks: a new context (immediate or deferred) is at the default state, any setter that
// binds something else leaves it, draws/copies/maps do not, a deferred context returns to
// it when its recording is finished into a command list or abandoned, the immediate
// context when it executes one.

#include <gtest/gtest.h>

#include "driver_test_support.h"

namespace triton::test {
namespace {

class DriverDefaultStateFilter : public DriverTest, public ::testing::WithParamInterface<const InterfaceVersion*> {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_EQ(device.create(adapter, GetParam()->interfaceVersion, GetParam()->version,
                            ddi::D3D11DDI_3DPIPELINELEVEL_11_0),
              S_OK);
  }
  // True when the probe was dropped (the context counted as at the default state).
  template <class Context>
  static bool probeDropped(Context& context) {
    const ddi::D3D10DDI_HSAMPLER none{};
    TRITON_DDI(context, pfnPsSetSamplers)(context.handle(), 20, 1, &none);
    const HRESULT hr = context.takeError();
    EXPECT_TRUE(hr == S_OK || hr == E_INVALIDARG) << std::hex << hr;
    return hr == S_OK;
  }
  template <class Context>
  static void bindTriangleList(Context& context) {
    TRITON_DDI(context, pfnIaSetTopology)(context.handle(), ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  }
  template <class Context>
  static void bindUndefinedTopology(Context& context) {
    TRITON_DDI(context, pfnIaSetTopology)(context.handle(), ddi::D3D10_DDI_PRIMITIVE_TOPOLOGY_UNDEFINED);
  }

  harness::Device device;
};

TEST_P(DriverDefaultStateFilter, ANewImmediateContextDropsDefaultBindingsUntilItLeavesTheDefaultState) {
  EXPECT_TRUE(probeDropped(device)) << "a new device is at the default state";
  bindUndefinedTopology(device);   // the default topology: dropped, the context stays at the default
  EXPECT_TRUE(probeDropped(device));
  TRITON_DDI(device, pfnDraw)(device.handle(), 0, 0);   // draws bind nothing new
  EXPECT_TRUE(probeDropped(device));
  bindTriangleList(device);   // a non-default binding always reaches the target...
  EXPECT_FALSE(probeDropped(device)) << "...and ends the default state";
  bindUndefinedTopology(device);   // back to the default value: not at the default state any more
  EXPECT_FALSE(probeDropped(device)) << "the filter does not track values, only the state it knows";
}

TEST_P(DriverDefaultStateFilter, DeferredContextsReturnToTheDefaultStateAtEveryFinishedRecording) {
  harness::DeferredContext deferred;
  ASSERT_EQ(deferred.create(device), S_OK);
  EXPECT_TRUE(probeDropped(deferred)) << "a new deferred context is at the default state";
  EXPECT_TRUE(probeDropped(device)) << "a deferred context's state is its own";
  bindTriangleList(deferred);
  EXPECT_FALSE(probeDropped(deferred));
  EXPECT_TRUE(probeDropped(device));

  // FinishCommandList(FALSE) starts the next recording from the default state.
  harness::CommandList list = device.createCommandList(deferred);
  ASSERT_TRUE(list);
  EXPECT_TRUE(probeDropped(deferred)) << "a finished recording leaves the deferred context at the default state";
  bindTriangleList(deferred);
  EXPECT_FALSE(probeDropped(deferred));

  // ExecuteCommandList(FALSE) leaves the immediate context at the default state.
  bindTriangleList(device);
  EXPECT_FALSE(probeDropped(device));
  TRITON_DDI(device, pfnCommandListExecute)(device.handle(), list.handle);
  EXPECT_EQ(device.takeError(), S_OK);
  EXPECT_TRUE(probeDropped(device)) << "executing a command list leaves the immediate context at the default state";
  bindTriangleList(device);
  EXPECT_FALSE(probeDropped(device));

  // An abandoned recording is finished into a list nobody keeps: the default state again.
  TRITON_DDI(deferred, pfnAbandonCommandList)(deferred.handle());
  EXPECT_EQ(deferred.takeError(), S_OK);
  EXPECT_TRUE(probeDropped(deferred)) << "an abandoned recording leaves the deferred context at the default state";
  device.destroy(list);
  deferred.destroy();
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverDefaultStateFilter, ::testing::Values(&kD3D11_0, &kD3D11_1, &kWddm1_3),
                         [](const ::testing::TestParamInfo<const InterfaceVersion*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace triton::test
