// Host suite: the harness generators. Deterministic from (dist, n, seed),
// independent of the thread count, and each distribution has the shape its
// name promises.
#include "harness/harness.hpp"
#include "key_types.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace {

using namespace gpusort_test;
using gpusort::harness::dist;
namespace h = gpusort::harness;

TEST(HarnessNames, RoundTrip) {
  const char* names[] = {"uniform",    "sorted",         "reverse",       "equal",
                         "few_unique", "zipf",           "entropy2",      "entropy4",
                         "organ_pipe", "median3_killer", "sample_killer", "float_special",
                         "bits20",     "unit"};
  ASSERT_EQ(h::all_dists().size(), std::size(names));
  for (std::size_t i = 0; i < std::size(names); ++i) {
    EXPECT_EQ(h::to_string(h::all_dists()[i]), names[i]);
    dist d{};
    ASSERT_TRUE(h::parse_dist(names[i], d)) << names[i];
    EXPECT_EQ(d, h::all_dists()[i]);
  }
  dist d{};
  EXPECT_FALSE(h::parse_dist("bogus", d));
  EXPECT_FALSE(h::parse_dist("", d));
  EXPECT_FALSE(h::parse_dist("Uniform", d));
}

template <class K> class HarnessGenerate : public ::testing::Test {};
TYPED_TEST_SUITE(HarnessGenerate, key_types, key_name);

template <class K> bool is_finite_bits(K k) {
  if constexpr (!traits<K>::is_float) return true;
  else {
    // exponent all ones <=> inf or NaN: the largest finite magnitude is below +inf's bits
    using bits = bits_of<K>;
    const bits mag = bits(traits<K>::raw(k) & bits(~traits<K>::sign));
    bits inf;
    if constexpr (std::is_same_v<K, __half>) inf = 0x7c00;
    else if constexpr (std::is_same_v<K, __nv_bfloat16>) inf = 0x7f80;
    else if constexpr (std::is_same_v<K, float>) inf = 0x7f800000u;
    else inf = 0x7ff0000000000000ull;
    return mag < inf;
  }
}

TYPED_TEST(HarnessGenerate, DeterministicAndSeeded) {
  using K = TypeParam;
  for (dist d : h::all_dists()) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(200003)}) {
      const auto a = h::generate<K>(d, n, 123), b = h::generate<K>(d, n, 123);
      ASSERT_TRUE(same_bits(a, b)) << h::to_string(d) << " n=" << n;
    }
    if (d != dist::median3_killer) {  // a fixed permutation: no randomness to seed
      const auto a = h::generate<K>(d, 1000, 1), b = h::generate<K>(d, 1000, 2);
      EXPECT_FALSE(same_bits(a, b)) << h::to_string(d) << ": seed has no effect";
    }
  }
}

TYPED_TEST(HarnessGenerate, IndependentOfThreadCount) {
  using K = TypeParam;
  const int threads = omp_get_max_threads();
  for (dist d : {dist::uniform, dist::sorted, dist::zipf, dist::sample_killer, dist::float_special}) {
    omp_set_num_threads(1);
    const auto one = h::generate<K>(d, 300000, 5);
    omp_set_num_threads(std::max(threads, 3));
    const auto many = h::generate<K>(d, 300000, 5);
    omp_set_num_threads(threads);
    ASSERT_TRUE(same_bits(one, many)) << h::to_string(d);
  }
}

