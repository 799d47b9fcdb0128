// Sample sort, stage 4: sort each bucket.
// bounds[] (bucket starts, on the device and, after the one host sync, on
// the host) say where each bucket lies in the scattered buffer.
//   small buckets (<= one merge tile, 256 x 17 keys for 4-byte keys)
//       segmented_sort_kernel, one block per bucket: range buckets are
//       block-merge-sorted (merge/block_merge_sort.cuh, stable), equality
//       buckets are copied as they are (already in input order)
//   large buckets (host side, see family.cuh)
//       range buckets: merge::sort on the subrange (stable)
//       equality buckets: cudaMemcpyAsync
#pragma once

#include "core/payload.cuh"
#include "merge/block_merge_sort.cuh"
#include "sample/tuning.cuh"

#include <cstddef>

namespace gpusort::detail::sample {

template <int THREADS, int ITEMS, class K, class P, class Ord>
__global__ void __launch_bounds__(THREADS)
segmented_sort_kernel(const K* kin, K* kout, const P* vin, P* vout, const std::size_t* bounds, Ord ord) {
  using T = typename Ord::carried;
  constexpr int TILE = THREADS * ITEMS;
  __shared__ merge::tile_storage<T, P, TILE> s;
  const int b = int(blockIdx.x);
  const std::size_t base = bounds[b];
  const std::size_t size = bounds[b + 1] - base;
  if (size == 0 || size > std::size_t(TILE)) return;  // empty, or the host's job
  const int valid = int(size);
  if (b % 2 == 1 || valid == 1) {  // equality bucket (or one key): copy
    for (int i = threadIdx.x; i < valid; i += THREADS) {
      kout[base + i] = kin[base + i];
      if constexpr (!is_no_value<P>) vout[base + i] = vin[base + i];
    }
    return;
  }
  for (int i = threadIdx.x; i < valid; i += THREADS) {
    s.keys[i] = ord.encode(kin[base + i]);
    if constexpr (!is_no_value<P>) s.vals[i] = vin[base + i];
  }
  __syncthreads();
  T k[ITEMS];
  P v[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    int i = int(threadIdx.x) * ITEMS + r;
    if (i < valid) {
      k[r] = s.keys[i];
      if constexpr (!is_no_value<P>) v[r] = s.vals[i];
    }
  }
  __syncthreads();
  merge::block_merge_sort<THREADS, ITEMS>(ord, k, v, valid, s);
  for (int i = threadIdx.x; i < valid; i += THREADS) {
    kout[base + i] = ord.decode(s.keys[i]);
    if constexpr (!is_no_value<P>) vout[base + i] = s.vals[i];
  }
}

}  // namespace gpusort::detail::sample
