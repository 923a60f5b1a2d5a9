#include "npt/protocol/handle_table.h"
#include "npt_ids.h"

namespace npt::protocol {

  ErrorCode HandleTable::create(ObjectId id, uint16_t ifaceId) {
    if (id == 0 || m_objects.count(id))
      return ErrorCode::ObjectIdInUse;
    if (m_objects.size() >= m_max)
      return ErrorCode::QuotaExceeded;
    m_objects.emplace(id, ifaceId);
    return ErrorCode::Ok;
  }

  ErrorCode HandleTable::destroy(ObjectId id) {
    return m_objects.erase(id) ? ErrorCode::Ok : ErrorCode::UnknownObject;
  }

  uint16_t HandleTable::ifaceOf(ObjectId id) const {
    auto it = m_objects.find(id);
    return it == m_objects.end() ? 0 : it->second;
  }

  ErrorCode HandleTable::check(ObjectId id, uint16_t expectedIface, bool nullable) const {
    if (id == 0)
      return nullable ? ErrorCode::Ok : ErrorCode::NullNotAllowed;
    auto it = m_objects.find(id);
    if (it == m_objects.end())
      return ErrorCode::UnknownObject;
    return interfaceAccepts(it->second, expectedIface) ? ErrorCode::Ok : ErrorCode::WrongObjectType;
  }

}