TYPED_TEST(HarnessGenerate, ShapesOfTheDistributions) {
  using K = TypeParam;
  using bits = bits_of<K>;
  constexpr int w = width_of<K>;
  const std::size_t n = 100000;
  const gpusort::options up = make_options(gpusort::order::ascending);
  const gpusort::options down = make_options(gpusort::order::descending);
  auto distinct = [](const std::vector<K>& v) {
    std::set<bits> s;
    for (K k : v) s.insert(traits<K>::raw(k));
    return s.size();
  };

  // Only float_special may hold NaN or inf.
  for (dist d : h::all_dists()) {
    if (d == dist::float_special) continue;
    const auto v = h::generate<K>(d, n, 3);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(is_finite_bits(v[i])) << h::to_string(d) << "[" << i << "] = " << hex(v[i]);
  }
  // uniform: floats are normal numbers (no zero or denormal); wide types rarely repeat.
  {
    const auto v = h::generate<K>(dist::uniform, n, 3);
    if constexpr (traits<K>::is_float) {
      const gpusort::detail::key_order<K> ord;
      const K pz = traits<K>::from_raw(0);
      for (K k : v) ASSERT_NE(ord.key_rank(k), ord.key_rank(pz)) << hex(k);
    }
    if constexpr (w >= 32) EXPECT_GT(distinct(v), n * 99 / 100);
    else EXPECT_GT(distinct(v), std::min<std::size_t>(n, (std::size_t(1) << w)) / 2);
  }
  EXPECT_TRUE(h::verify_sorted(h::generate<K>(dist::sorted, n, 3).data(), n, up).ok);
  EXPECT_TRUE(h::verify_sorted(h::generate<K>(dist::reverse, n, 3).data(), n, down).ok);
  EXPECT_FALSE(h::verify_sorted(h::generate<K>(dist::reverse, n, 3).data(), n, up).ok);
  EXPECT_EQ(distinct(h::generate<K>(dist::equal, n, 3)), 1u);
  EXPECT_EQ(distinct(h::generate<K>(dist::few_unique, n, 3)), 16u);
  {  // zipf: the top key holds ~1/H(65536) ~ 8.6% of the input
    std::map<bits, std::size_t> count;
    for (K k : h::generate<K>(dist::zipf, n, 3)) ++count[traits<K>::raw(k)];
    std::size_t top = 0;
    for (auto& [b, c] : count) top = std::max(top, c);
    EXPECT_GT(top, n / 15);
    EXPECT_LT(top, n / 6);
    EXPECT_LE(count.size(), std::size_t(1) << 16);
  }
  if constexpr (!traits<K>::is_float) {  // entropy: each bit set with probability 2^-words
    for (auto [d, words] : {std::pair{dist::entropy2, 2}, {dist::entropy4, 4}}) {
      double ones = 0;
      for (K k : h::generate<K>(d, n, 3)) ones += std::popcount(traits<K>::raw(k));
      const double want = double(w) * double(n) / double(1 << words);
      EXPECT_NEAR(ones / want, 1.0, 0.05) << h::to_string(d);
    }
  }
  {  // organ pipe: up then down
    const auto v = h::generate<K>(dist::organ_pipe, n, 3);
    EXPECT_TRUE(h::verify_sorted(v.data(), n / 2, up).ok);
    EXPECT_TRUE(h::verify_sorted(v.data() + n / 2, n - n / 2, down).ok);
  }
  {  // sample killer: every 16th key (and each of 1024 regular positions) is one value
    const auto v = h::generate<K>(dist::sample_killer, n, 3);
    for (std::size_t i = 0; i < n; i += 16) ASSERT_EQ(traits<K>::raw(v[i]), traits<K>::raw(v[0])) << i;
    for (std::size_t j = 0; j < 1024; ++j)
      ASSERT_EQ(traits<K>::raw(v[j * n / 1024]), traits<K>::raw(v[0])) << j;
  }
  {  // bits20: the integers 0 .. 2^20 - 1 (as the key's value), all of them in use
    const auto v = h::generate<K>(dist::bits20, n, 3);
    if constexpr (w >= 32) {
      constexpr double top = double(1 << 20);
      double largest = 0;
      for (K k : v) {
        double x;
        if constexpr (traits<K>::is_float) x = double(k);
        else x = double(std::uint64_t(traits<K>::raw(k)));  // non-negative: raw bits == value
        ASSERT_TRUE(x >= 0 && x < top && x == double(std::uint64_t(x))) << hex(k);
        largest = std::max(largest, x);
      }
      EXPECT_GT(largest, top * 0.999);
      EXPECT_GT(distinct(v), n * 9 / 10);  // 10^5 draws of 2^20 values: ~95% distinct
    } else {  // no room for 20 bits: uniform over the key
      EXPECT_GT(distinct(v), std::min<std::size_t>(n, (std::size_t(1) << w)) / 2);
    }
  }
  {  // unit: floats in [0, 1) (about half of them in [0.5, 1)); integers with the top bit clear
    const auto v = h::generate<K>(dist::unit, n, 3);
    std::size_t upper = 0;
    for (K k : v) {
      if constexpr (traits<K>::is_float) {
        const double x = double(float(k));
        ASSERT_TRUE(x >= 0 && x < 1) << hex(k);
        upper += x >= 0.5;
      } else {
        const auto raw = traits<K>::raw(k);
        ASSERT_EQ(raw >> (w - 1), 0u) << hex(k);
        upper += (raw >> (w - 2)) & 1u;
      }
    }
    EXPECT_NEAR(double(upper) / double(n), 0.5, 0.02);
  }
}

