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

namespace gpusort::detail {

// Number of A items among the first `diag` outputs of the stable merge of
// a[0..na) and b[0..nb). `less(x, y)`: x sorts strictly before y.
template <class ItA, class ItB, class Less>
GPUSORT_MERGE_HD std::size_t merge_path(ItA a, std::size_t na, ItB b, std::size_t nb, std::size_t diag,
                                        Less less) {
  std::size_t lo = diag > nb ? diag - nb : 0;
  std::size_t hi = diag < na ? diag : na;
  while (lo < hi) {
    std::size_t mid = (lo + hi) / 2;
    // a[mid] goes before b[diag - 1 - mid] unless b's item is strictly less
    if (!less(b[diag - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

#if defined(__CUDACC__)
// merge_path() by one whole warp: a 32-ary search. Each step the 32 lanes
// test 32 evenly spaced candidates at once (two independent loads each)
// and a ballot keeps the one interval holding the answer, so a range of m
// candidates takes ceil(log32(m)) dependent steps (6 for 2^27) instead of
// log2(m) (27). For searches in global memory, where each step costs a
// full memory latency. Every lane returns the answer.
template <class ItA, class ItB, class Less>
__device__ __forceinline__ std::size_t warp_merge_path(ItA a, std::size_t na, ItB b, std::size_t nb,
                                                       std::size_t diag, Less less) {
  std::size_t lo = diag > nb ? diag - nb : 0;
  std::size_t hi = diag < na ? diag : na;
  const unsigned lane = threadIdx.x & 31u;
  // The answer is the first i >= lo with after(i), where after(i) means
  // i >= hi or b[diag - 1 - i] < a[i] (monotone: false, then true).
  while (lo < hi) {
    const std::size_t stride = (hi - lo + 31) / 32;
    const std::size_t q = lo + (lane + 1) * stride - 1;  // lane 31's q >= hi - 1
    const bool after = q >= hi || less(b[diag - 1 - q], a[q]);
    const unsigned votes = __ballot_sync(~0u, after);
    if (votes == 0) return hi;  // lane 31 tested hi - 1: false
    // the answer lies in (q of lane first - 1, q of lane first]
    const unsigned first = unsigned(__ffs(votes)) - 1;
    const std::size_t q_first = lo + (first + 1) * stride - 1;
    lo += first * stride;
    hi = q_first < hi ? q_first : hi;
  }
  return lo;
}
#endif

// Serial stable merge of up to COUNT outputs from a[ia..na) and b[ib..nb):
// emit(k, from_a, index, key) receives output k (a compile-time constant
// once the loop unrolls, so emit may fill a register array), its source
// index and its key. The two head keys stay in registers, so each output
// costs one read. Stops early when both inputs run out.
template <int COUNT, class ItA, class ItB, class Less, class Emit>
GPUSORT_MERGE_HD void serial_merge(ItA a, std::size_t ia, std::size_t na, ItB b, std::size_t ib, std::size_t nb,
                                   Less less, Emit emit) {
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

}  // namespace gpusort::detail
