// SPDX-License-Identifier: MIT
// IASetPrimitiveTopology(UNDEFINED) is valid (it is the default state, which ClearState
// and runtimes resetting state set); draws made while the topology is UNDEFINED are
// discarded, as Windows does, whatever the backend would make of them. Indexed draws
// without an index buffer are discarded too (wined3d crashed on them). Windows build
// (shaders compiled at run time with d3dcompiler_47).
#include <d3dcompiler.h>

#include <cstring>

#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

const char* kTriangleShaders = R"(
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 uv = float2((id << 1) & 2, id & 2);
  return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
float4 ps() : SV_Target { return float4(0, 1, 0, 1); }
)";

class DrawTopologyTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    target = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
    rtv = renderTarget(target);
    protocol::ObjectId vs = shader("vs", "vs_4_0"), ps = shader("ps", "ps_4_0");
    bindPipeline(context, vs, ps);
    vertexShader = vs;
    pixelShader = ps;
  }

  protocol::ObjectId shader(const char* entry, const char* profile) {
    ID3DBlob* code = nullptr;
    EXPECT_EQ(D3DCompile(kTriangleShaders, std::strlen(kTriangleShaders), "test", nullptr, nullptr, entry, profile, 0, 0,
                         &code, nullptr),
              S_OK);
    if (!code) return 0;
    protocol::ObjectId id = h.newId();
    protocol::Payload payload = protocol::Payload::inlineBytes(code->GetBufferPointer(), uint32_t(code->GetBufferSize()));
    if (profile[0] == 'v')
      EXPECT_TRUE(protocol::encode_ID3D11Device_CreateVertexShader(h.w(), device, payload, 0, id));
    else
      EXPECT_TRUE(protocol::encode_ID3D11Device_CreatePixelShader(h.w(), device, payload, 0, id));
    h.runOk();
    code->Release();
    return id;
  }

  // Everything a full-screen triangle needs except the topology.
  void bindPipeline(protocol::ObjectId on, protocol::ObjectId vs, protocol::ObjectId ps) {
    D3D11_VIEWPORT viewport = {0, 0, 4, 4, 0, 1};
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_VSSetShader(h.w(), on, vs, nullptr, 0));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_PSSetShader(h.w(), on, ps, nullptr, 0));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_OMSetRenderTargets(h.w(), on, 1, &rtv, 0));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_RSSetViewports(h.w(), on, 1, &viewport));
    h.runOk();
  }

  void setTopology(protocol::ObjectId on, D3D11_PRIMITIVE_TOPOLOGY topology) {
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetPrimitiveTopology(h.w(), on, topology));
    h.runOk();
  }

  uint32_t firstPixel() {
    std::vector<uint8_t> pixels = readBack(target, 4, 4);
    uint32_t value = 0;
    if (pixels.size() >= 4) std::memcpy(&value, pixels.data(), 4);
    return value;
  }

  protocol::ObjectId target = 0, rtv = 0, vertexShader = 0, pixelShader = 0;
};

constexpr uint32_t kRed = 0xff0000ffu, kGreen = 0xff00ff00u;

