// SPDX-License-Identifier: MIT
// The catalogue's calls on a context (d3d11_catalogue.h): binds and copies Windows ignores
// (the row reads the state or the bytes back: S_OK when nothing changed), Map and GetData
// arguments Windows refuses.
#include "d3d11_catalogue.h"

namespace npt::test::catalogue {
namespace {

#define ROW(name, hr, oracle, ...) Row{name, hr, oracle, [](Env& e, IUnknown** out) -> HRESULT { __VA_ARGS__ }}

HRESULT unchangedIf(bool unchanged) { return unchanged ? S_OK : E_FAIL; }

// Binds `first` as the only render target, makes the invalid call, and reads the targets back.
template<typename Call>
HRESULT renderTargetsKept(Env& e, Call&& call) {
  ID3D11Texture2D* texture = e.texture2D(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS);
  if (!texture)
    return E_UNEXPECTED;
  ID3D11RenderTargetView* first = nullptr;
  ID3D11RenderTargetView* second = nullptr;
  ID3D11UnorderedAccessView* uav = nullptr;
  e.device->CreateRenderTargetView(texture, nullptr, &first);
  e.device->CreateRenderTargetView(texture, nullptr, &second);
  e.device->CreateUnorderedAccessView(texture, nullptr, &uav);
  texture->Release();
  e.context->OMSetRenderTargets(1, &first, nullptr);
  call(second, uav);
  ID3D11RenderTargetView* bound[2] = {};
  ID3D11UnorderedAccessView* boundUav = nullptr;
  e.context->OMGetRenderTargetsAndUnorderedAccessViews(2, bound, nullptr, 1, 1, &boundUav);
  const bool unchanged = bound[0] == first && !bound[1] && !boundUav;
  for (auto* view : bound)
    if (view)
      view->Release();
  if (boundUav)
    boundUav->Release();
  e.context->ClearState();
  first->Release();
  second->Release();
  uav->Release();
  return unchangedIf(unchanged);
}

// Binds one constant buffer at slot 0 of the vertex stage, makes the invalid call, reads slot 0 back.
template<typename Call>
HRESULT constantBufferKept(Env& e, Call&& call) {
  ID3D11Buffer* first = e.buffer(16, D3D11_BIND_CONSTANT_BUFFER);
  ID3D11Buffer* second = e.buffer(16, D3D11_BIND_CONSTANT_BUFFER);
  e.context->VSSetConstantBuffers(0, 1, &first);
  call(second);
  ID3D11Buffer* bound = nullptr;
  e.context->VSGetConstantBuffers(0, 1, &bound);
  const bool unchanged = bound == first;
  if (bound)
    bound->Release();
  e.context->ClearState();
  first->Release();
  second->Release();
  return unchangedIf(unchanged);
}

HRESULT viewportsKept(Env& e, UINT count) {
  const D3D11_VIEWPORT first = { 0, 0, 32, 32, 0, 1 };
  e.context->RSSetViewports(1, &first);
  D3D11_VIEWPORT many[D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE + 1] = {};
  for (auto& v : many)
    v = { 0, 0, 8, 8, 0, 1 };
  e.context->RSSetViewports(count, many);
  UINT boundCount = 1;
  D3D11_VIEWPORT bound = {};
  e.context->RSGetViewports(&boundCount, &bound);
  return unchangedIf(boundCount == 1 && bound.Width == 32.0f);
}

// 64 bytes of 0x11 in `dst`, 0x22 in a source; the call gets both; the destination is read back.
template<typename Call>
HRESULT destinationKept(Env& e, Call&& call, UINT srcSize = 64, D3D11_USAGE dstUsage = D3D11_USAGE_DEFAULT) {
  std::vector<uint8_t> ones(64, 0x11);
  std::vector<uint8_t> twos(srcSize, 0x22);
  ID3D11Buffer* dst = e.buffer(64, D3D11_BIND_SHADER_RESOURCE, 0, 0, dstUsage, 0, ones.data());
  ID3D11Buffer* src = e.buffer(srcSize, D3D11_BIND_SHADER_RESOURCE, 0, 0, D3D11_USAGE_DEFAULT, 0, twos.data());
  if (!dst || !src)
    return E_UNEXPECTED;
  call(dst, src);
  const bool unchanged = e.readBuffer(dst, 64) == ones;
  dst->Release();
  src->Release();
  return unchangedIf(unchanged);
}

HRESULT mapBuffer(Env& e, D3D11_USAGE usage, UINT cpu, UINT bind, UINT subresource, D3D11_MAP type, UINT flags) {
  static const uint8_t bytes[64] = {};
  ID3D11Buffer* buffer = e.buffer(64, bind, 0, 0, usage, cpu, bytes);
  if (!buffer)
    return E_UNEXPECTED;
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  HRESULT hr = e.context->Map(buffer, subresource, type, flags, &mapped);
  if (SUCCEEDED(hr))
    e.context->Unmap(buffer, subresource);
  else if (mapped.pData)
    hr = E_UNEXPECTED;   // a refused map hands out no memory
  buffer->Release();
  return hr;
}

const Row kBinds[] = {
  ROW("OMSetRenderTargetsAndUavsStartSlotAbove63", S_OK, kWineAgrees, return renderTargetsKept(e,
      [&](ID3D11RenderTargetView* rtv, ID3D11UnorderedAccessView* uav) {
        e.context->OMSetRenderTargetsAndUnorderedAccessViews(1, &rtv, nullptr, 64, 1, &uav, nullptr); });),
  ROW("OMSetRenderTargetsAndUavsRangePastTheSlots", S_OK, kWineAgrees, return renderTargetsKept(e,
      [&](ID3D11RenderTargetView* rtv, ID3D11UnorderedAccessView* uav) {
        ID3D11UnorderedAccessView* uavs[2] = { uav, nullptr };
        e.context->OMSetRenderTargetsAndUnorderedAccessViews(1, &rtv, nullptr, 63, 2, uavs, nullptr); });),
  ROW("OMSetRenderTargetsAndUavsStartSlotBelowTargets", S_OK, kDocumentedOnly, return renderTargetsKept(e,
      [&](ID3D11RenderTargetView* rtv, ID3D11UnorderedAccessView* uav) {
        e.context->OMSetRenderTargetsAndUnorderedAccessViews(1, &rtv, nullptr, 0, 1, &uav, nullptr); });),
  ROW("OMSetRenderTargetsAndUavsNineTargets", S_OK, kDocumentedOnly, return renderTargetsKept(e,
      [&](ID3D11RenderTargetView* rtv, ID3D11UnorderedAccessView* uav) {
        ID3D11RenderTargetView* rtvs[9] = { rtv };
        e.context->OMSetRenderTargetsAndUnorderedAccessViews(9, rtvs, nullptr, 9, 1, &uav, nullptr); });),
  ROW("OMSetRenderTargetsNineTargets", S_OK, kDocumentedOnly, return renderTargetsKept(e,
      [&](ID3D11RenderTargetView* rtv, ID3D11UnorderedAccessView*) {
        ID3D11RenderTargetView* rtvs[9] = { rtv };
        e.context->OMSetRenderTargets(9, rtvs, nullptr); });),
  ROW("VSSetConstantBuffersPastSlot13", S_OK, kDocumentedOnly, return constantBufferKept(e,
      [&](ID3D11Buffer* buffer) { ID3D11Buffer* buffers[2] = { buffer, buffer };
                                  e.context->VSSetConstantBuffers(13, 2, buffers); });),
  ROW("VSSetConstantBuffersStartAt14", S_OK, kDocumentedOnly, return constantBufferKept(e,
      [&](ID3D11Buffer* buffer) { e.context->VSSetConstantBuffers(14, 1, &buffer); });),
  ROW("RSSetViewportsSeventeen", S_OK, kDocumentedOnly, return viewportsKept(e, 17);),
};

const Row kCopies[] = {
  ROW("CopyResourceOfDifferentSizes", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer* src) { e.context->CopyResource(dst, src); }, 128);),
  ROW("CopySubresourceRegionSourceBoxPastTheEnd", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer* src) { const D3D11_BOX box = { 32, 0, 0, 96, 1, 1 };
                                                  e.context->CopySubresourceRegion(dst, 0, 0, 0, 0, src, 0, &box); });),
  ROW("CopySubresourceRegionDestinationPastTheEnd", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer* src) { const D3D11_BOX box = { 0, 0, 0, 32, 1, 1 };
                                                  e.context->CopySubresourceRegion(dst, 0, 48, 0, 0, src, 0, &box); });),
  ROW("CopySubresourceRegionSourceSubresource1", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer* src) { e.context->CopySubresourceRegion(dst, 0, 0, 0, 0, src, 1, nullptr); });),
  ROW("CopySubresourceRegionDestinationSubresource1", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer* src) { e.context->CopySubresourceRegion(dst, 1, 0, 0, 0, src, 0, nullptr); });),
  ROW("CopyResourceIntoImmutable", S_OK, kDocumentedOnly, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer* src) { e.context->CopyResource(dst, src); }, 64, D3D11_USAGE_IMMUTABLE);),
  ROW("UpdateSubresourceImmutable", S_OK, kDocumentedOnly, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer*) { static const uint8_t bytes[64] = { 0x33 };
                                              e.context->UpdateSubresource(dst, 0, nullptr, bytes, 0, 0); },
      64, D3D11_USAGE_IMMUTABLE);),
  ROW("UpdateSubresourceBoxPastTheEnd", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer*) { static const uint8_t bytes[64] = { 0x33 };
                                              const D3D11_BOX box = { 32, 0, 0, 80, 1, 1 };
                                              e.context->UpdateSubresource(dst, 0, &box, bytes, 0, 0); });),
  ROW("UpdateSubresourceEmptyBox", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer*) { static const uint8_t bytes[64] = { 0x33 };
                                              const D3D11_BOX box = { 16, 0, 0, 16, 1, 1 };
                                              e.context->UpdateSubresource(dst, 0, &box, bytes, 0, 0); });),
  ROW("UpdateSubresourceSubresource1", S_OK, kWineAgrees, return destinationKept(e,
      [&](ID3D11Buffer* dst, ID3D11Buffer*) { static const uint8_t bytes[64] = { 0x33 };
                                              e.context->UpdateSubresource(dst, 1, nullptr, bytes, 0, 0); });),
};

