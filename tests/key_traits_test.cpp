// Host suite: the key transform (key_traits) and the order (key_order).
// These define what every sort must produce, so they are checked against
// first principles: native comparisons, IEEE bit layouts, explicit bit
// arithmetic.
#include "key_types.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace {

using namespace gpusort_test;
using gpusort::detail::key_order;

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class K> bool is_nan(K k) {
  if constexpr (traits<K>::is_float) {
    if constexpr (std::is_same_v<K, __half>) return std::isnan(__half2float(k));
    else if constexpr (std::is_same_v<K, __nv_bfloat16>) return std::isnan(__bfloat162float(k));
    else return std::isnan(k);
  }
  return false;
}
// Native value, widened so every key type compares with <.
template <class K> auto native(K k) {
  if constexpr (std::is_same_v<K, __half>) return double(__half2float(k));
  else if constexpr (std::is_same_v<K, __nv_bfloat16>) return double(__bfloat162float(k));
  else return k;
}

// Bit patterns to test: all of them for 8/16-bit keys, 2^20 random ones
// (plus the extremes) for wider keys.
template <class K> std::vector<bits_of<K>> test_patterns() {
  using bits = bits_of<K>;
  std::vector<bits> v;
  if constexpr (width_of<K> <= 16) {
    for (std::uint32_t b = 0; b < (1u << width_of<K>); ++b) v.push_back(bits(b));
  } else {
    std::uint64_t s = 42;
    for (int i = 0; i < (1 << 20); ++i) v.push_back(bits(splitmix(s)));
    for (bits b : {bits(0), bits(1), traits<K>::sign, bits(traits<K>::sign - 1), bits(~bits(0))})
      v.push_back(b);
  }
  return v;
}

template <class K> class KeyTraits : public ::testing::Test {};
TYPED_TEST_SUITE(KeyTraits, key_types, key_name);

TYPED_TEST(KeyTraits, RoundTripEveryPattern) {
  using K = TypeParam;
  using bits = bits_of<K>;
  for (bits b : test_patterns<K>()) {
    ASSERT_EQ(traits<K>::untwiddle(traits<K>::twiddle(b)), b) << "pattern " << std::hex << +b;
    ASSERT_EQ(traits<K>::raw(traits<K>::from_bits(traits<K>::to_bits(traits<K>::from_raw(b)))), b);
  }
  if constexpr (width_of<K> <= 16) {  // a bijection: every twiddled value is hit once
    std::vector<int> hits(std::size_t(1) << width_of<K>, 0);
    for (bits b : test_patterns<K>()) ++hits[traits<K>::twiddle(b)];
    for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << "twiddled value " << i;
  }
}

// Ascending rank order agrees with the native < and == on every pair of
// non-NaN keys (so -0.0 == +0.0 rank equal).
TYPED_TEST(KeyTraits, OrderMatchesNativeComparison) {
  using K = TypeParam;
  using bits = bits_of<K>;
  const key_order<K> ord;
  std::uint64_t s = 7;
  const auto pats = test_patterns<K>();
  for (int t = 0; t < 400000; ++t) {
    const K a = traits<K>::from_raw(pats[splitmix(s) % pats.size()]);
    const K b = traits<K>::from_raw(pats[splitmix(s) % pats.size()]);
    if (is_nan(a) || is_nan(b)) continue;
    const bits ra = ord.key_rank(a), rb = ord.key_rank(b);
    ASSERT_EQ(native(a) < native(b), ra < rb) << hex(a) << " vs " << hex(b);
    ASSERT_EQ(native(a) == native(b), ra == rb) << hex(a) << " vs " << hex(b);
  }
}

// The negative signalling NaN of payload 1, from the native infinity's bits.
template <class K> bool is_pad_nan(K k) {
  if constexpr (!traits<K>::is_float) {
    return false;
  } else {
    K inf;
    if constexpr (std::is_same_v<K, __half>) inf = __float2half(INFINITY);
    else if constexpr (std::is_same_v<K, __nv_bfloat16>) inf = __float2bfloat16(INFINITY);
    else inf = std::numeric_limits<K>::infinity();
    return traits<K>::raw(k) == bits_of<K>(traits<K>::raw(inf) | traits<K>::sign | 1u);
  }
}

