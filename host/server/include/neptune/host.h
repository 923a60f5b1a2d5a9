// SPDX-License-Identifier: MIT
/* Neptune host: C API for embedding the host end of a context in a VMM (a virtio-gpu
 * context type, a QEMU device) or in neptune-server's workers. The embedder owns the
 * shared memory and the notification path; this library consumes the guest's rings,
 * copies every command out, and hands it to a dispatch callback.
 *
 * Threading: one thread drives a context (process, idle, push, fences).
 * Errors: functions return 0 on success or a negative NPT_HOST_E_* code. */
#ifndef NEPTUNE_HOST_H
#define NEPTUNE_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPT_HOST_E_INVALID_ARG   (-1)
#define NPT_HOST_E_LIMIT         (-2) /* geometry exceeds a per-context limit */
#define NPT_HOST_E_TOO_SMALL     (-3) /* shared memory smaller than the geometry needs */
#define NPT_HOST_E_OUT_OF_MEMORY (-4)

typedef struct npt_host_geometry {
  uint32_t ring_count;        /* rings (recording threads / deferred contexts) */
  uint32_t ring_size;         /* bytes per ring, power of two */
  uint32_t reply_slot_count;  /* = most replies pending at once, at most 64 */
  uint32_t reply_slot_size;   /* bytes per reply */
  uint32_t push_slot_count;   /* host-pushed values (query results) */
  uint32_t fence_count;       /* host-written 64-bit fence values */
  uint64_t bulk_size;         /* bulk memory (region 0) inside the shared memory */
} npt_host_geometry;

typedef struct npt_host_limits {
  uint32_t max_rings;
  uint32_t max_ring_size;
  uint32_t max_reply_slots;   /* pending replies */
  uint32_t max_push_slots;
  uint32_t max_fences;
  uint32_t max_objects;       /* enforced by the object tables of the dispatcher */
  uint64_t max_bulk_size;
  uint64_t max_command_size;  /* largest out-of-line command copied out */
  uint64_t max_object_memory; /* bytes of resources a context may hold; enforced like max_objects */
} npt_host_limits;

/* Per-context limits neptune-server uses by default. */
void npt_host_default_limits(npt_host_limits* limits);

/* Checks a requested geometry; returns 0 or a stable code (ConnectError in
 * transport/status.h) and, if message is not NULL, a static explanation. */
uint32_t npt_host_check_geometry(const npt_host_geometry* geometry, const npt_host_limits* limits,
                                 const char** message);
/* Bytes of shared memory a geometry needs. */
uint64_t npt_host_shared_memory_size(const npt_host_geometry* geometry);

typedef struct npt_host_reply npt_host_reply;
/* Appends to the reply; returns NPT_HOST_E_LIMIT (and the context becomes fatal
 * after the callback) if the reply slot is too small. */
int npt_host_reply_write(npt_host_reply* reply, const void* data, size_t size);
void npt_host_reply_set_status(npt_host_reply* reply, int32_t hresult);

/* cmd is a private copy of one command span (its first 32-bit word is the protocol's
 * header); reply is NULL for fire-and-forget commands. Return 0 to accept, non-zero to
 * reject the command, which makes the context fatal. */
typedef int (*npt_host_dispatch_fn)(void* user, uint32_t ring, const uint8_t* cmd, size_t size,
                                    npt_host_reply* reply);
/* Called after a reply completes while the guest blocks on something the host cannot
 * wake by futex (e.g. send a byte on its socket, inject an interrupt). */
typedef void (*npt_host_wake_fn)(void* user);

typedef struct npt_host_context npt_host_context;

/* Creates a context; the geometry must pass npt_host_check_geometry with limits. */
int npt_host_context_create(const npt_host_geometry* geometry, const npt_host_limits* limits,
                            npt_host_dispatch_fn dispatch, void* user, npt_host_context** out);
void npt_host_context_destroy(npt_host_context* context);

/* Attaches the context's shared memory (size >= npt_host_shared_memory_size) and
 * writes its control block. worker_id is informational (shown to the guest). */
int npt_host_context_attach_memory(npt_host_context* context, void* base, uint64_t size, uint32_t worker_id);
/* Additional bulk regions (id 1..255) the guest may reference, set up by the embedder
 * itself (not counted against max_bulk_size). */
int npt_host_context_attach_region(npt_host_context* context, uint32_t id, void* base, uint64_t size);

