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
// A thread has `loads` keys in flight before it counts any: with one (a
// load, then its atomics), a full SM held half the bytes in flight that
// the copy rate needs (Little's law), and the histogram of 2^27 doubles
// took 618 us on an H200, more than twice a read.
template <class U, class Map>
__device__ __forceinline__ void count_top_digits(const U* keys, std::size_t n, int top, Map map, unsigned* hist) {
  constexpr int counted = 3, bins = 256, loads = 8;
  __shared__ unsigned counts[counted * bins];
  for (int i = threadIdx.x; i < counted * bins; i += blockDim.x) counts[i] = 0;
  __syncthreads();
  const auto count = [&](U key) {
    const std::uint64_t c = map(key);
#pragma unroll
    for (int j = 0; j < counted; ++j)
      if (top - j >= 0) atomicAdd(&counts[j * bins + int((c >> (8 * (top - j))) & 255u)], 1u);
  };
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (loads - 1) * stride < n; i += loads * stride) {
    U k[loads];
#pragma unroll
    for (int j = 0; j < loads; ++j) k[j] = keys[i + std::size_t(j) * stride];
#pragma unroll
    for (int j = 0; j < loads; ++j) count(k[j]);
  }
  for (; i < n; i += stride) count(keys[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < counted * bins; i += blockDim.x)
    if (counts[i] && top - i / bins >= 0) atomicAdd(&hist[(top - i / bins) * bins + i % bins], counts[i]);
}

}  // namespace gpusort::detail::radix_msd