// NaNs largest (nan_order::largest, the frameworks' order), from first
// principles: a NaN (native isnan) ranks above every non-NaN key and equal
// to every other NaN, whatever its sign and payload; non-NaN keys keep the
// native order; descending turns it around (NaNs first); full_order agrees
// on carried bits; and the carried bits still round-trip (payloads intact).
TYPED_TEST(KeyTraits, NansLargest) {
  using K = TypeParam;
  using bits = bits_of<K>;
  using gpusort::detail::full_order;
  const key_order<K> up(false, 0, width_of<K>, true), down(true, 0, width_of<K>, true);
  const full_order<K> fup(up), fdown(down);
  EXPECT_EQ(up.nans_largest(), traits<K>::is_float);
  EXPECT_FALSE(key_order<K>(false, 0, width_of<K>).nans_largest());
  std::uint64_t s = 13;
  const auto pats = test_patterns<K>();
  for (int t = 0; t < 400000; ++t) {
    const K a = traits<K>::from_raw(pats[splitmix(s) % pats.size()]);
    const K b = traits<K>::from_raw(pats[splitmix(s) % pats.size()]);
    const bool na = is_nan(a), nb = is_nan(b);
    const bool less = na ? false : nb ? true : native(a) < native(b);
    const bool equal = (na && nb) || (!na && !nb && native(a) == native(b));
    ASSERT_EQ(up.less(up.encode(a), up.encode(b)), less) << hex(a) << " vs " << hex(b);
    ASSERT_EQ(up.key_rank(a) == up.key_rank(b), equal) << hex(a) << " vs " << hex(b);
    ASSERT_EQ(fup.less(fup.encode(a), fup.encode(b)), less) << hex(a) << " vs " << hex(b);
    // descending: inverted, but for the pad pattern (the negative signalling
    // NaN of payload 1: sign, exponent and the lowest bit set), last
    const bool pa = is_pad_nan(a), pb = is_pad_nan(b);
    const bool dless = traits<K>::is_float && (pa || pb) ? !pa && pb : !less && !equal;
    ASSERT_EQ(down.less(down.encode(a), down.encode(b)), dless) << hex(a) << " vs " << hex(b);
    ASSERT_EQ(fdown.less(fdown.encode(a), fdown.encode(b)), dless) << hex(a) << " vs " << hex(b);
    ASSERT_EQ(down.rank(down.pad()), bits(~bits(0)));
    ASSERT_EQ(up.rank(up.pad()), bits(~bits(0)));
    ASSERT_EQ(fdown.rank(fdown.pad()), bits(~bits(0)));
    ASSERT_EQ(fup.rank(fup.pad()), bits(~bits(0)));
    ASSERT_EQ(traits<K>::raw(up.decode(up.encode(a))), traits<K>::raw(a));
  }
  if constexpr (traits<K>::is_float) {  // the carrier (bf16 as f16) keeps K's NaNs
    const auto c = gpusort::detail::carried_order(up);
    for (bits p : pats) {
      const K k = traits<K>::from_raw(p);
      ASSERT_EQ(bits(c.rank(traits<K>::twiddle(p))), up.key_rank(k)) << hex(k);
    }
  }
}

// Descending is the ascending order turned around, for every pattern (NaNs
// included); equal ranks stay equal.
TYPED_TEST(KeyTraits, DescendingIsInverted) {
  using K = TypeParam;
  const key_order<K> up(false, 0, width_of<K>), down(true, 0, width_of<K>);
  std::uint64_t s = 9;
  const auto pats = test_patterns<K>();
  for (int t = 0; t < 400000; ++t) {
    const auto a = traits<K>::twiddle(pats[splitmix(s) % pats.size()]);
    const auto b = traits<K>::twiddle(pats[splitmix(s) % pats.size()]);
    ASSERT_EQ(down.less(a, b), up.less(b, a));
    ASSERT_EQ(down.rank(a) == down.rank(b), up.rank(a) == up.rank(b));
  }
}

