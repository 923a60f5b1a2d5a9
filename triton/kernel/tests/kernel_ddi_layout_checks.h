// SPDX-License-Identifier: MIT
#pragma once

// The DDI structures the kernel contract travels in, as the WDK lays them out per
// architecture (pointer-sized members, D3DGPU_VIRTUAL_ADDRESS 8-aligned). Included by
// kernel_contract_test.cpp and, for x86, by kernel_layout_x86_check.cpp.

#include <cstddef>

#include "triton/ddi/ddi.h"
#include "triton/kernel/contract.h"

namespace triton::kernel::layout_checks {

namespace ddi = triton::ddi;

constexpr bool k64 = sizeof(void*) == 8;
static_assert(sizeof(ddi::D3DDDICB_ESCAPE) == (k64 ? 40 : 20));
static_assert(offsetof(ddi::D3DDDICB_ESCAPE, Flags) == (k64 ? 8 : 4));
static_assert(offsetof(ddi::D3DDDICB_ESCAPE, pPrivateDriverData) == (k64 ? 16 : 8));
static_assert(offsetof(ddi::D3DDDICB_ESCAPE, PrivateDriverDataSize) == (k64 ? 24 : 12));
static_assert(offsetof(ddi::D3DDDICB_ESCAPE, hContext) == (k64 ? 32 : 16));
static_assert(sizeof(ddi::D3DDDICB_LOCK) == (k64 ? 48 : 32));
static_assert(offsetof(ddi::D3DDDICB_LOCK, pPages) == (k64 ? 16 : 12));
static_assert(offsetof(ddi::D3DDDICB_LOCK, pData) == (k64 ? 24 : 16));
static_assert(offsetof(ddi::D3DDDICB_LOCK, Flags) == (k64 ? 32 : 20));
static_assert(offsetof(ddi::D3DDDICB_LOCK, GpuVirtualAddress) == (k64 ? 40 : 24));
static_assert(sizeof(ddi::D3DDDICB_UNLOCK) == (k64 ? 16 : 8));

}  // namespace triton::kernel::layout_checks
