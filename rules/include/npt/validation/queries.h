// SPDX-License-Identifier: MIT
#pragma once

// Queries and predicates (D3D11_QUERY): which types are predicates, the size of each
// type's GetData result, and CreateQuery / CreatePredicate's checks.

#include <cstdint>

#include "npt/d3d11_api.h"
#include "npt/validation/check.h"

namespace npt::validation {

// OCCLUSION_PREDICATE, SO_OVERFLOW_PREDICATE and the per-stream overflow predicates, which
// interleave with the per-stream statistics (STATISTICS_STREAMn = 8 + 2n, PREDICATE_STREAMn = 9 + 2n).
bool isPredicateQuery(D3D11_QUERY query);

// Bytes of GetData's result for a query of this type; 0 for a type that does not exist.
uint32_t queryDataSize(D3D11_QUERY query);

// CreateQuery (predicate false) / CreatePredicate (true).
Check validateQueryDesc(const D3D11_QUERY_DESC& desc, bool predicate);

}  // namespace npt::validation
