// Sample sort, stage 1 (pivot_rule::interpolated): Sintorn & Assarsson
// (2008)'s pivots, by linear interpolation over [min, max] (the lecture notes "MCMD L20: GPU Sorting",
// step 1a-i). Interpolation runs on the order's rank (key_order::rank:
// twiddled bits, flipped for descending, cut to [begin_bit, end_bit)), so
// it is correct for every key type, bit range and direction; on floats the
// rank is the bit pattern, so the spacing is linear in the bits, roughly
// logarithmic in the value.
//   minmax    every tile of the level: rank min / max of its keys, folded
//             into its segment's range with global atomics (u64 ranks)
//   splitters one block per segment: rank r_j = lo + (hi - lo)(j + 1)/256,
//             turned back into carried bits of that rank (the order's
//             from_rank, key_traits.hpp), made monotone after the -0.0
//             fold of float orders
// Costs one extra read of the keys per level. Skewed keys can need more
// levels than sampled pivots: each level narrows a bucket's rank range by
// 256, so 64-bit keys may reach tuning::max_levels and the fallback.
#pragma once

#include "core/problem.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <gpusort/detail/block/warp.cuh>

#include <cstddef>

namespace gpusort::detail::sample {

using block::warp_max;
using block::warp_min;

// minmax
template <class K, class Ord>
__global__ void __launch_bounds__(tuning::threads)
minmax_kernel(const K* keys, segment_list list, const unsigned* map, Ord ord, rank_range ranges) {
  __shared__ unsigned long long lo, hi;
  const std::size_t tiles = list.work_items();
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const tile_view v = tile_at(list.items, map, tile);
    if (threadIdx.x == 0) {
      lo = ~0ull;
      hi = 0;
    }
    __syncthreads();
    unsigned long long mine_lo = ~0ull, mine_hi = 0;
    for (int i = threadIdx.x; i < v.valid; i += tuning::threads) {
      const unsigned long long r = ord.rank(ord.encode(keys[v.first + i]));
      mine_lo = min(mine_lo, r);
      mine_hi = max(mine_hi, r);
    }
    mine_lo = warp_min(mine_lo);
    mine_hi = warp_max(mine_hi);
    if (threadIdx.x % 32 == 0) {
      atomicMin(&lo, mine_lo);
      atomicMax(&hi, mine_hi);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      atomicMin(&ranges.lo[v.seg], lo);
      atomicMax(&ranges.hi[v.seg], hi);
    }
    __syncthreads();
  }
}

// splitters
template <class Ord>
__global__ void __launch_bounds__(tuning::sample_threads)
interpolate_splitters_kernel(segment_list list, Ord ord, rank_range ranges, typename Ord::carried* splitters) {
  using U = typename Ord::carried;
  constexpr int S = tuning::splitters;
  __shared__ U s[S];
  const std::size_t segs = list.size();
  for (std::size_t seg = blockIdx.x; seg < segs; seg += gridDim.x) {
    const unsigned long long lo = ranges.lo[seg], width = ranges.hi[seg] - lo;
    const unsigned long long q = width / (S + 1), rem = width % (S + 1);  // floor(width (j+1) / 256), no overflow
    for (int j = threadIdx.x; j < S; j += tuning::sample_threads)
      s[j] = ord.from_rank(lo + q * (j + 1) + rem * (j + 1) / (S + 1));
    __syncthreads();
    if (threadIdx.x == 0)
      for (int j = 1; j < S; ++j)
        if (ord.less(s[j], s[j - 1])) s[j] = s[j - 1];
    __syncthreads();
    for (int j = threadIdx.x; j < S; j += tuning::sample_threads) splitters[seg * S + j] = s[j];
    __syncthreads();
  }
}

}  // namespace gpusort::detail::sample
