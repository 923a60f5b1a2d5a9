// SPDX-License-Identifier: MIT
// Writes seed corpora for the protocol and transport targets from valid command
// streams: the generated guest encoders for the protocol, and the guest's RingWriter
// over a context's shared memory (in the transport target's input format) for the
// transport, serialized HostInfo structures for the host-info parser, and registry
// sections filled by honest calls plus operation scripts for the registry target.
// Usage: npt-fuzz-seeds <dir>  (creates <dir>/protocol, <dir>/transport, <dir>/hostinfo, <dir>/executor,
// <dir>/registry)

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "neptune/transport/host_context.h"
#include "neptune/transport/ring_writer.h"
#include "npt/protocol/control.h"
#include "npt/protocol/host_info.h"
#include "npt/protocol/negotiation.h"
#include "npt/protocol/writer.h"
#include "npt_encode.h"
#include "npt/sharing/registry.h"
#include "npt_ids.h"
#include "registry_input.h"
#include "transport_image.h"

namespace {

using namespace npt::protocol;
namespace fs = std::filesystem;

void save(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Object ids: id == interface id (what the protocol harness's handle table holds).
constexpr ObjectId kContext = Iface_ID3D11DeviceContext;
constexpr ObjectId kDevice = Iface_ID3D11Device;
constexpr ObjectId kFirstFree = kInterfaceCount;

std::vector<std::vector<uint8_t>> protocolStreams() {
  std::vector<std::vector<uint8_t>> streams;
  auto stream = [&](auto&& encode) {
    std::vector<uint8_t> buffer(64u << 10);
    CommandWriter w(buffer.data(), buffer.size());
    encode(w);
    if (!w.ok()) {
      std::fprintf(stderr, "seed stream %zu did not encode\n", streams.size());
      return;
    }
    buffer.resize(w.size());
    streams.push_back(std::move(buffer));
  };

  stream([](CommandWriter& w) {
    encode_ID3D11DeviceContext_Draw(w, kContext, 3, 0);
    encode_ID3D11DeviceContext_DrawIndexed(w, kContext, 36, 0, 0);
  });
  stream([](CommandWriter& w) {
    ObjectId srvs[] = {Iface_ID3D11ShaderResourceView, Iface_ID3D11ShaderResourceView};
    encode_ID3D11DeviceContext_PSSetShaderResources(w, kContext, 0, 2, srvs);
    ObjectId rtvs[] = {Iface_ID3D11RenderTargetView};
    encode_ID3D11DeviceContext_OMSetRenderTargets(w, kContext, 1, rtvs, Iface_ID3D11DepthStencilView);
    D3D11_VIEWPORT viewport = {0, 0, 640, 480, 0, 1};
    encode_ID3D11DeviceContext_RSSetViewports(w, kContext, 1, &viewport);
    const FLOAT color[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    encode_ID3D11DeviceContext_ClearRenderTargetView(w, kContext, Iface_ID3D11RenderTargetView, color);
  });
  stream([](CommandWriter& w) {
    ObjectId buffers[] = {Iface_ID3D11Buffer, 0};
    UINT strides[] = {16, 32};
    UINT offsets[] = {0, 64};
    encode_ID3D11DeviceContext_IASetVertexBuffers(w, kContext, 0, 2, buffers, strides, offsets);
    encode_ID3D11DeviceContext_IASetInputLayout(w, kContext, Iface_ID3D11InputLayout);
    ObjectId constants[] = {Iface_ID3D11Buffer};
    encode_ID3D11DeviceContext_VSSetConstantBuffers(w, kContext, 0, 1, constants);
  });
  stream([](CommandWriter& w) {
    D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    NPT_SUBRESOURCE_DATA initial = {{0, 0, 256}, 0, 0};
    encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 1, &initial, kFirstFree);
    encode_ID3D11Device_CreateBuffer(w, kDevice, &desc, 0, nullptr, kFirstFree + 1);
    w.begin(OpDestroyObject);
    w.u32(kFirstFree);
    w.end();
  });
  stream([](CommandWriter& w) {
    D3D11_TEXTURE2D_DESC desc = {};
    desc.Width = 64;
    desc.Height = 32;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
    encode_ID3D11Device_CreateTexture2D(w, kDevice, &desc, 0, nullptr, kFirstFree);
    encode_ID3D11Device_CreateShaderResourceView(w, kDevice, kFirstFree, nullptr, kFirstFree + 1);
    D3D11_RENDER_TARGET_VIEW_DESC rtv = {};
    rtv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    rtv.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
    encode_ID3D11Device_CreateRenderTargetView(w, kDevice, kFirstFree, &rtv, kFirstFree + 2);
    D3D11_BOX box = {0, 0, 0, 4, 4, 1};
    static const uint8_t pixels[64] = {1, 2, 3, 4};
    encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, kFirstFree, 0, &box,
                                                Payload::inlineBytes(pixels, sizeof pixels), 16, 64);
    encode_ID3D11DeviceContext_CopySubresourceRegion(w, kContext, kFirstFree, 0, 1, 2, 0,
                                                    Iface_ID3D11Texture2D, 0, &box);
  });
  stream([](CommandWriter& w) {
    D3D11_SAMPLER_DESC sampler = {};
    sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_WRAP;
    sampler.MaxLOD = 1000.0f;
    encode_ID3D11Device_CreateSamplerState(w, kDevice, &sampler, kFirstFree);
    static const uint8_t bytecode[32] = {'D', 'X', 'B', 'C'};
    encode_ID3D11Device_CreateVertexShader(w, kDevice, Payload::inlineBytes(bytecode, sizeof bytecode), 0,
                                           kFirstFree + 1);
    encode_ID3D11Device_CreateVertexShader(w, kDevice, Payload::bulkRef({1, 0, 128}), 0, kFirstFree + 2);
    D3D11_INPUT_ELEMENT_DESC elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 1, DXGI_FORMAT_R32G32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0},
    };
    encode_ID3D11Device_CreateInputLayout(w, kDevice, elements, 2, Payload::inlineBytes(bytecode, sizeof bytecode),
                                          kFirstFree + 3);
  });
  stream([](CommandWriter& w) {
    static const WCHAR name[] = {'f', 'r', 'a', 'm', 'e', 0};
    encode_ID3DUserDefinedAnnotation_BeginEvent(w, Iface_ID3DUserDefinedAnnotation, name);
    encode_IDXGISwapChain_Present(w, Iface_IDXGISwapChain, 1, 0);
    w.begin(OpNop);
    w.u32(0);
    w.end();
  });
  stream([](CommandWriter& w) {  // control commands: host info, push slots, present
    encode_QueryHostInfo(w);
    encode_BindPushSlot(w, Iface_ID3D11Query, 3);
    encode_BindPushSlot(w, Iface_ID3D11Predicate, 4);
    encode_PresentBuffer(w, Iface_ID3D11Texture2D, 1, 0);
  });
  stream([](CommandWriter& w) { encodeHello(w, Capabilities::all()); });
  return streams;
}

