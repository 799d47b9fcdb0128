// GPU suites: the radix family (all stable, so every output is also compared
// bit for bit with cub::DeviceRadixSort, keys and values = original index).
//   radix_split     one bit per pass: sizes capped at 2^20
//   radix_tile      tile radix sort + merge-path merges
//   radix_onesweep  the shared suite, plus its own edges: the small-n,
//                   fused and tile sizes +-1 of every key type, pass
//                   skipping (constant digits, in place or not, every
//                   path), odd pass counts in place, and a sort over more
//                   than one 2^28-key portion.
//   radix_msd       the shared suite, plus its own edges: the local sort's
//                   size +-1, one, two and three MSD levels, buckets of
//                   equal keys (copies), digits every key shares (small
//                   integers in wide keys, ids, timestamps, small signed
//                   values), bit ranges in place.
#include "gpu_radix_input.hpp"
#include "radix/digit.cuh"
#include "radix/msd_tuning.cuh"
#include "radix/onesweep_tuning.cuh"

#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>

namespace {

namespace t = gpusort_test;
using gpusort::algorithm;
using t::describe;
using t::masked_keys;
using t::run_input;

const t::family& split_family() {
  static const t::family f{
      .algo = algorithm::radix_split,
      .max_n = std::size_t(1) << 20,
      .pow2 = {5, 7, 10, 12, 13, 14, 16, 20},
      .sweep_from = 100,
      .sweep_to = 200000,
      .sweep_growth = 1.5,
      .dist_sizes = {1000, 8193},
      .range_sizes = {777, 5001},
      .large_u32 = {(1u << 20) + 1, 3000001},
      .large_other = {100003},
      .value_sizes = {1000, 8193},
      .api_n = 20000,
  };
  return f;
}

const t::family& tile_family() {
  static const t::family f{
      .algo = algorithm::radix_tile,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20},
      .sweep_from = 100,
      .sweep_to = 300000,
      .sweep_growth = 1.1,
      .dist_sizes = {1000, 8193, 100003},
      .range_sizes = {1000, 65537},
      .large_u32 = {(1u << 21) - 1, (1u << 21) + 1, 5000000, (1u << 23) - 1},
      .large_other = {(1u << 21) + 1},
      .value_sizes = {1000, 4097, 131075},
      .api_n = 300007,
  };
  return f;
}

const t::family& msd_family() {
  static const t::family f{
      .algo = algorithm::radix_msd,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 12, 13, 14, 16, 17, 20},
      .sweep_from = 100,
      .sweep_to = 2000000,
      .sweep_growth = 1.1,
      .dist_sizes = {1000, 8193, 100003, 1000003},
      .range_sizes = {1000, 20000, 65537},
      .large_u32 = {(1u << 22) + 3, 5000000},
      .large_other = {(1u << 21) + 1, 3000017},
      .value_sizes = {1000, 6145, 131075},
      .api_n = 300007,
  };
  return f;
}

const t::family& onesweep_family() {
  static const t::family f{
      .algo = algorithm::radix_onesweep,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20},
      .sweep_from = 100,
      .sweep_to = 2000000,
      .sweep_growth = 1.1,
      .dist_sizes = {1000, 8193, 30000, 100003, 1000003},
      .range_sizes = {1000, 20000, 65537},
      .large_u32 = {(1u << 22) + 3, 5000000, (1u << 24) + 1, (1u << 28) + 4097},
      .large_other = {(1u << 21) + 1, 3000017},
      .value_sizes = {1000, 4097, 131075},
      .api_n = 300007,
  };
  return f;
}