// rank = bits [begin, end) of the (zero-folded, direction-flipped) twiddled
// key, rebuilt here one bit at a time; pad() ranks last.
TYPED_TEST(KeyTraits, BitRanges) {
  using K = TypeParam;
  using bits = bits_of<K>;
  constexpr int w = width_of<K>;
  const std::pair<int, int> ranges[] = {{0, w}, {0, w / 2}, {3, w - 1}, {w / 2, w}, {w - 1, w}, {0, 1}};
  for (auto [begin, end] : ranges) {
    for (bool desc : {false, true}) {
      const key_order<K> ord(desc, begin, end);
      bits max_rank = 0;
      for (int i = 0; i < end - begin; ++i) max_rank = bits(max_rank | bits(bits(1) << i));
      EXPECT_EQ(ord.rank(ord.pad()), max_rank) << "[" << begin << "," << end << ") desc=" << desc;
      std::uint64_t s = 11;
      const auto pats = test_patterns<K>();
      for (int t = 0; t < 20000; ++t) {
        const K k = traits<K>::from_raw(pats[splitmix(s) % pats.size()]);
        bits tw = traits<K>::to_bits(k);
        if (traits<K>::is_float && traits<K>::raw(k) == traits<K>::sign) tw = traits<K>::sign;  // -0 -> +0
        if (desc) tw = bits(~tw);
        bits want = 0;
        for (int i = begin; i < end; ++i)
          if ((tw >> i) & 1) want = bits(want | bits(bits(1) << (i - begin)));
        ASSERT_EQ(ord.key_rank(k), want) << hex(k) << " [" << begin << "," << end << ") desc=" << desc;
      }
    }
  }
}

// A key that is not its own carrier (signed integers, bf16) is sorted as
// its carrier under carried_order: every bit pattern, read as the carrier,
// must rank as key_order<K> ranks it (checked here against the rank built
// bit by bit in BitRanges, through key_order<K>), and the pad must rank last.
TYPED_TEST(KeyTraits, CarrierRanksAsTheKey) {
  using K = TypeParam;
  using C = gpusort::detail::carrier_t<K>;
  static_assert(sizeof(C) == sizeof(K));
  static_assert(!std::is_signed_v<C> || !std::is_integral_v<C>, "carriers of integers are unsigned");
  constexpr int w = width_of<K>;
  const std::pair<int, int> ranges[] = {{0, w}, {0, w / 2}, {3, w - 1}, {w / 2, w}, {w - 1, w}};
  for (auto [begin, end] : ranges) {
    for (bool desc : {false, true}) {
      const key_order<K> ord(desc, begin, end);
      const key_order<C> cord = gpusort::detail::carried_order(ord);
      EXPECT_EQ(cord.rank(cord.pad()), ord.rank(ord.pad()));
      for (auto b : test_patterns<K>()) {
        const K k = traits<K>::from_raw(b);
        const C c = traits<C>::from_raw(b);
        ASSERT_EQ(cord.key_rank(c), ord.key_rank(k)) << hex(k) << " [" << begin << "," << end << ") desc=" << desc;
        // Interpolated pivots (sample sort) map a rank back to carried bits.
        const auto r = ord.key_rank(k);
        ASSERT_EQ(cord.rank(cord.from_rank(r)), ord.rank(ord.from_rank(r))) << hex(k);
      }
    }
  }
}

template <class K> class IntegerKeyOrder : public ::testing::Test {};
using integer_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t,
                                       std::int8_t, std::int16_t, std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(IntegerKeyOrder, integer_types, key_name);

TYPED_TEST(IntegerKeyOrder, Extremes) {
  using K = TypeParam;
  using lim = std::numeric_limits<K>;
  std::vector<K> ascending;
  if constexpr (std::is_signed_v<K>) ascending = {lim::min(), K(lim::min() + 1), K(-1), K(0), K(1), K(lim::max() - 1), lim::max()};
  else ascending = {K(0), K(1), K(lim::max() / 2), K(lim::max() / 2 + 1), K(lim::max() - 1), lim::max()};
  const key_order<K> up, down(true, 0, width_of<K>);
  for (std::size_t i = 1; i < ascending.size(); ++i) {
    EXPECT_LT(up.key_rank(ascending[i - 1]), up.key_rank(ascending[i])) << +ascending[i];
    EXPECT_GT(down.key_rank(ascending[i - 1]), down.key_rank(ascending[i])) << +ascending[i];
  }
}