using namespace npt::transport;

// One context image: the shared memory after the guest published records, cut to the
// transport target's format (prefix, image, no further guest writes).
struct TransportSeed {
  uint8_t selector;
  uint8_t flags;
  std::vector<uint8_t> memory;
  Geometry g;

  TransportSeed(uint8_t selector, uint8_t flags) : selector(selector), flags(flags) {
    g = npt::fuzz::geometryFor(selector);
    memory.resize(g.total_size());
    HostContext::initialize_memory(memory.data(), g, 1);
  }
  RingWriter writer(uint32_t ring) {
    uint8_t* base = memory.data() + g.rings_offset() + g.ring_stride() * ring;
    return RingWriter(reinterpret_cast<RingHeader*>(base), base + kRingHeaderSize, g.ring_size);
  }
  bool record(RingWriter& w, RecordKind kind, uint32_t aux, const void* payload, uint32_t size) {
    uint8_t* p = w.try_reserve(kind, aux, size);
    if (!p)
      return false;
    std::memcpy(p, payload, size);
    w.commit();
    return true;
  }
  std::vector<uint8_t> bytes(const std::vector<uint8_t>& guestWrites = {}) const {
    // Everything from the first ring header to the end of bulk region 0.
    const size_t image = memory.size() - g.rings_offset();
    std::vector<uint8_t> out = {selector, flags, uint8_t(image), uint8_t(image >> 8)};
    out.insert(out.end(), memory.begin() + g.rings_offset(), memory.end());
    out.insert(out.end(), guestWrites.begin(), guestWrites.end());
    return out;
  }
};