const Row kMaps[] = {
  ROW("MapDefaultBuffer", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_DEFAULT, 0, D3D11_BIND_VERTEX_BUFFER, 0, D3D11_MAP_WRITE_DISCARD, 0);),
  ROW("MapImmutableBuffer", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_IMMUTABLE, 0, D3D11_BIND_VERTEX_BUFFER, 0, D3D11_MAP_READ, 0);),
  ROW("MapDynamicForRead", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE, D3D11_BIND_VERTEX_BUFFER, 0, D3D11_MAP_READ, 0);),
  ROW("MapDynamicForReadWrite", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE, D3D11_BIND_VERTEX_BUFFER, 0, D3D11_MAP_READ_WRITE, 0);),
  ROW("MapDynamicForWrite", E_INVALIDARG, kDocumentedOnly,
      return mapBuffer(e, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE, D3D11_BIND_VERTEX_BUFFER, 0, D3D11_MAP_WRITE, 0);),
  ROW("MapReadOnlyStagingForWrite", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, 0, 0, D3D11_MAP_WRITE, 0);),
  ROW("MapWriteOnlyStagingForRead", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_WRITE, 0, 0, D3D11_MAP_READ, 0);),
  ROW("MapStagingWithDiscard", E_INVALIDARG, kDocumentedOnly,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_WRITE, 0, 0, D3D11_MAP_WRITE_DISCARD, 0);),
  ROW("MapBufferSubresource1", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, 0, 1, D3D11_MAP_READ, 0);),
  ROW("MapTypeZero", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, 0, 0, D3D11_MAP(0), 0);),
  ROW("MapTypeOutOfRange", E_INVALIDARG, kWineAgrees,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, 0, 0, D3D11_MAP(6), 0);),
  ROW("MapUnknownFlags", E_INVALIDARG, kDocumentedOnly,
      return mapBuffer(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, 0, 0, D3D11_MAP_READ, 0x1);),
};