// Sizes around every path switch and tile edge of onesweep, for keys and
// for u32 values.
template <class K> void test_onesweep_edges() {
  using U = typename gpusort::detail::key_traits<K>::bits;
  namespace os = gpusort::detail::radix_onesweep;
  using TK = os::tuning<U, gpusort::detail::no_value>;
  using TP = os::tuning<U, std::uint32_t>;
  std::size_t step = 0;
  for (bool pairs : {false, true}) {
    const std::size_t small = pairs ? TP::small::tile : TK::small::tile;
    const std::size_t tile = pairs ? TP::tile : TK::tile;
    const std::size_t fused = pairs ? TP::fused_max : TK::fused_max;
    for (std::size_t n : {small - 1, small, small + 1, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1,
                          fused - 1, fused, fused + 1, 7 * tile + 5}) {
      const auto dir = t::both_orders[step++ % 2];
      const auto in = t::h::generate<K>(t::h::dist::uniform, n, 6000 + n);
      GPUSORT_CASE(run_input<K>(algorithm::radix_onesweep, in, dir, 0, -1, pairs, false,
                                describe<K>("edge", n, dir, pairs, false)));
    }
    // the small counter sort's configs (4-byte keys alone: 128 x 8, 256 x 8,
    // 256 x 16) switch at 1024 and 2048 keys
    if (!pairs && TK::small_counters)
      for (std::size_t n : {std::size_t(1023), std::size_t(1024), std::size_t(1025), std::size_t(2047),
                            std::size_t(2048), std::size_t(2049)}) {
        const auto dir = t::both_orders[step++ % 2];
        const auto in = t::h::generate<K>(t::h::dist::uniform, n, 6200 + n);
        GPUSORT_CASE(run_input<K>(algorithm::radix_onesweep, in, dir, 0, -1, pairs, false,
                                  describe<K>("small edge", n, dir, pairs, false)));
      }
    // +-0.0, NaNs and infinities through the small path and full and
    // partial pass tiles (the passes carry float keys twiddled:
    // digit_map::carry), both orders
    for (std::size_t n : {std::size_t(1000), small - 3, tile + 1, 7 * tile + 5})
      for (const auto dir : t::both_orders) {
        const auto in = t::h::generate<K>(t::h::dist::float_special, n, 6500 + n);
        GPUSORT_CASE(run_input<K>(algorithm::radix_onesweep, in, dir, 0, -1, pairs, false,
                                  describe<K>("edge special", n, dir, pairs, false)));
      }
  }
}

// Pass skipping on every path (small, fused, two-kernel histogram), with the
// number of passes left even, odd and zero, in place and not.
template <class K> void test_onesweep_skipping() {
  constexpr int w = t::width_of<K>;
  const std::uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1;
  const std::uint64_t fixed = 0xA5C3F00F5AA55AA5ull & all;
  std::vector<std::uint64_t> varies = {0, 0xF0ull};  // no pass left; one pass left (odd)
  if (w >= 16) varies.push_back(0xFF0Full & all);   // two passes left (even)
  if (w >= 32) varies.push_back(0xFF00000Full);     // 2 of 4 or 2 of 8
  std::size_t step = 0;
  for (std::uint64_t vary : varies)
    for (std::size_t n : {3000, 20000, 200003})
      for (bool in_place : {false, true})
        for (bool pairs : {false, true}) {
          const auto dir = t::both_orders[step++ % 2];
          const auto in = masked_keys<K>(n, vary, fixed, 7000 + n + vary);
          GPUSORT_CASE(run_input<K>(algorithm::radix_onesweep, in, dir, 0, -1, pairs, in_place,
                                    describe<K>(("skip vary=" + std::to_string(vary)).c_str(), n, dir, pairs,
                                                in_place)));
        }
}

// Odd numbers of passes (bit ranges) in place: the plan adds a copy.
template <class K> void test_onesweep_odd_passes() {
  constexpr int w = t::width_of<K>;
  std::vector<std::pair<int, int>> ranges = {{0, w}, {1, 8}, {w / 2, w}};
  if (w >= 32) ranges.push_back({0, 24});
  if (w >= 64) ranges.push_back({5, 45});
  std::size_t step = 0;
  for (auto [b, e] : ranges)
    for (std::size_t n : {4000, 30001, 150000})
      for (bool pairs : {false, true}) {
        const auto dir = t::both_orders[step++ % 2];
        const auto in = t::h::generate<K>(step % 3 ? t::h::dist::uniform : t::h::dist::float_special, n, 8000 + n);
        GPUSORT_CASE(run_input<K>(algorithm::radix_onesweep, in, dir, b, e, pairs, true,
                                  describe<K>(("bits [" + std::to_string(b) + "," + std::to_string(e) + ")").c_str(),
                                              n, dir, pairs, true)));
      }
}

