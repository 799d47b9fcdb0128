// Sample sort: the exclusive scan of a level's count table, in place
// (between the count and the scatter, policy.cuh). The table holds 511
// cells a tile, and the level's tiles are counted on the device only (its
// segment list's counter), so cub::DeviceScan, which takes its length from
// the host, would have to scan the host bound: up to 2.7x the cells a
// level has, and all of them again for every empty level. Instead a fixed
// grid of G = tuning::scan_blocks blocks reads the count on the device,
// block g taking the slice [g C / G, (g + 1) C / G) of the level's C cells
// (the classic reduce-then-scan, its middle scan of the G sums folded into
// the second kernel):
//   sums   block g adds up its slice into sums[g]
//   scan   block g adds up sums[0 .. g) (G values at most), then scans its
//          slice in chunks of scan_threads x scan_items cells: each thread
//          a run of scan_items consecutive cells, a block scan over the
//          threads' totals, the chunk's total carried to the next
// The cells are read twice and written once (a single-pass scan reads
// them once); an empty level's blocks leave at once.
#pragma once

#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <gpusort/detail/block/scan.cuh>

#include <cstddef>

namespace gpusort::detail::sample {

// Block g's slice of the level's cells.
struct table_slice {
  std::size_t lo, hi;
  __device__ explicit table_slice(const segment_list& segs) {
    const std::size_t cells = std::size_t(tuning::buckets) * segs.work_items();
    lo = cells * blockIdx.x / gridDim.x;
    hi = cells * (blockIdx.x + 1) / gridDim.x;
  }
};

// sums
template <class Lists>
__global__ void __launch_bounds__(tuning::scan_threads)
table_sums_kernel(const std::size_t* table, Lists lists, int level, std::size_t* sums) {
  constexpr int T = tuning::scan_threads;
  __shared__ std::size_t warp_sums[T / 32];
  const table_slice s(lists.at(level));
  // scan_items loads in flight a thread (a plain loop waited for each)
  constexpr int IT = tuning::scan_items;
  std::size_t mine = 0;
  for (std::size_t base = s.lo + threadIdx.x; base < s.hi; base += std::size_t(T) * IT) {
    std::size_t v[IT];
#pragma unroll
    for (int r = 0; r < IT; ++r) v[r] = base + std::size_t(r) * T < s.hi ? table[base + std::size_t(r) * T] : 0;
#pragma unroll
    for (int r = 0; r < IT; ++r) mine += v[r];
  }
  std::size_t total;
  block::block_exclusive_sum<T>(mine, warp_sums, total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// scan
template <class Lists>
__global__ void __launch_bounds__(tuning::scan_threads)
table_scan_kernel(std::size_t* table, Lists lists, int level, const std::size_t* sums) {
  constexpr int T = tuning::scan_threads, IT = tuning::scan_items;
  __shared__ std::size_t warp_sums[T / 32];
  const table_slice s(lists.at(level));
  if (s.lo == s.hi) return;  // block-uniform
  std::size_t before = 0;
  for (unsigned g = threadIdx.x; g < blockIdx.x; g += T) before += sums[g];
  std::size_t carry;
  block::block_exclusive_sum<T>(before, warp_sums, carry);
  __syncthreads();
  for (std::size_t base = s.lo; base < s.hi; base += std::size_t(T) * IT) {
    const std::size_t mine = base + std::size_t(threadIdx.x) * IT;
    std::size_t v[IT], sum = 0;
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      v[r] = mine + r < s.hi ? table[mine + r] : 0;
      sum += v[r];
    }
    std::size_t total;
    std::size_t at = carry + block::block_exclusive_sum<T>(sum, warp_sums, total);
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      if (mine + r < s.hi) table[mine + r] = at;
      at += v[r];
    }
    carry += total;
    __syncthreads();  // warp_sums is reused
  }
}

}  // namespace gpusort::detail::sample
