// The in-shared-memory merge (merge path, Green, McColl & Bader 2012):
// each thread takes ITEMS outputs of the stable merge of two sorted runs,
// from output diagonal `diag`, by one co-rank binary search and a serial
// merge into registers. Every merge of runs that sit in shared memory uses
// it: the block merge sort's rounds (merge_sort.cuh) and the merge of two
// tiles in place (merge_in_tile, odd-even merge-split).
#pragma once

#include <gpusort/detail/block/merge_path.cuh>
#include <gpusort/detail/block/tile.cuh>

namespace gpusort::detail::block {

template <class T> struct smem_run {
  const T* base;
  __device__ __forceinline__ T operator[](unsigned i) const { return base[i]; }
};

// Outputs [diag, diag + ITEMS) of the stable merge of a[0..na) and
// b[0..nb), handed to take(r, from_a, index, key) (r a compile-time
// constant once unrolled); returns how many are real. PADDED: a[na] and
// b[nb] are readable (serial_merge's padded form).
template <int ITEMS, bool PADDED, class RunA, class RunB, class Less, class Take>
__device__ __forceinline__ int merge_slice(const Less& less, RunA a, unsigned na, RunB b, unsigned nb, unsigned diag,
                                           Take take) {
  if (diag >= na + nb) return 0;
  const unsigned ia = merge_path(a, na, b, nb, diag, less);
  serial_merge<ITEMS, PADDED>(a, ia, na, b, diag - ia, nb, less, take);
  const unsigned left = na + nb - diag;
  return left < unsigned(ITEMS) ? int(left) : ITEMS;
}

// The same over dense runs of a tile_storage (b right after a, one readable
// slot after b), into register arrays: padded, no guarded reads.
template <int ITEMS, class Less, class T, class P>
__device__ __forceinline__ int merge_slice(const Less& less, const T* ak, const P* av, unsigned na, const T* bk,
                                           const P* bv, unsigned nb, unsigned diag, T (&k)[ITEMS], P (&v)[ITEMS]) {
  return merge_slice<ITEMS, true>(less, smem_run<T>{ak}, na, smem_run<T>{bk}, nb, diag,
                                  [&](int r, bool from_a, unsigned i, const T& key) {
                                    k[r] = key;
                                    if constexpr (!is_no_value<P>) v[r] = from_a ? av[i] : bv[i];
                                  });
}

// Run `offset..` of a shared_tile, indexable like an array.
template <class U, class P> struct tile_run {
  const shared_tile<U, P>* t;
  unsigned offset;
  __device__ __forceinline__ U operator[](std::size_t i) const { return t->key(offset + unsigned(i)); }
};

// Merges runs [0, na) and [na, total) of a shared_tile into one sorted run
// [0, total), in place: each thread merges OUT outputs from diagonal
// threadIdx.x * OUT into registers and, after a barrier, writes them back.
// Every thread of the block calls it; it synchronises on exit.
template <int OUT, class U, class P, class Less>
__device__ __forceinline__ void merge_in_tile(const shared_tile<U, P>& t, unsigned na, unsigned total, const Less& less) {
  const unsigned diag = threadIdx.x * OUT;
  U k[OUT];
  P v[OUT];
  const int produced = merge_slice<OUT, false>(less, tile_run<U, P>{&t, 0}, na, tile_run<U, P>{&t, na}, total - na, diag,
                                               [&](int r, bool from_a, unsigned i, const U&) {
                                                 t.load(from_a ? i : na + i, k[r], v[r]);
                                               });
  __syncthreads();
#pragma unroll
  for (int r = 0; r < OUT; ++r)
    if (r < produced) t.store(diag + r, k[r], v[r]);
  __syncthreads();
}

}  // namespace gpusort::detail::block
