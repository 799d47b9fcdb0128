// The test oracle: the order every sort must produce, written from first
// principles in the tests (no key_traits twiddle, no key_order), so that
// the library's own order is checked against something independent of it.
#pragma once

#include "key_types.hpp"

#include <gpusort/gpusort.hpp>

#include <cstdint>
#include <type_traits>

namespace gpusort_test {

// The order every sort must produce, written from first principles as the
// oracle (no key_traits twiddle, no key_order; key_traits::raw is only
// the key's bit pattern):
//   * all bits: the native < on the key's value, so -0.0 == +0.0; NaNs by
//     their bit pattern, negative NaNs first (larger magnitude first) and
//     positive NaNs last (larger magnitude last);
//   * bits [begin, end): only those bits of the ordered key take part, the
//     ordered key being the unsigned count of the key up from the smallest
//     one (unsigned: the value; signed: value - min; floats: -0.0 counts as
//     +0.0, negatives count down from all ones by magnitude, positives up
//     from the sign bit);
//   * descending: the ascending order turned around (ties stay ties);
//   * nan_order::largest, over all bits: every NaN (v != v) after every
//     number and equal to every other NaN (a bit range sorts by bits: the
//     option does not apply there); descending turns it around, but for
//     the negative signalling NaN of payload 1 (the sorts' pad), which
//     stays last.
template <class K> double native_value(K k) {
  if constexpr (std::is_same_v<K, __half>) return double(__half2float(k));
  else if constexpr (std::is_same_v<K, __nv_bfloat16>) return double(__bfloat162float(k));
  else return double(k);
}
template <class K> std::uint64_t sign_bit_of() { return std::uint64_t(1) << (width_of<K> - 1); }
// -1: a negative NaN, +1: a positive NaN, 0: a number.
template <class K> int nan_side(K k) {
  const double v = native_value(k);
  if (v == v) return 0;
  return (std::uint64_t(traits<K>::raw(k)) & sign_bit_of<K>()) ? -1 : 1;
}
template <class K> bool native_less(K a, K b) {
  if constexpr (std::is_integral_v<K>) {
    return a < b;
  } else {
    const int sa = nan_side(a), sb = nan_side(b);
    if (sa != sb) return sa < sb;
    if (sa == 0) return native_value(a) < native_value(b);
    const std::uint64_t ma = std::uint64_t(traits<K>::raw(a)) & ~sign_bit_of<K>();
    const std::uint64_t mb = std::uint64_t(traits<K>::raw(b)) & ~sign_bit_of<K>();
    return sa < 0 ? ma > mb : ma < mb;
  }
}
template <class K> std::uint64_t ordered_key(K k) {
  constexpr int w = width_of<K>;
  const std::uint64_t top = sign_bit_of<K>();
  const std::uint64_t all = w == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << w) - 1;
  if constexpr (std::is_integral_v<K> && std::is_unsigned_v<K>) {
    return std::uint64_t(k);
  } else if constexpr (std::is_integral_v<K>) {
    return (std::uint64_t(std::int64_t(k)) + top) & all;  // k - min, in w bits
  } else {
    if (native_value(k) == 0) return top;  // both zeros count as +0.0
    const std::uint64_t r = std::uint64_t(traits<K>::raw(k));
    return (r & top) ? all - r : r + top;
  }
}
template <class K> struct oracle_order {
  bool descending = false;
  int begin = 0, end = width_of<K>;
  bool nans_largest = false;
  explicit oracle_order(const gpusort::options& opt)
      : descending(opt.direction == gpusort::order::descending),
        begin(opt.begin_bit),
        end(opt.end_bit < 0 ? width_of<K> : opt.end_bit),
        nans_largest(!std::is_integral_v<K> && opt.nans == gpusort::nan_order::largest && begin == 0 &&
                     end == width_of<K>) {}
  bool less(const K& a, const K& b) const {
    if (nans_largest && descending && (pad_nan(a) || pad_nan(b))) return !pad_nan(a) && pad_nan(b);
    return descending ? up(b, a) : up(a, b);
  }
  // The negative signalling NaN of payload 1: a NaN whose sign and lowest
  // bit are set and whose other mantissa bits are clear (a quiet bit
  // clear: bit (mantissa width - 1)). Mantissa widths: 10, 7, 23, 52.
  static bool pad_nan(const K& k) {
    if (nan_side(k) != -1) return false;
    constexpr int m = std::is_same_v<K, __half> ? 10 : std::is_same_v<K, __nv_bfloat16> ? 7 : width_of<K> == 32 ? 23 : 52;
    return (std::uint64_t(traits<K>::raw(k)) & ((std::uint64_t(1) << m) - 1)) == 1;
  }
  bool equal(const K& a, const K& b) const { return !less(a, b) && !less(b, a); }
  std::uint64_t field(const K& k) const {
    const int len = end - begin;
    const std::uint64_t mask = len >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << len) - 1;
    return (ordered_key(k) >> begin) & mask;
  }

 private:
  bool up(const K& a, const K& b) const {
    if (begin == 0 && end == width_of<K>) {
      if (nans_largest && (nan_side(a) != 0 || nan_side(b) != 0)) return nan_side(a) == 0;
      return native_less(a, b);
    }
    return field(a) < field(b);
  }
};

}  // namespace gpusort_test
