// SPDX-License-Identifier: MIT
// Hand-written malformed-stream catalogue: every case must end the stream
// with its stable error code and must not reach the dispatch.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <set>

#include "harness.h"

using namespace npt::protocol;

namespace {

  struct Stream {
    std::vector<uint32_t> words;
    void cmd(uint16_t opcode, std::initializer_list<uint32_t> args) {
      words.push_back(packHeader(opcode, uint16_t(args.size() + 1)));
      words.insert(words.end(), args);
    }
  };

  struct Fixture : ::testing::Test {
    DecodeContext     ctx;
    RecordingDispatch rec;
    ObjectId context = 1, srv = 2, sampler = 3, rtv = 4, texture = 5;

    void SetUp() override {
      ctx.handles.create(context, Iface_ID3D11DeviceContext);
      ctx.handles.create(srv, Iface_ID3D11ShaderResourceView);
      ctx.handles.create(sampler, Iface_ID3D11SamplerState);
      ctx.handles.create(rtv, Iface_ID3D11RenderTargetView);
      ctx.handles.create(texture, Iface_ID3D11Texture2D);
    }
    DecodeResult run(const std::vector<uint32_t>& w) {
      StreamDecoder dec(ctx, rec);
      return dec.decode(w.data(), w.size() * 4);
    }
    DecodeResult run(const void* p, size_t n) {
      StreamDecoder dec(ctx, rec);
      return dec.decode(p, n);
    }
  };

}

TEST_F(Fixture, WireCostOfHotCommands) {
  uint8_t buf[256];
  CommandWriter w(buf, sizeof buf);
  w.select(context);
  size_t afterSelect = w.size();
  ASSERT_TRUE(encode_ID3D11DeviceContext_DrawIndexed(w, context, 36, 0, 0));
  EXPECT_LE(w.size() - afterSelect, 16u);
  size_t before = w.size();
  ObjectId one[] = { srv };
  ASSERT_TRUE(encode_ID3D11DeviceContext_PSSetShaderResources(w, context, 3, 1, one));
  EXPECT_LE(w.size() - before, 24u);
  EXPECT_EQ(before, afterSelect + 16) << "the select is not repeated for the same object";
  EXPECT_EQ(run(buf, w.size()).code, ErrorCode::Ok);
  ASSERT_EQ(rec.calls.size(), 2u);
}

TEST_F(Fixture, UnknownIdIsFatal) {
  Stream s;
  s.cmd(OpSelectObject, {context});
  s.cmd(Op_ID3D11DeviceContext_PSSetShaderResources, {1, 0, 999});
  DecodeResult r = run(s.words);
  EXPECT_EQ(r.code, ErrorCode::UnknownObject);
  EXPECT_EQ(r.offset, 8u);
  EXPECT_TRUE(rec.calls.empty());
}

TEST_F(Fixture, WrongTypeHandleIsFatal) {
  Stream s;
  s.cmd(OpSelectObject, {context});
  s.cmd(Op_ID3D11DeviceContext_PSSetShaderResources, {1, 0, sampler});
  EXPECT_EQ(run(s.words).code, ErrorCode::WrongObjectType);
  Stream t;
  t.cmd(OpSelectObject, {srv});  // a view is not a context
  t.cmd(Op_ID3D11DeviceContext_DrawIndexed, {3, 0, 0});
  EXPECT_EQ(run(t.words).code, ErrorCode::WrongObjectType);
  EXPECT_TRUE(rec.calls.empty());
}

TEST_F(Fixture, VersionedAndDxgiInterfacesOfOneObjectAreAccepted) {
  EXPECT_TRUE(interfaceAccepts(Iface_ID3D11Texture2D, Iface_ID3D11Resource));
  EXPECT_TRUE(interfaceAccepts(Iface_ID3D11Texture2D, Iface_IDXGISurface));
  EXPECT_TRUE(interfaceAccepts(Iface_ID3D11Texture2D, Iface_ID3D11Texture2D1));
  EXPECT_TRUE(interfaceAccepts(Iface_ID3D11Device, Iface_ID3D11Device5));
  EXPECT_TRUE(interfaceAccepts(Iface_ID3D11Device, Iface_IDXGIDevice));
  EXPECT_FALSE(interfaceAccepts(Iface_ID3D11Texture2D, Iface_ID3D11Buffer));
  EXPECT_FALSE(interfaceAccepts(Iface_ID3D11SamplerState, Iface_ID3D11View));
}

