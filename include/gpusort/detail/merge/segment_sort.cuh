// Segmented block sort: many independent segments of at most one tile each,
// sorted in one launch, one block per segment (grid-stride over the
// segments, so the segment count may live in device memory and the grid
// need not match it). Each segment is loaded coalesced through shared
// memory, sorted by block_merge_sort (CUDA lecture 6, "Understanding parallel thinking from the parallel sort method" stages 1-2: register network,
// then merge-path merges in shared memory) and stored coalesced. Stable.
//
// Users: merge::sort's first stage (every tile of the input is a segment,
// tile_segments), sample sort's buckets, quicksort's small partitions.
// A segment list is any type with
//   __device__ std::size_t count() const;          number of segments
//   __device__ segment operator()(std::size_t) const;
// where a segment of size 0 is skipped and `copy` segments (already in
// order, e.g. equality buckets) are moved without sorting.
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/block/merge_sort.cuh>
#include <gpusort/detail/block/tile.cuh>

#include <cstddef>

namespace gpusort::detail::merge {

struct segment {
  std::size_t begin = 0;
  int size = 0;       // <= the kernel's tile
  bool copy = false;  // already in order: move, do not sort
};

// The input cut into consecutive tiles of `tile` keys (the last one partial).
struct tile_segments {
  std::size_t n;
  int tile;
  __device__ std::size_t count() const { return (n + tile - 1) / tile; }
  __device__ segment operator()(std::size_t i) const {
    const std::size_t begin = i * std::size_t(tile);
    const std::size_t left = n - begin;
    return {begin, int(left < std::size_t(tile) ? left : std::size_t(tile)), false};
  }
};

template <int THREADS, int ITEMS, int MIN_BLOCKS = 1, class K, class P, class Ord, class Segs>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
segment_sort_kernel(const K* kin, K* kout, const P* vin, P* vout, Segs segs, Ord ord) {
  using T = typename Ord::carried;
  __shared__ block::tile_storage<T, P, THREADS * ITEMS> s;
  const std::size_t count = segs.count();
  for (std::size_t i = blockIdx.x; i < count; i += gridDim.x) {
    const segment seg = segs(i);
    const std::size_t base = seg.begin;
    const int valid = seg.size;
    if (valid == 0) continue;
    if (seg.copy || valid == 1) {
      for (int j = threadIdx.x; j < valid; j += THREADS) {
        kout[base + j] = kin[base + j];
        if constexpr (!is_no_value<P>) vout[base + j] = vin[base + j];
      }
      continue;
    }
    // load (all copies in flight), then take a blocked slice
    block::load_slices<THREADS, ITEMS>(ord, s, kin + base, is_no_value<P> ? vin : vin + base, unsigned(valid), kin, vin, 0u);
    T k[ITEMS];
    P v[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int j = int(threadIdx.x) * ITEMS + r;
      if (j < valid) {
        k[r] = s.keys[j];
        if constexpr (!is_no_value<P>) v[r] = s.vals[j];
      }
    }
    __syncthreads();
    block::block_merge_sort<THREADS, ITEMS>(ord, k, v, valid, s);
    block::store_slice<THREADS, ITEMS>(ord, s, kout + base, is_no_value<P> ? vout : vout + base, unsigned(valid));
    __syncthreads();
  }
}

}  // namespace gpusort::detail::merge
