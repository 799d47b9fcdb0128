// Sample sort, stage 2: count (Sintorn & Assarsson 2008 step 2, histogram
// with shared atomics; seed 002). Over the tiles of a level
// (segments.cuh): a tile belongs to one segment and uses that segment's
// splitters. One block per tile of tuning::tile keys:
//   tree     the segment's splitters as a search tree in shared memory
//            (search_tree.cuh), reloaded only when the segment changes
//   count    chunks of threads x count_items keys: every thread loads its
//            items (coalesced, all in flight), finds their buckets (no
//            branches: the searches overlap), then adds them to its warp's
//            private histogram; a warp whose 32 keys share a bucket adds
//            32 once (all-equal and low-entropy input would otherwise
//            serialise 32 atomics on one counter)
//   table    the warps' histograms summed into the level's cells
//            (segment, bucket, tile): bucket-major within a segment, so one
//            exclusive scan of the table gives every (bucket, tile) its place
// Then cub::DeviceScan::ExclusiveSum scans the table in place (size_t: any n).
#pragma once

#include "sample/search_tree.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <cstddef>

namespace gpusort::detail::sample {

// The bin partial tiles pad with: above every bucket.
inline constexpr unsigned pad_bucket = (1u << tuning::bucket_bits) - 1;

// Loads the tile's segment's tree unless already there (block-uniform; the
// caller syncs before using it, and had synced since the last search).
template <class Ord>
__device__ __forceinline__ void load_tree(splitter_tree<Ord>& tree, const Ord& ord,
                                          const typename Ord::carried* splitters, unsigned seg, unsigned& loaded) {
  if (seg == loaded) return;
  tree.load(ord, splitters + std::size_t(seg) * tuning::splitters);
  loaded = seg;
}

// count
template <class K, class Ord>
__global__ void __launch_bounds__(tuning::threads)
count_kernel(const K* keys, const segment_desc* descs, const unsigned* map, std::size_t tiles, Ord ord,
             const typename Ord::carried* splitters, std::size_t* counts) {
  constexpr int T = tuning::threads, I = tuning::count_items, BINS = 1 << tuning::bucket_bits;
  __shared__ splitter_tree<Ord> tree;
  __shared__ unsigned hist[tuning::warps][BINS];
  const unsigned lane = threadIdx.x % 32;
  unsigned* mine = hist[threadIdx.x / 32];
  unsigned loaded = ~0u;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const tile_view v = tile_at(descs, map, tile);
    load_tree(tree, ord, splitters, v.seg, loaded);
    for (int b = lane; b < BINS; b += 32) mine[b] = 0;
    __syncthreads();
    // count
    for (int c = 0; c < v.valid; c += T * I) {  // block-uniform
      unsigned d[I];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const int at = c + i * T + int(threadIdx.x);
        d[i] = at < v.valid ? tree.bucket(ord, ord.encode(keys[v.first + at])) : pad_bucket;
      }
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const unsigned first = __shfl_sync(~0u, d[i], 0);
        if (__all_sync(~0u, d[i] == first)) {
          if (lane == 0) atomicAdd(&mine[first], 32u);
        } else {
          atomicAdd(&mine[d[i]], 1u);
        }
      }
    }
    __syncthreads();
    // table
    for (int b = threadIdx.x; b < tuning::buckets; b += T) {
      unsigned sum = 0;
#pragma unroll
      for (int w = 0; w < tuning::warps; ++w) sum += hist[w][b];
      counts[cell(v.d, b, v.t)] = sum;
    }
    __syncthreads();
  }
}

}  // namespace gpusort::detail::sample
