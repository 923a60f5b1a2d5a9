#pragma once

#include <unordered_map>

#include "wire.h"

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
    ErrorCode check(ObjectId id, uint16_t expectedIface, bool nullable) const;
    bool      contains(ObjectId id) const { return m_objects.count(id) != 0; }
    uint16_t  ifaceOf(ObjectId id) const;
    size_t    size() const { return m_objects.size(); }

  private:
    size_t                                 m_max;
    std::unordered_map<ObjectId, uint16_t> m_objects;
  };

}