TEST_F(Fixture, OversizedCountsAreRejectedBeforeAllocation) {
  for (uint32_t count : {129u, 0x10000u, 0x0fffffffu, 0xffffffffu}) {
    Stream s;
    s.cmd(OpSelectObject, {context});
    s.cmd(Op_ID3D11DeviceContext_PSSetShaderResources, {count, 0, srv});
    EXPECT_EQ(run(s.words).code, ErrorCode::CountTooLarge) << count;
  }
  // Within the bound but beyond the bytes present: truncated, no allocation.
  Stream s;
  s.cmd(OpSelectObject, {context});
  s.cmd(Op_ID3D11DeviceContext_PSSetShaderResources, {128, 0, srv});
  EXPECT_EQ(run(s.words).code, ErrorCode::Truncated);
  EXPECT_TRUE(rec.calls.empty());
}

TEST_F(Fixture, HeaderErrors) {
  Stream zero;
  zero.words.push_back(packHeader(Op_ID3D11DeviceContext_Draw, 0));
  EXPECT_EQ(run(zero.words).code, ErrorCode::BadHeader);
  Stream longer;
  longer.words.push_back(packHeader(Op_ID3D11DeviceContext_Draw, 40));
  EXPECT_EQ(run(longer.words).code, ErrorCode::Truncated);
  uint8_t partial[3] = {1, 0, 2};
  EXPECT_EQ(run(partial, 3).code, ErrorCode::Truncated);
}

TEST_F(Fixture, UnknownOpcodes) {
  for (uint16_t op : {uint16_t(0x00ff), uint16_t(0xff00), uint16_t(0xfe7f), uint16_t(Op_ID3D11DeviceContext_Draw | 0x7f)}) {
    Stream s;
    s.cmd(OpSelectObject, {context});
    s.cmd(op, {1, 2});
    EXPECT_EQ(run(s.words).code, ErrorCode::UnknownOpcode) << std::hex << op;
  }
}

TEST_F(Fixture, InterfacesTheHostDidNotAdvertiseAreUnknown) {
  std::vector<uint8_t> bitmap((kInterfaceCount + 7) / 8, 0xff);
  bitmap[Iface_ID3D11DeviceContext1 >> 3] &= uint8_t(~(1u << (Iface_ID3D11DeviceContext1 & 7)));
  ctx.supportedIfaces = bitmap.data();
  Stream s;
  s.cmd(OpSelectObject, {context});
  s.cmd(Op_ID3D11DeviceContext1_DiscardResource, {texture});
  EXPECT_EQ(run(s.words).code, ErrorCode::UnknownOpcode);
  Stream ok;
  ok.cmd(Op_ID3D11DeviceContext_Draw, {3, 0});
  EXPECT_EQ(run(ok.words).code, ErrorCode::Ok);
}

TEST_F(Fixture, TrailingBytesAndMissingSelection) {
  Stream s;
  s.cmd(Op_ID3D11DeviceContext_Draw, {3, 0});
  EXPECT_EQ(run(s.words).code, ErrorCode::NoObjectSelected);
  Stream t;
  t.cmd(OpSelectObject, {context});
  t.cmd(Op_ID3D11DeviceContext_Draw, {3, 0, 7});
  EXPECT_EQ(run(t.words).code, ErrorCode::TrailingBytes);
}

TEST_F(Fixture, NullWhereTheApiRequiresAnObject) {
  Stream s;
  s.cmd(OpSelectObject, {context});
  s.cmd(Op_ID3D11DeviceContext_ClearRenderTargetView, {0, 0, 0, 0, 0});
  EXPECT_EQ(run(s.words).code, ErrorCode::NullNotAllowed);
}

