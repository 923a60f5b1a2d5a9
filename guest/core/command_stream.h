// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "neptune/transport/guest_connection.h"
#include "npt_encode.h"
#include "statistics.h"

// The command stream of one transport ring: one lock, one batch buffer, the generated
// encoders writing into it. Commands are batched and reach the ring when the batch is
// large, on flush() (Flush, Present, GetData without DONOTFLUSH, a sync call), so a
// frame costs a few ring records, not one per call.
//
// Every method is thread-safe (the D3D11 device is free-threaded): the lock orders
// the commands of all threads on one ring. A deferred context records on a ring of its
// own (Runtime::acquireDeferredStream) whose stream is ordered after the device's: before
// each of its batches the device stream's batch is submitted and a transport Wait record
// makes the host execute the device ring that far first, so an object created on the
// device ring is known to the host before a deferred ring's command uses it.
namespace npt::guest {

class CommandStream;

// Handed to an encode function while the stream lock is held.
class Recorder {
public:
  protocol::CommandWriter& writer() { return m_writer; }
  // Bytes the command carries: inline when small, otherwise copied into bulk memory
  // that stays allocated until the host executed the batch. Fails (null payload and
  // ok() false) only when bulk memory cannot hold the bytes even after draining.
  protocol::Payload payload(const void* data, size_t size);
  // Reserves bulk memory the caller fills (initial data of many subresources).
  bool bulk(size_t size, protocol::BulkRef* ref, uint8_t** pointer);
  bool ok() const { return m_ok; }

  Recorder(CommandStream& stream, protocol::CommandWriter& writer, Statistics* stats)
  : m_stream(stream), m_writer(writer), m_stats(stats) {}

private:
  CommandStream& m_stream;
  protocol::CommandWriter& m_writer;
  Statistics* m_stats;
  bool m_ok = true;
};

class CommandStream {
public:
  // Payloads up to this size travel inline in the command.
  static constexpr size_t kInlinePayloadBytes = 16 * 1024;
  // A batch is submitted once it grows past this size.
  static constexpr size_t kFlushThreshold = 64 * 1024;

  // orderedAfter: the stream whose commands recorded so far must execute before each
  // batch of this one (the device stream, for a deferred context's ring); null for ring 0.
  CommandStream(transport::GuestConnection& connection, uint32_t ring, CommandStream* orderedAfter = nullptr);

  // Encodes one command: encode(Recorder&) returns the generated encoder's bool.
  // A full batch is submitted and the command encoded again. Returns S_OK,
  // DXGI_ERROR_DEVICE_REMOVED once the host is gone, E_OUTOFMEMORY or E_INVALIDARG
  // when the command cannot be expressed.
  template<typename Encode>
  HRESULT record(Statistics* stats, Encode&& encode) {
    std::lock_guard<std::mutex> lock(m_mutex);
    for (int attempt = 0; attempt < 3; attempt++) {
      // Encode into the scratch writer, primed with the current selection so the
      // encoder elides SelectObject when the target did not change; the priming
      // command itself is not copied into the batch.
      protocol::CommandWriter w(m_scratch.data(), m_scratch.size());
      uint64_t generation = m_batchGeneration;
      size_t prime = 0;
      if (m_selected) {
        w.select(m_selected);
        prime = w.size();
      }
      size_t bulkMark = m_pendingBulk.size();
      m_commandBulkMark = bulkMark;
      Recorder recorder(*this, w, stats);
      if (!encode(recorder) || !w.ok() || !recorder.ok()) {
        dropBulkSince(bulkMark);
        // The scratch buffer holds the largest command there is: a failure means
        // the arguments cannot be expressed, or bulk memory is exhausted.
        return recorder.ok() ? E_INVALIDARG : E_OUTOFMEMORY;
      }
      size_t size = w.size() - prime;
      if (m_batchGeneration != generation && prime) {
        // Staging bulk memory submitted the batch: the priming selection is gone.
        dropBulkSince(bulkMark);
        continue;
      }
      if (m_used + size > m_buffer.size()) {
        dropBulkSince(bulkMark);
        HRESULT hr = flushLocked();
        if (FAILED(hr))
          return hr;
        continue;   // a new batch starts without a selection: encode again
      }
      append(m_scratch.data() + prime, size);
      account(stats, size);
      return m_used >= kFlushThreshold ? flushLocked() : S_OK;
    }
    return E_INVALIDARG;
  }