template <class K> class GpuRadixOnesweepEdges : public t::gpu_test {};
TYPED_TEST_SUITE(GpuRadixOnesweepEdges, t::key_types, t::key_name);
TYPED_TEST(GpuRadixOnesweepEdges, PathAndTileEdges) { test_onesweep_edges<TypeParam>(); }
TYPED_TEST(GpuRadixOnesweepEdges, PassSkipping) { test_onesweep_skipping<TypeParam>(); }
TYPED_TEST(GpuRadixOnesweepEdges, OddPassesInPlace) { test_onesweep_odd_passes<TypeParam>(); }

// radix_msd: sizes around the local sort's tile (one block, or the MSD
// levels), one to three levels, skewed inputs, constant digits, bit ranges
// in place; keys and u32 values, both orders, compared with CUB.
template <class K> void test_msd_edges() {
  using U = typename gpusort::detail::key_traits<K>::bits;
  namespace md = gpusort::detail::radix_msd;
  constexpr int w = t::width_of<K>;
  const std::size_t local = md::tuning<U, gpusort::detail::no_value>::local_keys;
  const std::size_t local_pairs = md::tuning<U, std::uint32_t>::local_keys;
  std::size_t step = 0;
  auto run = [&](const std::vector<K>& in, const char* kind, bool pairs, bool in_place, int b = 0, int e = -1) {
    const auto dir = t::both_orders[step++ % 2];
    GPUSORT_CASE(run_input<K>(algorithm::radix_msd, in, dir, b, e, pairs, in_place,
                              describe<K>(kind, in.size(), dir, pairs, in_place, algorithm::radix_msd)));
  };
  for (bool pairs : {false, true}) {
    const std::size_t l = pairs ? local_pairs : local;
    for (std::size_t n : {l - 1, l, l + 1, 2 * l + 3, 300 * l + 7})
      run(t::h::generate<K>(t::h::dist::uniform, n, 9000 + n), "edge", pairs, false);
    for (auto d : {t::h::dist::few_unique, t::h::dist::equal, t::h::dist::zipf, t::h::dist::sorted,
                   t::h::dist::float_special, t::h::dist::small_signed, t::h::dist::ids, t::h::dist::timestamps,
                   t::h::dist::grid, t::h::dist::normal})
      for (std::size_t n : {std::size_t(70000), std::size_t(1500001)})
        run(t::h::generate<K>(d, n, 9100 + n), t::h::to_string(d).data(), pairs, n % 2 == 1);
  }
  // digits every key shares: small integers in wide keys, a constant
  // middle digit, everything but one digit
  const std::uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1;
  for (std::uint64_t vary : std::vector<std::uint64_t>{0xFFFFFull & all, 0xFF00FFFFull & all, 0xF000ull & all, 0})
    for (bool in_place : {false, true})
      for (bool pairs : {false, true}) run(masked_keys<K>(600001, vary, 0, 9200 + vary), "masked", pairs, in_place);
  // bit ranges, in place and not
  std::vector<std::pair<int, int>> ranges = {{0, w}, {1, w - 3}, {w / 2, w}};
  if (w >= 32) ranges.push_back({3, 21});
  for (auto [b, e] : ranges)
    for (bool in_place : {false, true}) run(t::h::generate<K>(t::h::dist::uniform, 400003, 9300 + b), "range", true, in_place, b, e);
}

template <class K> class GpuRadixMsdEdges : public t::gpu_test {};
TYPED_TEST_SUITE(GpuRadixMsdEdges, t::key_types, t::key_name);
TYPED_TEST(GpuRadixMsdEdges, LevelsAndSkew) { test_msd_edges<TypeParam>(); }
class GpuRadixMsdEdgesLarge : public t::gpu_test {};

