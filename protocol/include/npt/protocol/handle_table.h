// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "wire.h"
#include "npt_ids.h"

namespace npt::protocol {

  // Per-context table of live guest-assigned ids and the interface each was
  // created as. The decoder checks every id against it before dispatch; the
  // host executor keeps its own id -> backend object map in step.
  class HandleTable {
  public:
    explicit HandleTable(size_t maxObjects = 1u << 20) : m_max(maxObjects) { }

    ErrorCode create(ObjectId id, uint16_t ifaceId);
    ErrorCode destroy(ObjectId id);
    // Ok, UnknownObject, WrongObjectType or NullNotAllowed.
    // One branch for a live object of the right type: NULL, free and never-seen ids all
    // read as interface 0, whose row accepts nothing (id 0 is never created).
    NPT_INLINE ErrorCode check(ObjectId id, uint16_t expectedIface, bool nullable) const {
      uint16_t iface = ifaceOf(id);
      if (storedInterfaceAccepts(iface, expectedIface)) [[likely]]
        return ErrorCode::Ok;
      if (id == 0)
        return nullable ? ErrorCode::Ok : ErrorCode::NullNotAllowed;
      return iface ? ErrorCode::WrongObjectType : ErrorCode::UnknownObject;
    }
    bool      contains(ObjectId id) const { return ifaceOf(id) != 0; }
    // 0 for a free id; otherwise below kInterfaceCount (create refuses others). Ids
    // beyond the table read entry 0 (id 0, never created): a select, not a branch.
    NPT_INLINE uint16_t ifaceOf(ObjectId id) const { return m_ifaces[id < m_limit ? id : 0]; }
    size_t    size() const { return m_count; }

  private:
    // Guest ids are small and dense (allocated by the guest runtime), so a
    // flat array indexed by id is both the fastest lookup and bounded: ids
    // at or above kMaxId are refused.
    static constexpr ObjectId kMaxId = 1u << 24;
    size_t                m_max;
    size_t                m_count = 0;
    std::vector<uint16_t> m_ifaces = std::vector<uint16_t>(1, 0);  // 0 = free; entry 0 stays 0
    size_t                m_limit = 1;  // m_ifaces.size(), kept for the lookup
  };

}
