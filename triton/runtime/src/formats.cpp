// SPDX-License-Identifier: MIT
#include "formats.h"

#include "npt/validation/format_table.h"

// Both answers come from the rules' format table (rules/), the one the guest runtime and
// the host compute footprints with.
namespace triton::runtime {

UINT blockSize(DXGI_FORMAT f) {
  const npt::validation::FormatInfo* info = npt::validation::lookupFormat(f);
  return info && info->is(npt::validation::FormatCompressed) ? info->blockWidth : 1;
}

UINT elementBytes(DXGI_FORMAT f) {
  const npt::validation::FormatInfo* info = npt::validation::lookupFormat(f);
  if (!info || info->is(npt::validation::FormatCompressed) || info->is(npt::validation::FormatPlanar))
    return 0;
  return info->blockBytes;
}

}  // namespace triton::runtime
