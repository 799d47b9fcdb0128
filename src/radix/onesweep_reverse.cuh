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

#include <gpusort/detail/block/striped_move.cuh>
#include <gpusort/detail/key_traits.hpp>
#include "radix/onesweep_plan.hpp"

#include <cstddef>
#include <type_traits>

namespace gpusort::detail::radix_onesweep {

// Loads a thread keeps in flight in the presorted launch (the copy and the
// reversal: onesweep_presorted.cuh), in as many elements' registers.
constexpr int presorted_batch = 8;

// Tile [first, first + valid) of n keys (src), with THREADS threads of
// ITEMS keys; words: shared memory for (valid + 2 * reverse_reach) / 32 + 2
// words. rank(j): key j's rank in the order. fetch(i): key i (and its
// value); store(to, fetched): them to `to`. Ends with a sync (words may be
// reused).
// Both steps keep presorted_batch loads in flight a thread: each warp makes
// its words in batches of that many, every rank of a batch loaded before
// its ballots (one word at a time waited one load's latency a word, about
// 23 a tile), and the keys move through block::move_striped.
template <int THREADS, int ITEMS, class Rank, class Fetch, class Store>
__device__ __forceinline__ void reverse_tile(std::size_t first, unsigned valid, std::size_t n, unsigned* words,
                                             Rank rank, Fetch fetch, Store store) {
  using R = decltype(rank(std::size_t(0)));
  using W = std::conditional_t<sizeof(R) == 8, unsigned long long, unsigned>;  // shuffled width
  constexpr long long reach = reverse_reach;
  static_assert(reverse_reach > reverse_run_max, "a run's ends within reach");
  constexpr int warps = THREADS / 32, batch = presorted_batch;
  const long long origin = (long long)first - reach;  // key of bit 0 (may be below key 0)
  const long long end = (long long)first + valid + reach;  // bits up to key end (at most n)
  const long long last = end < (long long)n ? end : (long long)n;
  const unsigned count = unsigned((last - origin) / 32 + 1);  // words of bits origin .. last
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  const auto key_at = [&](long long j) { return j >= 0 && j < (long long)n; };
  // each warp makes a contiguous range of words, so lane 0's key before it
  // is the previous word's lane 31 (a shuffle) but for the range's first
  const unsigned per = (count + warps - 1) / warps;
  const unsigned w_begin = warp * per, w_end = min(count, w_begin + per);
  R carry = 0;  // rank of the key before the batch's first word's lane 0
  if (lane == 0u && w_begin < w_end && key_at(origin + 32LL * w_begin - 1))
    carry = rank(std::size_t(origin + 32LL * w_begin - 1));
  for (unsigned w0 = w_begin; w0 < w_end; w0 += batch) {
    R r[batch];
#pragma unroll
    for (int b = 0; b < batch; ++b) {
      const long long j = origin + 32LL * (w0 + unsigned(b)) + lane;
      r[b] = w0 + unsigned(b) < w_end && key_at(j) ? rank(std::size_t(j)) : R(0);
    }
#pragma unroll
    for (int b = 0; b < batch; ++b) {
      const unsigned w = w0 + unsigned(b);  // warp-uniform
      const long long j = origin + 32LL * w + lane;
      const R up = R(__shfl_up_sync(0xFFFFFFFFu, W(r[b]), 1));
      const R last = R(__shfl_sync(0xFFFFFFFFu, W(r[b]), 31));
      const R prev = lane == 0u ? carry : up;
      carry = last;
      // a run starts at key 0, at key n (the end), and where the rank changes
      const bool starts = j == 0 || j == (long long)n || (j > 0 && j < (long long)n && r[b] != prev);
      const unsigned ballot = __ballot_sync(0xFFFFFFFFu, starts);
      if (lane == 0u && w < w_end) words[w] = ballot;
    }
  }
  __syncthreads();
  block::move_striped<ITEMS, presorted_batch>(
      int(valid), [&](unsigned k) { return fetch(first + k); },
      [&](unsigned k, const auto& x) {
        const unsigned b = unsigned(k + reach);  // the bit of key i = first + k
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
        store(std::size_t((long long)n - (origin + (long long)e) + (long long)(b - s)), x);
      });
  __syncthreads();
}

}  // namespace gpusort::detail::radix_onesweep
