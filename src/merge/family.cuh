// The merge family behind gpusort::algorithm::{merge_recursive,
// merge_bottom_up, merge_path} for the library's key types: keys are carried
// as twiddled bits and compared by key_order (CUB's order, descending, bit
// ranges), or by full_order when every bit takes part. Custom key types with a comparator use the same kernels through
// include/gpusort/merge_sort.cuh.
#pragma once

#include "core/problem.cuh"
#include <gpusort/detail/merge/merge_sort.cuh>
#include "merge/teaching.cuh"

namespace gpusort::detail::merge {

template <class K, class P> using tune_for = tuning<typename key_traits<K>::bits, P>;

struct path_family {
  static constexpr algorithm id = algorithm::merge_path;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = all_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return sort_temp_bytes<tune_for<K, P>, K, P>(p.n);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    merge::sort<tune_for<K, P>>(*p.ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, p.n, full_order<K>(p.ord),
                                p.stream, temp);
  }
};

struct recursive_family {
  static constexpr algorithm id = algorithm::merge_recursive;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = index_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return teaching_temp_bytes<K, P>(p.n);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    sort_recursive<tune_for<K, P>>(*p.ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, p.n, full_order<K>(p.ord),
                                   p.stream, temp);
  }
};

struct bottom_up_family {
  static constexpr algorithm id = algorithm::merge_bottom_up;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = index_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return teaching_temp_bytes<K, P>(p.n);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    sort_bottom_up(*p.ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, p.n, full_order<K>(p.ord), p.stream, temp);
  }
};

}  // namespace gpusort::detail::merge
