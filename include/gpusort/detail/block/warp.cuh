// Warp-level building blocks shared by the rankers, the classifiers and
// the count kernels: lane masks, digit matching by ballots (Adinets &
// Merrill 2022, "Onesweep", section 4: the warp multi-split), the
// warp-uniform check that lets equal-heavy input take one atomic a warp,
// and the warp's minimum and maximum of 64-bit ranks (sample sort's
// interpolated pivots, the sort by columns' minima).
#pragma once

#include <cstdint>

namespace gpusort::detail::block {

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// Warp-striped tiles (the rankers' and load_striped's layout): the tile
// slot of this thread's item i, ITEMS items a thread.
template <int ITEMS> __device__ __forceinline__ unsigned striped_slot(int i) {
  return (threadIdx.x / 32) * (32 * ITEMS) + unsigned(i) * 32 + lane_id();
}

__device__ __forceinline__ unsigned lanemask_le() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}

// Lanes of the (full) warp whose digit equals mine: one ballot per digit
// bit, cheaper than match.any (docs/perf/radix.md). Per bit: test it into a
// predicate, ballot on the predicate, and invert the ballot where my bit is
// clear, so `peers` keeps the lanes that agree on every bit. Written in PTX
// so that each bit costs the vote and one predicated not (the C++ form
// compiled to about two more instructions a bit).
template <int BITS> __device__ __forceinline__ unsigned match_digit(unsigned digit) {
  unsigned peers = ~0u;
#pragma unroll
  for (int b = 0; b < BITS; ++b) {
    unsigned agree;
    asm("{\n\t.reg .pred set;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 set, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
        "@!set not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(digit), "r"(1u << b));
    peers &= agree;
  }
  return peers;
}

// Whether all N x 32 digits of the warp (d[i] & mask) are one, returned in
// `digit`: sorted and equal-heavy input, where one atomic for the warp
// replaces 32 x N atomics serialised on one counter.
template <int N>
__device__ __forceinline__ bool warp_one_digit(const unsigned (&d)[N], unsigned mask, unsigned& digit) {
  digit = __shfl_sync(~0u, d[0] & mask, 0);
  bool same = true;
#pragma unroll
  for (int i = 0; i < N; ++i) same &= (d[i] & mask) == digit;
  return __all_sync(~0u, same);
}

// The minimum (maximum) of x over the full warp, in every lane.
__device__ __forceinline__ unsigned long long warp_min(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_xor_sync(0xFFFFFFFFu, x, o));
  return x;
}
__device__ __forceinline__ unsigned long long warp_max(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x = max(x, __shfl_xor_sync(0xFFFFFFFFu, x, o));
  return x;
}

}  // namespace gpusort::detail::block
