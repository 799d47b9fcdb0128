// Block merge sort: stages 1 and 2 of CUDA lecture 6, "Understanding parallel thinking from the parallel sort method"'s three-stage merge sort.
//   1. many small tasks  each thread sorts its ITEMS keys in registers with
//                        the odd-even register network (thread_sort)
//   2. medium tasks      the block merges its threads' runs pairwise in
//                        shared memory, doubling the run length each round;
//                        every thread finds its ITEMS outputs by merge path
//                        (co-rank binary search) and merges them serially
// Stable: the network swaps only strictly smaller keys, merges take ties
// from the left run. Partial tiles are handled by clamping run bounds to the
// valid count, so no pad key is needed and any comparator works.
#pragma once

#include <gpusort/detail/block/merge.cuh>
#include <gpusort/detail/block/thread_sort.cuh>
#include <gpusort/detail/block/tile.cuh>

namespace gpusort::detail::block {

// Stable odd-even network over the first `count` of N items (the rest are
// past the end of a partial tile and stay put).
template <int N, class Less, class T, class P>
__device__ __forceinline__ void thread_sort_partial(const Less& less, T (&k)[N], P (&v)[N], int count) {
  if (count >= N) return thread_sort(less, k, v);
#pragma unroll
  for (int round = 0; round < N; ++round) {
#pragma unroll
    for (int i = round & 1; i + 1 < N; i += 2)
      if (i + 1 < count) compare_exchange(less, k[i], k[i + 1], v[i], v[i + 1]);
  }
}

// Sorts the `valid` items of a tile. On entry each thread holds items
// [tid * ITEMS, tid * ITEMS + ITEMS) of the tile in k/v (blocked order); on
// exit the sorted tile is in s.keys / s.vals.
template <int THREADS, int ITEMS, class Less, class T, class P>
__device__ __forceinline__ void block_merge_sort(const Less& less, T (&k)[ITEMS], P (&v)[ITEMS], int valid,
                                                 tile_storage<T, P, THREADS * ITEMS>& s) {
  const unsigned me = threadIdx.x;
  const unsigned start = me * ITEMS;
  int mine = valid - int(start);
  mine = mine < 0 ? 0 : (mine > ITEMS ? ITEMS : mine);
  // stage 1: registers
  thread_sort_partial(less, k, v, mine);
  // stage 2: rounds of pairwise merges in shared memory
  int produced = mine;
  auto publish = [&] {  // my run (or merged slice) back to shared memory
    put_items(s, start, k, v, produced);
    __syncthreads();
  };
  for (unsigned width = ITEMS; width < unsigned(THREADS * ITEMS); width *= 2) {
    publish();
    unsigned pair = start / (2 * width) * (2 * width);
    unsigned a0 = pair < unsigned(valid) ? pair : unsigned(valid);
    unsigned a1 = pair + width < unsigned(valid) ? pair + width : unsigned(valid);
    unsigned b1 = pair + 2 * width < unsigned(valid) ? pair + 2 * width : unsigned(valid);
    produced = merge_slice<ITEMS>(less, s.keys + a0, s.vals + (is_no_value<P> ? 0 : a0), a1 - a0, b1 - a1,
                                  start - pair, k, v);
    __syncthreads();
  }
  publish();
}

}  // namespace gpusort::detail::block
