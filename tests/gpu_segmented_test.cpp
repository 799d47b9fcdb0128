// GPU suite: segmented sort (gpusort::segmented_sort_keys / _pairs), which
// sorts segment i = [begin[i], end[i]) of the keys (and values) on its own,
// stably, and leaves every element outside the segments untouched.
//
// Every case is checked from first principles against the oracle of
// oracle.hpp: a per-segment std::stable_sort under oracle_order (not the
// library's key_order), which with value = original index is the one stable
// answer, compared bit for bit over the whole output, gaps included (the
// output is prefilled with a sentinel pattern that must survive; in place,
// the gaps keep the input). Full-bit-range cases without NaNs are also
// compared bit for bit with cub::DeviceSegmentedSort's stable sort (its
// StableSortPairs, whose keys serve the keys-only cases too; CUB's small
// segments order by the native `<`, under which NaNs are unordered; CUB has
// no bit ranges). Every device array sits between guard zones that
// must come back untouched, the two-phase form gets exactly the scratch it
// asked for plus a guard zone, and inputs and offsets must come back
// unchanged.
//
// Typed over the 12 key types:
//   EqualSizes     all segments of 1, 2, 16, 31, 32, 33, 100, 256, 1000,
//                  4096, 4097, 20000, 70000 keys (~200K keys a case)
//   Mixes          power-law sizes, one segment of half the keys, many empty
//                  and 1-key segments, gaps between segments, segments in
//                  shuffled order with inverted (end < begin) empties
//   Distributions  uniform, few_unique, equal, sorted, reverse, float_special
//   BitRanges      [0, w/2) and [3, w-1) (the oracle only)
//   SmallSegments  the thread classes: sizes 1..17 mixed, equal sizes 3, 8,
//                  12, 5; ties, and floats with both zeros in a segment
//   NansLargest, WideSegments, LanePairs  the wide and lane-pair classes
//                  (17..64 keys), float specials under both NaN orders
// rotating over keys / pairs (u32 value = original index), both orders, the
// one-array (offsets[0..num]) and begin/end forms, int32 and int64 offsets,
// the two-phase and allocating calls, in place and not.
// GpuSanitizeSegmented: small cases for compute-sanitizer (with the
// GpuSanitize suites). The API's own cases (GpuSegmentedApi) are in
// gpu_segmented_api_test.cpp; both files take their layouts, buffers and
// checks from segmented_cases.hpp.
#include "segmented_cases.hpp"

#include <gtest/gtest.h>

namespace {

using namespace gpusort_test::segmented;

// ---- typed tests -----------------------------------------------------------------------------

template <class K> void test_equal_sizes() {
  constexpr std::size_t sizes[] = {1, 2, 16, 31, 32, 33, 100, 256, 1000, 4096, 4097, 20000, 70000};
  constexpr std::size_t target = 200000;  // keys a case
  std::size_t k = 0;
  for (std::size_t size : sizes)
    for (int twice = 0; twice < 2; ++twice, ++k) {
      // a gap before the segments on every third case, one after on the next
      const std::size_t lead = k % 3 == 1 ? 17 : 0, trail = k % 3 == 2 ? 33 : 0;
      const layout L = equal_sizes(size, std::max<std::size_t>(3, target / size), lead, trail);
      GPUSORT_CASE(run_width<K>(L, rotated(k, L, h::dist::uniform, 100 + size), rotated_wide(k)));
    }
}

const std::vector<layout>& mix_layouts() {
  static const std::vector<layout> v = {
      power_law(300000, 64, 11),   power_law(300000, 3000, 12), half_and_small(400000, 13),
      empties_and_ones(20000, 14), gapped(250000, 15),          scattered(250000, 16),
  };
  return v;
}

template <class K> void test_mixes() {
  std::size_t k = 0;
  for (const layout& L : mix_layouts())
    for (int i = 0; i < 3; ++i, ++k)
      GPUSORT_CASE(run_width<K>(L, rotated(k, L, h::dist::uniform, 200 + k), rotated_wide(k + 1)));
}

template <class K> void test_distributions() {
  static const layout L = power_law(100000, 300, 21);
  const h::dist dists[] = {h::dist::uniform, h::dist::few_unique, h::dist::equal,
                           h::dist::sorted,  h::dist::reverse,    h::dist::float_special};
  std::size_t k = 0;
  for (h::dist d : dists)
    for (auto dir : both_orders)
      for (bool pairs : {false, true}) {
        seg_case c = rotated(k, L, d, 300 + k);
        c.dir = dir, c.pairs = pairs;
        GPUSORT_CASE(run_width<K>(L, c, rotated_wide(k + 3)));
        ++k;
      }
}

template <class K> void test_bit_ranges() {
  static const layout L = power_law(60000, 500, 31);
  constexpr int w = t::width_of<K>;
  std::size_t k = 0;
  for (auto [b, e] : {std::pair{0, w / 2}, {3, w - 1}})
    for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::float_special})
      for (auto dir : both_orders) {
        seg_case c = rotated(k, L, d, 400 + k);
        c.dir = dir, c.begin_bit = b, c.end_bit = e;
        GPUSORT_CASE(run_width<K>(L, c, rotated_wide(k)));
        ++k;
      }
}

