// The shared count kernel (policy.cuh): per work item, each warp counts its
// keys' buckets in a private histogram in shared memory; a warp whose keys
// all share one bucket adds them with one atomic (block::warp_one_digit),
// so sorted, all-equal and few-unique input do not serialise 32 atomics on
// one counter. Then the warps' histograms are summed and the policy
// publishes each bucket's count.
//   load      chunks of threads x count_items keys, striped over the block
//             (coalesced), all in flight before the first use
//   tree      the item's segment's splitters, reloaded only when it changes
//   classify  each key's bucket: a branch-free descent of the search tree
//   count     warp histograms (shared atomics)
//   publish   per bucket, the sum over the warps
#pragma once

#include "partition/policy.cuh"

#include <gpusort/detail/block/warp.cuh>

#include <cstddef>

namespace gpusort::detail::partition {

template <class Policy, class K, class Ord>
__global__ void __launch_bounds__(Policy::threads, Policy::count_blocks)
count_kernel(const K* keys, Ord ord, Policy pol) {
  using U = typename Ord::carried;
  constexpr int T = Policy::threads, I = Policy::count_items, BINS = 1 << Policy::bits, WARPS = T / 32;
  __shared__ block::splitter_tree<Ord, Policy::tree_levels> tree;
  __shared__ unsigned hist[WARPS][BINS];
  const unsigned lane = threadIdx.x % 32;
  unsigned* mine = hist[threadIdx.x / 32];
  unsigned loaded = ~0u;
  const std::size_t items = pol.items();
  for (std::size_t w = blockIdx.x; w < items; w += gridDim.x) {
    const auto it = pol.item(w);
    for (int c = 0; c < it.valid; c += T * I) {  // block-uniform
      // load
      U k[I];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const int at = c + i * T + int(threadIdx.x);
        k[i] = at < it.valid ? ord.encode(keys[it.first + at]) : U(0);
      }
      if (c == 0) {
        use_segment(tree, ord, pol, it.seg, loaded);
        for (int b = int(lane); b < BINS; b += 32) mine[b] = 0;
        __syncthreads();
      }
      // classify
      unsigned d[I];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const int at = c + i * T + int(threadIdx.x);
        d[i] = classify<true>(tree, ord, pol, k[i], it.first + std::size_t(at), at < it.valid);
      }
      // count
      unsigned first;
      if (block::warp_one_digit(d, ~0u, first)) {
        if (lane == 0) atomicAdd(&mine[first], 32u * I);
      } else {
#pragma unroll
        for (int i = 0; i < I; ++i) atomicAdd(&mine[d[i]], 1u);
      }
      if constexpr (Policy::one_chunk) break;
    }
    __syncthreads();
    // publish
    for (int b = int(threadIdx.x); b < Policy::buckets; b += T) {
      unsigned sum = 0;
#pragma unroll
      for (int x = 0; x < WARPS; ++x) sum += hist[x][b];
      pol.publish(it, b, sum);
    }
    __syncthreads();
  }
}

}  // namespace gpusort::detail::partition
