// SPDX-License-Identifier: MIT
#pragma once

// The malformed-stream catalogue: one entry per bug class seen in virtual GPU stacks
// (virglrenderer, VMware SVGA, VirtualBox VBoxVideo/Chromium, QEMU virtio-gpu CVEs),
// written as command streams a hostile guest sends after creating a device. Each entry
// states the documented outcome: the context becomes fatal (decoder error or executor
// FatalCode), or the call fails as on Windows (a sync call's HRESULT, or a
// fire-and-forget call dropped with a log line) and the context lives on.
//
// The same table runs
//   * in-process on the recording backend (catalogue_executor_test.cpp, native build),
//     where the fake driver checks that nothing invalid reached it, beside a second
//     well-behaved context;
//   * through neptune-server.exe under Wine on wined3d (catalogue_server_win32_test.cpp),
//     with a second context that renders and reads back afterwards.
// Transport-level classes (wait cycles, re-entrancy, offsets outside a region, bytes
// rewritten after publish) are in catalogue_transport_test.cpp (native server).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "npt/protocol/writer.h"
#include "npt_encode.h"
#include "npt_ids.h"

namespace npt::hostile {

using protocol::CommandWriter;
using protocol::ObjectId;
using protocol::Payload;

enum class Outcome {
  DecoderFatal,    // the decoder refuses the stream: code = protocol::ErrorCode
  ExecutorFatal,   // the executor stops the context: code = executor::FatalCode
  SyncError,       // the last command is sync and returns code (an HRESULT); context alive
  Dropped,         // fire-and-forget call(s) dropped as Windows drops them; context alive
};

// Ids the entries use: the device and immediate context exist; kFree.. are unused.
constexpr ObjectId kDevice = 1, kContext = 2, kFree = 100;
constexpr uint32_t kInvalidArg = 0x80070057u;   // E_INVALIDARG

struct Entry {
  const char* name;
  const char* bugClass;
  Outcome outcome;
  uint32_t code;
  void (*write)(CommandWriter& w);
  bool lastIsSync = false;   // the stream ends with a sync command (its reply is decoded)
};

namespace detail {

inline D3D11_TEXTURE2D_DESC texture2D(UINT width, UINT height, UINT mips = 1, UINT array = 1,
                                      D3D11_USAGE usage = D3D11_USAGE_DEFAULT,
                                      UINT bind = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, UINT cpu = 0) {
  D3D11_TEXTURE2D_DESC d = {};
  d.Width = width;
  d.Height = height;
  d.MipLevels = mips;
  d.ArraySize = array;
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  d.SampleDesc.Count = 1;
  d.Usage = usage;
  d.BindFlags = bind;
  d.CPUAccessFlags = cpu;
  return d;
}

}  // namespace detail

inline const std::vector<Entry>& catalogue() {
  using namespace protocol;
  using namespace detail;
  static const std::vector<Entry> entries = {
      {"texture-initial-data-pitch-overflow", "integer overflow in size arithmetic", Outcome::ExecutorFatal, 14002,
       [](CommandWriter& w) {
         // 64 rows at a pitch of 0x08000000: the footprint (rows x pitch) overflows 32 bits
         // and the 256 bytes sent cannot hold it.
         D3D11_TEXTURE2D_DESC desc = texture2D(64, 64);
         NPT_SUBRESOURCE_DATA initial = {{0, 0, 256}, 0x08000000u, 0};
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 1, &initial, kFree);
       }},
      {"update-subresource-depth-pitch-overflow", "integer overflow in size arithmetic", Outcome::ExecutorFatal, 14002,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC desc = texture2D(64, 64);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
         D3D11_BOX box = {0, 0, 0, 64, 64, 1};
         static const uint8_t bytes[1024] = {};
         // Row pitch 0xFFFFFFF0 x 63 rows wraps a 32-bit product to a small number.
         encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, kFree, 0, &box,
                                                     Payload::inlineBytes(bytes, sizeof bytes), 0xFFFFFFF0u, 0);
       }},
      {"count-larger-than-data", "counts larger than data", Outcome::DecoderFatal, uint32_t(ErrorCode::Truncated),
       [](CommandWriter& w) {
         D3D11_SAMPLER_DESC sampler = {};
         sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
         sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
         encode_ID3D11Device_CreateSamplerState(w, kDevice, &sampler, kFree);
         w.select(kContext);
         // PSSetSamplers declaring 8 samplers and carrying one id.
         w.begin(Op_ID3D11DeviceContext_PSSetSamplers);
         w.u32(8);        // NumSamplers
         w.u32(0);        // StartSlot
         w.u32(kFree);    // one id
         w.end();
       }},
      {"viewports-count-without-array", "counts larger than data", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         // RSSetViewports(3, NULL): the array is optional on the wire (presence word 0), a
         // backend would read three viewports at address 0. Found by the executor fuzzer.
         w.select(kContext);
         w.begin(Op_ID3D11DeviceContext_RSSetViewports);
         w.u32(3);   // NumViewports
         w.u32(0);   // pViewports absent
         w.end();
       }},
      {"scissor-count-without-array", "counts larger than data", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         w.select(kContext);
         w.begin(Op_ID3D11DeviceContext_RSSetScissorRects);
         w.u32(2);   // NumRects
         w.u32(0);   // pRects absent
         w.end();
       }},
      {"subresource-count-disagrees-with-desc", "counts inside structs", Outcome::ExecutorFatal, 14002,
       [](CommandWriter& w) {
         // The desc asks for 3 mips (3 subresources); one initial-data entry comes.
         D3D11_TEXTURE2D_DESC desc = texture2D(4, 4, 3);
         NPT_SUBRESOURCE_DATA initial = {{0, 0, 64}, 16, 0};
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 1, &initial, kFree);
       }},
      {"input-layout-elements-beyond-bound", "counts inside structs", Outcome::DecoderFatal, uint32_t(ErrorCode::CountTooLarge),
       [](CommandWriter& w) {
         w.select(kDevice);
         w.begin(Op_ID3D11Device_CreateInputLayout);
         w.u32(0x10000);   // NumElements, far above D3D11's 32
         w.end();
       }},
      {"handle-never-created", "out-of-range handles", Outcome::DecoderFatal, uint32_t(ErrorCode::UnknownObject),
       [](CommandWriter& w) {
         ObjectId views[] = {0xABCDEF};
         encode_ID3D11DeviceContext_PSSetShaderResources(w, kContext, 0, 1, views);
       }},
      {"handle-of-wrong-type", "wrong-type handles", Outcome::DecoderFatal, uint32_t(ErrorCode::WrongObjectType),
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFree);
         ObjectId views[] = {kFree};   // a buffer where a shader-resource view is required
         encode_ID3D11DeviceContext_PSSetShaderResources(w, kContext, 0, 1, views);
       }},
      {"device-used-as-context", "wrong-type handles", Outcome::DecoderFatal, uint32_t(ErrorCode::WrongObjectType),
       [](CommandWriter& w) { encode_ID3D11DeviceContext_Draw(w, kDevice, 3, 0); }},
      {"use-after-release", "use after release", Outcome::DecoderFatal, uint32_t(ErrorCode::UnknownObject),
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFree);
         w.begin(OpDestroyObject);
         w.u32(kFree);
         w.end();
         ObjectId buffers[] = {kFree};
         UINT strides[] = {16}, offsets[] = {0};
         encode_ID3D11DeviceContext_IASetVertexBuffers(w, kContext, 0, 1, buffers, strides, offsets);
       }},
      {"double-release", "use after release", Outcome::DecoderFatal, uint32_t(ErrorCode::UnknownObject),
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFree);
         for (int i = 0; i < 2; i++) {
           w.begin(OpDestroyObject);
           w.u32(kFree);
           w.end();
         }
       }},
      {"device-used-after-release", "use after release", Outcome::DecoderFatal, uint32_t(ErrorCode::UnknownObject),
       [](CommandWriter& w) {
         w.begin(OpDestroyObject);
         w.u32(kDevice);
         w.end();
         D3D11_TEXTURE2D_DESC desc = texture2D(8, 8);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
       }},
      {"update-box-beyond-subresource", "boxes/pitches beyond a subresource", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC desc = texture2D(64, 64);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
         D3D11_BOX box = {60, 0, 0, 68, 4, 1};   // right edge 68 > width 64
         static const uint8_t bytes[8 * 4 * 4] = {};
         encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, kFree, 0, &box,
                                                     Payload::inlineBytes(bytes, sizeof bytes), 32, 128);
       }},
      {"update-pitch-smaller-than-row", "boxes/pitches beyond a subresource", Outcome::ExecutorFatal, 14002,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC desc = texture2D(64, 64);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
         D3D11_BOX box = {0, 0, 0, 64, 64, 1};
         // Rows of 256 bytes at a pitch of 4 (Windows accepts overlapping rows): a driver reads
         // 63 x 4 + 256 = 508 bytes, the guest sent 300.
         static const uint8_t bytes[300] = {};
         encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, kFree, 0, &box,
                                                     Payload::inlineBytes(bytes, sizeof bytes), 4, 0);
       }},
      {"copy-region-beyond-destination", "boxes/pitches beyond a subresource", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC big = texture2D(64, 64), small = texture2D(16, 16);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &big, 0, nullptr, kFree);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &small, 0, nullptr, kFree + 1);
         D3D11_BOX box = {0, 0, 0, 32, 32, 1};   // 32x32 at (8, 8) into a 16x16 texture
         encode_ID3D11DeviceContext_CopySubresourceRegion(w, kContext, kFree + 1, 0, 8, 8, 0, kFree, 0, &box);
       }},
      {"map-subresource-out-of-range", "boxes/pitches beyond a subresource", Outcome::SyncError, kInvalidArg,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC desc = texture2D(16, 16, 1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
         encode_ID3D11DeviceContext_Map(w, kContext, kFree, 7, D3D11_MAP_READ, 0);
       },
       true},
      {"view-mips-beyond-resource", "views inconsistent with their resource", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC desc = texture2D(16, 16, 1);
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
         D3D11_SHADER_RESOURCE_VIEW_DESC srv = {};
         srv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
         srv.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
         srv.Texture2D.MostDetailedMip = 3;
         srv.Texture2D.MipLevels = 2;
         encode_ID3D11Device_CreateShaderResourceView(w, kDevice, kFree, &srv, kFree + 1);
         ObjectId views[] = {kFree + 1};   // the failed view: its uses are dropped too
         encode_ID3D11DeviceContext_PSSetShaderResources(w, kContext, 0, 1, views);
       }},
      {"view-dimension-and-elements-wrong", "views inconsistent with their resource", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0};
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFree);
         D3D11_SHADER_RESOURCE_VIEW_DESC srv = {};
         srv.Format = DXGI_FORMAT_R32_FLOAT;
         srv.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
         srv.Buffer.FirstElement = 60;
         srv.Buffer.NumElements = 8;   // elements 60..67 of a 64-element buffer
         encode_ID3D11Device_CreateShaderResourceView(w, kDevice, kFree, &srv, kFree + 1);
         D3D11_RENDER_TARGET_VIEW_DESC rtv = {};
         rtv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
         rtv.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;   // a 2D view of a buffer
         encode_ID3D11Device_CreateRenderTargetView(w, kDevice, kFree, &rtv, kFree + 2);
       }},
      {"buffer-of-4-gib", "oversized allocations", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {0xFFFFFFF0u, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFree);
       }},
      {"texture-array-beyond-limits", "oversized allocations", Outcome::Dropped, 0,
       [](CommandWriter& w) {
         D3D11_TEXTURE2D_DESC desc = texture2D(16384, 16384, 1, 2048);
         desc.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;   // 8 TiB
         encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFree);
       }},
      {"count-of-4-billion", "oversized allocations", Outcome::DecoderFatal, uint32_t(ErrorCode::CountTooLarge),
       [](CommandWriter& w) {
         w.select(kContext);
         w.begin(Op_ID3D11DeviceContext_PSSetShaderResources);
         w.u32(0xFFFFFFFFu);   // NumViews: refused before anything is allocated
         w.u32(0);
         w.end();
       }},
      {"command-header-beyond-stream", "truncated commands", Outcome::DecoderFatal, uint32_t(ErrorCode::Truncated),
       [](CommandWriter& w) {
         w.select(kContext);
         // A Draw whose header claims 200 words; the stream ends after 3.
         const uint32_t words[3] = {protocol::packHeader(Op_ID3D11DeviceContext_Draw, 200), 3, 0};
         if (uint8_t* p = w.reserve(sizeof words)) std::memcpy(p, words, sizeof words);
       }},
      {"command-cut-inside-arguments", "truncated commands", Outcome::DecoderFatal, uint32_t(ErrorCode::Truncated),
       [](CommandWriter& w) {
         w.select(kContext);
         w.begin(Op_ID3D11DeviceContext_Draw);
         w.u32(3);   // VertexCount; StartVertexLocation missing
         w.end();
       }},
      {"payload-bulk-reference-outside-region", "shared-memory offsets outside their region",
       Outcome::ExecutorFatal, 14005,
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFree);
         // 256 bytes at offset 4 GiB - 64 of region 0.
         encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, kFree, 0, nullptr,
                                                     Payload::bulkRef({0, 0xFFFFFFC0u, 256}), 256, 256);
       }},
      {"initial-data-bulk-region-unknown", "shared-memory offsets outside their region", Outcome::ExecutorFatal, 14005,
       [](CommandWriter& w) {
         D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
         NPT_SUBRESOURCE_DATA initial = {{7, 0, 256}, 0, 0};   // region 7 does not exist
         encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 1, &initial, kFree);
       }},
      {"device-creation-bad-sdk-version", "documented API errors", Outcome::SyncError, kInvalidArg,
       [](CommandWriter& w) {
         encode_D3D11CreateDevice(w, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, 0x1234, kFree, kFree + 1);
       },
       true},
  };
  return entries;
}

// The HRESULT of the last reply in a run of replies (each starts with its header and the
// method's return value); 0xffffffff when there is none.
inline uint32_t lastReplyResult(const uint8_t* replies, size_t size) {
  size_t at = 0, last = SIZE_MAX;
  while (at + 8 <= size) {
    uint32_t header;
    std::memcpy(&header, replies + at, 4);
    const size_t bytes = size_t(header >> 16) * 4;
    if (bytes == 0) break;
    last = at;
    at += bytes;
  }
  if (last == SIZE_MAX) return 0xffffffffu;
  uint32_t value;
  std::memcpy(&value, replies + last + 4, 4);
  return value;
}

// The device every entry starts from (a sync command: its reply is the first one).
inline void writeDeviceCreation(CommandWriter& w) {
  protocol::encode_D3D11CreateDevice(w, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION,
                                     kDevice, kContext);
}

}  // namespace npt::hostile
