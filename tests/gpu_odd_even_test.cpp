// GPU suite: odd-even transposition sort (stable, O(n^2 / tile) work):
// sizes are capped at 2^16 and the sweep is sparse (30% steps); every
// output is also compared bit for bit with CUB's (stable) radix sort.
#include "gpu_suite.hpp"

namespace {

const gpusort_test::family& odd_even_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::odd_even,
      .max_n = std::size_t(1) << 16,
      .pow2 = {5, 7, 10, 11, 12, 13, 14, 15, 16},
      .sweep_from = 100,
      .sweep_to = std::size_t(1) << 16,
      .sweep_growth = 1.3,
      .dist_sizes = {1000, 4097},
      .range_sizes = {777, 5001},
      .large_u32 = {(1u << 16) - 3, 40009},
      .large_other = {20001},
      .value_sizes = {1000, 8193},
      .api_n = 20000,
  };
  return f;
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuOddEven, odd_even_family)
