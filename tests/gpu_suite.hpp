// The typed GPU suite every algorithm family shares. A family file
// (gpu_<family>_test) describes its sizes in a `family` and expands
// GPUSORT_GPU_FAMILY_SUITE, which gives, for each of the 12 key types:
//   EdgeSizes      0, 1, 2, 3, the tile edges (4096 and 8192 +-1), 2^k +-1
//   SizeSweep      sizes growing geometrically, e.g. by 10% from 100 up
//   Distributions  every harness distribution
//   BitRanges      [0, w/2) and [3, w-1) of the key's w bits
//   LargeSizes     the family's big sizes (more for u32 keys)
//   NansLargest    float_special with nan_order::largest
// each in both directions, keys-only and pairs (value = original index),
// plus the API tests of gpu_api.hpp (value widths, two-phase, in place,
// streams, out of memory, host spans). Checks: see gpu_cases.hpp.
#pragma once

#include "gpu_api.hpp"
#include "gpu_cases.hpp"

#include <algorithm>
#include <cmath>

namespace gpusort_test {

struct family {
  gpusort::algorithm algo;
  std::size_t max_n;                      // cap on EdgeSizes and SizeSweep
  std::vector<int> pow2;                  // EdgeSizes adds 2^k - 1, 2^k, 2^k + 1 for these k
  std::size_t sweep_from, sweep_to;       // SizeSweep range ...
  double sweep_growth;                    // ... and growth factor per step
  std::vector<std::size_t> dist_sizes;    // Distributions: each dist at each of these
  std::vector<std::size_t> range_sizes;   // BitRanges
  std::vector<std::size_t> large_u32;     // LargeSizes, u32 keys
  std::vector<std::size_t> large_other;   // LargeSizes, every other key type
  std::vector<std::size_t> value_sizes;   // ValueWidths
  std::size_t api_n;                      // size for the API tests
};

constexpr gpusort::order both_orders[] = {gpusort::order::ascending, gpusort::order::descending};

inline std::vector<std::size_t> edge_sizes(const family& f) {
  std::vector<std::size_t> v = {0, 1, 2, 3, 4095, 4096, 4097, 8191, 8192, 8193};
  for (int k : f.pow2)
    for (long d : {-1L, 0L, 1L}) v.push_back(std::size_t((1L << k) + d));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  v.erase(std::remove_if(v.begin(), v.end(), [&](std::size_t n) { return n > f.max_n; }), v.end());
  return v;
}

inline std::vector<std::size_t> sweep_sizes(const family& f) {
  std::vector<std::size_t> v;
  for (double x = double(f.sweep_from); x <= double(std::min(f.sweep_to, f.max_n)); x *= f.sweep_growth) {
    const std::size_t n = std::size_t(std::llround(x));
    if (v.empty() || n > v.back()) v.push_back(n);
  }
  return v;
}

template <class K> void test_edge_sizes(const family& f) {
  for (std::size_t n : edge_sizes(f))
    for (auto dir : both_orders) {
      const sort_case c{h::dist::uniform, n, dir, 0, -1, 1000 + n};
      GPUSORT_CASE(run_keys<K>(f.algo, c));
      GPUSORT_CASE(run_pairs<K>(f.algo, c));
    }
}

// Neighbouring sizes take turns at the four (direction x keys/pairs) kinds.
template <class K> void test_size_sweep(const family& f) {
  std::size_t step = 0;
  for (std::size_t n : sweep_sizes(f)) {
    const sort_case c{h::dist::uniform, n, both_orders[step % 2], 0, -1, 2000 + n};
    if ((step / 2) % 2 == 0) GPUSORT_CASE(run_keys<K>(f.algo, c));
    else GPUSORT_CASE(run_pairs<K>(f.algo, c));
    ++step;
  }
}

template <class K> void test_distributions(const family& f) {
  for (h::dist d : h::all_dists())
    for (std::size_t n : f.dist_sizes)
      for (auto dir : both_orders) {
        const sort_case c{d, n, dir, 0, -1, 3000 + n};
        GPUSORT_CASE(run_keys<K>(f.algo, c));
        GPUSORT_CASE(run_pairs<K>(f.algo, c));
      }
}

template <class K> void test_bit_ranges(const family& f) {
  constexpr int w = width_of<K>;
  for (auto [b, e] : {std::pair{0, w / 2}, {3, w - 1}})
    for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::float_special})
      for (std::size_t n : f.range_sizes)
        for (auto dir : both_orders) {
          const sort_case c{d, n, dir, b, e, 4000 + n};
          GPUSORT_CASE(run_keys<K>(f.algo, c));
          GPUSORT_CASE(run_pairs<K>(f.algo, c));
        }
}

