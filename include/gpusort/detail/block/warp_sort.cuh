// One warp sorts 32 x N (rank, tag) pairs in registers with Batcher's
// bitonic network (Batcher 1968, "Sorting networks and their
// applications"): element j of lane l sits at position j * 32 + l; strides
// below 32 exchange between lanes by shuffles, stride 32 inside a lane.
// The tag breaks ties (an input position makes the result stable), so every
// pair must be distinct for a deterministic order; pads take the largest
// rank and tag. Used by radix_msd's local sort (the small buckets left by
// its in-block split) and by top-k's block selection (its winners).
#pragma once

#include <cstdint>

namespace gpusort::detail::block {

template <class R, class Tag> __device__ __forceinline__ bool pair_less(R ra, Tag ta, R rb, Tag tb) {
  return ra < rb || (ra == rb && ta < tb);
}

template <int N, class R, class Tag> __device__ __forceinline__ void warp_bitonic_sort(R (&rank)[N], Tag (&tag)[N]) {
  static_assert(N == 1 || N == 2, "32 or 64 elements a warp");
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned size = 2; size <= 32u * N; size <<= 1) {
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      if (stride == 32) {  // N == 2: elements 0 and 1 of this lane
        // position lane vs lane + 32; size 64: one ascending run
        if (pair_less(rank[1], tag[1], rank[0], tag[0])) {
          const R r = rank[0];
          const Tag t = tag[0];
          rank[0] = rank[1], tag[0] = tag[1];
          rank[1] = r, tag[1] = t;
        }
        continue;
      }
#pragma unroll
      for (int j = 0; j < N; ++j) {
        const unsigned pos = unsigned(j) * 32 + lane;
        const R r2 = __shfl_xor_sync(0xFFFFFFFFu, rank[j], stride);
        const Tag t2 = __shfl_xor_sync(0xFFFFFFFFu, tag[j], stride);
        const bool up = (pos & size) == 0;        // this run sorts ascending
        const bool low = (pos & stride) == 0;     // this position keeps the smaller
        const bool other_less = pair_less(r2, t2, rank[j], tag[j]);
        if (other_less == (low == up)) {
          rank[j] = r2;
          tag[j] = t2;
        }
      }
    }
  }
}

}  // namespace gpusort::detail::block
