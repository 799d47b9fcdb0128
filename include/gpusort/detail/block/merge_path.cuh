// Merge path (Green, McColl & Bader 2012; Odeh et al. 2012): the shared
// building block of every merge here.
//
// Merging sorted A and B writes |A| + |B| outputs. Output diagonal d splits
// into the first i items of A and the first d - i of B; merge_path() finds i
// by binary search, so any number of threads can each take an equal slice of
// the output and merge it independently. Ties go to A (the left run), which
// makes every merge built on it stable.
#pragma once

#include <cstddef>
#include <type_traits>

#if defined(__CUDACC__)
#define GPUSORT_MERGE_HD __host__ __device__ __forceinline__
#else
#define GPUSORT_MERGE_HD inline
#endif

namespace gpusort::detail::block {

// Number of A items among the first `diag` outputs of the stable merge of
// a[0..na) and b[0..nb). `less(x, y)`: x sorts strictly before y.
// Index arithmetic is done in I, the type of na: unsigned for runs in shared
// memory (32-bit compares and adds), std::size_t for global arrays.
template <class ItA, class ItB, class Less, class I>
GPUSORT_MERGE_HD I merge_path(ItA a, I na, ItB b, std::type_identity_t<I> nb, std::type_identity_t<I> diag,
                              Less less) {
  I lo = diag > nb ? diag - nb : 0;
  I hi = diag < na ? diag : na;
  while (lo < hi) {
    const I mid = (lo + hi) / 2;
    // a[mid] goes before b[diag - 1 - mid] unless b's item is strictly less
    if (!less(b[diag - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Serial stable merge of up to COUNT outputs from a[ia..na) and b[ib..nb):
// emit(k, from_a, index, key) receives output k (a compile-time constant
// once the loop unrolls, so emit may fill a register array), its source
// index and its key. The two head keys stay in registers, so each output
// costs one read; it stops early when both inputs run out and reads only
// inside the runs (global memory too). Indices in I, the type of ia (as
// merge_path). (Tiles in shared memory merge with block::merge_slice's
// dense form, merge.cuh.)
template <int COUNT, class ItA, class ItB, class Less, class Emit, class I>
GPUSORT_MERGE_HD void serial_merge(ItA a, I ia, std::type_identity_t<I> na, ItB b, std::type_identity_t<I> ib,
                                   std::type_identity_t<I> nb, Less less, Emit emit) {
  using TA = std::remove_cv_t<std::remove_reference_t<decltype(a[0])>>;
  using TB = std::remove_cv_t<std::remove_reference_t<decltype(b[0])>>;
  TA ka{};
  TB kb{};
  if (ia < na) ka = a[ia];
  if (ib < nb) kb = b[ib];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 0; k < COUNT; ++k) {
    if (ia >= na && ib >= nb) break;
    bool take_a = ib >= nb || (ia < na && !less(kb, ka));
    if (take_a) {
      emit(k, true, ia, ka);
      if (++ia < na) ka = a[ia];
    } else {
      emit(k, false, ib, kb);
      if (++ib < nb) kb = b[ib];
    }
  }
}

}  // namespace gpusort::detail::block
