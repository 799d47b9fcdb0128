// The test and benchmark harness: input generators and output verifiers,
// shared by the GoogleTest suites and `gpusort bench`, so that what is
// tested and what is timed are produced and checked the same way.
//
// The reference order is key_order<K> (CUB's order, see key_traits.hpp);
// the reference sort is std::stable_sort under that order.
#pragma once

#include <gpusort/gpusort.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusort::harness {

enum class dist {
  uniform,     // every bit random
  sorted,      // ascending (under the requested order)
  reverse,     // descending
  equal,       // one value
  few_unique,  // 16 distinct values
  zipf,        // Zipf(1.0) over 2^16 ranks, mapped to random keys
  entropy2,    // AND of 2 random words (CUB's entropy reduction)
  entropy4,    // AND of 4 random words
  organ_pipe,  // ascending then descending
  median3_killer,  // Musser's median-of-3 killer permutation
  sample_killer,   // runs of equal keys aligned to sample positions
  float_special,   // +-0.0, +-inf, NaNs of both signs, denormals, mixed with random
  bits20,          // uniform in [0, 2^20): small integers in wide keys (narrower keys: uniform)
  unit,            // floats uniform in [0, 1) as torch.rand (multiples of 2^-(mantissa + 1));
                   // integers uniform in [0, 2^(width - 1)): the exponent-clustered top digit
  // The values real data holds (generate_real.cpp), per key type of w bits.
  // An unsigned key holds its signed twin's value plus 2^(w-1) wherever that
  // value can be negative: the signed key's bits in radix order, values
  // around the middle of the range.
  normal,        // floats: N(0, 1), as torch.randn (rounded to f16/bf16/f32);
                 // integers: round(N(0, 1) * 2^(w/2-3)), within [-2^(w/2-1), 2^(w/2-1)) at 4 sigma
  grid,          // measurements on a grid, a few thousand distinct values:
                 // floats: round(N(0, 1) * 500) / 100 (sd 5, steps of 0.01; f16/bf16 merge steps);
                 // integers: round(N(0, 1) * s), s = 500 (8-bit: 16), clamped to the key
  small_signed,  // small values straddling zero: uniform integers in [-2^(w/2-1), 2^(w/2-1))
                 // (i64: [-2^31, 2^31), i32: [-2^15, 2^15), i16: [-128, 128), i8: [-8, 8));
                 // floats hold the integers of their width's signed key (f64: [-2^31, 2^31))
  ids,           // uniform integers in [0, 50000), or the key's non-negative range where
                 // smaller (u8 [0, 256), i8 [0, 128), i16 [0, 32768)); floats [0, 50000)
                 // (f16 and bf16 round them above 2048 and 256)
  timestamps,    // a fixed epoch plus a uniform range, in no order: 64-bit integers
                 // 1.7e18 + [0, 1e13) (ns, ~2.8 hours); 32-bit 1.7e9 + [0, 2592000) (s, 30 days);
                 // 16-bit 20000 + [0, 1440) (minutes of a day); 8-bit 100 + [0, 24) (hours);
                 // f64 1.7e9 + [0, 1e4) s (continuous); f32/f16/bf16 1e4 + [0, 1e4) s
  nearly_sorted, // sorted, then n/200 disjoint pairs of random positions swapped (1% moved)
};
std::string_view to_string(dist d);
bool parse_dist(std::string_view name, dist& out);
// All distributions, and those the benchmark CSV may name.
const std::vector<dist>& all_dists();

// Fills out[0..n) deterministically from (d, n, seed). Every key type.
template <class K> void generate(dist d, K* out, std::size_t n, std::uint64_t seed);
template <class K> std::vector<K> generate(dist d, std::size_t n, std::uint64_t seed) {
  std::vector<K> v(n);
  generate<K>(d, v.data(), n, seed);
  return v;
}

struct check {
  bool ok = true;
  std::string message;  // names the first failing position when !ok
  explicit operator bool() const { return ok; }
};

// Reference: std::stable_sort of `in` under opt's order.
template <class K> std::vector<K> reference_sort(const std::vector<K>& in, const options& opt);

// Keys only. Always checks order (under opt) and that `out` is a
// permutation of `in` (bit patterns as a multiset). With `stable`, checks
// out bit for bit against the stable reference.
template <class K>
check verify_keys(const K* in, const K* out, std::size_t n, const options& opt, bool stable);

// Pairs sorted with value = original index (u32 or u64 indices). Checks that
// idx is a permutation, out_key[i] == in_key[idx[i]] bit for bit, order, and
// with `stable` that equal-rank runs keep ascending indices.
template <class K, class I>
check verify_pairs(const K* in, const K* out, const I* idx, std::size_t n, const options& opt,
                   bool stable);

// Order alone (for files): ok iff sorted; else names the first position i
// with out[i] ranked after out[i+1].
template <class K> check verify_sorted(const K* out, std::size_t n, const options& opt);

}  // namespace gpusort::harness

namespace gpusort::harness {

// O(n) checks for large benchmark outputs (parallel over host threads):
// keys: order under opt plus a multiset fingerprint of the bit patterns;
// pairs (value = original index): idx is a permutation, out[i] equals
// in[idx[i]] bit for bit, order, and with `stable` ascending idx within
// runs of equal rank.
template <class K>
check verify_keys_fast(const K* in, const K* out, std::size_t n, const options& opt);
template <class K, class I>
check verify_pairs_fast(const K* in, const K* out, const I* idx, std::size_t n, const options& opt,
                        bool stable);

}  // namespace gpusort::harness
