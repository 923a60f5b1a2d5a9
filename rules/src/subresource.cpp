// SPDX-License-Identifier: MIT
#include "npt/validation/subresource.h"

#include "npt/validation/format_table.h"
#include "npt/validation/size_math.h"

namespace npt::validation {

bool footprintOf(const ResourceShape& shape, uint32_t subresource, SubresourceFootprint& out) {
  if (subresource >= shape.subresourceCount()) return false;
  if (shape.isBuffer()) {
    out = SubresourceFootprint{};
    out.width = shape.width;
    out.rowBytes = shape.width;
    out.rows = 1;
    return true;
  }
  const FormatInfo* info = lookupFormat(shape.format);
  if (!info) return false;
  out.mip = subresource % shape.mipLevels;
  out.arraySlice = subresource / shape.mipLevels;
  out.width = shape.mipWidth(out.mip);
  out.height = shape.mipHeight(out.mip);
  out.depth = shape.mipDepth(out.mip);
  return mipFootprint(*info, out.width, out.height, out.rowBytes, out.rows);
}

Check validateInitialData(const ResourceShape& shape, const SubresourceData* data, size_t count) {
  if (shape.sampleCount > 1)
    return Check::reject(Rule::InitialDataNotAllowed, "multisampled resources cannot have initial data");
  if (count != shape.subresourceCount())
    return Check::reject(Rule::InitialDataCount, "%zu initial data entries for %u subresources", count,
                         shape.subresourceCount());
  for (uint32_t index = 0; index < count; index++) {
    const SubresourceData& entry = data[index];
    if (!entry.present)
      return Check::reject(Rule::InitialDataMissing, "pSysMem of subresource %u is NULL", index);
    SubresourceFootprint footprint;
    if (!footprintOf(shape, index, footprint))
      return Check::reject(Rule::InitialDataCount, "subresource %u has no footprint", index);
    // Pitches only matter for the dimensions that have more than one row/slice; the
    // runtime reads rows at rowPitch intervals whatever the row size, so a small pitch
    // is legal (rows overlap) and only the extent read must be inside what we received.
    const bool is3D = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    const uint64_t rowPitch = entry.rowPitch;
    const uint64_t slicePitch = is3D ? entry.slicePitch : 0;
    uint64_t extent = 0;
    if (!readExtent(footprint.rowBytes, footprint.rows, is3D ? footprint.depth : 1, rowPitch, slicePitch, extent) ||
        extent > entry.size)
      return Check::reject(Rule::InitialDataTruncated,
                           "subresource %u needs %llu bytes at pitches %u/%u, guest sent %llu", index,
                           (unsigned long long)extent, entry.rowPitch, entry.slicePitch,
                           (unsigned long long)entry.size);
  }
  return Check::pass();
}

Check validateUpdateSubresource(const ResourceShape& dst, const UpdateSubresourceArgs& args) {
  if (dst.usage == D3D11_USAGE_IMMUTABLE || dst.usage == D3D11_USAGE_DYNAMIC)
    return Check::reject(Rule::UpdateDestination, "UpdateSubresource on a %s resource",
                         dst.usage == D3D11_USAGE_IMMUTABLE ? "IMMUTABLE" : "DYNAMIC");
  if (dst.sampleCount > 1 || (dst.bindFlags & D3D11_BIND_DEPTH_STENCIL))
    return Check::reject(Rule::UpdateDestination, "UpdateSubresource on a multisampled or depth-stencil resource");

  SubresourceFootprint footprint;
  if (!footprintOf(dst, args.subresource, footprint))
    return Check::reject(Rule::SubresourceIndex, "subresource %u of %u", args.subresource, dst.subresourceCount());

  uint32_t left = 0, top = 0, front = 0;
  uint32_t right = footprint.width, bottom = footprint.height, back = footprint.depth;
  if (args.box) {
    if (dst.isBuffer() && (dst.bindFlags & D3D11_BIND_CONSTANT_BUFFER) && !args.partialConstantUpdate)
      return Check::reject(Rule::UpdateConstantBufferBox, "partial constant buffer updates need UpdateSubresource1");
    const D3D11_BOX& box = *args.box;
    if (box.left >= box.right || box.top >= box.bottom || box.front >= box.back)
      return Check::reject(Rule::UpdateBoxEmpty, "empty box (%u,%u,%u)-(%u,%u,%u): nothing to update", box.left,
                           box.top, box.front, box.right, box.bottom, box.back);
    if (box.right > footprint.width || box.bottom > footprint.height || box.back > footprint.depth)
      return Check::reject(Rule::UpdateBoxOutOfBounds, "box (%u,%u,%u)-(%u,%u,%u) outside %ux%ux%u", box.left, box.top,
                           box.front, box.right, box.bottom, box.back, footprint.width, footprint.height,
                           footprint.depth);
    left = box.left, top = box.top, front = box.front;
    right = box.right, bottom = box.bottom, back = box.back;
  }

  uint64_t rowBytes = right - left, rows = bottom - top;
  if (!dst.isBuffer()) {
    const FormatInfo* info = lookupFormat(dst.format);
    if (!info) return Check::reject(Rule::UpdateDestination, "destination has no format");
    // Blocks must be updated whole; a box edge may stop short only at the mip edge.
    const bool alignedX = left % info->blockWidth == 0 &&
        (right % info->blockWidth == 0 || right == footprint.width);
    const bool alignedY = top % info->blockHeight == 0 &&
        (bottom % info->blockHeight == 0 || bottom == footprint.height);
    if (!alignedX || !alignedY)
      return Check::reject(Rule::UpdateBoxAlignment, "box is not aligned to the %ux%u blocks of %s",
                           info->blockWidth, info->blockHeight, info->name);
    if (!mipFootprint(*info, right - left, bottom - top, rowBytes, rows))
      return Check::reject(Rule::UpdateDestination, "format %s has no memory layout", info->name);
  }
  uint64_t extent = 0;
  if (!readExtent(rowBytes, rows, back - front, args.rowPitch, args.depthPitch, extent) || extent > args.size)
    return Check::reject(Rule::UpdateDataTruncated, "update reads %llu bytes at pitches %u/%u, guest sent %llu",
                         (unsigned long long)extent, args.rowPitch, args.depthPitch, (unsigned long long)args.size);
  return Check::pass();
}

}  // namespace npt::validation
