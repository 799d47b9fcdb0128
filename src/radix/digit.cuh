// Radix digits of the order one sort call asks for (every radix sort here).
//
// key_order<K>::rank(twiddle(raw)) is the value that is compared (-0.0 folded
// onto +0.0, descending as inverted bits, bits [begin_bit, end_bit) only).
// An LSD radix sort sorts by that value digit by digit, least significant
// first; a pass's digit is a field of it:
//   digit(pass p) = (rank >> (R * p)) & (2^R - 1)
//                 = (ordered >> (begin_bit + R * p)) & mask_p
// with ordered = fold(twiddle(raw)) ^ flip and mask_p the field's width
// clipped at end_bit. Kernels carry the caller's raw key bits and extract
// digits on the fly, so keys are never twiddled back on store.
#pragma once

#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cstdint>

namespace gpusort::detail::radix {

// Number of key bits that take part in the order: end_bit - begin_bit.
template <class K> GPUSORT_HD int range_bits(const key_order<K>& ord) {
  return popcount64(std::uint64_t(ord.mask));
}

// LSD passes of `radix_bits`-bit digits that cover the order's bits.
template <class K> GPUSORT_HD int pass_count(const key_order<K>& ord, int radix_bits) {
  return (range_bits(ord) + radix_bits - 1) / radix_bits;
}

// Digits are counted from the top of the range: digit pass_count - 1 is the
// range's top radix_bits bits, and digit 0 what is left at the bottom (the
// narrower one when the width is not a multiple of radix_bits). So an MSD
// sort's first level splits by the top radix_bits bits of any range: a
// range of 63 bits (keys whose top bit is known to be constant, as the
// multi-GPU sort's radix first hands its parts over) makes 256 first-level
// buckets, not 128. Whole keys are multiples of 8 bits: digit p is bits
// [8p, 8p + 8) as before. digit_low: digit `pass`'s lowest bit above
// begin_bit.
template <class K> GPUSORT_HD int digit_low(const key_order<K>& ord, int radix_bits, int pass) {
  const int lo = range_bits(ord) - radix_bits * (pass_count(ord, radix_bits) - pass);
  return lo > 0 ? lo : 0;
}

template <class K> struct digit_map {
  using traits = key_traits<K>;
  using bits = typename traits::bits;

  bits flip = 0;       // all ones when descending
  unsigned shift = 0;  // lowest bit of the digit in the ordered bits
  unsigned mask = 0;   // the digit's width, as a mask
  // What the xors between carried bits and ordered bits (an integer's
  // twiddle, the flip of descending order) do to this digit's field: the
  // field of (c ^ x) is field(c) ^ field(x), so of_carried() is a shift and
  // one three-input op (and, xor) instead of xor, shift, and.
  unsigned carried_xor = 0;
  bits nan_lo = 0, nan_span = bits(~bits(0)), nan_pad = bits(~bits(0));  // key_order's NaN fold

  // The field of `width` (1 .. 32) bits at bit `lo` of the order's rank.
  GPUSORT_HD static digit_map field(const key_order<K>& ord, unsigned lo, unsigned width) {
    digit_map d;
    d.flip = ord.flip;
    d.shift = ord.shift + lo;
    d.mask = unsigned((std::uint64_t(1) << width) - 1);
    d.carried_xor = unsigned(carried_to_ordered(ord) >> d.shift) & d.mask;
    d.nan_lo = ord.nan_lo;
    d.nan_span = ord.nan_span;
    d.nan_pad = ord.nan_pad;
    return d;
  }
  // Digit `pass` (up to radix_bits wide, counted from the top: digit_low)
  // of the order `ord`.
  GPUSORT_HD static digit_map of(const key_order<K>& ord, int radix_bits, int pass) {
    const int lo = digit_low(ord, radix_bits, pass);
    const int hi = range_bits(ord) - radix_bits * (pass_count(ord, radix_bits) - 1 - pass);
    return field(ord, unsigned(lo), unsigned(hi - lo));
  }

  // key_order::fold: twiddled bits -> the rank bits before the flip (-0.0
  // as +0.0; with NaNs largest, NaNs as all ones but for the pad nan_pad).
  GPUSORT_HD bits fold(bits t) const {
    if constexpr (traits::is_float) {
      t = fold_zero(t);
      if (bits(t - nan_lo) > nan_span) t = t == nan_pad ? bits(~flip) : bits(~bits(0));
      return t;
    } else {
      return t;
    }
  }
  // The -0.0 fold alone: fold() for an order that ranks NaNs by their bits.
  GPUSORT_HD static bits fold_zero(bits t) {
    if constexpr (traits::is_float) return t == key_order<K>::minus_zero ? key_order<K>::plus_zero : t;
    else return t;
  }
  // Raw key bits -> bits whose unsigned order is the sort order (all bits).
  GPUSORT_HD bits ordered(bits raw) const { return bits(fold(traits::twiddle(raw)) ^ flip); }
  GPUSORT_HD unsigned from_ordered(bits t) const { return unsigned(t >> shift) & mask; }
  GPUSORT_HD unsigned operator()(bits raw) const { return from_ordered(ordered(raw)); }

  // Carried form, for kernels that extract several digits of a key in
  // registers or shared memory: carry() once on load, of_carried() per
  // digit, uncarry() once on store; of_carried(carry(raw)) == operator()(raw)
  // and uncarry(carry(raw)) == raw for every raw pattern. Floats carry the
  // twiddle (a bijection; ISETP + SEL + LOP3 a key, once instead of once per
  // digit), so a digit is fold, flip and field. Integers carry raw bits: their
  // twiddle is one xor that folds into the flip (carrying it made ptxas spill
  // 52 B in the i32 pass at 56 registers).
  GPUSORT_HD static bits carry(bits raw) {
    if constexpr (traits::is_float) return traits::twiddle(raw);
    else return raw;
  }
  GPUSORT_HD static bits uncarry(bits c) {
    if constexpr (traits::is_float) return traits::untwiddle(c);
    else return c;
  }
  // The xor that turns folded carried bits into the order's ordered bits.
  GPUSORT_HD static bits carried_to_ordered(const key_order<K>& ord) {
    if constexpr (traits::is_float) return ord.flip;
    else return bits(traits::twiddle(bits(0)) ^ ord.flip);
  }
  // The digit of carried bits: fold (the carried bits of floats are
  // twiddled, and integers fold nothing), then the field and its xor.
  GPUSORT_HD unsigned of_carried(bits c) const { return (unsigned(fold(c) >> shift) & mask) ^ carried_xor; }
  // The same for an order known to rank NaNs by their bits (the -0.0 fold
  // alone): the hot passes take it as a compile-time choice (pass_key).
  GPUSORT_HD unsigned of_carried_by_bits(bits c) const { return (unsigned(fold_zero(c) >> shift) & mask) ^ carried_xor; }
  // The ordered bits of a carried key (fold, then flip), NanFold as pass_key's.
  template <bool NanFold> GPUSORT_HD bits ordered_carried(bits c) const {
    if constexpr (NanFold) return bits(fold(c) ^ flip);
    else return bits(fold_zero(c) ^ flip);
  }
};

// The key form one onesweep pass carries (onesweep_pass.cuh), with the
// offset of "only the bits that vary": an integer order may sort by
// ordered - base instead of ordered, where base is the least ordered key of
// the input (found on the device by the first histogram). Subtracting a
// constant no key is below keeps the order and is a bijection, so the sort
// is the same; but keys that span a narrow range across a wide carry (small
// signed integers: ordered 0x7FFF...F8000 to 0x8000...07FFF) then have
// constant zero top digits, which the launch plan skips. base = 0 is the
// plain order (any bit range). Integers carry (raw ^ to_ordered) - base: two
// operations on load and two on store, and a digit is a shift and a mask.
// Floats keep digit_map's carried form (its folds are not bijections)
// and never take an offset.
// NanFold: false where the order is known to rank NaNs by their bits
// (key_order::nans_largest() false): a float's digit then skips the NaN
// test (three instructions a key, 4% of an f32 pass).
template <class K, bool NanFold = true> struct pass_key {
  using traits = key_traits<K>;
  using bits = typename traits::bits;
  static constexpr bool offsets = !traits::is_float;
  // Whether a sort by `ord` may take an offset: integer orders over every bit.
  GPUSORT_HD static bool offsets_for(const key_order<K>& ord) { return offsets && ord.full_range(); }

  const digit_map<K>& digit;  // the kernel's own (its parameter: no registers)
  bits base = 0;              // integers: subtracted from the ordered bits

  GPUSORT_HD pass_key(const digit_map<K>& d, bits offset) : digit(d) {
    if constexpr (offsets) base = offset;
  }
  // integers: raw ^ to_ordered() is the ordered bits
  GPUSORT_HD bits to_ordered() const { return bits(traits::twiddle(bits(0)) ^ digit.flip); }
  GPUSORT_HD bits carry(bits raw) const {
    if constexpr (offsets) return bits(bits(raw ^ to_ordered()) - base);
    else return digit_map<K>::carry(raw);
  }
  GPUSORT_HD bits uncarry(bits c) const {
    if constexpr (offsets) return bits(bits(c + base) ^ to_ordered());
    else return digit_map<K>::uncarry(c);
  }
  GPUSORT_HD unsigned of_carried(bits c) const {
    if constexpr (offsets) return unsigned(c >> digit.shift) & digit.mask;
    else if constexpr (NanFold) return digit.of_carried(c);
    else return digit.of_carried_by_bits(c);
  }
  // The carried form of a pad (raw bits `pad`, pad_bits below): its digit
  // is the largest in every pass. Offset integers: all ones, the largest
  // value there is (the raw pad minus base would not be).
  GPUSORT_HD bits carried_pad(bits pad) const {
    if constexpr (offsets) return bits(~bits(0));
    else return digit_map<K>::carry(pad);
  }
};

// Raw bits of a key that ranks last in every digit: pads partial tiles, so
// pads sort after every real key and stay behind them (stability).
template <class K> GPUSORT_HD typename key_traits<K>::bits pad_bits(const key_order<K>& ord) {
  return key_traits<K>::untwiddle(ord.pad());
}

}  // namespace gpusort::detail::radix