TEST_F(Fixture, UnionDiscriminatorMustNameAnArm) {
  uint8_t buf[512];
  CommandWriter w(buf, sizeof buf);
  D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
  desc.Texture2D.MipLevels = 1;
  ctx.handles.create(50, Iface_ID3D11Device);
  ASSERT_TRUE(encode_ID3D11Device_CreateShaderResourceView(w, 50, texture, &desc, 77));
  // Patch the dimension word (after select(8), header(4), resource(4), present(4), format(4)).
  uint32_t noArm = 12;  // inside D3D_SRV_DIMENSION's range, names no arm
  std::memcpy(buf + 24, &noArm, 4);
  EXPECT_EQ(run(buf, w.size()).code, ErrorCode::BadUnionArm);
  EXPECT_FALSE(ctx.handles.contains(77));
  uint32_t outOfRange = 99;  // beyond the enum's range: never converted
  std::memcpy(buf + 24, &outOfRange, 4);
  EXPECT_EQ(run(buf, w.size()).code, ErrorCode::BadEnum);
  desc.ViewDimension = D3D11_SRV_DIMENSION_UNKNOWN;
  CommandWriter w2(buf, sizeof buf);
  EXPECT_FALSE(encode_ID3D11Device_CreateShaderResourceView(w2, 50, texture, &desc, 77));
}

TEST_F(Fixture, CreateCannotReuseALiveIdOrZero) {
  uint8_t buf[512];
  D3D11_SAMPLER_DESC desc{};
  ctx.handles.create(50, Iface_ID3D11Device);
  for (ObjectId id : {sampler, ObjectId(0)}) {
    CommandWriter w(buf, sizeof buf);
    ASSERT_TRUE(encode_ID3D11Device_CreateSamplerState(w, 50, &desc, id));
    EXPECT_EQ(run(buf, w.size()).code, ErrorCode::ObjectIdInUse);
  }
  CommandWriter w(buf, sizeof buf);
  ASSERT_TRUE(encode_ID3D11Device_CreateSamplerState(w, 50, &desc, 60));
  EXPECT_EQ(run(buf, w.size()).code, ErrorCode::Ok);
  EXPECT_EQ(ctx.handles.ifaceOf(60), Iface_ID3D11SamplerState);
}

TEST_F(Fixture, DestroyedObjectsAreUnknown) {
  Stream s;
  s.cmd(OpDestroyObject, {srv});
  s.cmd(OpSelectObject, {context});
  s.cmd(Op_ID3D11DeviceContext_PSSetShaderResources, {1, 0, srv});
  EXPECT_EQ(run(s.words).code, ErrorCode::UnknownObject);
  ASSERT_EQ(rec.calls.size(), 1u);
  EXPECT_EQ(rec.calls[0], "destroy(2)");
  Stream again;
  again.cmd(OpDestroyObject, {srv});
  EXPECT_EQ(run(again.words).code, ErrorCode::UnknownObject);
}

TEST_F(Fixture, StringsWithEmbeddedNulOrBeyondTheirBoundAreRejected) {
  ctx.handles.create(50, Iface_ID3D11Device);
  D3D11_INPUT_ELEMENT_DESC e{};
  e.SemanticName = "POSITION";
  uint8_t code[16] = {1, 2, 3};
  uint8_t buf[512];
  CommandWriter w(buf, sizeof buf);
  ASSERT_TRUE(encode_ID3D11Device_CreateInputLayout(w, 50, &e, 1, Payload::inlineBytes(code, 16), 70));
  // The semantic bytes start after select(8) header(4) count(4) len(4).
  std::vector<uint8_t> nul(buf, buf + w.size());
  nul[20 + 2] = 0;
  EXPECT_EQ(run(nul.data(), nul.size()).code, ErrorCode::BadString);
  std::vector<uint8_t> huge(buf, buf + w.size());
  uint32_t len = 100000;
  std::memcpy(huge.data() + 16, &len, 4);
  EXPECT_EQ(run(huge.data(), huge.size()).code, ErrorCode::BadString);
  EXPECT_EQ(run(buf, w.size()).code, ErrorCode::Ok);
}

