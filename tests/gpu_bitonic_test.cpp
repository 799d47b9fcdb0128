// GPU suite: bitonic sort (not stable, O(n log^2 n)): any n, so sizes go
// from 0 to 2^23 - 1 for u32 keys.
#include "gpu_suite.hpp"

namespace {

const gpusort_test::family& bitonic_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::bitonic,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20},
      .sweep_from = 100,
      .sweep_to = 300000,
      .sweep_growth = 1.1,
      .dist_sizes = {1000, 8193, 100003},
      .range_sizes = {1000, 65537},
      .large_u32 = {(1u << 21) - 1, 1u << 21, (1u << 21) + 1, (1u << 22) + 3, 5000000, (1u << 23) - 1},
      .large_other = {(1u << 21) + 1},
      .value_sizes = {1000, 4097, 131075},
      .api_n = 300007,
  };
  return f;
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuBitonic, bitonic_family)
