// SPDX-License-Identifier: MIT
// Compiled with -fsyntax-only by an x86 (i686) mingw compiler from a meson
// test: the same layout checks and the whole table-order list as static
// assertions, for the 32-bit layout the native and x86_64 builds cannot see.

#include "ddi_layout_checks.h"

static_assert(sizeof(void*) == 4, "this check is meant for the x86 compiler");

#define TRITON_DDI_TABLE_MEMBER(T, m, i) \
  static_assert(offsetof(triton::ddi::T, m) == (i) * sizeof(void*), #T "::" #m);
#define TRITON_DDI_TABLE_SIZE(T, n) static_assert(sizeof(triton::ddi::T) == (n) * sizeof(void*), #T " size");
#include "ddi_table_order.inc"
