// The network sorts' tile moves: a block-strided loop over any count of
// elements between global memory and a padded shared_tile (tile.cuh),
// encoding keys on load and decoding them on store. Their tiles are
// sized at run time and their kernels are bound by compare-exchanges, not
// by the loads: measured on the H200, the unrolled cp.async loader
// (load_slice) made bitonic 3% slower at 2^28 (docs/perf/network.md).
#pragma once

#include <gpusort/detail/block/tile.cuh>

#include <cstddef>

namespace gpusort::detail::block {

// Elements [base, base + count) of keys/vals into the tile; no barrier.
template <int THREADS, class K, class P, class U, class Ord>
__device__ __forceinline__ void load_strided(const K* keys, const P* vals, std::size_t base, int count,
                                             const shared_tile<U, P>& t, const Ord& ord) {
  for (int i = threadIdx.x; i < count; i += THREADS) {
    t.key(unsigned(i)) = ord.encode(keys[base + i]);
    if constexpr (!is_no_value<P>) t.val(unsigned(i)) = vals[base + i];
  }
}

// The tile's first `count` elements back to [base, base + count).
template <int THREADS, class K, class P, class U, class Ord>
__device__ __forceinline__ void store_strided(const shared_tile<U, P>& t, int count, K* keys, P* vals,
                                              std::size_t base, const Ord& ord) {
  for (int i = threadIdx.x; i < count; i += THREADS) {
    keys[base + i] = ord.decode(t.key(unsigned(i)));
    if constexpr (!is_no_value<P>) vals[base + i] = t.val(unsigned(i));
  }
}

}  // namespace gpusort::detail::block
