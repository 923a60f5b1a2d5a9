// SPDX-License-Identifier: MIT
#include "npt/validation/context_calls.h"

namespace npt::validation {

// Map rules from the D3D11_MAP documentation and the D3D11_USAGE table: READ/WRITE need
// the matching CPU access flag, DISCARD/NO_OVERWRITE are the only map types of DYNAMIC
// resources, and NO_OVERWRITE applies to buffers (constant and SRV buffers only where
// D3D11_FEATURE_D3D11_OPTIONS allows it).
Check validateMap(const ResourceShape& resource, uint32_t subresource, D3D11_MAP mapType, uint32_t mapFlags,
                  bool alreadyMapped, const DeviceLimits& limits) {
  if (subresource >= resource.subresourceCount())
    return Check::reject(Rule::MapSubresource, "subresource %u of %u", subresource, resource.subresourceCount());
  if (mapType < D3D11_MAP_READ || mapType > D3D11_MAP_WRITE_NO_OVERWRITE)
    return Check::reject(Rule::MapType, "invalid map type %u", unsigned(mapType));
  if (mapFlags & ~uint32_t(D3D11_MAP_FLAG_DO_NOT_WAIT))
    return Check::reject(Rule::MapFlags, "invalid map flags %#x", mapFlags);
  if (alreadyMapped)
    return Check::reject(Rule::MapAlreadyMapped, "subresource %u is already mapped", subresource);

  const uint32_t cpu = resource.cpuAccessFlags;
  const bool dynamic = resource.usage == D3D11_USAGE_DYNAMIC;
  switch (mapType) {
    case D3D11_MAP_READ:
    case D3D11_MAP_WRITE:
    case D3D11_MAP_READ_WRITE: {
      const uint32_t needed = mapType == D3D11_MAP_READ ? D3D11_CPU_ACCESS_READ
                            : mapType == D3D11_MAP_WRITE ? D3D11_CPU_ACCESS_WRITE
                            : D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
      if (dynamic)
        return Check::reject(Rule::MapAccess, "DYNAMIC resources map only with WRITE_DISCARD or WRITE_NO_OVERWRITE");
      if ((cpu & needed) != needed)
        return Check::reject(Rule::MapAccess, "map type %u needs CPU access %#x, resource has %#x", unsigned(mapType),
                             needed, cpu);
      break;
    }
    case D3D11_MAP_WRITE_DISCARD:
      if (!dynamic)
        return Check::reject(Rule::MapAccess, "WRITE_DISCARD needs a DYNAMIC resource");
      break;
    case D3D11_MAP_WRITE_NO_OVERWRITE: {
      if (!dynamic)
        return Check::reject(Rule::MapAccess, "WRITE_NO_OVERWRITE needs a DYNAMIC resource");
      if (!resource.isBuffer())
        return Check::reject(Rule::MapAccess, "WRITE_NO_OVERWRITE is for buffers only");
      const uint32_t bind = resource.bindFlags;
      const bool iaBuffer = bind & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER);
      const bool cbAllowed = (bind & D3D11_BIND_CONSTANT_BUFFER) && limits.mapNoOverwriteOnDynamicConstantBuffer;
      const bool srvAllowed = (bind & D3D11_BIND_SHADER_RESOURCE) && limits.mapNoOverwriteOnDynamicBufferSrv;
      if (!iaBuffer && !cbAllowed && !srvAllowed)
        return Check::reject(Rule::MapAccess, "WRITE_NO_OVERWRITE not allowed for bind flags %#x on this device", bind);
      break;
    }
    default:
      break;
  }
  return Check::pass();
}

Check validateUnmap(const ResourceShape& resource, uint32_t subresource, bool mapped) {
  if (subresource >= resource.subresourceCount())
    return Check::reject(Rule::SubresourceIndex, "Unmap of subresource %u of %u", subresource,
                         resource.subresourceCount());
  if (!mapped)
    return Check::reject(Rule::UnmapNotMapped, "Unmap of subresource %u that is not mapped", subresource);
  return Check::pass();
}

}  // namespace npt::validation
