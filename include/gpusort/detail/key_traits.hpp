// The key transform, written once for host and device.
//
// Every supported key maps to an unsigned integer of the same width whose
// unsigned order is the key's order (the "twiddle" of radix sorting, as in
// Satish, Harris & Garland 2009 and CUB's RadixSortTwiddle):
//   unsigned  identity
//   signed    flip the sign bit
//   float     negative: flip every bit; positive: flip the sign bit
// The map is a bijection, so sorts carry the twiddled bits and untwiddle on
// store: every input bit pattern (-0.0, each NaN payload) comes back intact.
//
// key_order adds what a sort call asks for on top of the twiddle:
//   * -0.0 ranks as +0.0 (CUB's order: the two compare equal and stay stable);
//   * NaNs rank by their bit pattern (CUB's order: negative NaNs before
//     -inf, positive NaNs after +inf), or, as NumPy, PyTorch, CuPy and JAX
//     order them, every NaN ranks above +inf, all NaNs equal (stable);
//   * descending is the twiddled bits inverted;
//   * only bits [begin_bit, end_bit) of the twiddled key take part.
// Both folds act on ranks only: the carried bits stay the twiddle, so every
// NaN's sign and payload come back intact.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <concepts>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__CUDACC__)
#define GPUSORT_HD __host__ __device__ __forceinline__
#else
#define GPUSORT_HD inline
#endif