// The thread classes (2..16 keys, one lane a segment): sizes 1..17 in a
// cycle (a warp's segments of one class are not end to end), and equal
// sizes 3, 8, 12, 5 (they are); ties (few_unique, equal) and, for floats,
// both zeros in one segment (float_special: about 40% of 16-key segments),
// which sends a keys-only lane from its rank-only sort to an insertion.
template <class K> void test_small_segments() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 12000; ++i) cycle.push_back(1 + (i * 7) % 17);
  static const layout mixed = back_to_back("sizes 1..17", cycle);
  // (6001 x 5: the last warp's range is 85 keys, not a whole number of
  // 16-byte vectors)
  static const layout equal[] = {equal_sizes(3, 20000, 5, 0), equal_sizes(8, 9000, 0, 7), equal_sizes(12, 7000, 0, 0),
                                 equal_sizes(5, 6001, 0, 0)};
  std::size_t k = 0;
  for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::equal, h::dist::float_special})
    for (auto dir : both_orders)
      for (bool pairs : {false, true})
        for (const layout* L : {&mixed, &equal[k % 4]}) {
          seg_case c = rotated(k, *L, d, 700 + k);
          c.dir = dir, c.pairs = pairs;
          GPUSORT_CASE(run_width<K>(*L, c, rotated_wide(k)));
          ++k;
        }
}

// The wide thread classes (17..64 keys one lane a segment for keys of up
// to 4 bytes alone in an order of every bit, 17..32 for 8-byte keys; the
// group classes otherwise):
// sizes 15..66 in a cycle (a warp's segments of one class are not end to
// end), equal sizes 17, 32, 33, 50 and 64 (they are; a lead of one key
// leaves the 16-byte vectors unaligned); ties, and float specials under
// both NaN orders (a lane whose segment holds both zeros, or NaNs to fold,
// sorts it by insertion); values now and then, and a bit range.
template <class K> void test_wide_segments() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 5000; ++i) cycle.push_back(15 + (i * 11) % 52);
  static const layout mixed = back_to_back("sizes 15..66", cycle);
  static const layout equal[] = {equal_sizes(17, 3000, 0, 0), equal_sizes(32, 2500, 1, 0), equal_sizes(33, 2001, 0, 3),
                                 equal_sizes(50, 1500, 0, 0), equal_sizes(64, 1601, 1, 1)};
  std::size_t k = 0;
  for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::equal, h::dist::float_special})
    for (auto dir : both_orders)
      for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest})
        for (const layout* L : {&mixed, &equal[k % 5]}) {
          seg_case c = rotated(k, *L, d, 1000 + k);
          c.dir = dir, c.nans = nans, c.pairs = k % 8 == 7;
          GPUSORT_CASE(run_width<K>(*L, c, rotated_wide(k)));
          ++k;
        }
  seg_case c = rotated(k, mixed, h::dist::uniform, 1100);
  c.pairs = false, c.begin_bit = 2, c.end_bit = t::width_of<K> - 1;
  GPUSORT_CASE(run_width<K>(mixed, c, rotated_wide(k)));
}

