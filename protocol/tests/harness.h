// SPDX-License-Identifier: MIT
#pragma once

// Shared fixture for generated round-trip tests: a command buffer, a decode
// context whose handle table the test populates, and prefix-truncation checks.

#include <gtest/gtest.h>

#include "npt/protocol/decoder.h"
#include "npt/protocol/writer.h"
#include "npt_encode.h"
#include "npt_ids.h"
#include "npt_recording.h"

namespace npt::protocol {

  struct Harness {
    std::vector<uint8_t> buffer = std::vector<uint8_t>(1u << 20);
    CommandWriter        w{buffer.data(), buffer.size()};
    DecodeContext        ctx{1u << 20};
    RecordingDispatch    rec;
    std::vector<uint8_t> replies;
    HandleTable          before;
    ObjectId             nextId = 100;

    Harness() { ctx.replies = &replies; }

    ObjectId object(uint16_t iface) {
      ObjectId id = nextId++;
      EXPECT_EQ(ctx.handles.create(id, iface), ErrorCode::Ok);
      return id;
    }
    ObjectId fresh() { return nextId++; }

    void expectRoundTrip(const std::string& expected) {
      before = ctx.handles;
      StreamDecoder dec(ctx, rec);
      DecodeResult res = dec.decode(buffer.data(), w.size());
      ASSERT_EQ(res.code, ErrorCode::Ok) << errorName(res.code) << " at " << res.offset;
      ASSERT_FALSE(rec.calls.empty());
      EXPECT_EQ(rec.calls.back(), expected);
    }

    // One decode context per thread for the many short decodes (every truncation point,
    // every refusal, every mutation), reset to a fresh context's state each time: a new
    // 256 KB arena each time was an mmap and munmap per decode, most of the suite's time.
    static DecodeContext& scratchContext(const HandleTable& handles) {
      static thread_local DecodeContext c(256u << 10);
      c.handles = handles;
      c.self = 0;
      c.selfIface = 0;
      c.supportedIfaces = nullptr;
      c.replies = nullptr;
      c.pushSlotCount = UINT32_MAX;
      return c;
    }

    ErrorCode decodePrefix(const std::vector<uint8_t>& bytes) {
      DecodeContext& c = scratchContext(before);
      RecordingDispatch r;
      StreamDecoder dec(c, r);
      DecodeResult res = dec.decode(bytes.data(), bytes.size());
      if (res.code == ErrorCode::Ok && !r.calls.empty())
        ADD_FAILURE() << "a truncated command was dispatched: " << r.calls.back();
      return res.code;
    }

    // Where the method command (the last one in the buffer) starts.
    size_t methodStart() const {
      size_t total = w.size();
      size_t start = 0;
      while (true) {
        uint32_t h; std::memcpy(&h, buffer.data() + start, 4);
        size_t n = size_t(headerWords(h)) * 4;
        if (start + n >= total) break;
        start += n;
      }
      return start;
    }

    // Decodes `bytes` against the handle table as it was before the round trip;
    // a refused stream must not have dispatched anything.
    ErrorCode decodeWith(const std::vector<uint8_t>& bytes, const HandleTable& handles) {
      DecodeContext& c = scratchContext(handles);
      RecordingDispatch r;
      StreamDecoder dec(c, r);
      DecodeResult res = dec.decode(bytes.data(), bytes.size());
      if (res.code != ErrorCode::Ok && !r.calls.empty())
        ADD_FAILURE() << "a refused command was dispatched: " << r.calls.back();
      return res.code;
    }

