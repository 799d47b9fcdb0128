// Sample sort, stage 1: splitters, entirely on the device.
// One block of 1024 threads draws 2048 keys at indices hash(i) % n
// (splitmix64, deterministic, with replacement, so any n >= 1 works),
// bitonic-sorts them in shared memory under the call's order and writes
// every oversample-th one as a splitter: s[j] = sample[(j + 1) * 8].
// Splitters may repeat (few distinct keys); bucket_of copes (tuning.cuh).
#pragma once

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

template <class K, class Ord>
__global__ void __launch_bounds__(tuning::sample_threads)
splitter_kernel(const K* keys, std::size_t n, Ord ord, typename Ord::carried* splitters) {
  using U = typename Ord::carried;
  constexpr int M = tuning::samples;
  __shared__ U s[M];
  for (int i = threadIdx.x; i < M; i += tuning::sample_threads)
    s[i] = ord.encode(keys[splitmix64(std::uint64_t(i) * 0x2545F4914F6CDD1Dull + n) % n]);
  __syncthreads();
  // bitonic sort of M keys (not stable; only the splitter values matter)
  for (int k = 2; k <= M; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < M; i += tuning::sample_threads) {
        int ixj = i ^ j;
        if (ixj > i) {
          U a = s[i], b = s[ixj];
          bool up = (i & k) == 0;
          if (up ? ord.less(b, a) : ord.less(a, b)) {
            s[i] = b;
            s[ixj] = a;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int j = threadIdx.x; j < tuning::splitters; j += tuning::sample_threads)
    splitters[j] = s[(j + 1) * tuning::oversample];
}

}  // namespace gpusort::detail::sample
