// SPDX-License-Identifier: MIT
#include "npt/objects/resource_record.h"

namespace npt::objects {

TableResult lookupResource(ObjectTable& table, ObjectId id, ObjectInfo** info, ResourceRecord** record) {
  TableResult result = table.lookup(id, InterfaceId::ID3D11Resource, info);
  if (!result.ok()) return result;
  // Records are attached by the resource-creating paths only; a resource without one
  // cannot be validated and must not be used.
  *record = dynamic_cast<ResourceRecord*>((*info)->extra);
  if (!*record)
    return TableResult{TableError::WrongType, "resource " + std::to_string(id) + " has no validated shape"};
  return {};
}

ObjectType objectTypeFor(D3D11_RESOURCE_DIMENSION dimension) {
  switch (dimension) {
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: return ObjectType::Texture1D;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: return ObjectType::Texture2D;
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: return ObjectType::Texture3D;
    default: return ObjectType::Buffer;
  }
}

}  // namespace npt::objects
