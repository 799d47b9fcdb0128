// The values real data holds, for every key type (harness.hpp lists what
// each distribution means per type): normal measurements, measurements
// rounded to a grid, small signed integers, ids, timestamps.
//
// Uniform bits are the best case of a radix sort: every digit splits the
// keys evenly. Real columns are not like that: their high digits are
// constant (ids, timestamps, small integers), their exponents cluster
// (normal floats), or their few thousand distinct values repeat (a grid).
// Each value here is a pure function of (seed, distribution, index), as in
// generate.cpp, so the fill is parallel and deterministic.
//
// Integers are computed as signed 64-bit values and narrowed; an unsigned
// key holds its signed twin's value plus 2^(w-1) where that value can be
// negative (normal, grid, small_signed), which is the twin's bit pattern in
// radix order.
#include "harness/harness.hpp"
#include "harness/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace gpusort::harness::gen {

namespace {

using i64 = std::int64_t;

template <class K> constexpr int width = detail::key_traits<K>::width;
template <class K> constexpr bool is_float = detail::key_traits<K>::is_float;
template <class K> constexpr bool is_unsigned = std::is_unsigned_v<K>;

// The signed range of a w-bit key, which every signed value here keeps to.
template <class K> constexpr i64 signed_max() { return i64((u64(1) << (width<K> - 1)) - 1); }
template <class K> constexpr i64 signed_min() { return -signed_max<K>() - 1; }

// An integer key from a value within the w-bit signed range: as is for a
// signed key, shifted up by 2^(w-1) for an unsigned one where `centred`.
template <class K> K int_key(i64 v, bool centred) {
  if constexpr (is_unsigned<K>) {
    if (centred) return K(u64(v) + (u64(1) << (width<K> - 1)));
    return K(u64(v));
  } else {
    return K(v);
  }
}

// round(x) (half to even, as NumPy's rint), clamped to the key's signed range.
template <class K> i64 rounded(double x) {
  const double r = std::nearbyint(x);
  if (r <= double(signed_min<K>())) return signed_min<K>();
  if (r >= double(signed_max<K>())) return signed_max<K>();
  return i64(r);
}

// Uniform integer in [lo, lo + range).
inline i64 uniform_int(u64 r, i64 lo, u64 range) { return lo + i64(mulhi(r, range)); }

// Half the span of small_signed: 2^(w/2 - 1) for the key's width w.
template <class K> constexpr u64 small_half() { return u64(1) << (width<K> / 2 - 1); }

template <class K> K normal_value(u64 r) {
  const double z = standard_normal(r);
  if constexpr (is_float<K>) return float_key<K>(z);
  else return int_key<K>(rounded<K>(z * double(u64(1) << (width<K> / 2 - 3))), true);
}

// Steps of 0.01 with a standard deviation of 5 (floats), or steps of 1
// with one of 500 (16 bits and wider) or 16 (8 bits).
template <class K> K grid_value(u64 r) {
  const double z = standard_normal(r);
  if constexpr (is_float<K>) return float_key<K>(std::nearbyint(z * 500.0) / 100.0);
  else return int_key<K>(rounded<K>(z * (width<K> == 8 ? 16.0 : 500.0)), true);
}

template <class K> K small_signed_value(u64 r) {
  const i64 v = uniform_int(r, -i64(small_half<K>()), 2 * small_half<K>());
  if constexpr (is_float<K>) return float_key<K>(double(v));
  else return int_key<K>(v, true);
}

template <class K> K ids_value(u64 r) {
  constexpr u64 ids = 50000;
  if constexpr (is_float<K>) {
    return float_key<K>(double(mulhi(r, ids)));
  } else {
    constexpr u64 non_negative = !is_unsigned<K> ? u64(signed_max<K>()) + 1
                                 : width<K> < 64  ? u64(1) << width<K>
                                                  : ~u64(0);
    return int_key<K>(i64(mulhi(r, std::min(ids, non_negative))), false);
  }
}

template <class K> K timestamp_value(u64 r) {
  if constexpr (is_float<K>) {
    if constexpr (width<K> == 64) return 1.7e9 + unit_double(r) * 1e4;
    else return float_key<K>(1e4 + unit_double(r) * 1e4);
  } else if constexpr (width<K> == 64) {
    return int_key<K>(uniform_int(r, i64(1700000000000000000), u64(10000000000000)), false);
  } else if constexpr (width<K> == 32) {
    return int_key<K>(uniform_int(r, i64(1700000000), u64(2592000)), false);
  } else if constexpr (width<K> == 16) {
    return int_key<K>(uniform_int(r, 20000, 1440), false);
  } else {
    return int_key<K>(uniform_int(r, 100, 24), false);
  }
}

}  // namespace

template <class K> void fill_real(dist d, K* out, std::size_t n, std::uint64_t seed) {
  const stream s(seed, d, 0);
  switch (d) {
    case dist::normal: parallel_fill(n, [&](std::size_t i) { out[i] = normal_value<K>(s(i)); }); break;
    case dist::grid: parallel_fill(n, [&](std::size_t i) { out[i] = grid_value<K>(s(i)); }); break;
    case dist::small_signed:
      parallel_fill(n, [&](std::size_t i) { out[i] = small_signed_value<K>(s(i)); });
      break;
    case dist::ids: parallel_fill(n, [&](std::size_t i) { out[i] = ids_value<K>(s(i)); }); break;
    case dist::timestamps:
      parallel_fill(n, [&](std::size_t i) { out[i] = timestamp_value<K>(s(i)); });
      break;
    default: throw error(errc::invalid_argument, "harness::generate: not a real-data distribution");
  }
}

#define GPUSORT_HARNESS_FILL_REAL(K) template void fill_real<K>(dist, K*, std::size_t, std::uint64_t);
GPUSORT_FOR_EACH_KEY(GPUSORT_HARNESS_FILL_REAL)
#undef GPUSORT_HARNESS_FILL_REAL

}  // namespace gpusort::harness::gen
