// Host suite: the harness verifiers and the reference sort. Each verifier
// must accept a correct output and catch the three classic faults: a
// swapped pair (order), a lost element (permutation) and an unstable pair
// (stability), naming the failing position. The correct outputs come from
// std::stable_sort under an order written in this file (oracle_order), not
// from key_order, which the harness itself sorts and verifies by.
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using namespace gpusort_test;
using gpusort::harness::dist;
namespace h = gpusort::harness;

template <class K> class HarnessVerify : public ::testing::Test {};
TYPED_TEST_SUITE(HarnessVerify, key_types, key_name);

// Input and its stable sort (std::stable_sort under oracle_order) with
// value = original index.
template <class K> struct sorted_pairs {
  std::vector<K> in, out;
  std::vector<std::uint32_t> idx;
  sorted_pairs(const std::vector<K>& input, const gpusort::options& opt) : in(input) {
    idx.resize(in.size());
    std::iota(idx.begin(), idx.end(), 0u);
    const oracle_order<K> ord(opt);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return ord.less(in[a], in[b]); });
    for (auto i : idx) out.push_back(in[i]);
  }
};

// The oracle's two halves agree: with all bits, the ordered key's unsigned
// order is the native order (NaN rule included), on every distribution.
TYPED_TEST(HarnessVerify, OracleOrderedKeyMatchesNative) {
  using K = TypeParam;
  for (dist d : h::all_dists()) {
    const auto in = h::generate<K>(d, 3000, 5);
    for (std::size_t i = 0; i < in.size(); ++i) {  // each key against a scattered partner
      const K a = in[i], b = in[(i * 7919 + 1) % in.size()];
      ASSERT_EQ(native_less(a, b), ordered_key(a) < ordered_key(b))
          << h::to_string(d) << " " << hex(a) << " " << hex(b);
      ASSERT_EQ(native_less(b, a), ordered_key(b) < ordered_key(a))
          << h::to_string(d) << " " << hex(a) << " " << hex(b);
    }
  }
}

// reference_sort against the oracle, below parallel_min (std::stable_sort
// in verify.cpp) and above it (__gnu_parallel::stable_sort): bit for bit,
// so the stability of equal-rank keys with different bits (-0.0/+0.0,
// bits outside the range) is checked too.
TYPED_TEST(HarnessVerify, ReferenceIsStableAndSorted) {
  using K = TypeParam;
  for (dist d : h::all_dists())
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
      for (auto [b, e] : bit_ranges<K>()) {
        const auto opt = make_options(dir, b, e);
        const auto in = h::generate<K>(d, 3000, 17);
        const sorted_pairs<K> want(in, opt);
        const auto got = h::reference_sort(in, opt);
        ASSERT_TRUE(same_bits(got, want.out)) << h::to_string(d) << " " << name(dir) << " [" << b << "," << e << ")";
        for (bool stable : {false, true}) {
          auto c = h::verify_keys(in.data(), got.data(), in.size(), opt, stable);
          ASSERT_TRUE(c.ok) << c.message;
          c = h::verify_pairs(in.data(), want.out.data(), want.idx.data(), in.size(), opt, stable);
          ASSERT_TRUE(c.ok) << c.message;
          c = h::verify_pairs_fast(in.data(), want.out.data(), want.idx.data(), in.size(), opt, stable);
          ASSERT_TRUE(c.ok) << c.message;
        }
        auto c = h::verify_keys_fast(in.data(), got.data(), in.size(), opt);
        ASSERT_TRUE(c.ok) << c.message;
        EXPECT_TRUE(h::verify_sorted(got.data(), got.size(), opt).ok);
      }
}

TYPED_TEST(HarnessVerify, ReferenceAboveParallelMin) {
  using K = TypeParam;
  const std::size_t n = (std::size_t(1) << 16) + 4099;  // verify.cpp's parallel_min is 2^16
  for (dist d : {dist::uniform, dist::few_unique, dist::float_special})
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
      for (auto [b, e] : bit_ranges<K>()) {
        const auto opt = make_options(dir, b, e);
        const auto in = h::generate<K>(d, n, 23);
        const sorted_pairs<K> want(in, opt);
        ASSERT_TRUE(same_bits(h::reference_sort(in, opt), want.out))
            << h::to_string(d) << " " << name(dir) << " [" << b << "," << e << ")";
      }
}

