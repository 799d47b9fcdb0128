// GPU suite: radix sorts of integer keys that span a narrow range across a
// carry ("only the bits that vary", radix::pass_key). Small signed integers
// straddle zero, so in the ordered bits every digit varies, but the keys span
// few values: onesweep and radix_msd's LSD mode sort by ordered - least and
// skip the top digits. Each case is checked with the harness and bit for bit
// against cub::DeviceRadixSort: keys and pairs (value = index), both orders,
// in place and not, at sizes around the paths that take the offset
// (onesweep above its fused histogram, radix_msd above its local sort) and
// spans from one value to the whole width. The same watch of the first
// histogram finds sorted input, whose passes are all skipped: sorted keys of
// every type, and sorted keys with one pair out of order; and strictly
// descending input, which is reversed.
#include "gpu_radix_input.hpp"
#include "radix/msd_tuning.cuh"
#include "radix/onesweep_tuning.cuh"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

namespace t = gpusort_test;
using gpusort::algorithm;

// n keys whose raw bits are center - half + uniform [0, 2 half), wrapping in
// the key's width: centre 0 gives small signed values of both signs, centre
// 2^(w-1) unsigned values across the top bit; half = 0 gives equal keys.
template <class K>
std::vector<K> span_keys(std::size_t n, std::uint64_t center, std::uint64_t half, std::uint64_t seed) {
  const std::uint64_t range = 2 * half;  // 0 with half = 2^63: the whole width
  return t::raw_keys<K>(n, seed, [&](std::uint64_t x) {
    return center - half + (half == 0 ? 0 : range == 0 ? x : x % range);
  });
}

template <class K> void test_spans(algorithm algo) {
  using U = typename gpusort::detail::key_traits<K>::bits;
  constexpr int w = t::width_of<K>;
  if constexpr (gpusort::detail::key_traits<K>::is_float) return;  // floats take no offset
  std::vector<std::size_t> sizes;
  if (algo == algorithm::radix_onesweep) {
    const std::size_t fused = gpusort::detail::radix_onesweep::tuning<U, gpusort::detail::no_value>::fused_max;
    sizes = {fused + 1, 200003, (std::size_t(1) << 21) + 5};
  } else {
    const std::size_t local = gpusort::detail::radix_msd::tuning<U, gpusort::detail::no_value>::local_keys;
    sizes = {local + 1, 300007, (std::size_t(1) << 22) + 3};
  }
  const std::uint64_t top = std::uint64_t(1) << (w - 1);
  // spans: 1 value; a quarter of the width across zero or the top bit; half
  // the width (small signed int64: [-2^31, 2^31)); across a middle carry;
  // the whole width (no offset pays)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans = {
      {0, 0}, {0, std::uint64_t(1) << (w / 4)}, {top, std::uint64_t(1) << (w / 4)}, {0, std::uint64_t(1) << (w / 2 - 1)},
      {top, top}};
  if constexpr (w >= 32) spans.push_back({std::uint64_t(1) << (w - 24), std::uint64_t(1) << (w / 2 - 5)});
  std::size_t step = 0;
  for (std::size_t n : sizes)
    for (auto [center, half] : spans)
      for (bool pairs : {false, true}) {
        const auto dir = t::both_orders[step % 2];
        const bool in_place = step++ % 3 == 1;
        const auto in = span_keys<K>(n, center, half, 11000 + n + half);
        GPUSORT_CASE(t::run_input<K>(algo, in, dir, 0, -1, pairs, in_place,
                                     t::describe<K>(("span c=" + std::to_string(center) + " h=" +
                                                     std::to_string(half)).c_str(),
                                                    n, dir, pairs, in_place, algo)));
      }
  // a partial bit range takes no offset: still CUB's order
  for (bool pairs : {false, true}) {
    const auto in = span_keys<K>(200003, 0, std::uint64_t(1) << (w / 2 - 1), 11900);
    GPUSORT_CASE(t::run_input<K>(algo, in, gpusort::order::ascending, 1, w - 1, pairs, false,
                                 t::describe<K>("span bits [1, w-1)", in.size(), gpusort::order::ascending, pairs,
                                                false, algo)));
  }
}

