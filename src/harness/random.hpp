// The generators' building blocks (generate.cpp, generate_real.cpp):
// counter-based random words, the code space of each key type, and the
// parallel fill. Internal to the harness.
//
// Determinism and speed: every random word is a pure function of
// (seed, distribution, stream, element index) -- splitmix64's output mix
// applied to a Weyl sequence, evaluated at the index instead of iterated.
// Elements are therefore independent, the fill is an OpenMP parallel for,
// and the result does not depend on the thread count.
//
// Code space: every key type gets a "code" space [0, C) with a monotone map
// code -> key (smaller code, smaller key under ascending key_order):
//   integers  C = 2^width, code = twiddled bits (every bit pattern);
//   floats    C = 2 * (number of positive finite normals), codes walk the
//             negative normals from -max to -min, then +min to +max.
// So "uniform float" (random code) has a random sign, exponent and mantissa
// but never NaN, inf, zero or a denormal; those live in float_special.
#pragma once

#include "harness/harness.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::harness::gen {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

inline constexpr u64 golden = 0x9E3779B97F4A7C15ull;

// splitmix64's finaliser: a bijective avalanche mix of 64 bits.
inline u64 mix64(u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One independent random sequence: word i is mix(key + (i + 1) * golden),
// i.e. splitmix64's i-th output for a seed derived from (seed, d, tag).
struct stream {
  u64 key;
  stream(u64 seed, dist d, u64 tag)
      : key(mix64(seed ^ mix64(0x6A09E667F3BCC909ull + u64(d) * 0x100 + tag))) {}
  u64 operator()(u64 i) const { return mix64(key + (i + 1) * golden); }
};

inline u64 mulhi(u64 a, u64 b) { return u64((u128(a) * b) >> 64); }

// floor(a * b / c) without overflow; 64-bit division when the product fits.
inline u64 muldiv(u64 a, u64 b, u64 c) {
  u64 ab;
  if (!__builtin_mul_overflow(a, b, &ab)) return ab / c;
  return u64((u128(a) * b) / c);
}

// Element i of a stratified sorted sample of n points in [0, 2^64): one
// point in each of n equal slices, so it is non-decreasing in i.
inline u64 stratified(u64 i, u64 n, u64 r) {
  u64 step = ~u64(0) / n;
  return i * step + mulhi(r, step);
}

// A uniform double in [0, 1) from the top 53 bits of a word.
inline double unit_double(u64 r) { return double(r >> 11) * 0x1.0p-53; }

// A standard normal from one random word: Box-Muller on two 53-bit
// uniforms, the word's and a second mix's.
inline double standard_normal(u64 r) {
  const double u1 = 1.0 - unit_double(r);  // (0, 1]: the log stays finite
  const double u2 = unit_double(mix64(r ^ golden));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// Runs body(i) for i in [0, n), in parallel when n is large.
template <class F> void parallel_fill(std::size_t n, F body) {
  const std::int64_t count = std::int64_t(n);
#pragma omp parallel for schedule(static) if (n > (std::size_t(1) << 16))
  for (std::int64_t i = 0; i < count; ++i) body(std::size_t(i));
}

template <class K> struct float_format;
template <> struct float_format<__half> { static constexpr int exp_bits = 5, man_bits = 10; };
template <> struct float_format<__nv_bfloat16> { static constexpr int exp_bits = 8, man_bits = 7; };
template <> struct float_format<float> { static constexpr int exp_bits = 8, man_bits = 23; };
template <> struct float_format<double> { static constexpr int exp_bits = 11, man_bits = 52; };

// A real number as a floating key: rounded to nearest by way of float
// (f16, bf16, f32) or exact (f64).
template <class K> K float_key(double x) {
  if constexpr (std::is_same_v<K, double>) return x;
  else return K(float(x));
}

template <class K> struct code_space {
  using traits = detail::key_traits<K>;
  using bits = typename traits::bits;

  // Number of codes; 0 stands for 2^64.
  static constexpr u64 count() {
    if constexpr (traits::is_float) {
      constexpr int e = float_format<K>::exp_bits, m = float_format<K>::man_bits;
      return 2 * ((u64(1) << e) - 2) * (u64(1) << m);
    } else if constexpr (traits::width == 64) {
      return 0;
    } else {
      return u64(1) << traits::width;
    }
  }
  // Maps a 64-bit fraction of the space to a code (monotone).
  static u64 scale(u64 fraction) {
    constexpr u64 c = count();
    return c == 0 ? fraction : mulhi(fraction, c);
  }
  // The key of a code (monotone in the code).
  static K key(u64 code) {
    if constexpr (traits::is_float) {
      constexpr int m = float_format<K>::man_bits;
      constexpr u64 half = count() / 2;  // positive normals
      bits raw = code < half ? bits(traits::sign | bits((half - 1 - code) + (u64(1) << m)))
                             : bits((code - half) + (u64(1) << m));
      return traits::from_raw(raw);
    } else {
      return traits::from_bits(bits(code));
    }
  }
  static K random(u64 r) { return key(scale(r)); }
  // Key i of a monotone map of [0, n) onto the whole space.
  static K spread(u64 i, u64 n) { return key(scale(i * (~u64(0) / n))); }
};

// The values real data holds (normal, grid, small_signed, ids, timestamps;
// harness.hpp says what each means per key type): generate_real.cpp.
template <class K> void fill_real(dist d, K* out, std::size_t n, std::uint64_t seed);

}  // namespace gpusort::harness::gen
