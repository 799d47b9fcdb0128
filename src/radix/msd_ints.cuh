// radix_msd's affine map for 64-bit integers, the device side (msd_ints.hpp
// has the map). Over a sort of 64-bit integers in the order's full range,
// after the first histogram has found the keys' span:
//   hist   every block makes the map from the span (block 0 stores it);
//          where it is taken, the counts of c's top three varying digits
//          in one read, and every key's 0 in the digits above them: the
//          levels' first histogram (as the class map's for doubles). Else
//          the plan takes the ordered bits' histogram
// Then the levels' histogram and pass kernels take the digits of c
// (int_pass_key), and the local sort ranks o - least (radix::pass_key's
// offset form).
#pragma once

#include "radix/digit.cuh"
#include "radix/msd_ints.hpp"
#include "radix/msd_top_digits.cuh"
#include "radix/onesweep_plan.hpp"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

// radix::pass_key's interface for the levels' passes over 64-bit integers:
// keys carried as o - least (radix::pass_key's offset form itself), each
// digit taken from the carried bits shifted up by s (a map not taken is
// base 0, shift 0: c = o).
template <class K> struct int_pass_key {
  using bits = typename key_traits<K>::bits;
  static_assert(sizeof(bits) == 8 && !key_traits<K>::is_float, "the integer map is for 64-bit integers");
  radix::pass_key<K> offset;  // its digit: c's, shift and mask on c
  unsigned shift;

  __device__ bits carry(bits raw) const { return offset.carry(raw); }
  __device__ bits uncarry(bits c) const { return offset.uncarry(c); }
  __device__ unsigned of_carried(bits c) const {
    return unsigned(bits(c << shift) >> offset.digit.shift) & offset.digit.mask;
  }
  // int_pad_ordered's, carried
  __device__ bits carried_pad(bits) const { return bits(~bits(0) >> shift); }
  // the form of a pass's arguments (radix_onesweep::pass_args: key_table)
  template <class Args> __device__ static bool leaves(const Args&) { return false; }  // one instance a pass
  template <class Args> __device__ static int_pass_key of(const Args& a) {
    const int_map m = *static_cast<const int_map*>(a.key_table);
    return {radix::pass_key<K>(a.digit, bits(m.base)), m.shift};
  }
};

// The local sort's key form where the map is not taken: keys held as they
// came. (Where it is, radix::pass_key's offset form: o - least.)
struct plain_local_form {
  template <class U> __device__ static U carry(U raw) { return raw; }
  template <class U> __device__ static U uncarry(U c) { return c; }
};

// The map from the first histogram's span, and the levels' first histogram
// of c where it is taken (msd_top_digits.cuh; hist zeroed by the caller),
// with every key's 0 in the digits above c's top.
template <class K>
__global__ void __launch_bounds__(256)
int_hist_kernel(const typename key_traits<K>::bits* keys, std::size_t n, radix::digit_map<K> digit,
                const radix_onesweep::key_span* span, int_map* map, unsigned* hist) {
  constexpr int passes = 8, bins = 256, radix_bits = 8;
  const unsigned long long lo = ~span->not_lo, hi = span->hi;
  const int_map m = int_map_of(lo, hi, radix_bits);
  if (blockIdx.x == 0 && threadIdx.x == 0) *map = m;
  if (!m.ok) return;  // grid-uniform: the plan takes the ordered bits' histogram
  const int top = int_top_digit(lo, hi, m, radix_bits);
  if (blockIdx.x == 0)
    for (int p = top + 1 + int(threadIdx.x); p < passes; p += 256) hist[p * bins] = unsigned(n);
  count_top_digits(keys, n, top,
                   [&](typename key_traits<K>::bits k) { return int_mapped(std::uint64_t(digit.ordered(k)), m); },
                   hist);
}

}  // namespace gpusort::detail::radix_msd