    // The refusals every method command shares: a word beyond its arguments
    // (TrailingBytes); for interface methods, no selected object
    // (NoObjectSelected) and a selected object of an interface that does not
    // implement the method's (WrongObjectType).
    void expectRefusals(uint16_t selfIface) {
      const size_t start = methodStart(), total = w.size();
      std::vector<uint8_t> longer(buffer.begin(), buffer.begin() + total);
      longer.resize(total + 4, 0);
      uint32_t h; std::memcpy(&h, longer.data() + start, 4);
      h = packHeader(headerOpcode(h), uint16_t(headerWords(h) + 1));
      std::memcpy(longer.data() + start, &h, 4);
      EXPECT_EQ(decodeWith(longer, before), ErrorCode::TrailingBytes);
      if (!selfIface) return;

      std::vector<uint8_t> alone(buffer.begin() + start, buffer.begin() + total);
      EXPECT_EQ(decodeWith(alone, before), ErrorCode::NoObjectSelected);

      uint16_t other = 0;
      for (uint16_t i = 2; i < kInterfaceCount && !other; i++)
        if (interfaceName(i) && !interfaceAccepts(i, selfIface)) other = i;
      ASSERT_NE(other, 0u);
      HandleTable handles = before;
      const ObjectId stranger = 0xfff000;
      ASSERT_EQ(handles.create(stranger, other), ErrorCode::Ok);
      std::vector<uint8_t> wrong(8);
      uint32_t select[2] = { packHeader(OpSelectObject, 2), stranger };
      std::memcpy(wrong.data(), select, 8);
      wrong.insert(wrong.end(), alone.begin(), alone.end());
      EXPECT_EQ(decodeWith(wrong, handles), ErrorCode::WrongObjectType) << interfaceName(other);
    }

    // The method command is the last one in the buffer; every cut inside it
    // must be fatal, whether the stream ends early or the header lies about
    // the length.
    void expectEveryTruncationFails() {
      size_t total = w.size();
      size_t start = methodStart();
      for (size_t cut = start + 1; cut < total; cut++) {
        std::vector<uint8_t> prefix(buffer.begin(), buffer.begin() + cut);
        EXPECT_NE(decodePrefix(prefix), ErrorCode::Ok) << "cut at " << cut << " of " << total;
        if ((cut - start) % 4 == 0 && cut - start >= 4) {
          uint32_t h; std::memcpy(&h, prefix.data() + start, 4);
          h = packHeader(headerOpcode(h), uint16_t((cut - start) / 4));
          std::memcpy(prefix.data() + start, &h, 4);
          EXPECT_NE(decodePrefix(prefix), ErrorCode::Ok) << "shortened header at " << cut;
        }
      }
    }
  };

  // Random corruption of a valid command stream: the decoder must end with
  // Ok or a stable error, never crash or read out of bounds (run the suite
  // under ASan/UBSan to make the latter observable).
  inline void expectMutationsSurvive(Harness& h, uint32_t seed, int rounds = 64) {
    uint32_t state = seed * 2654435761u + 1;
    auto next = [&]() { state = state * 1664525u + 1013904223u; return state; };
    size_t total = h.w.size();
    for (int round = 0; round < rounds; round++) {
      std::vector<uint8_t> bytes(h.buffer.begin(), h.buffer.begin() + total);
      int edits = 1 + int(next() % 3);
      for (int e = 0; e < edits; e++) {
        size_t word = (next() % (total / 4)) * 4;
        static const uint32_t special[] = {0, 1, 0xffffffffu, 0xfffffffeu, 0x7fffffffu, 0x10000u, 129, 4096};
        uint32_t v;
        switch (next() % 4) {
          case 0: v = special[next() % 8]; break;
          case 1: v = next(); break;
          case 2: std::memcpy(&v, bytes.data() + word, 4); v ^= 1u << (next() % 32); break;
          default: std::memcpy(&v, bytes.data() + word, 4); v += (next() % 5) - 2; break;
        }
        std::memcpy(bytes.data() + word, &v, 4);
      }
      DecodeContext& c = Harness::scratchContext(h.before);
      RecordingDispatch r;
      StreamDecoder dec(c, r);
      DecodeResult res = dec.decode(bytes.data(), bytes.size());
      EXPECT_LE(uint32_t(res.code), uint32_t(ErrorCode::BadEnum));
      EXPECT_LE(res.offset, bytes.size());
    }
  }

  template<typename T>
  void expectRecordRoundTrip(const T& v) {
    std::vector<uint8_t> buf(1u << 20);
    CommandWriter w(buf.data(), buf.size());
    encodeRecord(w, v);
    ASSERT_TRUE(w.ok());
    DecodeContext c;
    CommandReader r(buf.data(), w.size());
    T out{};
    decodeRecord(r, c, out);
    ASSERT_EQ(r.error(), ErrorCode::Ok);
    EXPECT_TRUE(r.atEnd());
    std::string a, b;
    canonRecord(a, v);
    canonRecord(b, out);
    EXPECT_EQ(a, b);
  }

}
