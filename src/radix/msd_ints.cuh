// radix_msd's affine map for 64-bit integers, the device side (msd_ints.hpp
// has the map). Over a sort of 64-bit integers in the order's full range,
// after the first histogram has found the keys' span:
//   hist   every block makes the map from the span (block 0 stores it);
//          where it is taken, the counts of c's top three varying digits
//          in one read, and every key's 0 in the digits above them: the
//          levels' first histogram (as the class map's for doubles). Else
//          the plan takes the ordered bits' histogram
// Then the levels' histogram and pass kernels take the digits of c
// (int_pass_key), and the local sort ranks o - least (int_local_form).
#pragma once

#include "radix/digit.cuh"
#include "radix/msd_ints.hpp"
#include "radix/onesweep_plan.hpp"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

// The ordered bits' xor of raw carrier bits (integers: twiddle, then flip).
template <class K> __device__ __forceinline__ typename key_traits<K>::bits int_to_ordered(const radix::digit_map<K>& d) {
  using U = typename key_traits<K>::bits;
  return U(key_traits<K>::twiddle(U(0)) ^ d.flip);
}

// radix::pass_key's interface for the levels' passes over 64-bit integers:
// keys carried as o - least (radix::pass_key's offset form: two operations
// on load and two on store), each digit taken from the carried bits shifted
// up by s (a map not taken is base 0, shift 0: c = o).
template <class K> struct int_pass_key {
  using bits = typename key_traits<K>::bits;
  static_assert(sizeof(bits) == 8 && !key_traits<K>::is_float, "the integer map is for 64-bit integers");
  const radix::digit_map<K>& digit;  // c's digit: shift and mask on c
  bits to_ordered;
  bits base;
  unsigned shift;

  __device__ bits carry(bits raw) const { return bits(bits(raw ^ to_ordered) - base); }
  __device__ bits uncarry(bits c) const { return bits(bits(c + base) ^ to_ordered); }
  __device__ unsigned of_carried(bits c) const { return unsigned(bits(c << shift) >> digit.shift) & digit.mask; }
  // int_pad_ordered's, carried
  __device__ bits carried_pad(bits) const { return bits(~bits(0) >> shift); }
  // the form of a pass's arguments (radix_onesweep::pass_args: key_table)
  template <class Args> __device__ static int_pass_key of(const Args& a) {
    const int_map m = *static_cast<const int_map*>(a.key_table);
    return {a.digit, int_to_ordered(a.digit), bits(m.base), m.shift};
  }
};

// The local sort's key form: keys held as o - least (ordered bits, offset),
// ranked by an ascending order over every bit; stored back as they came.
// The plain form holds the keys as they came.
struct plain_local_form {
  template <class U> __device__ static U carry(U raw) { return raw; }
  template <class U> __device__ static U uncarry(U c) { return c; }
};
template <class U> struct int_local_form {
  U to_ordered;
  U base;
  __device__ U carry(U raw) const { return U((raw ^ to_ordered) - base); }
  __device__ U uncarry(U c) const { return U((c + base) ^ to_ordered); }
};

// The map from the first histogram's span, and the levels' first histogram
// of c where it is taken (hist zeroed by the caller). Pass p is at bit 8p,
// as digit_map::of counts digits over the full range. Three shared atomics
// a key, as the class map's histogram.
template <class K>
__global__ void __launch_bounds__(256)
int_hist_kernel(const typename key_traits<K>::bits* keys, std::size_t n, radix::digit_map<K> digit,
                const radix_onesweep::key_span* span, int_map* map, unsigned* hist) {
  constexpr int passes = 8, counted = 3, bins = 256, radix_bits = 8;
  __shared__ unsigned counts[counted * bins];
  const unsigned long long lo = ~span->not_lo, hi = span->hi;
  const int_map m = int_map_of(lo, hi, radix_bits);
  if (blockIdx.x == 0 && threadIdx.x == 0) *map = m;
  if (!m.ok) return;  // grid-uniform: the plan takes the ordered bits' histogram
  const int top = int_top_digit(lo, hi, m, radix_bits);
  // the digits above c's top are every key's 0
  if (blockIdx.x == 0)
    for (int p = top + 1 + int(threadIdx.x); p < passes; p += 256) hist[p * bins] = unsigned(n);
  for (int i = threadIdx.x; i < counted * bins; i += 256) counts[i] = 0;
  __syncthreads();
  for (std::size_t i = std::size_t(blockIdx.x) * 256 + threadIdx.x; i < n; i += std::size_t(gridDim.x) * 256) {
    const std::uint64_t c = int_mapped(std::uint64_t(digit.ordered(keys[i])), m);
#pragma unroll
    for (int j = 0; j < counted; ++j)
      if (top - j >= 0) atomicAdd(&counts[j * bins + int((c >> (radix_bits * (top - j))) & 255u)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < counted * bins; i += 256)
    if (counts[i] && top - i / bins >= 0) atomicAdd(&hist[(top - i / bins) * bins + i % bins], counts[i]);
}

}  // namespace gpusort::detail::radix_msd
