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
// constant once unrolled); returns how many are real. Reads only inside
// the runs (serial_merge).
template <int ITEMS, class RunA, class RunB, class Less, class Take>
__device__ __forceinline__ int merge_slice(const Less& less, RunA a, unsigned na, RunB b, unsigned nb, unsigned diag,
                                           Take take) {
  if (diag >= na + nb) return 0;
  const unsigned ia = merge_path(a, na, b, nb, diag, less);
  serial_merge<ITEMS>(a, ia, na, b, diag - ia, nb, less, take);
  const unsigned left = na + nb - diag;
  return left < unsigned(ITEMS) ? int(left) : ITEMS;
}

// The same over two adjacent runs of a tile_storage, a = keys[0, na) and
// b = keys[na, na + nb) (one readable slot after b), into register arrays:
// padded, no guarded reads. The hottest loop of every block merge sort and
// merge pass, so written for the issue slots: the two heads stay in
// registers, each output selects one index (the taken run's next item) and
// makes one key load (and one value load for pairs), with no branch: about
// 12 instructions an output for 4-byte keys, against about 20 for the
// padded serial merge it replaced, whose two runs' loads both
// issued under predicates.
template <int ITEMS, class Less, class T, class P>
__device__ __forceinline__ int merge_slice(const Less& less, const T* keys, const P* vals, unsigned na, unsigned nb,
                                           unsigned diag, T (&k)[ITEMS], P (&v)[ITEMS]) {
  if (diag >= na + nb) return 0;
  const unsigned ia = merge_path(smem_run<T>{keys}, na, smem_run<T>{keys + na}, nb, diag, less);
  const unsigned left = na + nb - diag;
  // Each run's position: a pointer for keys alone (the load's address, no
  // index arithmetic), an index for pairs (one index, two arrays). Past
  // both ends (outputs the caller drops) a's stays at its padding slot.
  if constexpr (is_no_value<P>) {
    const T *pa = keys + ia, *pb = keys + na + (diag - ia);
    const T *const ea = keys + na, *const eb = keys + na + nb;
    T ka = *pa, kb = *pb;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const bool take_b = pb < eb && (pa >= ea || less(kb, ka));
      k[r] = take_b ? kb : ka;
      pa = take_b ? pa : (pa < ea ? pa + 1 : pa);
      pb = take_b ? pb + 1 : pb;
      const T next = *(take_b ? pb : pa);
      ka = take_b ? ka : next;
      kb = take_b ? next : kb;
    }
  } else {
    const unsigned ea = na, eb = na + nb;
    unsigned ja = ia, jb = na + diag - ia;
    T ka = keys[ja], kb = keys[jb];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const bool take_b = jb < eb && (ja >= ea || less(kb, ka));
      k[r] = take_b ? kb : ka;
      v[r] = vals[take_b ? jb : ja];
      ja = take_b ? ja : (ja < ea ? ja + 1 : ja);
      jb = take_b ? jb + 1 : jb;
      const T next = keys[take_b ? jb : ja];
      ka = take_b ? ka : next;
      kb = take_b ? next : kb;
    }
  }
  return left < unsigned(ITEMS) ? int(left) : ITEMS;
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
  const int produced = merge_slice<OUT>(less, tile_run<U, P>{&t, 0}, na, tile_run<U, P>{&t, na}, total - na, diag,
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