// Arrays that need converting (structs, enums) are decoded into the arena.
TEST_F(Fixture, ArenaQuotaBoundsDecodedMemory) {
  DecodeContext small(64);
  small.handles.create(context, Iface_ID3D11DeviceContext);
  std::vector<D3D11_VIEWPORT> viewports(16, D3D11_VIEWPORT{0, 0, 64, 64, 0, 1});
  std::vector<uint8_t> buf(4096);
  CommandWriter w(buf.data(), buf.size());
  ASSERT_TRUE(encode_ID3D11DeviceContext_RSSetViewports(w, context, 16, viewports.data()));
  StreamDecoder dec(small, rec);
  EXPECT_EQ(dec.decode(buf.data(), w.size()).code, ErrorCode::QuotaExceeded);
  EXPECT_TRUE(rec.calls.empty());
}

// Arrays of ids and 4-byte scalars are used where they lie in the decoder's private
// copy: no arena at all (a 64-byte arena would not hold 128 ids). A misaligned batch
// given to decodePrivate is copied whole into the decoder's own (aligned) buffer first,
// and decodeCommands itself refuses a misaligned batch rather than read misaligned words.
TEST_F(Fixture, WordArraysAreReadInPlaceFromAnAlignedBatch) {
  std::vector<ObjectId> views(128, srv);
  std::vector<uint8_t> buf(4096);
  CommandWriter w(buf.data(), buf.size());
  ASSERT_TRUE(encode_ID3D11DeviceContext_PSSetShaderResources(w, context, 0, 128, views.data()));

  DecodeContext small(64);
  small.handles.create(context, Iface_ID3D11DeviceContext);
  small.handles.create(srv, Iface_ID3D11ShaderResourceView);
  RecordingDispatch aligned;
  StreamDecoder inPlace(small, aligned);
  EXPECT_EQ(inPlace.decodePrivate(buf.data(), w.size()).code, ErrorCode::Ok);
  ASSERT_EQ(aligned.calls.size(), 1u);

  std::vector<uint8_t> shifted(w.size() + 1);
  std::memcpy(shifted.data() + 1, buf.data(), w.size());
  RecordingDispatch copied;
  StreamDecoder viaCopy(small, copied);
  EXPECT_EQ(viaCopy.decodePrivate(shifted.data() + 1, w.size()).code, ErrorCode::Ok);
  EXPECT_EQ(copied.calls, aligned.calls);

  RecordingDispatch direct;
  DecodeResult result;
  decodeCommands(shifted.data() + 1, w.size(), small, direct, nullptr, nullptr, result);
  EXPECT_EQ(result.code, ErrorCode::BadHeader);
  EXPECT_EQ(result.offset, 0u);
  EXPECT_TRUE(direct.calls.empty());
}

TEST(Writer, OverflowIsStickyAndReported) {
  uint8_t buf[20];
  CommandWriter w(buf, sizeof buf);
  EXPECT_TRUE(encode_ID3D11DeviceContext_Draw(w, 1, 3, 0));  // select 8 + draw 12: exactly full
  EXPECT_EQ(w.size(), 20u);
  EXPECT_FALSE(encode_ID3D11DeviceContext_Draw(w, 1, 3, 0));
  EXPECT_FALSE(w.ok());
  w.clear();
  EXPECT_TRUE(w.ok());
  CommandWriter small(buf, 8);
  EXPECT_FALSE(encode_ID3D11DeviceContext_DrawIndexed(small, 1, 3, 0, 0));
  EXPECT_FALSE(small.ok());
}