// Above lsd_max_keys the plan has no LSD mode (and no LSD buffers): u64
// keys, and pairs in place, bit for bit against CUB.
TEST_F(GpuRadixMsdEdgesLarge, AboveLsdMaxKeys) {
  using K = std::uint64_t;
  namespace md = gpusort::detail::radix_msd;
  const std::size_t n = md::tuning<K, gpusort::detail::no_value>::lsd_max_keys + 4097;
  const auto in = t::h::generate<K>(t::h::dist::uniform, n, 9400);
  const auto opt = t::make_options(gpusort::order::ascending, 0, -1, algorithm::radix_msd);
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  t::device_buffer<K> kin(in), kout(n), ref(n);
  gpusort::sort_keys(kin.data(), kout.data(), n, opt);
  t::cub_sort_keys(kin.data(), ref.data(), n, false, 0, 64);
  t::device_sync();
  const auto want = ref.download();
  ASSERT_TRUE(t::same_bits(kout.download(), want)) << n << " u64 keys differ from cub::DeviceRadixSort";
  t::device_buffer<std::uint32_t> vin(idx), vref(n), ref_vin(idx);
  t::cub_sort_pairs(kin.data(), ref.data(), ref_vin.data(), vref.data(), n, false, 0, 64);
  gpusort::sort_pairs(kin.data(), kin.data(), vin.data(), vin.data(), n, opt);
  t::device_sync();
  ASSERT_TRUE(t::same_bits(kin.download(), want)) << n << " pairs in place: keys differ from cub::DeviceRadixSort";
  ASSERT_EQ(vin.download(), vref.download()) << n << " pairs in place: values differ from cub::DeviceRadixSort";
}

// 8-byte values travel through the local sort's split path as 16-bit slot
// indices, parked in shared memory (msd_local.cuh): u64 keys with u64
// values (value = index), out of place and in place, bit for bit against
// CUB's stable pair sort of the same keys with u32 indices.
class GpuRadixMsdWideValues : public t::gpu_test {};
TEST_F(GpuRadixMsdWideValues, U64KeysU64Values) {
  using K = std::uint64_t;
  for (auto d : {t::h::dist::uniform, t::h::dist::few_unique, t::h::dist::zipf, t::h::dist::bits20,
                 t::h::dist::timestamps, t::h::dist::small_signed})
    for (std::size_t n : {std::size_t(6145), std::size_t(131075), (std::size_t(1) << 20) + 3, std::size_t(3000017)})
      for (bool desc : {false, true})
        for (bool in_place : {false, true}) {
          const auto in = t::h::generate<K>(d, n, 9500 + n);
          const auto opt = t::make_options(desc ? gpusort::order::descending : gpusort::order::ascending, 0, -1,
                                           algorithm::radix_msd);
          std::vector<std::uint32_t> idx(n);
          std::iota(idx.begin(), idx.end(), 0u);
          std::vector<std::uint64_t> idx64(idx.begin(), idx.end());
          t::device_buffer<K> kin(in), kout(n), ref(n);
          t::device_buffer<std::uint32_t> rvin(idx), rv(n);
          t::device_buffer<std::uint64_t> vin(idx64), vout(n);
          t::cub_sort_pairs(kin.data(), ref.data(), rvin.data(), rv.data(), n, desc, 0, 64);
          if (in_place) gpusort::sort_pairs(kin.data(), kin.data(), vin.data(), vin.data(), n, opt);
          else gpusort::sort_pairs(kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
          t::device_sync();
          const std::string where = std::string(t::h::to_string(d)) + " n=" + std::to_string(n) +
                                    (desc ? " descending" : " ascending") + (in_place ? " in place" : "");
          ASSERT_TRUE(t::same_bits((in_place ? kin : kout).download(), ref.download())) << where << ": keys";
          const auto got = (in_place ? vin : vout).download();
          const auto want = rv.download();
          for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], std::uint64_t(want[i])) << where << ": value " << i;
        }
}

// 64-bit integers under radix_msd's affine map (msd_ints.hpp): keys in a
// range of 2^w above an offset, for widths the map takes (not a multiple of
// 8, above three digits) and some it does not, offsets that put a carry
// inside the range (across zero for signed keys, across a digit boundary),
// sizes of one level and of two; keys and u32 values, both orders, in
// place and not, bit for bit against CUB.
template <class K> void test_msd_int_map() {
  std::size_t step = 0;
  for (int w : {25, 33, 44, 47, 57, 63, 40}) {
    const std::uint64_t range = (std::uint64_t(1) << w) - 1;
    for (int shape = 0; shape < 3; ++shape) {
      // shape 0: above a large offset; 1: straddling zero (signed) or 2^63
      // (unsigned); 2: straddling a boundary of the top varying digit
      const std::uint64_t offset = shape == 0   ? 0x1234567800000000ull
                                   : shape == 1 ? std::uint64_t(0) - (range / 3)
                                                : (std::uint64_t(0x5A) << 56) - (range / 2);
      const std::size_t n = w == 44 ? (std::size_t(1) << 22) + 3 : shape == 2 ? 1500001 : 600001;
      std::mt19937_64 rng(9600 + w * 3 + shape);
      std::vector<K> in(n);
      for (auto& k : in) {
        std::uint64_t v = offset + rng() % (range + 1);
        if (std::is_unsigned_v<K> && shape == 1) v += std::uint64_t(1) << 63;  // across 2^63
        k = K(v);
      }
      for (bool pairs : {false, true}) {
        const auto dir = t::both_orders[step % 2];
        const bool in_place = (step / 2) % 2 == 1;
        ++step;
        GPUSORT_CASE(run_input<K>(algorithm::radix_msd, in, dir, 0, -1, pairs, in_place,
                                  describe<K>(("int map w=" + std::to_string(w) + " shape " + std::to_string(shape)).c_str(),
                                              n, dir, pairs, in_place, algorithm::radix_msd)));
      }
    }
  }
}