// NaNs largest (the frameworks' order) on float specials: the thread
// classes (a lane whose segment holds a NaN sorts by insertion), the warp and
// block sizes of power_law, and a bit range.
template <class K> void test_nans_largest() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 6000; ++i) cycle.push_back(1 + (i * 7) % 17);
  static const layout small = back_to_back("sizes 1..17", cycle);
  static const layout mixed = power_law(100000, 300, 51);
  std::size_t k = 0;
  for (const layout* L : {&small, &mixed})
    for (auto dir : both_orders)
      for (bool pairs : {false, true}) {
        seg_case c = rotated(k, *L, h::dist::float_special, 800 + k);
        c.dir = dir, c.pairs = pairs, c.nans = gpusort::nan_order::largest;
        GPUSORT_CASE(run_width<K>(*L, c, rotated_wide(k)));
        ++k;
      }
  seg_case c = rotated(k, mixed, h::dist::float_special, 900);
  c.begin_bit = 3, c.end_bit = t::width_of<K> - 1, c.nans = gpusort::nan_order::largest;
  GPUSORT_CASE(run_width<K>(mixed, c, rotated_wide(k)));
}

// The group classes by lane pairs (pair_kernel, tuning::pair_lanes): 33 to
// 64 keys two lanes a segment for 8-byte keys alone, and for every key
// width with values or a bit range, which also sort 17 to 32 keys one lane
// a segment of 32 (rank, index) words, packed for keys of up to 4 bytes,
// windows of the segment's ranks for 8-byte keys (window.hpp; ranks the
// window's shift joins finish by insertion): sizes 17..64 in a cycle,
// equal sizes
// 33, 48 and 64 (a lead of 3 keys: not 16-byte aligned); ties (few unique,
// equal: the words keep them in order), float specials under both NaN
// orders (a pair whose segment holds both zeros, side by side across its
// two lanes or within one, or NaNs to fold, sorts it by insertion), keys
// alone and pairs.
template <class K> void test_lane_pairs() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 4000; ++i) cycle.push_back(17 + (i * 5) % 48);
  static const layout mixed = back_to_back("sizes 17..64", cycle);
  static const layout equal[] = {equal_sizes(33, 1500, 0, 0), equal_sizes(48, 1200, 3, 0),
                                 equal_sizes(64, 1000, 0, 1)};
  std::size_t k = 0;
  for (h::dist d : {h::dist::few_unique, h::dist::equal, h::dist::float_special, h::dist::uniform})
    for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest})
      for (bool pairs : {true, false})
        for (const layout* L : {&mixed, &equal[k % 3]}) {
          seg_case c = rotated(k, *L, d, 1400 + k);
          c.nans = nans, c.pairs = pairs;
          GPUSORT_CASE(run_width<K>(*L, c, rotated_wide(k)));
          ++k;
        }
  seg_case c = rotated(k, mixed, h::dist::few_unique, 1500);
  c.pairs = false, c.begin_bit = 1, c.end_bit = t::width_of<K> - 1;  // keys alone, the indexed words
  GPUSORT_CASE(run_width<K>(mixed, c, rotated_wide(k)));
}

// 8-byte ranks in windows (segmented/window.hpp) whose shift joins close
// ranks: every segment holds the least and the greatest bits, so its range
// is about 2^64, and keys a few units apart in a shuffled order, which the
// window's words leave in index order and the insertion finishes. Both
// orders, keys alone (a bit range) and pairs, sizes 17 to 64.
template <class K> void test_close_ranks() {
  for (std::size_t size : {17, 24, 32, 33, 40, 63, 64}) {
    const layout L = equal_sizes(size, 3000 / size + 5, 0, size % 2);
    seg_case c;
    c.raw.resize(L.n);
    for (std::size_t s = 0; s < L.segments(); ++s)
      for (std::size_t j = 0; j < size; ++j) {
        const std::uint64_t close = 0x123456789ABC0000ull + (j * 7 + s) % size;
        c.raw[L.begin[s] + j] = j == 1 ? 0 : j == size - 2 ? ~0ull : close;
      }
    for (auto dir : both_orders)
      for (bool pairs : {true, false}) {
        c.dir = dir, c.pairs = pairs, c.seed = size;
        c.begin_bit = pairs ? 0 : 1;
        c.end_bit = pairs ? -1 : t::width_of<K>;
        GPUSORT_CASE(run_width<K>(L, c, pairs));
      }
  }
}