  // A synchronous call, named as such at every call site (callSync…): submits the
  // batch, sends the command alone, waits for the reply and hands its bytes to
  // onReply(const uint8_t*, size_t) while the lock is held. Returns the transport's
  // status (the reply's HRESULT is decoded by onReply).
  template<typename Encode, typename OnReply>
  HRESULT callSync(Statistics* stats, Encode&& encode, OnReply&& onReply) {
    std::lock_guard<std::mutex> lock(m_mutex);
    HRESULT hr = flushLocked();
    if (SUCCEEDED(hr))
      hr = orderAfterLocked();
    if (FAILED(hr))
      return hr;
    protocol::CommandWriter w(m_scratch.data(), m_scratch.size());
    size_t bulkMark = m_pendingBulk.size();
    m_commandBulkMark = bulkMark;
    Recorder recorder(*this, w, stats);
    if (!encode(recorder) || !w.ok() || !recorder.ok()) {
      dropBulkSince(bulkMark);
      return recorder.ok() ? E_INVALIDARG : E_OUTOFMEMORY;
    }
    account(stats, w.size());
    capture(m_scratch.data(), w.size());
    if (stats)
      stats->syncRoundTrips.fetch_add(1, std::memory_order_relaxed);
    size_t replySize = 0;
    hr = m_connection.call(m_ring, m_scratch.data(), w.size(), m_replyBuffer.data(), m_replyBuffer.size(), &replySize);
    retirePending();
    if (FAILED(hr))
      return hr;
    onReply(static_cast<const uint8_t*>(m_replyBuffer.data()), replySize);
    return S_OK;
  }

  HRESULT flush();
  // flush(), and the ring's sequence once it is submitted (what waitFor() of another
  // stream waits for: everything recorded here so far).
  HRESULT flush(uint64_t* submitted);
  // Submits this stream's batch, then makes the host execute `ring` up to `sequence`
  // before anything recorded here later (a transport Wait record; none when an earlier
  // one already covers it, or when `ring` is this stream's own ring).
  HRESULT waitFor(uint32_t ring, uint64_t sequence);
  // Submits the batch and waits until the host executed everything (tests, teardown).
  HRESULT finish();

  transport::GuestConnection& connection() { return m_connection; }
  uint32_t ring() const { return m_ring; }

  // Bytes a payload bulk reference points at, bounds-checked (replies from the host; a
  // region the host created for them is mapped here, a round trip, the first time).
  const uint8_t* bulkBytes(const protocol::BulkRef& ref);

private:
  friend class Recorder;
  // Logs creations the host refused since the last look (they were answered S_OK here).
  void reportRefusedCreations();
  struct InFlight {
    uint64_t sequence;                 // ring record that must have executed
    transport::BulkRef ref;
  };

  HRESULT flushLocked();
  // The Wait record on m_orderedAfter's ring, when it submitted more since the last one.
  HRESULT orderAfterLocked();
  HRESULT waitForLocked(uint32_t ring, uint64_t sequence);
  // Makes this ring wait for `sequence` of `ring` (a transport Wait record) and remembers it.
  HRESULT writeWaitLocked(uint32_t ring, uint64_t sequence);
  // NPT_CAPTURE_STREAM=<file>: every submitted batch is appended to the file (the fuzz
  // seeds of tests/fuzz are real streams of the samples; bulk bytes are not kept).
  void capture(const uint8_t* data, size_t size);
  void append(const uint8_t* data, size_t size);
  void account(Statistics* stats, size_t bytes);
  void dropBulkSince(size_t mark);
  void retirePending();
  void reclaim();
  bool allocateBulk(size_t size, transport::BulkRef* ref);
  // More bulk memory from the host (a region added after connect); false with the
  // host's reason in m_bulkError.
  bool growBulk(size_t size);

  transport::GuestConnection& m_connection;
  uint32_t m_ring;
  CommandStream* m_orderedAfter;
  std::vector<uint64_t> m_waitedFor;    // per ring: the sequence the last Wait record named
  std::mutex m_mutex;
  std::vector<uint8_t> m_buffer;        // the batch being built
  size_t m_used = 0;
  uint64_t m_batchGeneration = 0;       // counts submitted batches
  protocol::ObjectId m_selected = 0;    // target of the batch's last SelectObject
  std::vector<uint8_t> m_scratch;       // one command (the largest the wire allows)
  std::vector<uint8_t> m_replyBuffer;
  std::vector<transport::BulkRef> m_pendingBulk;   // referenced by the batch being built
  size_t m_commandBulkMark = 0;                    // m_pendingBulk entries of the command being encoded start here
  std::deque<InFlight> m_inFlight;                 // submitted, freed once executed
  std::FILE* m_capture = nullptr;                  // NPT_CAPTURE_STREAM
  std::string m_bulkError;                         // why the last growth was refused
};

}