// NaNs largest (the frameworks' order): float_special holds NaNs of both
// signs and several payloads beside +-0 and +-inf; checked against the
// harness's stable reference, bit for bit (integers ignore the option).
template <class K> void test_nans_largest(const family& f) {
  for (std::size_t n : f.dist_sizes)
    for (auto dir : both_orders) {
      sort_case c{h::dist::float_special, n, dir, 0, -1, 6000 + n};
      c.nans = gpusort::nan_order::largest;
      GPUSORT_CASE(run_keys<K>(f.algo, c));
      GPUSORT_CASE(run_pairs<K>(f.algo, c));
    }
  constexpr int w = width_of<K>;
  sort_case c{h::dist::float_special, f.range_sizes.empty() ? 1000 : f.range_sizes[0], gpusort::order::ascending, 3,
              w - 1, 6100};
  c.nans = gpusort::nan_order::largest;
  GPUSORT_CASE(run_keys<K>(f.algo, c));
  GPUSORT_CASE(run_pairs<K>(f.algo, c));
}

template <class K> void test_large_sizes(const family& f) {
  const auto& sizes = std::is_same_v<K, std::uint32_t> ? f.large_u32 : f.large_other;
  if (sizes.empty()) GTEST_SKIP() << "no large sizes for this family and key type";
  std::size_t step = 0;
  for (std::size_t n : sizes) {
    const sort_case c{h::dist::uniform, n, both_orders[step % 2], 0, -1, 5000 + n};
    GPUSORT_CASE(run_keys<K>(f.algo, c));
    GPUSORT_CASE(run_pairs<K>(f.algo, c));
    ++step;
  }
}

}  // namespace gpusort_test

// Expands to the suite of one family: Suite/<index>.<test> typed tests and
// Suite##Api.<test> tests. config_fn() returns the family's const family&.
#define GPUSORT_GPU_FAMILY_SUITE(Suite, config_fn)                                              \
  template <class K> class Suite : public ::gpusort_test::gpu_test {};                          \
  TYPED_TEST_SUITE(Suite, ::gpusort_test::key_types, ::gpusort_test::key_name);                  \
  TYPED_TEST(Suite, EdgeSizes) { ::gpusort_test::test_edge_sizes<TypeParam>(config_fn()); }      \
  TYPED_TEST(Suite, SizeSweep) { ::gpusort_test::test_size_sweep<TypeParam>(config_fn()); }      \
  TYPED_TEST(Suite, Distributions) { ::gpusort_test::test_distributions<TypeParam>(config_fn()); } \
  TYPED_TEST(Suite, BitRanges) { ::gpusort_test::test_bit_ranges<TypeParam>(config_fn()); }      \
  TYPED_TEST(Suite, LargeSizes) { ::gpusort_test::test_large_sizes<TypeParam>(config_fn()); }    \
  TYPED_TEST(Suite, NansLargest) { ::gpusort_test::test_nans_largest<TypeParam>(config_fn()); }  \
  class Suite##Api : public ::gpusort_test::gpu_test {};                                        \
  TEST_F(Suite##Api, ValueWidths) {                                                             \
    ::gpusort_test::test_value_widths(config_fn().algo, config_fn().value_sizes);               \
  }                                                                                             \
  TEST_F(Suite##Api, TwoPhase) { ::gpusort_test::test_two_phase(config_fn().algo, config_fn().api_n); } \
  TEST_F(Suite##Api, InPlace) { ::gpusort_test::test_in_place(config_fn().algo, config_fn().api_n); } \
  TEST_F(Suite##Api, NonDefaultStream) {                                                        \
    ::gpusort_test::test_stream(config_fn().algo, config_fn().api_n);                           \
  }                                                                                             \
  TEST_F(Suite##Api, OutOfMemory) {                                                             \
    ::gpusort_test::test_out_of_memory(config_fn().algo, config_fn().api_n);                    \
  }                                                                                             \
  TEST_F(Suite##Api, HostSpan) { ::gpusort_test::test_host_span(config_fn().algo, config_fn().api_n); } \
  TEST_F(Suite##Api, EmptyInput) { ::gpusort_test::test_empty(config_fn().algo); }
