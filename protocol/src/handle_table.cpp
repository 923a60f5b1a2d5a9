// SPDX-License-Identifier: MIT
#include "npt/protocol/handle_table.h"
#include "npt_ids.h"

namespace npt::protocol {

  ErrorCode HandleTable::create(ObjectId id, uint16_t ifaceId) {
    if (id == 0 || ifaceId == 0 || ifaceId >= kInterfaceCount || contains(id))
      return ErrorCode::ObjectIdInUse;
    if (m_count >= m_max || id >= kMaxId)
      return ErrorCode::QuotaExceeded;
    if (id >= m_ifaces.size()) {
      m_ifaces.resize(size_t(id) + 1 + (size_t(id) >> 1 < kMaxId - id ? size_t(id) >> 1 : 0), 0);
      m_limit = m_ifaces.size();
    }
    m_ifaces[id] = ifaceId;
    m_count++;
    return ErrorCode::Ok;
  }

  ErrorCode HandleTable::destroy(ObjectId id) {
    if (!contains(id))
      return ErrorCode::UnknownObject;
    m_ifaces[id] = 0;
    m_count--;
    return ErrorCode::Ok;
  }


}