// Both zeros and NaNs in small segments with values: float keys of up to
// 4 bytes rank by their unfolded bits there, and a segment holding both
// zeros, or a NaN under NaNs largest, is re-sorted by its insertion, whose
// ties go by source place. Segments of 2 to 64 keys (the thread classes and
// lane pairs) mix -0.0 and +0.0 in shuffled order with denormals of both
// signs and, in every third segment, NaNs of both signs; integer keys take
// the same bits as plain values.
template <class K> void test_zeros_with_values() {
  constexpr int w = t::width_of<K>;
  const std::uint64_t sign = std::uint64_t(1) << (w - 1);
  const std::uint64_t nan = sign - 1, minus_nan = (sign << 1) - 1;  // all ones but the sign; all ones
  for (std::size_t size : {2, 3, 9, 16, 17, 33, 64}) {
    const layout L = equal_sizes(size, 4000 / size + 5, 0, size % 3);
    seg_case c;
    c.raw.resize(L.n);
    std::uint64_t r = size;
    for (std::size_t s = 0; s < L.segments(); ++s)
      for (std::size_t j = 0; j < size; ++j) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        const unsigned pick = unsigned(r >> 59);  // 0 .. 31
        std::uint64_t b = pick < 12 ? sign : pick < 24 ? 0 : pick < 27 ? 1 : pick < 30 ? (sign | 1) : nan;
        if (pick >= 30 && s % 3 != 0) b = 0;
        if (pick == 31 && s % 3 == 0) b = minus_nan;
        c.raw[L.begin[s] + j] = b;
      }
    for (auto dir : both_orders)
      for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest}) {
        c.dir = dir, c.pairs = true, c.nans = nans, c.seed = size;
        GPUSORT_CASE(run_width<K>(L, c, size % 2 == 0));
      }
  }
}

template <class K> class GpuSegmented : public t::gpu_test {};
TYPED_TEST_SUITE(GpuSegmented, t::key_types, t::key_name);
TYPED_TEST(GpuSegmented, EqualSizes) { test_equal_sizes<TypeParam>(); }
TYPED_TEST(GpuSegmented, Mixes) { test_mixes<TypeParam>(); }
TYPED_TEST(GpuSegmented, Distributions) { test_distributions<TypeParam>(); }
TYPED_TEST(GpuSegmented, BitRanges) { test_bit_ranges<TypeParam>(); }
TYPED_TEST(GpuSegmented, SmallSegments) { test_small_segments<TypeParam>(); }
TYPED_TEST(GpuSegmented, NansLargest) { test_nans_largest<TypeParam>(); }
TYPED_TEST(GpuSegmented, WideSegments) { test_wide_segments<TypeParam>(); }
TYPED_TEST(GpuSegmented, LanePairs) { test_lane_pairs<TypeParam>(); }
TYPED_TEST(GpuSegmented, CloseRanks) { test_close_ranks<TypeParam>(); }
TYPED_TEST(GpuSegmented, ZerosWithValues) { test_zeros_with_values<TypeParam>(); }


// Small segmented cases for compute-sanitizer (memcheck, racecheck), picked
// up by `gpusort_tests --gtest_filter='GpuSanitize*'` with the others;
// GPUSORT_SANITIZE_ALGOS, when set, must name `segmented` for them to run.
class GpuSanitizeSegmented : public t::gpu_test {};

bool sanitize_selected() {
  const char* env = std::getenv("GPUSORT_SANITIZE_ALGOS");
  return !env || !*env || (std::string(",") + env + ",").find(",segmented,") != std::string::npos;
}

template <class K> void sanitize_cases() {
  const layout layouts[] = {power_law(20001, 100, 61), gapped(6000, 62), equal_sizes(4097, 3, 5, 7),
                            equal_sizes(33, 100, 0, 0), half_and_small(30000, 63), equal_sizes(16, 301, 0, 0),
                            equal_sizes(64, 70, 1, 0), equal_sizes(32, 150, 0, 0)};
  std::size_t k = 0;
  for (const layout& L : layouts)
    for (int i = 0; i < 4; ++i, ++k) {
      seg_case c = rotated(k, L, h::dist::uniform, 900 + k);
      if (i == 3) c.begin_bit = 3, c.end_bit = t::width_of<K> - 2;  // a partial bit range
      GPUSORT_CASE(run_width<K>(L, c, k % 2 == 0));
    }
}

