// radix_msd's first level for doubles, planned on the host side of the
// plan (plain C++, tests/radix_msd_host_test.cpp checks it exhaustively).
//
// The ordered bits of a double begin with 12 bits of sign and exponent (its
// class), which take few values with very uneven counts: for N(0, 1) about
// 66 classes, the largest 15% of the keys. On the fixed 8-bit grid those
// bits spread thinly over two digits, so the MSD levels need three passes
// where keys of random bits need two. An equal-mass first level fixes that
// without giving every bucket its own digit positions:
//
//   codes   each occupied class e of m_e keys gets 2^b_e consecutive codes,
//           the fewest that hold at most t keys each, for the smallest t
//           that keeps the codes at 256 or fewer (water-filling); code
//           base_e + the top b_e mantissa bits, in class order: monotone
//   rest    the other 52 - b_e mantissa bits, moved up to just below the
//           code, so that every bucket's next digit is bits 48 to 55:
//             c = code << 56 | (mantissa mod 2^(52 - b_e)) << (4 + b_e)
//
// c is an increasing injection of the ordered bits over the occupied
// classes: equal codes mean one class and the same top mantissa bits, and
// the rest then compares as it lies. So the levels sort by c on the fixed
// grid: level 0 by the code (buckets of about n / 256 keys), levels 1 and 2
// by bits 48 to 55 and 40 to 47, then the local sort. An ordered pad (all
// ones) maps to all ones, above every key in every digit. Unoccupied classes map to the next occupied
// class's first code (never asked of a key; pads excepted).
// The kernels (msd_classes.cuh) count the classes, make the codes in one
// block with the same bisection (its sums over the block), and map keys
// with class_key; make_class_codes is their reference.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <cstdint>

namespace gpusort::detail::radix_msd {

struct class_codes {
  static constexpr int class_bits = 12;
  static constexpr int classes = 1 << class_bits;
  static constexpr int mantissa_bits = 64 - class_bits;
  static constexpr int code_bits = 8;
  static constexpr int codes = 1 << code_bits;
  // entry: base code << 4 | b (b <= 8)
  static constexpr unsigned b_mask = 15;
};

// The class every NaN folds into under an order with NaNs largest: the
// fold's all ones, flipped (all ones ascending, 0 descending); `classes`
// (no class) where NaNs rank by their bits. +inf shares it. Where it holds
// no key, the only NaN there can be is the descending pad's pattern, which
// ranks last with the fold and without it; so the fold changes no key's
// order (class_pass_key::leaves takes the passes without it then).
GPUSORT_HD unsigned nan_class(const key_order<double>& o) {
  if (!o.nans_largest()) return unsigned(class_codes::classes);
  return unsigned((~std::uint64_t(0) ^ o.flip) >> class_codes::mantissa_bits);
}

// Codes for a class of `count` keys at threshold t: 2^b, the fewest (b at
// most 8) that hold at most t keys each. ceil(count / 2^b) <= t exactly
// where count <= t 2^b (t a whole number), which holds from some b on: b is
// the number of smaller exponents where it fails, counted without a loop
// that waits on each test (t is at most n: t 2^7 does not overflow).
GPUSORT_HD unsigned class_code_bits(unsigned long long count, unsigned long long t) {
  unsigned b = 0;
  for (unsigned k = 0; k < unsigned(class_codes::code_bits); ++k) b += (t << k) < count;
  return b;
}

// The codes of the classes counted in count[classes] (keys of each top-12-
// bit value of the ordered bits), into entry[classes]. False where more
// than 256 classes are occupied (the map cannot give each its own code) or
// none is. Water-filling: the smallest threshold t (keys a code) whose
// codes, class_code_bits(count, t) a class, number at most 256, found by
// bisection over integers (the codes only grow as t falls); a block of
// threads takes the same steps with its sums over the classes.
GPUSORT_HD bool make_class_codes(const unsigned long long* count, std::uint16_t* entry) {
  using C = class_codes;
  unsigned long long n = 0;
  int occupied = 0;
  for (int e = 0; e < C::classes; ++e) {
    n += count[e];
    occupied += count[e] != 0;
  }
  if (occupied == 0 || occupied > C::codes) return false;
  auto codes_at = [&](unsigned long long t) {
    unsigned total = 0;
    for (int e = 0; e < C::classes; ++e)
      if (count[e] != 0) total += 1u << class_code_bits(count[e], t);
    return total;
  };
  unsigned long long lo = 0, hi = n;  // codes_at(hi) = occupied <= 256; t = lo fails or is 0
  while (hi - lo > 1) {
    const unsigned long long mid = lo + (hi - lo) / 2;
    if (codes_at(mid) <= unsigned(C::codes)) hi = mid;
    else lo = mid;
  }
  unsigned base = 0;
  for (int e = 0; e < C::classes; ++e) {
    const unsigned b = count[e] != 0 ? class_code_bits(count[e], hi) : 0;
    entry[e] = std::uint16_t((base < unsigned(C::codes) ? base : unsigned(C::codes - 1)) << 4 | b);
    if (count[e] != 0) base += 1u << b;
  }
  // pads (ordered all ones, class 4095) rank above every key
  if (count[C::classes - 1] == 0) entry[C::classes - 1] = std::uint16_t((C::codes - 1) << 4);
  return true;
}

// c of the ordered bits o (see the header).
GPUSORT_HD std::uint64_t class_key(std::uint64_t o, const std::uint16_t* entry) {
  using C = class_codes;
  // all ones (a pad, or the one key of that pattern) stays all ones: a pad
  // must take the largest value of every digit (a pass ranks pads last), and
  // every other key's c ends in 4 zero bits, so nothing else reaches it
  if (o == ~std::uint64_t(0)) return o;
  const unsigned e = unsigned(o >> C::mantissa_bits);
  const unsigned ent = entry[e], b = ent & C::b_mask;
  const std::uint64_t mantissa = o & ((std::uint64_t(1) << C::mantissa_bits) - 1);
  const std::uint64_t code = std::uint64_t(ent >> 4) + (mantissa >> (C::mantissa_bits - b));
  const std::uint64_t rest = mantissa & ((std::uint64_t(1) << (C::mantissa_bits - b)) - 1);
  return code << 56 | rest << (4 + b);
}

// The lift of a bucket below the first level (msd_classes.cuh class_pass_key): every key
// of such a bucket has one code, so one class e, and c below the code is
// the mantissa's rest moved up by 4 + b_e (the header); c's digit at
// shift s (s + 8 <= 56) is then ((o << lift) >> s)'s, a shift instead of a
// table load a key. All ones (a pad, or that key) takes the largest digit
// any key of the class can take at every shift, so it ranks last as
// class_key ranks it (255 at every shift of 12 or more).
GPUSORT_HD unsigned class_lift(std::uint64_t o, const std::uint16_t* entry) {
  return 4u + (unsigned(entry[unsigned(o >> class_codes::mantissa_bits)]) & class_codes::b_mask);
}

}  // namespace gpusort::detail::radix_msd
