// SPDX-License-Identifier: MIT
#include "npt/validation/queries.h"

namespace npt::validation {

bool isPredicateQuery(D3D11_QUERY query) {
  return query == D3D11_QUERY_OCCLUSION_PREDICATE || query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
         (query >= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 && query <= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3 &&
          (query - D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0) % 2 == 0);
}

uint32_t queryDataSize(D3D11_QUERY query) {
  switch (query) {
    case D3D11_QUERY_EVENT:
    case D3D11_QUERY_OCCLUSION_PREDICATE:
    case D3D11_QUERY_SO_OVERFLOW_PREDICATE:
    case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0:
    case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1:
    case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2:
    case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3:
      return sizeof(BOOL);
    case D3D11_QUERY_OCCLUSION:
    case D3D11_QUERY_TIMESTAMP:
      return sizeof(UINT64);
    case D3D11_QUERY_TIMESTAMP_DISJOINT:
      return sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT);
    case D3D11_QUERY_PIPELINE_STATISTICS:
      return sizeof(D3D11_QUERY_DATA_PIPELINE_STATISTICS);
    case D3D11_QUERY_SO_STATISTICS:
    case D3D11_QUERY_SO_STATISTICS_STREAM0:
    case D3D11_QUERY_SO_STATISTICS_STREAM1:
    case D3D11_QUERY_SO_STATISTICS_STREAM2:
    case D3D11_QUERY_SO_STATISTICS_STREAM3:
      return sizeof(D3D11_QUERY_DATA_SO_STATISTICS);
    default:
      return 0;
  }
}

Check validateQueryDesc(const D3D11_QUERY_DESC& desc, bool predicate) {
  if (desc.Query < D3D11_QUERY_EVENT || desc.Query > D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3)
    return Check::reject(Rule::QueryType, "invalid query type %u", unsigned(desc.Query));
  if (desc.MiscFlags & ~uint32_t(D3D11_QUERY_MISC_PREDICATEHINT))
    return Check::reject(Rule::QueryMiscFlags, "invalid query misc flags %#x", desc.MiscFlags);
  // CreatePredicate takes the two predicates of Direct3D 10 only; the per-stream overflow
  // predicates are queries that answer ID3D11Predicate, created by CreateQuery (as on
  // Windows: Wine's d3d11 suite, test_create_query).
  const bool creatable = desc.Query == D3D11_QUERY_OCCLUSION_PREDICATE || desc.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE;
  if (predicate && !creatable)
    return Check::reject(Rule::QueryType, "CreatePredicate with query %u, which CreateQuery creates", unsigned(desc.Query));
  if ((desc.MiscFlags & D3D11_QUERY_MISC_PREDICATEHINT) && !isPredicateQuery(desc.Query))
    return Check::reject(Rule::QueryMiscFlags, "PREDICATEHINT on non-predicate query %u", unsigned(desc.Query));
  return Check::pass();
}

}  // namespace npt::validation