std::vector<std::vector<uint8_t>> transportSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  // Real protocol commands as ring payloads.
  const auto commands = protocolStreams();

  {  // One ring, data records, some with replies.
    TransportSeed s(0x00 | (2 << 2), 0x07 | (3 << 3));
    RingWriter w = s.writer(0);
    for (size_t i = 0; i < commands.size() && i < 3; i++)
      s.record(w, RecordKind::Data, uint32_t(i % 2), commands[i].data(), uint32_t(commands[i].size() & ~size_t(3)));
    seeds.push_back(s.bytes());
  }
  {  // Records up to the ring end, then a pad record (what a guest writes before wrapping).
    TransportSeed s(0x00, 0x07 | (2 << 3));
    RingWriter w = s.writer(0);
    uint32_t words[30] = {0x01020304, 0x100};
    for (int i = 0; i < 33; i++)
      s.record(w, RecordKind::Data, 0, words, 112);
    // 33 records of 120 bytes end at 3960; pad the last 136 bytes by hand.
    uint8_t* base = s.memory.data() + s.g.rings_offset();
    RecordHeader pad = {make_size_kind(RecordKind::Pad, 0), 0};
    std::memcpy(base + kRingHeaderSize + 3960, &pad, sizeof pad);
    const uint64_t head = s.g.ring_size;
    std::memcpy(base + offsetof(RingHeader, head), &head, sizeof head);
    seeds.push_back(s.bytes());
  }
  {  // Out-of-line commands in bulk region 0 and region 1.
    TransportSeed s(0x01 | (2 << 2) | 0x40, 0x03 | (4 << 3));
    const auto& big = commands[4];
    std::memcpy(s.memory.data() + s.g.bulk_offset() + 64, big.data(), big.size());
    RingWriter w = s.writer(0);
    npt::transport::BulkRef ref0 = {0, 0, 64, big.size()};
    npt::transport::BulkRef ref1 = {1, 0, 16, 256};
    s.record(w, RecordKind::Bulk, 1, &ref0, sizeof ref0);
    s.record(w, RecordKind::Bulk, 0, &ref1, sizeof ref1);
    seeds.push_back(s.bytes());
  }
  {  // Two rings ordered by waits, replies on several slots.
    TransportSeed s(0x01 | (1 << 2) | (2 << 4), 0x07 | (3 << 3));
    RingWriter w0 = s.writer(0), w1 = s.writer(1);
    for (int i = 0; i < 3; i++)
      s.record(w0, RecordKind::Data, uint32_t(1 + i), commands[0].data(), uint32_t(commands[0].size()));
    uint64_t seq = 2;
    s.record(w1, RecordKind::Wait, 0, &seq, sizeof seq);
    s.record(w1, RecordKind::Data, 0, commands[1].data(), uint32_t(commands[1].size()));
    seeds.push_back(s.bytes());
  }
  {  // Four rings, the guest rewriting memory while the host works.
    TransportSeed s(0x03 | (1 << 2) | (3 << 4), 0x87 | (2 << 3));
    for (uint32_t r = 0; r < 4; r++) {
      RingWriter w = s.writer(r);
      s.record(w, RecordKind::Data, r, commands[r].data(), uint32_t(commands[r].size()));
      s.record(w, RecordKind::Data, 0, commands[r].data(), uint32_t(commands[r].size()));
    }
    std::vector<uint8_t> writes;
    for (uint16_t i = 0; i < 16; i++) {
      const uint16_t offset = uint16_t((s.g.rings_offset() + 8 + i * 4) / 4);
      const uint32_t value = 0x10000000u * (i % 5) + i;
      writes.insert(writes.end(), {uint8_t(offset), uint8_t(offset >> 8), uint8_t(value), uint8_t(value >> 8),
                                   uint8_t(value >> 16), uint8_t(value >> 24)});
    }
    seeds.push_back(s.bytes(writes));
  }
  return seeds;
}

