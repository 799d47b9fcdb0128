// Sample sort, stages 2 and 3: count, then a stable scatter into buckets.
//   count    one block per tile of 8192 keys: bucket_of() each key against
//            the splitters in shared memory, shared-memory histogram, then
//            counts[b * tiles + t] (bucket-major, so one exclusive scan of
//            the table gives every (bucket, tile) its output offset)
//   scan     cub::DeviceScan::ExclusiveSum over the table (size_t: any n)
//   scatter  the same tiles again, in input order, 256 keys per round:
//            a key's place is offset[b][t] + keys of b in earlier rounds +
//            keys of b in earlier warps of this round (per-warp counts in
//            shared memory) + earlier lanes of its warp with the same bucket
//            (__match_any_sync + popc). So each bucket keeps input order:
//            the scatter is stable.
// Keys move as the caller's raw K (no decode needed); values as payload P.
#pragma once

#include "core/payload.cuh"
#include "sample/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

template <class U> __device__ __forceinline__ void load_splitters(U* s, const U* splitters) {
  for (int i = threadIdx.x; i < tuning::splitters; i += blockDim.x) s[i] = splitters[i];
}

template <class K, class Ord>
__global__ void __launch_bounds__(tuning::threads)
count_kernel(const K* keys, std::size_t n, Ord ord, const typename Ord::carried* splitters, std::size_t* counts,
             std::size_t tiles) {
  using U = typename Ord::carried;
  __shared__ U s[tuning::splitters];
  __shared__ unsigned hist[tuning::buckets];
  load_splitters(s, splitters);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    for (int b = threadIdx.x; b < tuning::buckets; b += tuning::threads) hist[b] = 0;
    __syncthreads();
    const std::size_t base = t * tuning::tile;
    const int valid = int(n - base < std::size_t(tuning::tile) ? n - base : std::size_t(tuning::tile));
    for (int i = threadIdx.x; i < valid; i += tuning::threads)
      atomicAdd(&hist[bucket_of(ord, s, ord.encode(keys[base + i]))], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < tuning::buckets; b += tuning::threads) counts[std::size_t(b) * tiles + t] = hist[b];
    __syncthreads();
  }
}

template <class K, class P, class Ord>
__global__ void __launch_bounds__(tuning::threads)
scatter_kernel(const K* kin, const P* vin, K* kout, P* vout, std::size_t n, Ord ord,
               const typename Ord::carried* splitters, const std::size_t* offsets, std::size_t tiles) {
  using U = typename Ord::carried;
  constexpr int B = tuning::buckets;
  __shared__ U s[tuning::splitters];
  __shared__ std::size_t start[B];                 // offsets[b][t]
  __shared__ unsigned running[B];                  // keys of b placed by earlier rounds
  __shared__ unsigned warp_count[tuning::warps][B];  // keys of b in each warp this round
  load_splitters(s, splitters);
  for (int i = threadIdx.x; i < tuning::warps * B; i += tuning::threads) (&warp_count[0][0])[i] = 0;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned lanes_below = (1u << lane) - 1;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    for (int b = threadIdx.x; b < B; b += tuning::threads) {
      start[b] = offsets[std::size_t(b) * tiles + t];
      running[b] = 0;
    }
    __syncthreads();
    const std::size_t base = t * tuning::tile;
    const int valid = int(n - base < std::size_t(tuning::tile) ? n - base : std::size_t(tuning::tile));
    for (int r0 = 0; r0 < valid; r0 += tuning::threads) {  // block-uniform loop
      const int i = r0 + int(threadIdx.x);
      const bool live = i < valid;
      K key{};
      int b = B;  // sentinel for lanes past the end: matches no real bucket
      if (live) {
        key = kin[base + i];
        b = bucket_of(ord, s, ord.encode(key));
      }
      const unsigned peers = __match_any_sync(0xFFFFFFFFu, b);
      const unsigned rank = __popc(peers & lanes_below);
      const bool leader = rank == 0;
      if (live && leader) warp_count[warp][b] = unsigned(__popc(peers));
      __syncthreads();
      if (live) {
        unsigned at = running[b] + rank;
        for (unsigned w = 0; w < warp; ++w) at += warp_count[w][b];
        const std::size_t dst = start[b] + at;
        kout[dst] = key;
        if constexpr (!is_no_value<P>) vout[dst] = vin[base + i];
      }
      __syncthreads();
      if (live && leader) {
        atomicAdd(&running[b], unsigned(__popc(peers)));
        warp_count[warp][b] = 0;
      }
      __syncthreads();
    }
  }
}

// bounds[b] = first output index of bucket b; bounds[B] = n.
template <class I>
__global__ void bucket_bounds_kernel(const I* offsets, std::size_t tiles, std::size_t n, I* bounds) {
  for (int b = threadIdx.x; b <= tuning::buckets; b += blockDim.x)
    bounds[b] = b < tuning::buckets ? offsets[std::size_t(b) * tiles] : I(n);
}

}  // namespace gpusort::detail::sample
