// SPDX-License-Identifier: MIT
// (b) Host consumption of one context's shared memory, built from the fuzz bytes.

#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "neptune/transport/host_context.h"
#include "transport_image.h"

namespace npt::fuzz {

namespace {

using namespace npt::transport;

// The guest side, as hostile as the bytes make it: rewrites shared memory while the
// host works, including during a dispatch of a command it already published.
class GuestWrites {
public:
  GuestWrites(uint8_t* memory, uint64_t size, const uint8_t* stream, size_t length)
  : m_memory(memory), m_size(size), m_stream(stream), m_length(length) {}

  void apply() {
    if (m_length - m_pos < 6)
      return;
    uint16_t offset;
    std::memcpy(&offset, m_stream + m_pos, 2);
    const uint64_t at = (uint64_t(offset) * 4) % (m_size - 3);
    std::memcpy(m_memory + at, m_stream + m_pos + 2, 4);
    m_pos += 6;
  }

private:
  uint8_t* m_memory;
  uint64_t m_size;
  const uint8_t* m_stream;
  size_t m_length;
  size_t m_pos = 0;
};

// Reads every byte of every command (ASan sees any overrun of the copy), answers with
// a reply derived from the command, and exercises the host's other guest-facing calls.
class TouchingDispatcher : public Dispatcher {
public:
  TouchingDispatcher(GuestWrites& guest, uint8_t flags) : m_guest(guest), m_flags(flags) {}
  HostContext* context = nullptr;
  uint64_t hash = 1469598103934665603ull;

  std::string afterFatal;

  bool dispatch(uint32_t ring, const uint8_t* span, size_t size, Reply* reply) override {
    if (context->fatal() != FatalReason::None && afterFatal.empty())
      afterFatal = std::string("command dispatched after the context became fatal (") +
                   fatal_reason_name(context->fatal()) + ")";
    for (size_t i = 0; i < size; i++)
      hash = (hash ^ span[i]) * 1099511628211ull;
    uint32_t op = 0;
    std::memcpy(&op, span, size < 4 ? size : 4);
    if (m_flags & kFlagMutateInDispatch)
      m_guest.apply();
    if ((m_flags & kFlagReentrant) && (op & 1))
      context->process(1);
    context->push_slot((op >> 8) & 7, span, size);
    context->signal_fence((op >> 12) & 7, hash);
    if (reply) {
      reply->write(span, size);
      if (op & 2)
        reply->set_status(kInvalidArg);
    }
    return (op >> 24) != kRejectMarker;
  }

private:
  GuestWrites& m_guest;
  uint8_t m_flags;
};

}  // namespace

Outcome runTransport(const uint8_t* data, size_t size) {
  Outcome out;
  if (size < kTransportPrefix)
    return out;
  const Geometry g = geometryFor(data[0]);
  const uint8_t flags = data[1];
  const size_t rounds = 1 + (flags & 7);
  const size_t budget = size_t(1) << (2 * ((flags >> 3) & 7));   // 1 .. 16384
  uint16_t imageLength;
  std::memcpy(&imageLength, data + 2, 2);
  const size_t image = imageLength < size - kTransportPrefix ? imageLength : size - kTransportPrefix;

  // Exactly the size the geometry needs: ASan reports any access past the end.
  std::vector<uint8_t> memory(g.total_size());
  HostContext::initialize_memory(memory.data(), g, 1);
  const size_t room = memory.size() - g.rings_offset();
  std::memcpy(memory.data() + g.rings_offset(), data + kTransportPrefix, image < room ? image : room);

  GuestWrites guest(memory.data(), memory.size(), data + kTransportPrefix + image,
                    size - kTransportPrefix - image);
  TouchingDispatcher dispatcher(guest, flags);
  HostContext context(memory.data(), g, HostLimits{}, &dispatcher);
  dispatcher.context = &context;
  std::vector<uint8_t> region1(kRegion1Size, 0x5a), region2(kRegion2Size, 0xa5);
  context.attach_region(1, region1.data(), region1.size());
  context.attach_region(2, region2.data(), region2.size());
  size_t wakes = 0;
  context.set_guest_waker([&wakes] { wakes++; });

  for (size_t round = 0; round < rounds && context.fatal() == FatalReason::None; round++) {
    context.process(budget);
    if (context.fatal() != FatalReason::None)
      break;
    if (!context.has_work() && context.enter_idle())
      context.leave_idle();
    // has_work() ends the context on a ring head past the end: what the guest writes after
    // that is its own business, and the check below reads what the host wrote.
    if (context.fatal() != FatalReason::None)
      break;
    guest.apply();
  }

  out.code = uint32_t(context.fatal());
  out.accepted = context.fatal() == FatalReason::None;
  if (std::string(fatal_reason_name(context.fatal())) == "unknown")
    out.broken = "fatal reason outside the stable codes: " + std::to_string(out.code);
  else if (!dispatcher.afterFatal.empty())
    out.broken = dispatcher.afterFatal;
  else if (!out.accepted &&
           load_relaxed(reinterpret_cast<ControlBlock*>(memory.data())->device_state) != kDeviceRemovedState)
    out.broken = "fatal context not shown to the guest as removed";
  return out;
}

}  // namespace npt::fuzz
