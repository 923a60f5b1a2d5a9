// SPDX-License-Identifier: MIT
#include "formats.h"

#include "npt/validation/format_table.h"

// The answer comes from the rules' format table (rules/), the one the guest runtime and
// the host compute footprints with.
namespace triton::runtime {

UINT blockSize(DXGI_FORMAT f) {
  const npt::validation::FormatInfo* info = npt::validation::lookupFormat(f);
  return info && info->is(npt::validation::FormatCompressed) ? info->blockWidth : 1;
}

}  // namespace triton::runtime
