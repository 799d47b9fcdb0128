// The multi-GPU sort's constants, read by its kernels and its host driver.
#pragma once

#include <cstddef>

namespace gpusort::detail::multi {

struct tuning {
  // partition (partition/count.cuh, partition/scatter.cuh): one work item a
  // tile of 8192 keys, a table cell per (destination rank, tile); chunks
  // of threads x items keys, the scatter's sized so its exchange (keys or
  // values, plus 8-bit buckets) stays within 32 KB of static shared memory
  static constexpr int threads = 256;
  static constexpr int tile = 8192;
  static constexpr int count_items = 16;
  static constexpr int max_scatter_items = 16;
  static constexpr int exchange_bytes = 32 * 1024;
  static constexpr int bucket_bits = 8;  // plan.hpp's max_ranks + the pad bucket
  // the small kernels (sample, order, cuts, counts)
  static constexpr int small_threads = 256;
};

// Keys per thread in one scatter chunk: the exchange holds a chunk of the
// larger of key and value.
template <class U, class P>
inline constexpr std::size_t widest = sizeof(U) > sizeof(P) ? sizeof(U) : sizeof(P);
template <class U, class P>
inline constexpr int scatter_items =
    std::size_t(tuning::exchange_bytes) / (tuning::threads * widest<U, P>) < std::size_t(tuning::max_scatter_items)
        ? int(std::size_t(tuning::exchange_bytes) / (tuning::threads * widest<U, P>))
        : tuning::max_scatter_items;

}  // namespace gpusort::detail::multi
