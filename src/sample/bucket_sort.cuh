// Sample sort, stages 4-5: what becomes of each bucket (Sintorn &
// Assarsson 2008 step 3, "merge sort on each list").
//
// pack: one block per segment, one thread per bucket, with the bucket
// bounds read from the scanned table. The buckets, in key order:
//   * a range bucket larger than one merge tile goes to the next level
//     (an oversized span, refined with new splitters);
//   * the others are packed greedily into runs of at most one merge tile:
//     a run is a contiguous stretch of the buffer in which every bucket is
//     below the next, so sorting the run stably sorts its buckets. A run of
//     equality buckets and one-key range buckets is already in order and is
//     only copied; an equality bucket larger than a tile is copied in whole
//     tiles and its tail (its "piece") starts a run.
// The greedy packing is a chain, found in parallel and walked by one thread:
//   bounds   start[b] for every bucket, in shared memory
//   next     thread b: if a run started at b's piece, the first bucket c > b
//            that does not fit (binary search: its end - the piece > tile;
//            an oversized bucket never fits); the run is [piece(b),
//            start[c]) and the next run starts at c, or at c + 1 when c is
//            oversized. Its copy flag: no range bucket of >= 2 keys in
//            [b, c) (a block scan of those counts)
//   walk     thread 0 follows the chain from bucket 0 and marks run starts
//            (one shared load per run: ~130 hops for a level-2 segment)
//   emit     block scans over (runs + whole-tile copies, oversized
//            buckets) and over the oversized buckets' tiles, and one
//            atomic each per block place them in the level's run list and
//            the next level's segment list (in any order: each has its own
//            output positions; the packed segment counter gives each new
//            segment its index and its first tile at once); whole tiles of
//            big equality buckets are written by their warp
// sort: merge::segment_sort_kernel (the shared segmented block sort, one
// block per run, stable) moves the runs into the output.
// Packing keeps the block sort's tiles full (~n / tile runs instead of one
// per bucket, most of them tiny after level 1).
#pragma once

#include <gpusort/detail/merge/segment_sort.cuh>
#include <gpusort/detail/block/rank.cuh>
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

// The level's runs as a segment list for merge::segment_sort_kernel.
struct run_list {
  work_list<merge::segment> runs;
  __device__ std::size_t count() const { return runs.size(); }
  __device__ merge::segment operator()(std::size_t i) const { return runs[i]; }
};

// pack
template <int TILE>
__global__ void __launch_bounds__(tuning::pack_threads)
pack_kernel(segment_list list, const std::size_t* offsets, work_list<merge::segment> runs, segment_list next) {
  constexpr int B = tuning::buckets, T = tuning::pack_threads;
  __shared__ std::size_t start[B + 1];    // bucket bounds within the segment
  __shared__ std::uint16_t jump[B];       // where the run after a run started at b starts
  __shared__ unsigned sortish_before[B + 1];  // range buckets of >= 2 keys below b
  __shared__ std::uint8_t is_run[B];      // run starts on the chain
  __shared__ unsigned long long warp_sums[T / 32], tile_sums[T / 32];
  __shared__ std::size_t first_run, first_span, first_tile;
  constexpr unsigned long long span_mask = (1ull << tuning::bucket_bits) - 1;  // spans per segment <= 256
  const int b = int(threadIdx.x);
  const int lane = b % 32;
  const std::size_t segs = list.size();
  for (std::size_t seg = blockIdx.x; seg < segs; seg += gridDim.x) {
    const segment_desc d = list[seg];
    // bounds
    if (b < B) {
      start[b] = offsets[cell(d, b, 0)] - offsets[cell(d, 0, 0)];
      is_run[b] = 0;
    }
    if (b == B) start[B] = d.size;
    __syncthreads();
    const bool real = b < B, equal = b % 2 == 1;
    const std::size_t lo = real ? start[b] : d.size;
    const std::size_t size = real ? start[b + 1] - lo : 0;
    const bool over = !equal && size > std::size_t(TILE);
    const std::size_t whole = equal && size > std::size_t(TILE) ? size / TILE : 0;
    const std::size_t piece = lo + whole * TILE;
    // next: first c in (b, B] with c == B or start[c + 1] - piece > TILE
    int c = B;
    if (real && !over) {
      int below = b;  // the predicate is false at `below`, true at c
      while (c - below > 1) {
        const int mid = (below + c) / 2;
        if (start[mid + 1] - piece > std::size_t(TILE)) c = mid;
        else below = mid;
      }
    }
    const bool c_over = c < B && c % 2 == 0 && start[c + 1] - start[c] > std::size_t(TILE);
    if (real) jump[b] = std::uint16_t(over ? b + 1 : c_over ? c + 1 : c);
    const unsigned sortish = real && !equal && size >= 2 ? 1u : 0u;
    const unsigned sb = unsigned(block::block_exclusive_sum<T>((unsigned long long)sortish, warp_sums));
    sortish_before[b] = sb;  // thread B writes the total
    __syncthreads();
    // walk
    if (b == 0)
      for (int x = 0; x < B; x = jump[x]) is_run[x] = 1;
    __syncthreads();
    // emit
    const bool my_run = real && !over && is_run[b] && start[c] > piece;
    const unsigned long long items = (my_run ? 1ull : 0ull) + whole;
    const unsigned long long packed = (items << tuning::bucket_bits) | (over ? 1ull : 0ull);
    const unsigned long long at = block::block_exclusive_sum<T>(packed, warp_sums);
    const unsigned long long tiles = over ? tiles_of(size) : 0;
    const unsigned long long tiles_before = block::block_exclusive_sum<T>(tiles, tile_sums);
    if (b == T - 1) {  // holds no bucket: its exclusive sums are the totals
      const auto made = std::size_t(at >> tuning::bucket_bits);
      first_run = made ? runs.reserve(made) : 0;
      const auto spans = std::size_t(at & span_mask);
      const auto place = spans ? next.reserve(spans, std::size_t(tiles_before)) : segment_list::place{};
      first_span = place.entry;
      first_tile = place.item;
    }
    __syncthreads();
    std::size_t r = first_run + std::size_t(at >> tuning::bucket_bits);
    if (my_run)
      runs[r++] = {d.begin + piece, int(start[c] - piece), sortish_before[c] == sortish_before[b]};
    if (over)
      next[first_span + std::size_t(at & span_mask)] = {d.begin + lo, size, first_tile + std::size_t(tiles_before),
                                                        std::size_t(tiles)};
    for (unsigned todo = __ballot_sync(~0u, whole != 0); todo; todo &= todo - 1) {  // whole tiles
      const int src = __ffs(int(todo)) - 1;
      const std::size_t to = __shfl_sync(~0u, r, src), from = d.begin + __shfl_sync(~0u, lo, src);
      const std::size_t count = __shfl_sync(~0u, whole, src);
      for (std::size_t i = lane; i < count; i += 32) runs[to + i] = {from + i * TILE, TILE, true};
    }
    __syncthreads();  // the next segment rewrites the shared arrays
  }
}

}  // namespace gpusort::detail::sample