TEST(Tables, EveryInterfaceIdRoundTripsThroughItsIid) {
  int named = 0, aliases = 0;
  for (uint16_t id = 1; id < kInterfaceCount; id++) {
    const GUID* iid = interfaceIid(id);
    if (!iid) continue;
    named++;
    // ID3D10Multithread and ID3D11Multithread share one IID: lookups give the first.
    uint16_t found = ifaceFromIid(*iid);
    ASSERT_NE(found, 0) << interfaceName(id);
    EXPECT_EQ(std::memcmp(interfaceIid(found), iid, sizeof(GUID)), 0) << interfaceName(id);
    if (found != id) aliases++;
    EXPECT_TRUE(interfaceAccepts(id, id)) << interfaceName(id);
    EXPECT_TRUE(interfaceAccepts(id, 0)) << "IUnknown accepts " << interfaceName(id);
  }
  EXPECT_GT(named, 100);
  EXPECT_EQ(aliases, 1);
  GUID zero{};
  EXPECT_EQ(ifaceFromIid(zero), 0);
  EXPECT_EQ(interfaceName(0), nullptr);
}

TEST(Tables, OpcodesNameTheirMethodAndPolicy) {
  int remoted = 0;
  for (uint32_t op = 0x100; op < 0x10000; op++) {
    const char* name = opcodeName(uint16_t(op));
    const char* policy = opcodePolicy(uint16_t(op));
    EXPECT_EQ(name == nullptr, policy == nullptr) << op;
    if (!name) continue;
    remoted++;
    std::string p = policy;
    EXPECT_TRUE(p == "async" || p == "create" || p == "sync") << name;
    if ((op >> 8) != kEntryInterfaceId) {
      EXPECT_EQ(std::string(name).rfind(std::string(interfaceName(uint16_t(op >> 8))) + "::", 0), 0u) << name;
    }
  }
  EXPECT_GE(remoted, 150);
  EXPECT_STREQ(opcodeName(Op_ID3D11DeviceContext_DrawIndexed), "ID3D11DeviceContext::DrawIndexed");
  EXPECT_STREQ(opcodePolicy(Op_ID3D11Device_CreateBuffer), "create");
  EXPECT_STREQ(opcodePolicy(Op_D3D11CreateDevice), "sync");
}

TEST(Tables, ErrorNamesAreStableAndDistinct) {
  std::set<std::string> names;
  for (uint32_t c = 0; c <= uint32_t(ErrorCode::BadEnum); c++)
    names.insert(errorName(ErrorCode(c)));
  EXPECT_EQ(names.size(), size_t(ErrorCode::BadEnum) + 1);
  EXPECT_STREQ(errorName(ErrorCode::Truncated), "truncated");
  EXPECT_STREQ(errorName(ErrorCode(9999)), "unknown-error");
}

TEST_F(Fixture, MapReadReplyCarriesPitchesAndBytes) {
  std::vector<uint8_t> replies;
  ctx.replies = &replies;
  uint8_t buf[64];
  CommandWriter w(buf, sizeof buf);
  ASSERT_TRUE(encode_ID3D11DeviceContext_Map(w, context, texture, 0, D3D11_MAP_READ, 0));
  ASSERT_EQ(run(buf, w.size()).code, ErrorCode::Ok);
  ASSERT_EQ(rec.outs.size(), 1u);
  HRESULT hr = 0;
  UINT row = 0, depth = 0;
  Payload data;
  ASSERT_EQ(decodeReply_ID3D11DeviceContext_Map(replies.data(), replies.size(), &hr, &row, &depth, &data), ErrorCode::Ok);
  EXPECT_FALSE(data.isNull);
  EXPECT_EQ(data.size, 45u);
  std::string s;
  canonInt(s, row); canonInt(s, depth); canonPayload(s, data);
  EXPECT_EQ(s, rec.outs[0]);
  // A reply cut anywhere is refused, never read past its end.
  for (size_t n = 0; n < replies.size(); n++)
    EXPECT_NE(decodeReply_ID3D11DeviceContext_Map(replies.data(), n, &hr, &row, &depth, &data), ErrorCode::Ok) << n;
}

