// SPDX-License-Identifier: MIT
// Creations the API-level runtime completes or refuses itself before the DDI, each made
// the same way on the system d3d11 (Wine's) and compared: default views of structured and
// typed buffers, the out pointer of a refused view, query types that are predicates, and
// a context's ID3DUserDefinedAnnotation.

#include <d3d11_1.h>

#include "runtime_test_support.h"

namespace triton::test {
namespace {

using Microsoft::WRL::ComPtr;

constexpr D3D_FEATURE_LEVEL kLevel = D3D_FEATURE_LEVEL_11_0;

struct Devices {
  Loaded runtime = loadRuntime();
  Loaded system = loadSystem();
  ComPtr<ID3D11DeviceContext> oursContext, directContext;
  ComPtr<ID3D11Device> ours = createDevice(runtime, kLevel, &oursContext);
  ComPtr<ID3D11Device> direct = createDevice(system, kLevel, &directContext);
  bool ok() const { return ours && direct; }
};

ComPtr<ID3D11Buffer> structuredBuffer(ID3D11Device* device) {
  D3D11_BUFFER_DESC desc{1024, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS, 0,
                         D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4};
  ComPtr<ID3D11Buffer> buffer;
  EXPECT_EQ(device->CreateBuffer(&desc, nullptr, &buffer), S_OK);
  return buffer;
}

TEST(RuntimeCreation, DefaultViewsOfAStructuredBufferMatchTheSystemD3D11) {
  Devices d;
  ASSERT_TRUE(d.ok());
  for (ID3D11Device* device : {d.ours.Get(), d.direct.Get()}) {
    SCOPED_TRACE(device == d.ours.Get() ? "through the runtime" : "system d3d11");
    ComPtr<ID3D11Buffer> buffer = structuredBuffer(device);
    ASSERT_TRUE(buffer);
    ComPtr<ID3D11ShaderResourceView> srv;
    ASSERT_EQ(device->CreateShaderResourceView(buffer.Get(), nullptr, &srv), S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC srvDesc{};
    srv->GetDesc(&srvDesc);
    EXPECT_EQ(srvDesc.Format, DXGI_FORMAT_UNKNOWN);
    EXPECT_EQ(srvDesc.ViewDimension, D3D11_SRV_DIMENSION_BUFFER);
    EXPECT_EQ(srvDesc.Buffer.FirstElement, 0u);
    EXPECT_EQ(srvDesc.Buffer.NumElements, 256u);
    ComPtr<ID3D11UnorderedAccessView> uav;
    ASSERT_EQ(device->CreateUnorderedAccessView(buffer.Get(), nullptr, &uav), S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC uavDesc{};
    uav->GetDesc(&uavDesc);
    EXPECT_EQ(uavDesc.ViewDimension, D3D11_UAV_DIMENSION_BUFFER);
    EXPECT_EQ(uavDesc.Buffer.NumElements, 256u);
    EXPECT_EQ(uavDesc.Buffer.Flags, 0u);
  }
}

TEST(RuntimeCreation, ARefusedViewLeavesANullObject) {
  Devices d;
  ASSERT_TRUE(d.ok());
  for (ID3D11Device* device : {d.ours.Get(), d.direct.Get()}) {
    SCOPED_TRACE(device == d.ours.Get() ? "through the runtime" : "system d3d11");
    D3D11_BUFFER_DESC desc{1024, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0};
    ComPtr<ID3D11Buffer> typed;
    ASSERT_EQ(device->CreateBuffer(&desc, nullptr, &typed), S_OK);
    // A typed buffer has no default view.
    auto* srv = reinterpret_cast<ID3D11ShaderResourceView*>(0xdeadbeef);
    EXPECT_EQ(device->CreateShaderResourceView(typed.Get(), nullptr, &srv), E_INVALIDARG);
    EXPECT_EQ(srv, nullptr);
  }
}

// Which query types are predicates and which of those CreatePredicate takes (Wine's
// test_create_query records Windows' answers). The per-stream statistics (8 + 2n) and
// overflow predicates (9 + 2n) interleave.
TEST(RuntimeCreation, PredicateTypesAreWindows) {
  Devices d;
  ASSERT_TRUE(d.ok());
  struct Case {
    D3D11_QUERY type;
    bool predicate, byCreatePredicate, wineCreatesIt;
  };
  const Case cases[] = {
      {D3D11_QUERY_OCCLUSION_PREDICATE, true, true, true},
      {D3D11_QUERY_SO_STATISTICS_STREAM1, false, false, true},
      {D3D11_QUERY_SO_STATISTICS_STREAM2, false, false, true},
      // Wine's d3d11 does not create the per-stream overflow predicates (a todo of its suite).
      {D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1, true, false, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "query type " << c.type);
    for (ID3D11Device* device : {d.ours.Get(), d.direct.Get()}) {
      if (device == d.direct.Get() && !c.wineCreatesIt)
        continue;
      SCOPED_TRACE(device == d.ours.Get() ? "through the runtime" : "system d3d11");
      const D3D11_QUERY_DESC desc{c.type, 0};
      ComPtr<ID3D11Query> query;
      ASSERT_EQ(device->CreateQuery(&desc, &query), S_OK);
      ComPtr<ID3D11Predicate> predicate;
      EXPECT_EQ(query.As(&predicate), c.predicate ? S_OK : E_NOINTERFACE);
      ComPtr<ID3D11Predicate> created;
      EXPECT_EQ(device->CreatePredicate(&desc, &created), c.byCreatePredicate ? S_OK : E_INVALIDARG);
    }
    // The documented result sizes (Wine's d3d11 answers 8 for an occlusion predicate).
    ComPtr<ID3D11Query> ours;
    const D3D11_QUERY_DESC desc{c.type, 0};
    ASSERT_EQ(d.ours->CreateQuery(&desc, &ours), S_OK);
    EXPECT_EQ(ours->GetDataSize(), c.predicate ? sizeof(BOOL) : sizeof(D3D11_QUERY_DATA_SO_STATISTICS));
  }
}

TEST(RuntimeCreation, ContextAnnotationsAnswerAsOutsideAProfiler) {
  Devices d;
  ASSERT_TRUE(d.ok());
  for (ID3D11DeviceContext* context : {d.oursContext.Get(), d.directContext.Get()}) {
    ComPtr<ID3DUserDefinedAnnotation> annotation;
    ASSERT_EQ(context->QueryInterface(__uuidof(ID3DUserDefinedAnnotation), &annotation), S_OK);
    EXPECT_EQ(annotation->BeginEvent(L"event"), -1);
    EXPECT_EQ(annotation->EndEvent(), -1);
    annotation->SetMarker(L"marker");
    EXPECT_FALSE(annotation->GetStatus());
    ComPtr<ID3D11DeviceContext> back;
    EXPECT_EQ(annotation.As(&back), S_OK);
    EXPECT_EQ(back.Get(), context);
  }
}

}  // namespace
}  // namespace triton::test
