// radix_onesweep: the reversal of input that never rises (onesweep_plan.hpp,
// make_reverse_plan). The stable sort of keys that never rise puts key i of
// the run of equal keys [s, e) at n - e + (i - s): the runs in reverse, each
// in input order. The first histogram admitted the plan only if no run is
// longer than reverse_run_max, so a run's ends lie within reverse_reach of
// each of its keys, and one tile finds them from the keys around it:
//   bits   one bit a key j of [first - reach, last + reach]: whether a run
//          starts at j (j = 0, j = n, or j ranks apart from j - 1); a warp's
//          ballot makes a word of 32
//   move   each key finds the nearest run start at or below it (s) and above
//          it (e) in the words, and moves with its value to n - e + (i - s)
#pragma once

#include <gpusort/detail/key_traits.hpp>
#include "radix/onesweep_plan.hpp"

#include <cstddef>

namespace gpusort::detail::radix_onesweep {

// Tile [first, first + valid) of n keys (src), with THREADS threads; words:
// shared memory for (valid + 2 * reverse_reach) / 32 + 2 words. rank(j):
// key j's rank in the order. move(i, to): key i (and its value) to `to`.
// Ends with a sync (words may be reused).
template <int THREADS, class Rank, class Move>
__device__ __forceinline__ void reverse_tile(std::size_t first, unsigned valid, std::size_t n, unsigned* words,
                                             Rank rank, Move move) {
  constexpr long long reach = reverse_reach;
  static_assert(reverse_reach > reverse_run_max, "a run's ends within reach");
  const long long origin = (long long)first - reach;  // key of bit 0 (may be below key 0)
  const long long end = (long long)first + valid + reach;  // bits up to key end (at most n)
  const long long last = end < (long long)n ? end : (long long)n;
  const unsigned count = unsigned((last - origin) / 32 + 1);  // words of bits origin .. last
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  for (unsigned w = warp; w < count; w += THREADS / 32) {
    const long long j = origin + 32LL * w + lane;
    bool starts = false;
    if (j == 0 || j == (long long)n) starts = true;
    else if (j > 0 && j < (long long)n) starts = rank(std::size_t(j)) != rank(std::size_t(j - 1));
    const unsigned ballot = __ballot_sync(0xFFFFFFFFu, starts);
    if (lane == 0) words[w] = ballot;
  }
  __syncthreads();
  for (unsigned k = threadIdx.x; k < valid; k += THREADS) {
    const std::size_t i = first + k;
    const unsigned b = unsigned((long long)i - origin);  // i's bit
    // s: the highest start at or below i (within reach: key 0 is one)
    unsigned w = b / 32;
    unsigned m = words[w] & (0xFFFFFFFFu >> (31u - b % 32));
    while (m == 0 && w > 0) m = words[--w];
    const unsigned s = w * 32 + 31 - unsigned(__clz(m));
    // e: the lowest start above i (within reach: key n is one)
    w = (b + 1) / 32;
    m = words[w] & (0xFFFFFFFFu << ((b + 1) % 32));
    while (m == 0 && w + 1 < count) m = words[++w];
    const unsigned e = w * 32 + unsigned(__ffs(m)) - 1;
    // n - e + (i - s), the bits' origin cancelling
    move(i, std::size_t((long long)n - (origin + (long long)e) + (long long)(b - s)));
  }
  __syncthreads();
}

}  // namespace gpusort::detail::radix_onesweep
