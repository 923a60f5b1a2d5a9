// SPDX-License-Identifier: MIT
#include "query.h"

#include <cstring>

namespace npt::guest {

Query::Query(Device* device, protocol::ObjectId id, const D3D11_QUERY_DESC1& desc, uint32_t slot, uint32_t slotVersion)
: D3D11Child(device, id), m_desc(desc), m_slot(slot), m_slotVersion(slotVersion) {}

Query::~Query() {
  m_runtime->releasePushSlot(m_slot);
}

HRESULT STDMETHODCALLTYPE Query::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11Asynchronous)) || IsEqualGUID(riid, __uuidof(ID3D11Query)) ||
      IsEqualGUID(riid, __uuidof(ID3D11Query1))) {
    *object = addRefed(static_cast<ID3D11Query1*>(this));
    return S_OK;
  }
  if (IsEqualGUID(riid, __uuidof(ID3D11Predicate)) && isPredicate(m_desc.Query)) {
    *object = addRefed(asPredicate(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

void STDMETHODCALLTYPE Query::GetDesc(D3D11_QUERY_DESC* desc) {
  desc->Query = m_desc.Query;
  desc->MiscFlags = m_desc.MiscFlags;
}

HRESULT Query::readResult(void* data, UINT size) {
  uint32_t ends = m_ends.load(std::memory_order_relaxed);
  if (!ends)
    return DXGI_ERROR_INVALID_CALL;
  uint8_t slot[128];
  size_t bytes = 0;
  uint32_t version = 0;
  if (!m_runtime->connection().read_push_slot(m_slot, slot, sizeof(slot), &bytes, &version))
    return S_FALSE;
  // The slot belongs to this query only once its version moved past the bind; the
  // host's End count must have reached ours (a command list executed twice ends more).
  uint32_t hostEnds = 0;
  if (int32_t(version - m_slotVersion) <= 0 || bytes < 4)
    return S_FALSE;
  std::memcpy(&hostEnds, slot, 4);
  if (int32_t(hostEnds - ends) < 0)
    return S_FALSE;
  UINT expected = GetDataSize();
  if (bytes - 4 < expected)
    return S_FALSE;
  if (data && size)
    std::memcpy(data, slot + 4, expected < size ? expected : size);
  return S_OK;
}

// The predicate interface differs from ID3D11Query only in its IID: its vtable is the
// query's (ID3D11Predicate derives ID3D11Query without adding methods).
ID3D11Predicate* asPredicate(Query* query) {
  static_assert(sizeof(ID3D11Predicate) == sizeof(ID3D11Query));
  return reinterpret_cast<ID3D11Predicate*>(static_cast<ID3D11Query*>(query));
}

HRESULT STDMETHODCALLTYPE CommandList::QueryInterface(REFIID riid, void** object) {
  NPT_QI_PROLOGUE(riid, object);
  if (IsEqualGUID(riid, __uuidof(ID3D11CommandList))) {
    *object = addRefed(static_cast<ID3D11CommandList*>(this));
    return S_OK;
  }
  return queryChild(riid, object);
}

}