TEST_F(DrawTopologyTest, UndefinedIsAcceptedAndItsDrawsAreDiscarded) {
  clear(rtv, 1, 0, 0, 1);
  uint64_t dropped = h.executor().droppedCalls();
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
  EXPECT_EQ(h.executor().droppedCalls(), dropped) << "IASetPrimitiveTopology(UNDEFINED) is valid";
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), context, 3, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_DrawInstanced(h.w(), context, 3, 1, 0, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 2);
  EXPECT_TRUE(h.logContains("UNDEFINED"));
  EXPECT_EQ(firstPixel(), kRed) << "nothing drawn";
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), context, 3, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 2);
  EXPECT_EQ(firstPixel(), kGreen);
  // An unknown value is still refused (dropped), and leaves the topology as it was.
  clear(rtv, 1, 0, 0, 1);
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY(6));
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 3);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), context, 3, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 3);
  EXPECT_EQ(firstPixel(), kGreen);
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(DrawTopologyTest, ClearStateAndCommandListsLeaveTheTopologyUndefined) {
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ClearState(h.w(), context));
  h.runOk();
  bindPipeline(context, vertexShader, pixelShader);
  clear(rtv, 1, 0, 0, 1);
  uint64_t dropped = h.executor().droppedCalls();
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), context, 3, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 1) << "ClearState sets UNDEFINED";
  EXPECT_EQ(firstPixel(), kRed);

  // A deferred context starts in the default state; Finish without restore returns to it.
  protocol::ObjectId deferred = h.newId(), list = h.newId(), second = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDeferredContext(h.w(), device, 0, deferred));
  h.runOk();
  bindPipeline(deferred, vertexShader, pixelShader);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), deferred, 3, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 2);
  setTopology(deferred, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), deferred, 3, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_FinishCommandList(h.w(), deferred, FALSE, list));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), deferred, 3, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_FinishCommandList(h.w(), deferred, FALSE, second));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 3) << "the deferred context's state was reset by Finish";

  // Executing without restoring leaves the immediate context in the default state too.
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ExecuteCommandList(h.w(), context, list, FALSE));
  h.runOk();
  EXPECT_EQ(firstPixel(), kGreen) << "the command list's draw";
  bindPipeline(context, vertexShader, pixelShader);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), context, 3, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 4);
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ExecuteCommandList(h.w(), context, second, TRUE));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_Draw(h.w(), context, 3, 0));
  h.runOk();
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 4) << "restored: the topology set before";
  EXPECT_FALSE(h.executor().isFatal());
}

// Windows reads indices of 0 from a missing index buffer; wined3d dereferences the missing
// buffer (found replaying the executor fuzz corpus through neptune-server.exe), so the
// executor drops indexed draws made without one, on every context and after every reset.
TEST_F(DrawTopologyTest, IndexedDrawsWithoutAnIndexBufferAreDiscarded) {
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  protocol::ObjectId indices = h.newId(), args = h.newId();
  D3D11_BUFFER_DESC indexDesc = {64, D3D11_USAGE_DEFAULT, D3D11_BIND_INDEX_BUFFER, 0, 0, 0};
  D3D11_BUFFER_DESC argsDesc = {20, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, 0};
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &indexDesc, 0, nullptr, indices));
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateBuffer(h.w(), device, &argsDesc, 0, nullptr, args));
  h.runOk();
  auto drawIndexedThreeWays = [&](protocol::ObjectId on) {
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_DrawIndexed(h.w(), on, 3, 0, 0));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_DrawIndexedInstanced(h.w(), on, 3, 1, 0, 0, 0));
    ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_DrawIndexedInstancedIndirect(h.w(), on, args, 0));
    h.runOk();
  };
  uint64_t dropped = h.executor().droppedCalls();
  drawIndexedThreeWays(context);
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 3);
  EXPECT_TRUE(h.logContains("no index buffer is bound"));

  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetIndexBuffer(h.w(), context, indices, DXGI_FORMAT_R16_UINT, 0));
  h.runOk();
  drawIndexedThreeWays(context);
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 3) << "with an index buffer the draws are made";

  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetIndexBuffer(h.w(), context, 0, DXGI_FORMAT_UNKNOWN, 0));
  h.runOk();
  drawIndexedThreeWays(context);
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 6) << "unbound again";

  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetIndexBuffer(h.w(), context, indices, DXGI_FORMAT_R16_UINT, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_ClearState(h.w(), context));
  h.runOk();
  bindPipeline(context, vertexShader, pixelShader);
  setTopology(context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  drawIndexedThreeWays(context);
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 9) << "ClearState unbinds it";

  protocol::ObjectId deferred = h.newId(), list = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateDeferredContext(h.w(), device, 0, deferred));
  h.runOk();
  bindPipeline(deferred, vertexShader, pixelShader);
  setTopology(deferred, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  drawIndexedThreeWays(deferred);
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 12) << "a deferred context starts without one";
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_IASetIndexBuffer(h.w(), deferred, indices, DXGI_FORMAT_R16_UINT, 0));
  ASSERT_TRUE(protocol::encode_ID3D11DeviceContext_FinishCommandList(h.w(), deferred, FALSE, list));
  h.runOk();
  setTopology(deferred, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  drawIndexedThreeWays(deferred);
  EXPECT_EQ(h.executor().droppedCalls(), dropped + 15) << "Finish without restoring unbinds it";
  EXPECT_FALSE(h.executor().isFatal());
}

}  // namespace
}  // namespace npt::executor::testing
