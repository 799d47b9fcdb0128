// Sample sort, stages 2 and 3: count, then a stable scatter into buckets
// (Sintorn & Assarsson 2008 step 2, histogram with shared atomics; seed 002).
// Both run over the tiles of a level (segments.cuh): a tile belongs to one
// segment and uses that segment's splitters.
//   count    one block per tile of 8192 keys: bucket_of() each key against
//            the splitters in shared memory, shared-memory histogram, then
//            the level's table cell (segment, bucket, tile) (bucket-major
//            within a segment, so one exclusive scan of the table gives
//            every (bucket, tile) its place)
//   scan     cub::DeviceScan::ExclusiveSum over the table (size_t: any n)
//   scatter  the same tiles again, in input order, 256 keys per round:
//            a key's place is its segment's begin + offset[b][t] - the
//            segment's first offset + keys of b in earlier rounds + keys of
//            b in earlier warps of this round (per-warp counts in shared
//            memory) + earlier lanes of its warp with the same bucket
//            (__match_any_sync + popc). So each bucket keeps input order:
//            the scatter is stable.
// Keys move as the caller's raw K (no decode needed); values as payload P.
#pragma once

#include "core/payload.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

// The tile's segment's splitters, unless already loaded (block-uniform).
template <class U>
__device__ __forceinline__ void load_splitters(U* s, const U* splitters, unsigned seg, unsigned& loaded) {
  if (seg == loaded) return;
  for (int i = threadIdx.x; i < tuning::splitters; i += blockDim.x)
    s[i] = splitters[std::size_t(seg) * tuning::splitters + i];
  loaded = seg;
}

// count
template <class K, class Ord>
__global__ void __launch_bounds__(tuning::threads)
count_kernel(const K* keys, const segment_desc* descs, const unsigned* map, std::size_t tiles, Ord ord,
             const typename Ord::carried* splitters, std::size_t* counts) {
  using U = typename Ord::carried;
  __shared__ U s[tuning::splitters];
  __shared__ unsigned hist[tuning::buckets];
  unsigned loaded = ~0u;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const tile_view v = tile_at(descs, map, tile);
    load_splitters(s, splitters, v.seg, loaded);
    for (int b = threadIdx.x; b < tuning::buckets; b += tuning::threads) hist[b] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < v.valid; i += tuning::threads)
      atomicAdd(&hist[bucket_of(ord, s, ord.encode(keys[v.first + i]))], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < tuning::buckets; b += tuning::threads) counts[cell(v.d, b, v.t)] = hist[b];
    __syncthreads();
  }
}

// scatter
template <class K, class P, class Ord>
__global__ void __launch_bounds__(tuning::threads)
scatter_kernel(const K* kin, const P* vin, K* kout, P* vout, const segment_desc* descs, const unsigned* map,
               std::size_t tiles, Ord ord, const typename Ord::carried* splitters, const std::size_t* offsets) {
  using U = typename Ord::carried;
  constexpr int B = tuning::buckets;
  __shared__ U s[tuning::splitters];
  __shared__ std::size_t start[B];                 // output index of the tile's first key of b
  __shared__ unsigned running[B];                  // keys of b placed by earlier rounds
  __shared__ unsigned warp_count[tuning::warps][B];  // keys of b in each warp this round
  for (int i = threadIdx.x; i < tuning::warps * B; i += tuning::threads) (&warp_count[0][0])[i] = 0;
  unsigned loaded = ~0u;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned lanes_below = (1u << lane) - 1;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const tile_view v = tile_at(descs, map, tile);
    load_splitters(s, splitters, v.seg, loaded);
    const std::size_t origin = v.d.begin - offsets[cell(v.d, 0, 0)];
    for (int b = threadIdx.x; b < B; b += tuning::threads) {
      start[b] = origin + offsets[cell(v.d, b, v.t)];
      running[b] = 0;
    }
    __syncthreads();
    const std::size_t base = v.first;
    const int valid = v.valid;
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

}  // namespace gpusort::detail::sample
