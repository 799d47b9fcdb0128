// The per-thread register network: odd-even transposition sort of N items
// held in registers (Habermann 1972; CUDA lecture 6, "Understanding parallel thinking from the parallel sort method", part I). N rounds of
// compare-exchanges between neighbours, alternating even and odd pairs.
//
// O(N^2) comparisons, but N is a small compile-time constant, every index is
// a constant after unrolling (the arrays stay in registers) and the network
// is stable: compare_exchange swaps only strictly out-of-order neighbours.
// Block sorts (odd-even, merge) start from it.
#pragma once

#include <gpusort/detail/block/compare_exchange.cuh>

namespace gpusort::detail::block {

template <int N, class Less, class U, class P>
__device__ __forceinline__ void thread_sort(const Less& less, U (&keys)[N], P (&vals)[N]) {
#pragma unroll
  for (int round = 0; round < N; ++round) {
#pragma unroll
    for (int i = round & 1; i + 1 < N; i += 2) compare_exchange(less, keys[i], keys[i + 1], vals[i], vals[i + 1]);
  }
}

}  // namespace gpusort::detail::block
