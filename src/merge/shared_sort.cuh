// merge::sort under full_order, for one key type and every payload: the
// merge_path family runs it, and sample sort and quicksort call it for
// small inputs and as their fallback (the host pipeline's merge windows are
// compiled in the same units: src/host/merge_window.cuh). Without care each
// of those units would compile its own copy of the three kernels. It is compiled once per
// key, in the generated merge_sort_<kind> units
// (GPUSORT_MERGE_SORT(template, K)), and declared in the family units
// (GPUSORT_MERGE_SORT(extern template, K)).
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/merge/merge_sort.cuh>

#define GPUSORT_MERGE_SORT_ONE(PREFIX, K, P)                                                                   \
  PREFIX void gpusort::detail::merge::sort<                                                                    \
      gpusort::detail::merge::tuning<gpusort::detail::key_traits<K>::bits, P>, K, P,                          \
      gpusort::detail::full_order<K>>(const gpusort::detail::call_context&, const K*, K*, const P*, P*,      \
                                      std::size_t, gpusort::detail::full_order<K>, cudaStream_t, void*);
#define GPUSORT_MERGE_SORT(PREFIX, K)                                          \
  GPUSORT_MERGE_SORT_ONE(PREFIX, K, gpusort::detail::no_value)                 \
  GPUSORT_MERGE_SORT_ONE(PREFIX, K, gpusort::detail::payload_of<1>::type)      \
  GPUSORT_MERGE_SORT_ONE(PREFIX, K, gpusort::detail::payload_of<2>::type)      \
  GPUSORT_MERGE_SORT_ONE(PREFIX, K, gpusort::detail::payload_of<4>::type)      \
  GPUSORT_MERGE_SORT_ONE(PREFIX, K, gpusort::detail::payload_of<8>::type)      \
  GPUSORT_MERGE_SORT_ONE(PREFIX, K, gpusort::detail::payload_of<16>::type)
