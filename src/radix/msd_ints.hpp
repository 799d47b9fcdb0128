// radix_msd's affine map for 64-bit integers, the host side of the plan
// (plain C++, tests/radix_msd_host_test.cpp checks it from first principles).
//
// Keys that span a range of 2^w above a large offset (ns timestamps: a
// range of 1e13 = 2^43.2 above the epoch's offset, w = 44) vary, in their
// ordered bits o, in w bits that start anywhere on the fixed 8-bit digit
// grid. The levels then split by the top varying digit, which holds only
// w mod 8 varying bits (16 buckets for w = 44), and need three levels where
// keys of random bits need two. Sorting by
//
//   c = (o - least) << s,  s = (8 - w mod 8) mod 8
//
// instead puts the varying bits at the top of a whole number of digits: c
// spans w + s bits (a multiple of 8), its top digit takes about 256 values,
// and every later digit is as spread as the data. c is increasing and
// injective (the range times 2^s stays below 2^64), so a stable sort by c
// is the sort by o. The levels take the digits of c (radix_msd's
// int_pass_key), and the local sort ranks by o - least, which orders every
// run as c does: a run's keys share c's bits above its remaining digits,
// so o - least varies below them too.
//
// The map is taken where it can move the varying bits to a digit's top:
// more than three digits' worth of range (below that LSD passes over o -
// least are as few as the levels) that is not already aligned (s > 0), and
// not the full range.
#pragma once

#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cstdint>

namespace gpusort::detail::radix_msd {

struct int_map {
  unsigned long long base = 0;  // subtracted from the ordered bits: the least key's
  unsigned shift = 0;           // then shifted up by this
  unsigned ok = 0;              // the map is taken (else c = o)
};

// Bits in which a span of ordered keys [lo, hi] varies: the width of hi - lo.
GPUSORT_HD int span_width(unsigned long long lo, unsigned long long hi) { return bit_width64(hi - lo); }

// The map of keys whose ordered bits span [lo, hi] (lo <= hi), on a grid of
// radix_bits-bit digits.
GPUSORT_HD int_map int_map_of(unsigned long long lo, unsigned long long hi, int radix_bits) {
  const int w = span_width(lo, hi);
  const unsigned s = unsigned((radix_bits - w % radix_bits) % radix_bits);
  int_map m;
  if (w > 3 * radix_bits && w < 64 && s != 0) {
    m.base = lo;
    m.shift = s;
    m.ok = 1;
  }
  return m;
}

// c of ordered bits o under the map.
GPUSORT_HD unsigned long long int_mapped(unsigned long long o, const int_map& m) {
  return (o - m.base) << m.shift;
}

// The top digit of c that can vary (the digits above it are 0 for every
// key), for the span [lo, hi]: (w + s) / radix_bits - 1.
GPUSORT_HD int int_top_digit(unsigned long long lo, unsigned long long hi, const int_map& m, int radix_bits) {
  const int bits = span_width(lo, hi) + int(m.shift);
  return bits == 0 ? 0 : (bits + radix_bits - 1) / radix_bits - 1;
}

// Ordered bits whose c ranks last in every digit of a pass over c: the
// pads of partial tiles. c = (~0 >> s) << s has every digit at its largest
// but the lowest, whose low s bits no key's c sets either.
GPUSORT_HD unsigned long long int_pad_ordered(const int_map& m) {
  return m.base + (~0ull >> m.shift);
}

}  // namespace gpusort::detail::radix_msd