template <class K> class GpuRadixMsdIntMap : public t::gpu_test {};
using msd_int_keys = ::testing::Types<std::int64_t, std::uint64_t>;
TYPED_TEST_SUITE(GpuRadixMsdIntMap, msd_int_keys, t::key_name);
TYPED_TEST(GpuRadixMsdIntMap, SpansAndCarries) { test_msd_int_map<TypeParam>(); }

// Doubles through radix_msd's class map where the sample misleads the gate:
// normal keys with one key in 997 at a rare power of two (about 2,000
// classes in all; the gate's sample of 4,096 sees a few of them, so it
// takes the map, and the full count then finds more than 256 classes). The
// table is not made, and the ordered bits' first histogram, run only where
// the map is not taken, plans the sort. Keys and u32 values, both orders,
// in place and not, bit for bit against CUB.
class GpuRadixMsdClassFallback : public t::gpu_test {};
TEST_F(GpuRadixMsdClassFallback, ManyRareClasses) {
  for (std::size_t n : {std::size_t(600001), (std::size_t(1) << 21) + 3}) {
    auto in = t::h::generate<double>(t::h::dist::normal, n, 9700 + n);
    std::mt19937_64 rng(9701 + n);
    for (std::size_t i = 0; i < n; i += 997) {
      const int e = int(rng() % 2001) - 1000;
      const double m = 1.0 + double(rng() >> 11) * 0x1.0p-53;
      in[i] = std::ldexp(rng() & 1 ? m : -m, e);
    }
    std::size_t step = 0;
    for (bool pairs : {false, true})
      for (bool in_place : {false, true}) {
        const auto dir = t::both_orders[step++ % 2];
        GPUSORT_CASE(run_input<double>(algorithm::radix_msd, in, dir, 0, -1, pairs, in_place,
                                       describe<double>("rare classes", n, dir, pairs, in_place, algorithm::radix_msd)));
      }
  }
}

// radix_msd's local sort holds doubles as their ordered bits in every run
// without a -0.0 (held_local_form), and sorts a run with one in the order
// that folds -0.0 onto +0.0, where the two zeros are equal and keep their
// input order. Keys near zero put both zeros, the denormals of both signs
// and small normals into the same few runs: with and without -0.0 (the
// held form over the zeros' run), a single local sort and several levels,
// bit ranges that cut the zeros' patterns, keys and u32 values, both
// orders, in place and not; bit for bit against CUB.
std::vector<double> near_zero(std::size_t n, bool minus_zeros, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> keys(n);
  for (double& k : keys) {
    const std::uint64_t pick = rng() % 100, sign = rng() & 1 ? 0x8000000000000000ull : 0;
    std::uint64_t b;
    if (pick < 6) b = minus_zeros && (rng() & 1) ? 0x8000000000000000ull : 0;  // a zero
    else if (pick < 50) b = sign | (rng() & 0x000FFFFFFFFFFFFFull);          // a denormal
    else b = sign | (std::uint64_t(rng() % 40 + 1) << 52) | (rng() & 0x000FFFFFFFFFFFFFull);  // small normals
    std::memcpy(&k, &b, 8);
  }
  return keys;
}

