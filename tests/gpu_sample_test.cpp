// GPU suite: sample sort (Sintorn-Assarsson bucket/merge hybrid, stable, so
// every output is also compared bit for bit with CUB's radix sort).
// Sizes are chosen to reach every path of src/sample/family.cuh:
//   n <= 2^14            merge::sort directly (16384 / 16385 straddle it)
//   one level            2^14 < n < ~2^20 (u32): every range bucket fits one
//                        merge tile, runs packed and block-sorted
//   refinement           2^21 and up (256 range buckets average > 4864 keys):
//                        level 2 splits them all in one set of launches,
//                        sorted back in place in the output; large equality
//                        buckets (equal, few_unique, zipf, u8/i8 keys) are
//                        copied in whole tiles
// The Distributions test runs the killers of all_dists() (sample_killer,
// equal, few_unique, zipf, sorted, reverse...) at each dist size.
// GpuSampleInterpolated runs pivot_rule::interpolated (checked against the
// stable reference): every distribution, bit ranges, and entropy4, whose
// keys crowd the low ranks, so a bucket keeps most keys for several levels
// (simulated on the host for u32/u64 at 2^20: 32-bit keys reach level 4;
// 64-bit keys run all tuning::max_levels and ~160K keys take the fallback's
// merge sort, partition/fallback.cuh). Every call launches a fixed count
// of levels (sampled pivots: what 256-way splits need, and a straggler
// level where those leave buckets above half a tile, tuning.cuh's
// levels_for; interpolated: all tuning::max_levels), so sizes above 2^14
// also run empty levels. gpu_quick_test.cu's SampleFallback runs the family with fewer
// levels to reach the fallback from uniform keys too.
#include "gpu_suite.hpp"

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

namespace h = gpusort::harness;
using gpusort_test::sort_case;

// Sorts keys (or pairs with value = original index) with interpolated
// pivots and checks order, permutation and stability against the harness.
template <class K> void run_interpolated(const sort_case& c, bool pairs) {
  auto opt = gpusort_test::options_for(gpusort::algorithm::sample, c);
  opt.pivots = gpusort::pivot_rule::interpolated;
  const std::string what =
      gpusort_test::label<K>(opt.algo, pairs ? "pairs" : "keys", c) + " pivots=interpolated";
  const auto in = h::generate<K>(c.d, c.n, c.seed);
  gpusort_test::device_buffer<K> d_kin(in), d_kout(c.n);
  const bool fast = c.n > gpusort_test::fast_verify_above;
  h::check r;
  if (pairs) {
    std::vector<std::uint32_t> idx(c.n);
    std::iota(idx.begin(), idx.end(), 0u);
    gpusort_test::device_buffer<std::uint32_t> d_vin(idx), d_vout(c.n);
    gpusort::sort_pairs(d_kin.data(), d_kout.data(), d_vin.data(), d_vout.data(), c.n, opt);
    gpusort_test::device_sync();
    const auto keys = d_kout.download();
    const auto vals = d_vout.download();
    r = fast ? h::verify_pairs_fast(in.data(), keys.data(), vals.data(), c.n, opt, true)
             : h::verify_pairs(in.data(), keys.data(), vals.data(), c.n, opt, true);
  } else {
    gpusort::sort_keys(d_kin.data(), d_kout.data(), c.n, opt);
    gpusort_test::device_sync();
    const auto out = d_kout.download();
    r = fast ? h::verify_keys_fast(in.data(), out.data(), c.n, opt)
             : h::verify_keys(in.data(), out.data(), c.n, opt, true);
  }
  ASSERT_TRUE(r.ok) << what << ": " << r.message;
}

template <class K> void run_interpolated_both(const sort_case& c) {
  GPUSORT_CASE(run_interpolated<K>(c, false));
  GPUSORT_CASE(run_interpolated<K>(c, true));
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuSample, sample_family)

template <class K> class GpuSampleInterpolated : public gpusort_test::gpu_test {};
TYPED_TEST_SUITE(GpuSampleInterpolated, gpusort_test::key_types, gpusort_test::key_name);

TYPED_TEST(GpuSampleInterpolated, Distributions) {
  for (h::dist d : h::all_dists())
    for (std::size_t n : {std::size_t(16385), std::size_t(100003), std::size_t(1100007)})
      for (auto dir : gpusort_test::both_orders)
        GPUSORT_CASE(run_interpolated_both<TypeParam>({d, n, dir, 0, -1, 6000 + n}));
}

TYPED_TEST(GpuSampleInterpolated, BitRanges) {
  constexpr int w = gpusort_test::width_of<TypeParam>;
  for (auto [b, e] : {std::pair{0, w / 2}, {3, w - 1}})
    for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::float_special})
      for (auto dir : gpusort_test::both_orders)
        GPUSORT_CASE(run_interpolated_both<TypeParam>({d, 300007, dir, b, e, 7000}));
}

TYPED_TEST(GpuSampleInterpolated, DeepLevels) {
  for (std::size_t n : {(std::size_t(1) << 20) + 7, std::size_t(3000017)})
    for (auto dir : gpusort_test::both_orders)
      GPUSORT_CASE(run_interpolated_both<TypeParam>({h::dist::entropy4, n, dir, 0, -1, 8000 + n}));
}
