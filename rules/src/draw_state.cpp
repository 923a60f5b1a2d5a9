// SPDX-License-Identifier: MIT
#include <cmath>

#include "npt/validation/context_calls.h"
#include "npt/validation/format_table.h"
#include "npt/validation/subresource.h"

namespace npt::validation {

// Void context methods: Windows drops invalid calls (debug layer messages
// DEVICE_IASETPRIMITIVETOPOLOGY_TOPOLOGY_UNRECOGNIZED, CLEARDEPTHSTENCILVIEW_INVALID,
// RESOLVESUBRESOURCE_*, GENERATEMIPS_*).

Check validatePrimitiveTopology(uint32_t topology) {
  // UNDEFINED is the default state (ClearState sets it); setting it is valid, and Windows
  // discards the draws made while it is set (the executor drops them).
  if (topology == D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED) return Check::pass();
  const bool basic = topology >= D3D11_PRIMITIVE_TOPOLOGY_POINTLIST && topology <= D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP;
  const bool adjacency = topology >= D3D11_PRIMITIVE_TOPOLOGY_LINELIST_ADJ &&
                         topology <= D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ;
  const bool patches = topology >= D3D11_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST &&
                       topology <= D3D11_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST;
  if (!basic && !adjacency && !patches)
    return Check::reject(Rule::PrimitiveTopology, "unknown primitive topology %u", topology);
  return Check::pass();
}

Check validateClearDepthStencil(uint32_t clearFlags, float depth) {
  const uint32_t known = D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL;
  if (!clearFlags || (clearFlags & ~known))
    return Check::reject(Rule::ClearDepthStencilFlags, "clear flags %#x", clearFlags);
  if ((clearFlags & D3D11_CLEAR_DEPTH) && !(depth >= 0.0f && depth <= 1.0f))
    return Check::reject(Rule::ClearDepthStencilFlags, "clear depth %f outside [0, 1]", depth);
  return Check::pass();
}

Check validateResolveSubresource(const ResourceShape& dst, uint32_t dstSubresource, const ResourceShape& src,
                                 uint32_t srcSubresource, DXGI_FORMAT format) {
  SubresourceFootprint dstPrint, srcPrint;
  if (!footprintOf(dst, dstSubresource, dstPrint) || !footprintOf(src, srcSubresource, srcPrint))
    return Check::reject(Rule::SubresourceIndex, "resolve subresources %u/%u out of range", dstSubresource,
                         srcSubresource);
  if (src.sampleCount <= 1 || dst.sampleCount != 1)
    return Check::reject(Rule::ResolveMismatch, "resolve needs a multisampled source (%u) and single-sampled "
                         "destination (%u)", src.sampleCount, dst.sampleCount);
  if (dst.usage == D3D11_USAGE_IMMUTABLE)
    return Check::reject(Rule::ResolveMismatch, "resolve into an IMMUTABLE resource");
  if (dstPrint.width != srcPrint.width || dstPrint.height != srcPrint.height)
    return Check::reject(Rule::ResolveMismatch, "extents differ (%ux%u vs %ux%u)", dstPrint.width, dstPrint.height,
                         srcPrint.width, srcPrint.height);
  const FormatInfo* info = lookupFormat(format);
  if (!info || info->is(FormatTypeless) || info->is(FormatDepth) || info->is(FormatCompressed))
    return Check::reject(Rule::ResolveMismatch, "format %u cannot be resolved", unsigned(format));
  if (!formatsShareFamily(format, dst.format) || !formatsShareFamily(format, src.format))
    return Check::reject(Rule::ResolveMismatch, "format %s does not belong to both resources", info->name);
  return Check::pass();
}

Check validateGenerateMips(const ResourceShape& resource) {
  if (!(resource.miscFlags & D3D11_RESOURCE_MISC_GENERATE_MIPS))
    return Check::reject(Rule::GenerateMipsResource, "GenerateMips on a resource created without GENERATE_MIPS");
  return Check::pass();
}

}  // namespace npt::validation
