// radix_msd's first histogram of a mapped key c (the class map of doubles,
// msd_classes.cuh; the affine map of 64-bit integers, msd_ints.cuh): the
// counts of c's digits top, top - 1 and top - 2 (those at or above 0) in
// one read, three shared atomics a key, not eight (the histogram of all
// eight took 0.69 ms for 2^27 doubles on an H100). They are the levels'
// first histogram as far as the plan reads it: its shares, over the top
// three varying digits, and level 0's counts.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

// Every block of a grid-stride kernel calls it: c = map(keys[i]) for each
// of the n keys, counted into hist[pass][digit] (zeroed by the caller),
// pass p at bit 8p, as digit_map::of counts digits over the full range.
template <class U, class Map>
__device__ __forceinline__ void count_top_digits(const U* keys, std::size_t n, int top, Map map, unsigned* hist) {
  constexpr int counted = 3, bins = 256;
  __shared__ unsigned counts[counted * bins];
  for (int i = threadIdx.x; i < counted * bins; i += blockDim.x) counts[i] = 0;
  __syncthreads();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t c = map(keys[i]);
#pragma unroll
    for (int j = 0; j < counted; ++j)
      if (top - j >= 0) atomicAdd(&counts[j * bins + int((c >> (8 * (top - j))) & 255u)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < counted * bins; i += blockDim.x)
    if (counts[i] && top - i / bins >= 0) atomicAdd(&hist[(top - i / bins) * bins + i % bins], counts[i]);
}

}  // namespace gpusort::detail::radix_msd
