// SPDX-License-Identifier: MIT
#pragma once

// What the table keeps about a resource beyond its COM object: the validated shape
// (all later checks - views, boxes, Map, copies - run against it, never against the
// backend) and which subresources are mapped.

#include <vector>

#include "npt/objects/object_table.h"
#include "npt/validation/resource.h"

namespace npt::objects {

class ResourceRecord final : public ObjectExtra {
public:
  explicit ResourceRecord(const validation::ResourceShape& shape)
      : m_shape(shape), m_mapped(shape.subresourceCount(), false) {}

  const validation::ResourceShape& shape() const { return m_shape; }

  bool isMapped(uint32_t subresource) const { return subresource < m_mapped.size() && m_mapped[subresource]; }
  void setMapped(uint32_t subresource, bool mapped) {
    if (subresource < m_mapped.size()) m_mapped[subresource] = mapped;
  }

private:
  validation::ResourceShape m_shape;
  std::vector<bool> m_mapped;
};

// Resolves an id a call uses as ID3D11Resource; fails (fatal) for non-resources and for
// resources inserted without a record.
TableResult lookupResource(ObjectTable& table, ObjectId id, ObjectInfo** info, ResourceRecord** record);

ObjectType objectTypeFor(D3D11_RESOURCE_DIMENSION dimension);

}  // namespace npt::objects