// README 3.1: an enum value beyond its type's range, where Windows answers
// E_INVALIDARG (desc fields, parameters), decodes to the enum's reserved
// invalid value and reaches the dispatch (validation refuses it there); a union
// discriminator, or an enum whose range has no free value, stays fatal (below).
TEST_F(Fixture, OutOfRangeEnumsInDescsAndParametersReachValidation) {
  ctx.handles.create(50, Iface_ID3D11Device);
  uint8_t buf[512];
  CommandWriter w(buf, sizeof buf);
  D3D11_SAMPLER_DESC sampler{};
  sampler.Filter = D3D11_FILTER_ANISOTROPIC;
  ASSERT_TRUE(encode_ID3D11Device_CreateSamplerState(w, 50, &sampler, 61));
  uint32_t filter;
  std::memcpy(&filter, buf + 12, 4);  // select(8), header(4), then Filter
  ASSERT_EQ(filter, uint32_t(D3D11_FILTER_ANISOTROPIC));
  for (uint32_t bad : {0x200u, 0xdeadbeefu, 0xffffffffu}) {
    std::memcpy(buf + 12, &bad, 4);
    ctx.handles.destroy(61);
    ASSERT_EQ(run(buf, w.size()).code, ErrorCode::Ok) << bad;
    EXPECT_EQ(rec.calls.back().find("{Filter=1ff;"), rec.calls.back().find('{')) << rec.calls.back();
  }

  Stream topology;
  topology.cmd(OpSelectObject, {context});
  topology.cmd(Op_ID3D11DeviceContext_IASetPrimitiveTopology, {0xffffffffu});
  ASSERT_EQ(run(topology.words).code, ErrorCode::Ok);
  EXPECT_EQ(rec.calls.back(), "ID3D11DeviceContext::IASetPrimitiveTopology(self=1;Topology=7f;)");
}

namespace {

// The byte offset of the one 32-bit word where two encodings differ (the field that
// differs between them), so a test can overwrite that field and nothing else.
size_t differingWord(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  EXPECT_EQ(a.size(), b.size());
  size_t found = SIZE_MAX;
  for (size_t i = 0; i + 4 <= a.size() && i + 4 <= b.size(); i += 4)
    if (std::memcmp(&a[i], &b[i], 4) != 0) {
      EXPECT_EQ(found, SIZE_MAX) << "the encodings differ in more than one word";
      found = i;
    }
  EXPECT_NE(found, SIZE_MAX) << "the encodings are identical";
  return found;
}

// An enum whose enumerators fill its type's whole range (0..max) has no value left to
// stand for "invalid": a guest value beyond max could only be held by converting it
// into the enum, which is undefined behaviour (what UBSan reported from the fuzzers).
// The guest runtime refuses such a value at the call (E_INVALIDARG) before anything is
// encoded, so the host never decodes one from a guest that follows the protocol: the
// decoder ends the stream (BadEnum), dispatches nothing and creates nothing.
struct FullRangeEnum {
  const char* name;
  uint32_t    max;
  uint16_t    deviceIface;
  ObjectId    created;
  // Encodes the call with the field set to `value` (a valid value of the enum).
  std::function<bool(CommandWriter&, uint32_t value)> encode;
};

}

