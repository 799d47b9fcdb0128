// GPU suite: quicksort (sampled pivots, multi-pivot partitions with
// equality classes, not stable, so outputs are checked as sorted
// permutations only). Sizes are chosen to reach every path of
// src/quick/family.cuh:
//   n <= one block-sort   one block sort (merge's first-stage tile: 9728 keys
//        tile             for 4-byte keys, 5632 for 8-byte elements and
//                         4-byte pairs: the edge sizes straddle both)
//   one level and more    pivots, count, offsets, partition (one work item,
//                         fewer items than blocks, several per block),
//                         file: 2-way up to 32-way splits (the fanout grows
//                         with n), children in both small lists (scratch
//                         buffer and output), equal runs copied out of the
//                         scratch buffer in 64K-key pieces (all-equal and
//                         few-unique inputs above 65536 keys)
//                         (4097 .. 2^24; every 2^k +- 1)
//   host readback         the levels after levels_needed(n) + 1 (all sizes
//                         above a tile)
//   depth-limit fallback  unreachable with real pivots at test sizes: the
//                         Fallback test runs the family with a depth limit
//                         of 1 and 2 levels, so merge::sort sorts the rest
// The Distributions test runs every harness distribution (sorted, reverse,
// organ pipe, median-of-3 killer, sample killer, all equal, few unique...)
// at each dist size; Adversarial runs them at a few million u32 and f64
// keys.
#include "gpu_suite.hpp"

#include "quick/family.cuh"

namespace {

const gpusort_test::family& quick_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::quick,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21},
      .sweep_from = 100,
      .sweep_to = 300000,
      .sweep_growth = 1.15,
      .dist_sizes = {1000, 5633, 9729, 100003, 1100007},
      .range_sizes = {1000, 65537},
      .large_u32 = {(1u << 21) + 3, (1u << 22) + 1, 6000011, (1u << 24) - 1},
      .large_other = {(1u << 21) + 3},
      .value_sizes = {1000, 5632, 5633, 20001, 131075},
      .api_n = 250007,
  };
  return f;
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuQuick, quick_family)

namespace {

using namespace gpusort_test;

class GpuQuickExtra : public gpu_test {};

template <class K> void adversarial(std::size_t n) {
  for (h::dist d : h::all_dists())
    for (auto dir : both_orders) {
      const sort_case c{d, n, dir, 0, -1, 6000 + n};
      GPUSORT_CASE(run_keys<K>(gpusort::algorithm::quick, c));
      GPUSORT_CASE(run_pairs<K>(gpusort::algorithm::quick, c));
    }
}

TEST_F(GpuQuickExtra, AdversarialU32) { adversarial<std::uint32_t>(3000017); }
TEST_F(GpuQuickExtra, AdversarialF64) { adversarial<double>(2000003); }

// The family with a depth limit of `Levels`: every child still larger than
// a tile after that many levels goes to the merge::sort fallback.
template <int Levels> struct shallow {
  template <class U, class P> struct tune : gpusort::detail::quick::tuning<U, P> {
    static int max_levels(std::size_t) { return Levels; }
  };
};

// Sorts in place (keys_in == keys_out), so the fallback's merge::sort also
// runs in place whenever the last level's destination is the output.
template <int Levels, class K> void fallback_case(const sort_case& c) {
  namespace d = gpusort::detail;
  using Tune = typename shallow<Levels>::template tune<typename d::key_traits<K>::bits, std::uint32_t>;
  const auto in = h::generate<K>(c.d, c.n, c.seed);
  std::vector<std::uint32_t> idx(c.n);
  std::iota(idx.begin(), idx.end(), 0u);
  device_buffer<K> keys(in);
  device_buffer<std::uint32_t> vals(idx);
  d::call_context ctx;
  const d::key_order<K> ord(c.dir == gpusort::order::descending, 0, int(sizeof(K) * 8));
  const d::sort_problem<K, std::uint32_t> p{keys.data(), keys.data(), vals.data(), vals.data(), c.n, ord, nullptr, &ctx};
  device_buffer<unsigned char> temp(d::quick::temp_bytes_with<Tune>(p));
  d::quick::sort_tuned<Tune>(p, temp.data());
  device_sync();
  const auto r = h::verify_pairs(in.data(), keys.download().data(), vals.download().data(), c.n,
                                 options_for(gpusort::algorithm::quick, c), false);
  ASSERT_TRUE(r.ok) << "quick fallback, depth limit " << Levels << ", "
                    << label<K>(gpusort::algorithm::quick, "pairs in place", c) << ": " << r.message;
}

TEST_F(GpuQuickExtra, Fallback) {
  for (h::dist d : {h::dist::uniform, h::dist::sorted, h::dist::few_unique})
    for (std::size_t n : {std::size_t(20001), std::size_t(300007)})
      for (auto dir : both_orders) {
        const sort_case c{d, n, dir, 0, -1, 7000 + n};
        GPUSORT_CASE((fallback_case<1, std::uint32_t>(c)));
        GPUSORT_CASE((fallback_case<2, std::uint32_t>(c)));
        GPUSORT_CASE((fallback_case<2, std::uint64_t>(c)));
      }
}

}  // namespace
