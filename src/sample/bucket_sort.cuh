// Sample sort, stages 4-5: what becomes of each bucket (Sintorn &
// Assarsson 2008 step 3, "merge sort on each list"; issue 5 steps 3 and 5).
//
// pack: one warp per segment walks its 511 buckets in key order, with the
// bucket bounds read from the scanned table, and
//   * sends every range bucket larger than one merge tile to the next
//     level (an oversized span, refined with new splitters);
//   * packs the other buckets, consecutive in key order, greedily into
//     runs of at most one merge tile: a run is a contiguous stretch of the
//     buffer in which every bucket is below the next, so sorting the run
//     stably sorts its buckets. A run of equality buckets and one-key range
//     buckets is already in order and is only copied; an equality bucket
//     larger than a tile is copied in whole tiles, its tail joins a run.
// Runs are appended (in any order: each has its own output positions) to
// the level's run list, 32 at a time per warp; the oversized spans to the
// level's list.
// sort: merge::segment_sort_kernel (the shared segmented block sort, one
// block per run, stable) moves the runs into the output.
// Packing keeps the block sort's tiles full (~n / tile runs instead of one
// per bucket, most of them tiny after level 1).
#pragma once

#include "merge/segment_sort.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <cstddef>

namespace gpusort::detail::sample {

static_assert(sizeof(std::size_t) == sizeof(unsigned long long));

__device__ __forceinline__ std::size_t atomic_add(std::size_t* at, std::size_t v) {
  return std::size_t(atomicAdd(reinterpret_cast<unsigned long long*>(at), (unsigned long long)v));
}

// The level's runs as a segment list for merge::segment_sort_kernel.
struct run_list {
  const std::size_t* counters;
  const merge::segment* runs;
  __device__ std::size_t count() const { return counters[level_counters::runs]; }
  __device__ merge::segment operator()(std::size_t i) const { return runs[i]; }
};

// The warp's runs waiting to be appended: lane i holds the i-th.
struct pending_runs {
  merge::segment mine;
  int count = 0;  // warp-uniform

  __device__ void flush(std::size_t* counters, merge::segment* runs) {
    if (count == 0) return;
    std::size_t at = 0;
    if (threadIdx.x % 32 == 0) at = atomic_add(&counters[level_counters::runs], std::size_t(count));
    at = __shfl_sync(0xFFFFFFFFu, at, 0);
    if (int(threadIdx.x % 32) < count) runs[at + threadIdx.x % 32] = mine;
    count = 0;
  }
  __device__ void add(const merge::segment& r, std::size_t* counters, merge::segment* runs) {
    if (int(threadIdx.x % 32) == count) mine = r;
    if (++count == 32) flush(counters, runs);
  }
};

// pack
template <int TILE>
__global__ void __launch_bounds__(tuning::pack_threads)
pack_kernel(const segment_desc* descs, std::size_t segs, const std::size_t* offsets, std::size_t* counters,
            merge::segment* runs, span* oversized) {
  constexpr int B = tuning::buckets;
  constexpr int WARPS = tuning::pack_threads / 32;
  const int lane = int(threadIdx.x % 32);
  for (std::size_t seg = std::size_t(blockIdx.x) * WARPS + threadIdx.x / 32; seg < segs;
       seg += std::size_t(gridDim.x) * WARPS) {
    const segment_desc d = descs[seg];
    const std::size_t origin = offsets[cell(d, 0, 0)];
    auto start = [&](int b) { return b < B ? offsets[cell(d, b, 0)] - origin : d.size; };
    pending_runs out;
    merge::segment run{0, 0, true};  // the open run (warp-uniform)
    auto close = [&] {
      if (run.size > 0) out.add(run, counters, runs);
      run = {0, 0, true};
    };
    for (int w = 0; w < B; w += 32) {
      const int b = w + lane;
      const std::size_t lo = b < B ? start(b) : d.size;
      const std::size_t size = (b < B ? start(b + 1) : d.size) - lo;
      for (unsigned todo = __ballot_sync(0xFFFFFFFFu, size != 0); todo; todo &= todo - 1) {
        const int src = __ffs(todo) - 1;
        std::size_t at = d.begin + __shfl_sync(0xFFFFFFFFu, lo, src);
        std::size_t left = __shfl_sync(0xFFFFFFFFu, size, src);
        const bool equal = (w + src) % 2 == 1;
        if (left > std::size_t(TILE)) {
          close();
          if (!equal) {  // refine
            if (lane == 0) oversized[atomic_add(&counters[level_counters::oversized], 1)] = {at, left};
            continue;
          }
          const std::size_t whole = left / TILE;  // equality bucket: copy whole tiles
          std::size_t first = 0;
          if (lane == 0) first = atomic_add(&counters[level_counters::runs], whole);
          first = __shfl_sync(0xFFFFFFFFu, first, 0);
          for (std::size_t i = lane; i < whole; i += 32) runs[first + i] = {at + i * TILE, TILE, true};
          at += whole * TILE;
          left -= whole * TILE;
          if (left == 0) continue;
        }
        if (run.size + left > std::size_t(TILE)) close();
        if (run.size == 0) run.begin = at;
        run.size += int(left);
        run.copy = run.copy && (equal || left == 1);
      }
    }
    close();
    out.flush(counters, runs);
  }
}

}  // namespace gpusort::detail::sample
