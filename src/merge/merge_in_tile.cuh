// Merges two sorted runs that sit side by side in a shared-memory tile,
// in place: runs [0, na) and [na, total) become one sorted run [0, total).
// Each thread takes OUT outputs from diagonal threadIdx.x * OUT by merge
// path (Green, McColl & Bader 2012), merges them serially into registers,
// and, after a barrier, writes them back. Stable (ties from the left run).
// Used where a block merges two tiles: odd-even merge-split.
#pragma once

#include "merge/merge_path.cuh"
#include "network/tile_memory.cuh"

namespace gpusort::detail {

// Run `offset..` of a shared tile, indexable like an array.
template <class U, class P> struct tile_run {
  const shared_tile<U, P>* t;
  unsigned offset;
  __device__ __forceinline__ U operator[](std::size_t i) const { return t->keys[t->slot(offset + unsigned(i))]; }
};

// Every thread of the block must call it; it synchronises on exit.
template <int OUT, class U, class P, class Less>
__device__ __forceinline__ void merge_in_tile(const shared_tile<U, P>& t, unsigned na, unsigned total, const Less& less) {
  const unsigned diag = threadIdx.x * OUT;
  const unsigned nb = total - na;
  U k[OUT];
  P v[OUT];
  int produced = 0;
  if (diag < total) {
    tile_run<U, P> a{&t, 0}, b{&t, na};
    const unsigned ia = merge_path(a, na, b, nb, diag, less);
    serial_merge<OUT>(a, ia, na, b, diag - ia, nb, less, [&](int r, bool from_a, unsigned i, const auto&) {
      t.load(from_a ? unsigned(i) : na + unsigned(i), k[r], v[r]);
      produced = r + 1;
    });
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < OUT; ++r)
    if (r < produced) t.store(diag + r, k[r], v[r]);
  __syncthreads();
}

}  // namespace gpusort::detail