TEST_F(GpuSanitizeSegmented, U32) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  sanitize_cases<std::uint32_t>();
}
TEST_F(GpuSanitizeSegmented, F64) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  sanitize_cases<double>();
}
// Float specials, keys alone, under both NaN orders: a segment holding both
// zeros, or NaNs to fold, goes to the insertion of its class.
template <class K> void specials_cases(const layout& a, const layout& b, std::uint64_t seed) {
  for (const layout* L : {&a, &b})
    for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest}) {
      seg_case c = rotated(0, *L, h::dist::float_special, seed);
      c.pairs = false, c.nans = nans;
      GPUSORT_CASE(run_width<K>(*L, c, false));
    }
}
// the thread and wide classes' insertion (16- and 64-key segments); with
// values, the unfolded ranks' insertion by source place
TEST_F(GpuSanitizeSegmented, F32Specials) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  specials_cases<float>(equal_sizes(16, 301, 0, 0), equal_sizes(64, 70, 0, 0), 950);
  for (std::size_t size : {16, 64}) {
    const layout L = equal_sizes(size, 4800 / size, 0, 0);
    for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest}) {
      seg_case c = rotated(0, L, h::dist::float_special, 960 + size);
      c.pairs = true, c.nans = nans;
      GPUSORT_CASE(run_width<float>(L, c, true));
    }
  }
}
// the lane pairs' insertion (8-byte keys alone, segments of 40 and 64 keys)
TEST_F(GpuSanitizeSegmented, F64Specials) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  specials_cases<double>(equal_sizes(40, 90, 0, 0), equal_sizes(64, 70, 0, 0), 970);
}
// 8-byte keys with values, or a bit range, at 17 to 64 keys: windows of
// the segment's ranks (segmented/window.hpp), exact (few unique, all equal)
// or shifted (uniform), and their insertion (close ranks)
TEST_F(GpuSanitizeSegmented, RankWindows) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  const layout layouts[] = {equal_sizes(40, 90, 0, 0), equal_sizes(64, 70, 1, 0), equal_sizes(24, 120, 0, 0)};
  std::size_t k = 0;
  for (const layout& L : layouts)
    for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::equal}) {
      seg_case c = rotated(k, L, d, 980 + k);
      c.pairs = k % 3 != 2;
      if (!c.pairs) c.begin_bit = 2, c.end_bit = 61;  // keys alone, in a bit range
      GPUSORT_CASE((run_width<std::uint64_t, std::uint32_t>(L, c, k % 2 == 0)));
      GPUSORT_CASE((run_width<double, std::uint64_t>(L, c, k % 2 == 1)));
      ++k;
    }
  // a shifted window's insertion: the least and greatest bits, and keys a
  // unit apart in descending order
  const layout L = equal_sizes(48, 60, 0, 0);
  seg_case c;
  c.pairs = true;
  for (std::size_t i = 0; i < L.n; ++i) c.raw.push_back(i % 48 == 0 ? 0 : i % 48 == 1 ? ~0ull : ~0ull / 3 - i);
  GPUSORT_CASE((run_width<std::uint64_t, std::uint32_t>(L, c, false)));
}
// 8-byte values staged by the thread and group classes (segmented/values.cuh)
TEST_F(GpuSanitizeSegmented, StagedWideValues) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  const layout layouts[] = {equal_sizes(16, 301, 0, 0), equal_sizes(64, 70, 1, 0), power_law(20001, 40, 64)};
  std::size_t k = 0;
  for (const layout& L : layouts)
    for (int i = 0; i < 2; ++i, ++k) {
      seg_case c = rotated(k, L, h::dist::uniform, 960 + k);
      c.pairs = true;
      GPUSORT_CASE((run_width<std::uint64_t, std::uint64_t>(L, c, false)));
      GPUSORT_CASE((run_width<std::uint32_t, std::uint64_t>(L, c, true)));
    }
}
TEST_F(GpuSanitizeSegmented, U8) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  sanitize_cases<std::uint8_t>();
}

}  // namespace
