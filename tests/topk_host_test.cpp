// Host tests of top-k's plan (src/topk/plan.hpp): the digits of the
// selection key, the bucket choice and the index digits' counts, checked
// against direct computation.
#include "topk/plan.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

namespace tk = gpusort::detail::topk;

TEST(TopkPlan, Digits) {
  const auto p = tk::make_digits(32, std::size_t(1) << 28);
  EXPECT_EQ(p.key_digits, 4);
  EXPECT_EQ(p.index_bits, 28);
  EXPECT_EQ(p.index_digits, 4);
  EXPECT_EQ(tk::make_digits(16, 1).index_bits, 1);
  EXPECT_EQ(tk::make_digits(64, 257).index_bits, 9);
  // fields cover the key's bits top down, then the index's
  const auto f0 = tk::field_of(p, 0), f3 = tk::field_of(p, 3), f4 = tk::field_of(p, 4), f7 = tk::field_of(p, 7);
  EXPECT_TRUE(f0.is_key && f0.shift == 24 && f0.width == 8);
  EXPECT_TRUE(f3.is_key && f3.shift == 0 && f3.width == 8);
  EXPECT_TRUE(!f4.is_key && f4.shift == 20 && f4.width == 8);
  EXPECT_TRUE(!f7.is_key && f7.shift == 0 && f7.width == 4);
}

TEST(TopkPlan, ChooseBucket) {
  std::vector<std::uint64_t> h(tk::bins, 0);
  h[3] = 5;
  h[7] = 2;
  h[200] = 10;
  for (std::uint64_t need = 1; need <= 17; ++need) {
    const auto c = tk::choose_bucket(h.data(), need);
    const unsigned want = need <= 5 ? 3 : need <= 7 ? 7 : 200;
    EXPECT_EQ(c.bucket, want) << need;
    EXPECT_LT(c.less, need);
    EXPECT_GE(c.less + c.equal, need);
  }
}

TEST(TopkPlan, IndexDigitCounts) {
  for (std::uint64_t n : {1ull, 2ull, 255ull, 256ull, 257ull, 70001ull, 1ull << 20}) {
    const auto p = tk::make_digits(8, n);
    for (int j = 0; j < p.index_digits; ++j) {
      const auto f = tk::field_of(p, p.key_digits + j);
      std::vector<std::uint64_t> direct(tk::bins, 0);
      for (std::uint64_t i = 0; i < n; ++i) ++direct[tk::digit_of(f, 0, i)];
      for (unsigned v = 0; v < unsigned(tk::bins); ++v)
        ASSERT_EQ(tk::index_digit_count(n, f.shift, f.width, v), v < (1u << f.width) ? direct[v] : 0) << n << " " << j;
    }
  }
}

TEST(TopkPlan, PrefixMatches) {
  const auto p = tk::make_digits(16, 1000);
  tk::prefix pre;
  EXPECT_TRUE(pre.matches(0xABCD, 999));
  pre.append(tk::field_of(p, 0), 0xAB);
  EXPECT_TRUE(pre.matches(0xAB00, 5));
  EXPECT_FALSE(pre.matches(0xAC00, 5));
  pre.append(tk::field_of(p, 1), 0xCD);
  EXPECT_TRUE(pre.matches(0xABCD, 5));
  EXPECT_FALSE(pre.matches(0xABCE, 5));
  pre.append(tk::field_of(p, 2), 3);  // index bits 9..2 (10 bits: 8 then 2)
  EXPECT_TRUE(pre.matches(0xABCD, 3 << 2));
  EXPECT_FALSE(pre.matches(0xABCD, 4 << 2));
}

}  // namespace
