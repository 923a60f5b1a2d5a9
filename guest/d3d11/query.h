// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>

#include "d3d11_child.h"
#include "npt/validation/queries.h"

// Queries and predicates (contract 3): each is bound to a push slot right after its
// creation; the host writes [u32 End count][result] into the slot once the result of
// an End is available, and GetData is a local read of that slot. Counters: the host
// description lists no device counters (like wined3d), so CreateCounter fails.
namespace npt::guest {

class Query final : public D3D11Child<ID3D11Query1> {
public:
  Query(Device* device, protocol::ObjectId id, const D3D11_QUERY_DESC1& desc, uint32_t slot, uint32_t slotVersion);
  ~Query() override;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  UINT STDMETHODCALLTYPE GetDataSize() override { return dataSize(m_desc.Query); }
  void STDMETHODCALLTYPE GetDesc(D3D11_QUERY_DESC* desc) override;
  void STDMETHODCALLTYPE GetDesc1(D3D11_QUERY_DESC1* desc) override { *desc = m_desc; }

  static UINT dataSize(D3D11_QUERY query) { return validation::queryDataSize(query); }
  static bool isPredicate(D3D11_QUERY query) { return validation::isPredicateQuery(query); }
  // Queries without Begin (EVENT, TIMESTAMP) only End.
  bool hasBegin() const { return m_desc.Query != D3D11_QUERY_EVENT && m_desc.Query != D3D11_QUERY_TIMESTAMP; }

  // Context side: an End was recorded.
  void ended() { m_ends.fetch_add(1, std::memory_order_relaxed); }
  // GetData: S_OK with the result, S_FALSE while the host has not pushed it,
  // DXGI_ERROR_INVALID_CALL before the first End.
  HRESULT readResult(void* data, UINT size);

private:
  D3D11_QUERY_DESC1 m_desc;
  uint32_t m_slot;
  uint32_t m_slotVersion;          // slot version when bound: older contents belong to a previous query
  std::atomic<uint32_t> m_ends{0};
};

// ID3D11Predicate is an ID3D11Query with its own IID; the same class serves both.
ID3D11Predicate* asPredicate(Query* query);

class CommandList final : public D3D11Child<ID3D11CommandList> {
public:
  CommandList(Device* device, protocol::ObjectId id, uint32_t ring, uint64_t finishedAt)
  : D3D11Child(device, id), m_ring(ring), m_finishedAt(finishedAt) {}
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;
  UINT STDMETHODCALLTYPE GetContextFlags() override { return 0; }
  // The ring its deferred context recorded on, and that ring's sequence once its
  // FinishCommandList was submitted: what ExecuteCommandList waits for.
  uint32_t ring() const { return m_ring; }
  uint64_t finishedAt() const { return m_finishedAt; }

private:
  uint32_t m_ring;
  uint64_t m_finishedAt;
};

}