/* Bulk regions added after connect: a guest whose region 0 is too small asks for more
 * (a transport Control record), and large replies get a region per ring. The library
 * keeps the total of all regions within limits->max_bulk_size (refusing with a message
 * the guest logs) and chooses the ids; the provider creates the memory and tells the
 * guest how to map it. Without a provider such requests are answered E_NOTIMPL. */
#define NPT_HOST_REGION_BY_NAME       1 /* name: a path (/dev/shm/...) or a Windows mapping name */
#define NPT_HOST_REGION_BY_DESCRIPTOR 2 /* the provider sent a descriptor on the guest's socket */
#define NPT_HOST_REGION_IN_DEVICE     3 /* inside the shared-memory device the context lies in: its slot lists where */
typedef struct npt_host_region_provider {
  void* user;
  /* size bytes of zeroed guest-visible memory for region id (valid until the provider
   * goes, after the context), or NULL. */
  void* (*create)(void* user, uint32_t id, uint64_t size);
  /* How the guest maps region id: sets *share and name (NUL-terminated, name_size bytes
   * at most), or sends a descriptor; 0 on success. Called for every grant. */
  int (*share)(void* user, uint32_t id, uint32_t* share, char* name, size_t name_size);
  /* The guest mapped region id: a file behind it may be removed now. May be NULL. */
  void (*mapped)(void* user, uint32_t id);
  /* Region id is no longer used (an outgrown reply region the guest let go of): free its
   * memory; the id may be created again. May be NULL (the memory then stays until the
   * provider goes, but no longer counts against the limit). */
  void (*release)(void* user, uint32_t id);
} npt_host_region_provider;
/* Call after npt_host_context_attach_memory; the provider is copied. */
int npt_host_context_set_region_provider(npt_host_context* context, const npt_host_region_provider* provider);
/* Host-readable bytes [offset, offset + size) of a bulk region, bounded by the size the
 * host knows, or NULL (a payload reference inside a command that leaves the region). */
const uint8_t* npt_host_context_region_bytes(npt_host_context* context, uint32_t region, uint64_t offset, uint64_t size);
/* Where a reply of size bytes to a call on ring may be written (the guest finds it at
 * offset 0 of *region): region 0 for single-ring contexts that fit, else the ring's own
 * reply region, created or grown within the bulk limit. NULL when refused. */
uint8_t* npt_host_context_reply_area(npt_host_context* context, uint32_t ring, uint64_t size, uint32_t* region);
void npt_host_context_set_waker(npt_host_context* context, npt_host_wake_fn wake, void* user);

/* Notify: executes what the guest published, at most budget commands; returns how many.
 * Each ring's head is read at most once per call (a caught-up host that re-read it per
 * command would take its cache line from the writing guest each time): call again until
 * it returns 0, pausing briefly between calls that returned less than budget. */
size_t npt_host_context_process(npt_host_context* context, size_t budget);
/* Whether published work is waiting (reads the heads that the next process() consumes up to). */
int npt_host_context_has_work(npt_host_context* context);
/* Announces idle to the guest (it will then ring the doorbell). Returns 0 if work
 * arrived meanwhile and the context stays busy. */
int npt_host_context_enter_idle(npt_host_context* context);
void npt_host_context_leave_idle(npt_host_context* context);

/* The largest value one push slot holds. */
#define NPT_HOST_PUSH_SLOT_BYTES 120
/* Publishes a value (a query result) in push slot index. Returns NPT_HOST_E_INVALID_ARG
 * for an index outside the geometry and NPT_HOST_E_LIMIT for a value larger than
 * NPT_HOST_PUSH_SLOT_BYTES; then nothing is written (a result is never truncated). */
int npt_host_context_push_slot(npt_host_context* context, uint32_t index, const void* data, size_t size);
void npt_host_context_signal_fence(npt_host_context* context, uint32_t index, uint64_t value);

/* Makes the context fatal: the guest sees DXGI_ERROR_DEVICE_REMOVED. */
void npt_host_context_make_fatal(npt_host_context* context, uint32_t reason);
/* A creation the guest recorded without waiting was refused (validation rule code, 0 for the
   backend): counted in the control block, where the guest runtime reads and logs it. */
void npt_host_context_note_refused_creation(npt_host_context* context, uint32_t object, uint32_t rule);
/* 0 while alive, otherwise the first fatal reason (FatalReason in transport/status.h). */
uint32_t npt_host_context_fatal_reason(const npt_host_context* context);
const char* npt_host_fatal_reason_name(uint32_t reason);
const npt_host_limits* npt_host_context_limits(const npt_host_context* context);

#ifdef __cplusplus
}
#endif

#endif