// The sizes, forms and orders of the presorted cases below: each n as keys
// and as pairs, in place every other time, under both orders; the first
// fatal failure ends them.
template <class F> void for_presorted_cases(F f) {
  std::size_t step = 0;
  for (std::size_t n : {std::size_t(40001), std::size_t(300007), (std::size_t(1) << 21) + 5})
    for (bool pairs : {false, true}) {
      const bool in_place = step++ % 2 == 1;
      for (auto dir : t::both_orders) {
        f(n, pairs, in_place, dir);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
}

// Sorted input (the first histogram's watch): every pass skipped, a copy or
// nothing in place. Sorted keys of every type (ties included), a sorted
// prefix with one key out of place at the end and at a warp's edge, a bit
// range under which the keys are sorted though their whole bits are not,
// and descending input under a descending order.
template <class K> void test_sorted(algorithm algo) {
  constexpr int w = t::width_of<K>;
  for_presorted_cases([&](std::size_t n, bool pairs, bool in_place, gpusort::order dir) {
    const auto opt = t::make_options(dir, 0, -1, algo);
    const auto in = t::h::reference_sort<K>(t::h::generate<K>(t::h::dist::few_unique, n, 13000 + n), opt);
    GPUSORT_CASE(t::run_input<K>(algo, in, dir, 0, -1, pairs, in_place,
                                 t::describe<K>("sorted", n, dir, pairs, in_place, algo)));
    for (std::size_t at : {n - 1, std::size_t(32), std::size_t(31), n / 2 + 1}) {
      auto broken = in;  // the last key in order before the first: out of order
      broken[at - 1] = in[n - 1];
      broken[at] = in[0];
      GPUSORT_CASE(t::run_input<K>(algo, broken, dir, 0, -1, pairs, in_place,
                                   t::describe<K>(("sorted but " + std::to_string(at)).c_str(), n, dir, pairs,
                                                  in_place, algo)));
    }
  });
  if (::testing::Test::HasFatalFailure()) return;
  // sorted by bits [w/2, w) only: the low halves are random
  const auto opt = t::make_options(gpusort::order::ascending, w / 2, w, algo);
  const auto in = t::h::reference_sort<K>(t::raw_keys<K>(300007, 13900, [](std::uint64_t r) { return r; }), opt);
  GPUSORT_CASE(t::run_input<K>(algo, in, gpusort::order::ascending, w / 2, w, true, false,
                               t::describe<K>("sorted in its bit range", in.size(), gpusort::order::ascending, true,
                                              false, algo)));
}

// Keys that never rise (the same watch): their sort is a reversal that keeps
// each run of equal keys in input order, one launch (in place: into the
// scratch and a copy back), when no run is longer than reverse_run_max.
// The generator's sorted keys in the other order, under both orders; the
// same with each key repeated 1, 2, 3, 31, 62 or 5 times (runs up to the
// bound; a run of 62 that holds a 32-aligned row sends the keys to the
// passes); few values (runs far over the bound: the passes); one pair
// swapped at the end, at a warp's edge and in the middle; keys descending in
// bits [w/2, w) with random low halves, whose reversal orders them by those
// bits alone; and floats through zeros of both signs (a run of equal keys
// whose bits differ).
template <class K> void test_reversed(algorithm algo) {
  using traits = gpusort::detail::key_traits<K>;
  using bits = typename traits::bits;
  constexpr int w = t::width_of<K>;
  for_presorted_cases([&](std::size_t n, bool pairs, bool in_place, gpusort::order dir) {
    const auto other = dir == gpusort::order::ascending ? gpusort::order::descending : gpusort::order::ascending;
    const auto opt = t::make_options(other, 0, -1, algo);
    const auto in = t::h::reference_sort<K>(t::h::generate<K>(t::h::dist::sorted, n, 14000 + n), opt);
    GPUSORT_CASE(t::run_input<K>(algo, in, dir, 0, -1, pairs, in_place,
                                 t::describe<K>("reversed", n, dir, pairs, in_place, algo)));
    std::vector<K> runs;
    constexpr std::size_t lengths[] = {1, 2, 3, 31, 62, 5};
    for (std::size_t k = 0; runs.size() < n; ++k)
      for (std::size_t c = 0; c < lengths[k % 6] && runs.size() < n; ++c) runs.push_back(in[k]);
    GPUSORT_CASE(t::run_input<K>(algo, runs, dir, 0, -1, pairs, in_place,
                                 t::describe<K>("reversed in runs", n, dir, pairs, in_place, algo)));
    const auto few = t::h::reference_sort<K>(t::h::generate<K>(t::h::dist::few_unique, n, 14100 + n), opt);
    GPUSORT_CASE(t::run_input<K>(algo, few, dir, 0, -1, pairs, in_place,
                                 t::describe<K>("reversed few values", n, dir, pairs, in_place, algo)));
    for (std::size_t at : {n - 1, std::size_t(32), n / 2 + 1}) {
      auto broken = in;
      std::swap(broken[at - 1], broken[at]);
      GPUSORT_CASE(t::run_input<K>(algo, broken, dir, 0, -1, pairs, in_place,
                                   t::describe<K>(("reversed but " + std::to_string(at)).c_str(), n, dir, pairs,
                                                  in_place, algo)));
    }
  });
  if (::testing::Test::HasFatalFailure()) return;
  const auto opt = t::make_options(gpusort::order::descending, w / 2, w, algo);
  const auto in = t::h::reference_sort<K>(t::raw_keys<K>(300007, 14900, [](std::uint64_t r) { return r; }), opt);
  for (bool in_place : {false, true})
    GPUSORT_CASE(t::run_input<K>(algo, in, gpusort::order::ascending, w / 2, w, true, in_place,
                                 t::describe<K>("reversed in its bit range", in.size(), gpusort::order::ascending,
                                                true, in_place, algo)));
  if constexpr (traits::is_float) {
    // m positive finite values falling to the denormals, zeros of both
    // signs (a run of 7: +0 -0 -0 +0 -0 +0 +0), m negative values falling
    const bits sign = bits(bits(1) << (w - 1));
    const std::size_t m = w == 16 ? 20000 : 100000;
    std::vector<K> z;
    for (std::size_t i = 0; i < m; ++i) z.push_back(traits::from_raw(bits(m - i)));
    for (bool minus : {false, true, true, false, true, false, false}) z.push_back(traits::from_raw(minus ? sign : bits(0)));
    for (std::size_t i = 1; i <= m; ++i) z.push_back(traits::from_raw(bits(sign | bits(i))));
    for (bool pairs : {false, true})
      GPUSORT_CASE(t::run_input<K>(algo, z, gpusort::order::ascending, 0, -1, pairs, false,
                                   t::describe<K>("reversed through zeros", z.size(), gpusort::order::ascending,
                                                  pairs, false, algo)));
  }
}

// Keys of few values (onesweep_values.cuh): the scan samples the input,
// and where the values are at most 255 and one digit tells them apart, one
// counting pass sorts them. n keys drawn from `pool` (raw bits), in place
// every other time, keys and pairs, both orders; pools that take the pass
// (2 and 16 random values; 254 and 255 small values, the most places there
// are), that do not (256 small values; 200 random values, which no digit
// tells apart), and floats' zeros of both signs, infinities and NaNs of
// both signs; a key the sample misses whose digit is a sampled value's (the
// pass finds it, and the LSD passes sort the input again); 16 values in
// bits [w/2, w) of keys whose low halves are random, sorted by those bits.
template <class K> std::vector<K> pool_keys(std::size_t n, std::uint64_t seed, const std::vector<std::uint64_t>& pool) {
  return t::raw_keys<K>(n, seed, [&](std::uint64_t r) { return pool[(r >> 7) % pool.size()]; });
}

template <class K> void test_few_values(algorithm algo) {
  using traits = gpusort::detail::key_traits<K>;
  using U = typename traits::bits;
  constexpr int w = t::width_of<K>;
  if constexpr (w >= 16) {
    const std::uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1;
    auto random_pool = [&](std::size_t m, std::uint64_t seed) {
      std::vector<std::uint64_t> pool;
      for (const K k : t::raw_keys<K>(m, seed, [](std::uint64_t r) { return r; })) pool.push_back(std::uint64_t(traits::raw(k)));
      return pool;
    };
    auto small_pool = [](std::size_t m) {
      std::vector<std::uint64_t> pool(m);
      for (std::size_t i = 0; i < m; ++i) pool[i] = i;
      return pool;
    };
    std::vector<std::pair<std::string, std::vector<std::uint64_t>>> pools = {
        {"2 values", random_pool(2, 15001)},     {"16 values", random_pool(16, 15002)},
        {"254 values", small_pool(254)},         {"255 values", small_pool(255)},
        {"256 values", small_pool(256)},         {"200 random values", random_pool(200, 15003)}};
    if constexpr (traits::is_float) {
      // +inf, a quiet NaN and 1.0 by their bits: exponent widths 5 (half), 8, 8, 11
      constexpr int e = std::is_same_v<K, __half> ? 5 : w == 64 ? 11 : 8;
      const U sign = traits::sign, inf = U(((U(1) << e) - 1) << (w - 1 - e));
      const U nan = U(inf | (U(1) << (w - 2 - e))), one = U(((U(1) << (e - 1)) - 1) << (w - 1 - e));
      pools.push_back({"zeros, infinities, NaNs", {0, sign, inf, U(inf | sign), U(nan & ~sign), U(nan | sign), one,
                                                   U(one | sign)}});
    }
    const std::size_t fused = gpusort::detail::radix_onesweep::tuning<U, gpusort::detail::no_value>::fused_max;
    std::size_t step = 0;
    for (std::size_t n : {fused + 1, std::size_t(300007), (std::size_t(1) << 21) + 5})
      for (const auto& [name, pool] : pools)
        for (bool pairs : {false, true}) {
          const auto dir = t::both_orders[step % 2];
          const bool in_place = step++ % 3 == 1;
          const auto in = pool_keys<K>(n, 15100 + n + pool.size(), pool);
          GPUSORT_CASE(t::run_input<K>(algo, in, dir, 0, -1, pairs, in_place,
                                       t::describe<K>(name.c_str(), n, dir, pairs, in_place, algo)));
        }
    // every byte of value i is i, so each digit tells the 16 apart; one key,
    // where the sample does not look, shares its lowest byte with value 5
    std::vector<std::uint64_t> bytes;
    for (std::uint64_t i = 0; i < 16; ++i) bytes.push_back((all / 0xFF) * i);
    auto missed = pool_keys<K>(300007, 15200, bytes);
    missed[1] = traits::from_raw(U(((all / 0xFF) * 15 & ~std::uint64_t(0xFF)) | 5));
    for (bool pairs : {false, true})
      for (auto dir : t::both_orders)
        GPUSORT_CASE(t::run_input<K>(algo, missed, dir, 0, -1, pairs, pairs,
                                     t::describe<K>("16 values and one missed", missed.size(), dir, pairs, pairs, algo)));
    // 16 values in the top half, random low halves: by bits [w/2, w)
    const auto top = random_pool(16, 15300);
    const auto ranged = t::raw_keys<K>(300007, 15301, [&](std::uint64_t r) {
      return (top[(r >> 7) % 16] & (all << (w / 2))) | (r & (all >> (w / 2)));
    });
    for (bool pairs : {false, true})
      GPUSORT_CASE(t::run_input<K>(algo, ranged, gpusort::order::descending, w / 2, w, pairs, false,
                                   t::describe<K>("16 values in bits [w/2, w)", ranged.size(),
                                                  gpusort::order::descending, pairs, false, algo)));
  }
}

template <class K> class GpuRadixOffset : public t::gpu_test {};
TYPED_TEST_SUITE(GpuRadixOffset, t::key_types, t::key_name);
TYPED_TEST(GpuRadixOffset, Onesweep) { test_spans<TypeParam>(algorithm::radix_onesweep); }
TYPED_TEST(GpuRadixOffset, Msd) { test_spans<TypeParam>(algorithm::radix_msd); }
TYPED_TEST(GpuRadixOffset, SortedOnesweep) { test_sorted<TypeParam>(algorithm::radix_onesweep); }
TYPED_TEST(GpuRadixOffset, SortedMsd) { test_sorted<TypeParam>(algorithm::radix_msd); }
TYPED_TEST(GpuRadixOffset, ReversedOnesweep) { test_reversed<TypeParam>(algorithm::radix_onesweep); }
TYPED_TEST(GpuRadixOffset, ReversedMsd) { test_reversed<TypeParam>(algorithm::radix_msd); }
TYPED_TEST(GpuRadixOffset, FewValuesOnesweep) { test_few_values<TypeParam>(algorithm::radix_onesweep); }
TYPED_TEST(GpuRadixOffset, FewValuesAutomatic) { test_few_values<TypeParam>(algorithm::automatic); }

// Small cases that take the offset, for compute-sanitizer (memcheck,
// racecheck): `--gtest_filter='GpuSanitizeOffset.*'`. Small signed values
// in u32 and u64 carriers (i32, i64), keys and pairs, both orders, onesweep
// above its fused histogram and radix_msd's LSD mode; onesweep's presorted
// launch on ascending and descending keys, and its counting pass of few
// values.
class GpuSanitizeOffset : public t::gpu_test {};
TEST_F(GpuSanitizeOffset, Small) {
  for (auto algo : {algorithm::radix_onesweep, algorithm::radix_msd})
    for (bool pairs : {false, true})
      for (auto dir : t::both_orders) {
        const auto a = span_keys<std::int32_t>(40001, 0, 1u << 12, 12000);
        GPUSORT_CASE(t::run_input<std::int32_t>(algo, a, dir, 0, -1, pairs, false,
                                                t::describe<std::int32_t>("sanitize span", a.size(), dir, pairs,
                                                                          false, algo)));
        // strictly descending: the reversal
        std::vector<std::uint32_t> down(40001);
        for (std::size_t i = 0; i < down.size(); ++i) down[i] = std::uint32_t(3 * (down.size() - i));
        GPUSORT_CASE(t::run_input<std::uint32_t>(algo, down, gpusort::order::ascending, 0, -1, pairs, pairs,
                                                 t::describe<std::uint32_t>("sanitize reversed", down.size(),
                                                                            gpusort::order::ascending, pairs, pairs,
                                                                            algo)));
        // strictly ascending: the presorted launch's copy (out of place)
        std::vector<std::uint32_t> up(40001);
        for (std::size_t i = 0; i < up.size(); ++i) up[i] = std::uint32_t(3 * i);
        GPUSORT_CASE(t::run_input<std::uint32_t>(algo, up, gpusort::order::ascending, 0, -1, pairs, false,
                                                 t::describe<std::uint32_t>("sanitize sorted", up.size(),
                                                                            gpusort::order::ascending, pairs, false,
                                                                            algo)));
        const auto b = span_keys<std::int64_t>(40001, 0, 1ull << 31, 12001);
        GPUSORT_CASE(t::run_input<std::int64_t>(algo, b, dir, 0, -1, pairs, true,
                                                t::describe<std::int64_t>("sanitize span", b.size(), dir, pairs,
                                                                          true, algo)));
        // 16 values: onesweep's counting pass, in place and not; and one
        // key the sample misses (the pass's miss, then the LSD passes)
        std::vector<std::uint64_t> bytes;
        for (std::uint64_t i = 0; i < 16; ++i) bytes.push_back(0x01010101ull * i);
        auto few = pool_keys<std::uint32_t>(40001, 12002, bytes);
        GPUSORT_CASE(t::run_input<std::uint32_t>(algo, few, dir, 0, -1, pairs, pairs,
                                                 t::describe<std::uint32_t>("sanitize few values", few.size(), dir,
                                                                            pairs, pairs, algo)));
        few[1] = 0x0F0F0F05u;
        GPUSORT_CASE(t::run_input<std::uint32_t>(algo, few, dir, 0, -1, pairs, false,
                                                 t::describe<std::uint32_t>("sanitize few values, one missed",
                                                                            few.size(), dir, pairs, false, algo)));
      }
}

}  // namespace
