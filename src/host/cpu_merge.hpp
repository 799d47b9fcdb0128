// CPU merge sort baselines of seed 001: recursive top-down and iterative
// bottom-up, single-threaded, stable, in the same order as the GPU sorts.
// The benchmark runs them beside std::sort and the parallel CPU sort.
#pragma once

#include <gpusort/gpusort.hpp>

#include <cstddef>

namespace gpusort::detail {

template <class K> void cpu_merge_sort_recursive(K* keys, std::size_t n, const options& opt);
template <class K> void cpu_merge_sort_iterative(K* keys, std::size_t n, const options& opt);

}  // namespace gpusort::detail
