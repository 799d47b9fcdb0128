// Host suite: the harness generators. Deterministic from (dist, n, seed),
// independent of the thread count, and each distribution has the shape its
// name promises.
#include "harness/harness.hpp"
#include "key_types.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
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
                         "bits20",     "unit",           "normal",        "grid",
                         "small_signed", "ids",          "timestamps",    "nearly_sorted"};
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
  for (dist d : {dist::uniform, dist::sorted, dist::zipf, dist::sample_killer, dist::float_special,
                 dist::normal, dist::timestamps, dist::nearly_sorted}) {
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

// The real-data distributions (harness.hpp's table). An integer key is read
// as its signed value: an unsigned key's bits less 2^(w-1) where the
// distribution centres it.
template <class K> double float_value(K k) {
  if constexpr (std::is_same_v<K, double>) return k;
  else return double(float(k));
}
template <class K> std::int64_t int_value(K k, bool centred) {
  if constexpr (std::is_unsigned_v<K>)
    if (centred) return std::int64_t(std::uint64_t(k) - (std::uint64_t(1) << (width_of<K> - 1)));
  return std::int64_t(k);
}
template <class K> std::vector<double> values_of(dist d, std::size_t n, bool centred) {
  std::vector<double> v;
  for (K k : h::generate<K>(d, n, 3)) {
    if constexpr (traits<K>::is_float) v.push_back(float_value(k));
    else v.push_back(double(int_value(k, centred)));
  }
  return v;
}
struct moments {
  double mean = 0, sd = 0, lo = 0, hi = 0;
  std::size_t negative = 0, positive = 0, distinct = 0;
};
inline moments moments_of(const std::vector<double>& v) {
  moments m;
  m.lo = *std::min_element(v.begin(), v.end());
  m.hi = *std::max_element(v.begin(), v.end());
  for (double x : v) m.mean += x / double(v.size());
  for (double x : v) m.sd += (x - m.mean) * (x - m.mean) / double(v.size());
  m.sd = std::sqrt(m.sd);
  for (double x : v) m.negative += x < 0, m.positive += x > 0;
  m.distinct = std::set<double>(v.begin(), v.end()).size();
  return m;
}

TYPED_TEST(HarnessGenerate, RealDataShapes) {
  using K = TypeParam;
  constexpr int w = width_of<K>;
  constexpr bool fp = traits<K>::is_float;
  const std::size_t n = 100000;
  const double half = double(std::uint64_t(1) << (w / 2 - 1));  // small_signed's bound
  {  // normal: centred on zero, sd 1 (floats) or 2^(w/2-3) (integers)
    const moments m = moments_of(values_of<K>(dist::normal, n, true));
    const double sd = fp ? 1.0 : half / 4;
    EXPECT_NEAR(m.sd / sd, 1.0, 0.05);
    EXPECT_NEAR(m.mean / sd, 0.0, 0.02);
    EXPECT_NEAR(double(m.negative) / double(m.positive), 1.0, 0.05);
    EXPECT_GE(m.lo, -2 * half);  // 8 sd
    EXPECT_LT(m.hi, 2 * half);
  }
  {  // grid: a few thousand distinct values, steps of 0.01 (floats), sd 5 (floats) or 500
    const auto v = values_of<K>(dist::grid, n, true);
    const moments m = moments_of(v);
    const double sd = fp ? 5.0 : w == 8 ? 16.0 : 500.0;
    EXPECT_NEAR(m.sd / sd, 1.0, 0.05);
    EXPECT_NEAR(double(m.negative) / double(m.positive), 1.0, 0.05);
    EXPECT_LE(m.distinct, 10000u);
    if constexpr (w >= 32 || !fp) {
      if (w >= 16) {
        EXPECT_GE(m.distinct, 1000u);
      }
      for (double x : v)
        ASSERT_NEAR(fp ? x * 100 : x, std::nearbyint(fp ? x * 100 : x), 1e-3) << "off the grid: " << x;
    }
  }
  {  // small_signed: uniform integers straddling zero, |value| <= 2^(w/2-1)
    const auto v = values_of<K>(dist::small_signed, n, true);
    const moments m = moments_of(v);
    EXPECT_GE(m.lo, -half);
    EXPECT_LT(m.hi, half);
    EXPECT_LT(m.lo, -half * 0.99);
    EXPECT_GE(m.hi, half * 0.99 - 1);
    EXPECT_NEAR(double(m.negative) / double(n), 0.5, 0.02);
    for (double x : v) ASSERT_EQ(x, std::nearbyint(x)) << "not an integer: " << x;
  }
  {  // ids: [0, 50000) or the key's non-negative range
    const auto v = values_of<K>(dist::ids, n, false);
    const moments m = moments_of(v);
    const double ids = fp || w > 16 ? 50000 : std::is_unsigned_v<K> ? std::min(50000.0, double(1 << w))
                                                                     : double(1 << (w - 1));
    EXPECT_GE(m.lo, 0);
    if (fp && w == 16) {
      EXPECT_LE(m.hi, ids * 1.01);  // rounded to 11 or 8 significant bits
    } else {
      EXPECT_LT(m.hi, ids);
    }
    EXPECT_GT(m.hi, ids * 0.99);
    if (!fp || w >= 32) {
      EXPECT_GT(m.distinct, std::min<std::size_t>(std::size_t(ids) * 6 / 10, 25000));
    }
  }
  {  // timestamps: an epoch plus a range, in no order
    const auto keys = h::generate<K>(dist::timestamps, n, 3);
    EXPECT_FALSE(h::verify_sorted(keys.data(), n, make_options(gpusort::order::ascending)).ok);
    if constexpr (fp) {
      const double epoch = w == 64 ? 1.7e9 : 1e4, slack = w == 16 ? 64 : 0;  // bf16 steps of 64
      for (K k : keys) {
        const double t = float_value(k);
        ASSERT_TRUE(t >= epoch - slack && t <= epoch + 1e4 + slack) << t;
      }
    } else {
      const std::int64_t epoch = w == 64 ? 1700000000000000000 : w == 32 ? 1700000000 : w == 16 ? 20000 : 100;
      const std::int64_t span = w == 64 ? 10000000000000 : w == 32 ? 2592000 : w == 16 ? 1440 : 24;
      std::int64_t hi = epoch;
      for (K k : keys) {
        const std::int64_t t = int_value(k, false);
        ASSERT_TRUE(t >= epoch && t < epoch + span) << t;
        hi = std::max(hi, t);
      }
      EXPECT_GT(double(hi - epoch + 1), double(span) * 0.99);
    }
  }
}

// nearly_sorted: the sorted sample with n/200 disjoint pairs swapped, so
// exactly 1% of the positions (where keys are distinct) hold another key.
TYPED_TEST(HarnessGenerate, NearlySortedMovesOnePercent) {
  using K = TypeParam;
  const gpusort::detail::key_order<K> ord;
  for (std::size_t n : {std::size_t(199), std::size_t(1000), std::size_t(100000)}) {
    const auto v = h::generate<K>(dist::nearly_sorted, n, 4);
    auto sorted = v;
    std::sort(sorted.begin(), sorted.end(), [&](K a, K b) { return ord.key_rank(a) < ord.key_rank(b); });
    std::size_t moved = 0;
    for (std::size_t i = 0; i < n; ++i) moved += traits<K>::raw(v[i]) != traits<K>::raw(sorted[i]);
    if (width_of<K> >= 32) {
      EXPECT_EQ(moved, 2 * (n / 200)) << "n=" << n;
    } else {
      EXPECT_LE(moved, 2 * (n / 200)) << "n=" << n;
    }
    if (n / 200 > 0 && width_of<K> >= 16) {
      EXPECT_GT(moved, 0u) << "n=" << n;
    }
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
