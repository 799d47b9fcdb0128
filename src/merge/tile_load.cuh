// Loading one tile of a merge-family kernel into shared memory: the
// concatenation of two global slices (a merge's A and B slices; a block
// sort passes an empty B), striped over the block, all copies in flight
// (core/async_copy.cuh), then each thread encodes the keys it copied into
// the carried form. Keys and values whose width cp.async cannot move take
// the register path. Ends with __syncthreads().
#pragma once

#include "core/async_copy.cuh"
#include "core/payload.cuh"
#include "merge/block_merge_sort.cuh"

#include <cstring>

namespace gpusort::detail::merge {

template <int THREADS, int ITEMS, class Ord, class K, class P, class T>
__device__ __forceinline__ void load_slices(const Ord& ord, tile_storage<T, P, THREADS * ITEMS>& s, const K* ka,
                                            const P* va, unsigned la, const K* kb, const P* vb, unsigned lb) {
  constexpr bool raw_keys = sizeof(K) == sizeof(T) && async_copyable<K>;
  const unsigned count = la + lb;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const unsigned i = threadIdx.x + unsigned(r) * THREADS;
    if (i < count) {
      const bool in_a = i < la;
      const unsigned j = in_a ? i : i - la;
      if constexpr (raw_keys) copy_async(reinterpret_cast<K*>(&s.keys[i]), (in_a ? ka : kb) + j);
      else s.keys[i] = ord.encode((in_a ? ka : kb)[j]);
      if constexpr (!is_no_value<P>) copy_async(&s.vals[i], (in_a ? va : vb) + j);
    }
  }
  copy_async_wait();
  if constexpr (raw_keys) {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const unsigned i = threadIdx.x + unsigned(r) * THREADS;
      if (i < count) {
        K k;
        std::memcpy(&k, &s.keys[i], sizeof(K));
        s.keys[i] = ord.encode(k);
      }
    }
  }
  __syncthreads();
}

}  // namespace gpusort::detail::merge
