// Sample sort, stage 1 (pivot_rule::sampled): splitters from a random
// sample of each segment (Sintorn & Assarsson 2008 pick pivots by linear
// interpolation; the lecture notes "MCMD L20: GPU Sorting" suggests a random sample, which does not depend
// on the key distribution; the interpolated rule is interpolate.cuh).
// One block per segment, entirely on the device:
//   sample   m = sample_count(size) keys (256 to 2048) at positions
//            hash(i) % size (splitmix64, deterministic, with replacement,
//            so any size >= 1 works)
//   sort     merge::block_merge_sort (256 threads x 8) under the order
//   pick     s[j] = sample[(j + 1) * m / 256], j = 0..254
// Splitters may repeat (few distinct keys); the search tree copes (search_tree.cuh).
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/block/merge_sort.cuh>
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

__host__ __device__ __forceinline__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// sample
template <class K, class Ord>
__global__ void __launch_bounds__(tuning::sample_threads)
sample_splitters_kernel(const K* keys, segment_list list, Ord ord, typename Ord::carried* splitters) {
  using U = typename Ord::carried;
  constexpr int TH = tuning::sample_threads, IT = tuning::sample_items;
  __shared__ block::tile_storage<U, no_value, TH * IT> s;
  const std::size_t segs = list.size();
  for (std::size_t seg = blockIdx.x; seg < segs; seg += gridDim.x) {
    const segment_desc d = list[seg];
    const int m = sample_count(d.size);
    const std::uint64_t salt = d.begin * 0x2545F4914F6CDD1Dull + d.size;
    U k[IT];
    no_value v[IT];
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      const int i = int(threadIdx.x) * IT + r;
      if (i < m) k[r] = ord.encode(keys[d.begin + splitmix64(salt + std::uint64_t(i)) % d.size]);
    }
    block::block_merge_sort<TH, IT>(ord, k, v, m, s);
    for (int j = threadIdx.x; j < tuning::splitters; j += TH)
      splitters[seg * tuning::splitters + j] = s.keys[(j + 1) * m / (tuning::splitters + 1)];
    __syncthreads();
  }
}

}  // namespace gpusort::detail::sample