// Host-info blobs as a host serializes them: an empty one and one shaped like
// wined3d's answer (every feature, every format, one output with modes).
std::vector<std::vector<uint8_t>> hostInfoSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  HostInfo info;
  std::vector<uint8_t> blob;
  serializeHostInfo(info, blob);
  seeds.push_back(blob);
  info.featureLevel = D3D_FEATURE_LEVEL_11_1;
  for (uint32_t f = 0; f <= 19; f++) {
    HostFeature feature;
    feature.feature = D3D11_FEATURE(f);
    feature.size = 4 * (1 + f % 6);
    feature.data[0] = 1;
    info.features.push_back(feature);
  }
  for (uint32_t f = 1; f <= 132; f++) {
    HostFormat format;
    format.format = DXGI_FORMAT(f);
    format.support = 0x1ff;
    format.qualityLevels = {1, 1, 1, 1, 0, 0};
    info.formats.push_back(format);
  }
  const char16_t* name = u"Wine adapter";
  for (size_t i = 0; name[i]; i++) info.adapter.description[i] = uint16_t(name[i]);
  HostOutput output;
  output.deviceName[0] = '\\';
  output.desktopCoordinates = {0, 0, 1920, 1080};
  output.attachedToDesktop = 1;
  output.rotation = DXGI_MODE_ROTATION_IDENTITY;
  for (UINT width : {640u, 1280u, 1920u}) {
    DXGI_MODE_DESC mode = {};
    mode.Width = width;
    mode.Height = width * 9 / 16;
    mode.RefreshRate = {60, 1};
    mode.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    output.modes.push_back(mode);
  }
  info.outputs.push_back(output);
  serializeHostInfo(info, blob);
  seeds.push_back(blob);
  return seeds;
}

}  // namespace

