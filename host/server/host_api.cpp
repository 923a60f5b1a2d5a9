// SPDX-License-Identifier: MIT
#include "neptune/host.h"

#include <cstring>
#include <memory>
#include <new>

#include "neptune/transport/host_context.h"

using namespace npt::transport;

struct npt_host_reply {
  Reply* reply;
};

namespace {

class CallbackDispatcher final : public Dispatcher {
public:
  CallbackDispatcher(npt_host_dispatch_fn fn, void* user) : m_fn(fn), m_user(user) {}
  bool dispatch(uint32_t ring, const uint8_t* span, size_t size, Reply* reply) override {
    npt_host_reply r = { reply };
    return m_fn(m_user, ring, span, size, reply ? &r : nullptr) == 0;
  }

private:
  npt_host_dispatch_fn m_fn;
  void* m_user;
};

Geometry to_geometry(const npt_host_geometry& g) {
  Geometry out;
  out.ring_count = g.ring_count;
  out.ring_size = g.ring_size;
  out.reply_slot_count = g.reply_slot_count;
  out.reply_slot_size = g.reply_slot_size;
  out.push_slot_count = g.push_slot_count;
  out.fence_count = g.fence_count;
  out.bulk_size = g.bulk_size;
  return out;
}

}

static_assert(NPT_HOST_PUSH_SLOT_BYTES == npt::transport::kPushSlotPayload);

// The C provider behind the transport's RegionProvider.
class CallbackRegionProvider final : public RegionProvider {
public:
  explicit CallbackRegionProvider(const npt_host_region_provider& p) : m_p(p) {}
  uint8_t* create(uint32_t id, uint64_t size) override {
    return m_p.create ? static_cast<uint8_t*>(m_p.create(m_p.user, id, size)) : nullptr;
  }
  bool share(uint32_t id, RegionGrant* grant) override {
    uint32_t how = 0;
    std::memset(grant->name, 0, sizeof(grant->name));
    if (!m_p.share || m_p.share(m_p.user, id, &how, grant->name, sizeof(grant->name)) != 0)
      return false;
    grant->name[sizeof(grant->name) - 1] = 0;
    grant->share = how;
    return how == NPT_HOST_REGION_BY_NAME || how == NPT_HOST_REGION_BY_DESCRIPTOR || how == NPT_HOST_REGION_IN_DEVICE;
  }
  void mapped(uint32_t id) override {
    if (m_p.mapped)
      m_p.mapped(m_p.user, id);
  }
  void release(uint32_t id) override {
    if (m_p.release)
      m_p.release(m_p.user, id);
  }

private:
  npt_host_region_provider m_p;
};

static_assert(NPT_HOST_REGION_BY_NAME == kRegionByName && NPT_HOST_REGION_BY_DESCRIPTOR == kRegionByDescriptor &&
              NPT_HOST_REGION_IN_DEVICE == kRegionInDevice);

struct npt_host_context {
  npt_host_geometry geometry;
  npt_host_limits limits;
  CallbackDispatcher dispatcher;
  HostContext* host = nullptr;
  std::unique_ptr<CallbackRegionProvider> regions;
  npt_host_wake_fn wake = nullptr;
  void* wake_user = nullptr;

  npt_host_context(const npt_host_geometry& g, const npt_host_limits& l, npt_host_dispatch_fn fn, void* user)
  : geometry(g), limits(l), dispatcher(fn, user) {}
  ~npt_host_context() { delete host; }
};

