// GPU suite: sample sort (Sintorn-Assarsson bucket/merge hybrid, stable, so
// every output is also compared bit for bit with CUB's radix sort).
// Sizes are chosen to reach every path of src/sample/family.cuh:
//   n <= 2^14            merge::sort directly (16384 / 16385 straddle it)
//   buckets <= 1 tile    segmented block sort, one block per bucket
//   buckets > 1 tile     merge::sort on the subrange (2^21 and up: 256
//                        range buckets average > 4352 keys); large equality
//                        buckets (equal, few_unique, zipf, u8/i8 keys) copy
// The Distributions test runs the killers of all_dists() (sample_killer,
// equal, few_unique, zipf, sorted, reverse...) at each dist size.
#include "gpu_suite.cuh"

namespace {

const gpusort_test::family& sample_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::sample,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 12, 13, 14, 15, 16, 17, 18, 20, 21},
      .sweep_from = 100,
      .sweep_to = 300000,
      .sweep_growth = 1.15,
      .dist_sizes = {1000, 16385, 100003, 1100007},
      .range_sizes = {1000, 65537},
      .large_u32 = {(1u << 21) + 1, (1u << 22) + 3, 5000000, (1u << 23) - 1},
      .large_other = {(1u << 21) + 1},
      .value_sizes = {1000, 20001, 131075},
      .api_n = 300007,
  };
  return f;
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuSample, sample_family)
