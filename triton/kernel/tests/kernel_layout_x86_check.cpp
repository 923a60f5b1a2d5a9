// SPDX-License-Identifier: MIT
// The kernel contract's layouts compiled for x86 (-fsyntax-only by i686 mingw, meson
// test triton_kernel_x86_layout): the contract's static_asserts hold there too, and the
// DDI structures have their 32-bit sizes.
#include "kernel_ddi_layout_checks.h"

static_assert(sizeof(void*) == 4, "compile this check for x86");