extern "C" {

void npt_host_default_limits(npt_host_limits* l) {
  l->max_rings = 16;
  l->max_ring_size = 16u << 20;
  l->max_reply_slots = 64;
  l->max_push_slots = 4096;
  l->max_fences = 1024;
  l->max_objects = 1u << 20;
  l->max_bulk_size = 1ull << 30;
  l->max_command_size = 256ull << 20;
  l->max_object_memory = 2ull << 30;
}

uint32_t npt_host_check_geometry(const npt_host_geometry* g, const npt_host_limits* l, const char** message) {
  ConnectError e = ConnectError::None;
  if (g->ring_count == 0 || g->ring_count > l->max_rings)
    e = ConnectError::RingCount;
  else if (g->ring_size < 4096 || (g->ring_size & (g->ring_size - 1)) || g->ring_size > l->max_ring_size)
    e = ConnectError::RingSize;
  else if (g->reply_slot_count == 0 || g->reply_slot_count > 64 || g->reply_slot_count > l->max_reply_slots ||
           g->reply_slot_size == 0 || g->reply_slot_size > (1u << 20))
    e = ConnectError::ReplySlots;
  else if (g->push_slot_count > l->max_push_slots || g->fence_count > l->max_fences)
    e = ConnectError::PushSlots;
  else if (g->bulk_size > l->max_bulk_size)
    e = ConnectError::BulkSize;
  if (message)
    *message = connect_error_name(e);
  return uint32_t(e);
}

uint64_t npt_host_shared_memory_size(const npt_host_geometry* g) {
  return to_geometry(*g).total_size();
}

int npt_host_reply_write(npt_host_reply* reply, const void* data, size_t size) {
  return reply->reply->write(data, size) ? 0 : NPT_HOST_E_LIMIT;
}

void npt_host_reply_set_status(npt_host_reply* reply, int32_t hresult) {
  reply->reply->set_status(hresult);
}

int npt_host_context_create(const npt_host_geometry* g, const npt_host_limits* l,
                            npt_host_dispatch_fn dispatch, void* user, npt_host_context** out) {
  if (!g || !l || !dispatch || !out)
    return NPT_HOST_E_INVALID_ARG;
  if (npt_host_check_geometry(g, l, nullptr) != 0)
    return NPT_HOST_E_LIMIT;
  auto* c = new (std::nothrow) npt_host_context(*g, *l, dispatch, user);
  if (!c)
    return NPT_HOST_E_OUT_OF_MEMORY;
  *out = c;
  return 0;
}

void npt_host_context_destroy(npt_host_context* c) {
  delete c;
}

int npt_host_context_attach_memory(npt_host_context* c, void* base, uint64_t size, uint32_t worker_id) {
  Geometry g = to_geometry(c->geometry);
  if (!base || c->host)
    return NPT_HOST_E_INVALID_ARG;
  if (size < g.total_size())
    return NPT_HOST_E_TOO_SMALL;
  HostLimits limits;
  limits.max_command_size = c->limits.max_command_size;
  limits.max_bulk_size = c->limits.max_bulk_size;
  HostContext::initialize_memory(static_cast<uint8_t*>(base), g, worker_id);
  c->host = new (std::nothrow) HostContext(static_cast<uint8_t*>(base), g, limits, &c->dispatcher);
  if (!c->host)
    return NPT_HOST_E_OUT_OF_MEMORY;
  if (c->wake)
    c->host->set_guest_waker([c] { c->wake(c->wake_user); });
  return 0;
}

int npt_host_context_attach_region(npt_host_context* c, uint32_t id, void* base, uint64_t size) {
  if (!c->host || !base)
    return NPT_HOST_E_INVALID_ARG;
  if (size > c->limits.max_bulk_size)
    return NPT_HOST_E_LIMIT;
  return c->host->attach_region(id, static_cast<uint8_t*>(base), size) ? 0 : NPT_HOST_E_INVALID_ARG;
}

int npt_host_context_set_region_provider(npt_host_context* c, const npt_host_region_provider* provider) {
  if (!c->host || !provider || !provider->create || !provider->share)
    return NPT_HOST_E_INVALID_ARG;
  c->regions = std::make_unique<CallbackRegionProvider>(*provider);
  c->host->set_region_provider(c->regions.get());
  return 0;
}

const uint8_t* npt_host_context_region_bytes(npt_host_context* c, uint32_t region, uint64_t offset, uint64_t size) {
  return c->host ? c->host->region_bytes(region, offset, size) : nullptr;
}

uint8_t* npt_host_context_reply_area(npt_host_context* c, uint32_t ring, uint64_t size, uint32_t* region) {
  return c->host ? c->host->reply_area(ring, size, region) : nullptr;
}

void npt_host_context_set_waker(npt_host_context* c, npt_host_wake_fn wake, void* user) {
  c->wake = wake;
  c->wake_user = user;
  if (c->host)
    c->host->set_guest_waker(wake ? std::function<void()>([c] { c->wake(c->wake_user); }) : std::function<void()>());
}

size_t npt_host_context_process(npt_host_context* c, size_t budget) {
  return c->host ? c->host->process(budget) : 0;
}

int npt_host_context_has_work(npt_host_context* c) {
  return c->host && c->host->has_work();
}

int npt_host_context_enter_idle(npt_host_context* c) {
  return c->host && c->host->enter_idle();
}

void npt_host_context_leave_idle(npt_host_context* c) {
  if (c->host)
    c->host->leave_idle();
}

int npt_host_context_push_slot(npt_host_context* c, uint32_t index, const void* data, size_t size) {
  if (!c->host || index >= c->geometry.push_slot_count)
    return NPT_HOST_E_INVALID_ARG;
  if (size > NPT_HOST_PUSH_SLOT_BYTES)
    return NPT_HOST_E_LIMIT;
  return c->host->push_slot(index, data, size) ? 0 : NPT_HOST_E_INVALID_ARG;
}

void npt_host_context_signal_fence(npt_host_context* c, uint32_t index, uint64_t value) {
  if (c->host)
    c->host->signal_fence(index, value);
}

void npt_host_context_make_fatal(npt_host_context* c, uint32_t reason) {
  if (c->host)
    c->host->make_fatal(FatalReason(reason ? reason : uint32_t(FatalReason::DispatchFailed)));
}

void npt_host_context_note_refused_creation(npt_host_context* c, uint32_t object, uint32_t rule) {
  if (c->host)
    c->host->note_refused_creation(object, rule);
}

uint32_t npt_host_context_fatal_reason(const npt_host_context* c) {
  return c->host ? uint32_t(c->host->fatal()) : 0;
}

const char* npt_host_fatal_reason_name(uint32_t reason) {
  return fatal_reason_name(FatalReason(reason));
}

const npt_host_limits* npt_host_context_limits(const npt_host_context* c) {
  return &c->limits;
}

}