class GpuRadixMsdHeldDoubles : public t::gpu_test {};
TEST_F(GpuRadixMsdHeldDoubles, ZerosOfBothSigns) {
  struct range {
    int begin, end;
  };
  const range ranges[] = {{0, -1}, {0, 63}, {3, 64}, {20, 61}};
  std::size_t step = 0;
  for (std::size_t n : {std::size_t(3001), std::size_t(600001), (std::size_t(1) << 21) + 3})
    for (bool minus_zeros : {true, false}) {
      const auto in = near_zero(n, minus_zeros, 4100 + n + minus_zeros);
      for (const range& r : ranges)
        for (bool pairs : {false, true}) {
          const auto dir = t::both_orders[step % 2];
          const bool in_place = step++ % 3 == 0;
          GPUSORT_CASE(run_input<double>(algorithm::radix_msd, in, dir, r.begin, r.end, pairs, in_place,
                                         describe<double>(minus_zeros ? "zeros of both signs" : "+0.0 only", n, dir,
                                                          pairs, in_place, algorithm::radix_msd) +
                                             " bits [" + std::to_string(r.begin) + ", " + std::to_string(r.end) +
                                             ")"));
        }
    }
}

// radix_msd's local sort on runs of few values with many copies each (the
// counting path's groups of equal keys, msd_count.cuh): clusters of values
// that share their top bits, so that after the levels a run holds a
// cluster; each value comes a few hundred times. Clusters of distinct
// values (a stable pass by group number places them), clusters with twins
// (two values that differ in their lowest bit only share the counting
// prefix: a group of mixed keys over the bound, so the path gives up and
// the run is sorted digit by digit), and more values a run than the path
// numbers (256 and more). Keys and u32 values, both orders, in place and
// not, bit for bit against CUB.
template <class K> std::vector<K> clustered(std::size_t n, int values_a_cluster, bool twins, std::uint64_t seed) {
  using bits = typename gpusort::detail::key_traits<K>::bits;
  constexpr int w = int(sizeof(K) * 8);
  constexpr int shared_top = w == 64 ? 20 : 16;  // the cluster's common bits
  std::mt19937_64 rng(seed);
  const int clusters = int(n / (std::size_t(values_a_cluster) * 300)) + 1;
  std::vector<bits> value;
  for (int c = 0; c < clusters; ++c) {
    const std::uint64_t top = rng() >> (64 - shared_top);
    for (int v = 0; v < values_a_cluster; ++v) {
      std::uint64_t b = (top << (w - shared_top)) | ((rng() >> shared_top) >> (64 - w));
      if (twins && v % 2 == 1) b = std::uint64_t(value.back()) ^ 1u;
      value.push_back(bits(b));
    }
  }
  std::vector<K> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bits b = value[std::size_t(rng() % value.size())];
    std::memcpy(&keys[i], &b, sizeof(K));
  }
  return keys;
}

template <class K> class GpuRadixMsdEqualGroups : public t::gpu_test {};
using equal_group_keys = ::testing::Types<std::uint32_t, std::uint64_t, std::int64_t, double>;
TYPED_TEST_SUITE(GpuRadixMsdEqualGroups, equal_group_keys, t::key_name);
TYPED_TEST(GpuRadixMsdEqualGroups, FewValuesManyCopies) {
  using K = TypeParam;
  struct shape {
    int values;
    bool twins;
    const char* what;
  };
  const shape shapes[] = {{3, false, "3 values a cluster"},   {12, false, "12 values a cluster"},
                          {12, true, "12 values in twins"},   {40, false, "40 values a cluster"},
                          {300, false, "300 values a cluster"}};
  std::size_t step = 0;
  for (std::size_t n : {std::size_t(600001), (std::size_t(1) << 21) + 3})
    for (const shape& sh : shapes) {
      const auto in = clustered<K>(n, sh.values, sh.twins, 5200 + n + std::size_t(sh.values) + sh.twins);
      for (bool pairs : {false, true}) {
        const auto dir = t::both_orders[step % 2];
        const bool in_place = step++ % 3 == 0;
        GPUSORT_CASE(run_input<K>(algorithm::radix_msd, in, dir, 0, -1, pairs, in_place,
                                  describe<K>(sh.what, n, dir, pairs, in_place, algorithm::radix_msd)));
      }
    }
}

