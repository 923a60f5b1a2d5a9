// SPDX-License-Identifier: MIT
// The frame mix encoded 10 times and decoded (decodePrivate) 10 times, for counting
// instructions rather than time on a shared machine without hardware counters:
//   valgrind --tool=callgrind build/native/bench/protocol/protocol_frame_instructions
//   callgrind_annotate --inclusive=yes callgrind.out.* | grep -E 'encodeFrames|decodeFrames'
// and divide by 50,000 (10 x 5,000 commands).

#include <cstdio>
#include <vector>

#include "npt/protocol/decoder.h"
#include "npt_dispatch.h"
#include "frame_mix.h"

using namespace npt::protocol;
using namespace npt::protocol::bench;

__attribute__((noinline)) static size_t encodeFrames(CommandWriter& w, size_t& commands) {
  size_t size = 0;
  for (int i = 0; i < 10; i++) size = encodeFrame(w, commands);
  return size;
}

__attribute__((noinline)) static bool decodeFrames(StreamDecoder& dec, const uint8_t* bytes, size_t size) {
  for (int i = 0; i < 10; i++)
    if (DecodeResult r = dec.decodePrivate(bytes, size); r.code != ErrorCode::Ok) {
      std::printf("decode failed: %s at %zu\n", errorName(r.code), r.offset);
      return false;
    }
  return true;
}

int main() {
  std::vector<uint8_t> out(4u << 20);
  CommandWriter w(out.data(), out.size());
  size_t commands = 0;
  size_t size = encodeFrames(w, commands);
  DecodeContext ctx;
  registerObjects(ctx.handles);
  NullDispatch backend;
  StreamDecoder dec(ctx, backend);
  if (!decodeFrames(dec, out.data(), size)) return 1;
  std::printf("%zu commands, %zu bytes per frame; 10 encodes, 10 decodes\n", commands, size);
  return 0;
}
