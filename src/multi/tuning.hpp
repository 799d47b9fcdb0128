// The multi-GPU sort's constants, read by its kernels and its host driver.
#pragma once

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

}  // namespace gpusort::detail::multi
