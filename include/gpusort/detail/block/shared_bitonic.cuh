// Bitonic sort (Batcher 1968, "Sorting networks and their applications")
// of N elements in shared memory by one block of THREADS threads, ascending
// by operator<: every thread of the block calls it after the elements are
// stored (and a barrier); it ends with a barrier. N a power of two. Not
// stable: for elements whose order among equals does not matter (radix_msd's
// plan sorts a sample of key ranks with it).
#pragma once

namespace gpusort::detail::block {

template <int THREADS, int N, class E> __device__ __forceinline__ void shared_bitonic_sort(E* s) {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "a power of two of elements");
  for (int k = 2; k <= N; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int t = threadIdx.x; t < N / 2; t += THREADS) {
        const int lo = 2 * t - (t & (j - 1)), hi = lo + j;  // the pair t of this step
        const E a = s[lo], b = s[hi];
        if ((b < a) == ((lo & k) == 0)) {
          s[lo] = b;
          s[hi] = a;
        }
      }
      __syncthreads();
    }
}

}  // namespace gpusort::detail::block