HRESULT getData(Env& e, UINT size, UINT flags) {
  const D3D11_QUERY_DESC desc = { D3D11_QUERY_EVENT, 0 };
  ID3D11Query* query = nullptr;
  if (FAILED(e.device->CreateQuery(&desc, &query)))
    return E_UNEXPECTED;
  e.context->End(query);
  BOOL done[2] = {};
  HRESULT hr;
  for (int i = 0; i < 1000 && (hr = e.context->GetData(query, done, size, flags)) == S_FALSE; i++)
    Sleep(1);
  query->Release();
  return hr;
}

const Row kQueryData[] = {
  ROW("GetDataWrongSize", E_INVALIDARG, kWineAgrees, return getData(e, sizeof(BOOL) + 1, 0);),
  ROW("GetDataUnknownFlags", E_INVALIDARG, kDocumentedOnly, return getData(e, sizeof(BOOL), 0x2);),
};

INSTANTIATE_TEST_SUITE_P(Binds, RowTest, ::testing::ValuesIn(kBinds), rowName);
INSTANTIATE_TEST_SUITE_P(Copies, RowTest, ::testing::ValuesIn(kCopies), rowName);
INSTANTIATE_TEST_SUITE_P(Maps, RowTest, ::testing::ValuesIn(kMaps), rowName);
INSTANTIATE_TEST_SUITE_P(QueryData, RowTest, ::testing::ValuesIn(kQueryData), rowName);

}  // namespace
}  // namespace npt::test::catalogue
