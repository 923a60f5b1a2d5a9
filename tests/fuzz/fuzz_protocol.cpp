// SPDX-License-Identifier: MIT
#include "fuzz_entry.h"

NPT_FUZZ_ENTRY(npt::fuzz::runProtocol)