namespace gpusort::detail {

template <int Bytes> struct uint_of;
template <> struct uint_of<1> { using type = std::uint8_t; };
template <> struct uint_of<2> { using type = std::uint16_t; };
template <> struct uint_of<4> { using type = std::uint32_t; };
template <> struct uint_of<8> { using type = std::uint64_t; };

enum class key_kind { unsigned_int, signed_int, floating };

template <class K> struct key_info;
#define GPUSORT_KEY_INFO(T, KIND, NAME)                      \
  template <> struct key_info<T> {                           \
    static constexpr key_kind kind = key_kind::KIND;         \
    static constexpr const char* name = NAME;                \
  };
GPUSORT_KEY_INFO(std::uint8_t, unsigned_int, "u8")
GPUSORT_KEY_INFO(std::uint16_t, unsigned_int, "u16")
GPUSORT_KEY_INFO(std::uint32_t, unsigned_int, "u32")
GPUSORT_KEY_INFO(std::uint64_t, unsigned_int, "u64")
GPUSORT_KEY_INFO(std::int8_t, signed_int, "i8")
GPUSORT_KEY_INFO(std::int16_t, signed_int, "i16")
GPUSORT_KEY_INFO(std::int32_t, signed_int, "i32")
GPUSORT_KEY_INFO(std::int64_t, signed_int, "i64")
GPUSORT_KEY_INFO(__half, floating, "f16")
GPUSORT_KEY_INFO(__nv_bfloat16, floating, "bf16")
GPUSORT_KEY_INFO(float, floating, "f32")
GPUSORT_KEY_INFO(double, floating, "f64")
#undef GPUSORT_KEY_INFO

// The bits of +infinity (every exponent bit set) of each float key.
template <class K> inline constexpr std::uint64_t infinity_bits = 0;
template <> inline constexpr std::uint64_t infinity_bits<__half> = 0x7C00u;
template <> inline constexpr std::uint64_t infinity_bits<__nv_bfloat16> = 0x7F80u;
template <> inline constexpr std::uint64_t infinity_bits<float> = 0x7F800000u;
template <> inline constexpr std::uint64_t infinity_bits<double> = 0x7FF0000000000000ull;

template <class K, class = void> struct is_key : std::false_type {};
template <class K>
struct is_key<K, std::void_t<decltype(key_info<K>::kind)>> : std::true_type {};

template <class K> struct key_traits {
  static_assert(is_key<K>::value, "gpusort: unsupported key type");
  using bits = typename uint_of<sizeof(K)>::type;
  static constexpr int width = int(sizeof(K) * 8);
  static constexpr bits sign = bits(bits(1) << (width - 1));
  static constexpr key_kind kind = key_info<K>::kind;
  static constexpr bool is_float = kind == key_kind::floating;

  GPUSORT_HD static bits raw(K k) {
    bits b;
    memcpy(&b, &k, sizeof(K));
    return b;
  }
  GPUSORT_HD static K from_raw(bits b) {
    K k;
    memcpy(&k, &b, sizeof(K));
    return k;
  }
  // 1 if the top (sign) bit is set, else 0.
  GPUSORT_HD static bits top_bit(bits b) { return bits(b >> (width - 1)); }
  // key -> ordered bits (bijective).
  // Floats select their xor mask arithmetically from the top bit (shift,
  // subtract, xor), not with a compare and select: in unrolled tile loops
  // the compare-and-select form took a predicate register per key, and
  // radix passes that already predicate their loads ran 25% slower for f32
  // than for u32 (docs/perf/radix.md).
  GPUSORT_HD static bits twiddle(bits b) {
    if constexpr (kind == key_kind::signed_int) return bits(b ^ sign);
    if constexpr (kind == key_kind::floating) return bits(b ^ bits(bits(bits(0) - top_bit(b)) | sign));
    return b;
  }
  // ordered bits -> key.
  GPUSORT_HD static bits untwiddle(bits b) {
    if constexpr (kind == key_kind::signed_int) return bits(b ^ sign);
    if constexpr (kind == key_kind::floating) return bits(b ^ bits(bits(top_bit(b) - bits(1)) | sign));
    return b;
  }
  GPUSORT_HD static bits to_bits(K k) { return twiddle(raw(k)); }
  GPUSORT_HD static K from_bits(bits b) { return from_raw(untwiddle(b)); }
};

// The order one sort call asks for, applied to twiddled bits.
template <class K> struct key_order {
  using traits = key_traits<K>;
  using bits = typename traits::bits;
  using carried = bits;  // what sorts hold in registers and shared memory
  static constexpr bits minus_zero = bits(traits::sign - 1);  // twiddle(-0.0)
  static constexpr bits plus_zero = traits::sign;             // twiddle(+0.0)
  // twiddle(-inf) and twiddle(+inf): the twiddled NaNs lie outside them
  // (negative NaNs below, positive NaNs above).
  static constexpr bits minus_inf = bits(~bits(bits(infinity_bits<K>) | traits::sign));
  static constexpr bits plus_inf = bits(bits(infinity_bits<K>) | traits::sign);

  bits flip = 0;       // all ones for descending
  unsigned shift = 0;  // begin_bit
  bits mask = bits(~bits(0));  // (1 << (end_bit - begin_bit)) - 1
  // Twiddled bits t are a NaN to fold when t - nan_lo > nan_span (unsigned):
  // [minus_inf, plus_inf] for NaNs largest; all ones for NaNs by their bits
  // (then nothing folds, and the test costs no branch either way).
  bits nan_lo = 0;
  bits nan_span = bits(~bits(0));
  // With NaNs largest, the NaN the sorts pad with (pad()): all ones
  // ascending (it ranks with the NaNs, last); descending the negative
  // signalling NaN of payload 1, twiddled minus_inf - 1, which keeps the
  // rank all ones (last) while every other NaN ranks first. A signalling NaN
  // is quieted by any arithmetic and by conversions: no computed value is
  // this pattern (all ones is: -NaN on a GPU, bf16 conversions).
  bits nan_pad = bits(~bits(0));

  key_order() = default;
  key_order(bool descending, int begin_bit, int end_bit, bool nans_largest = false)
      : flip(descending ? bits(~bits(0)) : bits(0)),
        shift(unsigned(begin_bit)),
        mask(end_bit - begin_bit >= traits::width
                 ? bits(~bits(0))
                 : bits((bits(1) << (end_bit - begin_bit)) - 1)) {
    if (traits::is_float && nans_largest) {
      nan_lo = minus_inf;
      nan_span = bits(plus_inf - minus_inf);
      nan_pad = descending ? bits(minus_inf - 1) : bits(~bits(0));
    }
  }

  // The folds, on twiddled bits (identity for integers): -0.0 takes the
  // place of +0.0, so the two zeros compare equal, as CUB orders them; and
  // with NaNs largest every NaN takes all ones (the largest rank ascending,
  // after the flip the smallest descending), but for the pad nan_pad, which
  // takes the rank all ones in both directions. So the sorts still pad
  // partial tiles with a pattern that ranks last in every digit.
  GPUSORT_HD bits fold(bits b) const {
    if constexpr (traits::is_float) {
      b = b == minus_zero ? plus_zero : b;
      if (bits(b - nan_lo) > nan_span) b = b == nan_pad ? bits(~flip) : bits(~bits(0));
      return b;
    } else {
      return b;
    }
  }
  // Whether NaNs rank above +inf, all equal (nan_order::largest).
  GPUSORT_HD bool nans_largest() const { return nan_span != bits(~bits(0)); }
  // The value that is compared: smaller ranks sort first.
  GPUSORT_HD bits rank(bits b) const { return bits(bits(bits(fold(b) ^ flip) >> shift) & mask); }
  // rank's inverse: carried bits whose rank is r, for r within the rank
  // range (sample sort's interpolated pivots). Bits outside [begin_bit,
  // end_bit) take no part in the order and come out as the flip's. The
  // -0.0 fold of float orders can move one such value to the neighbouring
  // rank.
  GPUSORT_HD bits from_rank(std::uint64_t r) const { return bits(bits(bits(r) << shift) ^ flip); }
  GPUSORT_HD bool less(bits a, bits b) const { return rank(a) < rank(b); }
  // A key_order is itself the strict-weak-order functor on twiddled bits.
  GPUSORT_HD bool operator()(bits a, bits b) const { return less(a, b); }
  // Twiddled bits whose rank is the largest there is (pads partial tiles).
  // With NaNs largest it ties with the NaNs ascending: the sorts that pad
  // are stable and pad behind the keys, and the unstable ones sort (rank,
  // index) pairs instead (run_family).
  GPUSORT_HD bits pad() const { return nans_largest() ? nan_pad : bits(~flip); }
  // Rank of a raw key, for host-side references and verification.
  GPUSORT_HD bits key_rank(K k) const { return rank(traits::to_bits(k)); }
  // What sorts carry: the twiddled bits (bijective, so every pattern returns).
  GPUSORT_HD bits encode(K k) const { return traits::to_bits(k); }
  GPUSORT_HD K decode(bits b) const { return traits::from_bits(b); }
  // Whether every bit takes part (then full_order compares faster).
  GPUSORT_HD bool full_range() const { return shift == 0 && mask == bits(~bits(0)); }
  // Whether encode(k) is k's own bits: the twiddle is the identity only for
  // unsigned keys (tile loads then skip the encoding pass).
  GPUSORT_HD bool encodes_as_is() const { return traits::kind == key_kind::unsigned_int; }
};

// The same order as a key_order whose bit range is the whole key, carried
// pre-inverted for descending sorts (twiddle ^ flip, still bijective), so a
// comparison is one unsigned compare (plus the -0.0 fold for floats)
// instead of xor, shift and mask on both sides. Sorts pick it at run time
// when full_range().
template <class K> struct full_order {
  using traits = key_traits<K>;
  using bits = typename traits::bits;
  using carried = bits;
  bits flip = 0;
  bits minus_zero = 0, plus_zero = 0;  // the zeros as carried
  // key_order's NaN test holds as it is for carried bits: the twiddled NaNs
  // are a set that inverting every bit maps onto itself. A NaN ranks ~flip,
  // but the pad, which ranks all ones (key_order::fold).
  bits nan_lo = 0, nan_span = bits(~bits(0));
  bits pad_c = bits(~bits(0));  // key_order::pad() as carried

  full_order() = default;
  explicit full_order(const key_order<K>& o)
      : flip(o.flip), minus_zero(bits(key_order<K>::minus_zero ^ o.flip)), plus_zero(bits(key_order<K>::plus_zero ^ o.flip)),
        nan_lo(o.nan_lo), nan_span(o.nan_span), pad_c(bits(o.pad() ^ o.flip)) {}

  GPUSORT_HD bits encode(K k) const { return bits(traits::to_bits(k) ^ flip); }
  GPUSORT_HD K decode(bits c) const { return traits::from_bits(bits(c ^ flip)); }
  GPUSORT_HD bits rank(bits c) const {
    if constexpr (traits::is_float) {
      if (c == minus_zero) c = plus_zero;
      if (bits(c - nan_lo) > nan_span) c = c == pad_c ? bits(~bits(0)) : bits(~flip);
    }
    return c;
  }
  GPUSORT_HD bool nans_largest() const { return nan_span != bits(~bits(0)); }
  // rank's inverse (as key_order::from_rank): the rank is the carried bits.
  GPUSORT_HD bits from_rank(std::uint64_t r) const { return bits(r); }
  GPUSORT_HD bool less(bits a, bits b) const { return rank(a) < rank(b); }
  GPUSORT_HD bool operator()(bits a, bits b) const { return less(a, b); }
  GPUSORT_HD bits pad() const { return pad_c; }
  // Whether encode(k) is k's own bits: unsigned keys, ascending.
  GPUSORT_HD bool encodes_as_is() const { return traits::kind == key_kind::unsigned_int && flip == 0; }
};

// The key type whose compiled sorts sort K. The library builds its kernels
// for carriers only (7 types, not 12):
//   signed integers are sorted as the unsigned integer of their width: the
//     signed twiddle is one xor of the sign bit, which carried_order folds
//     into the order's flip, so ranks, pads and interpolated pivots agree
//     bit for bit with key_order<K>;
//   bf16 is sorted as f16: both are 16-bit sign-magnitude, with the same
//     twiddle and the same -0.0 fold.
// Keys are reinterpreted, never converted, so every bit pattern returns.
template <class K> struct carrier { using type = K; };
template <> struct carrier<std::int8_t> { using type = std::uint8_t; };
template <> struct carrier<std::int16_t> { using type = std::uint16_t; };
template <> struct carrier<std::int32_t> { using type = std::uint32_t; };
template <> struct carrier<std::int64_t> { using type = std::uint64_t; };
template <> struct carrier<__nv_bfloat16> { using type = __half; };
template <class K> using carrier_t = typename carrier<K>::type;

// key_order<K> as the order of K's carrier: the same rank for every bit
// pattern.
template <class K> key_order<carrier_t<K>> carried_order(const key_order<K>& o) {
  using C = carrier_t<K>;
  static_assert(sizeof(C) == sizeof(K) && key_traits<C>::is_float == key_traits<K>::is_float);
  key_order<C> c;
  c.flip = o.flip;
  if constexpr (key_traits<K>::kind == key_kind::signed_int) c.flip ^= key_traits<K>::sign;
  c.shift = o.shift;
  c.mask = o.mask;
  c.nan_lo = o.nan_lo;  // K's own NaNs (bf16's, not f16's), on the same bits
  c.nan_span = o.nan_span;
  c.nan_pad = o.nan_pad;
  return c;
}

// What every sort needs of an order object (key_order, full_order, the
// comparator API's custom_order): the type keys are carried as in kernels,
// encode and decode between the caller's key K and it, a strict weak order
// on carried values, and whether encoding is the identity (tile loads then
// copy raw bits).
template <class O, class K>
concept order_for = requires(const O& o, const K& k, const typename O::carried& c) {
  { o.encode(k) } -> std::convertible_to<typename O::carried>;
  { o.decode(c) } -> std::convertible_to<K>;
  { o(c, c) } -> std::convertible_to<bool>;
  { o.encodes_as_is() } -> std::convertible_to<bool>;
};

}  // namespace gpusort::detail

// Applies X(K) to every supported key type (explicit instantiations).
#define GPUSORT_FOR_EACH_KEY(X) \
  X(std::uint8_t)               \
  X(std::uint16_t)              \
  X(std::uint32_t)              \
  X(std::uint64_t)              \
  X(std::int8_t)                \
  X(std::int16_t)               \
  X(std::int32_t)               \
  X(std::int64_t)               \
  X(__half)                     \
  X(__nv_bfloat16)              \
  X(float)                      \
  X(double)
