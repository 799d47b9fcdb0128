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
//   empty levels          every size above a tile: all max_levels(n) levels
//                         run, those past levels_needed(n) with no segment
//   depth-limit fallback  unreachable with real pivots at test sizes: the
//                         Fallback test runs the family with a depth limit
//                         of 1 and 2 levels, so the shared fallback
//                         (partition/fallback.cuh: one merge sort of the
//                         device-listed ranges) sorts the rest
// The Distributions test runs every harness distribution (sorted, reverse,
// organ pipe, median-of-3 killer, sample killer, all equal, few unique...)
// at each dist size; Adversarial runs them at a few million u32 and f64
// keys. SampleFallback reaches the same fallback from sample sort, run with
// 1 to 3 levels (a .cu suite, like this one, can instantiate the families).
#include "gpu_suite.hpp"

#include "quick/family.cuh"
#include "sample/family.cuh"

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
// a tile after that many levels goes to the fallback.
template <int Levels> struct shallow {
  template <class U, class P> struct tune : gpusort::detail::quick::tuning<U, P> {
    static int max_levels(std::size_t) { return Levels; }
  };
};

// Case c as pairs (value = input index) on the device, for a family
// called directly: sort(problem, temp) sorts in place (keys_in ==
// keys_out), then the result is checked.
template <class K> struct in_place_pairs {
  std::vector<K> in;
  device_buffer<K> keys;
  device_buffer<std::uint32_t> vals;
  gpusort::detail::call_context ctx;
  gpusort::detail::sort_problem<K, std::uint32_t> p;

  in_place_pairs(const sort_case& c, gpusort::pivot_rule pivots = gpusort::pivot_rule::sampled)
      : in(h::generate<K>(c.d, c.n, c.seed)), keys(in), vals(iota(c.n)) {
    const gpusort::detail::key_order<K> ord(c.dir == gpusort::order::descending, 0, int(sizeof(K) * 8));
    p = {keys.data(), keys.data(), vals.data(), vals.data(), c.n, ord, nullptr, &ctx, pivots};
  }
  static std::vector<std::uint32_t> iota(std::size_t n) {
    std::vector<std::uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0u);
    return v;
  }
  void check(gpusort::algorithm algo, const sort_case& c, const std::string& what) {
    device_sync();
    const auto r = h::verify_pairs(in.data(), keys.download().data(), vals.download().data(), c.n,
                                   options_for(algo, c), gpusort::is_stable(algo));
    EXPECT_TRUE(r.ok) << what << ", " << label<K>(algo, "pairs in place", c) << ": " << r.message;
  }
};

// Ranges the fallback list held after the last sort that used `count`.
inline std::size_t listed(const gpusort::detail::queue_counter* count) {
  gpusort::detail::queue_counter c = 0;
  GPUSORT_CUDA(cudaMemcpy(&c, count, sizeof c, cudaMemcpyDeviceToHost));
  return std::size_t(c);
}

// In place, so the fallback's block sort also runs in place whenever the
// last level's destination is the output. Returns the ranges that took
// the fallback.
template <int Levels, class K> std::size_t fallback_case(const sort_case& c) {
  namespace d = gpusort::detail;
  using Tune = typename shallow<Levels>::template tune<typename d::key_traits<K>::bits, std::uint32_t>;
  in_place_pairs<K> s(c);
  device_buffer<unsigned char> temp(d::quick::temp_bytes_with<Tune>(s.p));
  d::quick::sort_tuned<Tune>(s.p, temp.data());
  s.check(gpusort::algorithm::quick, c, "quick fallback, depth limit " + std::to_string(Levels));
  return listed(d::quick::plan<Tune, K, std::uint32_t>(c.n, temp.data()).q.fallback.count);
}

TEST_F(GpuQuickExtra, Fallback) {
  std::size_t ranges = 0;
  for (h::dist d : {h::dist::uniform, h::dist::sorted, h::dist::few_unique})
    for (std::size_t n : {std::size_t(20001), std::size_t(300007)})
      for (auto dir : both_orders) {
        const sort_case c{d, n, dir, 0, -1, 7000 + n};
        ranges += fallback_case<1, std::uint32_t>(c);
        ranges += fallback_case<2, std::uint32_t>(c);
        ranges += fallback_case<2, std::uint64_t>(c);
        if (HasFailure()) return;
      }
  EXPECT_GT(ranges, 0u) << "no case reached the fallback";
}

// Sample sort with `levels` levels of distribution, in place, stable:
// returns the buckets that took the fallback (still oversized after them).
template <class K>
std::size_t sample_fallback_case(const sort_case& c, int levels, gpusort::pivot_rule pivots) {
  namespace d = gpusort::detail;
  in_place_pairs<K> s(c, pivots);
  device_buffer<unsigned char> temp(d::sample::family::temp_bytes(s.p));
  d::sample::sort_with(s.p, d::full_order<K>(s.p.ord), temp.data(), levels);
  s.check(gpusort::algorithm::sample, c, "sample fallback after " + std::to_string(levels) + " levels");
  const d::sample::plan<K, std::uint32_t> pl(c.n, temp.data());
  return listed(pl.lists.next(levels).count) >> d::sample::tuning::tile_bits;
}

TEST_F(GpuQuickExtra, SampleFallback) {
  using gpusort::pivot_rule;
  for (auto dir : both_orders) {
    // one level: ~256 range buckets of ~11700 keys, all oversized, in the
    // scratch buffer; 2 or 3 runs of 5632 each (one or two merge passes:
    // ranges end in both buffers)
    const sort_case wide{h::dist::uniform, 3000017, dir, 0, -1, 7100};
    EXPECT_GT(sample_fallback_case<std::uint32_t>(wide, 1, pivot_rule::sampled), 100u);
    // interpolated pivots on entropy4 keys keep big buckets for levels
    // (tests/gpu_sample_test.cpp): 2 levels leave them in the output, 3 in
    // the scratch buffer
    const sort_case deep{h::dist::entropy4, (std::size_t(1) << 20) + 7, dir, 0, -1, 7200};
    EXPECT_GT(sample_fallback_case<std::uint64_t>(deep, 2, pivot_rule::interpolated), 0u);
    EXPECT_GT(sample_fallback_case<std::uint64_t>(deep, 3, pivot_rule::interpolated), 0u);
    EXPECT_GT(sample_fallback_case<std::uint32_t>(deep, 2, pivot_rule::interpolated), 0u);
    if (HasFailure()) return;
  }
}

// One small case of each family's fallback, with ranges to sort, for the
// sanitizers (--gtest_filter=GpuQuickExtra.FallbackSmall).
TEST_F(GpuQuickExtra, FallbackSmall) {
  // one level splits 300007 keys (with u32 values) ~9 ways: every child
  // (~33K keys, ~6 runs of 5632, 3 merge passes) takes the fallback
  const sort_case q{h::dist::uniform, 300007, gpusort::order::ascending, 0, -1, 7300};
  EXPECT_GT((fallback_case<1, std::uint32_t>(q)), 0u);
  // most entropy4 keys share interpolated pivots' lowest bucket
  const sort_case s{h::dist::entropy4, 100003, gpusort::order::descending, 0, -1, 7400};
  EXPECT_GT(sample_fallback_case<std::uint32_t>(s, 1, gpusort::pivot_rule::interpolated), 0u);
}

}  // namespace
