// Moving one tile of a merge-family kernel between global and shared memory.
//   load_slices  the concatenation of two global slices (a merge's A and B
//                slices; a block sort passes an empty B), striped over the
//                block, every copy in flight (core/async_copy.cuh), then
//                each thread encodes the keys it copied into the carried
//                form (skipped when the order says encoding is the
//                identity, Ord::encodes_as_is(): unsigned keys, ascending;
//                custom keys). Widths cp.async cannot move take the
//                register path. Ends with __syncthreads().
//   store_tile   the tile's first items back out, decoded, coalesced.
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
    if (ord.encodes_as_is()) {
      __syncthreads();
      return;
    }
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

// Stores the tile's first `count` items to k[0..count) / v[0..count),
// decoded, striped over the block (coalesced), every store unrolled.
template <int THREADS, int ITEMS, class Ord, class K, class P, class T>
__device__ __forceinline__ void store_tile(const Ord& ord, const tile_storage<T, P, THREADS * ITEMS>& s, K* k, P* v,
                                           unsigned count) {
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const unsigned i = threadIdx.x + unsigned(r) * THREADS;
    if (i < count) {
      k[i] = ord.decode(s.keys[i]);
      if constexpr (!is_no_value<P>) v[i] = s.vals[i];
    }
  }
}

}  // namespace gpusort::detail::merge