TYPED_TEST(HarnessVerify, EmptyAndSingle) {
  using K = TypeParam;
  const auto opt = make_options(gpusort::order::ascending);
  const K one = traits<K>::from_raw(1);
  const std::uint64_t zero_idx = 0;
  EXPECT_TRUE(h::verify_keys<K>(nullptr, nullptr, 0, opt, true).ok);
  EXPECT_TRUE(h::verify_keys_fast<K>(nullptr, nullptr, 0, opt).ok);
  EXPECT_TRUE(h::verify_keys<K>(&one, &one, 1, opt, false).ok);
  EXPECT_TRUE(h::verify_pairs<K>(&one, &one, &zero_idx, 1, opt, true).ok);
  EXPECT_TRUE(h::verify_sorted<K>(&one, 1, opt).ok);
}

// The faults, injected into a correct sort of distinct-ish uniform keys.
TYPED_TEST(HarnessVerify, CatchesSwappedPair) {
  using K = TypeParam;
  const auto opt = make_options(gpusort::order::ascending);
  sorted_pairs<K> s(h::generate<K>(dist::uniform, 5000, 1), opt);
  const oracle_order<K> ord(opt);
  std::size_t i = 1000;  // first adjacent pair of distinct ranks from 1000 on
  while (ord.equal(s.out[i], s.out[i + 1])) ++i;
  std::swap(s.out[i], s.out[i + 1]);
  std::swap(s.idx[i], s.idx[i + 1]);
  const std::string at = "index " + std::to_string(i);
  for (bool stable : {false, true}) {
    auto c = h::verify_keys(s.in.data(), s.out.data(), s.out.size(), opt, stable);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find(at), std::string::npos) << c.message;
    EXPECT_NE(c.message.find("0x"), std::string::npos) << c.message;
    c = h::verify_pairs(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, stable);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find(at), std::string::npos) << c.message;
    c = h::verify_pairs_fast(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, stable);
    EXPECT_FALSE(c.ok) << "fast pairs";
  }
  auto c = h::verify_keys_fast(s.in.data(), s.out.data(), s.out.size(), opt);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find(at), std::string::npos) << c.message;
  c = h::verify_sorted(s.out.data(), s.out.size(), opt);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find(at), std::string::npos) << c.message;
}

TYPED_TEST(HarnessVerify, CatchesLostElement) {
  using K = TypeParam;
  const auto opt = make_options(gpusort::order::descending);
  sorted_pairs<K> s(h::generate<K>(dist::uniform, 5000, 2), opt);
  // Overwrite one key with its neighbour: still in order, but a key is lost
  // (skip ahead to a neighbour with other bits, or nothing would change).
  std::size_t i = 2500;
  while (traits<K>::raw(s.out[i]) == traits<K>::raw(s.out[i + 1])) ++i;
  s.out[i] = s.out[i + 1];
  for (bool stable : {false, true}) {
    auto c = h::verify_keys(s.in.data(), s.out.data(), s.out.size(), opt, stable);
    EXPECT_FALSE(c.ok) << "stable=" << stable;
    EXPECT_NE(c.message.find("0x"), std::string::npos) << c.message;
  }
  auto c = h::verify_keys_fast(s.in.data(), s.out.data(), s.out.size(), opt);
  EXPECT_FALSE(c.ok);
  // Pairs: the key no longer matches its index ...
  c = h::verify_pairs(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, false);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("index " + std::to_string(i)), std::string::npos) << c.message;
  // ... and a duplicated index is no permutation.
  s.idx[i] = s.idx[i + 1];
  c = h::verify_pairs_fast(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, false);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("permutation"), std::string::npos) << c.message;
  s.idx[i] = std::uint32_t(s.out.size());  // out of range
  c = h::verify_pairs(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, false);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("out of range"), std::string::npos) << c.message;
}

