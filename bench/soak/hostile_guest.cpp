// SPDX-License-Identifier: MIT
// The hostile guest of the soak (bench/soak/soak.py): for a given time it connects to
// neptune-server.exe and attacks its own context with
//
//   random     spans of random bytes (fire-and-forget and calls)
//   mutated    a valid stream (device, textures, views, clear, copy, Map) with bytes,
//              words, lengths or object ids changed, truncated or duplicated
//   valid      the same stream unchanged (the context must survive it)
//   ring       garbage written into its ring header or published records
//
// and reconnects after every fatal context. Every 10 s and at the end it prints
// "hostile: connections N fatal N valid_ok N commands N refused N" for the soak's log.
// Exit status 0 unless it could not connect at all.
#include <windows.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <d3d11.h>

#include "neptune/transport/guest_connection.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/wait.h"
#include "npt_encode.h"

using namespace npt;
using namespace npt::transport;

namespace {

struct Counters {
  uint64_t connections = 0, fatal = 0, valid_ok = 0, commands = 0, refused = 0;
};

Geometry small_geometry() {
  Geometry g;
  g.ring_count = 1;
  g.ring_size = 256 * 1024;
  g.reply_slot_count = 4;
  g.reply_slot_size = 256 * 1024;
  g.push_slot_count = 64;
  g.bulk_size = 4u << 20;
  return g;
}

D3D11_TEXTURE2D_DESC texture_desc(UINT size, D3D11_USAGE usage, UINT bind, UINT cpu) {
  D3D11_TEXTURE2D_DESC d = {};
  d.Width = d.Height = size;
  d.MipLevels = d.ArraySize = 1;
  d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  d.SampleDesc.Count = 1;
  d.Usage = usage;
  d.BindFlags = bind;
  d.CPUAccessFlags = cpu;
  return d;
}

// A well-formed stream: a device, a render target and a staging copy, a clear, a copy
// and a Map; ids start at `first_id`. The last command (Map) is the one sent as a call.
void valid_stream(std::vector<uint8_t>& out, size_t* call_offset, protocol::ObjectId first_id, uint32_t size) {
  std::vector<uint8_t> buffer(64 * 1024);
  protocol::CommandWriter w(buffer.data(), buffer.size());
  protocol::ObjectId device = first_id, context = first_id + 1, texture = first_id + 2, rtv = first_id + 3,
                     staging = first_id + 4;
  protocol::encode_D3D11CreateDevice(w, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION,
                                     device, context);
  D3D11_TEXTURE2D_DESC target = texture_desc(size, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  D3D11_TEXTURE2D_DESC readable = texture_desc(size, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  protocol::encode_ID3D11Device_CreateTexture2D(w, device, &target, 0, nullptr, texture);
  protocol::encode_ID3D11Device_CreateRenderTargetView(w, device, texture, nullptr, rtv);
  protocol::encode_ID3D11Device_CreateTexture2D(w, device, &readable, 0, nullptr, staging);
  const FLOAT colour[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
  protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(w, context, rtv, colour);
  protocol::encode_ID3D11DeviceContext_CopyResource(w, context, staging, texture);
  *call_offset = w.size();
  protocol::encode_ID3D11DeviceContext_Map(w, context, staging, 0, D3D11_MAP_READ, 0);
  out.assign(buffer.data(), buffer.data() + w.size());
}

class Attacker {
public:
  Attacker(const char* rendezvous, uint32_t seed) : m_rendezvous(rendezvous), m_random(seed) {}

  bool connect(Counters& c) {
    m_connection.reset();
    std::string error;
    if (GuestConnection::connect(m_rendezvous.c_str(), small_geometry(), &m_connection, &error) != kOk) {
      c.refused++;
      return false;
    }
    c.connections++;
    m_next_id = 1;
    return true;
  }

  bool alive() const { return m_connection && m_connection->status() == kOk; }

  // One round of one attack; false once the context is gone.
  bool round(Counters& c) {
    switch (pick(0, 9)) {
      case 0: case 1: case 2: random_spans(c); break;
      case 3: case 4: case 5: case 6: mutated(c, true); break;
      case 7: case 8: mutated(c, false); break;
      default: ring_garbage(c); break;
    }
    return alive();
  }

private:
  uint32_t pick(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(m_random); }

  Status call(const uint8_t* data, size_t size) {
    std::vector<uint8_t> reply(small_geometry().reply_slot_size);
    size_t n = 0;
    return m_connection->call(0, data, size, reply.data(), reply.size(), &n);
  }

  void random_spans(Counters& c) {
    for (uint32_t i = 0, count = pick(1, 16); i < count && alive(); i++) {
      std::vector<uint8_t> span(pick(4, 2048));
      for (auto& b : span)
        b = uint8_t(m_random());
      // Half the time a plausible header word: a known-looking opcode with a length.
      if (pick(0, 1)) {
        uint32_t header = pick(0, 0x200) | (uint32_t(span.size() / 4) << 16);
        std::memcpy(span.data(), &header, 4);
      }
      c.commands++;
      if (pick(0, 3) == 0)
        call(span.data(), span.size());
      else
        m_connection->submit(0, span.data(), span.size());
    }
    if (alive())
      m_connection->finish(0);
  }

  void mutated(Counters& c, bool mutate) {
    std::vector<uint8_t> stream;
    size_t call_offset = 0;
    valid_stream(stream, &call_offset, m_next_id, pick(1, 64));
    m_next_id += 5;
    if (mutate) {
      switch (pick(0, 4)) {
        case 0:   // flip bytes
          for (uint32_t i = 0, n = pick(1, 8); i < n; i++)
            stream[pick(0, uint32_t(stream.size() - 1))] ^= uint8_t(1u << pick(0, 7));
          break;
        case 1: { // replace a word with an edge value
          static const uint32_t edges[] = { 0, 1, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x10000u, 0xFFFFu };
          size_t at = (pick(0, uint32_t(stream.size() / 4 - 1))) * 4;
          std::memcpy(&stream[at], &edges[pick(0, 6)], 4);
          break;
        }
        case 2:   // truncate
          stream.resize(pick(1, uint32_t(stream.size())));
          call_offset = std::min(call_offset, stream.size());
          break;
        case 3: { // duplicate a slice (object ids reused, commands repeated)
          size_t from = pick(0, uint32_t(stream.size() - 1)), len = pick(1, uint32_t(stream.size() - from));
          std::vector<uint8_t> slice(stream.begin() + long(from), stream.begin() + long(from + len));
          stream.insert(stream.begin() + long(pick(0, uint32_t(stream.size()))), slice.begin(), slice.end());
          call_offset = stream.size();
          break;
        }
        default:  // ids of objects that do not exist (or of another type)
          for (size_t at = 4; at + 4 <= stream.size(); at += 4) {
            uint32_t v;
            std::memcpy(&v, &stream[at], 4);
            if (v >= m_next_id - 5 && v < m_next_id && pick(0, 2) == 0) {
              v = pick(0, 3) == 0 ? 0 : v + pick(1, 1000);
              std::memcpy(&stream[at], &v, 4);
            }
          }
          break;
      }
    }
    c.commands++;
    Status s = kOk;
    if (call_offset > 0 && call_offset <= stream.size())
      s = m_connection->submit(0, stream.data(), call_offset);
    if (s == kOk && call_offset < stream.size())
      s = call(stream.data() + call_offset, stream.size() - call_offset);
    if (!mutate && s == kOk)
      c.valid_ok++;
  }

  void ring_garbage(Counters& c) {
    Geometry g = small_geometry();
    auto* ring = reinterpret_cast<RingHeader*>(m_connection->shared_base() + g.rings_offset());
    uint8_t* data = reinterpret_cast<uint8_t*>(ring) + kRingHeaderSize;
    c.commands++;
    switch (pick(0, 2)) {
      case 0:   // a head out of range or misaligned
        store_release(ring->head, load_acquire(ring->head) + pick(1, 3 * g.ring_size));
        break;
      case 1: { // garbage records after the published head, then publish them
        uint64_t head = load_acquire(ring->head);
        uint32_t n = pick(8, 512) & ~7u;
        for (uint32_t i = 0; i < n; i++)
          data[(head + i) % g.ring_size] = uint8_t(m_random());
        store_release(ring->head, head + n);
        break;
      }
      default: { // a record whose out-of-line reference points outside the memory
        uint64_t head = load_acquire(ring->head);
        if (head % g.ring_size + sizeof(RecordHeader) + sizeof(BulkRef) > g.ring_size)
          break;
        RecordHeader h = { make_size_kind(RecordKind::Bulk, sizeof(BulkRef)), 0 };
        BulkRef ref = { pick(0, 2), 0, uint64_t(pick(0, 0xFFFFFFFFu)) << pick(0, 31), uint64_t(pick(1, 0xFFFFFFFFu)) };
        std::memcpy(data + head % g.ring_size, &h, sizeof(h));
        std::memcpy(data + head % g.ring_size + sizeof(h), &ref, sizeof(ref));
        store_release(ring->head, head + sizeof(h) + sizeof(ref));
        break;
      }
    }
    // Ring the host; its verdict shows in the next round.
    m_connection->finish(0);
    Sleep(1);
  }

  std::string m_rendezvous;
  std::mt19937 m_random;
  std::unique_ptr<GuestConnection> m_connection;
  protocol::ObjectId m_next_id = 1;
};

void print(const Counters& c) {
  std::printf("hostile: connections %llu fatal %llu valid_ok %llu commands %llu refused %llu\n",
              (unsigned long long)c.connections, (unsigned long long)c.fatal, (unsigned long long)c.valid_ok,
              (unsigned long long)c.commands, (unsigned long long)c.refused);
  std::fflush(stdout);
}

}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: hostile_guest RENDEZVOUS SECONDS SEED\n");
    return 2;
  }
  const double seconds = std::atof(argv[2]);
  Attacker attacker(argv[1], uint32_t(std::strtoul(argv[3], nullptr, 0)));
  Counters c;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double next_report = 10;
  while (elapsed() < seconds) {
    if (!attacker.connect(c)) {
      Sleep(100);
      continue;
    }
    while (elapsed() < seconds && attacker.round(c)) {
      if (elapsed() > next_report) {
        print(c);
        next_report += 10;
      }
    }
    if (!attacker.alive())
      c.fatal++;
  }
  print(c);
  return c.connections ? 0 : 1;
}