// Executor seeds: streams a guest sends from its first command (device creation), so
// the executor target starts from live objects. The samples' captured streams
// (tests/fuzz/seeds/executor/) are the realistic ones; these cover a few families alone.
std::vector<std::vector<uint8_t>> executorStreams() {
  constexpr ObjectId device = 1, context = 2;
  std::vector<std::vector<uint8_t>> streams;
  auto stream = [&](auto&& encode) {
    std::vector<uint8_t> buffer(64u << 10);
    CommandWriter w(buffer.data(), buffer.size());
    const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    encode_D3D11CreateDevice(w, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, 2, D3D11_SDK_VERSION, device, context);
    encode(w);
    if (!w.ok()) {
      std::fprintf(stderr, "executor seed %zu did not encode\n", streams.size());
      return;
    }
    buffer.resize(w.size());
    streams.push_back(std::move(buffer));
  };
  stream([&](CommandWriter& w) {
    D3D11_TEXTURE2D_DESC desc = {};
    desc.Width = 64;
    desc.Height = 32;
    desc.MipLevels = 0;
    desc.ArraySize = 2;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
    encode_ID3D11Device_CreateTexture2D(w, device, &desc, 0, nullptr, 10);
    encode_ID3D11Device_CreateShaderResourceView(w, device, 10, nullptr, 11);
    D3D11_RENDER_TARGET_VIEW_DESC rtv = {};
    rtv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    rtv.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
    rtv.Texture2DArray.MipSlice = 1;
    rtv.Texture2DArray.FirstArraySlice = 1;
    rtv.Texture2DArray.ArraySize = 1;
    encode_ID3D11Device_CreateRenderTargetView(w, device, 10, &rtv, 12);
    const FLOAT color[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    encode_ID3D11DeviceContext_ClearRenderTargetView(w, context, 12, color);
    ObjectId rtvs[] = {12};
    encode_ID3D11DeviceContext_OMSetRenderTargets(w, context, 1, rtvs, 0);
    ObjectId srvs[] = {11};
    encode_ID3D11DeviceContext_PSSetShaderResources(w, context, 3, 1, srvs);
    D3D11_BOX box = {0, 0, 0, 4, 4, 1};
    static const uint8_t pixels[64] = {1, 2, 3, 4};
    encode_ID3D11DeviceContext_UpdateSubresource(w, context, 10, 0, &box, Payload::inlineBytes(pixels, sizeof pixels),
                                                16, 64);
    encode_ID3D11DeviceContext_CopySubresourceRegion(w, context, 10, 1, 1, 2, 0, 10, 0, &box);
    encode_ID3D11DeviceContext_GenerateMips(w, context, 11);
    w.begin(OpDestroyObject);
    w.u32(11);
    w.end();
  });
  stream([&](CommandWriter& w) {
    D3D11_BUFFER_DESC desc = {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_SHADER_RESOURCE, 0, 0, 0};
    NPT_SUBRESOURCE_DATA initial = {{0, 0, 256}, 0, 0};
    encode_ID3D11Device_CreateBuffer(w, device, &desc, 1, &initial, 10);
    D3D11_BUFFER_DESC staging = {256, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, 0, 0};
    encode_ID3D11Device_CreateBuffer(w, device, &staging, 0, nullptr, 11);
    D3D11_BUFFER_DESC args = {64, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, 0};
    encode_ID3D11Device_CreateBuffer(w, device, &args, 0, nullptr, 12);
    ObjectId buffers[] = {10};
    UINT strides[] = {16};
    UINT offsets[] = {0};
    encode_ID3D11DeviceContext_IASetVertexBuffers(w, context, 0, 1, buffers, strides, offsets);
    encode_ID3D11DeviceContext_IASetPrimitiveTopology(w, context, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    encode_ID3D11DeviceContext_Draw(w, context, 3, 0);
    encode_ID3D11DeviceContext_DrawInstancedIndirect(w, context, 12, 16);
    encode_ID3D11DeviceContext_CopyResource(w, context, 11, 10);
    encode_ID3D11DeviceContext_Map(w, context, 11, 0, D3D11_MAP_READ, 0);
    encode_ID3D11DeviceContext_Unmap(w, context, 11, 0, D3D11_MAP_READ, 0, nullptr, Payload::none());
    D3D11_SHADER_RESOURCE_VIEW_DESC srv = {};
    srv.Format = DXGI_FORMAT_R32_FLOAT;
    srv.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    srv.Buffer.FirstElement = 4;
    srv.Buffer.NumElements = 60;
    encode_ID3D11Device_CreateShaderResourceView(w, device, 10, &srv, 13);
  });
  stream([&](CommandWriter& w) {
    D3D11_QUERY_DESC event = {D3D11_QUERY_EVENT, 0};
    encode_ID3D11Device_CreateQuery(w, device, &event, 10);
    encode_BindPushSlot(w, 10, 3);
    encode_ID3D11DeviceContext_End(w, context, 10);
    D3D11_QUERY_DESC occlusion = {D3D11_QUERY_OCCLUSION_PREDICATE, 0};
    encode_ID3D11Device_CreatePredicate(w, device, &occlusion, 11);
    encode_ID3D11DeviceContext_Begin(w, context, 11);
    encode_ID3D11DeviceContext_End(w, context, 11);
    encode_ID3D11DeviceContext_SetPredication(w, context, 11, 0);
    encode_ID3D11Device_CreateDeferredContext(w, device, 0, 12);
    encode_ID3D11DeviceContext_Draw(w, 12, 3, 0);
    encode_ID3D11DeviceContext_FinishCommandList(w, 12, 0, 13);
    encode_ID3D11DeviceContext_ExecuteCommandList(w, context, 13, 1);
    D3D11_SAMPLER_DESC sampler = {};
    sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_WRAP;
    sampler.MaxLOD = 1000.0f;
    encode_ID3D11Device_CreateSamplerState(w, device, &sampler, 14);
    ObjectId samplers[] = {14};
    encode_ID3D11DeviceContext_PSSetSamplers(w, context, 15, 1, samplers);
  });
  return streams;
}

// Registry target inputs (registry_input.h): operation scripts over an empty section, and
// sections an honest registry filled (header and first entries as the image; or one
// entry copied over the whole table, its holder a process that does not run), with
// scripts that name their entries, rewrite their words, and rewrite them from a second
// thread during a call.
class RegistrySeed {
public:
  RegistrySeed(uint8_t flags, const std::vector<uint8_t>& image = {}, uint16_t offset8 = 0, uint8_t copies = 0) {
    bytes = {flags, uint8_t(image.size()), uint8_t(image.size() >> 8), uint8_t(offset8), uint8_t(offset8 >> 8), copies};
    bytes.insert(bytes.end(), image.begin(), image.end());
  }
  RegistrySeed& op(npt::fuzz::RegistryOp op) { return u(op, 1); }
  RegistrySeed& u(uint64_t value, int size) {
    for (int i = 0; i < size; i++) bytes.push_back(uint8_t(value >> (8 * i)));
    return *this;
  }
  RegistrySeed& tracked(uint8_t i) { return u(uint8_t(i * 4), 1); }
  RegistrySeed& entry(uint8_t i) { return u(1, 1).u(i, 1); }
  RegistrySeed& name(const char* text) {
    u(std::strlen(text), 1);
    for (const char* p = text; *p; p++) u(uint8_t(*p), 1);
    return *this;
  }
  RegistrySeed& create(uint8_t kind, uint8_t flags, uint8_t context, uint32_t bytes, const char* nm) {
    op(npt::fuzz::OpCreate).u(kind, 1).u(flags, 1).u(context, 1).u(uint64_t(bytes) << 1, 4).u(1, 1);
    return nm ? name(nm) : u(0, 1);
  }
  // The next operation runs while a second thread writes a and b over [offset, +length).
  RegistrySeed& concurrent(uint32_t offset, uint16_t length, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                           uint16_t iterations) {
    op(npt::fuzz::OpConcurrent).u(offset, 4).u(length, 2).u(a.size(), 1);
    for (uint8_t x : a) u(x, 1);
    u(b.size(), 1);
    for (uint8_t x : b) u(x, 1);
    return u(iterations, 2);
  }
  std::vector<uint8_t> bytes;
};

std::vector<std::vector<uint8_t>> registrySeeds() {
  using namespace npt::fuzz;
  using namespace npt::sharing;
  std::vector<std::vector<uint8_t>> seeds;
  std::vector<uint64_t> words(Registry::sectionBytes() / 8);
  std::string error;
  auto registry = Registry::attach(reinterpret_cast<uint8_t*>(words.data()), Registry::sectionBytes(), true, &error, 1000);
  if (!registry) {
    std::fprintf(stderr, "registry seeds: %s\n", error.c_str());
    return seeds;
  }
  const uint32_t entryBytes = uint32_t(Registry::sectionBytes() / kCapacity);
  const uint32_t headerBytes = uint32_t(Registry::sectionBytes() - uint64_t(entryBytes) * kCapacity);
  const uint32_t desc[kDescWords] = {64, 32, 1, 1, 28, 1, 0, 0, 8, 0, 2, 0};

  // An honest life cycle on an empty section.
  RegistrySeed life(0);
  life.create(1, kFlagLegacyHandle, 1, 4096, nullptr)
      .create(0, kFlagNtHandle | kFlagKeyedMutex, 2, 1024, "surface")
      .create(2, kFlagNtHandle, 3, 0, nullptr);
  life.op(OpLookup).tracked(0).op(OpAcquireReference).tracked(0).u(1, 1).op(OpAcquireReference).tracked(1).u(4 | 2, 1);
  life.op(OpFindByName).name("surface").op(OpAddGuestObject).tracked(1).op(OpReleaseReference).tracked(1);
  life.op(OpOrphans).op(OpGuestObjects).tracked(1).op(OpTryAcquireMutex).tracked(1).u(2, 1).u(0, 1);
  life.op(OpReleaseMutex).tracked(1).u(2, 1).u(1, 1).op(OpSetFenceValue).tracked(2).u(42, 8);
  life.op(OpSyncEpoch).u(1, 1).u(0, 2).op(OpSyncEpoch).u(0, 1).u(100, 2).op(OpCountCopy).tracked(0).u(4096, 4);
  life.op(OpHolders).tracked(0).op(OpRegisterOrphanHolder).op(OpServerHeld).tracked(1).u(1, 1);
  life.op(OpReleaseGuestObject).tracked(1).op(OpReleaseReference).tracked(0).op(OpReleaseReference).tracked(0);
  life.op(OpAbandonMutex).tracked(1).u(2, 1).op(OpReclaim).op(OpLiveEntries);
  seeds.push_back(life.bytes);

  // A section an honest registry filled: eight entries of every kind, names, guest
  // objects, a held keyed mutex, a fence value.
  std::vector<uint64_t> handles;
  for (uint32_t i = 0; i < 8; i++) {
    const Kind kind = i % 3 == 0 ? Kind::Texture2D : i % 3 == 1 ? Kind::Buffer : Kind::Fence;
    const std::u16string name = u"shared-" + std::u16string(1, char16_t(u'0' + i));
    handles.push_back(registry->create(i + 1, kind, (i & 1 ? kFlagNtHandle : kFlagLegacyHandle) | (i == 3 ? kFlagKeyedMutex : 0),
                                       desc, 256 * (i + 1), i % 2 ? name.c_str() : nullptr));
  }
  registry->addGuestObject(handles[1]);
  registry->addGuestObject(handles[5]);
  registry->releaseReference(handles[5]);   // an orphan
  registry->tryAcquireKeyedMutex(handles[3], 4, 0);
  registry->setFenceValue(handles[2], 7);
  const uint8_t* raw = registry->rawData();
  const std::vector<uint8_t> filled(raw, raw + headerBytes + 8 * entryBytes);
  for (uint8_t flags : {0, 1, 3}) {
    RegistrySeed seed(flags, filled);
    for (uint8_t i = 0; i < 8; i++) seed.op(OpLookup).entry(i).op(OpAcquireReference).entry(i).u(4, 1);
    seed.op(OpFindByName).name("shared-3").op(OpOrphans).op(OpReleaseGuestObject).entry(5);
    seed.op(OpTryAcquireMutex).entry(3).u(5, 1).u(0, 1).op(OpReleaseMutex).entry(3).u(4, 1).u(0, 1);
    seed.op(OpWriteEntryWord).u(2, 1).u(5, 2).u(0, 4).op(OpReleaseReference).entry(2).op(OpLiveEntries);
    seeds.push_back(seed.bytes);
  }

  // One entry (a texture held by a process that does not run) over the whole table: a
  // full table, reclaimed by create.
  {
    std::vector<uint8_t> entry(raw + headerBytes, raw + headerBytes + entryBytes);
    // The first holder record (EntryRecord: holders at byte 272, 16 bytes each: pid,
    // references, start time): a pid beyond any process's.
    const uint32_t deadPid = 0x7ffffff0;
    std::memcpy(entry.data() + 272, &deadPid, 4);
    RegistrySeed full(0, entry, uint16_t(headerBytes / 8), 255);
    full.create(2, 0, 9, 0, nullptr).op(OpReclaim).create(1, kFlagLegacyHandle, 9, 64, "after").op(OpLiveEntries);
    seeds.push_back(full.bytes);
  }

  // Hostile writes between calls and from a second thread during one.
  for (uint8_t i = 0; i < 4; i++) {
    RegistrySeed seed(0, filled);
    const uint32_t at = headerBytes + i * entryBytes;
    seed.op(OpWrite).u(at + 20, 4).u(4, 1).u(0xffffffff, 4).op(OpLookup).entry(i);
    // State, generation and kind flipped to garbage and back while lookups run.
    seed.concurrent(at, 16, {1, 0, 0, 0}, {0, 0, 0, 0, 7, 0, 0, 0}, 4096).op(OpAcquireReference).entry(i).u(4, 1);
    seed.concurrent(at, 12, {0xff}, {1, 0, 0, 0}, 4096).op(OpLookup).entry(i);
    // The entry freed and live again, in turn, while it is opened and released.
    seed.concurrent(at, 4, {1, 0, 0, 0}, {0, 0, 0, 0}, 4096).op(OpAcquireReference).entry(i).u(4, 1);
    seed.concurrent(at, 4, {0, 0, 0, 0}, {1, 0, 0, 0}, 4096).op(OpReleaseReference).entry(i);
    // The lock word changing under a create, the holder records rewritten during one.
    seed.concurrent(20, 4, {1, 2, 3, 4}, {5, 6, 7, 8}, 256).create(0, 0, 1, 64, nullptr);
    seed.concurrent(at + 272, 256, {0x11, 0x22, 0x33, 0x44}, {0}, 8192).create(1, kFlagLegacyHandle, 1, 64, nullptr);
    seed.concurrent(at + 80, 128, {'x', 0}, {0}, 4096).op(OpFindByName).name("shared-1");
    seed.concurrent(40, 8, {1, 0, 0, 0, 1, 0, 0, 0}, {2, 0, 0, 0, 0, 0, 0, 0}, 4096).op(OpSyncEpoch).u(0, 1).u(500, 2);
    seed.concurrent(at + uint32_t(entryBytes - 8), 8, {1, 0, 0, 0}, {0, 0, 0, 1}, 4096).op(OpReleaseGuestObject).entry(i);
    seed.concurrent(at, 256, {3}, {1, 0, 0, 0}, 4096).op(OpReclaim);
    seed.op(OpOrphans).op(OpLiveEntries);
    seeds.push_back(seed.bytes);
  }
  return seeds;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <dir>\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  fs::create_directories(root / "protocol");
  fs::create_directories(root / "transport");
  const auto protocol = protocolStreams();
  for (size_t i = 0; i < protocol.size(); i++)
    save(root / "protocol" / ("stream-" + std::to_string(i)), protocol[i]);
  // The command streams in one, as a frame would send them (the last one is a Hello).
  std::vector<uint8_t> all;
  for (size_t i = 0; i + 1 < protocol.size(); i++)
    all.insert(all.end(), protocol[i].begin(), protocol[i].end());
  save(root / "protocol" / "stream-all", all);
  fs::create_directories(root / "hostinfo");
  const auto hostInfo = hostInfoSeeds();
  for (size_t i = 0; i < hostInfo.size(); i++)
    save(root / "hostinfo" / ("blob-" + std::to_string(i)), hostInfo[i]);
  fs::create_directories(root / "executor");
  const auto executor = executorStreams();
  for (size_t i = 0; i < executor.size(); i++)
    save(root / "executor" / ("stream-" + std::to_string(i)), executor[i]);
  fs::create_directories(root / "registry");
  const auto registry = registrySeeds();
  for (size_t i = 0; i < registry.size(); i++)
    save(root / "registry" / ("script-" + std::to_string(i)), registry[i]);
  const auto transport = transportSeeds();
  for (size_t i = 0; i < transport.size(); i++)
    save(root / "transport" / ("context-" + std::to_string(i)), transport[i]);
  std::printf("%zu protocol, %zu transport and %zu host-info seeds in %s\n", protocol.size() + 1, transport.size(),
              hostInfo.size(), root.c_str());
  return 0;
}
