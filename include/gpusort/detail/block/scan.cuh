// Block and warp scans (exclusive and inclusive sums) shared by the
// rankers, the partition offsets and the schedulers: a Kogge-Stone scan
// over the lanes by shuffles, then the warps' totals combined by one more
// warp-wide step (CUB's BlockScanWarpScans shape).
#pragma once

#include <gpusort/detail/block/warp.cuh>

namespace gpusort::detail::block {

// Inclusive sum over the lanes of a full warp.
template <class V> __device__ __forceinline__ V warp_inclusive_sum(V x) {
  const unsigned lane = lane_id();
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    const V y = __shfl_up_sync(~0u, x, o);
    if (lane >= unsigned(o)) x += y;
  }
  return x;
}

// The sum of x over the warp (every lane gets it).
__device__ __forceinline__ unsigned warp_sum(unsigned x) {
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync(~0u, x);
#else
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(~0u, x, o);
  return x;
#endif
}

// Exclusive sum of one value per thread over the block, and the block's
// total. `warp_sums` holds THREADS / 32 values; the caller syncs before it is
// reused.
template <int THREADS, class V>
__device__ __forceinline__ V block_exclusive_sum(V v, V* warp_sums, V& total) {
  static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 32");
  constexpr unsigned warps = THREADS / 32;
  const unsigned lane = lane_id(), warp = threadIdx.x / 32;
  const V x = warp_inclusive_sum(v);
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  // the earlier warps' sums: lane w loads warp w's (w < warp), then a warp
  // reduction: one shared load and 5 shuffles instead of a loop that waits
  // on one shared load per earlier warp (up to 15), and no extra registers
  // (an unrolled predicated loop made ptxas spill the u32-pair pass)
  V before = lane < warp ? warp_sums[lane] : V(0);
  V all = lane < warps ? warp_sums[lane] : V(0);
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    before += __shfl_xor_sync(~0u, before, o);
    all += __shfl_xor_sync(~0u, all, o);
  }
  total = all;
  return before + x - v;
}

// The same without the total (its reduction is dead code then).
template <int THREADS, class V> __device__ __forceinline__ V block_exclusive_sum(V v, V* warp_sums) {
  V total;
  return block_exclusive_sum<THREADS>(v, warp_sums, total);
}

}  // namespace gpusort::detail::block