TEST(FullRangeEnums, AValueBeyondTheRangeIsFatalAndCreatesNothing) {
  const ObjectId device = 50;
  static const uint8_t code[16] = {};
  const std::vector<FullRangeEnum> cases = {
    {"D3D11_USAGE (buffer)", 3, Iface_ID3D11Device, 62, [&](CommandWriter& w, uint32_t v) {
       D3D11_BUFFER_DESC d{16, D3D11_USAGE(v), D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
       return encode_ID3D11Device_CreateBuffer(w, device, &d, 0, nullptr, 62); }},
    {"D3D11_USAGE (texture 3D)", 3, Iface_ID3D11Device, 63, [&](CommandWriter& w, uint32_t v) {
       D3D11_TEXTURE3D_DESC d{4, 4, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE(v), D3D11_BIND_SHADER_RESOURCE, 0, 0};
       return encode_ID3D11Device_CreateTexture3D(w, device, &d, 0, nullptr, 63); }},
    {"D3D11_DEPTH_WRITE_MASK", 1, Iface_ID3D11Device, 64, [&](CommandWriter& w, uint32_t v) {
       D3D11_DEPTH_STENCIL_DESC d{};
       d.DepthWriteMask = D3D11_DEPTH_WRITE_MASK(v);
       return encode_ID3D11Device_CreateDepthStencilState(w, device, &d, 64); }},
    {"D3D11_INPUT_CLASSIFICATION", 1, Iface_ID3D11Device, 65, [&](CommandWriter& w, uint32_t v) {
       D3D11_INPUT_ELEMENT_DESC e{"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_CLASSIFICATION(v), 0};
       return encode_ID3D11Device_CreateInputLayout(w, device, &e, 1, Payload::inlineBytes(code, sizeof code), 65); }},
    {"D3D11_QUERY", 15, Iface_ID3D11Device, 66, [&](CommandWriter& w, uint32_t v) {
       D3D11_QUERY_DESC d{D3D11_QUERY(v), 0};
       return encode_ID3D11Device_CreateQuery(w, device, &d, 66); }},
    {"D3D11_LOGIC_OP", 15, Iface_ID3D11Device1, 67, [&](CommandWriter& w, uint32_t v) {
       D3D11_BLEND_DESC1 d{};
       d.RenderTarget[0].LogicOp = D3D11_LOGIC_OP(v);
       return encode_ID3D11Device1_CreateBlendState1(w, device, &d, 67); }},
    {"D3D11_CONSERVATIVE_RASTERIZATION_MODE", 1, Iface_ID3D11Device3, 68, [&](CommandWriter& w, uint32_t v) {
       D3D11_RASTERIZER_DESC2 d{};
       d.ConservativeRaster = D3D11_CONSERVATIVE_RASTERIZATION_MODE(v);
       return encode_ID3D11Device3_CreateRasterizerState2(w, device, &d, 68); }},
  };
  for (const FullRangeEnum& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> zero(512), one(512);
    CommandWriter w0(zero.data(), zero.size()), w1(one.data(), one.size());
    ASSERT_TRUE(c.encode(w0, 0));
    ASSERT_TRUE(c.encode(w1, 1));
    zero.resize(w0.size());
    one.resize(w1.size());
    const size_t field = differingWord(zero, one);
    ASSERT_NE(field, SIZE_MAX);
    for (uint32_t value : {c.max, c.max + 1, 0x80000000u, 0xffffffffu}) {
      DecodeContext ctx;
      ctx.handles.create(device, c.deviceIface);
      RecordingDispatch calls;
      std::vector<uint8_t> stream = zero;
      std::memcpy(&stream[field], &value, 4);
      StreamDecoder dec(ctx, calls);
      const ErrorCode code = dec.decode(stream.data(), stream.size()).code;
      if (value <= c.max) {
        EXPECT_EQ(code, ErrorCode::Ok) << value;
        EXPECT_EQ(calls.calls.size(), 1u) << value;
        EXPECT_TRUE(ctx.handles.contains(c.created)) << value;
      } else {
        EXPECT_EQ(code, ErrorCode::BadEnum) << value;
        EXPECT_TRUE(calls.calls.empty()) << value;
        EXPECT_FALSE(ctx.handles.contains(c.created)) << value;
      }
    }
  }
}

// Contract 3: query results travel through push slots (BindPushSlot), so
// GetData has no opcode; Begin and End do.
TEST(Tables, GetDataHasNoWireForm) {
  const uint16_t context = uint16_t(Iface_ID3D11DeviceContext << 8);
  EXPECT_STREQ(opcodeName(context | 20), "ID3D11DeviceContext::Begin");
  EXPECT_STREQ(opcodeName(context | 21), "ID3D11DeviceContext::End");
  EXPECT_EQ(opcodeName(context | 22), nullptr);
  Stream s;
  s.cmd(OpSelectObject, {1});
  s.cmd(uint16_t(context | 22), {2, 0, 8, 0});
  DecodeContext ctx;
  ctx.handles.create(1, Iface_ID3D11DeviceContext);
  RecordingDispatch rec;
  StreamDecoder dec(ctx, rec);
  EXPECT_EQ(dec.decode(s.words.data(), s.words.size() * 4).code, ErrorCode::UnknownOpcode);
}
