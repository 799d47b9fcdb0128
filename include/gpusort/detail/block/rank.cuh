// Block-wide ranking by warp-level multi-split (Adinets & Merrill 2022,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", section
// 4; CUB's BlockRadixRankMatchEarlyCounts). Shared by the onesweep passes and
// the block radix sort.
//
// A tile of THREADS * ITEMS keys is held *warp-striped*: item i of lane l in
// warp w is tile slot w * 32 * ITEMS + i * 32 + l, so memory order is warp,
// then item, then lane. rank() gives every key its slot in the tile stably
// sorted by one digit:
//   count     each warp counts its digits in a private histogram (shared atomics)
//   upsweep   per digit: the tile's count, and each warp's exclusive offset
//   callback  the caller sees the counts first (onesweep publishes them to
//             its look-back early; a tile whose keys share one digit stops)
//   scan      exclusive scan of the counts: where each digit starts in the tile
//   rank      per item, the lanes holding the same digit find each other with
//             ballots; the highest of them bumps the warp's counter for the
//             group and broadcasts the old value
// Equal digits keep memory order (warps in order, items in order, lanes in
// order), so every sort built on it is stable.
#pragma once

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/block/warp.cuh>

#include <cstdint>

namespace gpusort::detail::block {

template <int THREADS, int ITEMS, int RADIX_BITS> struct block_rank {
  static_assert(THREADS % 32 == 0, "whole warps");
  static constexpr int bins = 1 << RADIX_BITS;
  static constexpr int warps = THREADS / 32;
  static constexpr int tile = THREADS * ITEMS;
  // Digits are owned by threads for the upsweep and the scan: thread t owns
  // bins t * bins_per_thread + u.
  static constexpr int bins_per_thread = (bins + THREADS - 1) / THREADS;

  struct storage {
    unsigned warp_hist[warps][bins];  // counts, then each warp's running offsets
    unsigned warp_sums[warps];        // block scan
  };

  __device__ __forceinline__ static int thread_bin(int u) { return int(threadIdx.x) * bins_per_thread + u; }

  // Tile slot of item i of this thread (warp-striped).
  __device__ __forceinline__ static unsigned slot(int i) {
    return striped_slot<ITEMS>(i);
  }

  // Ranks the tile by digit_of(i) (the digit of this thread's item i, < bins).
  // counts[u] / starts[u]: the tile's count and first slot of bin
  // thread_bin(u). on_counts(counts) runs once the counts are known and
  // returns, block-uniformly, whether to stop: then rank() returns false
  // without ranks or starts. Ends with the warp histograms still in use: sync
  // before storage is reused.
  template <class DigitOf, class OnCounts>
  __device__ __forceinline__ static bool rank(storage& s, DigitOf digit_of, unsigned (&ranks)[ITEMS],
                                              unsigned (&counts)[bins_per_thread], unsigned (&starts)[bins_per_thread],
                                              OnCounts on_counts) {
    return rank_each(s, digit_of, [&](int i, unsigned r) { ranks[i] = r; }, counts, starts, on_counts);
  }

  // This warp's histogram, zeroed (by the warp itself).
  __device__ __forceinline__ static unsigned* warp_hist_cleared(storage& s) {
    const unsigned lane = lane_id();
    unsigned* hist = s.warp_hist[threadIdx.x / 32];
#pragma unroll
    for (int b = 0; b < bins; b += 32)
      if (bins % 32 == 0 || b + int(lane) < bins) hist[b + int(lane)] = 0;
    __syncwarp();
    return hist;
  }

  // upsweep: warp offsets become exclusive, counts[u] the tile's total;
  // on_counts; scan: where each bin starts in the tile, added to the warp
  // offsets. After a sync that follows the counting.
  template <class OnCounts>
  __device__ __forceinline__ static bool scan_bins(storage& s, unsigned (&counts)[bins_per_thread],
                                                   unsigned (&starts)[bins_per_thread], OnCounts on_counts) {
#pragma unroll
    for (int u = 0; u < bins_per_thread; ++u) {
      const int b = thread_bin(u);
      counts[u] = 0;
      if (b < bins) {
        unsigned c = 0;
#pragma unroll
        for (int w = 0; w < warps; ++w) {
          const unsigned t = s.warp_hist[w][b];
          s.warp_hist[w][b] = c;
          c += t;
        }
        counts[u] = c;
      }
    }
    if (on_counts(counts)) return false;
    // scan: where each digit starts in the tile
    unsigned mine = 0;
#pragma unroll
    for (int u = 0; u < bins_per_thread; ++u) mine += counts[u];
    unsigned at = block_exclusive_sum<THREADS>(mine, s.warp_sums);
#pragma unroll
    for (int u = 0; u < bins_per_thread; ++u) {
      starts[u] = at;
      at += counts[u];
      const int b = thread_bin(u);
      if (b < bins) {
#pragma unroll
        for (int w = 0; w < warps; ++w) s.warp_hist[w][b] += starts[u];
      }
    }
    return true;
  }

  // Unstable ranking (quicksort's partition, whose classes are few): each
  // key takes its rank in its warp's bin from the old value of one shared
  // atomicAdd on the warp's counter, in whatever order the atomics land, so
  // keys are counted and ranked in one step (one atomic a key, no ballots;
  // a warp whose keys all share one bin takes one atomic for them all).
  // packed[i] holds item i's digit in its low 16 bits; its rank in the tile
  // is written to the high 16 bits. Otherwise as rank().
  template <class OnCounts>
  __device__ __forceinline__ static bool rank_unstable(storage& s, unsigned (&packed)[ITEMS],
                                                       unsigned (&counts)[bins_per_thread],
                                                       unsigned (&starts)[bins_per_thread], OnCounts on_counts) {
    static_assert(THREADS * ITEMS <= (1 << 16) && bins <= (1 << 16), "ranks and digits fit 16 bits");
    const unsigned lane = lane_id();
    unsigned* hist = warp_hist_cleared(s);
    // count, and each key's rank among its warp's keys of its bin
    unsigned first;
    if (warp_one_digit(packed, 0xFFFFu, first)) {
      unsigned base = 0;
      if (lane == 0) base = atomicAdd(&hist[first], 32u * ITEMS);
      base = __shfl_sync(~0u, base, 0);
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) packed[i] |= (base + unsigned(i) * 32 + lane) << 16;
    } else {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) packed[i] |= atomicAdd(&hist[packed[i] & 0xFFFFu], 1u) << 16;
    }
    __syncthreads();
    if (!scan_bins(s, counts, starts, on_counts)) return false;
    __syncthreads();
    // rank: the warp's first slot of the bin plus the rank in the warp
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned d = packed[i] & 0xFFFFu;
      packed[i] = d | (hist[d] + (packed[i] >> 16)) << 16;
    }
    return true;
  }

  // The same, handing each rank to place(i, rank) as soon as it is known
  // (ranks are final when made): a caller whose exchange buffer does not
  // overlap `storage` stores key i at once and never holds the ranks (20
  // registers fewer in onesweep's key-only passes).
  template <class DigitOf, class Place, class OnCounts>
  __device__ __forceinline__ static bool rank_each(storage& s, DigitOf digit_of, Place place,
                                                   unsigned (&counts)[bins_per_thread],
                                                   unsigned (&starts)[bins_per_thread], OnCounts on_counts) {
    const unsigned lane = lane_id();
    unsigned* hist = warp_hist_cleared(s);
    // count
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) atomicAdd(&hist[digit_of(i)], 1u);
    __syncthreads();
    if (!scan_bins(s, counts, starts, on_counts)) return false;
    __syncthreads();
    // rank: peers share a digit; the highest peer takes the group's places
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned d = digit_of(i);
      const unsigned peers = match_digit<RADIX_BITS>(d);
      const unsigned leader = 31 - __clz(peers);
      const unsigned below = __popc(peers & lanemask_le());  // peers up to me, me included
      unsigned base = 0;
      if (lane == leader) base = atomicAdd(&hist[d], below);  // below == group size at the leader
      base = __shfl_sync(~0u, base, leader);
      place(i, base + below - 1);
    }
    return true;
  }
};

}  // namespace gpusort::detail::block