// Musser's sequence for n = 8 is 1 5 3 7 2 4 6 8; the keys follow it in rank
// wherever the type has n distinct values.
TYPED_TEST(HarnessGenerate, Median3KillerIsMussersSequence) {
  using K = TypeParam;
  const gpusort::detail::key_order<K> ord;
  const auto v = h::generate<K>(dist::median3_killer, 8, 0);
  const int want[] = {1, 5, 3, 7, 2, 4, 6, 8};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(want[i] < want[j], ord.key_rank(v[i]) < ord.key_rank(v[j])) << i << " " << j;
  // A larger n: a permutation of n distinct ranks for wide types, monotone in Musser's values.
  const std::size_t n = 1003;
  const auto big = h::generate<K>(dist::median3_killer, n, 0);
  if constexpr (width_of<K> >= 32) {
    auto ranks = std::vector<bits_of<K>>();
    for (K k : big) ranks.push_back(ord.key_rank(k));
    std::sort(ranks.begin(), ranks.end());
    EXPECT_EQ(std::adjacent_find(ranks.begin(), ranks.end()), ranks.end()) << "values repeat";
  }
  EXPECT_FALSE(h::verify_sorted(big.data(), n, make_options(gpusort::order::ascending)).ok);
}

template <class K> class HarnessFloatSpecial : public ::testing::Test {};
using float_key_types = ::testing::Types<__half, __nv_bfloat16, float, double>;
TYPED_TEST_SUITE(HarnessFloatSpecial, float_key_types, key_name);

TYPED_TEST(HarnessFloatSpecial, HoldsEveryKindOfSpecial) {
  using K = TypeParam;
  using bits = bits_of<K>;
  int man = std::is_same_v<K, __half> ? 10 : std::is_same_v<K, __nv_bfloat16> ? 7 : std::is_same_v<K, float> ? 23 : 52;
  int exp = width_of<K> - 1 - man;
  const bits sign = traits<K>::sign;
  const bits exp_mask = bits(((bits(1) << exp) - 1) << man), man_mask = bits((bits(1) << man) - 1);
  const bits quiet = bits(bits(1) << (man - 1));
  std::set<std::string> kinds;
  std::set<bits> nan_payloads;
  for (K k : h::generate<K>(dist::float_special, 20000, 8)) {
    const bits b = traits<K>::raw(k);
    const std::string s = (b & sign) ? "-" : "+";
    const bits e = bits(b & exp_mask), f = bits(b & man_mask);
    if (e == 0) kinds.insert(s + (f == 0 ? "zero" : "denormal"));
    else if (e == exp_mask && f == 0) kinds.insert(s + "inf");
    else if (e == exp_mask) {
      kinds.insert(s + ((f & quiet) ? "qnan" : "snan"));
      nan_payloads.insert(f);
    } else kinds.insert(s + "normal");
  }
  for (const char* want : {"+zero", "-zero", "+denormal", "-denormal", "+inf", "-inf", "+qnan", "-qnan",
                           "+snan", "-snan", "+normal", "-normal"})
    EXPECT_TRUE(kinds.count(want)) << "float_special lacks " << want;
  EXPECT_GT(nan_payloads.size(), 20u) << "NaN payloads should vary";
}

}  // namespace
