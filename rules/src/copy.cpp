// SPDX-License-Identifier: MIT
#include "npt/validation/context_calls.h"

#include "npt/validation/format_table.h"
#include "npt/validation/subresource.h"

namespace npt::validation {

// CopyResource / CopySubresourceRegion return nothing: an invalid call is dropped (the
// debug layer reports it). Rules from the CopyResource and CopySubresourceRegion remarks.

static Check validateCopyDestination(const ResourceShape& dst) {
  if (dst.usage == D3D11_USAGE_IMMUTABLE)
    return Check::reject(Rule::CopyDestination, "copy into an IMMUTABLE resource");
  return Check::pass();
}

Check validateCopyResource(const ResourceShape& dst, const ResourceShape& src, bool sameResource) {
  if (sameResource)
    return Check::reject(Rule::CopySameSubresource, "CopyResource with the same resource as source and destination");
  NPT_CHECK(validateCopyDestination(dst));
  if (dst.dimension != src.dimension)
    return Check::reject(Rule::CopyResourceMismatch, "resource dimensions differ (%u vs %u)", unsigned(dst.dimension),
                         unsigned(src.dimension));
  if (dst.width != src.width || dst.height != src.height || dst.depth != src.depth ||
      dst.mipLevels != src.mipLevels || dst.arraySize != src.arraySize)
    return Check::reject(Rule::CopyResourceMismatch, "resource extents differ (%ux%ux%u %u mips %u slices vs "
                         "%ux%ux%u %u mips %u slices)", dst.width, dst.height, dst.depth, dst.mipLevels,
                         dst.arraySize, src.width, src.height, src.depth, src.mipLevels, src.arraySize);
  if (dst.sampleCount != src.sampleCount)
    return Check::reject(Rule::CopySampleCount, "sample counts differ (%u vs %u)", dst.sampleCount, src.sampleCount);
  if (!dst.isBuffer() && !formatsShareFamily(dst.format, src.format))
    return Check::reject(Rule::CopyFormat, "formats %u and %u are not in one type family", unsigned(dst.format),
                         unsigned(src.format));
  return Check::pass();
}

Check validateCopySubresourceRegion(const ResourceShape& dst, const ResourceShape& src, bool sameResource,
                                    const CopyRegionArgs& args) {
  NPT_CHECK(validateCopyDestination(dst));
  if (dst.dimension != src.dimension)
    return Check::reject(Rule::CopyResourceMismatch, "resource dimensions differ (%u vs %u)", unsigned(dst.dimension),
                         unsigned(src.dimension));
  SubresourceFootprint dstPrint, srcPrint;
  if (!footprintOf(dst, args.dstSubresource, dstPrint))
    return Check::reject(Rule::CopySubresource, "destination subresource %u of %u", args.dstSubresource,
                         dst.subresourceCount());
  if (!footprintOf(src, args.srcSubresource, srcPrint))
    return Check::reject(Rule::CopySubresource, "source subresource %u of %u", args.srcSubresource,
                         src.subresourceCount());
  if (sameResource && args.dstSubresource == args.srcSubresource)
    return Check::reject(Rule::CopySameSubresource, "source and destination are the same subresource");
  if (dst.sampleCount != src.sampleCount)
    return Check::reject(Rule::CopySampleCount, "sample counts differ (%u vs %u)", dst.sampleCount, src.sampleCount);

  const bool wholeOnly = dst.sampleCount > 1 || ((dst.bindFlags | src.bindFlags) & D3D11_BIND_DEPTH_STENCIL);
  if (wholeOnly && (args.srcBox || args.dstX || args.dstY || args.dstZ))
    return Check::reject(Rule::CopyWholeSubresourceOnly, "depth-stencil and multisampled copies take whole subresources");

  D3D11_BOX box{0, 0, 0, srcPrint.width, srcPrint.height, srcPrint.depth};
  if (args.srcBox) box = *args.srcBox;
  if (box.left >= box.right || box.top >= box.bottom || box.front >= box.back)
    return Check::reject(Rule::CopyBox, "empty source box: nothing to copy");
  if (box.right > srcPrint.width || box.bottom > srcPrint.height || box.back > srcPrint.depth)
    return Check::reject(Rule::CopyBox, "source box (%u,%u,%u)-(%u,%u,%u) outside %ux%ux%u", box.left, box.top,
                         box.front, box.right, box.bottom, box.back, srcPrint.width, srcPrint.height, srcPrint.depth);

  if (dst.isBuffer()) {
    const uint64_t end = uint64_t(args.dstX) + (box.right - box.left);
    if (end > dstPrint.width || args.dstY || args.dstZ)
      return Check::reject(Rule::CopyBox, "destination range %u+%u exceeds ByteWidth %u", args.dstX,
                           box.right - box.left, dstPrint.width);
    return Check::pass();
  }

  if (!formatsCopyCompatible(dst.format, src.format))
    return Check::reject(Rule::CopyFormat, "formats %u and %u cannot be copied into each other", unsigned(dst.format),
                         unsigned(src.format));
  const FormatInfo* sf = lookupFormat(src.format);
  const FormatInfo* df = lookupFormat(dst.format);
  if (!sf || !df) return Check::reject(Rule::CopyFormat, "resource without a format");

  // The source box must cover whole blocks (or end at the mip edge).
  if (box.left % sf->blockWidth || box.top % sf->blockHeight ||
      (box.right % sf->blockWidth && box.right != srcPrint.width) ||
      (box.bottom % sf->blockHeight && box.bottom != srcPrint.height))
    return Check::reject(Rule::CopyBox, "source box is not aligned to %ux%u blocks", sf->blockWidth, sf->blockHeight);
  if (args.dstX % df->blockWidth || args.dstY % df->blockHeight)
    return Check::reject(Rule::CopyBox, "destination offset is not aligned to %ux%u blocks", df->blockWidth,
                         df->blockHeight);

  // Compare in blocks: one BC block copies to one texel of a same-size plain format.
  const uint64_t blocksW = (box.right - box.left + sf->blockWidth - 1) / sf->blockWidth;
  const uint64_t blocksH = (box.bottom - box.top + sf->blockHeight - 1) / sf->blockHeight;
  const uint64_t dstBlocksW = (dstPrint.width + df->blockWidth - 1) / df->blockWidth;
  const uint64_t dstBlocksH = (dstPrint.height + df->blockHeight - 1) / df->blockHeight;
  if (args.dstX / df->blockWidth + blocksW > dstBlocksW || args.dstY / df->blockHeight + blocksH > dstBlocksH ||
      uint64_t(args.dstZ) + (box.back - box.front) > dstPrint.depth)
    return Check::reject(Rule::CopyBox, "region at (%u,%u,%u) does not fit destination %ux%ux%u", args.dstX, args.dstY,
                         args.dstZ, dstPrint.width, dstPrint.height, dstPrint.depth);
  return Check::pass();
}

}  // namespace npt::validation