// Two keys of equal rank but different bits (-0.0/+0.0 for floats, keys
// that differ only outside the bit range for integers), in input order;
// the output puts them the other way round.
TYPED_TEST(HarnessVerify, CatchesUnstablePair) {
  using K = TypeParam;
  using bits = bits_of<K>;
  gpusort::options opt = make_options(gpusort::order::ascending);
  bits first = 0, second = traits<K>::sign;  // +0, -0
  if constexpr (!traits<K>::is_float) {
    opt.begin_bit = 1;  // bit 0 does not take part
    first = bits(4), second = bits(5);
  }
  std::vector<K> in = h::generate<K>(dist::uniform, 999, 3);
  const std::size_t a = 100, b = 700;
  in[a] = traits<K>::from_raw(first);
  in[b] = traits<K>::from_raw(second);
  const oracle_order<K> ord(opt);
  ASSERT_TRUE(ord.equal(in[a], in[b])) << "test setup: the pair should rank equal";
  for (std::size_t i = 0; i < in.size(); ++i)  // no other key shares their rank
    if (i != a && i != b && ord.equal(in[i], in[a])) in[i] = traits<K>::from_raw(bits(traits<K>::sign - 1));
  sorted_pairs<K> s(in, opt);
  std::size_t pa = 0;
  while (s.idx[pa] != a) ++pa;
  ASSERT_EQ(s.idx[pa + 1], b) << "test setup: the pair should be adjacent";
  std::swap(s.out[pa], s.out[pa + 1]);
  std::swap(s.idx[pa], s.idx[pa + 1]);

  EXPECT_TRUE(h::verify_keys(s.in.data(), s.out.data(), s.out.size(), opt, false).ok);
  auto c = h::verify_keys(s.in.data(), s.out.data(), s.out.size(), opt, true);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("index " + std::to_string(pa)), std::string::npos) << c.message;
  EXPECT_TRUE(h::verify_keys_fast(s.in.data(), s.out.data(), s.out.size(), opt).ok);
  EXPECT_TRUE(h::verify_pairs(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, false).ok);
  c = h::verify_pairs(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, true);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("not stable at index " + std::to_string(pa)), std::string::npos) << c.message;
  c = h::verify_pairs_fast(s.in.data(), s.out.data(), s.idx.data(), s.out.size(), opt, true);
  EXPECT_FALSE(c.ok);
  // u64 indices work the same.
  std::vector<std::uint64_t> idx64(s.idx.begin(), s.idx.end());
  EXPECT_FALSE(h::verify_pairs(s.in.data(), s.out.data(), idx64.data(), s.out.size(), opt, true).ok);
  EXPECT_TRUE(h::verify_pairs_fast(s.in.data(), s.out.data(), idx64.data(), s.out.size(), opt, false).ok);
}

TEST(HarnessVerify, LargeFastChecks) {
  const std::size_t n = std::size_t(1) << 22;
  const auto opt = make_options(gpusort::order::ascending);
  const auto in = h::generate<std::uint64_t>(dist::uniform, n, 4);
  auto out = h::reference_sort(in, opt);
  EXPECT_TRUE(h::verify_keys_fast(in.data(), out.data(), n, opt).ok);
  out[n / 2] ^= 1;  // a changed low bit may keep the order; the fingerprint sees it
  auto c = h::verify_keys_fast(in.data(), out.data(), n, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("fingerprint"), std::string::npos) << c.message;
}

TEST(HarnessVerify, RejectsBadBitRange) {
  std::vector<std::uint32_t> v(4, 1);
  auto opt = make_options(gpusort::order::ascending, 5, 5);
  EXPECT_THROW(h::reference_sort(v, opt), gpusort::error);
  opt = make_options(gpusort::order::ascending, 0, 33);
  EXPECT_THROW(h::verify_sorted(v.data(), v.size(), opt), gpusort::error);
}

}  // namespace