template <class K> struct float_layout;
template <> struct float_layout<__half> { static constexpr int exp = 5, man = 10; };
template <> struct float_layout<__nv_bfloat16> { static constexpr int exp = 8, man = 7; };
template <> struct float_layout<float> { static constexpr int exp = 8, man = 23; };
template <> struct float_layout<double> { static constexpr int exp = 11, man = 52; };

template <class K> class FloatKeyOrder : public ::testing::Test {};
using float_types = ::testing::Types<__half, __nv_bfloat16, float, double>;
TYPED_TEST_SUITE(FloatKeyOrder, float_types, key_name);

// The full IEEE line in CUB's order: negative NaNs (largest payload first),
// -inf, negative normals, negative denormals, -0 == +0, positive
// denormals, normals, +inf, positive NaNs (smallest payload first).
TYPED_TEST(FloatKeyOrder, SpecialValues) {
  using K = TypeParam;
  using bits = bits_of<K>;
  constexpr int m = float_layout<K>::man;
  constexpr bits sign = traits<K>::sign;
  constexpr bits exp = bits(((bits(1) << float_layout<K>::exp) - 1) << m);
  constexpr bits quiet = bits(bits(1) << (m - 1));
  constexpr bits min_normal = bits(bits(1) << m), max_finite = bits(exp - 1), max_denorm = bits(min_normal - 1);
  const bits line[] = {
      bits(~bits(0)),                   // -NaN, all payload bits
      bits(sign | exp | quiet | 1),     // -qNaN
      bits(sign | exp | quiet),         // -qNaN, empty payload
      bits(sign | exp | 1),             // -sNaN, smallest payload
      bits(sign | exp),                 // -inf
      bits(sign | max_finite),          // -max
      bits(sign | min_normal),          // -min normal
      bits(sign | max_denorm),          // largest negative denormal magnitude
      bits(sign | 1),                   // smallest negative denormal magnitude
      sign,                             // -0 (ranks as +0, checked below)
      bits(0),                          // +0
      bits(1),                          // +min denormal
      max_denorm,
      min_normal,
      max_finite,
      exp,                              // +inf
      bits(exp | 1),                    // +sNaN
      bits(exp | quiet),                // +qNaN
      bits(~sign),                      // +NaN, all payload bits
  };
  const key_order<K> up, down(true, 0, width_of<K>);
  for (std::size_t i = 1; i < std::size(line); ++i) {
    const K a = traits<K>::from_raw(line[i - 1]), b = traits<K>::from_raw(line[i]);
    if (line[i - 1] == sign) {  // -0 then +0
      EXPECT_EQ(up.key_rank(a), up.key_rank(b)) << "-0 and +0 must rank equal";
      EXPECT_EQ(down.key_rank(a), down.key_rank(b)) << "-0 and +0 must rank equal (descending)";
    } else {
      EXPECT_LT(up.key_rank(a), up.key_rank(b)) << hex(a) << " before " << hex(b);
      EXPECT_GT(down.key_rank(a), down.key_rank(b)) << hex(a) << " after " << hex(b) << " (descending)";
    }
  }
}

TYPED_TEST(FloatKeyOrder, ZerosRankEqualUnderEveryBitRange) {
  using K = TypeParam;
  constexpr int w = width_of<K>;
  const K pz = traits<K>::from_raw(0), nz = traits<K>::from_raw(traits<K>::sign);
  for (auto [b, e] : {std::pair{0, w}, {0, w / 2}, {3, w - 1}, {w - 1, w}})
    for (bool desc : {false, true}) {
      const key_order<K> ord(desc, b, e);
      EXPECT_EQ(ord.key_rank(pz), ord.key_rank(nz)) << "[" << b << "," << e << ") desc=" << desc;
    }
}

}  // namespace