// Digits as the kernels extract them *on the device*: digit_map::of made in
// device code (block_sort: radix_tile and onesweep's small path) and the
// histogram's ordered() + from_ordered(). Glued together they must be the
// host's key_order::rank, for many bit ranges (begin_bit and widths not
// multiples of 8). A build once sorted partial ranges by bits above
// end_bit because std::popcount compiled to nothing in device code; the host
// suite (RadixDigits) cannot see that.
namespace rx = gpusort::detail::radix;

template <class K>
__global__ void device_digits_kernel(const gpusort::detail::key_order<K>* ords,
                                     const typename gpusort::detail::key_traits<K>::bits* raw, int n, int radix_bits,
                                     int max_passes, unsigned* digits, unsigned* hist_digits,
                                     unsigned* carried_digits, int* passes) {
  const int o = blockIdx.x;
  const auto ord = ords[o];
  const int np = rx::pass_count(ord, radix_bits);
  if (threadIdx.x == 0) passes[o] = np;
  const auto first = rx::digit_map<K>::of(ord, radix_bits, 0);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    for (int p = 0; p < np && p < max_passes; ++p) {
      const auto d = rx::digit_map<K>::of(ord, radix_bits, p);
      const std::size_t at = (std::size_t(o) * n + i) * max_passes + p;
      digits[at] = d(raw[i]);
      hist_digits[at] = d.from_ordered(first.ordered(raw[i]));
      carried_digits[at] = d.uncarry(d.carry(raw[i])) == raw[i] ? d.of_carried(d.carry(raw[i])) : ~0u;
    }
}

template <class K> void test_device_digits() {
  using traits = gpusort::detail::key_traits<K>;
  using bits = typename traits::bits;
  using order = gpusort::detail::key_order<K>;
  constexpr int w = traits::width;
  std::vector<order> ords;
  std::vector<std::pair<int, int>> ranges;
  for (int b = 0; b < w; ++b)
    for (int e = b + 1; e <= w; ++e)
      if (w <= 16 || b % 7 == 0 || e % 7 == 0 || e == w || e - b < 10) ranges.push_back({b, e});
  for (auto [b, e] : ranges)
    for (int desc = 0; desc < 2; ++desc) ords.push_back(order(desc != 0, b, e));
  std::vector<bits> raw = {bits(0), bits(~bits(0)), traits::untwiddle(order::minus_zero),
                           traits::untwiddle(order::plus_zero)};
  std::uint64_t s = 77;
  while (raw.size() < 64) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    raw.push_back(bits(s ^ (s >> 29)));
  }
  const int n = int(raw.size());
  for (int radix_bits : {1, 8}) {
    const int max_passes = (w + radix_bits - 1) / radix_bits;
    const std::size_t words = ords.size() * n * max_passes;
    t::device_buffer<order> d_ords(ords);
    t::device_buffer<bits> d_raw(raw);
    t::device_buffer<unsigned> d_digits(words), d_hist(words), d_carried(words);
    t::device_buffer<int> d_passes(ords.size());
    device_digits_kernel<K><<<unsigned(ords.size()), 128>>>(d_ords.data(), d_raw.data(), n, radix_bits, max_passes,
                                                           d_digits.data(), d_hist.data(), d_carried.data(),
                                                           d_passes.data());
    t::device_sync();
    const auto digits = d_digits.download(), hist = d_hist.download(), carried = d_carried.download();
    const auto passes = d_passes.download();
    for (std::size_t o = 0; o < ords.size(); ++o) {
      const auto [b, e] = ranges[o / 2];
      const std::string what = std::string(gpusort::detail::key_info<K>::name) + " bits=[" + std::to_string(b) +
                               "," + std::to_string(e) + ")" + (o % 2 ? " descending" : " ascending") +
                               " radix=" + std::to_string(radix_bits);
      ASSERT_EQ(passes[o], (e - b + radix_bits - 1) / radix_bits) << what << ": device pass count";
      for (int i = 0; i < n; ++i) {
        std::uint64_t glued = 0, glued_hist = 0, glued_carried = 0;
        for (int p = 0; p < passes[o]; ++p) {
          const int at = rx::digit_low(ords[o], radix_bits, p);  // digits counted from the top
          glued |= std::uint64_t(digits[(o * n + i) * max_passes + p]) << at;
          glued_hist |= std::uint64_t(hist[(o * n + i) * max_passes + p]) << at;
          glued_carried |= std::uint64_t(carried[(o * n + i) * max_passes + p]) << at;
        }
        const std::uint64_t want = ords[o].rank(traits::twiddle(raw[i]));
        ASSERT_EQ(glued, want) << what << " raw=" << std::uint64_t(raw[i]) << ": device digits";
        ASSERT_EQ(glued_hist, want) << what << " raw=" << std::uint64_t(raw[i]) << ": device histogram digits";
        ASSERT_EQ(glued_carried, want) << what << " raw=" << std::uint64_t(raw[i])
                                       << ": device carried digits (onesweep passes)";
      }
    }
  }
}

// core/bit_width.hpp's device forms (clz, popc) against the host's (<bit>),
// which CoreBitWidth.MatchesLoops checks against loops over the bits.
__global__ void bit_width_kernel(const std::uint64_t* x, int n, int* out) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  out[3 * i] = gpusort::detail::bit_width64(x[i]);
  out[3 * i + 1] = gpusort::detail::ceil_log2(x[i]);
  out[3 * i + 2] = gpusort::detail::popcount64(x[i]);
}
class GpuBitWidth : public t::gpu_test {};
TEST_F(GpuBitWidth, MatchesHost) {
  std::vector<std::uint64_t> x = {0, 1, 2, 3, ~0ull, ~0ull - 1, 1ull << 63, (1ull << 63) + 1};
  for (int b = 0; b < 64; ++b) {
    x.push_back(1ull << b);
    x.push_back((1ull << b) - 1);
    x.push_back((1ull << b) + 1);
  }
  std::uint64_t s = 5;
  while (x.size() < 1024) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x.push_back((s ^ (s >> 29)) >> (s % 64));
  }
  t::device_buffer<std::uint64_t> d_x(x);
  t::device_buffer<int> d_out(3 * x.size());
  bit_width_kernel<<<unsigned(x.size() + 127) / 128, 128>>>(d_x.data(), int(x.size()), d_out.data());
  t::device_sync();
  const auto out = d_out.download();
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(out[3 * i], gpusort::detail::bit_width64(x[i])) << "bit_width64(" << x[i] << ")";
    ASSERT_EQ(out[3 * i + 1], gpusort::detail::ceil_log2(x[i])) << "ceil_log2(" << x[i] << ")";
    ASSERT_EQ(out[3 * i + 2], gpusort::detail::popcount64(x[i])) << "popcount64(" << x[i] << ")";
  }
}

template <class K> class GpuRadixDigits : public t::gpu_test {};
TYPED_TEST_SUITE(GpuRadixDigits, t::key_types, t::key_name);
TYPED_TEST(GpuRadixDigits, DeviceDigitsGlueToRank) { test_device_digits<TypeParam>(); }

// Two portions with constant digits, in place: skipped passes and the copy
// run portion by portion (2^30 + 70001 keys: two portions of the 2^30 cap).
class GpuRadixOnesweepPortions : public t::gpu_test {};
TEST_F(GpuRadixOnesweepPortions, SkippingOverTwoPortions) {
  // more than one portion (portions hold up to 2^30 - 1 keys): about 32 B a
  // key on the device with the CUB oracle's copies
  const std::size_t n = (std::size_t(1) << 30) + 70001;
  std::size_t free_b = 0, total_b = 0;
  GPUSORT_CUDA(cudaMemGetInfo(&free_b, &total_b));
  if (free_b < n * 32)
    GTEST_SKIP() << "needs about " << (n * 32 >> 20) << " MiB of device memory, " << (free_b >> 20) << " MiB free";
  const auto in = masked_keys<std::uint32_t>(n, 0xFF00ull, 0x12345678ull, 99);
  run_input<std::uint32_t>(algorithm::radix_onesweep, in, gpusort::order::ascending, 0, -1, true, true,
                           describe<std::uint32_t>("portions", n, gpusort::order::ascending, true, true));
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuRadixSplit, split_family)
GPUSORT_GPU_FAMILY_SUITE(GpuRadixTile, tile_family)
GPUSORT_GPU_FAMILY_SUITE(GpuRadixOnesweep, onesweep_family)
GPUSORT_GPU_FAMILY_SUITE(GpuRadixMsd, msd_family)
